"""Backups (issue 25, item 5): ``scorekeeper backup`` copies the SQLite database while
rounds are being saved; ``scorekeeper restore`` brings it back with every figure, keeps
the previous database aside, and refuses a file of a newer schema or no database."""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import closing

import pytest

from scorekeeper.__main__ import main
from tests.conftest import make_app
from tests.table.test_pages import GameActions

ROUNDS = 12


@pytest.fixture
def served(tmp_path, monkeypatch):
    """The app on a SQLite file that the command line finds too (DATABASE_URL)."""
    database = tmp_path / "data" / "scorekeeper.sqlite3"
    database.parent.mkdir()
    monkeypatch.setenv("SCOREKEEPER_DATA", str(database.parent))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    app = make_app(str(database))
    return app, GameActions(app.test_client(), app)


def _save_rounds(games: GameActions, first_saved: threading.Event, answers: list[int]) -> None:
    """Save :data:`ROUNDS` rounds through the game's forms (this phone's client, which
    the test leaves alone meanwhile), telling when the first is saved."""
    for _ in range(ROUNDS):
        answers.append(games.totals(0, [10, 5], [0, 0]).status_code)
        first_saved.set()


def _export(games: GameActions) -> dict:
    return json.loads(games.client.get(f"/games/{games.slug}/export.json").data)


def test_a_backup_taken_while_rounds_are_saved_restores_every_figure(served, tmp_path, capsys):
    app, games = served
    games.start(("Ann", "Bob"))
    first_saved, answers = threading.Event(), []
    saver = threading.Thread(target=_save_rounds, args=(games, first_saved, answers))
    saver.start()
    assert first_saved.wait(timeout=120)
    assert main(["backup", str(tmp_path / "during.sqlite3")]) == 0
    saver.join()
    assert answers == [303] * ROUNDS
    assert main(["backup", str(tmp_path / "after.sqlite3")]) == 0
    final = _export(games)
    assert len(final["rounds"]) == ROUNDS

    assert main(["restore", str(tmp_path / "during.sqlite3")]) == 0
    during = _export(games)
    assert 1 <= len(during["rounds"]) <= ROUNDS
    assert during["rounds"] == final["rounds"][: len(during["rounds"])]  # a consistent prefix

    assert main(["restore", str(tmp_path / "after.sqlite3")]) == 0
    assert _export(games) == final
    assert games.totals_now() == {"Ann": 10 * ROUNDS, "Bob": 5 * ROUNDS}
    kept = sorted((tmp_path / "data").glob("scorekeeper-before-restore-*.sqlite3"))
    assert kept, "the previous database is kept aside"
    assert "the previous database is kept as" in capsys.readouterr().out


def test_backup_refuses_to_overwrite_a_file(served, tmp_path, capsys):
    target = tmp_path / "taken.sqlite3"
    target.write_text("mine")
    assert main(["backup", str(target)]) == 2
    assert target.read_text() == "mine"
    assert "already exists" in capsys.readouterr().err


def test_restore_refuses_a_newer_schema_and_changes_nothing(served, tmp_path, capsys):
    app, games = served
    games.start(("Ann", "Bob"))
    games.totals(0, [10, 5], [0, 0])
    backup = tmp_path / "newer.sqlite3"
    assert main(["backup", str(backup)]) == 0
    with closing(sqlite3.connect(backup)) as connection, connection:
        connection.execute("UPDATE alembic_version SET version_num = 'f00dfacef00d'")
    games.totals(0, [10, 5], [0, 0])
    before = _export(games)
    assert main(["restore", str(backup)]) == 2
    assert "newer schema" in capsys.readouterr().err
    assert _export(games) == before
    assert not list((tmp_path / "data").glob("*before-restore*"))


@pytest.mark.parametrize("content", [b"not a database at all", b""])
def test_restore_refuses_a_file_that_is_not_a_backup(served, tmp_path, capsys, content):
    app, games = served
    games.start(("Ann", "Bob"))
    before = _export(games)
    bogus = tmp_path / "bogus.sqlite3"
    bogus.write_bytes(content)
    assert main(["restore", str(bogus)]) == 2
    assert "not a" in capsys.readouterr().err
    assert _export(games) == before


def test_backup_of_a_server_database_names_pg_dump(tmp_path, monkeypatch):
    from scorekeeper.hosting.backup import BackupError, database_file

    app = make_app(str(tmp_path / "x.db"))
    app.config["SQLALCHEMY_DATABASE_URI"] = "postgresql+psycopg://u@localhost/rum"
    with pytest.raises(BackupError, match="pg_dump"):
        database_file(app)
