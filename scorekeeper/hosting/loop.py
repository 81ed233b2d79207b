"""The serving loop only waits: whether ``serve``'s gevent loop runs this process, and
the calls that may wait inside C code, which gevent cannot switch away from, run on
gevent's thread pool instead, the request's greenlet waiting for them while the loop
serves every other request.

Such a call is a SQLite write: it waits for the database's one write lock (up to its
busy timeout, 5 s) inside the sqlite3 module, while another process (a job's worker, the
other web worker) writes. :class:`SqliteConnection` is the DB-API connection SQLAlchemy
opens on a SQLite file (``connect_args={"factory": ...}``, sqlite3's own hook, as
SQLAlchemy's numeric dialect uses it): its statements that may wait for the lock and its
commits go :func:`off_the_loop`; a read never waits for it (write-ahead logging), and
runs in place. A process's writing transactions take turns (one at a time, in order),
so its own greenlets never fight each other for the lock from the pool's threads.
Outside gevent (the development server, the tests, the job workers) everything runs in
place, as before."""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def gevent_serving() -> bool:
    """True under ``serve``'s gevent workers (gevent has patched the standard library),
    where a waiting request can be interrupted and a blocking call taken off the loop."""
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey is not None and monkey.is_module_patched("socket"))


def off_the_loop(call: Callable[..., T], *args: object) -> T:
    """``call(*args)``: under gevent on a thread of gevent's pool (the calling greenlet
    waits for it, every other greenlet goes on), elsewhere in place. Its result, or its
    exception raised here."""
    if not gevent_serving():
        return call(*args)
    import gevent

    result: T = gevent.get_hub().threadpool.apply(call, args)
    return result


def _may_wait(sql: str) -> bool:
    """Whether the statement may wait for SQLite's write lock: anything but a read."""
    head = sql.lstrip()[:6].upper()
    return head not in ("SELECT", "PRAGMA")


TURN_SECONDS = 5.0
"""Seconds a write waits for its process's turn (:class:`SqliteConnection`), as long as
SQLite's own busy timeout; past it the write fails as SQLite's would ("database is
locked"), answered 503."""

_turns: dict[int, Any] = {}


def _turn() -> Any:
    """This process's one write turn: a semaphore of gevent's, made in the process (a
    forked worker makes its own)."""
    turn = _turns.get(os.getpid())
    if turn is None:
        from gevent.lock import Semaphore

        turn = _turns[os.getpid()] = Semaphore(1)
    return turn


class SqliteCursor(sqlite3.Cursor):
    """A cursor whose writes wait for their connection's turn, then run
    :func:`off_the_loop` (see :class:`SqliteConnection`)."""

    def execute(self, sql: str, parameters: Any = (), /) -> SqliteCursor:
        if _may_wait(sql):
            self._take_turn()
            return off_the_loop(super().execute, sql, parameters)
        return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> SqliteCursor:
        self._take_turn()
        return off_the_loop(super().executemany, sql, parameters)

    def _take_turn(self) -> None:
        if isinstance(self.connection, SqliteConnection):
            self.connection.take_turn()


class SqliteConnection(sqlite3.Connection):
    """A SQLite connection whose writes and commits wait off the serving loop. Under
    gevent, a transaction's first write also waits for its process's turn (one writing
    transaction of the process at a time, greenlets served in order, each waiting
    without holding the loop), released when it commits or rolls back: the process's
    requests then never fight each other for SQLite's lock (whose busy handler retries
    in no order, so among many writers one could wait past its timeout), only the other
    processes' writers. Its cursors are :class:`SqliteCursor`; a commit may checkpoint
    the write-ahead log (disk work), so it runs :func:`off_the_loop` too."""

    _turn_held = False

    def cursor(self, factory: Any = None) -> Any:
        return super().cursor(factory or SqliteCursor)

    def take_turn(self) -> None:
        """Wait for this process's write turn (under gevent; at most
        :data:`TURN_SECONDS`), unless this connection's transaction holds it already.
        Raises :class:`sqlite3.OperationalError` ("database is locked") past it."""
        if self._turn_held or not gevent_serving():
            return
        if not _turn().acquire(timeout=TURN_SECONDS):
            raise sqlite3.OperationalError("database is locked")
        self._turn_held = True

    def _give_turn(self) -> None:
        if self._turn_held:
            self._turn_held = False
            _turn().release()

    def commit(self) -> None:
        try:
            off_the_loop(super().commit)
        finally:
            self._give_turn()

    def rollback(self) -> None:
        try:
            super().rollback()
        finally:
            self._give_turn()

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._give_turn()
