"""The ladder of bot levels, measured: the published figures and their page, in one run.

Plays, two players to 500 (preset ``standard``), in pairs of games on one deal with the
seats swapped (:func:`scorekeeper.engine.play_match`):
- every adjacent pair of levels (``--games`` each, default 1,000), and each heuristic level
  against the one two below (``--extra-games``, default 300; over-determines the fit);
- the top level against today's expert, ``ExpertBot(16)`` with its defaults
  (``--versus-games``, default 1,000; the issue's aim: at least 55%);
and times, like for like in the same run, the top level's and today's expert's decisions
on the same positions (taken from recorded games, every one a real choice): each bot's CPU
time per decision (``time.process_time``), p50 and p99, the median of 3 repeats, the two
bots alternating position by position (aim: the top level's p99 at most 2x).

It WRITES ``scorekeeper/engine/bots/ladder.json`` (what ``ladder.published()`` reads, with
the seed, games per pair, date, commit, the versus match, the timing and the machine's
load) and renders ``docs/ladder.md`` from it: one source of truth. ``--quick`` plays a few
games only and writes into a temporary folder (or ``--out``), never over the published
files; ``--render`` only renders ``docs/ladder.md`` again from ``ladder.json``;
``--ladder-from FILE`` takes the adjacent pairs from a ``scorekeeper simulate --ladder
--json`` run of the same seed and games a pair (after a change to a level that the other
parts do not play: ``--why`` says which), keeps the rest and says so on the page.

    python benchmarks/ladder_bench.py [--games 1000] [--versus-games 1000]
        [--extra-games 300] [--positions 200] [--jobs N] [--seed 1] [--quick] [--out DIR]
    python benchmarks/ladder_bench.py --render
    python benchmarks/ladder_bench.py --ladder-from run.json --why "Expert weighs 3 deals"
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.engine import (  # noqa: E402
    LEVELS,
    Level,
    Match,
    Phase,
    fair_step,
    fit_ratings,
    legal_actions,
    observation,
    play_ladder,
    play_match,
    progress_bar,
)
from scorekeeper.engine.bots.bots import Bot  # noqa: E402
from scorekeeper.engine.bots.expert import ExpertBot  # noqa: E402
from scorekeeper.engine.bots.ladder import PUBLISHED, play_pairs  # noqa: E402
from scorekeeper.engine.bots.simulate import play_game  # noqa: E402
from scorekeeper.engine.game.records import record_moves  # noqa: E402
from scorekeeper.engine.game.state import GameState  # noqa: E402

PAGE = ROOT / "docs" / "ladder.md"
TODAYS_TITLE = "today's expert (16 samples)"
REPEATS = 3


def _todays_expert(_samples: int, _budget: float | None) -> Bot:
    """Today's expert, exactly: ``ExpertBot(16)`` with its defaults (no budget)."""
    return ExpertBot(16)


TODAYS = Level("todays-expert", TODAYS_TITLE, "the expert before the ladder", 16, _todays_expert)
"""Today's expert as a contender of a match (module level: it pickles for the workers)."""


