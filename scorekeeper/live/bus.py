"""One wake-up per process for the live streams of table games (issue 27, item 2): a move
notifies, and each server process has ONE listener that wakes the event streams it holds,
instead of every stream asking the database for its game's version a few times a second.

Glossary:
- key: a game's or a seat's name on the bus (:mod:`.keys`: ``play:12``, ``table:7``,
  ``seat:12.3``).
- held game: a game (its key) that at least one event stream of this process is serving;
  the listener's only state is which of its streams wait on which game (an
  :class:`threading.Event` each), nothing of any game, so any process still serves any
  phone and a stream woken reads its game's standing from the database.
- a move's notice (:func:`moved`): every change a stream must hear of (a saved move, a
  seat given to a bot or a new link, a scoresheet game's new version) names its game's
  key; a newer stream of a seat names the seat's key (only the seat's older stream must
  hear of it, not the table's other phones).
- bus: how a notice reaches every process's listener (:mod:`.listeners`, one of three):
  Redis pub/sub when ``REDIS_URL`` is set (the notice published once the move's
  transaction has committed); PostgreSQL's ``NOTIFY``, sent in the move's own
  transaction (delivered when it commits, dropped if it rolls back); on SQLite a shared
  check per process, nudged by the other processes of the machine (:class:`.Nudges`).

A process's own commits wake its streams through the same bus as every other process's
(on SQLite at once), and a listener that (re)connects wakes every stream it holds, so a
notice sent while it was away is not lost unread.

- sweep: beside its listener, each process runs ONE sweep every :func:`check_every`
  seconds (30) for all the streams it holds, instead of a check per stream: the
  :attr:`Wakeups.sweep` the play blueprint gives it (:func:`scorekeeper.play.tables.services.sweep`:
  one UPDATE stamps the contact of every seat a stream of the process holds, one query
  finds the held games where a stand-in bot is due, and only those catch up). A quiet
  stream itself only sends a keep-alive comment.

- closing (:func:`close_every_stream`): when the process is told to stop (``serve``'s
  gunicorn worker on SIGTERM, :mod:`scorekeeper.jobs.serving`), every stream it holds,
  and every one opened afterwards, ends at once with a ``retry:`` hint, so the phones
  reconnect to another process or the restarted server, and the process stops at once
  instead of waiting for streams that would stay open up to an hour.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask, current_app, has_app_context
from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from ..extensions import db
from .keys import game_of, seat_key
from .listeners import CHANNEL, PostgresqlListener, RedisListener, SqliteListener
from .nudges import Nudges

if TYPE_CHECKING:
    import redis

PENDING = "scorekeeper_moved"
"""The key of a session's ``info`` holding the ids of the games changed in its open
transaction, told to the streams when it commits."""
NUDGES = "wakeups"
"""The folder of the SQLite bus's sockets in the data folder (:class:`.Nudges`)."""
log = logging.getLogger(__name__)
_EVERY: weakref.WeakSet[Wakeups] = weakref.WeakSet()
"""Every :class:`Wakeups` of this process (one per app), for :func:`close_every_stream`."""

Contact = tuple[int, int, int]
"""A seat a stream holds: its digital game's id, the seat (0-based) and the stream's
number (:attr:`~scorekeeper.models.DigitalSeat.stream`: an older stream of the seat,
replaced, stamps no contact)."""
Sweep = Callable[[list[Contact], list[str], float], object]
"""The sweep: called with the contacts of the process's streams, the keys of the games
they hold and when (``time.monotonic``) the next sweep is due, in an app context (see
the module)."""


def bus_of(config: Mapping[str, object]) -> str:
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
        self._redis: redis.Redis | None = None
        self.nudges = Nudges(Path(app.instance_path) / NUDGES)
        self.closing = False
        """True once :meth:`close` was called: every stream ends at its next wake."""
        _EVERY.add(self)

    def close(self) -> None:
        """The process is stopping: set :attr:`closing` and wake every stream, which
        ends (a stream opened afterwards ends at once)."""
        with self._lock:
            self.closing = True
            events = [woken for held in self._held.values() for woken in held]
        for woken in events:
            woken.set()

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
                target = self._new_listener().run
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

    def _new_listener(self) -> RedisListener | PostgresqlListener | SqliteListener:
        if self.bus == "redis":
            return RedisListener(self.app, self)
        if self.bus == "postgresql":
            return PostgresqlListener(self.app, self)
        return SqliteListener(self.app, self, self.nudges)

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
        then, so the streams woken together may share one read (:mod:`.play.tables.events`).
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

    def _client(self) -> redis.Redis:
        import redis

        if self._redis is None:
            timeout = float(self.app.config.get("REDIS_TIMEOUT_SECONDS", 5))
            self._redis = redis.Redis.from_url(
                self.app.config["REDIS_URL"], socket_timeout=timeout, socket_connect_timeout=timeout
            )
        return self._redis

    def still_held(self) -> list[str] | None:
        """The keys of the games held now; None when none is (and the listener, which
        asked, is then forgotten: the next :meth:`hold` starts another)."""
        with self._lock:
            if not self._held:
                self._listener = None
                return None
            return list(self._held)


def close_every_stream() -> int:
    """End every event stream of this process, now and from now on (every app's
    :meth:`Wakeups.close`), when it is told to stop; the number of :class:`Wakeups`
    closed."""
    every = list(_EVERY)
    for wakeups in every:
        wakeups.close()
    return len(every)


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
def _rolled_back(session: Session, previous: object) -> None:
    session.info.pop(PENDING, None)


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
