"""Running ``scorekeeper serve`` in a child process for the hosting tests: a free port,
a wait for ``/healthz`` bounded by a deadline (a condition, never a measured time), and
a clean stop."""

from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

DEADLINE = 120.0
"""Seconds a server gets to answer /healthz before the test gives up (a busy machine)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str, context: ssl.SSLContext | None = None) -> tuple[int, bytes]:
    """GET ``url``: its status and body (an error status too, not an exception)."""
    try:
        with urllib.request.urlopen(url, timeout=30, context=context) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _wait_healthy(base: str, child: subprocess.Popen[bytes], context: ssl.SSLContext | None):
    for _ in range(int(DEADLINE / 0.2)):  # a bound against a hang, never a measure
        if child.poll() is not None:
            raise AssertionError(f"the server stopped with status {child.returncode}")
        try:
            if fetch(f"{base}/healthz", context)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"{base}/healthz did not answer 200 in {int(DEADLINE / 0.2)} tries")


@contextmanager
def serving(
    command: Sequence[str],
    base: str,
    env: dict[str, str],
    cwd: Path,
    log: Path,
    context: ssl.SSLContext | None = None,
) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command`` (a ``serve``) until ``base``/healthz answers 200, yield it, then
    stop it (SIGTERM to its process group, gunicorn's workers with it)."""
    with open(log, "wb") as out:
        child = subprocess.Popen(
            list(command),
            env=env,
            cwd=cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            _wait_healthy(base, child, context)
            yield child
        finally:
            with suppress(ProcessLookupError):  # a test may have stopped it already
                os.killpg(child.pid, signal.SIGTERM)
            try:
                child.wait(timeout=DEADLINE)
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()


@contextmanager
def one_web_worker(tmp_path: Path, database: str = "") -> Iterator[str]:
    """``scorekeeper serve`` with ONE gevent web worker, no queue worker and no move
    reviews, its data folder ``tmp_path/data``, on ``database`` (its ``DATABASE_URL``;
    SQLite in the data folder when empty): yields its base URL, stopped at the end."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env.pop("DATABASE_URL", None)
    env |= {"SCOREKEEPER_DATA": str(tmp_path / "data"), "SCOREKEEPER_JOB_PROCESSES": "0"}
    env |= {"SCOREKEEPER_PLAY_REVIEW": "off"} | ({"DATABASE_URL": database} if database else {})
    command = [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--workers", "1"]
    base = f"http://127.0.0.1:{port}"
    with serving(command, base, env, tmp_path, tmp_path / "serve.log"):
        yield base
