"""No visitor can stall another table (issue 34), each figure beside its anchor from the
same run.

The app runs as ``python -m scorekeeper serve`` runs it (gevent workers, the queue's
worker processes beside them) on 127.0.0.1, on SQLite in a fresh data folder. Each phase:
- one table of 8 phones (started by the app's own ``start_table``, each phone sat down
  through its link and holding its event stream, benchmarks/sse_client.py) makes
  ``--moves`` moves; each move's push latency (from sending it to each phone holding its
  board) and a page loaded over and over meanwhile (``/play/<slug>``) give the table's
  push p99 and page p99;
- meanwhile K other clients (0, 1, 2, 4, 8: ``--clients``; in a process of their own,
  so their work never delays the measuring loop) each play a game of one person against
  3 expert bots, moving as fast as answers come (their moves as JSON; after a
  discard they wait for the bots: on their game's event stream, or, on a server that
  makes the bots' moves in the request, on the answer itself). For each: "discard to
  board", from sending the discard to the bots' last move on their board (the stream's
  event that gives them the turn back), and the answers 429 (their fair share).
The aims compare each K with K = 0 of the same run (medians of ``--repeat`` runs, a
fresh server each). ``--before <commit>`` also serves that commit's code (a git worktree)
the same way for the K = 1 discard-to-board anchor: the bots' moves made inside the
person's request, as before this issue. With ``GEVENT_MONITOR_THREAD_ENABLE`` set in
the server (``--monitor``, the default), gevent reports every block of a worker's loop
longer than 0.1 s in the server's log: counted per phase.

    python benchmarks/stall_bench.py [--clients 0,1,2,4,8] [--moves 30] [--repeat 3]
        [--before 5423e88] [--hints 50] [--no-imports] [--no-monitor] [--redis]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import multi_bench as mb  # noqa: E402
from sse_client import at_most, open_streams, request, stop_listening  # noqa: E402

BOTS = ("expert", "expert", "expert")
"""The bots of each client's game of one person."""
BLOCKED = "appears to be blocked"
"""gevent's monitor's words for a block of a worker's loop (its report in the log)."""


def blocks(text: str) -> Counter[str]:
    """gevent's monitor's reports in a server's log ``text`` of a block of a worker's
    serving loop (its main thread, the one running gunicorn), by where it was (its
    deepest frames of the app or a library, gevent's own left out); a worker's start
    (building the app, before it serves) left out. The monitor also watches the hubs of
    gevent's pool's threads: a report for one of them (a SQLite write waiting there for
    the lock, off the loop by design) is not a block of the loop, and is left out."""
    reports = [r.split("* Greenlets")[0] for r in text.split(BLOCKED)[1:]]
    serving = {
        section.split(" ", 1)[0]
        for report in reports
        for section in report.split("Thread 0x")[1:]
        if "gunicorn/arbiter.py" in section
    }
    found: Counter[str] = Counter()
    for report in reports:
        blocked = re.search(
            r"Blocked Stack \(for thread id 0x([0-9a-f]+)\):(.*?)\n\n", report, re.S
        )
        if blocked is None or blocked.group(1) not in serving:
            continue
        stack = blocked.group(2)
        if "load_wsgi" in stack:
            continue
        frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', stack)
        ours = [f for f in frames if "gevent/" not in f[0] and "gunicorn/" not in f[0]]
        app = [f for f in ours if "/scorekeeper/" in f[0]]
        picked = ours[-1:] + app[-2:][::-1]
        where = " < ".join(f"{Path(f).name}:{n} {fn}" for f, n, fn in picked)
        found[where or "gevent or gunicorn itself"] += 1
    return found


