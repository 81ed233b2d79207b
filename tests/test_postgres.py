"""The hardening on PostgreSQL (issue 10), through ``DATABASE_URL``: a fresh server
database brought to the schema on start, imports that PostgreSQL used to answer with a
500, and corrections racing other saves."""

from __future__ import annotations

import json

import pytest

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.table.test_pages import GameActions


@pytest.fixture
def pg_app(postgres_url, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
            "JOBS": "inline",
        }
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def pg_games(pg_app) -> GameActions:
    return GameActions(pg_app.test_client(), pg_app)


def test_a_fresh_server_database_is_brought_to_the_schema(pg_app):
    client = pg_app.test_client()
    assert client.get("/").status_code == 200
    assert client.get("/play").status_code == 200


@pytest.mark.parametrize(
    ("change", "status"),
    [
        ({"players": ["A" * 300, "Bob", "Cat"]}, 422),
        ({"players": ["Ann", "B\x00b", "Cat"]}, 422),
        ({"stake": 0.1}, 303),
        ({"title": "T\x00" * 100}, 303),
    ],
)
def test_imports_that_broke_postgresql_are_answered(pg_games, change, status):
    pg_games.start()
    pg_games.totals(0, [40, 10, 10], [0, 5, 5])
    client = pg_games.client
    doc = client.get(f"/games/{pg_games.slug}/export.json").get_json() | change
    response = client.post("/games/import", data={"text": json.dumps(doc)})
    assert response.status_code == status, response.data[:300]


def test_a_correction_is_not_refused_for_another_round_s_save(pg_games):
    pg_games.start()
    pg_games.totals(0, [40, 10, 10], [0, 5, 5])
    first = pg_games.game().rounds[0]
    path = f"/games/{pg_games.slug}/rounds/{first.id}/edit"
    form = pg_games.form(path)  # opened before another phone saves round 2
    pg_games.totals(1, [10, 30, 10], [5, 0, 5])
    data = form | {"mode": "totals", "action": "save", "went_out": "0"}
    data |= {"shown-0": "60", "shown-1": "10", "shown-2": "10"}
    data |= {"in_hand-0": "0", "in_hand-1": "5", "in_hand-2": "5"}
    assert pg_games.client.post(path, data=data).status_code == 303
    assert pg_games.totals_now() == {"Ann": 65, "Bob": 35, "Cat": 10}
    again = pg_games.client.post(path, data=data | {"shown-0": "50"})
    assert again.status_code == 409
    with pg_games.app.app_context():
        assert db.session.query(Game).count() == 1


def test_the_seed_of_a_digital_game_fits_the_database(pg_app):
    client = pg_app.test_client()
    data = {"name": "Sam", "preset": "standard", "bot_0": "casual"}
    assert client.post("/play", data=data).status_code == 302


def test_corrections_racing_new_rounds_keep_every_total_chained(pg_app):
    """One phone corrects round 1 again and again while another records rounds: every
    stored total must follow from the rounds before it, and no round is lost."""
    import threading

    from scorekeeper.table import services as sheet
    from tests.table.test_services import totals

    with pg_app.app_context():
        game = sheet.start_game(("Ann", "Bob", "Cat"), "standard", {}, stake=None)
        sheet.record_round(game, "totals", totals(shown=(10, 0, 0)), "first", 1)
        game_id = game.id
    saved, corrected = [], []

    def load():
        return db.session.get(Game, game_id)

    def record():
        with pg_app.app_context():
            for n in range(6):
                for _ in range(20):
                    db.session.expire_all()
                    game = load()
                    try:
                        data = totals(shown=(1, 0, 0))
                        sheet.record_round(game, "totals", data, f"r{n}", game.version)
                        saved.append(n)
                        break
                    except sheet.StaleVersion:
                        continue
            db.session.remove()

    def correct():
        with pg_app.app_context():
            for n in range(6):
                db.session.expire_all()
                game = load()
                first = game.rounds[0]
                data = totals(shown=(20 + n, 0, 0))
                sheet.correct_round(game, first, "totals", data, first.version)
                corrected.append(n)
            db.session.remove()

    threads = [threading.Thread(target=record), threading.Thread(target=correct)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert corrected == list(range(6)) and saved == list(range(6))
    with pg_app.app_context():
        db.session.expire_all()
        game = load()
        rounds = sheet.live_rounds(game)
        assert len(rounds) == 7
        running = 0
        for round_ in rounds:
            running += round_.figures["players"]["Ann"]["round"]
            assert round_.figures["players"]["Ann"]["total"] == running
        assert rounds[0].input["shown"]["Ann"] == 25
