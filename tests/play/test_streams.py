"""No phone can stall the server with event streams (issue 23, item 1): one open stream
per seat (a newer one ends the older: the seat's stream number is in the database, so
this holds whichever process serves each), a cap of open streams per process answered
503 with ``Retry-After``, and a removed seat's stream ends as soon as its process's
listener wakes it (issue 27); the stream refuses a version that is not a whole number
with a 400 (item 8). Each version event brings the board from the stream's seat, the
same as ``board.json`` answers it, never another seat's cards (issue 27, item 3).

On SQLite the process's shared check runs every few milliseconds here (on PostgreSQL a
NOTIFY wakes the streams) and the streams last ten minutes, so a stream ends in a test
only for the reason the test gives it; each is read on its own thread (a stream
keeps its request context while it runs) and the test waits on what it reads, never on
a clock (``WAIT`` only bounds a hang)."""

from __future__ import annotations

import json
import queue
import re
import threading
from collections.abc import Iterator
from typing import Any, Self

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.engine import current_player, legal_actions, middle_level
from scorekeeper.extensions import db
from scorekeeper.live import caps, streams
from scorekeeper.models import DigitalSeat
from tests.conftest import make_app
from tests.play.test_table import Table, _hidden_from, _play_to_a_person, grace_passes

STANDIN_BOT = f"A {middle_level().title} bot"
"""How a page tells the table a stand-in (the ladder's middle level) plays for a person."""

WAIT = 120.0
"""Seconds a read of a stream waits at most: a bound against a hang, never a measure."""
QUICK = {"PLAY_POLL_SECONDS": 0.002, "PLAY_STREAM_SECONDS": 600, "PLAY_GRACE_SECONDS": 600}
"""Streams that poll at once and never end by themselves within a test."""


def _hand(board: str) -> list[str]:
    """The cards of the hand in a board's HTML (the ``hcard`` slots), as texts."""
    return re.findall(r'<span class="hcard" data-card="([^"]+)"', board)


def _events(chunk: bytes) -> Iterator[tuple[str, Any]]:
    """The events in one chunk of a stream as ``(name, data)``; comments and ``retry``
    are skipped."""
    for block in chunk.decode().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "data" in fields:
            yield fields.get("event", "message"), json.loads(fields["data"])


class Listening:
    """One phone's event stream (a seat's, or any other at ``path``), read on a thread of
    its own: :attr:`status` and
    :attr:`headers` of the answer, then its events one by one (:meth:`next`) until it
    ends (:meth:`end`); the response is closed when the stream ends."""

    def __init__(self, phone: FlaskClient, slug: str, query: str = "", path: str = "") -> None:
        self.heard: queue.Queue[Any] = queue.Queue()
        path = path or f"/play/{slug}/events{query}"
        threading.Thread(target=self._read, args=(phone, path), daemon=True).start()
        self.status, self.headers = self._get()

    def _read(self, phone: FlaskClient, path: str) -> None:
        try:
            with phone.get(path, buffered=False) as response:
                self.heard.put((response.status_code, response.headers))
                if response.status_code == 200:
                    for chunk in response.response:
                        for event in _events(chunk):
                            self.heard.put(event)
            self.heard.put(None)
        except BaseException as error:  # handed to the test's thread, which raises it
            self.heard.put(error)

    def _get(self) -> Any:
        item = self.heard.get(timeout=WAIT)
        if isinstance(item, BaseException):
            raise item
        return item

    def next(self) -> tuple[str, Any]:
        """The next event, ``(name, data)``; AssertionError if the stream ended."""
        event = self._get()
        assert event is not None, "the stream ended"
        return event  # type: ignore[no-any-return]

    def told(self) -> int:
        """The next event is a version (with the seat's board, on a seat's stream): the
        version it tells."""
        name, data = self.next()
        assert name == "version", (name, data)
        return int(data["version"])

    def moved(self, at_least: int) -> int:
        """The next event is a version of at least ``at_least`` (a bot given a seat may
        already have moved by the time the stream polls); the version heard."""
        name, data = self.next()
        assert name == "version" and data["version"] >= at_least, (name, data)
        return int(data["version"])

    def end(self) -> str | None:
        """Read to the stream's end: the reason its ``end`` event gave, or None if it
        ended without one; by then its response is closed."""
        reason = None
        while (event := self._get()) is not None:
            if event[0] == "end":
                reason = event[1]["reason"]
        return reason


