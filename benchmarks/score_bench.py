"""Scoring speed: rounds scored per second through the contract function beside its
anchor measured in the same run, a JSON load and dump of the same round
(``json.dumps(json.loads(text))`` of the request); each repeat measures both, one after
the other, and the ratio (score() rate / anchor rate) is the median of the repeats',
wall and CPU time. Beside it, the API's own JSON work on the round (load the request,
dump the answer) as a second anchor. Then the cold start of ``python -m scorekeeper
score`` in milliseconds beside a bare interpreter's (its anchor, measured in the same run).

The round: 4 players, 10 melds, 6 lay-offs, hands left, standard rules.
Floor (issue 24): score() at least 0.5x the JSON anchor; cold start under 150 ms.

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
from collections.abc import Callable
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


TEXT = json.dumps(ROUND)
ANSWER = score(ROUND)  # also warms caches as a long-running server would have them


def _scored() -> None:
    score(ROUND)


def _json_round() -> None:
    """The anchor: a JSON load and dump of the same round."""
    json.dumps(json.loads(TEXT))


def _api_json() -> None:
    """The API's own JSON work on the round: load the request, dump the answer."""
    json.loads(TEXT)
    json.dumps(ANSWER)


def per_second(work: Callable[[], None], seconds: float) -> tuple[float, float]:
    """Run ``work`` repeatedly for about ``seconds``: (runs per wall second, runs per CPU
    second of this process)."""
    count, start, cpu = 0, time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(200):
            work()
        count += 200
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start), count / (time.process_time() - cpu)


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


def _median_ratio(runs: list[tuple[tuple[float, float], ...]], other: int) -> tuple[float, float]:
    """Median over the repeats of score()'s rate over anchor ``other``'s: (wall, CPU)."""
    wall = statistics.median(r[0][0] / r[other][0] for r in runs)
    cpu = statistics.median(r[0][1] / r[other][1] for r in runs)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeat", type=int, default=5, help="runs; the median is kept")
    parser.add_argument("--starts", type=int, default=15)
    args = parser.parse_args()
    runs = [
        tuple(per_second(work, args.seconds) for work in (_scored, _json_round, _api_json))
        for _ in range(args.repeat)
    ]
    wall, cpu = (statistics.median(r[0][i] for r in runs) for i in (0, 1))
    anchor_wall, anchor_cpu = (statistics.median(r[1][i] for r in runs) for i in (0, 1))
    ratio, ratio_cpu = _median_ratio(runs, 1)
    api, api_cpu = _median_ratio(runs, 2)
    print(
        f"contract score(): {wall:,.0f} rounds/s wall, {cpu:,.0f} per CPU second (median of "
        f"{args.repeat} runs of {args.seconds:g} s; 4 players, 10 melds, 6 lay-offs)"
    )
    print(
        f"anchor, a JSON load and dump of the same round: {anchor_wall:,.0f}/s wall, "
        f"{anchor_cpu:,.0f} per CPU second (same runs)"
    )
    print(
        f"score() / anchor: {ratio:.2f}x wall, {ratio_cpu:.2f}x CPU (median of the repeats' "
        f"ratios; floor >= 0.5x)"
    )
    print(
        f"score() / the API's own JSON work (load the request, dump the answer): {api:.2f}x "
        f"wall, {api_cpu:.2f}x CPU"
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
