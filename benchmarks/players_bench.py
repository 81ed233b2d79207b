"""CPU per request of a group's profile and season pages, with 1,000 games and with
10,000 games in the group, each beside the minimal Flask + Flask-SQLAlchemy app's page of
8 rows measured in the same run (the anchor, from benchmarks/web_bench.py).

Both apps are served by gunicorn (2 sync workers, 127.0.0.1) on SQLite set up alike; the
phases of the two apps alternate ``--repeat`` times and every figure is the MEDIAN of the
repeats: CPU per request (user + system of the server's processes, from /proc, divided by
the requests served), requests per second and median latency (wall); each page's CPU
beside the anchor's is the median of the repeats' ratios (each to the anchor measured
seconds before it). Every game has 4
players of the group and 3 rounds by totals (target 100; the player who goes out all
three rounds wins), so the 1,000-game group holds 3,000 rounds. The pages are asked
without ``If-None-Match`` (each request builds the whole page, never a 304).

Aims (issue 27): each page at most 3x the anchor's CPU at 1,000 games, and at 10,000
games at most 1.5x its own figure at 1,000 (flat in the group's games).

    python benchmarks/players_bench.py [--seconds 3] [--clients 4] [--max-requests 600]
                                       [--repeat 3] [--games 1000 10000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from web_bench import (  # noqa: E402
    ROOT,
    Client,
    free_port,
    medians,
    minimal_work,
    report,
    run_all,
    serve,
    setup_minimal,
)

NAMES = ["Ann", "Bob", "Cat", "Dee"]


def _round(goer: str) -> tuple[str, dict[str, object]]:
    shown = {n: (40 if n == goer else 10) for n in NAMES}
    in_hand = {n: (0 if n == goer else 5) for n in NAMES}
    return "totals", {"went_out": goer, "shown": shown, "in_hand": in_hand, "adjust": {}}


def setup_groups(database: str, sizes: list[int]) -> list[tuple[str, int]]:
    """One group per size, with that many finished games; (view token, Ann's id) each."""
    from flask_migrate import upgrade

    from scorekeeper import create_app
    from scorekeeper.extensions import db
    from scorekeeper.groups.members import link_players
    from scorekeeper.models import Group, Member
    from scorekeeper.table import services as sheet

    app = create_app({"SQLALCHEMY_DATABASE_URI": database, "SECRET_KEY": "bench"})
    found = []
    round_list = [[_round(goer)] * 3 for goer in NAMES]
    with app.app_context():
        upgrade()
        for size in sizes:
            group = Group(name=f"{size} games", preset="standard", options={})
            group.members.extend(Member(name=n) for n in NAMES)
            db.session.add(group)
            db.session.commit()
            for g in range(size):
                parts = {
                    "names": NAMES,
                    "preset": "standard",
                    "options": {"target": 100},
                    "first_dealer": 0,
                    "stake": None,
                    "sides": None,
                    "title": "",
                    "rounds": round_list[g % 4],
                }
                game = sheet.import_game(parts)
                link_players(game, group)
                db.session.commit()
            found.append((group.view_token, group.members[0].id))
    return found


def players_work(port: int, groups: list[tuple[str, int]], sizes: list[int], args):
    """The profile and season pages of each group."""
    work = {}
    for size, (slug, ann) in zip(sizes, groups, strict=True):
        clients = [Client(port) for _ in range(args.clients)]
        for page, path in (
            ("profile", f"/groups/{slug}/players/{ann}"),
            ("season", f"/groups/{slug}/season"),
        ):
            work[f"{page}, {size} games"] = (
                clients,
                lambda i, c, path=path: c.request("GET", path)[0] == 200,
            )
    return work


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per phase")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--max-requests", type=int, default=600, help="cap per phase")
    parser.add_argument("--repeat", type=int, default=3, help="alternations; median kept")
    parser.add_argument(
        "--games", type=int, nargs="+", default=[1000, 10000], help="games of each group"
    )
    args = parser.parse_args()
    sizes = list(args.games)
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        ours_db = f"sqlite:///{directory / 'scorekeeper.sqlite3'}"
        minimal_db = f"sqlite:///{directory / 'minimal.sqlite3'}"
        began = time.perf_counter()
        groups = setup_groups(ours_db, sizes)
        setup = time.perf_counter() - began
        setup_minimal(directory, minimal_db)
        ours_port, minimal_port = free_port(), free_port()
        ours = serve("scorekeeper:create_app()", ours_port, {"DATABASE_URL": ours_db}, ROOT)
        minimal = serve(
            "minimal_app:app", minimal_port, {"MINIMAL_DATABASE_URL": minimal_db}, directory
        )
        try:
            work = players_work(ours_port, groups, sizes, args)
            anchor = minimal_work(minimal_port, args)["page of 8 rows"]
            phases = [("page of 8 rows", *anchor, minimal.pid)]
            phases += [(name, clients, job, ours.pid) for name, (clients, job) in work.items()]
            runs = run_all(phases, args)
        finally:
            for process in (ours, minimal):
                process.terminate()
                process.wait(timeout=10)
    print(
        f"gunicorn, 2 sync workers, 127.0.0.1, {args.clients} concurrent clients, "
        f"{args.seconds:g} s per phase (cap {args.max_requests} requests), median of "
        f"{args.repeat} alternating runs; setup of the games {setup:.1f} s; "
        "load average now {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    )
    figures = {name: medians(found) for name, found in runs.items()}
    base = runs["page of 8 rows"]
    print("minimal Flask + Flask-SQLAlchemy app (anchor):")
    report("page of 8 rows", figures["page of 8 rows"])
    print("scorekeeper (CPU as a multiple of the anchor's, median of the repeats' ratios):")
    for name in work:
        report(name, figures[name])
        ratios = [o["cpu"] / a["cpu"] for o, a in zip(runs[name], base, strict=True)]
        walls = [o["median"] / a["median"] for o, a in zip(runs[name], base, strict=True)]
        print(
            f"  {'':26} {statistics.median(ratios):7.1f}x the anchor's CPU, "
            f"{statistics.median(walls):.1f}x its median wall time"
        )
    for page in ("profile", "season"):
        first, *others = [figures[f"{page}, {size} games"]["cpu"] for size in sizes]
        for size, cpu in zip(sizes[1:], others, strict=True):
            print(f"  {page}: {size} games cost {cpu / first:.2f}x the CPU of {sizes[0]} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
