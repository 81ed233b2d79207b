"""Gunicorn's settings file for ``scorekeeper serve`` (``--config <this file>``): the
queue's consumer (``scorekeeper worker``) started as a child process when gunicorn is
ready, and stopped when it exits, so the laptop at the table still needs one command.
``SCOREKEEPER_JOB_PROCESSES`` worker processes (default 2); 0 starts none (``scorekeeper
worker`` runs them elsewhere).

Gunicorn reads this file in its master process, before its gevent workers patch the
standard library: it imports nothing but the standard library (a database driver
imported here would keep its blocking waits in every worker)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys


class Beside:
    """The consumer beside the web workers: ``scorekeeper worker`` as a child process."""

    process: subprocess.Popen[bytes] | None = None

    @classmethod
    def start(cls, processes: int) -> None:
        """Start the consumer (``processes`` worker processes)."""
        command = [sys.executable, "-m", "scorekeeper", "worker", "--processes", str(processes)]
        cls.process = subprocess.Popen(command, env=os.environ.copy())

    @classmethod
    def stop(cls) -> None:
        """Stop the consumer: SIGINT (it finishes its running jobs), then wait."""
        process, cls.process = cls.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def when_ready(_server: object) -> None:
    """Gunicorn is listening: start the consumer."""
    processes = int(os.environ.get("SCOREKEEPER_JOB_PROCESSES", "").strip() or "2")
    if processes > 0:
        Beside.start(processes)


def on_exit(_server: object) -> None:
    """Gunicorn is stopping: stop the consumer (running jobs finish first)."""
    Beside.stop()


SERVING_LOCKS: list[object] = []
"""The open lock file of :func:`on_starting`, kept open (so locked) while gunicorn lives."""


def on_starting(_server: object) -> None:
    """Gunicorn's master starts: hold the data folder's (``SCOREKEEPER_DATA``) serving lock,
    shared, until it exits, so ``scorekeeper restore`` refuses meanwhile. The lock of
    :mod:`scorekeeper.hosting.inuse`, taken here in the standard library's words (a shared
    ``flock`` on ``serving.lock``); it waits while a restore runs. Not on Windows (no flock,
    no gunicorn)."""
    folder = os.environ.get("SCOREKEEPER_DATA", "").strip()
    if not folder or sys.platform == "win32":
        return
    import fcntl

    handle = open(os.path.join(folder, "serving.lock"), "a", encoding="utf-8")
    fcntl.flock(handle, fcntl.LOCK_SH)
    SERVING_LOCKS.append(handle)
