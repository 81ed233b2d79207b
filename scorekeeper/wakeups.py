"""One wake-up per process for the live streams of table games (issue 27, item 2): a move
notifies, and each server process has ONE listener that wakes the event streams it holds,
instead of every stream asking the database for its game's version a few times a second.

Glossary:
- key: a game's kind and id as text, ``play:12`` (a digital game: a table's phones, the
  spectator board) or ``table:7`` (a scoresheet game: the TV view); a seat's key,
  ``seat:12.3`` (:func:`seat_key`), wakes only the streams of that seat of a digital
  game.
- held game: a game (its key) that at least one event stream of this process is serving;
  the listener's only state is which of its streams wait on which game (an
  :class:`threading.Event` each), nothing of any game, so any process still serves any
  phone and a stream woken reads its game's standing from the database.
- a move's notice (:func:`moved`): every change a stream must hear of (a saved move, a
  seat given to a bot or a new link, a scoresheet game's new version) names its game's
  key; a newer stream of a seat names the seat's key (only the seat's older stream must
  hear of it, not the table's other phones).
- bus: how a notice reaches every process's listener:

  - ``redis``: Redis pub/sub on channel :data:`CHANNEL` when ``REDIS_URL`` is set (the
    sturdier bus when moves are many); the notice is published once the move's
    transaction has committed;
  - ``postgresql``: PostgreSQL's ``NOTIFY`` on :data:`CHANNEL`, sent in the move's own
    transaction (delivered when it commits, dropped if it rolls back), heard with
    ``LISTEN`` (psycopg 3, one connection per process);
  - ``sqlite``: no server to tell, so one shared check per process: SQLite's ``PRAGMA
    data_version`` says whether anything was committed since the last check; only then
    ONE query reads the standing (version, seats' stream numbers) of every held game,
    and the streams of the games that changed are woken. A check runs at once when
    another process of the machine nudges it (:class:`.Nudges`: after each commit that
    moved a game, one datagram to each checking process's socket in the data folder),
    and every ``PLAY_POLL_SECONDS`` (0.2 s) without one (a nudge lost, a folder where
    no socket can be made).

A process's own commits wake its streams through the same bus as every other process's
(on SQLite at once), and a listener that (re)connects wakes every stream it holds, so a
notice sent while it was away is not lost unread.

- sweep: beside its listener, each process runs ONE sweep every :func:`check_every`
  seconds (30) for all the streams it holds, instead of a check per stream: the
  :attr:`Wakeups.sweep` the play blueprint gives it (:func:`.play.shared_seats.sweep`:
  one UPDATE stamps the contact of every seat a stream of the process holds, one query
  finds the held games where a stand-in bot is due, and only those catch up). A quiet
  stream itself only sends a keep-alive comment.
"""

from __future__ import annotations

import hashlib
import json
import logging
import select
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, has_app_context, request, stream_with_context
from sqlalchemy import event, func, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from .extensions import db
from .models import DigitalGame, DigitalSeat, Game
from .nudges import Nudges
from .requests import MAX_VERSION, parse_int

CHANNEL = "scorekeeper_games"
"""The PostgreSQL channel and the Redis channel the notices go on; a notice's payload is
a game's key (:func:`play_key`, :func:`table_key`)."""
KINDS = ("play", "table")
"""The kinds of games streams wait on: digital games (a table's phones, the spectator
board) and scoresheet games (the TV view)."""
PENDING = "scorekeeper_moved"
"""The key of a session's ``info`` holding the ids of the games changed in its open
transaction, told to the streams when it commits."""
NUDGES = "wakeups"
"""The folder of the SQLite bus's sockets in the data folder (:class:`.Nudges`)."""
LISTEN_SECONDS = 10.0
"""Seconds a PostgreSQL or Redis listener waits for a notice before it waits again."""
RECONNECT_SECONDS = 1.0
"""Seconds a listener whose connection failed waits before it connects again."""

