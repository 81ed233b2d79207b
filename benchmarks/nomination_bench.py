"""Dealer's gambit (X2): what each nomination is worth to the dealer, for the bots'
choice (:data:`scorekeeper.engine.bots.gambit_bots.NOMINATION`).

The dealer nominates before anyone looks at their cards, so a bot's nomination is one
choice made without its hand. For each nomination this plays the same seeded first
rounds (``--rounds`` of them, every seat a bot of ``--level``) with the dealer's
nomination fixed, and prints the dealer's round figure less the other players' average
(points, mean and standard error).

    python benchmarks/nomination_bench.py [--players 2 3 4] [--rounds 600] [--level strong]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.engine import (  # noqa: E402
    Nominate,
    Phase,
    apply_action,
    legal_actions,
    make_bot,
    new_game,
    observation,
)
from scorekeeper.engine.rules.dealers_joker import NOMINATIONS  # noqa: E402

MAX_MOVES = 3000
"""A round still in play after this many moves is left out (a guard)."""


def dealers_edge(players: int, seed: int, nomination: str, level: str) -> float | None:
    """The first round of a seeded X2 game with the dealer nominating ``nomination``: the
    dealer's round figure less the others' average; None if the round did not end."""
    state = new_game(players, options={"dealers_gambit": True}, seed=seed)
    bots = [make_bot(level) for _ in range(players)]
    rng = random.Random(seed)
    for _ in range(MAX_MOVES):
        if state.rounds:
            break
        if state.phase is Phase.NOMINATE:
            apply_action(state, Nominate(nomination))
            continue
        view = observation(state, state.seat)
        apply_action(state, bots[state.seat].choose(view, legal_actions(state), rng))
    else:
        return None
    first = state.rounds[0]
    figures = [first["scores"][name]["round"] for name in state.players]
    dealer = figures[state.players.index(first["dealer"])]
    return dealer - (sum(figures) - dealer) / (players - 1)


def main() -> None:
    """Print each nomination's edge for the dealer at each table size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--rounds", type=int, default=600)
    parser.add_argument("--level", default="strong")
    args = parser.parse_args()
    for players in args.players:
        for nomination in NOMINATIONS:
            edges = [
                e
                for seed in range(args.rounds)
                if (e := dealers_edge(players, seed, nomination, args.level)) is not None
            ]
            error = statistics.stdev(edges) / len(edges) ** 0.5
            mean = statistics.mean(edges)
            print(
                f"{players} players, {nomination:6}: {mean:+6.1f} ± {error:.1f} points", flush=True
            )


if __name__ == "__main__":
    main()