@pytest.fixture(params=["sqlite", "postgresql"])
def stream_app(request: pytest.FixtureRequest, tmp_path, monkeypatch) -> Iterator[Flask]:
    """The app with quick streams, on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        yield make_app(str(tmp_path / "s.sqlite3"), **QUICK)
        return
    yield from _postgres_app(request, monkeypatch, {"PLAY_REVIEW": False, **QUICK})


def _postgres_app(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, config: dict[str, Any]
) -> Iterator[Flask]:
    """The app with ``config`` on a throwaway PostgreSQL database (``DATABASE_URL`` set as
    a server sets it), CSRF and rate limits off; its connections closed afterwards."""
    url = request.getfixturevalue("postgres_url")
    monkeypatch.setenv("DATABASE_URL", url)
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "streams",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
            "JOBS": "inline",
            **config,
        }
    )
    try:
        yield app
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def _give_seat(table: Table, seat: int, make: str) -> None:
    """The host gives ``seat`` to a bot of level ``make``, or a new link (``person``)."""
    answer = table.host.post(f"/play/{table.slug}/seats/{seat}", data={"make": make})
    assert answer.status_code == 303


def test_a_new_stream_of_a_seat_ends_the_older_one(stream_app) -> None:
    table = Table(stream_app)
    first = Listening(table.join(1), table.slug)
    start = table.version()  # after the bots that play first
    assert first.status == 200 and first.told() == start
    second_phone = stream_app.test_client()  # the seat's link opened on another phone
    assert second_phone.get(table.link(1)).status_code == 303
    second = Listening(second_phone, table.slug)
    assert second.status == 200 and second.told() == start
    assert first.end() == "replaced"
    _give_seat(table, 2, "strong")  # the game moves on: the newer stream still tells
    heard = second.moved(start + 1)
    third = Listening(second_phone, table.slug, f"?since={heard}")  # the phone reconnecting
    assert third.status == 200
    assert second.end() == "replaced"
    _give_seat(table, 1, "casual")
    assert third.end() == "removed"


@pytest.mark.parametrize("make", ["strong", "person"])
def test_a_removed_seats_stream_ends_at_its_next_poll(stream_app, make: str) -> None:
    """The host gives the seat to a bot, or to a person with a new link: the old link's
    stream ends at once, not after ``PLAY_STREAM_SECONDS``; the other seats' go on."""
    table = Table(stream_app)
    removed = Listening(table.join(2), table.slug)
    staying = Listening(table.join(1), table.slug)
    start = table.version()  # after the bots that play first
    assert removed.told() == staying.told() == start
    _give_seat(table, 2, make)
    assert removed.end() == "removed"
    staying.moved(start + 1)
    _give_seat(table, 1, "casual")
    assert staying.end() == "removed"


def test_beyond_the_cap_a_stream_is_503_with_retry_after_and_changes_nothing(tmp_path) -> None:
    app = make_app(str(tmp_path / "c.sqlite3"), PLAY_STREAMS_PER_PROCESS=1, **QUICK)
    table = Table(app)
    ivo, jun = table.join(1), table.join(2)
    open_one = Listening(ivo, table.slug)
    start = table.version()  # after the bots that play first
    assert open_one.told() == start
    for phone in (jun, ivo):  # another seat's stream, and a second one of the same seat
        refused = phone.get(f"/play/{table.slug}/events")
        assert refused.status_code == 503
        assert int(refused.headers["Retry-After"]) > 0
        assert "try again" in refused.get_data(as_text=True)
        assert phone.get(f"/play/{table.slug}/version").get_json() == {"version": start}
    _give_seat(table, 2, "strong")  # the open stream was not replaced by the refused one
    open_one.moved(start + 1)
    _give_seat(table, 1, "casual")
    assert open_one.end() == "removed"  # closed: its place is free again
    _give_seat(table, 2, "person")
    again = Listening(table.join(2), table.slug)
    assert again.status == 200
    again.moved(start + 3)
    _give_seat(table, 2, "casual")
    assert again.end() == "removed"


