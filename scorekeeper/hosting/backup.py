"""Backing up and restoring the SQLite database (``scorekeeper backup FILE``,
``scorekeeper restore FILE``).

Both go through SQLite's online backup API (:meth:`sqlite3.Connection.backup`): it copies
a consistent snapshot page by page while the app keeps serving (a plain copy of a
database in WAL mode may miss what is still in its ``-wal`` file). A PostgreSQL
database is backed up with its own tools (``pg_dump``; see docs/hosting.md, "Backups").

Restoring checks the file before anything is replaced (:mod:`.restorable`: sound, at a
revision this code knows, exactly the app's schema at that revision) and refuses while a
server uses the data folder (:mod:`.inuse`). An older backup is migrated as a copy beside
the database, and used only when that migration and the check at the newest revision
pass. Then the current database is kept aside, beside it, under a timestamped name, and
the file copied into the live database through the backup API (its write-ahead log
with it): each refusal leaves the database as it was.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path

from flask import Flask
from sqlalchemy.engine import make_url

from .inuse import FolderInUse, unused
from .restorable import Unrestorable, check_schema, migrate_copy, revision_of
from .schema import head_revisions

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


def restore(app: Flask, source: Path, now: datetime | None = None) -> Path:
    """Replace ``app``'s SQLite database by the backup ``source`` (at this code's schema,
    or older and then migrated first); returns where the previous database was kept.
    :class:`BackupError`, with nothing changed, when a server uses the data folder or
    ``source`` is not a sound scorekeeper database with exactly the app's schema at a
    revision this code knows, or when an older one's migration fails."""
    current = database_file(app)
    folder = Path(app.instance_path)
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    try:
        with unused(folder):
            revision = revision_of(source)
            check_schema(source, revision)
            with _staged(app, source, revision, current, stamp) as ready:
                aside = current.with_name(f"{current.stem}-before-restore-{stamp}{current.suffix}")
                _copy(current, aside)
                _copy(ready, current)  # into the live file, through SQLite: its WAL too
    except FolderInUse:
        raise BackupError(
            f"a server is using {folder}: stop it first (docker compose stop app), then restore"
        ) from None
    except Unrestorable as error:
        raise BackupError(str(error)) from None
    return aside


@contextmanager
def _staged(app: Flask, source: Path, revision: str, current: Path, stamp: str) -> Iterator[Path]:
    """The file to put in place: ``source`` itself at this code's schema; else a copy of
    it beside ``current``, migrated and checked again at the newest revision (removed
    at the end, whatever happens)."""
    if revision in head_revisions():
        yield source
        return
    copy = current.with_name(f"{current.stem}-restoring-{stamp}{current.suffix}")
    try:
        _copy(source, copy)
        try:
            migrate_copy(app, copy)
        except Exception as error:  # noqa: BLE001 - any failure of an old file's migration
            said = (str(error).splitlines() or [""])[0]
            raise Unrestorable(
                f"{source} is at an older revision ({revision}) whose migration to this "
                f"version failed ({type(error).__name__}: {said}): "
                "restore a newer backup, or report it"
            ) from None
        check_schema(copy, revision_of(copy))
        yield copy
    finally:
        for leftover in (copy, *(copy.with_name(copy.name + end) for end in ("-wal", "-shm"))):
            leftover.unlink(missing_ok=True)
