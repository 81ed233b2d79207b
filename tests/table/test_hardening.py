"""The scorekeeper under hostile or unlucky input (issue 10): every bad input a clear 4xx,
imports checked like the forms, edit rights that stay secret, a failing database."""

from __future__ import annotations

import csv
import io
import json

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Game
from tests.conftest import make_app
from tests.table.test_pages import GameActions


@pytest.fixture
def games(client, app) -> GameActions:
    return GameActions(client, app)


def _export(games, client) -> dict:
    return client.get(f"/games/{games.slug}/export.json").get_json()


# ---- integers ---------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["²", str(10**30), "-1", "1.0", " ", "٣"])
def test_a_version_that_is_not_a_plain_number_is_a_4xx(games, client, version):
    games.start()
    games.totals(0, [40, 10, 10], [0, 5, 5])
    round_id = games.game().rounds[0].id
    change_id = games.game().changes[0].id
    new = games.totals(0, [40, 10, 10], [0, 5, 5], version=version)
    assert new.status_code in (400, 409, 422)
    delete = client.post(f"/games/{games.slug}/rounds/{round_id}/delete", data={"version": version})
    assert 400 <= delete.status_code < 500
    undo = client.post(f"/games/{games.slug}/history/{change_id}/undo", data={"version": version})
    assert 400 <= undo.status_code < 500
    assert len(games.rounds()) == 1


@pytest.mark.parametrize("round_id", ["²", str(10**30), "0", "٣"])
def test_a_round_id_that_is_not_a_row_id_is_a_404(games, client, round_id):
    games.start()
    assert client.get(f"/games/{games.slug}/rounds/{round_id}/edit").status_code == 404


def test_meld_rows_asked_for_are_bounded(games, client):
    games.start()
    path = f"/games/{games.slug}/rounds/new"
    data = games.form(path + "?mode=cards") | {"mode": "cards", "meld_slots": str(10**30)}
    assert client.post(path, data=data).status_code == 400


# ---- JSON -----------------------------------------------------------------------------


def test_deeply_nested_json_import_is_refused_with_a_page(client):
    response = client.post("/games/import", data={"text": "[" * 50_000})
    assert response.status_code == 422
    assert "nested more than 32 levels" in response.get_data(as_text=True)


def test_an_import_larger_than_the_limit_is_413(client):
    response = client.post("/games/import", data={"text": " " * (2 * 1024 * 1024)})
    assert response.status_code == 413


# ---- import passes the forms' checks ----------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": ["A" * 10_000, "Bob", "Cat"]}, "at most 40 characters"),
        ({"players": ["Ann", "Bob\x00", "Cat"]}, "invisible characters"),
        ({"players": ["Ann", "ann", "Cat"]}, "same name"),
        ({"players": ["Ann", "A\u200bnn", "Cat"]}, "same name"),
        ({"players": ["\u200b\u200c", "Bob", "Cat"]}, "visible character"),
        ({"players": ["Ann"]}, "2 to 8 players"),
        ({"stake": "NaN"}, "must be a number"),
        ({"stake": "Infinity"}, "must be a number"),
        ({"stake": "-5"}, "from 0 to 1000"),
        ({"stake": 0.001}, "two decimals"),
        ({"stake": [1]}, "must be a number"),
        ({"first_dealer": True}, "first dealer"),
        ({"rules": {"preset": "nope"}}, "preset"),
    ],
)
def test_import_refuses_what_the_new_game_form_refuses(games, client, change, message):
    games.start()
    games.totals(0, [40, 10, 10], [0, 5, 5])
    doc = _export(games, client) | change
    before = len(games.app.test_client().get("/").data)
    response = client.post("/games/import", data={"text": json.dumps(doc)})
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    with games.app.app_context():
        assert db.session.query(Game).count() == 1
    assert before


@pytest.mark.parametrize(
    ("input_change", "message"),
    [
        ({"shown": {"Ann": 10**30}}, "round 1: Ann, shown: must be from 0 to 2000 points"),
        ({"shown": "lots"}, "not in the shape"),
        ({"went_out": "Zed"}, "one of the players"),
    ],
)
def test_import_rounds_pass_the_round_form(games, client, input_change, message):
    games.start()
    games.totals(0, [40, 10, 10], [0, 5, 5])
    doc = _export(games, client)
    doc["rounds"][0]["input"] |= input_change
    response = client.post("/games/import", data={"text": json.dumps(doc)})
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)


def test_an_import_stores_a_float_stake_as_typed(games, client):
    games.start()
    doc = _export(games, client) | {"stake": 0.1}
    response = client.post("/games/import", data={"text": json.dumps(doc)})
    assert response.status_code == 303
    with games.app.app_context():
        stakes = sorted(str(g.stake) for g in db.session.query(Game))
    assert stakes == ["0.1", "None"]


def test_import_caps_rounds(games, client):
    games.start()
    games.totals(0, [40, 10, 10], [0, 5, 5])
    doc = _export(games, client)
    doc["rounds"] = [{"mode": "totals", "input": doc["rounds"][0]["input"]}] * 1001
    response = client.post("/games/import", data={"text": json.dumps(doc)})
    assert response.status_code == 422
    assert "at most 1000 rounds" in response.get_data(as_text=True)