@pytest.mark.parametrize("given", ["²", "¹", "٣", str(10**30), "-1", "7x", "1.5"])
def test_an_odd_version_on_the_stream_is_a_400(tmp_path, given: str) -> None:
    """Item 8: ``str.isdigit`` accepts "²", ``int`` refuses it; both the query and the
    browser's ``Last-Event-ID`` go through the one parser."""
    table = Table(make_app(str(tmp_path / "b.sqlite3"), **QUICK))
    phone = table.join(1)
    by_query = phone.get(f"/play/{table.slug}/events", query_string={"since": given})
    by_header = phone.get(f"/play/{table.slug}/events", headers={"Last-Event-ID": given})
    for answer in (by_query, by_header):
        assert answer.status_code == 400
        assert "version" in answer.get_data(as_text=True)


def test_a_one_person_games_stream_tells_each_bot_move_with_the_persons_board(tmp_path) -> None:
    """Issue 34: the bots' moves of a game of one person are made by jobs, each a
    version, and reach the person's phone through its stream, with the board from the
    person's seat (its hand only)."""
    client = make_app(str(tmp_path / "o.sqlite3"), **QUICK).test_client()
    made = client.post("/play", data={"name": "Sam", "preset": "standard", "bot_0": "casual"})
    slug = made.headers["Location"].split("?")[0].rsplit("/", 1)[1]
    seen = client.get(f"/play/{slug}/state.json").get_json()
    stream = Listening(client, slug)
    assert stream.told() == seen["version"]
    for action in seen["legal"][:1]:  # the draw; then a discard passes the turn
        client.post(f"/play/{slug}/move.json", json={"version": seen["version"], "action": action})
    now = client.get(f"/play/{slug}/state.json").get_json()
    discard = next(a for a in now["legal"] if a["type"] == "discard")
    client.post(f"/play/{slug}/move.json", json={"version": now["version"], "action": discard})
    after = client.get(f"/play/{slug}/state.json").get_json()
    assert after["version"] > now["version"] + 1  # the discard, then the bot's moves
    name, data = stream.next()
    while data["version"] < after["version"]:
        assert name == "version" and "hcard" in data["board"]
        name, data = stream.next()
    assert data["version"] == after["version"] and data["mine"]


def test_the_stream_number_migration_keeps_the_seats(tmp_path) -> None:
    from flask_migrate import downgrade, upgrade

    app = make_app(str(tmp_path / "m.sqlite3"), **QUICK)
    table = Table(app)
    ivo = table.join(1)
    with app.app_context():
        downgrade(revision="f3a7c1e9b524")  # the schema before the stream number
        upgrade()
        db.session.remove()
    assert ivo.get(f"/play/{table.slug}/state.json").get_json()["seat"] == 1
    stream = Listening(ivo, table.slug)
    assert stream.told() == table.version()
    _give_seat(table, 1, "casual")
    assert stream.end() == "removed"


def test_each_seats_stream_brings_its_own_board_and_never_another_seats_cards(
    stream_app,
) -> None:
    """Issue 27, item 3: four people at the table, each phone's stream open; at each
    version (the first and three moves') each event holds the board from its own seat:
    its own hand's cards, none of another seat's, the very body ``board.json`` answers
    that seat at that version."""
    table = Table(stream_app, seat_2="person", who_2="Kim")
    for seat in (1, 2, 3):
        table.join(seat)
    streams = {seat: Listening(phone, table.slug) for seat, phone in table.phones.items()}
    for _move in range(4):
        state, version = table.state(), table.version()
        for seat, stream in streams.items():
            name, told = stream.next()
            assert name == "version" and told["version"] == version, (seat, name)
            assert sorted(_hand(told["board"])) == sorted(c.text for c in state.hands[seat])
            assert not any(word in told["board"] for word in _hidden_from(state, seat))
            asked = table.phones[seat].get(f"/play/{table.slug}/board.json").get_json()
            assert told == asked
        turn = current_player(state)
        assert turn is not None
        assert table.act(turn, legal_actions(state)[0].to_json()).status_code == 200
    for seat in (1, 2, 3):  # every stream read to its end before the test ends
        _give_seat(table, seat, "casual")
        assert streams[seat].end() == "removed"
    stream_app.config["PLAY_STREAM_SECONDS"] = 0  # the host's newer stream ends at once
    assert Listening(table.host, table.slug, f"?since={table.version()}").end() is None
    assert streams[0].end() == "replaced"


