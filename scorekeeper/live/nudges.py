"""Nudges between the processes of one machine: a process that waits for work (the
SQLite bus's check of the open streams, :mod:`scorekeeper.live.bus`; an idle worker of
the SQLite job queue, :mod:`scorekeeper.jobs.queue`) binds a Unix datagram socket in a
folder of the data folder (``<folder>/<pid>.sock``) and waits on it; a process that made
work for them (committed a move, queued a job) sends one empty datagram to each socket
there, never waiting (a full socket already has a nudge in it; a socket nobody holds
any more, its process gone, is removed). A nudge only says "look now": what there is
to do is read from the database or the queue, so a nudge lost costs only time; the
waiting process looks anyway after its own beat. Where no socket can be made (no
``AF_UNIX``, a path too long), it looks on its beat alone. With a database server or
Redis nothing here is used: their own notices and blocking reads tell."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path


class Nudges:
    """Nudges between the processes of one machine through the sockets of ``folder``
    (see the module)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._own: socket.socket | None = None
        self._pid = 0

    def open(self) -> None:
        """Bind this process's socket (it starts waiting for nudges); nothing when it
        cannot, or when it is bound already."""
        if self._own is not None and self._pid == os.getpid():
            return
        self._own = None  # a socket of the process this one was forked from is not its own
        path = self.folder / f"{os.getpid()}.sock"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            path.unlink(missing_ok=True)
            own = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        except (OSError, AttributeError):
            return
        try:
            own.bind(str(path))
        except OSError:
            own.close()
            return
        self._own, self._pid = own, os.getpid()

    def close(self) -> None:
        """Unbind this process's socket (it stops waiting for nudges)."""
        own, self._own = self._own, None
        if own is not None:
            own.close()
            (self.folder / f"{os.getpid()}.sock").unlink(missing_ok=True)

    def wait(self, seconds: float) -> None:
        """Wait for a nudge, at most ``seconds``; every nudge waiting is taken."""
        own = self._own
        if own is None or self._pid != os.getpid():
            time.sleep(seconds)
            return
        own.settimeout(seconds)
        try:
            own.recv(16)
            own.settimeout(0)
            while True:
                own.recv(16)
        except OSError:  # TimeoutError, BlockingIOError: no more nudges waiting
            return

    def send(self) -> None:
        """Nudge every process waiting in ``folder`` but this one."""
        try:
            entries = [e for e in os.scandir(self.folder) if e.name.endswith(".sock")]
        except OSError:
            return
        mine = f"{os.getpid()}.sock"
        entries = [e for e in entries if e.name != mine]
        if not entries:
            return
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
            sender.setblocking(False)
            for entry in entries:
                try:
                    sender.sendto(b"", entry.path)
                except (ConnectionRefusedError, FileNotFoundError):  # its process is gone
                    Path(entry.path).unlink(missing_ok=True)
                except OSError:  # its queue is full: a nudge is waiting there already
                    continue
