"""Gunicorn's settings file for ``scorekeeper serve`` (``--config <this file>``): the
queue's consumer (``scorekeeper worker``) started as a child process when gunicorn is
ready, and stopped when it exits, so the laptop at the table still needs one command.
``SCOREKEEPER_JOB_PROCESSES`` worker processes (default 2); 0 starts none (``scorekeeper
worker`` runs them elsewhere).

Stopping (SIGTERM, e.g. ``docker stop``) fits in :data:`STOP_SECONDS`: each web worker
ends its event streams at once (:func:`post_worker_init`; the phones reconnect after
their ``retry:``), gunicorn waits at most ``--graceful-timeout`` (:data:`GRACEFUL_SECONDS`)
for the requests still running, then the consumer gets :data:`JOBS_GRACE_SECONDS` to
finish its running jobs before they are interrupted (a job interrupted is queued again
by :mod:`scorekeeper.jobs`' recovery).

Gunicorn reads this file in its master process, before its gevent workers patch the
standard library: it imports the standard library at the top and, in its hooks, only
modules that import no database driver (a database driver
imported here would keep its blocking waits in every worker)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Protocol

STOP_SECONDS = 10
"""The bound of a whole stop: Docker's default wait before it kills (compose.yaml gives
15 s, a margin)."""
GRACEFUL_SECONDS = 4
"""gunicorn's ``--graceful-timeout``: the web workers' wait for running requests once
their streams are ended (a page or a move takes well under a second)."""
JOBS_GRACE_SECONDS = 3.0
"""The consumer's wait for its running jobs (SIGINT) before they are interrupted
(SIGTERM), then :data:`JOBS_INTERRUPT_SECONDS` more before it is killed."""
JOBS_INTERRUPT_SECONDS = 1.5
WATCH_SECONDS = 0.1
"""How often a web worker looks whether it was told to stop (``worker.alive``)."""


class Worker(Protocol):
    """What :func:`post_worker_init` reads of gunicorn's worker: ``alive``, False once
    it was told to stop (SIGTERM)."""

    alive: bool


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
        """Stop the consumer within :data:`JOBS_GRACE_SECONDS` plus
        :data:`JOBS_INTERRUPT_SECONDS`: SIGINT (it finishes its running jobs), SIGTERM
        (it interrupts them), then SIGKILL."""
        process, cls.process = cls.process, None
        if process is None or process.poll() is not None:
            return
        for sent, wait in (
            (signal.SIGINT, JOBS_GRACE_SECONDS),  # huey: finish the running jobs
            (signal.SIGTERM, JOBS_INTERRUPT_SECONDS),  # huey: interrupt them
            (signal.SIGKILL, None),
        ):
            process.send_signal(sent)
            try:
                process.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue


def when_ready(_server: object) -> None:
    """Gunicorn is listening: start the consumer."""
    processes = int(os.environ.get("SCOREKEEPER_JOB_PROCESSES", "").strip() or "2")
    if processes > 0:
        Beside.start(processes)


def on_exit(_server: object) -> None:
    """Gunicorn is stopping: stop the consumer (running jobs finish first)."""
    Beside.stop()


HELD = ExitStack()
"""The serving lock :func:`on_starting` takes, held while gunicorn lives."""


def on_starting(_server: object) -> None:
    """Gunicorn's master starts: hold the data folder's (``SCOREKEEPER_DATA``) serving lock,
    shared, until it exits, so ``scorekeeper restore`` refuses meanwhile; it waits while a
    restore runs (:func:`scorekeeper.hosting.inuse.serving`: the standard library only,
    and the package's engine, no database driver)."""
    folder = os.environ.get("SCOREKEEPER_DATA", "").strip()
    if not folder:
        return
    from scorekeeper.hosting.inuse import serving

    HELD.enter_context(serving(Path(folder)))


def post_worker_init(worker: Worker) -> None:
    """A web worker is serving: watch it (a thread, a greenlet under gevent) until it
    is told to stop, then end every event stream it holds at once
    (:func:`scorekeeper.live.bus.close_every_stream`), so it never waits for them."""
    from scorekeeper.live.bus import close_every_stream  # after gevent's patching

    def watch() -> None:
        while worker.alive:
            time.sleep(WATCH_SECONDS)
        close_every_stream()

    threading.Thread(target=watch, name="stopping", daemon=True).start()
