"""Loopback phones for the benchmarks: HTTP/1.1 over raw asyncio sockets (one request
per connection, ``Connection: close``; a chunked body's framing undone), so one process
holds thousands of event streams.

A :class:`Phone` behaves as static/play's seats.js in a browser does, never more eagerly:
it holds its seat's event stream, waiting for its answer as long as it listens (an
EventSource sets no time limit on it); on each ``version`` event it holds the new board
at once when the event carries one (``"board"`` in the event's data), else it fetches
its board (one fetch at a time: events heard meanwhile are read after it and fetch
again only when newer). When the stream is refused (503) it polls the version every
``POLL_SECONDS`` (ETag) and reopens the stream after the answer's ``Retry-After``; when
a newer stream of its seat ends it (``"replaced"``) it polls the same way and reopens it
after ``REOPEN_SECONDS``; when the server ends a stream, or the connection fails, it
reconnects after the streams' ``retry`` (a failure also polls once, as seats.js does
while its EventSource reconnects). A stream ended with ``"removed"`` or ``"gone"`` stops
the phone (its seat is no longer a phone's).

Run as a script, it is the listening tables' phones of ``multi_bench``: it reads
``{"port", "seconds", "phones": [[sit link or "", events path, board path, poll path],
...]}`` on standard input; each phone sits down (its seat's link gives its session
cookie) and at once opens its stream, the phones arriving at :data:`ARRIVALS` a second (100:
8,000 phones in 80 s, people do not all arrive in the same second), prints ``ready`` and the
counts as one JSON line, then listens until standard input closes or ``seconds`` pass,
and prints the final counts as one JSON line. Everything is bounded in time.
"""

from __future__ import annotations

import asyncio
import json
import resource
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass, field
from typing import Any

TIMEOUT = 30.0
"""Seconds an ordinary request (not a stream) may take before it counts as failed."""
POLL_SECONDS = 2.0
"""seats.js's POLL_MS: a phone refused a stream polls the version this often."""
REOPEN_SECONDS = 15.0
"""seats.js's REOPEN_MS: a phone polling (its stream refused without ``Retry-After``, or
ended by a newer one of its seat) opens its stream again after this long."""
OPENING = 64
"""Seats being sat down at once at most, so the server's listen backlog and the loopback
never drop a connection while thousands arrive."""
ARRIVALS = 100.0
"""Phones arriving per second: each sits down (its seat's link), then opens its stream,
at this rate (8,000 phones in 80 s); people do not all arrive in the same second."""


def raise_open_files() -> int:
    """Raise this process's soft limit of open files to its hard limit (children started
    afterwards inherit it); returns the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


@dataclass
class Answer:
    """An HTTP answer: ``status``, ``headers`` (lower-case names), ``body``."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> object:
        """The body as JSON."""
        return json.loads(self.body)


def _request_bytes(method: str, path: str, headers: dict[str, str], body: bytes) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


async def _head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """The status and headers of an answer (cookies: the last ``Set-Cookie``)."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("the server closed the connection before answering")
    status = int(status_line.split()[1])
    headers: dict[str, str] = {}
    while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers


async def _lines(reader: asyncio.StreamReader, chunked: bool) -> AsyncIterator[bytes]:
    """A streamed body's lines (each with its newline), its chunked framing undone."""
    if not chunked:
        while raw := await reader.readline():
            yield raw
        return
    pending = b""
    while size := int((await reader.readline()).split(b";")[0].strip() or b"0", 16):
        pending += await reader.readexactly(size)
        await reader.readexactly(2)  # the CRLF after each chunk
        *whole, pending = pending.split(b"\n")
        for line in whole:
            yield line + b"\n"


def _unchunk(body: bytes) -> bytes:
    out, rest = b"", body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out, rest = out + rest[:size], rest[size + 2 :]
    return out


async def request(
    port: int, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
) -> Answer:
    """One request to 127.0.0.1:``port`` on a new connection, read to its end within
    :data:`TIMEOUT` seconds. Raises OSError, TimeoutError or ConnectionError."""

    async def ask() -> Answer:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(_request_bytes(method, path, headers or {}, body))
            status, head = await _head(reader)
            raw = await reader.read()
        finally:
            writer.close()
        if head.get("transfer-encoding") == "chunked":
            raw = _unchunk(raw)
        return Answer(status, head, raw)

    return await asyncio.wait_for(ask(), TIMEOUT)


