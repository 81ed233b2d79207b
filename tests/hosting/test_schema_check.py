"""Issue 36, "Operate it for real": the models and the migrations agree. After ``flask db
upgrade`` (every migration, from nothing), ``flask db check`` (alembic's autogenerate
compare of the database with the models) finds nothing to change, on SQLite and on
PostgreSQL. Both run as an operator runs them: the CLI in a child process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _flask(tmp_path: Path, database: str, *command: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env.pop("DATABASE_URL", None)
    env |= {"SCOREKEEPER_DATA": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}
    env |= {"DATABASE_URL": database} if database else {}
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "db", *command],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,  # a bound against a hang
    )


@pytest.mark.parametrize("server", ["sqlite", "postgresql"])
def test_db_check_finds_no_drift_after_every_migration(
    tmp_path: Path, server: str, request: pytest.FixtureRequest
) -> None:
    database = request.getfixturevalue("postgres_url") if server == "postgresql" else ""
    upgraded = _flask(tmp_path, database, "upgrade")
    assert upgraded.returncode == 0, upgraded.stderr[-2000:]
    checked = _flask(tmp_path, database, "check")
    assert checked.returncode == 0, checked.stderr[-2000:]
    assert "No new upgrade operations detected" in checked.stdout + checked.stderr
