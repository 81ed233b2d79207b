"""A table game on eight phones under gunicorn (gthread, 127.0.0.1 only): how long from a
move to every phone's update, and how many open tables one worker holds.

Each phone is a thread holding the table's event stream (``/play/<slug>/events``, each
phone with its own seat's session cookie, reconnecting when the stream ends) and, on each
``version`` event, fetching its board (``/board.json``) as static/seats.js does. One phone
at a time makes its move (``move.json``: draw, lay down, lay off, discard, or "Next round"
after a round). Figures:
- update latency: from sending a move to a phone holding the new board, per phone and
  per move (the slowest of the eight), median and p99, in milliseconds;
- CPU: the server's CPU time (user + system, from /proc) beside the wall time of the
  phase, and per open table per second while the other tables' phones only listen.
Phases: one table (one worker, threads enough for its streams), then ``--tables`` open
tables on ONE worker (every table's eight phones streaming, one table playing): a
worker holds a table per eight of its threads while its CPU allows; the p99 says whether
it still updates every phone in time.

    python benchmarks/multi_bench.py [--moves 60] [--tables 1,4,8] [--phones 8]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.web_bench import answering, free_port, server_cpu  # noqa: E402


def serve(port: int, threads: int, database: str, cwd: Path) -> Any:
    """One gunicorn gthread worker with ``threads`` threads, as ``serve`` runs it (the
    cap of open streams ``PAGE_THREADS`` below them)."""
    import subprocess

    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--workers",
        "1",
        "--worker-class",
        "gthread",
        "--threads",
        str(threads),
        "--keep-alive",
        "2",
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
        "scorekeeper:create_app()",
    ]
    from scorekeeper.__main__ import PAGE_THREADS

    streams = str(threads - PAGE_THREADS)  # as ``serve`` does: streams never take every thread
    env = os.environ | {
        "DATABASE_URL": database,
        "PYTHONPATH": str(ROOT),
        "PLAY_STREAMS_PER_PROCESS": streams,
    }
    process = subprocess.Popen(command, cwd=cwd, env=env, start_new_session=True)
    return answering(process, port, "/play", "the table server")


def make_tables(database: str, count: int, phones: int) -> list[tuple[str, list[str]]]:
    """``count`` tables of ``phones`` people each; their slugs and seat link paths."""
    from flask_migrate import upgrade

    from scorekeeper import create_app
    from scorekeeper.play import shared_seats

    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": "bench"})
    tables = []
    with app.app_context():
        upgrade()
        for _ in range(count):
            with app.test_request_context():
                people = [shared_seats.SeatChoice(f"P{i}") for i in range(2, phones + 1)]
                game = shared_seats.start_table("P1", "standard", {}, people)
                rows = shared_seats.seat_rows(game)
                links = [f"/play/{game.slug}/sit/{r.seat}/{r.token}" for r in rows]
                tables.append((game.slug, links))
    return tables


class Phone:
    """A phone at a table: its cookie (its seat), a stream thread, a board connection."""

    def __init__(self, port: int, slug: str) -> None:
        self.port, self.slug = port, slug
        self.cookie = ""
        self.boards: dict[int, float] = {}
        self.seen = threading.Condition()
        self.stop = False

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Cookie": self.cookie} if self.cookie else {}
        data = None
        if body is not None:
            data, headers["Content-Type"] = json.dumps(body), "application/json"
        connection.request(method, path, data, headers)
        response = connection.getresponse()
        raw = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        connection.close()
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(raw) if kind.startswith("application/json") else raw

    def listen(self) -> None:
        since = 0
        while not self.stop:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            connection.request(
                "GET", f"/play/{self.slug}/events?since={since}", headers={"Cookie": self.cookie}
            )
            response = connection.getresponse()
            for raw in response:
                line = raw.decode().strip()
                if not line.startswith("data:") or self.stop:
                    continue
                since = json.loads(line[5:])["version"]
                status, board = self.call("GET", f"/play/{self.slug}/board.json")
                if status == 200:
                    with self.seen:
                        self.boards[board["version"]] = time.monotonic()
                        self.seen.notify_all()
            connection.close()


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Plain play: lay down, lay off, draw from the stock, else discard the first card."""
    for kind in ("lay_down", "lay_off"):
        for action in legal:
            if action["type"] == kind:
                return action
    for action in legal:
        if action["type"] == "draw" and action.get("from") == "stock":
            return action
    return next((a for a in legal if a["type"] == "discard"), legal[0])


