"""The first start's terminal (issue 37, item 7): ``scorekeeper serve`` on a fresh data
folder says in ONE line that the database was brought up to date (how many migrations),
then the address; alembic's lines (one or more per migration, some over several lines)
are kept in the data folder's migrations.log, not printed."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.hosting.schema import MIGRATIONS_LOG, to_apply
from tests.hosting.servers import one_web_worker

ADDRESS = "500 Rum is running. On every phone at the table, open:"


def test_the_first_start_says_one_line_before_the_address(tmp_path: Path) -> None:
    every = to_apply(frozenset())
    assert every >= 12
    with one_web_worker(tmp_path):
        said = (tmp_path / "serve.log").read_text(encoding="utf-8", errors="replace")
    assert ADDRESS in said, said[:2000]
    before = [line for line in said.split(ADDRESS, 1)[0].splitlines() if line.strip()]
    assert before == [
        f"Database brought up to date ({every} migrations; details in "
        f"{tmp_path / 'data' / MIGRATIONS_LOG})"
    ], before
    assert "[alembic" not in said and "Running upgrade" not in said
    details = (tmp_path / "data" / MIGRATIONS_LOG).read_text(encoding="utf-8")
    assert details.count("Running upgrade") == every


def test_a_start_with_the_database_up_to_date_says_nothing_of_it(tmp_path: Path) -> None:
    with one_web_worker(tmp_path):
        pass
    with one_web_worker(tmp_path):
        said = (tmp_path / "serve.log").read_text(encoding="utf-8", errors="replace")
    assert [line for line in said.split(ADDRESS, 1)[0].splitlines() if line.strip()] == []