log = logging.getLogger(__name__)

Contact = tuple[int, int, int]
"""A seat a stream holds: its digital game's id, the seat (0-based) and the stream's
number (:attr:`~scorekeeper.models.DigitalSeat.stream`: an older stream of the seat,
replaced, stamps no contact)."""
Sweep = Callable[[list[Contact], list[str], float], object]
"""The sweep: called with the contacts of the process's streams, the keys of the games
they hold and when (``time.monotonic``) the next sweep is due, in an app context (see
the module)."""


def bus_of(config: Any) -> str:
    """The bus an app with ``config`` uses: ``redis`` (``REDIS_URL`` set), else
    ``postgresql`` (a PostgreSQL database) or ``sqlite``."""
    if config.get("REDIS_URL"):
        return "redis"
    url = make_url(str(config["SQLALCHEMY_DATABASE_URI"]))
    return "postgresql" if url.get_backend_name() == "postgresql" else "sqlite"


class Wakeups:
    """This process's listener and the streams waiting on it (``app.extensions
    ["wakeups"]``): :meth:`hold` a game while a stream serves it, :meth:`let_go`
    when the stream ends. The listener runs on a thread of its own (a greenlet under
    gevent), started with the first stream, and stops when no game is held (the SQLite
    check at once, a PostgreSQL or Redis listener within :data:`LISTEN_SECONDS`); so
    does the sweeper (:meth:`sweep_now` every :func:`check_every`) when :attr:`sweep`
    is set."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.bus = bus_of(app.config)
        self.sweep: Sweep | None = None
        self._lock = threading.Lock()
        self._held: dict[str, set[threading.Event]] = {}
        self._contacts: dict[threading.Event, Contact] = {}
        self._seats: dict[str, set[threading.Event]] = {}
        self._wakes = 0
        self._woken: dict[str, int] = {}
        self._listener: threading.Thread | None = None
        self._sweeper: threading.Thread | None = None
        self._redis: Any = None
        self.nudges = Nudges(Path(app.instance_path) / NUDGES)

    def hold(self, key: str, contact: Contact | None = None) -> threading.Event:
        """A new event, set each time the game of ``key`` (:func:`play_key`,
        :func:`table_key`) may have changed; ``contact`` the seat the stream serves
        (stamped by each sweep while it is held)."""
        woken = threading.Event()
        with self._lock:
            self._held.setdefault(key, set()).add(woken)
            self._count_wake(key)
            if contact is not None:
                self._contacts[woken] = contact
                self._seats.setdefault(seat_key(contact[0], contact[1]), set()).add(woken)
            if self._listener is None:
                listen = {"redis": self._listen_redis, "postgresql": self._listen_postgresql}
                target = listen.get(self.bus, self._check_sqlite)
                self._listener = threading.Thread(target=target, name="wakeups", daemon=True)
                self._listener.start()
            if self._sweeper is None and self.sweep is not None:
                self._sweeper = threading.Thread(target=self._sweeping, name="sweep", daemon=True)
                self._sweeper.start()
        return woken

    def let_go(self, key: str, woken: threading.Event) -> None:
        """A stream of the game of ``key`` has ended: its event is no longer set."""
        with self._lock:
            events = self._held.get(key, set())
            events.discard(woken)
            if not events:
                self._held.pop(key, None)
                self._woken.pop(key, None)
            contact = self._contacts.pop(woken, None)
            if contact is not None:
                seat = seat_key(contact[0], contact[1])
                self._seats.get(seat, set()).discard(woken)
                if not self._seats.get(seat):
                    self._seats.pop(seat, None)

    def contacts(self) -> list[Contact]:
        """The seats this process's streams serve now."""
        with self._lock:
            return list(self._contacts.values())

    def sweep_now(self, due: float | None = None) -> None:
        """One sweep (:attr:`sweep`) of the streams held now, in an app context, to be
        done by ``due`` (``time.monotonic``; :func:`check_every` from now unless given);
        an error is logged (the next sweep tries again)."""
        if self.sweep is None:
            return
        with self.app.app_context():
            due = time.monotonic() + check_every() if due is None else due
            try:
                self.sweep(self.contacts(), self.held(), due)
            except Exception:  # the database unreachable a moment: the streams go on
                log.warning("the sweep of the open streams failed", exc_info=True)
                db.session.rollback()

    def _sweeping(self) -> None:
        """:meth:`sweep_now` every :func:`check_every` seconds while a game is held, on a
        fixed beat: a long sweep never delays the next one's contact stamps."""
        with self.app.app_context():
            every = check_every()
        due = time.monotonic() + every
        while True:
            time.sleep(max(0.0, due - time.monotonic()))
            with self._lock:
                if not self._held:
                    self._sweeper = None
                    return
            due = max(due + every, time.monotonic())
            self.sweep_now(due)

    def held(self) -> list[str]:
        """The keys of the games this process's streams serve now."""
        with self._lock:
            return list(self._held)

    def wake(self, keys: Iterable[str]) -> None:
        """Wake every stream of the games or seats of ``keys`` (unknown keys are
        ignored), each held game's wake counted (:meth:`wakes`)."""
        with self._lock:
            for key in keys:
                self._count_wake(game_of(key))
                for woken in (*self._held.get(key, ()), *self._seats.get(key, ())):
                    woken.set()

    def _count_wake(self, key: str) -> None:
        if key in self._held:
            self._wakes += 1
            self._woken[key] = self._wakes

    def wakes(self, key: str) -> int:
        """The number of the latest wake of the game of ``key`` in this process (a
        move's notice, a notice of one of its seats, a stream of it opened): a read of
        the game begun after this number was asked sees every change notified until
        then, so the streams woken together may share one read (:mod:`.play.stream`).
        Numbers only grow while the process lives."""
        with self._lock:
            return self._woken.get(key, 0)

    def wake_all(self) -> None:
        """Wake every stream (the listener (re)connected: a notice may have been missed)."""
        self.wake(self.held())

    def publish(self, keys: set[str]) -> None:
        """After a commit that changed the games of ``keys``: wake the streams of them,
        this process's too, ONCE each: on SQLite this process's at once (the others'
        shared checks see the commit); on PostgreSQL the ``NOTIFY`` sent in the
        transaction reaches every process's listener, this one's as well; on Redis the
        notice published now does (a Redis error is logged, and this process's streams
        woken at once: the other processes' listeners, which lost Redis too, wake all
        their streams when they reconnect). Woken here and again by the bus, a process
        would read each game twice a move."""
        if self.bus == "sqlite":
            self.wake(keys)
            self.nudges.send()
        if self.bus != "redis":
            return
        try:
            for key in sorted(keys):
                self._client().publish(CHANNEL, key)
        except Exception:  # redis.RedisError or OSError: the move itself is saved
            log.warning("could not publish a move on Redis", exc_info=True)
            self.wake(keys)

    def _client(self) -> Any:
        import redis

        if self._redis is None:
            timeout = float(self.app.config.get("REDIS_TIMEOUT_SECONDS", 5))
            self._redis = redis.Redis.from_url(
                self.app.config["REDIS_URL"], socket_timeout=timeout, socket_connect_timeout=timeout
            )
        return self._redis

    def _listen_redis(self) -> None:
        self._reconnecting(self._redis_once)

    def _redis_once(self) -> None:
        import redis

        timeout = float(self.app.config.get("REDIS_TIMEOUT_SECONDS", 5))
        client: Any = redis.Redis.from_url(
            self.app.config["REDIS_URL"],
            socket_connect_timeout=timeout,
            socket_timeout=LISTEN_SECONDS + timeout,  # beyond the listener's own wait
        )
        with client.pubsub(ignore_subscribe_messages=True) as bus:
            bus.subscribe(CHANNEL)
            self.wake_all()
            while self._held_or_stop() is not None:
                message = bus.get_message(timeout=LISTEN_SECONDS)
                if message is not None:
                    self.wake(_keys(message["data"]))

    def _listen_postgresql(self) -> None:
        self._reconnecting(self._postgresql_once)

    def _postgresql_once(self) -> None:
        import psycopg

        url = make_url(str(self.app.config["SQLALCHEMY_DATABASE_URI"]))
        dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        seconds = max(1, int(float(self.app.config.get("DATABASE_CONNECT_SECONDS", 3))))
        with psycopg.connect(dsn, autocommit=True, connect_timeout=seconds) as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            self.wake_all()
            while self._held_or_stop() is not None:
                # psycopg's own wait wakes ten times a second: wait on the socket instead
                ready, _, _ = select.select([connection.fileno()], [], [], LISTEN_SECONDS)
                if ready:
                    for notice in connection.notifies(timeout=RECONNECT_SECONDS, stop_after=1):
                        self.wake(_keys(notice.payload))

    def _reconnecting(self, once: Callable[[], None]) -> None:
        """Run the listener ``once`` again each time its connection fails, as long as a
        game is held (it stops, and :meth:`hold` starts another, when none is)."""
        while True:
            try:
                once()
                return
            except Exception:  # the server restarted or is unreachable: connect again
                log.warning("the %s listener lost its connection", self.bus, exc_info=True)
            self.wake_all()
            time.sleep(RECONNECT_SECONDS)
            if self._held_or_stop() is None:
                return

    def _check_sqlite(self) -> None:
        """The shared check: at each nudge (:class:`.Nudges`) or ``PLAY_POLL_SECONDS``
        without one, SQLite's ``PRAGMA data_version`` on a connection of its own (it
        changes when any other connection commits), and only then, or for a game newly
        held, one query for every held game; stops (and :meth:`hold` starts another)
        when no game is held."""
        every = float(self.app.config.get("PLAY_POLL_SECONDS", 0.2))
        last: dict[str, tuple[int, int, int]] = {}
        with self.app.app_context():
            own = db.engine.raw_connection()
            self.nudges.open()
            try:
                seen = None
                while (held := self._held_or_stop()) is not None:
                    now = _data_version(own)
                    if now is None or now != seen or any(k not in last for k in held):
                        seen, last = now, self._compare(held, last)
                    self.nudges.wait(every)
            finally:
                self.nudges.close()
                own.close()

    def _compare(
        self, held: list[str], last: dict[str, tuple[int, int, int]]
    ) -> dict[str, tuple[int, int, int]]:
        """Wake the streams of the held games whose standing is not ``last``'s; the
        standings now."""
        now = standings(held)
        self.wake(k for k in held if k not in last or now.get(k) != last[k])
        return {k: now[k] for k in held if k in now}

    def _held_or_stop(self) -> list[str] | None:
        with self._lock:
            if not self._held:
                self._listener = None
                return None
            return list(self._held)


