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
runs in place. Outside gevent (the development server, the tests, the job workers)
everything runs in place."""

from __future__ import annotations

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


def off_the_loop(call: Callable[..., T], *args: Any) -> T:
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


class SqliteCursor(sqlite3.Cursor):
    """A cursor whose writes run :func:`off_the_loop` (see the module)."""

    def execute(self, sql: str, parameters: Any = (), /) -> SqliteCursor:
        if _may_wait(sql):
            return off_the_loop(super().execute, sql, parameters)
        return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> SqliteCursor:
        return off_the_loop(super().executemany, sql, parameters)


class SqliteConnection(sqlite3.Connection):
    """A SQLite connection whose cursors are :class:`SqliteCursor` and whose commits
    run :func:`off_the_loop` (a commit may checkpoint the write-ahead log: disk work)."""

    def cursor(self, factory: Any = None) -> Any:
        return super().cursor(factory or SqliteCursor)

    def commit(self) -> None:
        off_the_loop(super().commit)
