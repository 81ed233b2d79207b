"""Web costs of the scorekeeper under gunicorn (2 workers, 127.0.0.1 only), each a ratio to
a minimal Flask + Flask-SQLAlchemy app served the same way in the same run.

Both apps use SQLite set up alike on every connection (journal_mode=WAL,
synchronous=NORMAL, busy_timeout=5000). Measured at ``--clients`` concurrent clients
(threads, http.client), each phase bounded by time and count, phases of the two apps
alternating ``--repeat`` times; every figure is the MEDIAN of the repeats, and each ratio
the median of the repeats' ratios (each to its anchor measured seconds before):
- requests per second, median (wall time per request) and p99 latency;
- CPU per request: the CPU time (user + system) the server's processes spent during the
  phase, from /proc, divided by the requests served (the client threads are not counted).
Workloads:
- the game page of a 4-player game with 12 rounds, and of one with 1,000 rounds (GET, a
  view link), against the minimal app's page listing 8 rows from one template file
  (compiled once, as Flask keeps its templates);
- saving a round as the game page's round entry sends it (POST with ``Accept:
  application/json``, answered 201 with the page's changing part; CSRF token and edit
  right in the session, the form's checks, a fresh nonce and the game's version each
  time; each client saves to its own game) into games of 12 rounds and of 1,000 rounds,
  against the minimal app's one-row insert;
- the scoring contract's API (``POST /api/v1/score``, rate limited as served, with a
  limit no client here reaches) scoring score_bench's round (4 players, 10 melds, 6
  lay-offs), against the minimal app answering the same JSON body with itself
  (``jsonify(request.get_json())``: the JSON load and dump of score_bench's anchor,
  served the same way): where the scorer decides a machine's capacity.
Every phase runs at the same ``--clients`` (the saves into long games too: one long game
per client), so each ratio compares like with like.
Then the bytes (gzip-compressed) to first show the game page with its CSS and JS.

Floors (issue 24, "one path per job"): game page CPU <= 3x the minimal GET's and flat to
1,000 rounds; saving a round (CSRF, session and version check) <= 3.5x the minimal
insert's and flat in rounds; the game page under 30 KB gzip.

    python benchmarks/web_bench.py [--seconds 3] [--clients 16] [--max-requests 4000]
                                    [--repeat 3] [--long 1000]
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from score_bench import TEXT as ROUND_TEXT  # noqa: E402  the round score() is timed on

NAMES = ["Ann", "Bob", "Cat", "Dee"]

MINIMAL_APP = textwrap.dedent(
    """
    import os
    from flask import Flask, jsonify, render_template, request
    from flask_sqlalchemy import SQLAlchemy
    from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

    # the scorekeeper's own SQLite settings (WAL, synchronous NORMAL, busy timeout 5 s):
    import scorekeeper.extensions  # noqa: F401  its "connect" listener

    class Base(DeclarativeBase):
        pass

    db = SQLAlchemy(model_class=Base)

    class Row(db.Model):
        id: Mapped[int] = mapped_column(primary_key=True)
        name: Mapped[str]
        points: Mapped[int]

    app = Flask(__name__)
    app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["MINIMAL_DATABASE_URL"]
    db.init_app(app)

    @app.get("/")
    def index():
        rows = db.session.execute(db.select(Row).order_by(Row.id).limit(8)).scalars()
        return render_template("rows.html", rows=rows)

    @app.post("/rows")
    def insert():
        db.session.add(Row(name=request.form["name"], points=int(request.form["points"])))
        db.session.commit()
        return "", 303, {"Location": "/"}

    @app.post("/json")
    def echo():
        return jsonify(request.get_json())
    """
)
"""The minimal app as Flask's tutorial writes one: its page rendered from a template
file (``templates/rows.html``, compiled once by Flask's Jinja loader and kept, as in
any Flask app), its insert one ORM object added and committed, then 303 to the page."""
MINIMAL_TEMPLATE = """<!doctype html><html><head><title>Rows</title></head><body><ul>
{% for r in rows %}<li>{{ r.name }}: {{ r.points }}</li>{% endfor %}</ul></body></html>
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(app: str, port: int, env: dict[str, str], cwd: Path) -> subprocess.Popen[bytes]:
    """Start gunicorn (2 sync workers) on 127.0.0.1:port and wait until it answers a
    request (its workers booted: on a loaded machine that takes longer than binding)."""
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--workers",
        "2",
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
        app,
    ]
    process = subprocess.Popen(command, cwd=cwd, env=os.environ | env)
    return answering(process, port, "/", app)