def play_key(game_id: int) -> str:
    """The key of a digital game's streams (``play:12``), also a notice's payload."""
    return f"play:{game_id}"


def seat_key(game_id: int, seat: int) -> str:
    """The key of the streams of seat ``seat`` (0-based) of a digital game
    (``seat:12.3``), also a notice's payload: a newer stream of the seat wakes only the
    seat's older one."""
    return f"seat:{game_id}.{seat}"


def game_of(key: str) -> str:
    """The key of the game a key names: a seat's key (``seat:12.3``) names its digital
    game's (``play:12``); a game's key names itself."""
    kind, _, number = key.partition(":")
    return play_key(int(number.split(".")[0])) if kind == "seat" else key


def table_key(game_id: int) -> str:
    """The key of a scoresheet game's streams (``table:7``: the TV view)."""
    return f"table:{game_id}"


def standings(keys: list[str]) -> dict[str, tuple[int, int, int]]:
    """Each game's standing, by key, in one query for the digital games and one for the
    scoresheet games: ``(version, the sum of its seats' stream numbers, its person
    seats)`` (``(version, 0, 0)`` for a scoresheet game); a deleted game is missing. Any
    move, seat given away or newer stream changes it. Ends the transaction."""
    ids = {kind: [int(k.split(":")[1]) for k in keys if k.startswith(kind)] for kind in KINDS}
    found: dict[str, tuple[int, int, int]] = {}
    if ids["play"]:
        seats = DigitalSeat.game_id == DigitalGame.id
        query = (
            db.select(
                DigitalGame.id,
                DigitalGame.version,
                func.coalesce(func.sum(DigitalSeat.stream), 0),
                func.count(DigitalSeat.seat),
            )
            .outerjoin(DigitalSeat, seats)
            .where(DigitalGame.id.in_(ids["play"]))
            .group_by(DigitalGame.id, DigitalGame.version)
        )
        found |= {play_key(r[0]): (r[1], r[2], r[3]) for r in db.session.execute(query)}
    if ids["table"]:
        query = db.select(Game.id, Game.version).where(Game.id.in_(ids["table"]))
        found |= {table_key(r[0]): (r[1], 0, 0) for r in db.session.execute(query)}
    db.session.rollback()
    return found