def seat_phones(port: int, slug: str, links: list[str], count: int) -> list[Phone]:
    """A phone per seat, each sat down through its seat's link (seat 0 the host's)."""
    phones = [Phone(port, slug) for _ in range(count)]
    for phone, link in zip(phones, links, strict=True):
        phone.call("GET", link)
    return phones


def play(phones: list[Phone], moves: int) -> tuple[list[float], list[float]]:
    """Make ``moves`` moves; per-phone and per-move (slowest phone) latencies in ms."""
    each: list[float] = []
    slowest: list[float] = []
    host = phones[0]
    for _ in range(moves):
        status, board = host.call("GET", f"/play/{host.slug}/board.json")
        version = board["version"]
        if board["turn"] is None:
            body: dict[str, Any] = {"version": version, "do": "next_round"}
            mover = host
        else:
            mover = phones[board["turn"]]
            legal = mover.call("GET", f"/play/{host.slug}/state.json")[1]["legal"]
            body = {"version": version, "action": choose(legal)}
        sent = time.monotonic()
        status, answer = mover.call("POST", f"/play/{host.slug}/move.json", body)
        assert status == 200, answer
        new = answer["version"]
        times = []
        for phone in phones:
            with phone.seen:
                phone.seen.wait_for(lambda p=phone, v=new: v in p.boards, timeout=10)
                times.append((phone.boards.get(new, time.monotonic() + 10) - sent) * 1000)
        each += times
        slowest.append(max(times))
    return each, slowest


def p99(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.99) - 1)]


def phase(tables: int, args: Any, directory: Path) -> dict[str, float]:
    database = f"sqlite:///{directory / f'multi-{tables}.sqlite3'}"
    made = make_tables(database, tables, args.phones)
    port = free_port()
    server = serve(port, tables * args.phones + 8, database, directory)
    try:
        everyone: list[list[Phone]] = []
        for slug, links in made:
            everyone.append(seat_phones(port, slug, links, args.phones))
        for phones in everyone:
            for phone in phones:
                threading.Thread(target=phone.listen, daemon=True).start()
        time.sleep(1.5)
        cpu, wall = server_cpu(server.pid), time.monotonic()
        time.sleep(3)
        idle = (server_cpu(server.pid) - cpu) / (time.monotonic() - wall)
        cpu, wall = server_cpu(server.pid), time.monotonic()
        each, slowest = play(everyone[0], args.moves)
        used, spent = server_cpu(server.pid) - cpu, time.monotonic() - wall
        for phones in everyone:
            for phone in phones:
                phone.stop = True
        return {
            "tables": tables,
            "median": statistics.median(each),
            "p99": p99(each),
            "slowest_median": statistics.median(slowest),
            "slowest_p99": p99(slowest),
            "cpu_s": used,
            "wall_s": spent,
            "idle_cpu_per_table": idle / tables,
        }
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # master and worker: no graceful wait
        server.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--tables", default="1,4,8")
    parser.add_argument("--phones", type=int, default=8)
    args = parser.parse_args()
    print(
        f"{args.phones} phones per table (all people), one gunicorn gthread worker, "
        f"127.0.0.1, SQLite, {args.moves} moves; latency = move sent -> phone holds new board"
    )
    with tempfile.TemporaryDirectory() as folder:
        for tables in (int(t) for t in args.tables.split(",")):
            f = phase(tables, args, Path(folder))
            print(
                f"{tables:>2} open table(s): per phone median {f['median']:.0f} ms, "
                f"p99 {f['p99']:.0f} ms; all {args.phones} phones median "
                f"{f['slowest_median']:.0f} ms, p99 {f['slowest_p99']:.0f} ms; "
                f"server CPU {f['cpu_s']:.2f} s over {f['wall_s']:.2f} s wall; "
                f"idle CPU per open table {f['idle_cpu_per_table'] * 100:.1f}% of a core",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