def answering(
    process: subprocess.Popen[bytes], port: int, path: str, what: str
) -> subprocess.Popen[bytes]:
    """``process`` once 127.0.0.1:port answers GET ``path`` (an answer, not just the open
    port: the workers have booted), within 90 s; else it is killed and the run stops."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", path)
            connection.getresponse().read()
            connection.close()
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"gunicorn did not start: {what}")


def setup_scorekeeper(database: str, games: int, rounds: int) -> list[tuple[str, str]]:
    """``games`` games of 4 players with ``rounds`` totals rounds each (a target of 10,000
    so that none ends); returns their (view, edit) tokens."""
    from flask_migrate import upgrade

    from scorekeeper import create_app
    from scorekeeper.table import services as sheet

    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": "bench"})
    tokens = []
    with app.app_context():
        upgrade()
        for _ in range(games):
            game = sheet.start_game(NAMES, "standard", {"target": 10_000})
            for n in range(rounds):
                data = {
                    "went_out": NAMES[n % 4],
                    "shown": dict.fromkeys(NAMES, 8),
                    "in_hand": {p: (0 if p == NAMES[n % 4] else 4) for p in NAMES},
                    "adjust": {},
                }
                sheet.record_round(game, "totals", data, f"seed-{n}", game.version)
            tokens.append((game.view_token, game.edit_token))
    return tokens


def setup_minimal(directory: Path, database: str) -> None:
    (directory / "minimal_app.py").write_text(MINIMAL_APP)
    (directory / "templates").mkdir(exist_ok=True)
    (directory / "templates" / "rows.html").write_text(MINIMAL_TEMPLATE)
    code = (
        "from minimal_app import app, db, Row\nwith app.app_context():\n db.create_all()\n"
        " db.session.add_all([Row(name=f'row {i}', points=i) for i in range(8)])\n"
        " db.session.commit()\n"
    )
    subprocess.run(
        [sys.executable, "-c", code],
        cwd=directory,
        check=True,
        env=os.environ | {"MINIMAL_DATABASE_URL": database},
    )


class Client:
    """One keep-alive connection (reopened when the server closes it) with cookies;
    ``frozen`` keeps the session cookie as it is (a phone following the redirect would
    read the "Round saved." flash; the benchmark does not, so it does not carry it)."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookie = ""
        self.frozen = False

    def request(
        self, method: str, path: str, form: dict[str, str] | str | None = None, accept: str = ""
    ) -> tuple[int, bytes]:
        """``form`` a dict is sent form-encoded, a text as JSON."""
        headers = {"Cookie": self.cookie} if self.cookie else {}
        if accept:
            headers["Accept"] = accept
        body = None
        if isinstance(form, str):
            body = form
            headers["Content-Type"] = "application/json"
        elif form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.connection.request(method, path, body, headers)
            response = self.connection.getresponse()
        except (http.client.HTTPException, OSError):
            self.connection.close()
            self.connection.request(method, path, body, headers)
            response = self.connection.getresponse()
        data = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie and not self.frozen:
            self.cookie = cookie.split(";", 1)[0]
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
        return response.status, data


def server_cpu(master: int) -> float:
    """CPU seconds (user + system) used so far by gunicorn's master ``master`` and its
    workers, read from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [master]
    children = Path(f"/proc/{master}/task/{master}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def run_phase(
    clients: list[Client], work, seconds: float, limit: int, master: int
) -> dict[str, float]:
    """Each client calls ``work(index, client)`` until time or the total count runs out;
    ``work`` returns True when the request succeeded. Latencies in milliseconds; ``cpu``
    the server's CPU milliseconds per request."""
    latencies: list[float] = []
    failures = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    counter = iter(range(limit))

    def loop(index: int, client: Client) -> None:
        while time.monotonic() < stop:
            with lock:
                if next(counter, None) is None:
                    return
            start = time.perf_counter()
            ok = work(index, client)
            elapsed = (time.perf_counter() - start) * 1000
            with lock:
                latencies.append(elapsed)
                failures[0] += 0 if ok else 1

    threads = [threading.Thread(target=loop, args=(i, c)) for i, c in enumerate(clients)]
    cpu_before = server_cpu(master)
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - began
    cpu = server_cpu(master) - cpu_before
    latencies.sort()
    return {
        "requests": len(latencies),
        "failures": failures[0],
        "rps": len(latencies) / wall,
        "median": statistics.median(latencies),
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "cpu": cpu * 1000 / max(1, len(latencies)),
    }