def _data_version(connection: Any) -> int | None:
    """SQLite's ``PRAGMA data_version`` on ``connection`` (a DB-API connection): it
    changes when another connection commits; None on another database."""
    if db.engine.dialect.name != "sqlite":
        return None
    cursor = connection.cursor()
    try:
        cursor.execute("PRAGMA data_version")
        return int(cursor.fetchone()[0])
    finally:
        cursor.close()


def _keys(payload: Any) -> list[str]:
    """The key a notice carries (a game's or a seat's); none for a payload that is not
    one."""
    given = payload.decode() if isinstance(payload, bytes) else str(payload)
    kind, _, number = given.partition(":")
    parts = number.split(".")
    if len(parts) != (2 if kind == "seat" else 1) or kind not in (*KINDS, "seat"):
        return []
    return [given] if all(p.isdecimal() and len(p) < 19 for p in parts) else []


def moved(key: str) -> None:
    """The game of ``key`` (:func:`play_key`, :func:`table_key`) changed in the
    session's open transaction: its streams in every process are woken once it commits
    (PostgreSQL: a ``NOTIFY`` in the transaction)."""
    db.session.info.setdefault(PENDING, set()).add(key)
    if has_app_context() and _wakeups().bus == "postgresql":
        db.session.execute(
            text("SELECT pg_notify(:channel, :game)"),
            {
                "channel": CHANNEL,
                "game": key,
            },
        )