def test_the_board_an_event_brings_carries_a_csrf_token_the_session_holds(tmp_path) -> None:
    """The board in a stream's event is rendered after the stream's headers were sent:
    the token its forms carry is put in the phone's session when the stream opens, so a
    tap sent with it is let through (a token made only while streaming would be lost
    with the session never sent again: the tap refused as a forgery)."""
    app = make_app(str(tmp_path / "csrf.sqlite3"), **QUICK)
    table = Table(app, seat_2="person", who_2="Kim")
    for seat in (1, 2, 3):
        table.join(seat)  # fresh phones: no CSRF token in their sessions yet
    state = table.state()
    while current_player(state) == 0:  # on to the turn of a phone with no token yet
        assert table.act(0, legal_actions(state)[0].to_json()).status_code == 200
        state = table.state()
    turn = current_player(state)
    assert turn is not None and turn != 0
    app.config["WTF_CSRF_ENABLED"] = True
    phone = table.phones[turn]
    stream = Listening(phone, table.slug)
    name, told = stream.next()
    assert name == "version"
    token = told["board"].split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    body = {"version": told["version"], "do": legal_actions(state)[0].to_json()}
    headers = {"X-CSRFToken": token}
    sent = phone.post(f"/play/{table.slug}/tap", json=body, headers=headers)
    assert sent.status_code == 200, sent.get_data(as_text=True)[:300]
    assert sent.get_json()["version"] == told["version"] + 1
    app.config["WTF_CSRF_ENABLED"] = False
    _give_seat(table, turn, "casual")
    assert stream.end() == "removed"


def _sweep(app: Flask) -> None:
    """The process's one sweep of its open streams, run now (no clock: the test drives
    it instead of waiting ``check_every``)."""
    app.extensions["wakeups"].sweep_now()


def test_a_phone_in_touch_is_not_taken_for_away_after_a_sweep(stream_app, monkeypatch) -> None:
    """Issue 27: the process's sweep stamps the contact of every seat its streams hold
    (one UPDATE) before it looks for stand-ins due, so a quiet phone whose stream is
    open keeps its turn however long it thinks."""
    table = Table(stream_app)
    table.join(1), table.join(2)
    seat = _play_to_a_person(table)
    thinking = Listening(table.phones[seat], table.slug)
    version = thinking.moved(1)
    grace_passes(monkeypatch, stream_app)  # no request from that phone, only its stream
    _sweep(stream_app)
    assert table.version() == version and current_player(table.state()) == seat
    status = table.host.get(f"/play/{table.slug}/board.json").get_json()
    assert "bot is playing" not in status["text"]
    _give_seat(table, seat, "casual")
    assert thinking.end() == "removed"


def test_a_seat_whose_phone_left_gets_its_stand_in_through_the_sweep(
    stream_app, monkeypatch
) -> None:
    """The sweep finds the held game where a stand-in is due (one query) and lets it play
    (the stand-in for a person away at their turn): the other streams hear the move."""
    table = Table(stream_app)
    table.join(1), table.join(2)
    seat = _play_to_a_person(table)
    other = 3 - seat  # the other person, whose phone keeps its stream open
    staying = Listening(table.phones[other], table.slug)
    version = staying.moved(1)
    name = table.state().players[seat]
    grace_passes(monkeypatch, stream_app)  # the phone of ``seat`` is gone
    _sweep(stream_app)
    event, told = staying.next()  # the stream's one read of the game finds the seat away
    assert event == "version" and told["version"] > version
    assert f"{STANDIN_BOT} is playing for {name}." in told["text"]
    assert current_player(table.state()) != seat
    status = table.phones[other].get(f"/play/{table.slug}/board.json").get_json()
    assert f"{STANDIN_BOT} is playing for {name}." in status["text"]
    _give_seat(table, other, "casual")
    assert staying.end() == "removed"


