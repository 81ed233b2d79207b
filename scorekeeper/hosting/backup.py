"""Backing up and restoring the SQLite database (``scorekeeper backup FILE``,
``scorekeeper restore FILE``).

Both go through SQLite's online backup API (:meth:`sqlite3.Connection.backup`): it copies
a consistent snapshot page by page while the app keeps serving (a plain copy of a
database in WAL mode may miss what is still in its ``-wal`` file). A PostgreSQL
database is backed up with its own tools (``pg_dump``; see docs/hosting.md, "Backups").

Restoring refuses a file that is not a scorekeeper database or whose schema is newer
than this code's migrations; otherwise the current database is first kept aside, beside
it, under a timestamped name, then replaced, then brought up to date (an older backup is
migrated as the app would at start).
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from alembic.script import ScriptDirectory
from flask import Flask
from sqlalchemy.engine import make_url

from .schema import MIGRATIONS, bring_up_to_date

PG_DUMP = 'pg_dump --format=custom --file=FILE "$DATABASE_URL"'
"""What to run for a PostgreSQL database (``pg_restore --clean`` to restore)."""


class BackupError(ValueError):
    """A backup or restore refused, with the reason in words; nothing was changed."""


def database_file(app: Flask) -> Path:
    """The SQLite file of ``app``'s database; :class:`BackupError` for another database."""
    url = make_url(str(app.config["SQLALCHEMY_DATABASE_URI"]))
    if url.get_backend_name() != "sqlite" or not url.database:
        raise BackupError(
            f"the database is {url.get_backend_name()}, not a SQLite file: back it up with "
            f"its own tools (PostgreSQL: {PG_DUMP})"
        )
    return Path(url.database)


def _copy(source: Path, target: Path) -> None:
    """Copy the database ``source`` into ``target`` with the online backup API."""
    with closing(sqlite3.connect(source)) as origin, closing(sqlite3.connect(target)) as copy:
        origin.backup(copy)


def backup(app: Flask, target: Path) -> None:
    """Write a consistent copy of ``app``'s SQLite database to ``target`` (a new file),
    safe while the app runs. :class:`BackupError` when ``target`` exists."""
    source = database_file(app)
    if target.exists():
        raise BackupError(f"{target} already exists: choose a new file name")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    _copy(source, partial)
    partial.replace(target)


def revisions_of(path: Path) -> set[str]:
    """The migration revisions a backup file is at; :class:`BackupError` when it is not
    a sound scorekeeper database."""
    if not path.is_file():
        raise BackupError(f"{path}: no such file")
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
            (check,) = connection.execute("PRAGMA quick_check").fetchone()
            rows = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    except sqlite3.DatabaseError:
        raise BackupError(f"{path} is not a scorekeeper database (SQLite)") from None
    if check != "ok" or not rows:
        raise BackupError(f"{path} is not a sound scorekeeper database")
    return {str(row[0]) for row in rows}


def restore(app: Flask, source: Path, now: datetime | None = None) -> Path:
    """Replace ``app``'s SQLite database by the backup ``source`` and bring its schema up
    to date; returns where the previous database was kept. :class:`BackupError` (and
    nothing changed) for a file that is not a scorekeeper database or whose schema is
    newer than this code's."""
    current = database_file(app)
    known = {script.revision for script in ScriptDirectory(str(MIGRATIONS)).walk_revisions()}
    unknown = revisions_of(source) - known
    if unknown:
        raise BackupError(
            f"{source} has a newer schema (revision {', '.join(sorted(unknown))}) than this "
            "version of scorekeeper knows: upgrade scorekeeper, then restore"
        )
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    aside = current.with_name(f"{current.stem}-before-restore-{stamp}{current.suffix}")
    _copy(current, aside)
    _copy(source, current)
    bring_up_to_date(app)
    return aside
