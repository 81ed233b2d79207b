"""One wake-up per process for the live streams of table games (issue 27, item 2): a move
notifies, and each server process has ONE listener that wakes the event streams it holds,
instead of every stream asking the database for its game's version a few times a second.

Glossary:
- held game: a game (its id) that at least one event stream of this process is serving;
  the listener's only state is which of its streams wait on which game (an
  :class:`threading.Event` each), nothing of any game, so any process still serves any
  phone and a stream woken reads its game's standing from the database.
- a move's notice (:func:`moved`): every change a stream must hear of (a saved move, a
  seat given to a bot or a new link, a newer stream of a seat) names its game's id.
- bus: how a notice reaches every process's listener:

  - ``redis``: Redis pub/sub on channel :data:`CHANNEL` when ``REDIS_URL`` is set (the
    sturdier bus when moves are many); the notice is published once the move's
    transaction has committed;
  - ``postgresql``: PostgreSQL's ``NOTIFY`` on :data:`CHANNEL`, sent in the move's own
    transaction (delivered when it commits, dropped if it rolls back), heard with
    ``LISTEN`` (psycopg 3, one connection per process);
  - ``sqlite``: no server to tell, so one shared check per process: every
    ``PLAY_POLL_SECONDS`` (0.2 s) SQLite's ``PRAGMA data_version`` says whether anything
    was committed since; only then ONE query reads the standing (version, seats' stream
    numbers) of every held game, and the streams of the games that changed are woken.

A process's own commits also wake its streams at once. A stream also re-reads its game
when it wakes for its keep-alive (:mod:`.stream`), so a notice lost while the listener
reconnects costs at most that long.
"""

from __future__ import annotations

import logging
import select
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, current_app, has_app_context
from sqlalchemy import event, func, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from ..extensions import db
from ..models import DigitalGame, DigitalSeat

CHANNEL = "scorekeeper_games"
"""The PostgreSQL channel and the Redis channel the notices go on; a notice's payload is
a game's id in decimal."""
PENDING = "scorekeeper_moved"
"""The key of a session's ``info`` holding the ids of the games changed in its open
transaction, told to the streams when it commits."""
LISTEN_SECONDS = 10.0
"""Seconds a PostgreSQL or Redis listener waits for a notice before it waits again."""
RECONNECT_SECONDS = 1.0
"""Seconds a listener whose connection failed waits before it connects again."""

log = logging.getLogger(__name__)


def bus_of(config: Any) -> str:
    """The bus an app with ``config`` uses: ``redis`` (``REDIS_URL`` set), else
    ``postgresql`` (a PostgreSQL database) or ``sqlite``."""
    if config.get("REDIS_URL"):
        return "redis"
    url = make_url(str(config["SQLALCHEMY_DATABASE_URI"]))
    return "postgresql" if url.get_backend_name() == "postgresql" else "sqlite"


