"""Restores you can trust (issue "Operate it for real"): ``scorekeeper restore`` checks the
file before anything is replaced (sound, a known revision, exactly the app's schema at
it), migrates an older file as a copy and swaps it in only when that worked, and refuses
while a server uses the data folder. Every refusal leaves the database as it was (the same
rows, the same schema) and the app still starting."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.__main__ import main
from scorekeeper.hosting.schema import MIGRATIONS, head_revisions
from tests.conftest import make_app
from tests.hosting.servers import one_web_worker
from tests.table.test_pages import GameActions

OLDER = "f3a6c8e1d205"
"""A revision before the game facts (b27e4f1a9c01), whose backfill then runs on restore."""


@pytest.fixture
def served(tmp_path, monkeypatch):
    """The app on a SQLite file in its data folder, which the command line finds too; a
    game with one round saved through its forms."""
    data = tmp_path / "data"
    data.mkdir()
    database = data / "scorekeeper.sqlite3"
    monkeypatch.setenv("SCOREKEEPER_DATA", str(data))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = make_app(str(database))
    games = GameActions(app.test_client(), app)
    games.start(("Ann", "Bob"))
    assert games.totals(0, [10, 5], [0, 0]).status_code == 303
    return database, games


def _backup(tmp_path: Path, name: str = "good.sqlite3") -> Path:
    target = tmp_path / name
    assert main(["backup", str(target)]) == 0
    return target


def _dump(database: Path) -> list[str]:
    """Every row and schema statement of ``database`` (as SQLite dumps it)."""
    with closing(sqlite3.connect(database)) as connection:
        return list(connection.iterdump())


def _export(games: GameActions) -> dict:
    return json.loads(games.client.get(f"/games/{games.slug}/export.json").data)


def _tampered(source: Path, target: Path, *statements: str) -> Path:
    target.write_bytes(source.read_bytes())
    with closing(sqlite3.connect(target)) as connection, connection:
        for statement in statements:
            connection.execute(statement)
    return target


def _assert_refused(database: Path, file: Path, capsys, words: str) -> None:
    """``restore file`` refused with ``words`` in its one line, the database untouched,
    nothing left beside it, and the app still starting on it."""
    before = _dump(database)
    assert main(["restore", str(file)]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert err.splitlines()[-1].startswith("restore: ") and words in err.splitlines()[-1]
    assert _dump(database) == before
    assert not [p.name for p in database.parent.iterdir() if "restor" in p.name]
    assert make_app(str(database)).test_client().get("/healthz").status_code == 200


HEAD = sorted(head_revisions())[0]
TAMPERED = {
    "only alembic_version": ("missing table", "{drop every table but alembic_version}"),
    "a trigger": (
        "extra trigger wipe",
        "CREATE TRIGGER wipe AFTER INSERT ON rounds BEGIN DELETE FROM rounds; END",
    ),
    "a view": ("extra view everything", "CREATE VIEW everything AS SELECT * FROM games"),
    "an extra table": ("extra table notes", "CREATE TABLE notes (id INTEGER PRIMARY KEY)"),
    "an extra column": ("different table games", "ALTER TABLE games ADD COLUMN note TEXT"),
    "an index dropped": ("missing index", "DROP INDEX {index}"),
    "a row pointing nowhere": (
        "foreign key check",
        "INSERT INTO players (game_id, seat, name) VALUES (4242, 0, 'Nobody')",
    ),
    "a revision unknown": ("newer schema", "UPDATE alembic_version SET version_num = 'f00d'"),
}


def _expanded(file: Path, statements: list[str]) -> list[str]:
    """``statements`` with ``{index}`` an index the migrations made, and the drop of every
    table but alembic_version spelled out."""
    with closing(sqlite3.connect(file)) as connection:
        (index,) = connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL LIMIT 1"
        ).fetchone()
        tables = connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'alembic_version'"
            " AND name NOT LIKE 'sqlite%'"
        ).fetchall()
    if statements == ["{drop every table but alembic_version}"]:
        return [f'DROP TABLE "{name}"' for (name,) in tables]
    return [statement.format(index=index) for statement in statements]


@pytest.mark.parametrize("case", TAMPERED)
def test_restore_refuses_a_file_unlike_the_apps_schema_and_changes_nothing(
    served, tmp_path, capsys, case
):
    database, games = served
    good = _backup(tmp_path)
    words, *statements = TAMPERED[case]
    bad = _tampered(good, tmp_path / "bad.sqlite3", *_expanded(good, statements))
    assert games.totals(0, [20, 5], [0, 0]).status_code == 303  # the database moved on
    _assert_refused(database, bad, capsys, words)


def test_a_sound_backup_is_restored_and_rounds_are_saved_after(served, tmp_path, capsys):
    database, games = served
    good = _backup(tmp_path)
    saved = _export(games)
    assert games.totals(0, [20, 5], [0, 0]).status_code == 303
    assert main(["restore", str(good)]) == 0
    assert "the previous database is kept as" in capsys.readouterr().out
    assert _export(games) == saved
    assert games.totals(0, [30, 5], [0, 0]).status_code == 303
    assert len(_export(games)["rounds"]) == 2
    assert len(list(database.parent.glob("scorekeeper-before-restore-*.sqlite3"))) == 1
    assert not list(database.parent.glob("*restoring*"))


def _older_copy(database: Path, target: Path, figures: str | None = None) -> Path:
    """A file at :data:`OLDER` (a fresh database migrated only that far, by Flask-Migrate),
    holding the game of ``database`` in a group (its rows copied column by column; the
    rounds' ``figures`` replaced by ``figures`` when given)."""
    old = create_app(
        {"TESTING": True, "SECRET_KEY": "x", "MIGRATE_ON_START": False}
        | {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{target}"}
    )
    with old.app_context():
        upgrade(directory=str(MIGRATIONS), revision=OLDER)
        from scorekeeper.extensions import db

        db.engine.dispose()
    with closing(sqlite3.connect(target)) as connection, connection:
        connection.execute(f"ATTACH DATABASE '{database}' AS live")
        connection.execute(
            "INSERT INTO groups (id, name, preset, options, view_token, edit_token, created_at)"
            " VALUES (1, 'Fridays', 'standard', '{}', 'v' , 'e', '2026-11-01 20:00:00')"
        )
        for table in ("games", "players", "rounds"):
            names = [row[1] for row in connection.execute(f"PRAGMA main.table_info({table})")]
            columns = ", ".join(f'"{name}"' for name in names)
            connection.execute(
                f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM live.{table}"
            )
        connection.execute("UPDATE main.games SET group_id = 1")
        if figures is not None:
            connection.execute("UPDATE main.rounds SET figures = ?", (figures,))
    return target


def test_an_older_backup_is_migrated_with_its_backfill(served, tmp_path, capsys):
    database, games = served
    saved = _export(games)
    older = _older_copy(database, tmp_path / "older.sqlite3")
    assert games.totals(0, [20, 5], [0, 0]).status_code == 303
    assert main(["restore", str(older)]) == 0
    assert _export(games)["rounds"] == saved["rounds"]
    with closing(sqlite3.connect(database)) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD,)]
        assert connection.execute("SELECT count(*) FROM game_facts").fetchone() == (1,)
    assert not list(database.parent.glob("*restoring*"))


