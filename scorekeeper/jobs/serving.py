"""Gunicorn's settings module for ``scorekeeper serve`` (``--config
python:scorekeeper.jobs.serving``): the queue's consumer started beside the web workers
when gunicorn is ready and stopped when it exits, so the laptop at the table still needs
one command. ``SCOREKEEPER_JOB_PROCESSES`` worker processes (default 2); 0 starts none
(``scorekeeper worker`` runs them elsewhere)."""

from __future__ import annotations

from typing import Any

from ..settings import setting
from .queue import Beside


def when_ready(_server: Any) -> None:
    """Gunicorn is listening: start the consumer."""
    processes = int(setting("JOB_PROCESSES", "2"))
    if processes > 0:
        Beside.start(processes)


def on_exit(_server: Any) -> None:
    """Gunicorn is stopping: stop the consumer (running jobs finish first)."""
    Beside.stop()