class Solo:
    """One client playing a game of one person as fast as answers come (see the module):
    its session cookie, its game, its discard-to-board times (s) and answers counted."""

    def __init__(self, port: int, streams: bool) -> None:
        self.port = port
        self.streams = streams
        self.cookie = ""
        self.slug = ""
        self.heard: dict[int, bool] = {}  # version -> the person's to decide
        self.changed = asyncio.Event()
        self.times: list[float] = []
        self.answers: Counter[str] = Counter()

    def headers(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        return ({"Cookie": self.cookie} if self.cookie else {}) | (extra or {})

    async def start(self) -> None:
        """A new game against :data:`BOTS` through the new-game form (its CSRF token from
        the form's page, the session cookie kept)."""
        page = await request(self.port, "GET", "/play", self.headers())
        self.cookie = page.headers.get("set-cookie", "").split(";", 1)[0] or self.cookie
        found = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page.body)
        assert found is not None, "no CSRF token on /play"
        fields = {"csrf_token": found.group(1).decode(), "name": "Sam", "preset": "standard"}
        fields |= {f"bot_{i}": level for i, level in enumerate(BOTS)}
        body = "&".join(f"{k}={v}" for k, v in fields.items()).encode()
        kind = {"Content-Type": "application/x-www-form-urlencoded"}
        answer = await request(self.port, "POST", "/play", self.headers(kind), body)
        assert answer.status == 302, answer.status
        self.cookie = answer.headers.get("set-cookie", "").split(";", 1)[0] or self.cookie
        self.slug = answer.headers["location"].split("?")[0].rsplit("/", 1)[1]

    async def listen(self, stop: asyncio.Event) -> None:
        """The game's event stream: each version heard, and whether it is the person's to
        decide (its board's status says so: mine, paused, over)."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = f"GET /play/{self.slug}/events HTTP/1.1\r\nHost: x\r\n"
        head += "".join(f"{k}: {v}\r\n" for k, v in self.headers().items())
        writer.write((head + "Accept: text/event-stream\r\n\r\n").encode())
        try:
            name = ""
            while not stop.is_set():
                line = await asyncio.wait_for(reader.readline(), 60)
                if not line:
                    return
                text = line.decode(errors="replace").strip()
                if text.startswith("event:"):
                    name = text[6:].strip()
                elif text.startswith("data:") and name == "version":
                    data = json.loads(text[5:])
                    turn = data.get("mine") or data.get("turn") is None
                    self.heard[int(data["version"])] = bool(turn)
                    self.changed.set()
        except (OSError, TimeoutError, ValueError):
            return
        finally:
            writer.close()

    async def state(self) -> dict[str, Any]:
        answer = await request(self.port, "GET", f"/play/{self.slug}/state.json", self.headers())
        found = answer.json()
        assert isinstance(found, dict)
        return found

    async def move(self, body: dict[str, Any]) -> Any:
        kind = {"Content-Type": "application/json"}
        return await request(
            self.port,
            "POST",
            f"/play/{self.slug}/move.json",
            self.headers(kind),
            json.dumps(body).encode(),
        )

    async def back_to_me(self, after: int, stop: asyncio.Event) -> bool:
        """Wait until a version after ``after`` is the person's to decide again."""
        while not stop.is_set():
            if any(v > after and mine for v, mine in self.heard.items()):
                return True
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), 1.0)
            except TimeoutError:
                state = await self.state()  # a missed event: the state says
                if state["legal"] or state["paused"] or state["finished"]:
                    return True
        return False

    async def play(self, stop: asyncio.Event) -> None:
        """Move as fast as answers come until ``stop`` (see the module)."""
        while not stop.is_set():
            try:
                state = await self.state()
                if state["finished"]:
                    return
                if state["paused"]:
                    await self.move({"version": state["version"], "do": "next_round"})
                    continue
                if not state["legal"]:  # the bots are moving: wait for the board
                    await self.back_to_me(state["version"], stop)
                    continue
                action = mb.choose(state["legal"])
                sent = time.monotonic()
                answer = await self.move({"version": state["version"], "action": action})
                self.answers[str(answer.status)] += 1
                if answer.status == 429:
                    await asyncio.sleep(float(answer.headers.get("retry-after", "1")))
                    continue
                if answer.status != 200 or action["type"] != "discard":
                    continue
                made = answer.json()
                assert isinstance(made, dict)
                if made["paused"] or made["finished"]:
                    continue  # the discard ended the round: no bot moves after it
                if not self.streams:  # the bots' moves were made in the request
                    self.times.append(time.monotonic() - sent)
                elif await self.back_to_me(int(made["version"]), stop):
                    self.times.append(time.monotonic() - sent)
            except (OSError, ConnectionError, TimeoutError, ValueError, AssertionError) as err:
                self.answers[type(err).__name__] += 1
                await asyncio.sleep(0.5)


