"""A throwaway PostgreSQL server for tests that matter on a server database.

:func:`postgres_url` starts one (``initdb`` and ``pg_ctl`` from Debian's postgresql
package, run as the ``postgres`` user when the tests run as root, on a unix socket in a
temporary folder) and yields a fresh database's SQLAlchemy URL; the test is skipped only
when no server can be started here.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A running server: yields its socket folder (skips when none can be started)."""
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("PostgreSQL is not installed (scripts/test installs it)")
    folder = Path(tempfile.mkdtemp(prefix="sk-pg-"))
    data = folder / "data"
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    folder.chmod(0o777)
    started = subprocess.run(
        _as_server_user([initdb, "--no-sync", "-D", str(data), "-A", "trust", "-U", "postgres"]),
        capture_output=True,
    )
    options = f"-k {folder} -c listen_addresses='' -c fsync=off"
    if started.returncode == 0:
        started = subprocess.run(
            _as_server_user(
                [pg_ctl, "-D", str(data), "-o", options, "-w", "-l", str(folder / "log"), "start"]
            ),
            capture_output=True,
        )
    if started.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"no PostgreSQL server could be started: {started.stderr[-300:]!r}")
    try:
        yield str(folder)
    finally:
        subprocess.run(
            _as_server_user([pg_ctl, "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)


_COUNT = iter(range(1, 10_000))


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """A fresh, empty database on the throwaway server, as a SQLAlchemy URL."""
    import psycopg

    name = f"sk_test_{next(_COUNT)}"
    with psycopg.connect(host=postgres_server, user="postgres", dbname="postgres") as conn:
        conn.autocommit = True
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql+psycopg://postgres@/{name}?host={postgres_server}"
