"""The cost of importing a game (``POST /games/import``, a scoresheet JSON file) as its
rounds grow: 100 rounds and 1,000 (the most an import takes), through Flask's test client
on SQLite, with CSRF and rate limits off.

Each import is a new game of 3 players whose every round is the same (no one out, a point
left in each hand). ``--repeat`` times (the MEDIAN is printed) each size is imported once;
CPU is this process's (user + system, time.process_time), wall beside it. Aim: linear in
rounds, 1,000 rounds at most about 10x the time of 100 (not 100x); the figures the import
gives are checked by tests/table/test_hardening.py.

    python benchmarks/import_bench.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conftest import make_app  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cat"]
SIZES = (100, 1000)


def scoresheet(rounds: int) -> str:
    """A scoresheet file of ``rounds`` identical rounds entered by totals."""
    entered = {
        "went_out": None,
        "shown": dict.fromkeys(PLAYERS, 0),
        "in_hand": dict.fromkeys(PLAYERS, 1),
        "adjust": {},
    }
    doc = {
        "format": "500rum-scoresheet/1",
        "title": f"{rounds} rounds",
        "rules": {"preset": "standard", "options": {}},
        "players": PLAYERS,
        "first_dealer": 0,
        "rounds": [{"mode": "totals", "input": entered}] * rounds,
    }
    return json.dumps(doc)


def measure(repeat: int) -> dict[int, tuple[float, float]]:
    """The median (CPU s, wall s) of one import of each size in ``SIZES``."""
    timings: dict[int, list[tuple[float, float]]] = {size: [] for size in SIZES}
    with tempfile.TemporaryDirectory() as folder:
        client = make_app(str(Path(folder) / "bench.sqlite3")).test_client()
        for _ in range(repeat):
            for size in SIZES:
                text = scoresheet(size)
                c0, w0 = time.process_time(), time.perf_counter()
                answer = client.post("/games/import", data={"text": text})
                timings[size].append((time.process_time() - c0, time.perf_counter() - w0))
                assert answer.status_code == 303, answer.data[:300]
    return {
        size: (statistics.median(t[0] for t in runs), statistics.median(t[1] for t in runs))
        for size, runs in timings.items()
    }


def main() -> None:
    """Print each size's figures and the ratio of the largest to the smallest."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    figures = measure(parser.parse_args().repeat)
    for size, (cpu, wall) in figures.items():
        print(f"import of {size:>4} rounds: CPU {cpu:.3f} s (wall {wall:.3f} s)")
    small, large = figures[SIZES[0]], figures[SIZES[-1]]
    print(
        f"{SIZES[-1]} / {SIZES[0]} rounds: CPU {large[0] / small[0]:.1f}x, "
        f"wall {large[1] / small[1]:.1f}x (linear: about {SIZES[-1] // SIZES[0]}x)"
    )


if __name__ == "__main__":
    main()
