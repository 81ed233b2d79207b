"""Digital game speed and bot strength, in one run.

Prints:
- like for like with OpenSpiel first: rounds per second played by random legal moves
  (4 players, ``standard``), every legal move of every decision listed by
  ``legal_actions`` and one chosen uniformly, every move checked by ``apply_action``,
  every round scored by the scorekeeper's scoring; beside OpenSpiel's ``gin_rummy``
  random hands per second (``pip install open_spiel``, the ``bench`` extra; skipped with
  a message where absent), which also lists every legal move, and their ratio;
- full games to 500 per second with basic bots and with strong bots (2 players,
  ``standard``; basic also at 4 players);
- the strong bot's win rate against the basic one over 2-player games (seats alternate),
  with its 95% Wilson interval, played on two processes;
- the expert bot's win rates (seats alternating, 95% Wilson intervals, played on two
  processes with ``--samples`` sampled deals per decision): against strong and against
  basic at 2 players, and against three strong bots at 4 players (a fair share is 25%);
  and its time per decision (median and p99) at the /play budget and at ``--samples``;

Each speed is the median of ``--repeat`` runs, ours and OpenSpiel's alternating, wall and
CPU time. Floor (issue 24): our random rounds at least 1.5x OpenSpiel's random hands.
Aims: >= 50 basic-bot games to 500 a second, a strong bot that wins clearly more than
half.

    python benchmarks/sim_bench.py [--seconds 5] [--repeat 3] [--duel 1000] [--workers 2]
        [--expert-games 200] [--samples 4] [--only-expert | --only-random]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.engine import (  # noqa: E402
    apply_action,
    is_terminal,
    legal_actions,
    make_bot,
    new_game,
    observation,
)
from scorekeeper.engine.bots.expert import SAMPLES, ExpertBot  # noqa: E402
from scorekeeper.engine.bots.simulate import play_game  # noqa: E402


def random_rounds_per_second(seconds: float) -> tuple[float, float]:
    """Rounds a second of 4-player ``standard`` played by uniformly random legal moves, each
    chosen from the whole ``legal_actions`` list: (per wall second, per CPU second)."""
    rng = random.Random(1)
    state = new_game(4, seed=1)
    rounds = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        if is_terminal(state):
            state = new_game(4, seed=rng.randrange(2**31))
        before = len(state.rounds)
        apply_action(state, rng.choice(legal_actions(state)))
        rounds += len(state.rounds) > before
    return rounds / (time.perf_counter() - start), rounds / (time.process_time() - cpu)


def games_per_second(level: str, players: int, seconds: float) -> tuple[float, float]:
    """Whole games to 500 a second between bots of ``level``; and rounds per game."""
    games = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games < 3:
        result = play_game(players, [level] * players, seed=games)
        games += 1
        rounds += result.rounds
    return games / (time.perf_counter() - start), rounds / games


def _duel(seed: int) -> int:
    """One 2-player game, strong against basic, seats alternating; 1 if strong won."""
    seating = ["strong", "basic"] if seed % 2 == 0 else ["basic", "strong"]
    result = play_game(2, seating, seed=10_000 + seed)
    return int(any(seating[s] == "strong" for s in result.winners))


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def duel(games: int, workers: int) -> tuple[int, float]:
    """Strong against basic over ``games`` games: (wins, seconds)."""
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        wins = sum(pool.map(_duel, range(games), chunksize=25))
    return wins, time.perf_counter() - start


def _expert_duel(task: tuple[str, int, int, int]) -> int:
    """One game, the expert against ``players - 1`` bots of level ``opponent``, the
    expert's seat moving one place each game; 1 if the expert (or its side) won."""
    opponent, players, game, samples = task
    seating = [opponent] * players
    seating[game % players] = "expert"
    result = play_game(players, seating, seed=20_000 + game, samples=samples)
    return int(any(seating[s] == "expert" for s in result.winners))


def expert_duels(games: int, workers: int, samples: int) -> None:
    """Print the expert's win rates with their 95% Wilson intervals."""
    for opponent, players in (("strong", 2), ("basic", 2), ("strong", 4)):
        start = time.perf_counter()
        tasks = [(opponent, players, g, samples) for g in range(games)]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            wins = sum(pool.map(_expert_duel, tasks, chunksize=5))
        low, high = wilson(wins, games)
        print(
            f"expert vs {opponent}, {players} players, {games} games ({samples} samples a "
            f"decision): expert wins {wins / games:.1%} (95% Wilson interval {low:.1%} to "
            f"{high:.1%}; {time.perf_counter() - start:.0f} s on {workers} processes)"
        )