def test_an_older_backup_whose_migration_fails_changes_nothing(served, tmp_path, capsys):
    database, games = served
    older = _older_copy(database, tmp_path / "older.sqlite3", figures="not JSON")
    _assert_refused(database, older, capsys, f"older revision ({OLDER}) whose migration")


def _command(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m scorekeeper ARGS`` on the data folder ``data`` (this checkout's package)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env.pop("DATABASE_URL", None)
    env["SCOREKEEPER_DATA"] = str(data)
    command = [sys.executable, "-m", "scorekeeper", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)


def test_restore_is_refused_while_a_server_uses_the_data_folder(tmp_path):
    data = tmp_path / "data"
    with one_web_worker(tmp_path):
        database = data / "scorekeeper.sqlite3"
        backup = tmp_path / "served.sqlite3"
        assert _command(data, "backup", str(backup)).returncode == 0
        before = _dump(database)
        refused = _command(data, "restore", str(backup))
        assert refused.returncode == 2
        assert f"a server is using {data}: stop it first" in refused.stderr
        assert _dump(database) == before
    accepted = _command(data, "restore", str(backup))
    assert accepted.returncode == 0, accepted.stderr


def _locked(lock: Path) -> bool:
    """Whether another process holds ``lock`` (an exclusive try, let go at once)."""
    import fcntl

    with open(lock, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        return False


@pytest.mark.skipif(sys.platform == "win32", reason="no flock on Windows: not guarded")
def test_restore_is_refused_while_a_queue_worker_runs_on_the_data_folder(served, tmp_path):
    database, _games = served
    data = database.parent
    backup = _backup(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "SCOREKEEPER_JOBS"}
    worker = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "worker", "--processes", "1"],
        env=env | {"SCOREKEEPER_DATA": str(data)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):  # a bound against a hang, never a measure
            if _locked(data / "serving.lock") or worker.poll() is not None:
                break
            time.sleep(0.2)
        assert worker.poll() is None, "the worker stopped"
        before = _dump(database)
        refused = _command(data, "restore", str(backup))
        assert refused.returncode == 2 and "a server is using" in refused.stderr
        assert _dump(database) == before
    finally:
        worker.send_signal(signal.SIGINT)
        worker.wait(timeout=120)
    assert _command(data, "restore", str(backup)).returncode == 0
