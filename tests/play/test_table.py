"""One digital game on several phones (issue 14): a table of seats, each phone with its own
secret link kept in its session, only its own cards in its HTML and JSON, moves refused
off turn, a stand-in bot after the grace period, the host swapping seats, and the live
updates (server-sent events and the version poll) read from the database."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.engine import GameState, current_player, legal_actions, middle_level
from scorekeeper.extensions import db
from scorekeeper.models import DigitalSeat
from scorekeeper.play import services as digital
from scorekeeper.play import store
from tests.conftest import make_app

STANDIN_BOT = f"A {middle_level().title} bot"
"""How a page tells the table a stand-in (the ladder's middle level) plays for a person."""

TABLE = {
    "name": "Hana",
    "preset": "standard",
    "seat_0": "person",
    "who_0": "Ivo",
    "seat_1": "person",
    "who_1": "Jun",
    "seat_2": "casual",
}


class Table:
    """A table game and one test client per phone: ``phones[seat]`` after :meth:`join`."""

    def __init__(self, app: Flask, **fields: str) -> None:
        self.app = app
        self.host = app.test_client()
        response = self.host.post("/play/table", data=TABLE | fields)
        assert response.status_code == 302, response.data[:400]
        self.slug = response.headers["Location"].split("/")[2]
        self.phones: dict[int, FlaskClient] = {0: self.host}

    def link(self, seat: int) -> str:
        page = self.host.get(f"/play/{self.slug}/seats").get_data(as_text=True)
        start = page.index(f"/play/{self.slug}/sit/{seat}/")
        return page[start : page.index('"', start)]

    def join(self, seat: int) -> FlaskClient:
        phone = self.app.test_client()
        assert phone.get(self.link(seat)).status_code == 303
        self.phones[seat] = phone
        return phone

    def state(self) -> GameState:
        with self.app.app_context():
            game = digital.get_game(self.slug)
            assert game is not None
            return store.full_state(game)

    def version(self) -> int:
        with self.app.app_context():
            game = digital.get_game(self.slug)
            assert game is not None
            return game.version

    def act(self, seat: int, action: dict[str, Any]):
        body = {"version": self.version(), "action": action}
        return self.phones[seat].post(f"/play/{self.slug}/move.json", json=body)


@pytest.fixture
def table_app(tmp_path) -> Flask:
    """The app with the default grace period (60 s: no stand-in unless a test moves the
    clock on, :func:`grace_passes`) and short streams."""
    return make_app(str(tmp_path / "t.sqlite3"), PLAY_GRACE_SECONDS=60, PLAY_STREAM_SECONDS=0.6)


def grace_passes(monkeypatch: pytest.MonkeyPatch, app: Flask) -> None:
    """The clock moves on past ``app``'s grace period: ``time.time`` shifted forward for
    the rest of the test (nobody waits for it)."""
    shift, real = app.config["PLAY_GRACE_SECONDS"] + 1, time.time
    monkeypatch.setattr(time, "time", lambda: real() + shift)


@pytest.fixture
def table(table_app: Flask) -> Table:
    table = Table(table_app)
    table.join(1)
    table.join(2)
    return table


def _hidden_from(state: GameState, seat: int) -> set[str]:
    """The card texts and names in other seats' hands that nothing public shows."""
    public = {c.text for c in state.pile} | {c.text for m in state.table for c in m.cards}
    return {
        word
        for other, hand in enumerate(state.hands)
        if other != seat
        for card in hand
        if card.text not in public
        for word in (f'"{card.text}"', card.name)
    }


def test_the_host_sets_the_table_and_each_person_gets_a_seat_link_with_a_qr_code(
    table_app,
) -> None:
    table = Table(table_app)
    page = table.host.get(f"/play/{table.slug}/seats").get_data(as_text=True)
    seats = page.split('id="table-seats"', 1)[1].split("</ol>", 1)[0]
    assert seats.count("<svg") == 2 and seats.count("/sit/") == 2  # seats 2 and 3, not the bot
    assert "not joined yet" in page and "Casual bot" in page
    stranger = table_app.test_client()
    assert stranger.get(f"/play/{table.slug}").status_code == 403
    assert stranger.get(f"/play/{table.slug}/state.json").status_code == 403
    assert stranger.get(f"/play/{table.slug}/sit/1/{'x' * 22}").status_code == 403
    phone = table.join(1)
    assert "joined · seen" in table.host.get(f"/play/{table.slug}/seats").get_data(as_text=True)
    assert phone.get(f"/play/{table.slug}/state.json").get_json()["seat"] == 1
    again = phone.get(table.link(1))  # the link opened twice: the same seat, never a new one
    assert again.status_code == 303
    assert phone.get(f"/play/{table.slug}/state.json").get_json()["seat"] == 1
    with table_app.app_context():
        assert db.session.query(DigitalSeat).count() == 3
    seats_page = phone.get(f"/play/{table.slug}/seats").get_data(as_text=True)
    assert "/sit/" not in seats_page and "Make it a" not in seats_page  # links: the host's


def test_partners_sit_opposite_under_partnership_rules(table_app) -> None:
    table = Table(table_app, preset="partnership")
    page = table.host.get(f"/play/{table.slug}/seats").get_data(as_text=True)
    sides = [page[i + 5] for i in range(len(page)) if page.startswith("side ", i)]
    assert sides == ["A", "B", "A", "B"]


def test_a_table_with_too_many_players_for_partnership_is_refused(table_app) -> None:
    client = table_app.test_client()
    fields = TABLE | {"preset": "partnership", "seat_3": "casual"}
    response = client.post("/play/table", data=fields)
    assert response.status_code == 422 and b"(P1)" in response.data or b"P1" in response.data


def test_each_phone_sees_only_its_own_cards_in_html_and_json(table) -> None:
    state = table.state()
    for seat, phone in table.phones.items():
        hidden = _hidden_from(state, seat)
        texts = [
            phone.get(f"/play/{table.slug}").get_data(as_text=True),
            phone.get(f"/play/{table.slug}/state.json").get_data(as_text=True),
            phone.get(f"/play/{table.slug}/board.json").get_data(as_text=True),
            phone.get(f"/play/{table.slug}/record").get_data(as_text=True),
        ]
        own = state.hands[seat][0]
        assert f'data-card="{own.text}"' in texts[0]
        assert own.text in json.loads(texts[1])["view"]["hand"]
        for text in texts:
            leaked = [word for word in hidden if word in text]
            assert leaked == [], (seat, leaked)


def test_a_move_off_turn_is_refused_with_the_rule_and_the_turn_moves_on(table) -> None:
    state = table.state()
    turn = current_player(state)
    assert turn is not None
    other = next(seat for seat in table.phones if seat != turn)
    refused = table.act(other, {"type": "draw", "from": "stock"})
    assert refused.status_code == 422
    assert refused.get_json()["rule"] == "T1"
    assert f"it is {state.players[turn]}'s turn" in refused.get_json()["error"]
    action = legal_actions(state)[0].to_json()
    before = table.version()
    made = table.act(turn, action)
    assert made.status_code == 200 and table.version() > before


def _play_to_a_person(table: Table) -> int:
    """Move by the phones (their first legal move) until a person's turn other than the
    host's; returns that seat."""
    for _ in range(200):
        state = table.state()
        turn = current_player(state)
        assert turn is not None
        if turn != 0:
            return turn
        assert table.act(0, legal_actions(state)[0].to_json()).status_code == 200
    raise AssertionError("the turn never left the host")


def test_a_dropped_phone_gets_a_stand_in_bot_after_the_grace_then_returns(
    table, monkeypatch
) -> None:
    seat = _play_to_a_person(table)
    name = table.state().players[seat]
    version = table.version()
    host = table.phones[0]
    assert host.get(f"/play/{table.slug}/version").get_json()["version"] == version
    grace_passes(monkeypatch, table.app)  # with no contact from that phone
    polled = host.get(f"/play/{table.slug}/version").get_json()
    assert polled["version"] > version  # the next request made the stand-in's moves
    status = host.get(f"/play/{table.slug}/board.json").get_json()
    assert f"{STANDIN_BOT} is playing for {name}." in status["text"]
    assert current_player(table.state()) != seat
    back = table.phones[seat].get(f"/play/{table.slug}/board.json").get_json()
    assert f"{STANDIN_BOT} is playing for {name}" not in back["text"]  # back: its own seat again
    assert 'class="dock"' in back["board"]


def test_the_host_swaps_a_seat_between_a_person_and_a_bot(table) -> None:
    slug, host = table.slug, table.phones[0]
    assert host.post(f"/play/{slug}/seats/2", data={"make": "strong"}).status_code == 303
    assert table.phones[2].get(f"/play/{slug}").status_code == 403  # removed: the link is dead
    page = host.get(f"/play/{slug}/seats").get_data(as_text=True)
    assert "Strong bot" in page and page.count("/sit/") == 1
    assert host.post(f"/play/{slug}/seats/2", data={"make": "person"}).status_code == 303
    phone = table.join(2)
    assert phone.get(f"/play/{slug}/state.json").get_json()["seat"] == 2
    assert table.phones[1].post(f"/play/{slug}/seats/2", data={"make": "casual"}).status_code == 403
    assert host.post(f"/play/{slug}/seats/0", data={"make": "casual"}).status_code == 403


def test_the_stream_sends_the_version_when_it_changes(tmp_path) -> None:
    app = make_app(str(tmp_path / "s.sqlite3"), PLAY_GRACE_SECONDS=600, PLAY_STREAM_SECONDS=0.6)
    table = Table(app)
    phone = table.join(1)
    now = table.version()  # after the bots that play first
    body = phone.get(f"/play/{table.slug}/events?since=0").get_data(as_text=True)
    assert (
        body.startswith("retry: 1000") and f'id: {now}\nevent: version\ndata: {{"board": ' in body
    )
    quiet = phone.get(f"/play/{table.slug}/events?since={now}").get_data(as_text=True)
    assert "event: version" not in quiet
    tag = phone.get(f"/play/{table.slug}/version").headers["ETag"]
    assert (
        phone.get(f"/play/{table.slug}/version", headers={"If-None-Match": tag}).status_code == 304
    )


def test_a_one_person_game_is_unchanged(table_app) -> None:
    client = table_app.test_client()
    response = client.post("/play", data={"name": "Sam", "preset": "standard", "bot_0": "casual"})
    slug = response.headers["Location"].split("?")[0].rsplit("/", 1)[1]
    assert client.get(f"/play/{slug}").status_code == 200
    assert table_app.test_client().get(f"/play/{slug}/state.json").status_code == 200
    assert client.get(f"/play/{slug}/seats").status_code == 404
    page = client.get(f"/play/{slug}").get_data(as_text=True)
    assert 'id="seating"' in page and "Who sits where" not in page  # live, no seats


def test_the_seats_migration_keeps_a_one_person_game_playing(tmp_path) -> None:
    from flask_migrate import downgrade, upgrade

    app = make_app(str(tmp_path / "m.sqlite3"))
    client = app.test_client()
    response = client.post("/play", data={"name": "Sam", "preset": "standard", "bot_0": "casual"})
    slug = response.headers["Location"].split("?")[0].rsplit("/", 1)[1]
    with app.app_context():
        downgrade(revision="d5e9a3c7b214")  # the schema before seats
        upgrade()
        db.session.remove()
    state = client.get(f"/play/{slug}/state.json").get_json()
    body = {"version": state["version"], "action": state["legal"][0]}
    assert client.post(f"/play/{slug}/move.json", json=body).status_code == 200
    assert client.get(f"/play/{slug}").status_code == 200