def expert_decision_times(samples: int, decisions: int = 120) -> tuple[float, float]:
    """Seconds per expert decision against a strong bot at 2 players: (median, p99)."""
    expert, strong = ExpertBot(samples), make_bot("strong")
    rng, times, seed = random.Random(1), [], 0
    while len(times) < decisions:
        state = new_game(2, seed=seed)
        seed += 1
        while not is_terminal(state) and len(times) < decisions:
            legal = legal_actions(state)
            view = observation(state, state.seat)
            if state.seat == 0:
                start = time.perf_counter()
                move = expert.choose(view, legal, rng)
                times.append(time.perf_counter() - start)
            else:
                move = strong.choose(view, legal, rng)
            apply_action(state, move)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def openspiel_hands_per_second(seconds: float) -> tuple[float, float] | None:
    """Random hands a second of OpenSpiel's ``gin_rummy`` (per wall second, per CPU
    second), or None without open_spiel."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(1)
    hands = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        hands += 1
    return hands / (time.perf_counter() - start), hands / (time.process_time() - cpu)


def random_play_against_openspiel(seconds: float, repeat: int) -> None:
    """Print our random rounds/s and OpenSpiel's random hands/s, both listing every legal
    move of every decision, measured alternately ``repeat`` times (median of each), wall
    and CPU, and their ratio."""
    ours, theirs = [], []
    for _ in range(repeat):
        ours.append(random_rounds_per_second(seconds))
        found = openspiel_hands_per_second(seconds)
        if found is not None:
            theirs.append(found)
    wall, cpu = (statistics.median(r[i] for r in ours) for i in (0, 1))
    print(
        f"random legal play, every legal move listed, 4 players, standard: {wall:8.1f} "
        f"rounds/s wall, {cpu:8.1f} per CPU second (median of {repeat})"
    )
    if not theirs:
        print(
            "OpenSpiel gin_rummy: skipped (open_spiel is not installed: pip install -e '.[bench]')"
        )
        return
    their_wall, their_cpu = (statistics.median(r[i] for r in theirs) for i in (0, 1))
    print(
        f"OpenSpiel gin_rummy, random play, every legal move listed: {their_wall:8.1f} "
        f"hands/s wall, {their_cpu:8.1f} per CPU second (median of {repeat}, alternating)"
    )
    print(
        f"ratio (our rounds / its hands): {wall / their_wall:.2f} wall, "
        f"{cpu / their_cpu:.2f} CPU   (floor >= 1.5)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per speed measurement")
    parser.add_argument("--duel", type=int, default=1000, help="strong-vs-basic games")
    parser.add_argument("--workers", type=int, default=2, help="processes for the duel")
    parser.add_argument("--repeat", type=int, default=3, help="alternating runs; median kept")
    parser.add_argument("--expert-games", type=int, default=200, help="per expert duel")
    parser.add_argument("--samples", type=int, default=4, help="expert's deals per decision")
    parser.add_argument("--only-expert", action="store_true", help="the expert's figures only")
    parser.add_argument(
        "--only-random", action="store_true", help="random play against OpenSpiel only"
    )
    args = parser.parse_args()

    if args.only_random:
        random_play_against_openspiel(args.seconds, args.repeat)
        return 0

    for samples in sorted({SAMPLES, args.samples}, reverse=True):
        median, p99 = expert_decision_times(samples)
        print(
            f"expert, {samples} samples a decision, 2 players: {median * 1000:6.0f} ms median, "
            f"{p99 * 1000:6.0f} ms p99 per decision"
            + ("   (aim <= 1 s)" if samples == SAMPLES else "")
        )
    expert_duels(args.expert_games, args.workers, args.samples)
    if args.only_expert:
        return 0
    random_play_against_openspiel(args.seconds, args.repeat)
    for level, players in (("basic", 2), ("basic", 4), ("strong", 2)):
        rate, rounds = games_per_second(level, players, args.seconds)
        aim = "   (aim >= 50)" if (level, players) == ("basic", 2) else ""
        print(
            f"{level} bots, {players} players, games to 500:    {rate:8.2f} games/s "
            f"({rounds:.1f} rounds a game){aim}"
        )
    wins, took = duel(args.duel, args.workers)
    low, high = wilson(wins, args.duel)
    print(
        f"strong vs basic, 2 players, {args.duel} games: strong wins {wins / args.duel:.1%} "
        f"(95% Wilson interval {low:.1%} to {high:.1%}; {took:.0f} s on {args.workers} "
        "processes)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
