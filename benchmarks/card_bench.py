"""Card parse and construct speed: nanoseconds per card, median of repeats, wall and CPU.

Parses the 52 natural card texts as written (``7H``), in lower case (``7h``), declared jokers
(``JK=7C``), and builds cards with ``natural_card`` and ``make_pack``.

    python benchmarks/card_bench.py [--repeat 5] [--number 2000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.engine.cards import RANKS, SUITS, make_pack, natural_card, parse_card  # noqa: E402

TEXTS = [c.text for c in make_pack(0)]
LOWER = [t.lower() for t in TEXTS]
DECLARED = [f"JK={t}" for t in TEXTS]
PAIRS = [(r, s) for s in SUITS for r in RANKS]


def _cases() -> dict[str, Callable[[], object]]:
    return {
        "parse 7H": lambda: [parse_card(t) for t in TEXTS],
        "parse 7h": lambda: [parse_card(t) for t in LOWER],
        "parse JK=7C": lambda: [parse_card(t) for t in DECLARED],
        "natural_card": lambda: [natural_card(r, s) for r, s in PAIRS],
        "make_pack(2)": lambda: make_pack(2),
    }


def _time(run: Callable[[], object], number: int) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(number):
        run()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    """Print ns per card (wall, CPU), median of ``--repeat`` repeats."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--number", type=int, default=2000)
    args = parser.parse_args()
    for name, run in _cases().items():
        walls, cpus = zip(*(_time(run, args.number) for _ in range(args.repeat)), strict=True)
        per = 1e9 / (args.number * 52)
        print(
            f"{name:14} wall {statistics.median(walls) * per:6.1f} ns/card"
            f"  cpu {statistics.median(cpus) * per:6.1f} ns/card"
        )


if __name__ == "__main__":
    main()
