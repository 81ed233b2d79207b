"""What open tables cost while nobody moves (issue 27, item 1): the CPU of ``serve`` as
shipped while ``--tables`` tables of 8 phones keep their event streams open, and its
memory per open stream.

The app runs as ``python -m scorekeeper serve`` runs it (its workers as shipped) on
127.0.0.1 only, on a fresh SQLite file (or ``--database``), from this checkout or from
``--code`` (another checkout's root, e.g. an older commit exported with ``git archive``,
to measure before and after in the same run). Each table is made through the real forms
(the new-table form with its CSRF token: the host and 7 more people; each opens its
seat's link). Then every phone opens its seat's event stream on a raw socket (asyncio;
reopened when the server ends it, as a browser's EventSource does, from the version it
heard), and once every stream has told its first version:
- memory: the resident memory of the server's processes before the streams and with
  them open, per stream;
- idle CPU: the server's processes' CPU time (user + system, every process of its
  session, from /proc) over ``--seconds`` of wall time, as a share of one core, first
  with no stream open, then as long with the tables' streams open; the tables' cost is
  the difference (both raw figures printed: the first is the server's own timers,
  gunicorn's heartbeats and the like, which the tables do not cost).
Printed with the machine's load average. Everything is bounded and stops by itself; the
server is killed at the end.

    python benchmarks/idle_bench.py [--tables 1] [--seconds 60] [--code DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.streams_bench import Phone, serve  # noqa: E402
from benchmarks.web_bench import free_port  # noqa: E402

PHONES = 8
"""Phones at a table: the host and seven more people."""
REFUSED_WAIT = 15.0
"""Seconds a phone refused a stream (503: the worker holds its cap) waits to ask again."""


def make_table(port: int) -> tuple[str, list[Phone]]:
    """A table of :data:`PHONES` people through the forms; its slug and their phones."""
    host = Phone(port)
    _, _, page = host.call("GET", "/play/table")
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token, "no CSRF token on the new-table form"
    fields = {"csrf_token": token.group(1), "name": "Hana", "preset": "standard"}
    for seat in range(PHONES - 1):
        fields |= {f"seat_{seat}": "person", f"who_{seat}": f"Guest {seat + 1}"}
    status, response, _ = host.call("POST", "/play/table", fields)
    assert status in (302, 303), f"the new-table form answered {status}"
    slug = response.getheader("Location").split("/")[-2]
    _, _, seats = host.call("GET", f"/play/{slug}/seats")
    phones = [host]
    for seat in range(1, PHONES):
        link = re.search(rf"/play/{slug}/sit/{seat}/[A-Za-z0-9_-]+", seats)
        assert link, f"no link of seat {seat} on the host's seats page"
        guest = Phone(port)
        status, _, _ = guest.call("GET", link.group(0))
        assert status == 303, f"seat {seat}'s link answered {status}"
        phones.append(guest)
    return slug, phones


async def stream(port: int, slug: str, phone: Phone, until: float, told: asyncio.Event) -> None:
    """One phone's event stream until ``until``, reopened when the server ends it;
    ``told`` set once it has told a version."""
    since = ""
    while time.monotonic() < until:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        query = f"?since={since}" if since else ""
        writer.write(
            f"GET /play/{slug}/events{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Cookie: {phone.cookie}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        try:
            while (left := until - time.monotonic()) > 0:
                chunk = await asyncio.wait_for(reader.read(65536), timeout=left)
                if not chunk:
                    break
                if chunk.startswith(b"HTTP/1.1 503"):
                    await asyncio.sleep(min(left, REFUSED_WAIT))  # as the page does
                    break
                for version in re.findall(rb'"version": (\d+)', chunk):
                    since = version.decode()
                    told.set()
        except TimeoutError:
            pass
        finally:
            writer.close()


def _session(leader: int) -> list[int]:
    """The ids of every process of the session ``leader`` started."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == leader:
                found.append(int(entry.name))
    return found


def cpu_seconds(leader: int) -> float:
    """CPU time (user + system) of the session's processes so far, in seconds."""
    ticks = 0
    for pid in _session(leader):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def resident_kib(leader: int) -> int:
    """Resident memory of the session's processes, in KiB."""
    total = 0
    for pid in _session(leader):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        found = re.search(r"VmRSS:\s+(\d+) kB", status)
        total += int(found.group(1)) if found else 0
    return total


async def measure(port: int, server: int, tables: list[Any], args: Any) -> dict[str, float]:
    """Open every phone's stream, wait until each has told a version, then measure."""
    until = time.monotonic() + 2 * args.seconds + 120
    no_stream = await cpu_share(server, args.seconds)
    before = resident_kib(server)
    told = [asyncio.Event() for slug, phones in tables for _ in phones]
    pairs = [(slug, phone) for slug, phones in tables for phone in phones]
    tasks = [
        asyncio.create_task(stream(port, slug, phone, until, event))
        for (slug, phone), event in zip(pairs, told, strict=True)
    ]
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in told)), timeout=120)
    await asyncio.sleep(2)
    with_streams = resident_kib(server)
    with_tables = await cpu_share(server, args.seconds)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "streams": len(pairs),
        "cpu": with_tables - no_stream,
        "cpu_raw": with_tables,
        "cpu_base": no_stream,
        "kib_per_stream": (with_streams - before) / len(pairs),
    }


async def cpu_share(server: int, seconds: float) -> float:
    """The CPU of the server's processes over the next ``seconds`` of wall time, as a
    percentage of one core."""
    cpu, wall = cpu_seconds(server), time.monotonic()
    await asyncio.sleep(seconds)
    return 100 * (cpu_seconds(server) - cpu) / (time.monotonic() - wall)


def run(args: Any, folder: Path) -> None:
    port = free_port()
    database = args.database or f"sqlite:///{folder / 'idle.sqlite3'}"
    server = serve(port, database, folder / "serve.log", Path(args.code))
    try:
        tables = [make_table(port) for _ in range(args.tables)]
        got = asyncio.run(measure(port, server.pid, tables, args))
        load = os.getloadavg()
        print(
            f"{args.tables} table(s), {got['streams']:.0f} open streams, idle "
            f"{args.seconds:.0f} s: {got['cpu']:.3f}% of a core (with the streams "
            f"{got['cpu_raw']:.3f}%, minus {got['cpu_base']:.3f}% with none open); "
            f"{got['kib_per_stream']:.0f} KiB per stream; load average {load[0]:.2f}"
        )
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # master and workers: no graceful wait
        server.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--code", default=str(ROOT), help="the checkout to serve")
    parser.add_argument("--database", default="", help="a DATABASE_URL (default SQLite)")
    args = parser.parse_args()
    print(f"python -m scorekeeper serve (as shipped) of {args.code} on 127.0.0.1")
    with tempfile.TemporaryDirectory() as folder:
        run(args, Path(folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
