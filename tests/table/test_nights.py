"""A night that outlives one game (issue 37, item 3): "Play again" links the next game to
the night, and the old game's TV and watching phones, refreshing, find a link to it (the
TV to its TV view, a phone to its view link, never an edit link); a room code shown on
the TV and the share page, typed on the home page, opens the night's current game to
watch; a bad or unknown code gets one sentence, and codes are rate-limited; between
games the TV of a group's game shows tonight's tally. All through HTTP."""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import ROOM_CODE_LETTERS, Game, new_room_code, now_utc
from tests.conftest import make_app
from tests.players.conftest import Night
from tests.table.test_pages import GameActions

NEXT = re.compile(r'data-next-game href="([^"]+)"')
ALERT = re.compile(r'role="alert">([^<]*)<')


@pytest.fixture
def games(client, app) -> GameActions:
    return GameActions(client, app)


def _code_on(page: str) -> str:
    found = re.findall(r'class="code" translate="no">([^<]+)<', page)
    assert len(found) == 1, "one room code on the page"
    return found[0]


def _again(games: GameActions, slug: str) -> str:
    version = games.client.get(f"/games/{slug}/version").get_json()["version"]
    answer = games.client.post(f"/games/{slug}/again", data={"version": str(version)})
    assert answer.status_code == 303, answer.data
    return str(answer.location).rsplit("/", 1)[-1]


def _alert(answer) -> str:
    found = ALERT.findall(answer.get_data(as_text=True))
    assert len(found) == 1
    return html.unescape(found[0])


def test_a_room_code_has_five_characters_none_that_can_be_misread():
    codes = {new_room_code() for _ in range(200)}
    assert len(codes) > 190  # random
    assert all(len(c) == 5 and set(c) <= set(ROOM_CODE_LETTERS) for c in codes)
    assert not set("0O1IL5S2Z8B") & set(ROOM_CODE_LETTERS)


def test_play_again_carries_the_old_games_tv_and_watchers_to_the_next_game(games, app):
    first = games.start(("Ann", "Bob"), target="100")
    watcher = app.test_client()  # a phone that opened the view link only
    tv_page = watcher.get(f"/games/{first}/tv").get_data(as_text=True)
    code = _code_on(tv_page)
    before = watcher.get(f"/games/{first}/version").get_json()["version"]
    assert NEXT.search(watcher.get(f"/games/{first}/live").get_data(as_text=True)) is None
    games.totals(0, [120, 0], [0, 30])
    second = _again(games, first)
    assert second != first
    # the old game's version moved: its pages refresh, and find the next game
    assert watcher.get(f"/games/{first}/version").get_json()["version"] > before + 1
    live = watcher.get(f"/games/{first}/live").get_data(as_text=True)
    assert NEXT.findall(live) == [f"/games/{second}"]
    tv_live = watcher.get(f"/games/{first}/tv/live").get_data(as_text=True)
    assert NEXT.findall(tv_live) == [f"/games/{second}/tv"]
    edit_token = games.game().edit_token
    assert "/edit/" not in live + tv_live and edit_token not in live + tv_live
    # the new game is the night's current one: same room code, no next game after it
    assert _code_on(watcher.get(f"/games/{second}/tv").get_data(as_text=True)) == code
    assert NEXT.search(watcher.get(f"/games/{second}/live").get_data(as_text=True)) is None
    third = _again(games, second)
    assert NEXT.findall(watcher.get(f"/games/{second}/live").get_data(as_text=True)) == [
        f"/games/{third}"
    ]


def test_the_room_code_joins_the_nights_current_game_to_watch(games, app, client):
    first = games.start(("Ann", "Bob"))
    code = _code_on(client.get(f"/games/{first}/share").get_data(as_text=True))
    phone = app.test_client()  # a fresh phone: no rights, no games
    home = phone.get("/").get_data(as_text=True)
    assert 'action="/join"' in home and 'name="code"' in home
    typed = f" {code[:2].lower()} {code[2:].lower()} "  # any case, spaces ignored
    answer = phone.get("/join", query_string={"code": typed})
    assert answer.status_code == 303 and answer.location == f"/games/{first}"
    second = _again(games, first)
    answer = phone.get("/join", query_string={"code": code})
    assert answer.status_code == 303 and answer.location == f"/games/{second}"
    page = phone.get(answer.location).get_data(as_text=True)
    assert "/rounds/new" not in page and "Play again" not in page  # to watch only