def group_file(most: int = 1024 * 1024) -> bytes:
    """A group's file (``500rum-group/1``) of as many games of 20 rounds (2 players, each
    round by totals) as fit in ``most`` bytes (the app's limit), 460 at most."""
    entered = {"went_out": None, "shown": {"Ann": 0, "Bob": 0}, "in_hand": {"Ann": 1, "Bob": 1}}
    game = {
        "format": "500rum-scoresheet/1",
        "title": "",
        "rules": {"preset": "standard", "options": {}},
        "players": ["Ann", "Bob"],
        "first_dealer": 0,
        "rounds": [{"mode": "totals", "input": entered | {"adjust": {}}}] * 20,
    }
    doc: dict[str, Any] = {"format": "500rum-group/1", "name": "Import bench"}
    doc |= {"rules": {"preset": "standard", "options": {}}, "players": ["Ann", "Bob"]}
    for count in range(460, 0, -10):
        doc["games"] = [{"archived": False, "game": game}] * count
        raw = json.dumps(doc, separators=(",", ":")).encode()
        if len(raw) <= most - 2048:  # the form's other fields
            return raw
    raise ValueError("no group file fits")


async def upload(port: int, raw: bytes) -> tuple[str, str]:
    """Send a group's file through the import form (its CSRF token from the form's page):
    the progress page's path and the session cookie."""
    page = await request(port, "GET", "/groups/import")
    cookie = page.headers.get("set-cookie", "").split(";", 1)[0]
    found = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page.body)
    assert found is not None, "no CSRF token on /groups/import"
    boundary = "----stallbench"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'.encode()
        + found.group(1)
        + b"\r\n",
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="g.json"\r\n'
        "Content-Type: application/json\r\n\r\n".encode()
        + raw
        + b"\r\n",
        f"--{boundary}--\r\n".encode(),
    ]
    headers = {"Cookie": cookie, "Content-Type": f"multipart/form-data; boundary={boundary}"}
    answer = await request(port, "POST", "/groups/import", headers, b"".join(parts))
    assert answer.status == 303, (answer.status, answer.body[:300])
    return answer.headers["location"], cookie


async def importing(port: int, stop: asyncio.Event) -> dict[str, Any]:
    """One group's file imported while the table plays: how long from sending it to its
    group, and the games in it."""
    raw = group_file()
    games = len(json.loads(raw)["games"])
    began = time.monotonic()
    progress, cookie = await upload(port, raw)
    while not stop.is_set():
        answer = await request(port, "GET", progress, {"Cookie": cookie})
        if answer.status != 200:
            return {
                "games": games,
                "bytes": len(raw),
                "seconds": time.monotonic() - began,
                "status": answer.status,
            }
        await asyncio.sleep(0.2)
    return {"games": games, "bytes": len(raw), "seconds": float("nan"), "status": 0}


async def import_phase(server: mb.Server, args: Any, log: Path) -> dict[str, Any]:
    """The table's moves and pages while one group's file of about 1 MiB is imported."""
    stop = asyncio.Event()
    seen = len(log.read_text(errors="replace"))
    task = asyncio.create_task(importing(server.port, stop))
    figures = await mb.play(server, server.tables[0], server.figures["phones"], args, probe=True)
    done = await asyncio.wait_for(task, 600) if not task.done() else task.result()
    stop.set()
    where = blocks(log.read_text(errors="replace")[seen:])
    return figures | {
        "import": done,
        "blocked": sum(where.values()),
        "where": dict(where.most_common(5)),
        "load": mb.load(),
    }


async def hints(port: int, games: int, asks: int) -> Counter[str]:
    """One client (one session) asks ``asks`` hints at once, spread over ``games`` games
    against :data:`BOTS` (started by other phones: anyone with a game's link plays it),
    then asks again each one answered 202 until none is (the page's Hint button asks the
    same way): the answers counted."""
    solos = [Solo(port, streams=False) for _ in range(games)]
    await asyncio.gather(*(s.start() for s in solos))
    for solo in solos:  # each game at its person's turn (bots that start have moved)
        for _ in range(100):
            state = await solo.state()
            if state["legal"]:
                break
            await asyncio.sleep(0.2)
    page = await request(port, "GET", "/play")
    cookie = page.headers.get("set-cookie", "").split(";", 1)[0]
    for solo in solos:
        solo.cookie = cookie  # the asking client's session
    answers: Counter[str] = Counter()

    async def ask(solo: Solo) -> None:
        for _ in range(120):
            path = f"/play/{solo.slug}/hint.json"
            try:
                answer = await request(port, "GET", path, solo.headers())
            except (OSError, ConnectionError, TimeoutError) as error:
                answers[type(error).__name__] += 1
                return
            answers[str(answer.status)] += 1
            if answer.status not in (202, 429):
                return
            await asyncio.sleep(float(answer.headers.get("retry-after", "1")))

    await asyncio.gather(*(ask(solos[i % games]) for i in range(asks)))
    return answers


