"""How long ``scorekeeper serve`` takes to stop on SIGTERM (issue 36, "Operate it for
real"), with ``--streams`` event streams open and with none: the wall time from the
SIGTERM to the exit of gunicorn's master (its workers and the queue's consumer beside
it gone), and the CPU seconds the server's processes spent meanwhile.

The server runs as ``serve`` ships (2 gevent web workers, the consumer with 2 job
processes) on 127.0.0.1 only, on a fresh SQLite file; ``PLAY_STREAMS_PER_LINK`` is
raised so that one scoresheet game's TV link carries every stream. SIGTERM goes to the
master only, as ``docker stop`` sends it. The streams are raw sockets (each its own
session, no cookie), each read to its first line before the stop, then to its end: the
run counts those that ended with the stopping ``retry:`` line.

Printed per case: the median (and every repeat's) wall seconds and CPU seconds. The CPU
counts the processes reaped into this one: a worker that gunicorn kills at the end of its
graceful timeout is reaped by init, its CPU missed (printed "n/a").

    python benchmarks/stop_bench.py [--streams 100] [--repeats 3] [--code DIR]

``--code`` runs another checkout's ``serve`` (e.g. the code before the change).
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.streams_bench import serve  # noqa: E402
from benchmarks.web_bench import free_port, setup_scorekeeper  # noqa: E402

TIMEOUT = 60.0
"""Seconds a socket read may wait (a bound against a hang)."""


def tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and every live descendant, with what each has reaped
    (user + system, children's too), read from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    total = sum(int(f) for f in fields[11:15]) / tick
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        total += sum(tree_cpu(int(child)) for child in children)
    return total


def reaped_cpu() -> float:
    """CPU seconds of this process's reaped children (and theirs)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def open_streams(port: int, path: str, count: int) -> list[socket.socket]:
    """``count`` event streams of ``path``, each answered (its first line read)."""
    streams = []
    for _ in range(count):
        stream = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        stream.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        heard = b""
        while b"retry:" not in heard:
            chunk = stream.recv(4096)
            if not chunk:
                raise SystemExit(f"a stream was refused or closed: {heard[:200]!r}")
            heard += chunk
        streams.append(stream)
    return streams


def rest(stream: socket.socket) -> bytes:
    """What ``stream`` sends until the server closes it (bounded by :data:`TIMEOUT`)."""
    heard = b""
    try:
        while chunk := stream.recv(4096):
            heard += chunk
    except OSError:
        pass
    stream.close()
    return heard


def one_stop(code: Path, streams: int) -> tuple[float, float, int]:
    """One server started, ``streams`` opened, stopped: (wall s, CPU s, streams that
    ended with the stopping ``retry:``)."""
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{folder}/bench.db"
        view = setup_scorekeeper(database, 1, 1)[0][0]
        os.environ |= {"SCOREKEEPER_PLAY_STREAMS_PER_LINK": "100000"}
        os.environ |= {"SCOREKEEPER_PLAY_STREAMS_PER_CLIENT": "100000"}
        port = free_port()
        server = serve(port, database, Path(folder) / "serve.log", code)
        held = open_streams(port, f"/games/{view}/tv/events", streams)
        cpu = reaped_cpu() + tree_cpu(server.pid)
        began = time.monotonic()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=120)
        wall = time.monotonic() - began
        cpu = reaped_cpu() - cpu
        retried = sum(b"retry: 3000" in rest(stream) for stream in held)
        return wall, cpu, retried


def main() -> None:
    """Run the cases (see the module) and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--code", type=Path, default=ROOT)
    args = parser.parse_args()
    for count in (0, args.streams):
        runs = [one_stop(args.code, count) for _ in range(args.repeats)]
        walls, cpus = [r[0] for r in runs], [r[1] for r in runs]
        cpu = statistics.median(cpus)
        print(
            f"{count:5d} streams: stop {statistics.median(walls):5.2f} s wall "
            f"(runs {', '.join(f'{w:.2f}' for w in walls)}), "
            + (f"{cpu:5.2f} s CPU; " if min(cpus) >= 0 else "CPU n/a (workers killed); ")
            + f"streams ended with retry: {min(r[2] for r in runs)}/{count}",
            flush=True,
        )


if __name__ == "__main__":
    main()
