"""One phone opening 200 event streams against ``serve`` as shipped (issue 23, item 1),
while another phone loads pages: how long the pages take, beside the same pages with no
stream open, measured in the same run.

The app runs as ``python -m scorekeeper serve`` runs it (2 gunicorn gevent workers,
their connections and the cap of open streams as shipped) on 127.0.0.1 only, on a fresh
SQLite file. A table game is made through the real forms (the new-table form with its
CSRF token; the guest opens seat 2's link). Then:
- anchor: the guest loads its game page and the home page, alternately, ``--pages``
  times, no stream open;
- streams: the host's phone (ONE session cookie, ONE seat) opens ``--streams`` event
  streams at once on raw sockets (asyncio; each reads what the server sends, for at
  most ``--hold`` seconds) while the guest loads the same pages, one after another,
  for as long as the streams are held (``--pages`` at least).
  With ``--reopen`` each socket opens a new stream as soon as the server ends its own,
  a phone in a loop (at most ``--max-opens`` streams in all).
Printed: each phase's median and slowest page time in milliseconds (and any page that
failed), and what became of the streams (answered 200 and ended by a newer stream of
the seat, 503 refused, still open at the end). Everything is bounded in count and time
and stops by itself; the server is killed at the end.

    python benchmarks/streams_bench.py [--streams 200] [--pages 200] [--hold 20]
                                       [--reopen] [--max-opens 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.web_bench import answering, free_port  # noqa: E402

TIMEOUT = 30.0
"""Seconds a page may take before it counts as failed."""


def serve(port: int, database: str, log: Path, code: Path = ROOT) -> subprocess.Popen[bytes]:
    """``python -m scorekeeper serve`` of the checkout at ``code`` (this one by default) on
    127.0.0.1:``port``, its data folder and access log beside ``log``, once it answers."""
    command = [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1"]
    env = os.environ | {"DATABASE_URL": database, "PYTHONPATH": str(code)}
    env["SCOREKEEPER_DATA"] = str(log.parent)
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*command, "--port", str(port)],
            cwd=code,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return answering(process, port, "/", "serve")


class Phone:
    """A phone: its session cookie, one request per connection (as http.client)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie = ""

    def call(self, method: str, path: str, form: dict[str, str] | None = None) -> Any:
        """``(status, headers, body)``; the session cookie kept."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body, headers)
            response = connection.getresponse()
            raw = response.read()
        finally:
            connection.close()
        cookie = response.getheader("Set-Cookie")
        if cookie and cookie.startswith("session="):
            self.cookie = cookie.split(";", 1)[0]
        return response.status, response, raw.decode("utf-8", "replace")


def make_table(host: Phone, guest: Phone) -> str:
    """A table game through the forms: the host (seat 1), the guest (seat 2), a basic bot;
    the guest sits down through its seat's link. Returns the game's slug."""
    _, _, page = host.call("GET", "/play/table")
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token, "no CSRF token on the new-table form"
    fields = {"csrf_token": token.group(1), "name": "Hana", "preset": "standard"}
    fields |= {"seat_0": "person", "who_0": "Ivo", "seat_1": "casual", "seat_2": ""}
    status, response, _ = host.call("POST", "/play/table", fields)
    assert status in (302, 303), f"the new-table form answered {status}"
    slug = response.getheader("Location").split("/")[-2]
    _, _, seats = host.call("GET", f"/play/{slug}/seats")
    link = re.search(rf"/play/{slug}/sit/1/[A-Za-z0-9_-]+", seats)
    assert link, "no seat link on the host's seats page"
    status, _, _ = guest.call("GET", link.group(0))
    assert status == 303, f"the seat link answered {status}"
    return slug


def load_pages(
    guest: Phone, slug: str, count: int, during: threading.Thread | None = None
) -> tuple[list[float], int]:
    """The guest's game page and the home page, alternately, ``count`` times (or, with
    ``during``, for as long as that thread runs, ``count`` at least): each page's time
    in milliseconds, and how many failed (not 200, or timed out)."""
    times: list[float] = []
    failed = 0
    for n in range(count * 100):
        if n >= count and (during is None or not during.is_alive()):
            break
        path = f"/play/{slug}" if n % 2 == 0 else "/"
        began = time.perf_counter()
        try:
            status, _, _ = guest.call("GET", path)
        except OSError:
            status = 0
        times.append((time.perf_counter() - began) * 1000)
        failed += status != 200
    return times, failed


async def one_stream(port: int, request: bytes, until: float, fates: Counter[str]) -> bool:
    """One event stream on a raw socket, read until the server ends it or ``until``;
    its fate counted. True when the server ended it (so a loop may open another)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        fates["could not connect"] += 1
        return False
    writer.write(request)
    seen = b""
    try:
        while (left := until - time.monotonic()) > 0:
            chunk = await asyncio.wait_for(reader.read(65536), timeout=left)
            if not chunk:
                break
            seen += chunk[:4096] if len(seen) < 4096 else b""
        else:
            fates["still open at the end"] += 1
            return False
    except (TimeoutError, OSError):
        fates["still open at the end"] += 1
        return False
    finally:
        writer.close()
    if seen.startswith(b"HTTP/1.1 503"):
        fates["503 (cap reached)"] += 1
    elif b'"reason": "replaced"' in seen:
        fates["ended: a newer stream of the seat"] += 1
    else:
        fates[f"ended otherwise: {seen[:12]!r}"] += 1
    return True