def test_openings_beyond_the_gate_are_503_and_change_nothing(tmp_path, monkeypatch) -> None:
    """Issue 27: thousands of phones arriving at once cannot take the process's database
    pool: at most ``OPENING_AT_ONCE`` streams do their opening's database work at once,
    and one that finds no turn within ``OPENING_WAIT`` is answered 503 (its page polls),
    its seat's stream number unchanged."""
    app = make_app(str(tmp_path / "g.sqlite3"), **QUICK)
    table = Table(app)
    phone = table.join(1)
    monkeypatch.setattr(streams, "OPENING_WAIT", 0.0)
    gate = app.extensions["play_streams"].opening
    taken = [gate.acquire(blocking=False) for _ in range(caps.OPENING_AT_ONCE)]
    assert all(taken) and not gate.acquire(blocking=False)  # every opening busy
    refused = phone.get(f"/play/{table.slug}/events")
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
    with app.app_context():
        assert db.session.execute(db.select(DigitalSeat.stream)).scalars().all() == [0, 0, 0]
    gate.release()
    opened = Listening(phone, table.slug)
    assert opened.status == 200 and opened.told() == table.version()
    _give_seat(table, 1, "casual")
    assert opened.end() == "removed"
    assert app.extensions["play_streams"].count == 0
    assert not app.extensions["play_streams"].held  # every share given back


class Statements:
    """The SQL statements ``app``'s database is sent from this thread (the test client's
    requests run on it; the process's listener, on a thread of its own, is left out)
    while the ``with`` block runs: each one's text, lower case."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.sent: list[str] = []
        self.thread = threading.get_ident()

    def _sent(self, _conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if threading.get_ident() == self.thread:
            self.sent.append(statement.lower())

    def __enter__(self) -> Self:
        with self.app.app_context():
            self.engine = db.engine
        event.listen(self.engine, "before_cursor_execute", self._sent)
        return self

    def __exit__(self, *_exc: object) -> None:
        event.remove(self.engine, "before_cursor_execute", self._sent)


def _numbers(app: Flask) -> dict[int, int]:
    """Each person seat's stream number, by seat."""
    with app.app_context():
        rows = db.session.execute(db.select(DigitalSeat.seat, DigitalSeat.stream)).all()
        return {seat: number for seat, number in rows}


def test_a_streams_opening_reads_no_state_and_writes_the_seat_once(tmp_path) -> None:
    """Issue 27: thousands of phones open streams, so an opening is light: the version
    asked checked, ONE query of the game's few columns (not its state), ONE UPDATE that
    counts the seat's stream number up and stamps its contact; no catch-up query when no
    stand-in may be due. The stream then works as ever (its board, ``removed``)."""
    app = make_app(str(tmp_path / "light.sqlite3"), **QUICK)
    table = Table(app)
    phone = table.join(1)
    with Statements(app) as seen:
        with phone.get(f"/play/{table.slug}/events", buffered=False) as answer:
            assert answer.status_code == 200  # opened: its lines not read yet
    writes = [s for s in seen.sent if not s.startswith("select")]
    reads = [s for s in seen.sent if s.startswith("select")]
    assert len(reads) == 1 and "state" not in reads[0].split("from")[0], reads
    assert len(writes) == 1 and writes[0].startswith("update digital_seats"), writes
    assert _numbers(app)[1] == 1
    stream = Listening(phone, table.slug)
    assert stream.told() == table.version() and _numbers(app) == {0: 0, 1: 2, 2: 0}
    _give_seat(table, 1, "casual")
    assert stream.end() == "removed"


def test_a_stand_in_due_moves_when_a_stream_opens(stream_app, monkeypatch) -> None:
    """The opening's catch-up, only where the sweep's test says a stand-in may be due: a
    person silent at their turn past the grace period gets a stand-in when another
    phone's stream opens, which then tells the move."""
    table = Table(stream_app)
    table.join(1), table.join(2)
    seat = _play_to_a_person(table)
    version = table.version()
    grace_passes(monkeypatch, stream_app)
    staying = Listening(table.phones[3 - seat], table.slug)
    assert staying.moved(version + 1) > version
    assert current_player(table.state()) != seat
    _give_seat(table, 3 - seat, "casual")
    assert staying.end() == "removed"


def test_a_stream_of_a_seat_relinked_before_it_opens_is_403_and_writes_nothing(tmp_path) -> None:
    """The seat's number is written only while the token the phone holds is still the
    seat's: a phone holding an old link is refused (403), the new link's seat
    untouched."""
    app = make_app(str(tmp_path / "relink.sqlite3"), **QUICK)
    table = Table(app)
    old = table.join(2)
    _give_seat(table, 2, "person")
    refused = old.get(f"/play/{table.slug}/events")
    assert refused.status_code == 403
    assert _numbers(app) == {0: 0, 1: 0, 2: 0}


