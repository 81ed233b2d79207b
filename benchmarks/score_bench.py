"""Scoring speed: rounds scored per second through the contract function, and the cold
start of ``python -m scorekeeper score`` in milliseconds.

The round: 4 players, 10 melds, 6 lay-offs, hands left, standard rules.
Aims (issue "Rules engine and scoring"): 20,000 rounds a second; cold start under 150 ms.

    python benchmarks/score_bench.py [--seconds 3] [--starts 15]
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


def rounds_per_second(seconds: float) -> tuple[float, int]:
    """Score ROUND repeatedly for about ``seconds``; returns (rounds/s, rounds)."""
    score(ROUND)  # warm caches as a long-running server would have them
    count, start = 0, time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(200):
            score(ROUND)
        count += 200
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start), count


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
    parser.add_argument("--starts", type=int, default=15)
    args = parser.parse_args()
    rate, count = rounds_per_second(args.seconds)
    print(
        f"contract score(): {rate:,.0f} rounds/s ({count:,} rounds; 4 players, 10 melds, "
        f"6 lay-offs; aim 20,000)"
    )
    *times, bare = cold_start_ms(args.starts)
    print(
        f"cold start, python -m scorekeeper score: median {statistics.median(times):.0f} ms, "
        f"min {min(times):.0f} ms over {len(times)} runs (aim < 150 ms; a bare "
        f"'python -c pass' takes {bare:.0f} ms here)"
    )
    print(f"python: {sys.executable}")


if __name__ == "__main__":
    main()