async def many_streams(port: int, slug: str, host: Phone, args: Any, fates: Counter[str]) -> None:
    """``args.streams`` streams of the host's seat at once (each reopened while
    ``args.reopen``, at most ``args.max_opens`` in all), for ``args.hold`` seconds."""
    request = (
        f"GET /play/{slug}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Cookie: {host.cookie}\r\nAccept: text/event-stream\r\n\r\n"
    ).encode()
    until = time.monotonic() + args.hold
    opened = [0]

    async def socket_loop() -> None:
        while opened[0] < args.max_opens and time.monotonic() < until:
            opened[0] += 1
            ended = await one_stream(port, request, until, fates)
            if not (ended and args.reopen):
                return

    await asyncio.gather(*(socket_loop() for _ in range(args.streams)))
    fates["streams opened in all"] = opened[0]


def summary(name: str, times: list[float], failed: int) -> str:
    p95 = statistics.quantiles(times, n=20, method="inclusive")[-1]
    return (
        f"{name}: {len(times)} pages, median {statistics.median(times):.0f} ms, "
        f"p95 {p95:.0f} ms, slowest {max(times):.0f} ms, failed {failed}"
    )


def run(args: Any, folder: Path) -> None:
    port = free_port()
    server = serve(port, f"sqlite:///{folder / 'streams.sqlite3'}", folder / "access.log")
    try:
        host, guest = Phone(port), Phone(port)
        slug = make_table(host, guest)
        load_pages(guest, slug, 10)  # warm both workers' templates and caches
        anchor, anchor_failed = load_pages(guest, slug, args.pages)
        fates: Counter[str] = Counter()
        attack = threading.Thread(
            target=lambda: asyncio.run(many_streams(port, slug, host, args, fates))
        )
        attack.start()
        loaded, loaded_failed = load_pages(guest, slug, args.pages, during=attack)
        attack.join(timeout=args.hold + 60)
        print(summary("no stream open      ", anchor, anchor_failed))
        print(summary(f"{args.streams} streams opening", loaded, loaded_failed))
        print("the streams:", ", ".join(f"{k}: {v}" for k, v in sorted(fates.items())))
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # master and workers: no graceful wait
        server.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--hold", type=float, default=20.0)
    parser.add_argument("--reopen", action="store_true")
    parser.add_argument("--max-opens", type=int, default=2000)
    args = parser.parse_args()
    print(
        f"python -m scorekeeper serve (as shipped) on 127.0.0.1, SQLite; one phone, one "
        f"seat, {args.streams} event streams{' reopened in a loop' if args.reopen else ''}; "
        f"another phone loads its game page and the home page"
    )
    with tempfile.TemporaryDirectory() as folder:
        run(args, Path(folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