async def hints_phase(server: mb.Server, args: Any, log: Path) -> dict[str, Any]:
    """The table's moves and pages while one client asks ``--hints`` hints at once."""
    seen = len(log.read_text(errors="replace"))
    task = asyncio.create_task(hints(server.port, 20, args.hints))
    figures = await mb.play(server, server.tables[0], server.figures["phones"], args, probe=True)
    answers = await asyncio.wait_for(task, 600)
    where = blocks(log.read_text(errors="replace")[seen:])
    return figures | {
        "hints": dict(answers),
        "blocked": sum(where.values()),
        "where": dict(where.most_common(5)),
        "load": mb.load(),
    }


def serve_command(port: int, workers: int) -> list[str]:
    return [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1"] + [
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]


def server_env(folder: Path, monitor: bool) -> dict[str, str]:
    env = {
        "SCOREKEEPER_DATA": str(folder),
        "SECRET_KEY": "stall-bench-secret-key-of-32-characters",
        # every client here comes from 127.0.0.1: lift the bounds per address only
        "SCOREKEEPER_PLAY_STREAMS_PER_ADDRESS": "1000000",
        "SCOREKEEPER_PLAY_JOBS_PER_ADDRESS": "1000000",
        "SCOREKEEPER_RATELIMIT_NEW_GAMES": "100000 per minute",
    }
    if monitor:
        env |= {"GEVENT_MONITOR_THREAD_ENABLE": "1", "GEVENT_MAX_BLOCKING_TIME": "0.1"}
    return env


def instant_clients(port: int, clients: int, told: Any, stop: Any) -> None:
    """The ``clients`` instant clients of a phase, in a process of their own (so their
    work never delays the measuring loop's readings): each starts its game, then all
    play until ``stop`` is set; ``told`` gets ``"ready"`` once they play, then their
    discard-to-board times and answers."""

    async def playing() -> tuple[list[float], Counter[str]]:
        solos = [Solo(port, streams=True) for _ in range(clients)]
        await asyncio.gather(*(s.start() for s in solos))
        done = asyncio.Event()
        tasks = [asyncio.create_task(s.listen(done)) for s in solos]
        tasks += [asyncio.create_task(s.play(done)) for s in solos]
        told.put("ready")
        await asyncio.to_thread(stop.wait)
        done.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        answers: Counter[str] = Counter()
        for solo in solos:
            answers.update(solo.answers)
        return [t for s in solos for t in s.times], answers

    told.put(asyncio.run(playing()))


async def phase(server: mb.Server, args: Any, clients: int, log: Path) -> dict[str, Any]:
    """One phase: the table's moves and pages with ``clients`` instant clients (in a
    process of their own, :func:`instant_clients`)."""
    context = multiprocessing.get_context("spawn")
    told, stop = context.Queue(), context.Event()
    others = context.Process(target=instant_clients, args=(server.port, clients, told, stop))
    others.start()
    try:
        assert await asyncio.to_thread(told.get, True, 120) == "ready"
        await asyncio.sleep(args.settle)
        seen = len(log.read_text(errors="replace"))
        table = server.tables[0]
        figures = await mb.play(server, table, server.figures["phones"], args, probe=True)
        stop.set()
        times, answers = await asyncio.to_thread(told.get, True, 120)
    finally:
        stop.set()
        others.join(60)
        if others.is_alive():
            others.kill()
    where = blocks(log.read_text(errors="replace")[seen:])
    return figures | {
        "clients": clients,
        "blocked": sum(where.values()),
        "where": dict(where.most_common(5)),
        "discard_to_board": statistics.median(times) if times else float("nan"),
        "discards": len(times),
        "answers": dict(answers),
        "load": mb.load(),
    }


