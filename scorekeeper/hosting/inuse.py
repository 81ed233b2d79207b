"""Whether a server uses a data folder: the ``serving.lock`` file in it, locked with
``flock`` (the standard library only, so that gunicorn's settings file, ``jobs/serving.py``,
takes it too before any database driver is imported).

A server (``serve``'s gunicorn master, ``scorekeeper worker``) holds a SHARED lock for as
long as it runs, so several run side by side; ``scorekeeper restore`` takes the EXCLUSIVE
lock without waiting, so it refuses while any of them runs, and a server starting during a
restore waits for it to end. The kernel releases a process's lock when it exits, however it
ends (killed too). Where there is no ``flock`` (Windows, where gunicorn does not run
either) nothing is locked and a restore cannot tell: stop the app first.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

LOCK_NAME = "serving.lock"
"""The lock file in the data folder."""


class FolderInUse(RuntimeError):
    """The exclusive lock was refused: a server uses the data folder."""


def _lock(handle: IO[str], exclusive: bool) -> None:
    """Lock ``handle``: shared and waiting, or exclusive and :class:`FolderInUse` at once."""
    if sys.platform == "win32":  # no flock: see the module's docstring
        return
    import fcntl

    if not exclusive:
        fcntl.flock(handle, fcntl.LOCK_SH)
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise FolderInUse(str(handle.name)) from None


@contextmanager
def serving(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s serving lock, shared, while the block runs (a server runs)."""
    with open(folder / LOCK_NAME, "a", encoding="utf-8") as handle:
        _lock(handle, exclusive=False)
        yield


@contextmanager
def unused(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s serving lock alone while the block runs; :class:`FolderInUse`
    at once when a server holds it."""
    with open(folder / LOCK_NAME, "a", encoding="utf-8") as handle:
        _lock(handle, exclusive=True)
        yield
