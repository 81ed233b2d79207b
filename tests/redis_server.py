"""A throwaway Redis server for the tests of the wake-ups on Redis pub/sub.

:func:`redis_url` starts one ``redis-server`` per test process (Debian's redis-server
package, installed by scripts/test) on a unix socket in a temporary folder, nothing on
disk, and yields its URL with a database of its own for each test; the test is skipped
only when redis-server is not installed here.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

TRIES = 600
"""Times the fixture looks for the server's socket before it gives up (a bound against
a hang, never a measure)."""


@contextmanager
def running_redis(binary: str) -> Iterator[Path]:
    """A redis-server (``binary``) on a unix socket in a new temporary folder, nothing on
    disk: yields the socket's path, stopped and removed at the end (a test may stop it
    sooner: :func:`stop`)."""
    folder = Path(tempfile.mkdtemp(prefix="sk-redis-"))
    socket = folder / "redis.sock"
    options = ["--port", "0", "--unixsocket", str(socket), "--save", "", "--appendonly", "no"]
    server = subprocess.Popen(
        [binary, *options, "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    SERVERS[socket] = server
    try:
        for _ in range(TRIES):
            if socket.exists() or server.poll() is not None:
                break
            time.sleep(0.05)
        if not socket.exists():
            pytest.fail(f"redis-server did not start (status {server.poll()})")
        yield socket
    finally:
        stop(socket)
        SERVERS.pop(socket, None)
        shutil.rmtree(folder, ignore_errors=True)


SERVERS: dict[Path, subprocess.Popen[bytes]] = {}
"""The servers :func:`running_redis` started, by socket."""


def stop(socket: Path) -> None:
    """Stop the server of :func:`running_redis` at ``socket`` (its socket removed)."""
    server = SERVERS[socket]
    if server.poll() is None:
        server.terminate()
        server.wait(timeout=60)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[Path]:
    """A running server: yields its socket's path (skips when redis-server is absent)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (scripts/test installs it)")
    with running_redis(binary) as socket:
        yield socket


@pytest.fixture
def redis_url(redis_server: Path) -> str:
    """The throwaway server's URL. Its pub/sub channel is shared by every test of the
    process: another test's game of the same id only makes a stream read its own again."""
    return f"unix://{redis_server}"
