"""The database schema brought up to date when the app starts, however it is started
(``scripts/serve``, ``flask run``, any WSGI server, the tests).

SQLite: pending migrations are applied under a file lock in the data folder (filelock,
which works on Windows as on Unix), so two workers starting at once do not both
migrate. PostgreSQL: the same under an advisory lock. Any other server database with
migrations pending: the app refuses to start with one line naming the command to run.

Quietly: the start logs one line (``Database brought up to date (14 migrations)``, INFO
on ``scorekeeper.schema``); alembic's lines, one or more per migration, go to
:data:`MIGRATIONS_LOG` in the data folder, never to the terminal before the address
(``flask db upgrade`` by hand still prints them: ``migrations/env.py`` configures
alembic's logging unless ``-x quiet=true``).
"""

from __future__ import annotations

import logging
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
MIGRATIONS_LOG = "migrations.log"
"""The file of the data folder that keeps alembic's lines of each upgrade made on start."""
LOG = logging.getLogger("scorekeeper.schema")


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
            _quiet_upgrade(app)


def to_apply(current: frozenset[str]) -> int:
    """How many migrations take a database at the revisions ``current`` (none: an empty
    database) to :func:`head_revisions`; raises alembic's ``CommandError`` for a
    revision this code does not know."""
    script = ScriptDirectory(str(MIGRATIONS))
    found = script.iterate_revisions(tuple(head_revisions()), tuple(current) or "base")
    return sum(1 for _ in found)


def _quiet_upgrade(app: Flask) -> None:
    """Apply the pending migrations (in an app context), alembic's lines written to
    :data:`MIGRATIONS_LOG` only, then log one line saying how many were applied."""
    with app.app_context():
        with db.engine.connect() as connection:
            count = to_apply(database_revisions(connection))
        path = Path(app.instance_path) / MIGRATIONS_LOG
        with _alembic_lines_to(path):
            upgrade(directory=str(MIGRATIONS), x_arg="quiet=true")
    plural = "" if count == 1 else "s"
    LOG.info("Database brought up to date (%d migration%s; details in %s)", count, plural, path)


@contextmanager
def _alembic_lines_to(path: Path) -> Iterator[None]:
    """While the block runs, the ``alembic`` logger's lines (INFO and up) go to ``path``
    (appended, timestamped) and no further: not to the root logger's console."""
    alembic_log = logging.getLogger("alembic")
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s [%(name)s] %(message)s"))
    kept = (alembic_log.level, alembic_log.propagate)
    alembic_log.setLevel(logging.INFO)
    alembic_log.propagate = False
    alembic_log.addHandler(handler)
    try:
        yield
    finally:
        alembic_log.removeHandler(handler)
        handler.close()
        alembic_log.setLevel(kept[0])
        alembic_log.propagate = kept[1]


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
