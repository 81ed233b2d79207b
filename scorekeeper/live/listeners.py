"""The three listeners of the bus (:mod:`.bus`), one per process, each hearing the notices
of moves in its own way and waking the streams the process holds:

- :class:`RedisListener`: Redis pub/sub on :data:`CHANNEL` (``REDIS_URL`` set);
- :class:`PostgresqlListener`: PostgreSQL's ``LISTEN`` on :data:`CHANNEL` (psycopg 3, one
  connection per process);
- :class:`SqliteListener`: no server to tell, so one shared check: SQLite's ``PRAGMA
  data_version`` says whether anything was committed since the last check; only then ONE
  query reads the standing (version, seats' stream numbers) of every held game, and the
  streams of the games that changed are woken. It checks at once when another process of
  the machine nudges it (:class:`.Nudges`) and every ``PLAY_POLL_SECONDS`` (0.2 s)
  without one.

A listener runs on a thread of its own (a greenlet under gevent) while the process holds
a game (:meth:`Streams.still_held` None: it stops); a Redis or PostgreSQL listener whose
connection fails connects again after :data:`RECONNECT_SECONDS`, and one that
(re)connects wakes every stream, so a notice sent while it was away is not lost unread.
"""

from __future__ import annotations

import logging
import select
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, Protocol

from flask import Flask
from sqlalchemy import func
from sqlalchemy.engine import make_url
from sqlalchemy.pool import PoolProxiedConnection

from ..extensions import db
from ..models import DigitalGame, DigitalSeat, Game
from .keys import KINDS, keys_in, play_key, table_key
from .nudges import Nudges

CHANNEL = "scorekeeper_games"
"""The PostgreSQL channel and the Redis channel the notices go on; a notice's payload is
a game's key (:mod:`.keys`)."""
LISTEN_SECONDS = 10.0
"""Seconds a PostgreSQL or Redis listener waits for a notice before it waits again."""
RECONNECT_SECONDS = 1.0
"""Seconds a listener whose connection failed waits before it connects again."""

log = logging.getLogger(__name__)

Standing = tuple[int, int, int]
"""A held game's standing: its version, the sum of its seats' stream numbers, its person
seats (``(version, 0, 0)`` for a scoresheet game)."""


class Streams(Protocol):
    """What a listener wakes: the streams of one process (:class:`.bus.Wakeups`)."""

    def wake(self, keys: Iterable[str]) -> None:
        """Wake the streams of the games or seats of ``keys``."""

    def wake_all(self) -> None:
        """Wake every stream (a notice may have been missed)."""

    def still_held(self) -> list[str] | None:
        """The keys of the games held now, or None when none is (the listener stops)."""


class ServerListener(ABC):
    """A listener of a server's notices (:class:`RedisListener`,
    :class:`PostgresqlListener`): :meth:`once` (each bus its own) listens on one
    connection until no game is held; :meth:`run` connects again each time it fails."""

    bus = ""
    """The bus's name, for the log."""

    def __init__(self, app: Flask, streams: Streams) -> None:
        self.app, self.streams = app, streams

    def run(self) -> None:
        """Listen while a game is held: :meth:`once` again each time its connection fails
        (the server restarted or is unreachable), every stream woken meanwhile (a notice
        may have been missed), after :data:`RECONNECT_SECONDS`; it stops, and the bus
        starts another, when no game is held."""
        while True:
            try:
                self.once()
                return
            except Exception:  # the server restarted or is unreachable: connect again
                log.warning("the %s listener lost its connection", self.bus, exc_info=True)
            self.streams.wake_all()
            time.sleep(RECONNECT_SECONDS)
            if self.streams.still_held() is None:
                return

    @abstractmethod
    def once(self) -> None:
        """One connection's listening, until no game is held (each bus its own)."""