def _wakeups() -> Wakeups:
    found: Wakeups = current_app.extensions["wakeups"]
    return found


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    keys = session.info.pop(PENDING, None)
    if keys and has_app_context() and "wakeups" in current_app.extensions:
        _wakeups().publish(keys)


@event.listens_for(Session, "after_soft_rollback")
def _rolled_back(session: Session, previous: Any) -> None:
    session.info.pop(PENDING, None)


# ---- the event streams woken by the listener ----------------------------------------

RETRY_AFTER = 15
"""Seconds a page refused a stream (503, the process holds its cap) waits before it
asks again; it polls the version meanwhile and reopens the stream after as long."""

Standing = Callable[[], tuple[int, str | None]]
"""Reads a game's version and why its stream must end now (``"replaced"``,
``"removed"``, ``"gone"``) or None, in a transaction of its own."""


Told = Callable[[int], dict[str, Any] | None]
"""A version event's data for the version read (see :func:`version_events`)."""


OPENING_AT_ONCE = 8
"""Streams of one process doing their opening's database work (the seat's contact, a
catch-up, the seat's stream number written) at once. An open stream holds no database
connection between its reads, but opening holds one from its first query to its
commit: with thousands of phones arriving together, so many openings would take every
connection of the process's pool (``pool_size`` 10 + ``max_overflow`` 22, app.py) and
pages and moves would wait for one. Eight leave 24 for pages, moves and the streams'
reads."""
OPENING_WAIT = 10.0
"""Seconds a stream waits for its turn to open before it is answered 503 (its page
polls and asks again after ``Retry-After``)."""


