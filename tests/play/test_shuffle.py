"""Who chooses the shuffle (issue 23, item 2). A table game of several phones is dealt from
64 bits the server draws (``secrets``): the new-table form has no seed, a seed posted to it
is refused and starts nothing, and no seat's page, JSON or record holds the seed or the
stock order before the game ends. A one-person game against bots may keep a chosen seed
for practice: the same seed deals the same cards, and its record says the seed was chosen
(``seed_chosen``, a field the record format lets this project add)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app
from scorekeeper.engine import current_player, legal_actions
from scorekeeper.extensions import db
from scorekeeper.models import DigitalGame
from tests.conftest import make_app
from tests.play.test_table import TABLE, Table

CARD = re.compile(r"\b(?:10|[2-9JQKA])[SHDC]\b")
"""A card's text (7H, 10D) in a page or JSON body."""


@pytest.fixture
def table_app(tmp_path) -> Flask:
    return make_app(str(tmp_path / "t.sqlite3"), PLAY_GRACE_SECONDS=600)


@pytest.fixture(params=["sqlite", "postgresql"])
def stored_app(request, tmp_path) -> Iterator[Flask]:
    """The app on a fresh SQLite file, then on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield make_app(str(tmp_path / "s.sqlite3"), PLAY_GRACE_SECONDS=600)
        return
    url = request.getfixturevalue("postgres_url")
    config = {"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "JOBS": "inline"}
    app = create_app(config | {"SQLALCHEMY_DATABASE_URI": url, "RATELIMIT_ENABLED": False})
    with app.app_context():
        upgrade()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def _games(app: Flask) -> int:
    with app.app_context():
        return db.session.query(DigitalGame).count()


def test_the_new_table_form_offers_no_seed(table_app) -> None:
    page = table_app.test_client().get("/play/table").get_data(as_text=True)
    assert 'name="seed"' not in page and "Shuffle number" not in page
    assert "no phone chooses or sees the shuffle" in page


@pytest.mark.parametrize("as_json", [False, True])
def test_a_seed_posted_for_a_table_is_refused_and_starts_nothing(stored_app, as_json) -> None:
    host = stored_app.test_client()
    fields = TABLE | {"seed": "11"}
    sent = host.post("/play/table", **({"json": fields} if as_json else {"data": fields}))
    assert sent.status_code == 422
    assert "no seat chooses it" in sent.get_data(as_text=True)
    assert _games(stored_app) == 0
    assert host.post("/play/table", data=TABLE | {"seed": ""}).status_code == 302  # left empty


def test_each_table_is_dealt_from_its_own_drawn_seed(table_app) -> None:
    states = [Table(table_app).state() for _ in range(4)]
    seeds = {state.seed for state in states}
    assert len(seeds) == 4 and max(seeds) >= 2**40  # 64 bits from secrets
    deals = {tuple(tuple(card.text for card in hand) for hand in s.hands) for s in states}
    assert len(deals) == 4


def _play_a_round(table: Table) -> None:
    """Each seat's phone makes its first legal move until a round has finished."""
    for _ in range(600):
        state = table.state()
        if state.rounds:
            return
        turn = current_player(state)
        assert turn is not None
        assert table.act(turn, legal_actions(state)[0].to_json()).status_code == 200
    raise AssertionError("no round finished")


def _in_order(cards: list[str], text: str) -> bool:
    """Whether ``cards`` (4 or more) appear one after another among the card texts of
    ``text``."""
    seen = CARD.findall(text)
    return any(seen[i : i + len(cards)] == cards for i in range(len(seen)))


def test_no_seat_learns_the_seed_or_the_stock_before_the_end(table_app) -> None:
    table = Table(table_app, preset="quick")
    for seat in (1, 2):
        table.join(seat)
    _play_a_round(table)
    state = table.state()
    assert not state.phase.name == "GAME_OVER" and len(state.stock) >= 4
    stock_top = [card.text for card in state.stock[:4]]
    paths = ["", "/state.json", "/board.json", "/record", "/rounds", "/seats"]
    for seat, phone in table.phones.items():
        bodies = {p: phone.get(f"/play/{table.slug}{p}").get_data(as_text=True) for p in paths}
        for path, text in bodies.items():
            assert str(state.seed) not in text, (seat, path)
            assert not _in_order(stock_top, text), (seat, path)
        record = json.loads(bodies["/record"])
        me = state.players[seat]
        assert record["seed"] is None and record["seed_chosen"] is False
        assert record["seen_by"] == me and record["rounds"]
        for stored in record["rounds"]:
            assert stored["stock"] is None
            assert {n for n, hand in stored["hands"].items() if hand is not None} == {me}


def _one_person_game(app: Flask, **fields: str) -> tuple[str, dict]:
    client = app.test_client()
    data = {"name": "Sam", "preset": "standard", "bot_0": "casual"} | fields
    response = client.post("/play", data=data)
    slug = response.headers["Location"].split("?")[0].rsplit("/", 1)[1]
    return slug, client.get(f"/play/{slug}/record").get_json()


def test_a_one_person_game_keeps_a_chosen_seed_and_its_record_says_so(stored_app) -> None:
    first, record = _one_person_game(stored_app, seed="7")
    again, _ = _one_person_game(stored_app, seed="7")
    drawn, drawn_record = _one_person_game(stored_app, seed="")
    with stored_app.app_context():
        games = {g.slug: g for g in db.session.query(DigitalGame)}
        assert games[first].seed == games[again].seed == "7"
        assert games[first].state["hands"] == games[again].state["hands"]  # the same deal
        assert games[drawn].seed != "7"
    assert record["seed_chosen"] is True and record["seed"] is None  # shown at the end
    assert drawn_record["seed_chosen"] is False


def test_a_game_from_before_keeps_playing_its_record_not_knowing(stored_app) -> None:
    app = stored_app
    slug, _ = _one_person_game(app, seed="5")
    with app.app_context():
        downgrade(revision="e8b4f2a6c913")  # the schema before seed_chosen
        upgrade()
        db.session.remove()
    client = app.test_client()
    record = client.get(f"/play/{slug}/record").get_json()
    assert record["seed_chosen"] is None  # chosen or drawn: not kept then
    state = client.get(f"/play/{slug}/state.json").get_json()
    body = {"version": state["version"], "action": state["legal"][0]}
    assert client.post(f"/play/{slug}/move.json", json=body).status_code == 200