async def measure(server: mb.Server, args: Any, log: Path) -> list[dict[str, Any]]:
    table = server.tables[0]
    phones = table.phones(server.port)
    await at_most([p.sit(link) for p, link in zip(phones, table.links, strict=True)], 8)
    streams = await open_streams(phones, time.monotonic() + 3600, 60)
    server.figures["phones"] = phones
    results = []
    for clients in args.clients_list:
        found = await phase(server, args, clients, log)
        print(
            f"  K={clients}: push p99 {found['p99']:.0f} ms, page p99 {found['page_p99']:.0f} ms,"
            f" discard to board {found['discard_to_board']:.2f} s ({found['discards']}),"
            f" answers {found['answers']}, loop blocks > 0.1 s: {found['blocked']},"
            f" moves {found['moves']} (failed {found['failed']}), load {found['load']}",
            flush=True,
        )
        for where, count in found["where"].items():
            print(f"    blocked {count}x at {where}", flush=True)
        results.append(found)
    if args.hints:
        found = await hints_phase(server, args, log)
        print(
            f"  {args.hints} hints asked at once by one client: answers {found['hints']};"
            f" push p99 {found['p99']:.0f} ms, page p99 {found['page_p99']:.0f} ms,"
            f" loop blocks > 0.1 s: {found['blocked']}, load {found['load']}",
            flush=True,
        )
        results.append(found | {"clients": "hints"})
    if args.imports:
        found = await import_phase(server, args, log)
        print(
            f"  import of {found['import']['games']} games ({found['import']['bytes']} bytes)"
            f" in {found['import']['seconds']:.1f} s (answer {found['import']['status']}):"
            f" push p99 {found['p99']:.0f} ms, page p99 {found['page_p99']:.0f} ms, moves"
            f" {found['moves']} (failed {found['failed']}), pages failed"
            f" {found['page_failed']}, loop blocks > 0.1 s: {found['blocked']},"
            f" load {found['load']}",
            flush=True,
        )
        for where, count in found["where"].items():
            print(f"    blocked {count}x at {where}", flush=True)
        results.append(found | {"clients": "import"})
    await stop_listening(phones, streams)
    return results


def run_app(args: Any, repeat: int, folder: Path) -> list[dict[str, Any]]:
    data = folder / f"data-{repeat}"
    env = server_env(data, args.monitor)
    with ExitStack() as stack:
        roots = []
        if args.redis:  # the queue and the wake-ups on Redis: no polling of SQLite
            url, pid = stack.enter_context(mb.redis_server(folder))
            env["REDIS_URL"], roots = url, [pid]
        tables = mb.make_tables(env, 1)
        port = mb.free_port()
        log = folder / f"app-{repeat}.log"
        process = mb.start(serve_command(port, args.workers), env, mb.ROOT, log)
        try:
            mb.wait_answering(process, port, "/healthz", "the app")
            server = mb.Server("app", port, process, [process.pid, *roots], tables, mb.app_move)
            return asyncio.run(measure(server, args, log))
        finally:
            mb.stop_group(process)
            os.environ.pop("REDIS_URL", None)  # make_tables set it in this process


async def before_phase(port: int, args: Any) -> dict[str, Any]:
    """The K = 1 client alone on a server that makes the bots' moves in the request."""
    solo = Solo(port, streams=False)
    await solo.start()
    stop = asyncio.Event()
    task = asyncio.create_task(solo.play(stop))
    await asyncio.sleep(args.before_seconds)
    stop.set()
    await asyncio.gather(task, return_exceptions=True)
    times = solo.times
    return {
        "discard_to_board": statistics.median(times) if times else float("nan"),
        "discards": len(times),
        "load": mb.load(),
    }


def run_before(args: Any, repeat: int, folder: Path, tree: Path) -> dict[str, Any]:
    port = mb.free_port()
    env = server_env(folder / f"before-{repeat}", False) | {"PYTHONPATH": str(tree)}
    log = folder / f"before-{repeat}.log"
    process = mb.start(serve_command(port, args.workers), env, tree, log)
    try:
        mb.wait_answering(process, port, "/healthz", "the code before")
        found = asyncio.run(before_phase(port, args))
    finally:
        mb.stop_group(process)
    print(
        f"  before ({args.before}), K=1: discard to board {found['discard_to_board']:.2f} s"
        f" ({found['discards']}), load {found['load']}",
        flush=True,
    )
    return found


def worktree(commit: str, folder: Path) -> Path:
    tree = folder / "before"
    subprocess.run(
        ["git", "worktree", "add", "--detach", str(tree), commit],
        cwd=mb.ROOT,
        check=True,
        capture_output=True,
    )
    return tree


def med(values: list[float]) -> float:
    real = [v for v in values if v == v]
    return statistics.median(real) if real else float("nan")