Shares = tuple[tuple[str, int], ...]
"""A stream's shares: each ``(key, cap)`` it counts against besides the process's cap (its
link, its client's session, its client's address: :func:`stream_shares`)."""


class OpenStreams:
    """How many event streams this process holds open, for the cap
    ``PLAY_STREAMS_PER_PROCESS``, and how many of them each link, session and address
    holds, for their caps (:func:`stream_shares`: counts under a lock, keyed by a hash;
    nothing of any game), and the gate of their openings (:data:`OPENING_AT_ONCE`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0
        self.held: Counter[str] = Counter()
        self.opening = threading.BoundedSemaphore(OPENING_AT_ONCE)

    def take(self, cap: int, shares: Shares = ()) -> bool:
        """Count one more open stream, and one more of each of its ``shares``; False, and
        nothing counted, when ``cap`` are open or any share is at its own cap."""
        with self._lock:
            if self.count >= cap or any(self.held[key] >= most for key, most in shares):
                return False
            self.count += 1
            for key, _most in shares:
                self.held[key] += 1
            return True

    def give_back(self, shares: Shares = ()) -> None:
        """A counted stream (of ``shares``) has closed."""
        with self._lock:
            self.count -= 1
            for key, _most in shares:
                self.held[key] -= 1
                if self.held[key] <= 0:
                    del self.held[key]


def stream_shares() -> Shares:
    """The shares of the stream being opened: its link (the address without
    ``/events``: a seat's, a view link's, a TV's), ``PLAY_STREAMS_PER_LINK`` (8) at
    most; its client's session (:func:`scorekeeper.jobs.client_key`),
    ``PLAY_STREAMS_PER_CLIENT`` (16); its client's network address,
    ``PLAY_STREAMS_PER_ADDRESS`` (512: a game night's phones behind one router). So the
    TVs on one view link, or one client's many tabs, cannot take the streams a seat
    needs. Keys are hashes: no link's token is kept."""
    from .jobs import client_key

    client, address = client_key()
    config = current_app.config
    parts = (
        ("link", request.path, int(config.get("PLAY_STREAMS_PER_LINK", 8))),
        ("client", client, int(config.get("PLAY_STREAMS_PER_CLIENT", 16))),
        ("address", address, int(config.get("PLAY_STREAMS_PER_ADDRESS", 512))),
    )
    return tuple(
        (kind + ":" + hashlib.sha256(value.encode()).hexdigest()[:20], most)
        for kind, value, most in parts
    )


def check_every() -> float:
    """Seconds between two sweeps of a process (see the module), and a quiet stream's
    wait before its keep-alive: ``PLAY_CHECK_SECONDS`` (30 unless configured), at most
    half the grace period (``PLAY_GRACE_SECONDS``, 60) so a phone in touch is never
    taken for away (its contact, stamped by each sweep, is never older).

    30 s also keeps a quiet stream through what stands between it and the phone: a
    proxy ends a response silent for longer than its read timeout (nginx's
    ``proxy_read_timeout``: 60 s unless set, 120 s in our nginx.conf; hosted load
    balancers close connections idle for 55-60 s, e.g. Heroku's router 55 s, an AWS
    load balancer 60 s by default), and a phone's network forgets idle connections
    after a few minutes. A longer wait would save little: a keep-alive is one short
    write of an open socket (tens of microseconds), so a table's 8 cost less CPU than
    its share of one sweep."""
    config = current_app.config
    grace = float(config.get("PLAY_GRACE_SECONDS", 60))
    return min(float(config.get("PLAY_CHECK_SECONDS", 30)), grace / 2)


def version_only(version: int) -> dict[str, Any]:
    """A version event's data that says only the version: ``{"version": 7}``."""
    return {"version": version}


def version_events(
    key: str,
    standing: Standing,
    since: int | None,
    tell: Told = version_only,
    contact: Contact | None = None,
) -> Iterator[str]:
    """An event stream's lines (server-sent events) for the game of ``key``: its
    ``standing`` read when it opens and each time this process's listener wakes it,
    ``event: version`` when the version is not the last told (``since`` at first), its
    data ``tell(version)`` (``{"version": 7, ...}``: the version it tells, which may be
    newer than the one read; None when the standing changed meanwhile, read again),
    ``event: end`` with the reason when it must end; after :func:`check_every` of quiet,
    a keep-alive comment, nothing read (the
    listener wakes every stream when it reconnects, so no notice is lost unread; the
    process's sweep stamps ``contact``, the seat it serves, and lets due bots move).
    Ends after ``PLAY_STREAM_SECONDS`` (3600)."""
    wakeups: Wakeups = current_app.extensions["wakeups"]
    every = check_every()
    end = time.monotonic() + float(current_app.config.get("PLAY_STREAM_SECONDS", 3600))
    woken = wakeups.hold(key, contact)
    try:
        yield "retry: 1000\n\n"
        last = since
        while True:
            woken.clear()
            version, ended = standing()
            if ended is not None:
                yield f"event: end\ndata: {json.dumps({'reason': ended})}\n\n"
                return
            if version != last:
                told = tell(version)
                if told is None:  # the seat changed while its board was read: read again
                    continue
                last = told["version"]
                yield f"id: {last}\nevent: version\ndata: {json.dumps(told)}\n\n"
            while not woken.wait(max(0.0, min(end - time.monotonic(), every))):
                if time.monotonic() >= end:
                    return
                yield ": still here\n\n"
    finally:
        wakeups.let_go(key, woken)


def since_asked() -> int | None:
    """The version a page last heard: ``Last-Event-ID`` (the browser reconnecting) or
    ``?since=``, None when neither is given. Raises
    :class:`~scorekeeper.requests.BadNumber` (400) when it is not a whole number from 0
    to ``MAX_VERSION``."""
    given = request.headers.get("Last-Event-ID") or request.args.get("since")
    return parse_int(given, 0, MAX_VERSION, "version") if given else None


def _busy() -> Response:
    """The answer beyond the process's cap of streams: 503 with ``Retry-After``."""
    text = "This server carries as many live updates as it can: try again shortly."
    headers = {"Retry-After": str(RETRY_AFTER), "Cache-Control": "no-store"}
    return Response(text, 503, headers, mimetype="text/plain")


def open_stream(opened: Callable[[], Iterator[str]]) -> Response:
    """An event stream's response, counted against the process's cap and its link's,
    session's and address's (:func:`stream_shares`; 503 with ``Retry-After`` beyond any,
    before any database work); ``opened()`` checks the
    request (it may abort with a 4xx) and gives the stream's lines, at most
    :data:`OPENING_AT_ONCE` at once (503 after :data:`OPENING_WAIT` seconds of waiting
    for a turn)."""
    counted: OpenStreams = current_app.extensions["play_streams"]
    shares = stream_shares()
    if not counted.take(int(current_app.config["PLAY_STREAMS_PER_PROCESS"]), shares):
        return _busy()
    if not counted.opening.acquire(timeout=OPENING_WAIT):
        counted.give_back(shares)
        return _busy()
    try:
        lines = opened()
    except BaseException:
        counted.give_back(shares)
        raise
    finally:
        counted.opening.release()
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    response = Response(stream_with_context(lines), mimetype="text/event-stream", headers=headers)
    response.call_on_close(lambda: counted.give_back(shares))
    return response