def test_importing_1000_rounds_keeps_every_round_and_its_totals(games, client):
    """The most rounds an import takes, each scored (its speed, linear in rounds, is
    measured by benchmarks/import_bench.py)."""
    games.start()
    games.totals(None, [0, 0, 0], [1, 1, 1])
    doc = _export(games, client)
    doc["rounds"] = [{"mode": "totals", "input": doc["rounds"][0]["input"]}] * 1000
    response = client.post("/games/import", data={"text": json.dumps(doc)})
    assert response.status_code == 303, response.data[:500]
    slug = response.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    rounds = client.get(f"/games/{slug}/export.json").get_json()["rounds"]
    assert len(rounds) == 1000
    for number in (1, 500, 1000):
        players = rounds[number - 1]["response"]["players"]
        assert {name: p["total"] for name, p in players.items()} == dict.fromkeys(
            ["Ann", "Bob", "Cat"], -number
        )


def test_anonymous_imports_are_rate_limited(tmp_path):
    app = make_app(
        str(tmp_path / "db.sqlite3"), RATELIMIT_ENABLED=True, RATELIMIT_IMPORT="2/minute"
    )
    client = app.test_client()
    codes = [client.post("/games/import", data={"text": "{}"}).status_code for _ in range(3)]
    assert codes == [422, 422, 429]
    assert client.get("/games/import").status_code == 200


def test_api_calls_are_rate_limited(tmp_path):
    app = make_app(str(tmp_path / "db.sqlite3"), RATELIMIT_ENABLED=True, RATELIMIT_API="2/minute")
    client = app.test_client()
    codes = [client.get("/api/v1/presets").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    assert "errors" in client.get("/api/v1/presets").get_json()


# ---- names on the new-game form ---------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (("Ann", "A\u200bNN"), "same name"),
        (("\u200b", "Bob"), "visible character"),
        (("Ann", "Bob\x07"), None),
    ],
)
def test_new_game_names_are_cleaned_and_compared_without_invisibles(client, names, message):
    data = {"player_0": names[0], "player_1": names[1], "preset": "standard", "first_dealer": "0"}
    response = client.post("/games/new", data=data)
    if message:
        assert response.status_code == 422 and message in response.get_data(as_text=True)
    else:
        assert response.status_code == 302
        page = client.get(response.location + "/export.json").get_json()
        assert page["players"] == ["Ann", "Bob"]


def test_names_are_stored_nfc(client):
    data = {"player_0": "Zoe\u0301", "player_1": "Bob", "preset": "standard", "first_dealer": "0"}
    response = client.post("/games/new", data=data)
    assert client.get(response.location + "/export.json").get_json()["players"][0] == "Zoé"


@pytest.mark.parametrize("stake", ["NaN", "sNaN", "Infinity", "-1", "0.001"])
def test_new_game_form_refuses_odd_stakes(client, stake):
    data = {"player_0": "Ann", "player_1": "Bob", "preset": "standard", "stake": stake}
    assert client.post("/games/new", data=data | {"first_dealer": "0"}).status_code == 422


# ---- CSV ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["=1+2", "+1", "-1", "@SUM(A1)", "\t=1+2", "\r=1+2"])
def test_csv_cells_never_start_a_formula(games, client, name):
    games.start(("Ann", "Bob"))
    games.totals(0, [40, 10], [0, 5])
    with games.app.app_context():  # a name stored before names were cleaned
        game = db.session.execute(db.select(Game)).scalar_one()
        game.players[0].name = name
        stored = game.rounds[0]
        players = {(name if k == "Ann" else k): v for k, v in stored.figures["players"].items()}
        stored.figures = stored.figures | {"players": players}
        stored.input = stored.input | {"went_out": name}
        db.session.commit()
    text = client.get(f"/games/{games.slug}/export.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))[1:]
    cells = [cell for row in rows for cell in row]
    assert "'" + name in cells
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)


def test_a_correction_conflicts_only_with_a_change_to_the_same_round(games, client):
    games.start()
    games.totals(0, [40, 10, 10], [0, 5, 5])
    first = games.game().rounds[0]
    path = f"/games/{games.slug}/rounds/{first.id}/edit"
    form = games.form(path)  # opened before another phone saves round 2
    games.totals(1, [10, 30, 10], [5, 0, 5])
    data = form | {"mode": "totals", "action": "save", "went_out": "0"}
    data |= {"shown-0": "60", "shown-1": "10", "shown-2": "10"}
    data |= {"in_hand-0": "0", "in_hand-1": "5", "in_hand-2": "5"}
    assert client.post(path, data=data).status_code == 303
    assert games.totals_now() == {"Ann": 65, "Bob": 35, "Cat": 10}
    stale = client.post(path, data=data | {"shown-0": "50"})
    assert stale.status_code == 409
    assert "changed this round" in stale.get_data(as_text=True)
    assert games.totals_now() == {"Ann": 65, "Bob": 35, "Cat": 10}
