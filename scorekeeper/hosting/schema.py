"""The database schema brought up to date when the app starts, however it is started
(``scripts/serve``, ``flask run``, any WSGI server, the tests).

SQLite: pending migrations are applied under a file lock in the data folder (filelock,
which works on Windows as on Unix), so two workers starting at once do not both
migrate. PostgreSQL: the same under an advisory lock. Any other server database with
migrations pending: the app refuses to start with one line naming the command to run.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import lru_cache
from pathlib import Path

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from filelock import FileLock
from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import Connection, text

from ..extensions import db

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
ADVISORY_LOCK = 5_000_500
"""The PostgreSQL advisory lock key held while migrating."""
UPGRADE_COMMAND = "flask --app scorekeeper db upgrade"


class SchemaOutOfDate(SystemExit):
    """The database needs migrations the app will not apply by itself."""


@lru_cache(maxsize=1)
def head_revisions() -> frozenset[str]:
    """The newest revision(s) of ``scorekeeper/migrations``: the schema this code needs."""
    return frozenset(ScriptDirectory(str(MIGRATIONS)).get_heads())


def database_revisions(connection: Connection) -> frozenset[str]:
    """The revision(s) the database at ``connection`` is at (none for an empty one)."""
    return frozenset(MigrationContext.configure(connection).get_current_heads())


def pending(app: Flask) -> bool:
    """True when the database lacks a migration of ``scorekeeper/migrations``."""
    with app.app_context(), db.engine.connect() as connection:
        return database_revisions(connection) != head_revisions()


def bring_up_to_date(app: Flask) -> None:
    """Apply pending migrations under a lock (SQLite, PostgreSQL), or raise
    :class:`SchemaOutOfDate` with the command to run (other databases)."""
    if not pending(app):
        return
    dialect = _dialect(app)
    if dialect == "sqlite":
        lock: AbstractContextManager[object] = FileLock(Path(app.instance_path) / "migrate.lock")
    elif dialect == "postgresql":
        lock = _advisory_lock(app)
    else:
        raise SchemaOutOfDate(
            f"The database schema is out of date: run `{UPGRADE_COMMAND}`, then start again."
        )
    with lock:
        if pending(app):
            with app.app_context():
                upgrade(directory=str(MIGRATIONS))


BACKFILLS = "backfills"
"""The key of ``app.extensions`` holding the app's backfills: ``{revision: fill}``, each
``fill(connection)`` writing, with today's code, the data derived from what the
migration ``revision`` added (a migration carries only its SQL: it imports nothing of
the app, so an old migration never changes meaning). The migrations' environment
(``migrations/env.py``) runs each right after an upgrade applies its revision."""


def _dialect(app: Flask) -> str:
    with app.app_context():
        return db.engine.dialect.name


@contextmanager
def _advisory_lock(app: Flask) -> Iterator[None]:
    with app.app_context(), db.engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": ADVISORY_LOCK})
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_LOCK})