def _savers(port: int, tokens: list[tuple[str, str]]):
    """One client per game, each with the edit right to its game: ``(clients, save)``."""
    savers, forms = [], []
    for slug, edit in tokens:
        client = Client(port)
        client.request("GET", f"/games/{slug}/edit/{edit}")
        status, body = client.request("GET", f"/games/{slug}/rounds/new")
        csrf = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', body).group(1)
        version = re.search(rb'name="version" type="hidden" value="(\d+)"', body).group(1)
        client.frozen = True  # keep the edit right; the flash each save adds is not carried
        savers.append(client)
        forms.append({"slug": slug, "csrf": csrf.decode(), "version": int(version)})

    def save(i: int, client: Client) -> bool:
        form = forms[i]
        data = {
            "csrf_token": form["csrf"],
            "nonce": uuid.uuid4().hex,
            "mode": "totals",
            "version": str(form["version"]),
            "action": "save",
            "went_out": "0",
        }
        for seat in range(4):
            data |= {f"shown-{seat}": "0", f"in_hand-{seat}": "0", f"adjust-{seat}": ""}
        path = f"/games/{form['slug']}/rounds/new"
        status, _ = client.request("POST", path, data, accept="application/json")
        form["version"] += 1
        return status == 201

    return savers, save


def scorekeeper_work(port: int, short: list[tuple[str, str]], long: list[tuple[str, str]], args):
    """The scorekeeper's workloads: the game page at 12 and at ``--long`` rounds, saving
    a round into games of 12 and of ``--long`` rounds."""

    def viewers(slug: str):
        clients = [Client(port) for _ in range(args.clients)]
        page = f"/games/{slug}"
        assert clients[0].request("GET", page)[0] == 200
        return clients, lambda i, c: c.request("GET", page)[0] == 200

    scorers = [Client(port) for _ in range(args.clients)]
    assert scorers[0].request("POST", "/api/v1/score", ROUND_TEXT)[0] == 200
    return {
        "score API": (
            scorers,
            lambda i, c: c.request("POST", "/api/v1/score", ROUND_TEXT)[0] == 200,
        ),
        "game page, 12 rounds": viewers(short[0][0]),
        f"game page, {args.long} rounds": viewers(long[0][0]),
        "save round, 12 rounds": _savers(port, short[1:]),
        f"save round, {args.long} rounds": _savers(port, long[1:]),
    }


def minimal_work(port: int, args):
    """The minimal app's three workloads: its page of 8 rows, its insert and its JSON
    echo."""
    clients = [Client(port) for _ in range(args.clients)]
    form = {"name": "row", "points": "7"}
    return {
        "JSON echo": (clients, lambda i, c: c.request("POST", "/json", ROUND_TEXT)[0] == 200),
        "page of 8 rows": (clients, lambda i, c: c.request("GET", "/")[0] == 200),
        "insert": (clients, lambda i, c: c.request("POST", "/rows", form)[0] == 303),
    }


def run_all(phases, args) -> dict[str, list[dict[str, float]]]:
    """Run every ``(name, clients, work, master)`` phase in turn, ``--repeat`` times (the
    two apps' phases alternate, so the machine's load shifts treat both alike): each
    workload's figures, one dict per repeat."""
    runs: dict[str, list[dict[str, float]]] = {}
    for _ in range(args.repeat):
        for name, clients, work, master in phases:
            figures = run_phase(clients, work, args.seconds, args.max_requests, master)
            runs.setdefault(name, []).append(figures)
    return runs