class Wakeups:
    """This process's listener and the streams waiting on it (``app.extensions
    ["play_wakeups"]``): :meth:`hold` a game while a stream serves it, :meth:`let_go`
    when the stream ends. The listener runs on a thread of its own (a greenlet under
    gevent), started with the first stream, and stops when no game is held (the SQLite
    check at once, a PostgreSQL or Redis listener within :data:`LISTEN_SECONDS`)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.bus = bus_of(app.config)
        self._lock = threading.Lock()
        self._held: dict[int, set[threading.Event]] = {}
        self._listener: threading.Thread | None = None
        self._redis: Any = None

    def hold(self, game_id: int) -> threading.Event:
        """A new event, set each time game ``game_id`` may have changed."""
        woken = threading.Event()
        with self._lock:
            self._held.setdefault(game_id, set()).add(woken)
            if self._listener is None:
                listen = {"redis": self._listen_redis, "postgresql": self._listen_postgresql}
                target = listen.get(self.bus, self._check_sqlite)
                self._listener = threading.Thread(target=target, name="wakeups", daemon=True)
                self._listener.start()
        return woken

    def let_go(self, game_id: int, woken: threading.Event) -> None:
        """A stream of game ``game_id`` has ended: its event is no longer set."""
        with self._lock:
            events = self._held.get(game_id, set())
            events.discard(woken)
            if not events:
                self._held.pop(game_id, None)

    def held(self) -> list[int]:
        """The ids of the games this process's streams serve now."""
        with self._lock:
            return list(self._held)

    def wake(self, game_ids: Iterable[int]) -> None:
        """Wake every stream of the games ``game_ids`` (unknown ids are ignored)."""
        with self._lock:
            for game_id in game_ids:
                for woken in self._held.get(game_id, ()):
                    woken.set()

    def wake_all(self) -> None:
        """Wake every stream (the listener (re)connected: a notice may have been missed)."""
        self.wake(self.held())

    def publish(self, game_ids: set[int]) -> None:
        """After a commit that changed ``game_ids``: wake this process's streams of them
        and, on Redis, every other process's (a Redis error is logged: the streams then
        hear of the move at their next keep-alive)."""
        self.wake(game_ids)
        if self.bus != "redis":
            return
        try:
            for game_id in sorted(game_ids):
                self._client().publish(CHANNEL, str(game_id))
        except Exception:  # redis.RedisError or OSError: the move itself is saved
            log.warning("could not publish a move on Redis", exc_info=True)

    def _client(self) -> Any:
        import redis

        if self._redis is None:
            self._redis = redis.Redis.from_url(self.app.config["REDIS_URL"])
        return self._redis

    def _listen_redis(self) -> None:
        self._reconnecting(self._redis_once)

    def _redis_once(self) -> None:
        import redis

        client: Any = redis.Redis.from_url(self.app.config["REDIS_URL"])
        with client.pubsub(ignore_subscribe_messages=True) as bus:
            bus.subscribe(CHANNEL)
            self.wake_all()
            while self._held_or_stop() is not None:
                message = bus.get_message(timeout=LISTEN_SECONDS)
                if message is not None:
                    self.wake(_ids(message["data"]))

    def _listen_postgresql(self) -> None:
        self._reconnecting(self._postgresql_once)

    def _postgresql_once(self) -> None:
        import psycopg

        url = make_url(str(self.app.config["SQLALCHEMY_DATABASE_URI"]))
        dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(dsn, autocommit=True) as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            self.wake_all()
            while self._held_or_stop() is not None:
                # psycopg's own wait wakes ten times a second: wait on the socket instead
                ready, _, _ = select.select([connection.fileno()], [], [], LISTEN_SECONDS)
                if ready:
                    for notice in connection.notifies(timeout=RECONNECT_SECONDS, stop_after=1):
                        self.wake(_ids(notice.payload))

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
        """The shared check: each ``PLAY_POLL_SECONDS``, SQLite's ``PRAGMA data_version``
        on a connection of its own (it changes when any other connection commits), and
        only then, or for a game newly held, one query for every held game; stops (and
        :meth:`hold` starts another) when no game is held."""
        every = float(self.app.config.get("PLAY_POLL_SECONDS", 0.2))
        last: dict[int, tuple[int, int, int]] = {}
        with self.app.app_context():
            own = db.engine.raw_connection()
            try:
                seen = None
                while (held := self._held_or_stop()) is not None:
                    now = _data_version(own)
                    if now is None or now != seen or any(g not in last for g in held):
                        seen, last = now, self._compare(held, last)
                    time.sleep(every)
            finally:
                own.close()

    def _compare(
        self, held: list[int], last: dict[int, tuple[int, int, int]]
    ) -> dict[int, tuple[int, int, int]]:
        """Wake the streams of the held games whose standing is not ``last``'s; the
        standings now."""
        now = standings(held)
        self.wake(g for g in held if g not in last or now.get(g) != last[g])
        return {g: now[g] for g in held if g in now}

    def _held_or_stop(self) -> list[int] | None:
        with self._lock:
            if not self._held:
                self._listener = None
                return None
            return list(self._held)


def standings(game_ids: list[int]) -> dict[int, tuple[int, int, int]]:
    """Each game's standing in one query: ``(version, the sum of its seats' stream
    numbers, its person seats)`` by id; a deleted game is missing. Any move, seat given
    away or newer stream changes it. Ends the transaction."""
    seats = DigitalSeat.game_id == DigitalGame.id
    query = (
        db.select(
            DigitalGame.id,
            DigitalGame.version,
            func.coalesce(func.sum(DigitalSeat.stream), 0),
            func.count(DigitalSeat.seat),
        )
        .outerjoin(DigitalSeat, seats)
        .where(DigitalGame.id.in_(game_ids))
        .group_by(DigitalGame.id, DigitalGame.version)
    )
    rows = db.session.execute(query).all()
    db.session.rollback()
    return {row[0]: (row[1], row[2], row[3]) for row in rows}


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


def _ids(payload: Any) -> list[int]:
    """The game id a notice carries; none for a payload that is not one."""
    given = payload.decode() if isinstance(payload, bytes) else str(payload)
    return [int(given)] if given.isdecimal() and len(given) < 19 else []


def moved(game_id: int) -> None:
    """Game ``game_id`` changed in the session's open transaction: its streams in every
    process are woken once it commits (PostgreSQL: a ``NOTIFY`` in the transaction)."""
    db.session.info.setdefault(PENDING, set()).add(game_id)
    if has_app_context() and _wakeups().bus == "postgresql":
        db.session.execute(
            text("SELECT pg_notify(:channel, :game)"),
            {
                "channel": CHANNEL,
                "game": str(game_id),
            },
        )


def _wakeups() -> Wakeups:
    found: Wakeups = current_app.extensions["play_wakeups"]
    return found


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    game_ids = session.info.pop(PENDING, None)
    if game_ids and has_app_context() and "play_wakeups" in current_app.extensions:
        _wakeups().publish(game_ids)


@event.listens_for(Session, "after_soft_rollback")
def _rolled_back(session: Session, previous: Any) -> None:
    session.info.pop(PENDING, None)
