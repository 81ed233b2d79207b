"""Table games on many phones (issue 27's aims), each figure beside its anchors from
the same run: two minimal apps served the same way as the app, on the same database.

The app runs on 127.0.0.1 only, as ``python -m scorekeeper serve`` runs it (``--launch
serve``, the default: its workers, its worker class, its cap of open streams unless
``--streams-per-process`` sets ``PLAY_STREAMS_PER_PROCESS``) or under gunicorn on
``scorekeeper:create_app()`` with ``--worker-class`` (``--launch gunicorn``; gthread gets
the cap plus 8 threads, gevent the cap plus 1,000 connections). Its tables are started
before it by the new-table form's service (``start_table``); each phone sits down through
its seat's link over HTTP. The anchors (:data:`ANCHOR_APP`, a tiny Flask +
Flask-SQLAlchemy app) run under gunicorn with the worker class ``serve`` runs (or
``--worker-class``), on the same database kind, with as many workers:
- polling anchor: each phone's event stream SELECTs its table's version every 0.15 s;
- notified anchor: one listener per process wakes the streams of a table that moved
  (PostgreSQL NOTIFY with ``--database postgresql``, Redis publish with ``--redis``;
  on SQLite an in-process event, so that anchor runs ONE worker);
each has a move endpoint (bumps the version, and notifies) and a tiny board.

Phones (benchmarks/sse_client.py, raw asyncio sockets) behave as static/seats.js: each
holds its seat's event stream and, on a ``version`` event, holds the board that came with
it or fetches its board; refused (503) it polls the version every 2 s and reopens after
``Retry-After``. One table plays (its 8 phones in this process; the mover asks for its
legal moves between moves, outside every measured window) while the other tables' phones
only listen (ONE more process, however many tables). Figures, per server and number of
open tables:
- push latency: from sending a move to each phone holding the new board (per phone and
  move): p99 and median in ms; moves whose update missed a phone for 10 s, and moves
  whose requests failed (refused, or no answer in 30 s);
- CPU per move: the CPU (user + system, /proc, the server's processes and the database
  server's) spent between sending a move and the last phone holding its board, beside
  that wall time;
- idle CPU of one open table: the server's CPU (its processes' and the database
  server's) over ``--idle-seconds`` of wall time with no stream open, then as long with
  the table's 8 streams open, nothing moving, each as % of one core; the table's cost is
  the difference (the raw figures are printed too: they hold each server's own timers,
  gunicorn's heartbeats, PostgreSQL's and Redis' housekeeping);
- with several tables open, a page (the app: the game page ``/play/<slug>``; an anchor:
  its page) loaded over and over while the table plays: p99 in ms, beside the same page
  with no stream open; what became of the listening phones' streams; and the server's
  CPU over the phase, % of one core. The listening phones arrive at 100 a second
  (benchmarks/sse_client.py ``ARRIVALS``: each sits down, then opens its stream; 8,000
  phones in 80 s), as people do, not all in the same second.
Each server is started afresh for each of ``--repeat`` rounds (the three alternate);
the aims table gives the medians of the repeats, each ratio the median of the repeats'
ratios, and the range of the machine's load (os.getloadavg) over the phases it sums up.
A phase with more tables than ``--anchor-tables`` (``--tables 1000``: 8,000 streams)
measures the app alone against the aim's absolute bounds (every stream held, push p99
under 300 ms, page p99 under 100 ms). Every phase is bounded in moves and in time
(``--phase-seconds``); every process started here is stopped at the end.

    python benchmarks/multi_bench.py [--tables 1,8] [--moves 40] [--repeat 3]
        [--database sqlite|postgresql] [--redis] [--launch serve|gunicorn]
        [--worker-class gthread|gevent] [--workers 2] [--streams-per-process N]
    python benchmarks/multi_bench.py --tables 1000 --repeat 1 --database postgresql --redis
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import logging
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.sse_client import (  # noqa: E402
    Phone,
    at_most,
    counts,
    open_streams,
    raise_open_files,
    request,
    stop_listening,
)

PHONES = 8
"""Phones at each table (the aims' tables of 8)."""
UPDATE_WAIT = 10.0
"""Seconds a move waits for every phone's update before it counts as missed."""

ANCHOR_APP = textwrap.dedent(
    """
    import json, os, threading, time
    from flask import Flask, Response, jsonify, stream_with_context
    from flask_sqlalchemy import SQLAlchemy
    from sqlalchemy import text

    # the scorekeeper's own SQLite settings (WAL, synchronous NORMAL, busy timeout 5 s):
    import scorekeeper.extensions  # noqa: F401  its "connect" listener

    URL, MODE, BUS = (os.environ[k] for k in ("ANCHOR_URL", "ANCHOR_MODE", "ANCHOR_BUS"))
    app = Flask(__name__)
    app.config["SQLALCHEMY_DATABASE_URI"] = URL
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"pool_size": 10, "max_overflow": 22}
    db = SQLAlchemy(app)
    woken, changed, started = {}, threading.Condition(), []

    def version(table):
        found = db.session.execute(text("SELECT version FROM tables WHERE id = :t"), {"t": table})
        value = found.scalar_one()
        db.session.rollback()
        return value

    def wake(table):
        with changed:
            woken[table] = woken.get(table, 0) + 1
            changed.notify_all()

    def listen():
        if BUS == "postgresql":
            import psycopg
            with psycopg.connect(os.environ["ANCHOR_PSYCOPG"], autocommit=True) as conn:
                conn.execute("LISTEN anchor")
                for note in conn.notifies():
                    wake(int(note.payload))
        elif BUS == "redis":
            import redis
            bus = redis.Redis.from_url(os.environ["REDIS_URL"]).pubsub()
            bus.subscribe("anchor")
            for message in bus.listen():
                if message["type"] == "message":
                    wake(int(message["data"]))

    def listening():
        with changed:
            if not started and BUS != "memory":
                started.append(threading.Thread(target=listen, daemon=True))
                started[0].start()

    def polled(table):
        last, spoke = None, time.monotonic()
        while True:
            now = version(table)
            if now != last:
                last, spoke = now, time.monotonic()
                yield f"event: version\\ndata: {json.dumps({'version': now})}\\n\\n"
            elif time.monotonic() - spoke > 10:
                spoke = time.monotonic()
                yield ": still here\\n\\n"
            time.sleep(0.15)

    def notified(table):
        last = None
        while True:
            seen = woken.get(table, 0)
            now = version(table)
            if now != last:
                last = now
                yield f"event: version\\ndata: {json.dumps({'version': now})}\\n\\n"
            with changed:
                if not changed.wait_for(lambda: woken.get(table, 0) != seen, timeout=10):
                    yield ": still here\\n\\n"

    @app.get("/t/<int:table>/events")
    def events(table):
        listening()
        body = stream_with_context((polled if MODE == "poll" else notified)(table))
        return Response(body, mimetype="text/event-stream", headers={"Cache-Control": "no-store"})

    @app.post("/t/<int:table>/move")
    def move(table):
        bump = text("UPDATE tables SET version = version + 1 WHERE id = :t RETURNING version")
        now = db.session.execute(bump, {"t": table}).scalar_one()
        if BUS == "postgresql":
            db.session.execute(text("SELECT pg_notify('anchor', :t)"), {"t": str(table)})
        db.session.commit()
        if BUS == "redis":
            import redis
            redis.Redis.from_url(os.environ["REDIS_URL"]).publish("anchor", table)
        elif BUS == "memory":
            wake(table)
        return jsonify(version=now)

    @app.get("/t/<int:table>/board")
    def board(table):
        now = version(table)
        return jsonify(version=now, board=f"<p>The board of table {table} at {now}</p>")

    @app.get("/page")
    def page():
        count = db.session.execute(text("SELECT count(*) FROM tables")).scalar_one()
        return f"<!doctype html><title>Tables</title><p>{count} tables</p>"
    """
)
"""The anchors: one app, its stream polling (``ANCHOR_MODE=poll``) or woken by its
process's one listener (``notify``; ``ANCHOR_BUS`` memory, postgresql or redis)."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 just now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tree_cpu(roots: list[int]) -> float:
    """CPU seconds (user + system) of the processes ``roots`` and all their descendants,
    the reaped ones included (their parents' children-times), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    spent: dict[int, float] = {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.split("/")[2])
        parents[pid] = int(fields[1])
        spent[pid] = sum(int(f) for f in fields[11:15]) / tick
    inside = set(roots)
    for pid in sorted(parents, key=lambda p: p):
        chain, at = [], pid
        while at not in inside and at in parents and at > 1:
            chain.append(at)
            at = parents[at]
        if at in inside:
            inside.update(chain)
    return sum(spent.get(pid, 0.0) for pid in inside)


def p99(values: list[float]) -> float:
    """The 99th percentile (nearest rank); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, -(-len(ordered) * 99 // 100) - 1))]


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes), as text."""
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def stop_group(process: subprocess.Popen[bytes]) -> None:
    """Kill a process started in a session of its own, and everything in that session."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=30)


def wait_answering(process: subprocess.Popen[bytes], port: int, path: str, what: str) -> None:
    """Return once 127.0.0.1:``port`` answers GET ``path`` (within 120 s); else stop."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{what} exited with status {process.returncode}")
        try:
            asyncio.run(request(port, "GET", path))
            return
        except (OSError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    raise SystemExit(f"{what} did not answer on port {port} within 120 s")


def start(command: list[str], env: dict[str, str], cwd: Path, log: Path) -> Any:
    """``command`` in a session of its own (so :func:`stop_group` stops it all)."""
    with log.open("ab") as out:
        return subprocess.Popen(
            command,
            cwd=cwd,
            env=os.environ | env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


# --- databases ------------------------------------------------------------------------


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    path = found[-1] if found else shutil.which(name)
    if path is None:
        raise SystemExit(f"--database postgresql needs PostgreSQL's {name}")
    return path


def _as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextmanager
def postgresql(folder: Path) -> Iterator[tuple[str, int]]:
    """A throwaway PostgreSQL server on a socket in ``folder`` (as tests/postgres.py
    starts one; 400 connections): yields its socket folder and its postmaster's pid."""
    data, sockets = folder / "pgdata", folder / "pgsock"
    sockets.mkdir()
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        shutil.chown(sockets, "postgres")
    options = f"-k {sockets} -c listen_addresses='' -c fsync=off -c max_connections=400"
    initdb = [_pg_bin("initdb"), "--no-sync", "-D", str(data), "-A", "trust", "-U", "postgres"]
    subprocess.run(_as_server_user(initdb), check=True, capture_output=True)
    pg_ctl = _pg_bin("pg_ctl")
    begin = [pg_ctl, "-D", str(data), "-o", options, "-w", "-l", str(folder / "pg.log"), "start"]
    subprocess.run(_as_server_user(begin), check=True, capture_output=True)
    try:
        yield str(sockets), int((data / "postmaster.pid").read_text().split()[0])
    finally:
        stop = [pg_ctl, "-D", str(data), "-m", "immediate", "stop"]
        subprocess.run(_as_server_user(stop), capture_output=True)


def create_database(sockets: str, name: str) -> str:
    """A new database on the throwaway server; its SQLAlchemy URL."""
    import psycopg

    with psycopg.connect(host=sockets, user="postgres", dbname="postgres") as conn:
        conn.autocommit = True
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql+psycopg://postgres@/{name}?host={sockets}"


@contextmanager
def redis_server(folder: Path) -> Iterator[tuple[str, int]]:
    """A throwaway redis-server on a free loopback port: yields its URL and its pid."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("--redis needs redis-server (apt-get install -y redis-server)")
    port = free_port()
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    process = start([*command, "--appendonly", "no"], {}, folder, folder / "redis.log")
    try:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0", process.pid
    finally:
        stop_group(process)


# --- the servers ----------------------------------------------------------------------


@dataclass
class Table:
    """One table's phones as paths: each phone's seat link ("" at an anchor), event
    stream, board and version poll; the table's ``base`` path (its moves under it) and
    the ``page`` loaded meanwhile."""

    links: list[str]
    events: list[str]
    boards: list[str]
    polls: list[str]
    base: str
    page: str

    def phones(self, port: int) -> list[Phone]:
        """A phone per seat (not yet sat down)."""
        paths = zip(self.events, self.boards, self.polls, strict=True)
        return [Phone(port, events, board, poll) for events, board, poll in paths]

    def rows(self) -> list[list[str]]:
        """Each phone as ``[link, events, board, poll]`` (benchmarks/sse_client.py)."""
        return [list(r) for r in zip(self.links, self.events, self.boards, self.polls, strict=True)]


@dataclass
class Server:
    """A running server to measure: its name, port, process, the pids whose CPU counts
    (its process and the database server's), its tables, and how a move is chosen."""

    name: str
    port: int
    process: Any
    cpu_roots: list[int]
    tables: list[Table]
    prepare: Callable[[Server, Table, list[Phone]], Awaitable[Any]]
    kind: str = ""
    figures: dict[str, Any] = field(default_factory=dict)


def gunicorn(app: str, args: Any, port: int, workers: int, connections: int) -> list[str]:
    """gunicorn running ``app`` with ``args.worker_class``: gthread with ``connections``
    plus 8 threads, gevent with ``connections`` plus 1,000 connections per worker."""
    kind = ["--worker-class", args.worker_class]
    if args.worker_class == "gthread":
        kind += ["--threads", str(connections + 8)]
    elif args.worker_class == "gevent":
        kind += ["--worker-connections", str(connections + 1000)]
    bind = ["--bind", f"127.0.0.1:{port}", "--keep-alive", "2", "--timeout", "30"]
    return [sys.executable, "-m", "gunicorn", "--workers", str(workers), *kind, *bind, app]


def make_tables(env: dict[str, str], count: int) -> list[Table]:
    """``count`` tables of :data:`PHONES` people, started by the app's own
    ``start_table`` (the new-table form's service); their phones' paths."""
    from scorekeeper import create_app
    from scorekeeper.play.tables import seating

    os.environ.update(env)
    logging.disable(logging.WARNING)  # the migrations' log lines
    app = create_app()
    logging.disable(logging.NOTSET)
    tables = []
    with app.app_context(), app.test_request_context():
        for _ in range(count):
            people = [seating.SeatChoice(f"P{i}") for i in range(2, PHONES + 1)]
            game = seating.start_table("P1", "standard", {}, people)
            base = f"/play/{game.slug}"
            links = [f"{base}/sit/{r.seat}/{r.token}" for r in seating.seat_rows(game)]
            tables.append(
                Table(
                    links,
                    [f"{base}/events"] * PHONES,
                    [f"{base}/board.json"] * PHONES,
                    [f"{base}/version"] * PHONES,
                    base,
                    base,
                )
            )
    return tables


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


async def app_move(server: Server, table: Table, phones: list[Phone]) -> Any:
    """The app's next move at ``table``: the mover phone, the path and the JSON body
    (the host's board says whose turn; the mover's ``state.json`` its legal moves);
    None when the game is over."""
    host = phones[0]
    board = (await request(server.port, "GET", host.board, host.headers())).json()
    assert isinstance(board, dict)
    body: dict[str, Any] = {"version": board["version"]}
    if board["turn"] is None:
        if "game is over" in board.get("text", ""):  # not "The round is over": next round
            return None
        mover, body["do"] = host, "next_round"
    else:
        mover = phones[board["turn"]]
        state = await request(server.port, "GET", f"{table.base}/state.json", mover.headers())
        found = state.json()
        assert isinstance(found, dict)
        body["action"] = choose(found["legal"])
    headers = {"Content-Type": "application/json"}
    return mover, f"{table.base}/move.json", json.dumps(body).encode(), headers


async def anchor_move(server: Server, table: Table, phones: list[Phone]) -> Any:
    """An anchor's move: the host POSTs to its table's move endpoint."""
    return phones[0], f"{table.base}/move", b"", {}


def start_app(args: Any, place: dict[str, Any], port: int) -> Any:
    """The app on 127.0.0.1:``port``, launched as ``args.launch`` says."""
    env = place["app_env"] | {"PYTHONPATH": str(args.app_root)}
    if args.streams_per_process:
        env["SCOREKEEPER_PLAY_STREAMS_PER_PROCESS"] = str(args.streams_per_process)
    if args.launch == "serve":
        command = [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(port), "--workers", str(args.workers)]
    else:
        cap = args.streams_per_process or 24
        command = gunicorn("scorekeeper:create_app()", args, port, args.workers, cap)
    process = start(command, env, args.app_root, place["logs"] / "app.log")
    wait_answering(process, port, "/healthz", "the app")
    return process


def start_anchor(args: Any, place: dict[str, Any], port: int, mode: str) -> Any:
    """An anchor (``mode`` poll or notify) on 127.0.0.1:``port``; ONE worker when it is
    notified in process (SQLite without Redis), else ``args.workers``."""
    bus = "redis" if args.redis else "postgresql" if args.database == "postgresql" else "memory"
    workers = 1 if (mode == "notify" and bus == "memory") else args.workers
    env = place["anchor_env"] | {"ANCHOR_MODE": mode, "ANCHOR_BUS": bus}
    connections = max(args.tables_list) * PHONES
    command = gunicorn("anchor_app:app", args, port, workers, connections)
    process = start(command, env, place["folder"], place["logs"] / f"anchor-{mode}.log")
    wait_answering(process, port, "/page", f"the {mode} anchor")
    return process


def serve_worker_class() -> str:
    """The worker class ``python -m scorekeeper serve`` runs (read from the command line
    it would run); "gthread" when that cannot be told."""
    try:
        from scorekeeper.__main__ import gunicorn_command

        words = gunicorn_command("127.0.0.1", 5000, 1)
    except (ImportError, TypeError, ValueError):
        return "gthread"
    for flag in ("--worker-class", "-k"):
        if flag in words:
            return str(words[words.index(flag) + 1])
    return "gthread"


def worker_kind(pid: int) -> str:
    """The gunicorn worker class in process ``pid``'s command line ("gthread" if none)."""
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return "?"
    for flag in ("--worker-class", "-k"):
        if flag in words:
            return words[words.index(flag) + 1]
    return "sync" if "gunicorn" in " ".join(words) else "?"


# --- measuring ------------------------------------------------------------------------


async def load_pages(
    server: Server, phone: Phone, page: str, stop: asyncio.Event, failed: Counter[str]
) -> list[float]:
    """``page`` loaded one after another (0.1 s apart) until ``stop``: each load's time
    in ms (a failure, counted in ``failed`` by its status or error, counts as
    :data:`UPDATE_WAIT` seconds at least)."""
    times: list[float] = []
    while not stop.is_set():
        began, why = time.monotonic(), ""
        try:
            answer = await request(server.port, "GET", page, phone.headers())
            why = "" if answer.status == 200 else str(answer.status)
        except (OSError, ConnectionError, TimeoutError) as error:
            why = type(error).__name__
        took = (time.monotonic() - began) * 1000
        times.append(max(took, UPDATE_WAIT * 1000) if why else took)
        failed.update([why] if why else [])
        try:
            await asyncio.wait_for(stop.wait(), 0.1)
        except TimeoutError:
            pass
    return times


async def one_move(server: Server, table: Table, phones: list[Phone]) -> Any:
    """Make one move: each phone's latency (ms; :data:`UPDATE_WAIT` for a phone that
    missed it) and the CPU seconds from sending it to the last phone's update; None when
    the game is over, "failed" when a request of the move failed or was refused."""
    try:
        prepared = await server.prepare(server, table, phones)
    except (OSError, ConnectionError, TimeoutError, ValueError, LookupError, TypeError):
        return "failed"  # LookupError: no legal move for the mover (a stand-in plays)
    if prepared is None:
        return None
    mover, path, body, headers = prepared
    before = tree_cpu(server.cpu_roots)
    sent = time.monotonic()
    try:
        answer = await request(server.port, "POST", path, mover.headers() | headers, body)
        found = answer.json()
        assert isinstance(found, dict) and answer.status == 200
        futures = [phone.reached(int(found["version"])) for phone in phones]
    except (OSError, ConnectionError, TimeoutError, ValueError, KeyError, AssertionError):
        return "failed"
    done, missed = await asyncio.wait(futures, timeout=UPDATE_WAIT)
    spent = tree_cpu(server.cpu_roots) - before
    times = [(f.result() - sent) * 1000 for f in done] + [UPDATE_WAIT * 1000] * len(missed)
    return times, spent


async def play(server: Server, table: Table, phones: list[Phone], args: Any, probe: bool) -> Any:
    """``args.moves`` moves at ``table`` (fewer if its game ends), with the page loaded
    meanwhile when ``probe``: latencies, CPU per move, missed moves, page times."""
    stop, page_failed = asyncio.Event(), Counter[str]()
    pages = None
    if probe:
        pages = asyncio.create_task(load_pages(server, phones[0], table.page, stop, page_failed))
    each: list[float] = []
    cpu, wall, made, missed, failed = 0.0, 0.0, 0, 0, 0
    deadline = time.monotonic() + args.phase_seconds
    began, used = time.monotonic(), tree_cpu(server.cpu_roots)
    for _ in range(args.moves):
        outcome = None if time.monotonic() > deadline else await one_move(server, table, phones)
        if outcome is None:
            break
        if outcome == "failed":
            failed += 1
            continue
        times, spent = outcome
        each, cpu, wall, made = each + times, cpu + spent, wall + max(times), made + 1
        missed += max(times) >= UPDATE_WAIT * 1000
    stop.set()
    page_times = await pages if pages is not None else []
    share = (tree_cpu(server.cpu_roots) - used) / (time.monotonic() - began)
    return {
        "cpu_share": share,
        "p99": p99(each),
        "median": statistics.median(each) if each else float("nan"),
        "cpu_per_move": cpu / made if made else float("nan"),
        "wall_per_move": wall / made if made else float("nan"),
        "moves": made,
        "missed": missed,
        "failed": failed,
        "page_p99": p99(page_times),
        "pages": len(page_times),
        "page_failed": dict(page_failed),
    }


async def start_listeners(server: Server, tables: list[Table], seconds: float) -> Any:
    """The listening tables' phones in one more process (benchmarks/sse_client.py):
    the process and its counts once every stream has had its first answer."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(ROOT / "benchmarks" / "sse_client.py"),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        start_new_session=True,
    )
    assert process.stdin is not None and process.stdout is not None
    rows = [row for table in tables for row in table.rows()]
    spec = {"port": server.port, "seconds": seconds, "phones": rows}
    process.stdin.write(json.dumps(spec).encode() + b"\n")
    await process.stdin.drain()
    try:
        line = await asyncio.wait_for(process.stdout.readline(), seconds)
        return process, json.loads(line)["ready"]
    except (TimeoutError, ValueError, KeyError):
        await stop_listeners(process)
        raise SystemExit(f"{server.name}: the listening phones never got ready") from None


async def stop_listeners(process: Any) -> dict[str, int]:
    """Close the listening phones' process (its final counts; {} if it gave none)."""
    found: dict[str, int] = {}
    try:
        process.stdin.close()
        line = await asyncio.wait_for(process.stdout.readline(), 60)
        found = json.loads(line)["done"] if line else {}
    except (TimeoutError, ValueError, KeyError, OSError):
        pass
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        await process.wait()
    return found


async def with_tables(
    server: Server, args: Any, count: int, playing: Table, phones: list[Phone]
) -> Any:
    """``count`` open tables (``playing`` and ``count - 1`` listening): the play's figures,
    the listening phones' counts when they were ready and at the end, and the load."""
    listening = server.tables[args.repeat : args.repeat + count - 1]
    listeners, ready, opening = None, {}, {}
    if listening:
        bound = 600 + count * PHONES * 0.05 + args.phase_seconds
        stop, failed = asyncio.Event(), Counter[str]()
        probing = load_pages(server, phones[0], playing.page, stop, failed)
        probe = asyncio.create_task(probing)
        began = time.monotonic()
        try:
            listeners, ready = await start_listeners(server, listening, bound)
        finally:
            stop.set()
        took = time.monotonic() - began
        loads = await probe
        opening = {"per_second": len(listening) * PHONES / took, "page_p99": p99(loads)}
        opening |= {"seconds": took, "pages": len(loads)}
        await asyncio.sleep(args.settle)
    try:
        figures = await play(server, playing, phones, args, probe=bool(listening))
    finally:
        done = await stop_listeners(listeners) if listeners else {}
    return figures | {"ready": ready, "done": done, "opening": opening, "load": load()}


async def measure(server: Server, args: Any, repeat: int) -> dict[str, Any]:
    """One server's figures (see the module): the page alone, one table idle, then each
    number of open tables in ``args.tables_list`` (up to ``args.anchor_tables`` for an
    anchor)."""
    playing = server.tables[repeat]
    phones = playing.phones(server.port)
    await at_most([p.sit(link) for p, link in zip(phones, playing.links, strict=True) if link], 8)
    alone = [await page_once(server, phones[0], playing.page) for _ in range(args.pages)]
    await asyncio.sleep(args.settle)
    no_stream = await cpu_share(server, args.idle_seconds)
    until = time.monotonic() + 3600
    streams = await open_streams(phones, until, 60)
    await asyncio.sleep(args.settle)
    with_table = await cpu_share(server, args.idle_seconds)
    figures: dict[str, Any] = {
        "page_alone_p99": p99(alone),
        "idle": with_table - no_stream,
        "idle_raw": with_table,
        "idle_base": no_stream,
        "load": load(),
    }
    for count in args.tables_list:
        if server.name != "app" and count > args.anchor_tables:
            continue
        figures[count] = await with_tables(server, args, count, playing, phones)
        report_phase(server, count, figures[count])
    await stop_listening(phones, streams)
    figures["fates"] = counts(phones)
    return figures


async def cpu_share(server: Server, seconds: float) -> float:
    """The server's CPU (its processes' and the database server's) over the next
    ``seconds`` of wall time, as a share of one core."""
    before, began = tree_cpu(server.cpu_roots), time.monotonic()
    await asyncio.sleep(seconds)
    return (tree_cpu(server.cpu_roots) - before) / (time.monotonic() - began)


async def page_once(server: Server, phone: Phone, page: str) -> float:
    """One load of ``page`` by ``phone``: its time in ms."""
    began = time.monotonic()
    answer = await request(server.port, "GET", page, phone.headers())
    if answer.status != 200:
        raise SystemExit(f"{server.name}: {page} answered {answer.status}")
    return (time.monotonic() - began) * 1000


# --- the run --------------------------------------------------------------------------


def anchor_tables(env: dict[str, str], count: int) -> list[Table]:
    """The anchors' ``count`` tables (a version row each, in the anchors' database)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(env["ANCHOR_URL"])
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE tables (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)"))
        rows = [{"t": t, "v": 0} for t in range(count)]
        conn.execute(text("INSERT INTO tables (id, version) VALUES (:t, :v)"), rows)
    engine.dispose()
    return [
        Table(
            [""] * PHONES,
            [f"/t/{t}/events"] * PHONES,
            [f"/t/{t}/board"] * PHONES,
            [f"/t/{t}/board"] * PHONES,
            f"/t/{t}",
            "/page",
        )
        for t in range(count)
    ]


def prepare_place(args: Any, stack: ExitStack) -> dict[str, Any]:
    """The run's folder, databases (and Redis), the app's and the anchors' environments
    and tables, and the database server's pids (their CPU counts with each server's)."""
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="multi-bench-")))
    folder.chmod(0o777)
    place: dict[str, Any] = {"folder": folder, "db_pids": [], "logs": folder}
    if args.logs:
        place["logs"] = Path(args.logs)
        place["logs"].mkdir(parents=True, exist_ok=True)
    app_env = {
        "SCOREKEEPER_DATA": str(folder / "data"),
        "SECRET_KEY": "multi-bench-secret-key-of-32-characters",
        # every phone here comes from 127.0.0.1: lift the cap of streams per address
        "SCOREKEEPER_PLAY_STREAMS_PER_ADDRESS": "1000000",
    }
    anchor_env = {"PYTHONPATH": str(folder)}
    if args.database == "postgresql":
        sockets, pid = stack.enter_context(postgresql(folder))
        place["db_pids"].append(pid)
        app_env["DATABASE_URL"] = create_database(sockets, "scorekeeper")
        anchor_env["ANCHOR_URL"] = create_database(sockets, "anchor")
        anchor_env["ANCHOR_PSYCOPG"] = f"host={sockets} user=postgres dbname=anchor"
    else:
        app_env["DATABASE_URL"] = f"sqlite:///{folder / 'scorekeeper.sqlite3'}"
        anchor_env["ANCHOR_URL"] = f"sqlite:///{folder / 'anchor.sqlite3'}"
    if args.redis:
        url, pid = stack.enter_context(redis_server(folder))
        place["db_pids"].append(pid)
        app_env["REDIS_URL"] = anchor_env["REDIS_URL"] = url
    (folder / "anchor_app.py").write_text(ANCHOR_APP)
    count = args.repeat + max(args.tables_list) - 1
    place |= {"app_env": app_env, "anchor_env": anchor_env}
    place["app_tables"] = make_tables(app_env, count)
    place["anchor_tables"] = anchor_tables(anchor_env, args.repeat + args.anchor_tables - 1)
    return place


def run_server(name: str, args: Any, place: dict[str, Any], repeat: int) -> dict[str, Any]:
    """Start ``name`` (app, polling anchor, notified anchor), measure it, stop it."""
    port = free_port()
    if name == "app":
        process = start_app(args, place, port)
        tables, prepare = place["app_tables"], app_move
    else:
        process = start_anchor(args, place, port, "poll" if name.startswith("poll") else "notify")
        tables, prepare = place["anchor_tables"], anchor_move
    try:
        server = Server(name, port, process, [process.pid, *place["db_pids"]], tables, prepare)
        server.kind = worker_kind(process.pid)
        figures = asyncio.run(measure(server, args, repeat))
        return figures | {"kind": server.kind}
    finally:
        stop_group(process)


def report_phase(server: Server, count: int, f: dict[str, Any]) -> None:
    """One phase's line, as it ends."""
    streams = ""
    if f["ready"]:
        held = f["ready"].get("open now", 0)
        refused = f["ready"].get("refused 503", 0)
        streams = f"; listening phones: {held} streams open, {refused} refused (503)"
        streams += f", at the end {json.dumps(f['done'], sort_keys=True)}"
        opening = f["opening"]
        streams += (
            f"; while they opened ({opening['seconds']:.0f} s): {opening['per_second']:.0f}"
            f" phones a second sat down and opened their stream, page p99"
            f" {opening['page_p99']:.0f} ms ({opening['pages']} loads)"
        )
    page = ""
    if f["pages"]:
        page = f"; page p99 {f['page_p99']:.0f} ms ({f['pages']} loads, failed {f['page_failed']})"
    print(
        f"  {server.name:<16} {count:>4} table(s): push p99 {f['p99']:.0f} ms, median "
        f"{f['median']:.0f} ms, {f['moves']} moves ({f['missed']} missed, {f['failed']} failed); "
        f"CPU per move {f['cpu_per_move'] * 1000:.1f} ms, server CPU over the phase "
        f"{f['cpu_share'] * 100:.0f}% of a core{page}{streams}; load {f['load']}",
        flush=True,
    )


NAMES = ("polling anchor", "notified anchor", "app")
"""The servers, in the order each repeat runs them."""
SHOWN = ("app", "polling anchor", "notified anchor")
"""The servers, in the order the aims table shows them."""


def med(runs: list[dict[str, Any]], *keys: Any) -> float:
    """The median over the repeats of ``run[keys[0]][keys[1]]...`` (NaN if none)."""
    values = []
    for run in runs:
        value: Any = run
        for key in keys:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, float | int):
            values.append(float(value))
    return statistics.median(values) if values else float("nan")


def ratio(runs: dict[str, list[dict[str, Any]]], anchor: str, *keys: Any) -> float:
    """The median over the repeats of the app's figure over ``anchor``'s, same repeat."""
    pairs = zip(runs["app"], runs[anchor], strict=False)
    values = [med([a], *keys) / med([b], *keys) for a, b in pairs]
    values = [v for v in values if v == v and v not in (float("inf"),)]
    return statistics.median(values) if values else float("nan")


def loads(runs: dict[str, list[dict[str, Any]]], *keys: Any) -> str:
    """The range of the 1-minute load over the phases ``keys`` name, every server in
    ``runs`` and every repeat (``os.getloadavg`` when each phase ended)."""
    found = []
    for run in (r for name in runs for r in runs[name]):
        value: Any = run
        for key in keys:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, str):
            found.append(float(value.split("/")[0]))
    return f"load {min(found):.1f}-{max(found):.1f}" if found else "load ?"


def aim_line(
    runs: dict[str, list[dict[str, Any]]], keys: tuple[Any, ...], scale: float, digits: int
) -> str:
    """``app / polling / notified`` medians of the figure ``keys`` name, times ``scale``,
    with ``digits`` decimals."""
    return " / ".join(f"{med(runs[name], *keys) * scale:.{digits}f}" for name in SHOWN)


def summary(runs: dict[str, list[dict[str, Any]]], args: Any) -> None:
    """The aims table of issue 27: each figure beside its anchors, medians of the repeats,
    with the range of the machine's load while they were measured."""
    small = max((t for t in args.tables_list if t <= 8), default=None)
    one = 1 if 1 in args.tables_list else small
    print(f"\nAims (medians of {args.repeat} repeat(s); app / polling anchor / notified anchor)")
    print(
        f"- idle CPU of one open table of {PHONES} phones (with its streams minus without, "
        f"same server): {aim_line(runs, ('idle',), 100.0, 2)}% of a core over "
        f"{args.idle_seconds:.0f} s wall each (aim < 0.1%); raw with the table "
        f"{aim_line(runs, ('idle_raw',), 100.0, 2)}%, with no stream "
        f"{aim_line(runs, ('idle_base',), 100.0, 2)}%; {loads(runs, 'load')}"
    )
    if small is not None:
        print(
            f"- push p99 at {small} table(s) of {PHONES} phones: "
            f"{aim_line(runs, (small, 'p99'), 1, 0)} ms; app vs notified "
            f"{ratio(runs, 'notified anchor', small, 'p99'):.2f}x "
            f"(aim <= 1.5x); {loads(runs, small, 'load')}"
        )
    if one is not None:
        cpu = aim_line(runs, (one, "cpu_per_move"), 1000.0, 1)
        wall = aim_line(runs, (one, "wall_per_move"), 1, 0)
        print(
            f"- CPU per move with every phone's update, {one} table(s): {cpu} ms CPU in "
            f"{wall} ms wall; app vs polling "
            f"{ratio(runs, 'polling anchor', one, 'cpu_per_move'):.2f}x (aim <= 1.5x); "
            f"{loads(runs, one, 'load')}"
        )
    for count in (t for t in args.tables_list if t > 8):
        big_summary(runs["app"], count)
        print(f"  ({loads({'app': runs['app']}, count, 'load')})")


def big_summary(app: list[dict[str, Any]], count: int) -> None:
    """The aim's absolute bounds at ``count`` tables: every stream held, push p99 under
    300 ms, a page under 100 ms p99 (beside the page with no stream open)."""
    held = med(app, count, "ready", "open now") + PHONES
    at_end = med(app, count, "done", "open now") + PHONES
    refused = statistics.median(  # a phase with none refused counts no "refused 503"
        run.get(count, {}).get("ready", {}).get("refused 503", 0) for run in app
    )
    push, page = med(app, count, "p99"), med(app, count, "page_p99")
    made, failed = med(app, count, "moves"), med(app, count, "failed")
    cpu = med(app, count, "cpu_share") * 100
    met = min(held, at_end) >= count * PHONES and push < 300 and page < 100 and not failed
    alone = med(app, "page_alone_p99")
    rate, opening = med(app, count, "opening", "per_second"), med(app, count, "opening", "page_p99")
    print(
        f"- while the {count * PHONES - PHONES} listening phones arrived: {rate:.0f} a second sat"
        f" down and opened their stream (aim >= 100); page p99 {opening:.0f} ms beside"
        f" {alone:.0f} ms with no stream open: {opening / alone:.2f}x (aim <= 3x)"
    )
    print(
        f"- {count} open tables of {PHONES} phones ({count * PHONES} streams): {held:.0f} "
        f"streams open ({at_end:.0f} at the end), {refused:.0f} refused (503); "
        f"{made:.0f} moves made ({failed:.0f} failed), push p99 {push:.0f} ms (aim < 300), "
        f"page p99 {page:.0f} ms (aim < 100; {med(app, 'page_alone_p99'):.0f} ms with no "
        f"stream open); server CPU {cpu:.0f}% of a core: {'met' if met else 'NOT met'}"
    )


def options() -> argparse.Namespace:
    """The command line (see the module)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="1,8", help="open tables per phase (default 1,8)")
    parser.add_argument("--moves", type=int, default=40, help="moves per phase (default 40)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of the three servers")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--redis", action="store_true", help="a throwaway redis-server too")
    parser.add_argument("--launch", choices=("serve", "gunicorn"), default="serve")
    parser.add_argument(
        "--worker-class",
        default="",
        help="the anchors' (and --launch gunicorn's) worker class: gthread or gevent "
        "(default: the one serve runs)",
    )
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--streams-per-process",
        type=int,
        default=0,
        help="the app's PLAY_STREAMS_PER_PROCESS (default: as shipped)",
    )
    parser.add_argument("--anchor-tables", type=int, default=8, help="anchors up to this many")
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    parser.add_argument("--phase-seconds", type=float, default=300.0, help="moves stop then")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds after streams open")
    parser.add_argument("--pages", type=int, default=50, help="pages loaded with no stream open")
    parser.add_argument(
        "--app-root",
        type=Path,
        default=ROOT,
        help="the checkout whose app to measure (default: this one), e.g. a `git archive` "
        "of another branch",
    )
    parser.add_argument("--logs", default="", help="keep the servers' logs in this folder")
    args = parser.parse_args()
    args.tables_list = sorted({int(t) for t in args.tables.split(",")})
    args.app_root = args.app_root.resolve()
    if args.app_root != ROOT:  # another checkout: read, never written to
        sys.dont_write_bytecode = True
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    sys.path.insert(0, str(args.app_root))  # make_tables and serve_worker_class read it
    args.worker_class = args.worker_class or serve_worker_class()
    if min(args.tables_list) < 1 or args.repeat < 1 or args.moves < 1:
        parser.error("--tables, --repeat and --moves are counts of at least 1")
    return args


def main() -> int:
    """Run the benchmark (see the module); every process it starts is stopped at the end."""
    args = options()
    files = raise_open_files()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in NAMES}
    with ExitStack() as stack:
        place = prepare_place(args, stack)
        print(
            f"{PHONES} phones per table, 127.0.0.1, {args.database}"
            f"{' + redis' if args.redis else ''}, app via {args.launch}, {args.workers} workers, "
            f"anchors {args.worker_class}; "
            f"{args.moves} moves per phase; open files {files}; load {load()}",
            flush=True,
        )
        for repeat in range(args.repeat):
            for name in NAMES:
                figures = run_server(name, args, place, repeat)
                runs[name].append(figures)
                print(
                    f"  {name:<16} ({figures['kind']}): idle table "
                    f"{figures['idle'] * 100:.2f}% of a core ({figures['idle_raw'] * 100:.2f}% "
                    f"with its 8 streams, {figures['idle_base'] * 100:.2f}% with none), "
                    f"page alone p99 {figures['page_alone_p99']:.0f} ms, "
                    f"load {figures['load']}",
                    flush=True,
                )
        summary(runs, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