def medians(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's median over the repeats."""
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def page_weight(port: int, token: str) -> dict[str, int]:
    """gzip sizes (bytes) of the game page and the CSS and JS it links."""
    client = Client(port)
    _, html = client.request("GET", f"/games/{token}")
    sizes = {"html": len(gzip.compress(html, 6))}
    for asset in re.findall(rb'(?:href|src)="(/static/[^"]+\.(?:css|js))"', html):
        _, body = client.request("GET", asset.decode())
        sizes[asset.decode().rsplit("/", 1)[-1]] = len(gzip.compress(body, 6))
    return sizes


def report(name: str, figures: dict[str, float]) -> None:
    print(
        f"  {name:26} {figures['rps']:7.0f} req/s  CPU {figures['cpu']:6.2f} ms/req  "
        f"median {figures['median']:6.2f} ms  p99 {figures['p99']:6.2f} ms  "
        f"({figures['requests']:.0f} requests, {figures['failures']:.0f} failed)"
    )


def ratio(
    name: str, ours: list[dict[str, float]], anchor: list[dict[str, float]], aim: str
) -> None:
    """One line of ratios, ``ours`` over ``anchor``: CPU per request, median wall time per
    request (latency) and requests per second; each the median of the repeats' ratios
    (each repeat's two phases ran seconds apart, so a shift of the shared machine's speed
    between repeats cancels out), with the lowest and highest in brackets for CPU."""

    def each(key: str) -> list[float]:
        return sorted(o[key] / a[key] for o, a in zip(ours, anchor, strict=True))

    cpu = each("cpu")
    spread = f"({cpu[0]:.2f}-{cpu[-1]:.2f})"
    print(
        f"  {name:34}{statistics.median(cpu):8.2f}x {spread:12}"
        f"{statistics.median(each('median')):8.2f}x{statistics.median(each('rps')):7.2f}x   {aim}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per phase")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--max-requests", type=int, default=4000, help="cap per phase")
    parser.add_argument("--repeat", type=int, default=3, help="alternations; median kept")
    parser.add_argument("--long", type=int, default=1000, help="rounds of the long games")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        ours_db = f"sqlite:///{directory / 'scorekeeper.sqlite3'}"
        minimal_db = f"sqlite:///{directory / 'minimal.sqlite3'}"
        began = time.perf_counter()
        short = setup_scorekeeper(ours_db, 1 + args.clients, 12)
        long = setup_scorekeeper(ours_db, 1 + args.clients, args.long)
        setup = time.perf_counter() - began
        setup_minimal(directory, minimal_db)
        ours_port, minimal_port = free_port(), free_port()
        ours = serve(
            "scorekeeper:create_app()",
            ours_port,
            {"DATABASE_URL": ours_db, "RATELIMIT_API": "1000000 per minute"},
            ROOT,
        )
        minimal = serve(
            "minimal_app:app", minimal_port, {"MINIMAL_DATABASE_URL": minimal_db}, directory
        )
        try:
            weight = page_weight(ours_port, short[0][0])
            work = scorekeeper_work(ours_port, short, long, args)
            base = minimal_work(minimal_port, args)
            phases = [
                (name, clients, job, ours.pid if name in work else minimal.pid)
                for name, (clients, job) in [
                    ("page of 8 rows", base["page of 8 rows"]),
                    *[(k, v) for k, v in work.items() if "page" in k],
                    ("insert", base["insert"]),
                    *[(k, v) for k, v in work.items() if "save" in k],
                    ("JSON echo", base["JSON echo"]),
                    ("score API", work["score API"]),
                ]
            ]
            runs = run_all(phases, args)
        finally:
            for process in (ours, minimal):
                process.terminate()
                process.wait(timeout=10)
    print(
        f"gunicorn, 2 sync workers, 127.0.0.1, {args.clients} concurrent clients in every "
        f"phase, {args.seconds:g} s per phase "
        f"(cap {args.max_requests} requests), median of {args.repeat} alternating runs; "
        "SQLite in both apps: WAL, synchronous=NORMAL, busy_timeout 5 s; "
        f"setup of the games {setup:.1f} s; load average now {os.getloadavg()[0]:.1f}"
    )
    figures = {name: medians(found) for name, found in runs.items()}
    print("scorekeeper:")
    for name in work:
        report(name, figures[name])
    print("minimal Flask + Flask-SQLAlchemy app:")
    for name in ("page of 8 rows", "insert", "JSON echo"):
        report(name, figures[name])
    page, long_page = runs["game page, 12 rounds"], runs[f"game page, {args.long} rounds"]
    save, long_save = runs["save round, 12 rounds"], runs[f"save round, {args.long} rounds"]
    get, insert = runs["page of 8 rows"], runs["insert"]
    print("ratios, each the median of the repeats' ratios to the anchor of the same repeat:")
    print(
        f"  {'':34}{'CPU/req':>9} {'(range)':12}{'wall (median)':>9}{'req/s':>7}"
        "   floor (CPU per request)"
    )
    ratio("game page / minimal GET", page, get, "<= 3x")
    ratio(f"game page {args.long} / 12 rounds", long_page, page, "~1x (flat in rounds)")
    ratio("save round / minimal insert", save, insert, "<= 3.5x")
    ratio(f"save round {args.long} / 12 rounds", long_save, save, "~1x (flat in rounds)")
    ratio("score API / minimal JSON echo", runs["score API"], runs["JSON echo"], "(capacity)")
    total = sum(weight.values())
    parts = ", ".join(f"{k} {v:,} B" for k, v in weight.items())
    print(
        f"game page first view, gzip: {total:,} bytes ({total / 1024:.1f} KB; aim < 30 KB): {parts}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