def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return done.stdout.strip()


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def positions(count: int, seed: int) -> list[GameState]:
    """``count`` decision points where the seat has a real choice (more than one legal
    move, drawing or playing), drawn at random from games recorded between the strongest
    heuristic level and itself."""
    player = [level for level in LEVELS if not level.samples][-1].name
    rng = random.Random(seed)
    found: list[GameState] = []
    game = 0
    while len(found) < count * 4:
        record = play_game(2, [player, player], seed=seed + game, keep_record=True).record
        game += 1
        for move in record_moves(record):
            state = move.state
            if state.phase in (Phase.DRAW, Phase.PLAY) and len(legal_actions(state)) > 1:
                found.append(GameState.from_json(state.to_json()))
    return rng.sample(found, count)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def decision_times(states: list[GameState], bots: dict[str, Bot]) -> dict[str, dict[str, float]]:
    """Each bot's CPU seconds per decision on ``states``: ``{"p50", "p99"}``, each the
    median of :data:`REPEATS` repeats; the bots alternate position by position (the
    first bot first on even positions), each with the same rng seed."""
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in bots}
    for _ in range(REPEATS):
        times: dict[str, list[float]] = {name: [] for name in bots}
        for i, state in enumerate(states):
            order = list(bots) if i % 2 == 0 else list(reversed(bots))
            view, legal = observation(state, state.seat), legal_actions(state)
            for name in order:
                start = time.process_time()
                bots[name].choose(view, legal, random.Random(i))
                times[name].append(time.process_time() - start)
        for name, spent in times.items():
            runs[name].append((_percentile(spent, 0.5), _percentile(spent, 0.99)))
    return {
        name: {
            "p50": statistics.median(p50 for p50, _ in got),
            "p99": statistics.median(p99 for _, p99 in got),
        }
        for name, got in runs.items()
    }


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Play and time everything; the figures as ``ladder.json`` holds them."""
    load_before, started = _load(), time.monotonic()
    top = LEVELS[-1].name
    print(f"the ladder: {args.games:,} games a pair", file=sys.stderr)
    ladder = play_ladder(args.games, seed=args.seed, jobs=args.jobs, progress=_bar())
    cheap = [level.name for level in LEVELS if not level.samples]
    pairs = [(upper, lower) for lower, upper in zip(cheap, cheap[2:], strict=False)]
    print(f"two levels apart: {args.extra_games:,} games a pair", file=sys.stderr)
    extra = play_pairs(pairs, args.extra_games, seed=args.seed, jobs=args.jobs, progress=_bar())
    print(f"{top} against {TODAYS_TITLE}: {args.versus_games:,} games", file=sys.stderr)
    versus = play_match(
        top, TODAYS, args.versus_games, seed=args.seed, jobs=args.jobs, progress=_bar()
    )
    print(f"decision times: {args.positions} positions, {REPEATS} repeats", file=sys.stderr)
    bots = {top: LEVELS[-1].bot(), TODAYS.name: TODAYS.bot()}
    timing = decision_times(positions(args.positions, args.seed), bots)
    return {
        "seed": args.seed,
        "games_per_pair": args.games,
        "extra_games_per_pair": args.extra_games,
        "date": datetime.date.today().isoformat(),
        "commit": _commit(),
        "matches": [m.to_json() for m in ladder + [m for m in extra if m.games]],
        "versus_today": {**versus.to_json(), "title": TODAYS_TITLE},
        "timing": {"positions": args.positions, "repeats": REPEATS, "seconds": timing},
        "machine": {
            "cpus": os.cpu_count(),
            "jobs": args.jobs,
            "load_before": load_before,
            "load_after": _load(),
            "minutes": round((time.monotonic() - started) / 60, 1),
        },
    }


def _bar() -> Any:
    return progress_bar(sys.stderr)


def _interval(match: Match) -> str:
    low, high = match.interval
    return f"{low * 100:.1f}-{high:.1%}"


def _title(name: str) -> str:
    return next((level.title for level in LEVELS if level.name == name), name)


def _match_rows(matches: list[Match]) -> list[str]:
    order = [level.name for level in LEVELS]
    rows = [
        "| pair | steps apart | games | upper level wins | 95% interval | fair step (65-75%) |",
        "|---|---|---|---|---|---|",
    ]
    for m in matches:
        apart = order.index(m.upper) - order.index(m.lower)
        fair = ("yes" if fair_step(m) else "no") if apart == 1 else "(not a step)"
        rows.append(
            f"| {_title(m.upper)} vs {_title(m.lower)} | {apart} | {m.games:,} | "
            f"{m.rate:.1%} | {_interval(m)} | {fair} |"
        )
    return rows


def _level_rows(ratings: dict[str, int] | None) -> list[str]:
    rows = ["| level | rating (Elo) | how it plays |", "|---|---|---|"]
    for level in LEVELS:
        rating = ratings.get(level.name, "-") if ratings else "-"
        rows.append(f"| {level.title} | {rating} | {level.words} |")
    return rows


def _versus_rows(data: dict[str, Any]) -> list[str]:
    versus = data.get("versus_today")
    if not versus:
        return ["Not measured yet: run the benchmark (below)."]
    match = Match(versus["upper"], versus["lower"], versus["games"], versus["upper_wins"])
    verdict = "met" if match.games and match.rate >= 0.55 else "**missed**"
    return [
        "| match | games | top level wins | 95% interval | aim: at least 55% |",
        "|---|---|---|---|---|",
        f"| {_title(match.upper)} vs {versus['title']} | {match.games:,} | {match.rate:.1%} | "
        f"{_interval(match)} | {verdict} |",
    ]


def _timing_rows(data: dict[str, Any]) -> list[str]:
    timing = data.get("timing")
    if not timing:
        return ["Not measured yet: run the benchmark (below)."]
    seconds = timing["seconds"]
    top, todays = LEVELS[-1].name, TODAYS.name
    ratio = seconds[top]["p99"] / seconds[todays]["p99"] if seconds[todays]["p99"] else 0.0
    rows = [
        f"CPU time per decision on the same {timing['positions']} positions (from recorded "
        f"games, every one a real choice), the two bots alternating, median of "
        f"{timing['repeats']} repeats:",
        "",
        "| bot | p50 | p99 |",
        "|---|---|---|",
    ]
    for name, title in ((top, _title(top)), (todays, TODAYS_TITLE)):
        rows.append(
            f"| {title} | {seconds[name]['p50'] * 1000:.0f} ms | "
            f"{seconds[name]['p99'] * 1000:.0f} ms |"
        )
    verdict = "met" if ratio <= 2 else "**missed**"
    rows += [
        "",
        f"The top level's p99 is {ratio:.2f}x today's expert's (aim: at most 2x: {verdict}).",
    ]
    return rows


def _ratings(matches: list[Match]) -> tuple[dict[str, int] | None, str]:
    try:
        return fit_ratings(matches), ""
    except ValueError as error:
        return None, f"No rating fits these matches: {error}."


def render(data: dict[str, Any]) -> str:
    """``docs/ladder.md`` from the figures of ``ladder.json``."""
    matches = [Match(**m) for m in data["matches"]]
    ratings, why = _ratings(matches)
    machine = data.get("machine")
    lines = [
        "# The ladder of bot levels",
        "",
        "The levels a person picks from at `/play`, weakest first; each should win 65-75% of",
        "two-player games to 500 against the level below (its 95% Wilson interval inside",
        "60-80%). Every figure here is generated by `benchmarks/ladder_bench.py` from",
        "`scorekeeper/engine/bots/ladder.json` (do not edit by hand; rerun it). Back to the",
        "[README](../README.md); the other measurements are in [benchmarks.md](benchmarks.md).",
        "",
        f"Measured {data.get('date', '(date not recorded)')} at commit "
        f"`{data.get('commit', 'unknown')}`, seed {data['seed']}, "
        f"{data['games_per_pair']:,} games a pair.",
    ]
    if data.get("provisional"):
        lines += ["", f"**Provisional:** {data['provisional']}."]
    source = data.get("ladder_from")
    if source:
        lines += [
            "",
            f"The adjacent pairs were measured again on {source['date']} at commit "
            f"`{source['commit']}` by `{source['command']}` ({source['why']}); the rest "
            "comes from the run above.",
        ]
    lines += ["", "## The levels and their ratings", "", *_level_rows(ratings), ""]
    lines += [
        "Ratings are Elo (400 points: ten to one odds), the weakest level at 1000, fitted to",
        "all the matches below by maximum likelihood (Bradley-Terry). "
        + (
            why
            or "A person's estimate (from their finished games against bots) is on the same scale."
        ),
        "",
        "## The matches",
        "",
        "Games are played in pairs on one deal with the seats swapped, so the luck of the",
        "deal cancels; a game stopped by the simulator's guard is not counted.",
        "",
        *_match_rows(matches),
        "",
        "## The top level against today's expert",
        "",
        *_versus_rows(data),
        "",
        "## Decision time",
        "",
        *_timing_rows(data),
        "",
        "## Running it again",
        "",
        "    scorekeeper simulate --ladder [--games 1000] [--minutes 30] [--jobs N]",
        "    python benchmarks/ladder_bench.py [--games 1000] [--jobs N]  # rewrites this page",
        "    python benchmarks/ladder_bench.py --quick        # a few games, into a temp folder",
        "    python benchmarks/ladder_bench.py --render       # this page again from the JSON",
        "",
        "## The machine",
        "",
        _machine_line(machine),
        "",
    ]
    return "\n".join(lines)


def _machine_line(machine: dict[str, Any] | None) -> str:
    if not machine:
        return "Not recorded (calibration runs of the lead, before the benchmark)."
    return (
        f"{machine['cpus']} cores, worker processes: {machine['jobs']}; load average "
        f"(1, 5, 15 min) {_three(machine['load_before'])} before and "
        f"{_three(machine['load_after'])} after; {machine['minutes']} minutes in all."
    )


def _three(load: list[float]) -> str:
    return ", ".join(f"{x:.2f}" for x in load)


def adopt_ladder(data: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """``data`` (the published figures) with its adjacent pairs replaced by those of a
    ``simulate --ladder --json`` run (``args.ladder_from``), which must have played the
    same seed and games a pair to the end; the pairs two apart are kept."""
    run = json.loads(args.ladder_from.read_text(encoding="utf-8"))
    if run["seed"] != data["seed"] or run["games_per_pair"] != data["games_per_pair"]:
        raise SystemExit("the run's seed or games a pair differ from the published figures")
    if run["stopped_by_bound"]:
        raise SystemExit("the run was stopped by its time bound: play it to the end")
    fields = ("upper", "lower", "games", "upper_wins")
    adjacent = [{k: m[k] for k in fields} for m in run["matches"]]
    names = [level.name for level in LEVELS]
    apart = [
        m for m in data["matches"] if abs(names.index(m["upper"]) - names.index(m["lower"])) > 1
    ]
    command = f"scorekeeper simulate --ladder --seed {run['seed']} --games {run['games_per_pair']}"
    return {
        **data,
        "matches": adjacent + apart,
        "ladder_from": {
            "command": command,
            "commit": _commit(),
            "date": datetime.date.today().isoformat(),
            "why": args.why or "a level changed",
        },
    }


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per adjacent pair")
    parser.add_argument("--extra-games", type=int, default=300, help="per pair two apart")
    parser.add_argument("--versus-games", type=int, default=1000, help="top vs today's expert")
    parser.add_argument("--positions", type=int, default=200, help="positions timed")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a few games, a temporary folder")
    parser.add_argument("--out", type=Path, help="write ladder.json and ladder.md here")
    parser.add_argument("--render", action="store_true", help="only render docs/ladder.md")
    parser.add_argument(
        "--ladder-from",
        type=Path,
        metavar="FILE",
        help="take the adjacent pairs from `scorekeeper simulate --ladder --json` output "
        "(same seed and games), keep the rest of ladder.json",
    )
    parser.add_argument("--why", default="", help="with --ladder-from: what changed")
    args = parser.parse_args()
    if args.quick:
        args.games, args.extra_games, args.versus_games, args.positions = 4, 2, 2, 6
        args.out = args.out or Path(tempfile.mkdtemp(prefix="ladder-bench-"))
    return args


def main() -> int:
    """Measure (or with ``--render`` only read ``ladder.json``), write, print the page."""
    args = _arguments()
    if args.ladder_from is not None:
        data = adopt_ladder(json.loads(PUBLISHED.read_text(encoding="utf-8")), args)
        PUBLISHED.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        PAGE.write_text(render(data), encoding="utf-8")
        print(f"took the adjacent pairs from {args.ladder_from}; wrote {PUBLISHED} and {PAGE}")
        return 0
    if args.render:
        data = json.loads(PUBLISHED.read_text(encoding="utf-8"))
        PAGE.write_text(render(data), encoding="utf-8")
        print(f"rendered {PAGE} from {PUBLISHED}")
        return 0
    data = measure(args)
    figures, page = PUBLISHED, PAGE
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        figures, page = args.out / "ladder.json", args.out / "ladder.md"
    figures.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    page.write_text(render(data), encoding="utf-8")
    print(render(data))
    print(f"wrote {figures} and {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