@dataclass
class Phone:
    """One phone at a table: its seat's session ``cookie`` (none at an anchor), the
    paths of its event stream, its board and its version poll; the newest board it
    holds (``version``) and when it first held each version (``held``, monotonic); the
    seconds its EventSource waits before it reconnects (``retry``, as the streams' last
    ``retry:`` line said)."""

    port: int
    events: str
    board: str
    poll: str
    cookie: str = ""
    version: int = -1
    held: dict[int, float] = field(default_factory=dict)
    fates: Counter[str] = field(default_factory=Counter)
    waiting: list[tuple[int, asyncio.Future[float]]] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    streaming: bool = False
    stopped: bool = False
    retry: float = 1.0

    def headers(self) -> dict[str, str]:
        """The phone's cookie header, if it has a session."""
        return {"Cookie": self.cookie} if self.cookie else {}

    async def sit(self, link: str) -> None:
        """Open the seat's link: its answer's session cookie becomes the phone's (a seat
        link that fails is counted, and the phone stays without a session)."""
        try:
            answer = await request(self.port, "GET", link)
        except (OSError, ConnectionError, TimeoutError, ValueError, LookupError):
            self.fates["sit failed"] += 1
            return
        cookie = answer.headers.get("set-cookie", "")
        if answer.status not in (302, 303) or not cookie:
            self.fates[f"sit {answer.status}"] += 1
            return
        self.cookie = cookie.split(";", 1)[0]

    def hold(self, version: int) -> None:
        """The phone now shows the board of ``version``: wake whoever waits for it."""
        if version <= self.version:
            return
        now = time.monotonic()
        self.version = version
        self.held.setdefault(version, now)
        for wanted, future in self.waiting:
            if wanted <= version and not future.done():
                future.set_result(now)
        self.waiting = [(w, f) for w, f in self.waiting if not f.done()]

    def reached(self, version: int) -> asyncio.Future[float]:
        """A future of the (monotonic) time the phone first holds ``version`` or newer."""
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if self.version >= version:
            future.set_result(self.held.get(version, time.monotonic()))
        else:
            self.waiting.append((version, future))
        return future

    async def fetch_board(self) -> None:
        """GET the board; hold its version."""
        answer = await request(self.port, "GET", self.board, self.headers())
        if answer.status == 200:
            found = answer.json()
            self.hold(int(found["version"]))  # type: ignore[index]
        else:
            self.fates[f"board {answer.status}"] += 1

    async def heard(self, data: str) -> None:
        """A ``version`` event's data: hold its board, or fetch one when newer."""
        event = json.loads(data)
        if "board" in event:
            self.hold(int(event["version"]))
        elif int(event["version"]) > self.version:
            await self.fetch_board()

    async def listen(self, until: float) -> None:
        """Hold the stream until ``until`` (monotonic) or :attr:`stopped`, as seats.js does
        (see the module)."""
        while time.monotonic() < until and not self.stopped:
            try:
                outcome = await self._one_stream(until)
            except (OSError, EOFError, ValueError, LookupError) as error:
                self.fates[f"stream failed ({type(error).__name__})"] += 1
                self.answered.set()
                await self._poll_once("")  # seats.js polls once while EventSource retries
                outcome = self.retry
            if outcome is None:
                return
            await asyncio.sleep(min(outcome, max(0.0, until - time.monotonic())))

    async def _one_stream(self, until: float) -> float | None:
        """One stream: seconds to wait before the next, or None to stop for good. Its
        answer is awaited as long as the phone listens (an EventSource sets no time
        limit on it)."""
        since = f"?since={self.version}" if self.version >= 0 else ""
        headers = self.headers() | {"Accept": "text/event-stream"}
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            writer.write(_request_bytes("GET", self.events + since, headers, b""))
            try:
                status, head = await asyncio.wait_for(_head(reader), until - time.monotonic())
            except TimeoutError:
                return 0.0
            self.answered.set()
            if status == 503:
                self.fates["refused 503"] += 1
                return await self._poll(until, float(head.get("retry-after", REOPEN_SECONDS)))
            if status != 200:
                self.fates[f"stream {status}"] += 1
                return None
            self.fates["streams opened"] += 1
            self.streaming = True
            lines = _lines(reader, head.get("transfer-encoding") == "chunked")
            return await self._read_events(lines, until)
        finally:
            self.streaming = False
            writer.close()

    async def _read_events(self, lines: AsyncIterator[bytes], until: float) -> float | None:
        kind, data = "message", ""
        while (left := until - time.monotonic()) > 0 and not self.stopped:
            try:
                raw = await asyncio.wait_for(anext(lines, b""), left)
            except TimeoutError:
                return 0.0
            if not raw:
                self.fates["ended by the server"] += 1
                return self.retry
            line = raw.decode().rstrip("\r\n")
            if line.startswith("retry:"):
                self.retry = int(line[6:]) / 1000
            elif line.startswith("event:"):
                kind = line[6:].strip()
            elif line.startswith("data:"):
                data = line[5:].strip()
            elif not line and data:
                if kind == "end":
                    return await self._ended(str(json.loads(data).get("reason")), until)
                if kind == "version":
                    await self.heard(data)
                kind, data = "message", ""
        return 0.0

    async def _ended(self, reason: str, until: float) -> float | None:
        """An ``end`` event's ``reason``: stop for good when the seat is no longer this
        phone's (``removed``, ``gone``: seats.js reloads the page); else (``replaced``)
        poll, and open the stream again after :data:`REOPEN_SECONDS`."""
        self.fates[f"end {reason}"] += 1
        if reason in ("removed", "gone"):
            return None
        return await self._poll(until, REOPEN_SECONDS)

    async def _poll_once(self, etag: str) -> str:
        """One poll of the version (``etag`` the last one's), fetching the board when it
        is newer than the one held; the poll's ETag (a failed poll is counted)."""
        headers = self.headers() | ({"If-None-Match": etag} if etag else {})
        try:
            answer = await request(self.port, "GET", self.poll, headers)
            self.fates[f"poll {answer.status}"] += 1
            if answer.status == 200:
                etag = answer.headers.get("etag", "")
                found = answer.json()
                if int(found["version"]) > self.version:  # type: ignore[index]
                    await self.fetch_board()
        except (OSError, ConnectionError, TimeoutError, ValueError, LookupError):
            self.fates["poll failed"] += 1
        return etag

    async def _poll(self, until: float, retry_after: float) -> float:
        """seats.js's fallback: poll the version until the stream may be asked again."""
        reopen, etag = time.monotonic() + retry_after, ""
        while time.monotonic() < min(reopen, until) and not self.stopped:
            etag = await self._poll_once(etag)
            await asyncio.sleep(POLL_SECONDS)
        return 0.0