@pytest.mark.parametrize(
    ("typed", "status", "sentence"),
    [
        ("", 400, "Type the room code shown on the TV or on the game's Share page."),
        ("AB", 400, "A room code is 5 letters and digits, as shown on the TV"),
        ("H0USE", 400, "(it has no 0, O, 1, I, L, 2, Z, 5, S, 8 or B)."),
        ("x" * 5000, 400, "A room code is 5 letters and digits"),
        ("\x00<script>", 400, "A room code is 5 letters and digits"),
        ("HHHHH", 404, "No game night has the room code HHHHH now: check it on the TV."),
    ],
)
def test_a_bad_or_unknown_room_code_gets_one_sentence(client, typed, status, sentence):
    answer = client.get("/join", query_string={"code": typed})
    assert answer.status_code == status
    said = _alert(answer)
    assert sentence in said and said.count(". ") == 0 and "Traceback" not in said


def test_a_night_no_longer_live_gives_its_code_to_nobody(games, app, client):
    first = games.start(("Ann", "Bob"))
    code = _code_on(client.get(f"/games/{first}/share").get_data(as_text=True))
    with app.app_context():  # the night's games last changed 13 hours ago
        long_ago = (now_utc() - timedelta(hours=13)).replace(tzinfo=None)
        db.session.execute(db.update(Game).values(updated_at=long_ago))
        db.session.commit()
    answer = client.get("/join", query_string={"code": code})
    assert answer.status_code == 404 and code in _alert(answer)


def test_room_codes_are_rate_limited_per_address(tmp_path):
    app = make_app(
        str(tmp_path / "limited.sqlite3"), RATELIMIT_ENABLED=True, RATELIMIT_ROOM_CODES="3/minute"
    )
    phone = app.test_client()
    for _ in range(3):
        assert phone.get("/join", query_string={"code": "HHHHH"}).status_code == 404
    refused = phone.get("/join", query_string={"code": "HHHHH"})
    assert refused.status_code == 429
    assert _alert(refused) == "Too many room codes tried from here: wait a minute and try again."
    assert phone.get("/").status_code == 200  # the home page itself is not limited


def test_between_games_the_tv_of_a_group_game_shows_tonights_tally(app):
    night = Night(app, app.test_client())
    night.make_group(players=("Ann", "Bob"))
    slug = night.start(("Ann", "Bob"))
    games = GameActions(night.client, app)
    games.slug = slug
    assert "Between games" not in night.client.get(f"/games/{slug}/tv").get_data(as_text=True)
    assert games.totals(0, [120, 0], [0, 30]).status_code == 303  # Ann reaches 100
    tv = night.client.get(f"/games/{slug}/tv/live").get_data(as_text=True)
    between = tv.split('aria-label="Between games"', 1)[1].split("</section>", 1)[0]
    assert "Play again" in between and "Tonight · 1 game" in between
    cell = r'<td class="num">(-?\d+)</td>'
    rows = re.findall(r'<th scope="row">(\w+)</th>' + cell * 3, between)
    assert rows == [("Ann", "1", "1", "120"), ("Bob", "1", "0", "-30")]  # games, wins, points
    second = _again(games, slug)
    group_page = night.client.get(night.url()).get_data(as_text=True)
    assert f"/games/{second}" in group_page  # Play again kept the group
    tv = night.client.get(f"/games/{slug}/tv/live").get_data(as_text=True)
    assert "Between games" not in tv and NEXT.findall(tv) == [f"/games/{second}/tv"]


def test_a_night_on_postgresql(postgres_url, monkeypatch):
    """The same night on PostgreSQL (``DATABASE_URL``): Play again followed, the room
    code joins the current game."""
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "JOBS": "inline"}
        | {"RATELIMIT_ENABLED": False}
    )
    try:
        test_play_again_carries_the_old_games_tv_and_watchers_to_the_next_game(
            GameActions(app.test_client(), app), app
        )
        phone = app.test_client()
        joining = GameActions(phone, app)
        test_the_room_code_joins_the_nights_current_game_to_watch(joining, app, phone)
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