class RedisListener(ServerListener):
    """Hears the notices published on Redis (``REDIS_URL``)."""

    bus = "redis"

    def once(self) -> None:
        """One connection's listening: subscribe, wake every stream, then wake the
        streams of each notice until no game is held."""
        import redis

        timeout = float(self.app.config.get("REDIS_TIMEOUT_SECONDS", 5))
        client: Any = redis.Redis.from_url(  # redis-py's pub/sub is untyped
            self.app.config["REDIS_URL"],
            socket_connect_timeout=timeout,
            socket_timeout=LISTEN_SECONDS + timeout,  # beyond the listener's own wait
        )
        with client.pubsub(ignore_subscribe_messages=True) as bus:
            bus.subscribe(CHANNEL)
            self.streams.wake_all()
            while self.streams.still_held() is not None:
                message = bus.get_message(timeout=LISTEN_SECONDS)
                if message is not None:
                    self.streams.wake(keys_in(message["data"]))


class PostgresqlListener(ServerListener):
    """Hears PostgreSQL's notices (``NOTIFY`` sent in each move's transaction)."""

    bus = "postgresql"

    def once(self) -> None:
        """One connection's listening: ``LISTEN``, wake every stream, then wake the
        streams of each notice until no game is held."""
        import psycopg

        url = make_url(str(self.app.config["SQLALCHEMY_DATABASE_URI"]))
        dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        seconds = max(1, int(float(self.app.config.get("DATABASE_CONNECT_SECONDS", 3))))
        with psycopg.connect(dsn, autocommit=True, connect_timeout=seconds) as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            self.streams.wake_all()
            while self.streams.still_held() is not None:
                # psycopg's own wait wakes ten times a second: wait on the socket instead
                ready, _, _ = select.select([connection.fileno()], [], [], LISTEN_SECONDS)
                if ready:
                    for notice in connection.notifies(timeout=RECONNECT_SECONDS, stop_after=1):
                        self.streams.wake(keys_in(notice.payload))


class SqliteListener:
    """The shared check of a SQLite database: at each nudge (:class:`.Nudges`) or
    ``PLAY_POLL_SECONDS`` without one, ``PRAGMA data_version`` on a connection of its own
    (it changes when any other connection commits), and only then, or for a game newly
    held, one query for every held game."""

    def __init__(self, app: Flask, streams: Streams, nudges: Nudges) -> None:
        self.app, self.streams, self.nudges = app, streams, nudges

    def run(self) -> None:
        """Check until no game is held."""
        every = float(self.app.config.get("PLAY_POLL_SECONDS", 0.2))
        last: dict[str, Standing] = {}
        with self.app.app_context():
            own = db.engine.raw_connection()
            self.nudges.open()
            try:
                seen = None
                while (held := self.streams.still_held()) is not None:
                    now = data_version(own)
                    if now is None or now != seen or any(k not in last for k in held):
                        seen, last = now, self.compare(held, last)
                    self.nudges.wait(every)
            finally:
                self.nudges.close()
                own.close()

    def compare(self, held: list[str], last: dict[str, Standing]) -> dict[str, Standing]:
        """Wake the streams of the held games whose standing is not ``last``'s; the
        standings now."""
        now = standings(held)
        self.streams.wake(k for k in held if k not in last or now.get(k) != last[k])
        return {k: now[k] for k in held if k in now}


def data_version(connection: PoolProxiedConnection) -> int | None:
    """SQLite's ``PRAGMA data_version`` on ``connection`` (a DB-API connection): it
    changes when another connection commits; None on another database."""
    if db.engine.dialect.name != "sqlite":
        return None
    cursor = connection.cursor()
    try:
        cursor.execute("PRAGMA data_version")
        row = cursor.fetchone()
        return None if row is None else int(row[0])
    finally:
        cursor.close()


def standings(keys: list[str]) -> dict[str, Standing]:
    """Each game's standing, by key, in one query for the digital games and one for the
    scoresheet games (:data:`Standing`); a deleted game is missing. Any move, seat given
    away or newer stream changes it. Ends the transaction."""
    ids = {kind: [int(k.split(":")[1]) for k in keys if k.startswith(kind)] for kind in KINDS}
    found: dict[str, Standing] = {}
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