async def at_most(coroutines: list[Coroutine[Any, Any, None]], at_once: int) -> None:
    """Await ``coroutines``, ``at_once`` of them at a time."""
    gate = asyncio.Semaphore(at_once)

    async def one(coroutine: Coroutine[Any, Any, None]) -> None:
        async with gate:
            await coroutine

    await asyncio.gather(*(one(c) for c in coroutines))


async def stop_listening(phones: list[Phone], tasks: list[asyncio.Task[None]]) -> None:
    """Stop the phones' listening ``tasks``: each phone told to stop and its task
    cancelled, waiting at most 10 s (a cancellation that a finished wait swallowed ends
    at the phone's next look at :attr:`Phone.stopped`)."""
    for phone in phones:
        phone.stopped = True
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.wait(tasks, timeout=10)


async def open_streams(
    phones: list[Phone], until: float, wait: float, links: list[str] | None = None
) -> list[asyncio.Task[None]]:
    """Every phone arriving at :data:`ARRIVALS` a second: it sits down (its seat's link
    in ``links``, if given: at most :data:`OPENING` sitting at once), then at once opens
    its stream, as a phone that opened its link shows the page and opens its stream
    (never silent for longer than the grace period in between, so no stand-in is due);
    it listens until ``until``. Waits, at most ``wait`` seconds after the last arrival,
    until each stream has had its first answer (200, 503 or a failure)."""
    gate = asyncio.Semaphore(OPENING)

    async def arrive(phone: Phone, link: str) -> None:
        if link:
            async with gate:
                await phone.sit(link)
        await phone.listen(until)

    tasks, began = [], time.monotonic()
    for number, phone in enumerate(phones):
        await asyncio.sleep(max(0.0, began + number / ARRIVALS - time.monotonic()))
        link = links[number] if links else ""
        tasks.append(asyncio.create_task(arrive(phone, link)))
    try:
        await asyncio.wait_for(asyncio.gather(*(p.answered.wait() for p in phones)), wait)
    except TimeoutError:
        pass
    return tasks


def counts(phones: list[Phone]) -> dict[str, int]:
    """Every phone's fates summed (streams opened, refused 503, polls, failures), and
    ``open now``: how many phones hold an open stream at this moment."""
    total: Counter[str] = Counter()
    for phone in phones:
        total.update(phone.fates)
    return dict(total) | {"open now": sum(phone.streaming for phone in phones)}


async def _listen_many(spec: dict[str, Any]) -> None:
    port, seconds, rows = int(spec["port"]), float(spec["seconds"]), spec["phones"]
    phones = [Phone(port, events, board, poll) for _link, events, board, poll in rows]
    links = [row[0] for row in rows]
    began = time.monotonic()
    tasks = await open_streams(phones, began + seconds, min(seconds, 120.0), links)
    took = f"{time.monotonic() - began:.0f} s to arrive (sit down, open the stream)"
    print(f"  {len(phones)} listening phones: {took}", file=sys.stderr, flush=True)
    print(json.dumps({"ready": counts(phones)}), flush=True)
    stdin = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)
    closed: asyncio.Future[Any] = asyncio.ensure_future(stdin.read())
    everyone: asyncio.Future[Any] = asyncio.ensure_future(asyncio.gather(*tasks))
    await asyncio.wait([closed, everyone], timeout=seconds, return_when="FIRST_COMPLETED")
    print(json.dumps({"done": counts(phones)}), flush=True)
    closed.cancel()
    await stop_listening(phones, tasks)


def main() -> int:
    """The listening phones (see the module); standard input gives their seats."""
    raise_open_files()
    spec = json.loads(sys.stdin.readline())
    asyncio.run(_listen_many(spec))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