class StreamReads(Statements):
    """The reads of a digital game's row (its ``state`` among the columns) the streams
    send, on their own threads (the test's thread, which makes the moves, left out),
    while the ``with`` block runs."""

    def _sent(self, _conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        said = statement.lower()
        if threading.get_ident() != self.thread and "digital_games.state" in said:
            self.sent.append(said)


@pytest.fixture(params=["sqlite", "postgresql", "redis"])
def woken_app(request: pytest.FixtureRequest, tmp_path, monkeypatch) -> Iterator[Flask]:
    """The app whose streams only a move's wake-up wakes: on SQLite its process's own
    (its shared check waits 600 s), on PostgreSQL the ``NOTIFY``, with ``REDIS_URL``
    (on SQLite) the notice its process published. Its data folder is its own: no other
    test's process nudges its shared check (a nudge makes the check compare, and wake
    the streams of a game its own move already woke)."""
    monkeypatch.setenv("SCOREKEEPER_DATA", str(tmp_path / "data"))
    quiet = QUICK | {"PLAY_POLL_SECONDS": 600}
    if request.param != "postgresql":
        if request.param == "redis":
            quiet["REDIS_URL"] = request.getfixturevalue("redis_url")
        yield make_app(str(tmp_path / "once.sqlite3"), **quiet)
        return
    yield from _postgres_app(request, monkeypatch, quiet)


def test_the_streams_one_move_wakes_in_a_process_read_the_game_once(woken_app) -> None:
    """Issue 27 (CPU per move): a move wakes the four streams of its table held by one
    process ONCE (on PostgreSQL or Redis through the bus alone, not also at its commit);
    the first reads the game and its seats in ONE statement and the other three take
    that read (each still checks its own token and stream number, and renders its own
    seat's board)."""
    app = woken_app
    table = Table(app, seat_2="person", who_2="Kim")
    for seat in (1, 2, 3):
        table.join(seat)
    streams = {seat: Listening(phone, table.slug) for seat, phone in table.phones.items()}
    assert {stream.told() for stream in streams.values()} == {table.version()}
    # a first move heard by every stream: every notice sent before it (the openings')
    # has been heard, so the second move's wake-up is the only one while it is counted
    for counted in (False, True):
        state = table.state()
        turn = current_player(state)
        assert turn is not None
        with StreamReads(app) as seen:
            assert table.act(turn, legal_actions(state)[0].to_json()).status_code == 200
            moved = table.state()
            for seat, stream in streams.items():
                name, told = stream.next()
                assert name == "version" and told["version"] == table.version()
                assert sorted(_hand(told["board"])) == sorted(c.text for c in moved.hands[seat])
        assert len(seen.sent) == 1 or not counted, seen.sent
    for seat in (1, 2, 3):
        _give_seat(table, seat, "casual")
        assert streams[seat].end() == "removed"
    app.config["PLAY_STREAM_SECONDS"] = 0
    assert Listening(table.host, table.slug, f"?since={table.version()}").end() is None
    assert streams[0].end() == "replaced"


def test_the_tvs_of_one_view_link_cannot_take_a_seats_stream(tmp_path) -> None:
    """Issue 34: streams are capped per link and per client as well as per process: the
    TVs following one view link fill only their link's share, and a seat's phone still
    opens its stream."""
    app = make_app(
        str(tmp_path / "tv.sqlite3"), PLAY_STREAMS_PER_PROCESS=6, PLAY_STREAMS_PER_LINK=3, **QUICK
    )
    table = Table(app)
    page = table.host.get(f"/play/{table.slug}/seats").get_data(as_text=True)
    start = page.index(f"/play/{table.slug}/watch/")
    watch = page[start : page.index('"', start)]
    tvs = [Listening(app.test_client(), table.slug, path=f"{watch}/events") for _ in range(3)]
    assert [tv.status for tv in tvs] == [200, 200, 200]
    refused = app.test_client().get(f"{watch}/events")  # a fourth TV on the same link
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
    seat = Listening(table.join(1), table.slug)
    assert seat.status == 200 and seat.told() == table.version()
    _give_seat(table, 1, "casual")
    assert seat.end() == "removed"
