"""The home page through Flask's test client: this phone's games only, archive, delete
with undo, and no route that enumerates games."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.table.mine import leader_in_words
from tests.table.test_pages import GameActions


@pytest.fixture
def games(client, app: Flask) -> GameActions:
    return GameActions(client, app)


def _post(client, path: str):
    return client.post(path, data={"version": "0"})


def test_home_lists_only_games_this_phone_started_or_opened(app, client, games):
    mine = games.start(("Ann", "Bob"), title="Our night")
    other_phone = app.test_client()
    theirs = GameActions(other_phone, app).start(("Cat", "Dee"), title="Their night")
    assert "Our night" in client.get("/").get_data(as_text=True)
    assert "Their night" not in client.get("/").get_data(as_text=True)
    page = other_phone.get("/").get_data(as_text=True)
    assert "Their night" in page and "Our night" not in page and mine not in page

    watcher = app.test_client()
    assert "No game in progress on this phone." in watcher.get("/").get_data(as_text=True)
    watcher.get(f"/games/{theirs}")
    page = watcher.get("/").get_data(as_text=True)
    assert "Their night" in page and "Our night" not in page
    assert "Delete" not in page, "a watcher has no edit rights, so no delete"


def test_each_game_shows_its_leader_round_count_and_last_played(client, games):
    games.start(("Ann", "Bob", "Cat"))
    games.totals(0, [120, 40, 10], [0, 15, 35])
    games.totals(1, [10, 60, 30], [0, 0, 10])
    page = client.get("/").get_data(as_text=True)
    assert "Ann leads with 130 · 2 rounds" in page
    assert re.search(r'last played <time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"', page)


def test_leader_in_words_agrees_with_sides_and_ties(app, games):
    games.start(("Ann", "Bob", "Cat", "Dee"), preset="partnership")
    games.totals(0, [60, 20, 30, 5], [0, 10, 0, 5])
    game = games.game()
    last = game.rounds[-1]
    assert leader_in_words(game, last) == "Ann & Cat lead with 90"
    last.summary = {"round": {}, "total": {"Ann": 40, "Bob": 40}, "dealer": 0}
    assert leader_in_words(game, last) == "Ann and Bob lead with 40"
    assert leader_in_words(game, None) == "no round yet"
    game.winner = "Ann & Cat"
    assert leader_in_words(game, last) == "Ann & Cat won"


def test_archive_moves_a_game_apart_and_back(client, games):
    slug = games.start(("Ann", "Bob"), title="Old night")
    assert _post(client, f"/games/{slug}/archive").status_code == 303
    page = client.get("/").get_data(as_text=True)
    assert "Archived (1)" in page and "No game in progress on this phone." in page
    assert client.get(f"/games/{slug}").status_code == 200, "archived is not deleted"
    _post(client, f"/games/{slug}/unarchive")
    page = client.get("/").get_data(as_text=True)
    assert "Archived" not in page and "Old night" in page


def test_delete_hides_the_game_everywhere_and_undo_brings_it_back(app, client, games):
    slug = games.start(("Ann", "Bob"), title="Oops")
    games.totals(0, [50, 10], [0, 5])
    watcher = app.test_client()
    watcher.get(f"/games/{slug}")
    assert _post(client, f"/games/{slug}/delete").status_code == 303
    page = client.get("/").get_data(as_text=True)
    assert "Deleted: <strong>Oops</strong>" in page and "Undo" in page
    assert client.get(f"/games/{slug}").status_code == 404
    assert client.get(f"/games/{slug}/version").status_code == 404
    assert "Oops" not in watcher.get("/").get_data(as_text=True)

    assert _post(client, f"/games/{slug}/restore").status_code == 303
    assert client.get(f"/games/{slug}").status_code == 200
    assert games.totals_now() == {"Ann": 50, "Bob": 5}
    assert "Deleted:" not in client.get("/").get_data(as_text=True)
    assert "Oops" in watcher.get("/").get_data(as_text=True)


def test_delete_and_restore_need_edit_rights(app, games):
    slug = games.start(("Ann", "Bob"))
    watcher = app.test_client()
    watcher.get(f"/games/{slug}")
    assert _post(watcher, f"/games/{slug}/delete").status_code == 403
    assert watcher.get(f"/games/{slug}").status_code == 200
    _post(games.client, f"/games/{slug}/delete")
    assert _post(watcher, f"/games/{slug}/restore").status_code == 404
    with app.app_context():
        game = db.session.execute(db.select(Game).filter_by(view_token=slug)).scalar_one()
        assert game.deleted_at is not None


def test_buttons_need_the_csrf_token(csrf_app):
    client = csrf_app.test_client()
    with csrf_app.app_context():
        game = Game(preset="standard")
        db.session.add(game)
        db.session.commit()
        slug = game.view_token
    assert client.post(f"/games/{slug}/archive").status_code == 400
    assert client.post(f"/games/{slug}/delete").status_code == 400


def test_no_route_enumerates_games(app):
    """Every GET route without a game's token in it answers the same to any visitor, and
    none but the home page (this phone's list) shows a game link."""
    routes = [
        r.rule
        for r in app.url_map.iter_rules()
        if "GET" in r.methods and not r.arguments and not r.rule.startswith("/static")
    ]
    creator = app.test_client()
    slug = GameActions(creator, app).start(("Ann", "Bob"))
    stranger = app.test_client()
    for rule in routes:
        body = stranger.get(rule).get_data(as_text=True)
        assert slug not in body, rule
