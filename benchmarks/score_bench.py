"""Scoring speed: rounds scored per second through the contract function (wall and CPU
time, median of ``--repeat`` runs), and the cold start of ``python -m scorekeeper score``
in milliseconds beside a bare interpreter's (its anchor, measured in the same run).

The round: 4 players, 10 melds, 6 lay-offs, hands left, standard rules.
Aims: 20,000 rounds a second; cold start under 150 ms.

    python benchmarks/score_bench.py [--seconds 3] [--repeat 3] [--starts 15]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import score  # noqa: E402

ROUND = {
    "rules": {"preset": "standard", "options": {}},
    "players": ["Ann", "Bob", "Cat", "Dee"],
    "teams": None,
    "went_out": "Ann",
    "melds": [
        {"owner": "Ann", "cards": ["2S", "2H", "2D"]},
        {"owner": "Bob", "cards": ["3S", "3H", "3D"]},
        {"owner": "Cat", "cards": ["4S", "4H", "4D"]},
        {"owner": "Dee", "cards": ["5S", "5H", "5D"]},
        {"owner": "Ann", "cards": ["6S", "6H", "6D"]},
        {"owner": "Bob", "cards": ["7C", "8C", "9C"]},
        {"owner": "Cat", "cards": ["7D", "8D", "9D"]},
        {"owner": "Dee", "cards": ["JS", "QS", "KS"]},
        {"owner": "Ann", "cards": ["JH", "QH", "KH"]},
        {"owner": "Bob", "cards": ["8S", "9S", "10S"]},
    ],
    "layoffs": [
        {"owner": "Ann", "card": "2C", "meld": 0},
        {"owner": "Cat", "card": "3C", "meld": 1},
        {"owner": "Dee", "card": "4C", "meld": 2},
        {"owner": "Bob", "card": "10C", "meld": 5},
        {"owner": "Bob", "card": "JC", "meld": 5},
        {"owner": "Ann", "card": "10D", "meld": 6},
    ],
    "hands": {"Ann": [], "Bob": ["AS", "KD"], "Cat": ["AH", "QC", "5C"], "Dee": ["KC", "AD"]},
    "totals_before": {"Ann": 120, "Bob": 35, "Cat": -10, "Dee": 240},
}


def rounds_per_second(seconds: float) -> tuple[float, float, int]:
    """Score ROUND repeatedly for about ``seconds``; returns (rounds per wall second,
    rounds per CPU second of this process, rounds)."""
    score(ROUND)  # warm caches as a long-running server would have them
    count, start, cpu = 0, time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(200):
            score(ROUND)
        count += 200
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start), count / (time.process_time() - cpu), count


def cold_start_ms(runs: int) -> list[float]:
    """Wall time of ``python -m scorekeeper score FILE`` in a new process, ``runs`` times."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(ROUND, handle)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "scorekeeper", "score", handle.name], capture_output=True
        )
        times.append((time.perf_counter() - start) * 1000)
        assert done.returncode == 0, done.stdout
    baseline = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], capture_output=True)
        baseline.append((time.perf_counter() - start) * 1000)
    Path(handle.name).unlink()
    return times + [statistics.median(baseline)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the median is kept")
    parser.add_argument("--starts", type=int, default=15)
    args = parser.parse_args()
    runs = [rounds_per_second(args.seconds) for _ in range(args.repeat)]
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    print(
        f"contract score(): {wall:,.0f} rounds/s wall, {cpu:,.0f} rounds per CPU second "
        f"(median of {args.repeat} runs of {args.seconds:g} s; 4 players, 10 melds, "
        f"6 lay-offs; aim 20,000)"
    )
    *times, bare = cold_start_ms(args.starts)
    print(
        f"cold start, python -m scorekeeper score: median {statistics.median(times):.0f} ms "
        f"over {len(times)} runs, {statistics.median(times) / bare:.1f}x a bare 'python -c "
        f"pass' ({bare:.0f} ms, median, same run; aim < 150 ms)"
    )
    print(f"python: {sys.executable}")


if __name__ == "__main__":
    main()
