"""What a SQLite file must be for ``scorekeeper restore`` to put it in place, checked before
anything is replaced: sound (``PRAGMA integrity_check`` and ``foreign_key_check``), at one
migration revision this code knows, and with exactly the app's schema at that revision
(the tables, their columns and foreign keys, the indexes that the migrations make, and no
trigger or view of its own). The reference schema is made by running the migrations up to
that revision on an empty temporary file (alembic's command API through Flask-Migrate's
configuration), then both are read back through SQLite's pragmas and compared, so the
text of a ``CREATE`` statement (how a version of SQLAlchemy spelled it) does not matter.

An older file is migrated here as a copy (:func:`migrate_copy`), with the app's backfills,
as the app would migrate it at start.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from functools import lru_cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from flask import Flask
from flask_migrate import Migrate

from ..extensions import db
from .schema import BACKFILLS, MIGRATIONS

Schema = dict[str, object]
"""A database's schema, normalised: ``{"table games": ..., "index ix on games": ...}``."""

IGNORED = ("sqlite_sequence", "sqlite_stat")
"""SQLite's own tables, which a database may or may not have: not compared."""

MADE_BY_BACKUP = "restore a file made by `scorekeeper backup`"


class Unrestorable(ValueError):
    """A file that must not be restored, with the reason in one sentence."""


def revision_of(path: Path) -> str:
    """The one migration revision of the sound SQLite file ``path``; :class:`Unrestorable`
    when it is no SQLite file, fails an integrity or foreign key check, or has no
    single revision this code knows."""
    if not path.is_file():
        raise Unrestorable(f"{path}: no such file")
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
            checks = [row[0] for row in connection.execute("PRAGMA integrity_check")]
            broken = connection.execute("PRAGMA foreign_key_check").fetchall()
            rows = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    except sqlite3.DatabaseError:
        raise Unrestorable(f"{path} is not a scorekeeper database (SQLite)") from None
    if checks != ["ok"]:
        raise Unrestorable(f"{path} is damaged (SQLite's integrity check: {checks[0]})")
    if broken:
        raise Unrestorable(
            f"{path} has rows of {broken[0][0]} pointing at missing rows of {broken[0][2]} "
            f"(foreign key check): {MADE_BY_BACKUP}"
        )
    return _known(path, {str(row[0]) for row in rows})


def _known(path: Path, revisions: set[str]) -> str:
    if len(revisions) != 1:
        raise Unrestorable(f"{path} is not a sound scorekeeper database (no single revision)")
    (revision,) = revisions
    if revision not in {script.revision for script in _scripts().walk_revisions()}:
        raise Unrestorable(
            f"{path} has a newer schema (revision {revision}) than this version of "
            "scorekeeper knows: upgrade scorekeeper, then restore"
        )
    return revision


def _scripts() -> ScriptDirectory:
    return ScriptDirectory(str(MIGRATIONS))


def check_schema(path: Path, revision: str) -> None:
    """:class:`Unrestorable` unless ``path`` has exactly the app's schema at ``revision``
    (what is missing, extra or different named, a few at most)."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
        found = schema_of(connection)
    problems = differences(found, reference_schema(revision))
    if problems:
        shown = ", ".join(problems[:4]) + (f" and {len(problems) - 4} more" if problems[4:] else "")
        raise Unrestorable(
            f"{path} does not have scorekeeper's schema at revision {revision} ({shown}): "
            f"{MADE_BY_BACKUP}"
        )


def differences(found: Schema, expected: Schema) -> list[str]:
    """What ``found`` has unlike ``expected``: "missing ...", "extra ...", "different ..."."""
    missing = [f"missing {name}" for name in expected if name not in found]
    extra = [f"extra {name}" for name in found if name not in expected]
    changed = [name for name in expected if name in found and found[name] != expected[name]]
    return missing + extra + [f"different {name}" for name in changed]


def schema_of(connection: sqlite3.Connection) -> Schema:
    """The schema of the database at ``connection``: each table's columns (name, declared
    type, not null, default, primary key) and foreign keys, each index's table, columns,
    uniqueness and whether partial, each trigger's and view's SQL."""
    schema: Schema = {}
    objects = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")
    for kind, name, table, sql in objects.fetchall():
        if str(name).startswith(IGNORED):
            continue
        if kind == "table":
            schema[f"table {name}"] = _table(connection, name)
        elif kind == "index":
            schema.update(_index(connection, table, name))
        else:
            schema[f"{kind} {name}"] = sql
    return schema


def _table(connection: sqlite3.Connection, name: str) -> object:
    columns = connection.execute(
        'SELECT name, upper(type), "notnull", dflt_value, pk FROM pragma_table_info(?)', (name,)
    ).fetchall()
    keys = connection.execute(
        'SELECT "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?)',
        (name,),
    ).fetchall()
    return (sorted(columns), sorted(keys, key=repr))


def _index(connection: sqlite3.Connection, table: str, name: str) -> Schema:
    """The index ``name`` of ``table``: ``{key: (unique, origin, partial, columns)}``; the
    key of an index SQLite made for a UNIQUE or PRIMARY KEY constraint names its columns,
    not its number (``sqlite_autoindex_games_2``), which follows the order the constraints
    were written in, and a batch migration writes them in no fixed order."""
    shape = connection.execute(
        'SELECT "unique", origin, partial FROM pragma_index_list(?) WHERE name = ?',
        (table, name),
    ).fetchone()
    columns = [
        row[0]
        for row in connection.execute(
            "SELECT name FROM pragma_index_info(?) ORDER BY seqno", (name,)
        ).fetchall()
    ]
    if name.startswith("sqlite_autoindex_"):
        return {f"constraint on {table} ({', '.join(map(str, columns))})": shape}
    return {f"index {name} on {table}": (shape, columns)}


@lru_cache(maxsize=8)
def reference_schema(revision: str) -> Schema:
    """The app's schema at ``revision``: the migrations run up to it on an empty
    temporary file, read back by :func:`schema_of` (made once per revision and process)."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-schema-") as folder:
        path = Path(folder) / "reference.sqlite3"
        with _migrations_on(path, {}) as config:
            command.upgrade(config, revision)
        with closing(sqlite3.connect(path)) as connection:
            return schema_of(connection)


def migrate_copy(app: Flask, path: Path) -> None:
    """Bring the SQLite file ``path`` (a copy) up to this code's schema with ``app``'s
    migrations and backfills; whatever a migration raises is raised."""
    with _migrations_on(path, app.extensions.get(BACKFILLS, {})) as config:
        command.upgrade(config, "heads")


@contextmanager
def _migrations_on(path: Path, backfills: object) -> Iterator[Config]:
    """Alembic's configuration of the app's migrations on the SQLite file ``path`` (a bare
    Flask app on it with Flask-Migrate, for the migrations' environment, and
    ``backfills``), inside that app's context; its connections closed at the end (the
    write-ahead log folded in). Without alembic.ini, so alembic's progress lines do not
    join ``restore``'s one line."""
    bare = Flask("scorekeeper", instance_path=str(path.parent))
    bare.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{path}"
    db.init_app(bare)
    Migrate(bare, db, directory=str(MIGRATIONS), render_as_batch=True)
    config = Config()  # no ini file: the migrations leave the logging as it is
    config.set_main_option("script_location", str(MIGRATIONS))
    bare.extensions[BACKFILLS] = backfills
    with bare.app_context():
        try:
            yield config
        finally:
            db.engine.dispose()