def summary(runs: list[list[dict[str, Any]]], before: list[dict[str, Any]], args: Any) -> None:
    print("\nAims (medians of the repeats; each ratio the median of the repeats' ratios):")
    if args.hints:
        at = next(i for i, f in enumerate(runs[0]) if f["clients"] == "hints")
        page = med([r[at]["page_p99"] / r[0]["page_p99"] for r in runs])
        refused = sum(r[at]["hints"].get("429", 0) for r in runs)
        print(
            f"  {args.hints} hints at once: page p99 {page:.2f}x of none (aim <= 1.5x),"
            f" {med([r[at]['page_p99'] for r in runs]):.0f} ms beside"
            f" {med([r[0]['page_p99'] for r in runs]):.0f} ms; that client's 429s: {refused}"
        )
    if args.imports:
        push = med([r[-1]["p99"] / r[0]["p99"] for r in runs])
        page = med([r[-1]["page_p99"] / r[0]["page_p99"] for r in runs])
        failed = sum(r[-1]["failed"] for r in runs)
        took = med([r[-1]["import"]["seconds"] for r in runs])
        print(
            f"  during an import ({runs[0][-1]['import']['games']} games, {took:.1f} s):"
            f" page p99 {page:.2f}x and push p99 {push:.2f}x of no import (aim <= 1.5x);"
            f" the table's saves refused: {failed}"
        )
    for index, clients in enumerate(args.clients_list):
        if clients == 0 or index >= len(runs[0]) or runs[0][index]["clients"] != clients:
            continue
        push = med([r[index]["p99"] / r[0]["p99"] for r in runs])
        page = med([r[index]["page_p99"] / r[0]["page_p99"] for r in runs])
        blocks = sum(r[index]["blocked"] for r in runs)
        refused = sum(r[index]["answers"].get("429", 0) for r in runs)
        print(
            f"  K={clients}: push p99 {push:.2f}x and page p99 {page:.2f}x of K=0"
            f" (aim <= 1.5x); push p99 {med([r[index]['p99'] for r in runs]):.0f} ms beside"
            f" {med([r[0]['p99'] for r in runs]):.0f} ms; page p99"
            f" {med([r[index]['page_p99'] for r in runs]):.0f} ms beside"
            f" {med([r[0]['page_p99'] for r in runs]):.0f} ms; loop blocks over 0.1 s:"
            f" {blocks}; 429s: {refused}"
        )
    if before:
        one = args.clients_list.index(1) if 1 in args.clients_list else None
        if one is not None:
            now = med([r[one]["discard_to_board"] for r in runs])
            then = med([b["discard_to_board"] for b in before])
            print(
                f"  discard to board, K=1: {now:.2f} s beside {then:.2f} s in the request"
                f" ({args.before}): {now / then:.2f}x (aim <= 1.2x)"
            )
    print(f"  load averages over the runs: {runs[0][0]['load']} .. {runs[-1][-1]['load']}")


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="0,1,2,4,8", help="instant clients per phase")
    parser.add_argument("--moves", type=int, default=30, help="the table's moves per phase")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2, help="serve's web workers")
    parser.add_argument("--before", default="", help="a commit served as the K=1 anchor")
    parser.add_argument("--before-seconds", type=float, default=60.0)
    parser.add_argument("--phase-seconds", type=float, default=300.0)
    parser.add_argument("--settle", type=float, default=5.0, help="seconds before the moves")
    parser.add_argument("--no-monitor", dest="monitor", action="store_false")
    parser.add_argument("--redis", action="store_true", help="the queue and wake-ups on Redis")
    parser.add_argument("--hints", type=int, default=50, help="hints asked at once (0: none)")
    parser.add_argument(
        "--no-imports", dest="imports", action="store_false", help="no phase with a group's import"
    )
    args = parser.parse_args()
    args.clients_list = [int(c) for c in args.clients.split(",")]
    return args


def main() -> int:
    args = options()
    mb.raise_open_files()
    folder = Path(tempfile.mkdtemp(prefix="stall-bench-"))
    tree = worktree(args.before, folder) if args.before else None
    runs, before = [], []
    try:
        for repeat in range(args.repeat):
            print(f"run {repeat + 1} of {args.repeat}:", flush=True)
            if tree is not None:
                before.append(run_before(args, repeat, folder, tree))
            runs.append(run_app(args, repeat, folder))
    finally:
        if tree is not None:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(tree)],
                cwd=mb.ROOT,
                capture_output=True,
            )
    summary(runs, before, args)
    print(f"logs in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
