"""The ladder's figures: matches between levels, their Elo ratings, and a person's estimate.

Glossary:
- match: games between two levels, two players to 500 (:class:`Match`): how many were
  decided and how many the upper level won (a game stopped by the simulator's guard has
  no winner and is not counted).
- interval: the 95% Wilson score interval of a win rate (:func:`wilson`).
- rating: a level's Elo rating (400 points: ten to one odds), fitted to the published
  matches (``ladder.json``, written by ``benchmarks/ladder_bench.py``) by maximum
  likelihood (Bradley-Terry), the weakest level held at :data:`ANCHOR`.
- pair of games: two games on the same deal (the same game seed), the levels' seats
  swapped, so the luck of the deal cancels (:func:`play_match`).
- fair step: an upper level winning 65-75% of its match against the level below, its
  interval inside 60-80% (:func:`fair_step`).
- estimate: a person's rating from their finished games against bots
  (:func:`estimate_rating`): each bot they finished ahead of counts a win, each one ahead of them
  a loss; the most likely rating given the levels' ratings, pulled gently towards the
  middle of the ladder (:data:`PRIOR_SPREAD`) so one game says little.
"""

from __future__ import annotations

import json
import math
import random
import signal
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..game.state import GameState
from .levels import BOTS, FORMER_NAMES, LEVELS, Level, make_bot, middle_level
from .simulate import play_game, winning_seats

ANCHOR = 1000
"""The weakest level's rating: every other rating is measured from it."""
PRIOR_SPREAD = 400.0
"""How far (Elo points, one standard deviation) a person's estimate may stray from the
middle of the ladder before their games have said much."""
PUBLISHED = Path(__file__).with_name("ladder.json")
"""The published matches: ``{"seed", "games_per_pair", "matches": [{"upper", "lower",
"games", "upper_wins"}]}``."""
FAIR = (0.65, 0.75)
"""A fair step's win rate of the upper level (the issue's aim)."""
FAIR_INTERVAL = (0.60, 0.80)
"""A fair step's 95% interval must lie inside this."""


@dataclass(frozen=True)
class Match:
    """``games`` decided games between levels ``upper`` and ``lower`` (names), of which
    ``upper`` won ``upper_wins``."""

    upper: str
    lower: str
    games: int
    upper_wins: int

    @property
    def rate(self) -> float:
        """The upper level's share of the games (0 with none)."""
        return self.upper_wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`rate`."""
        return wilson(self.upper_wins, self.games)

    def to_json(self) -> dict[str, object]:
        """``{"upper", "lower", "games", "upper_wins"}``."""
        return {
            "upper": self.upper,
            "lower": self.lower,
            "games": self.games,
            "upper_wins": self.upper_wins,
        }


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` of ``wins`` out of ``games`` (95% for
    the default ``z``); ``(0.0, 1.0)`` with no games."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    d = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / d
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def expected(rating: float, other: float) -> float:
    """The chance a player rated ``rating`` beats one rated ``other`` (Elo)."""
    return 1.0 / (1.0 + 10 ** ((other - rating) / 400.0))


def fit_ratings(matches: Iterable[Match], anchor: str | None = None) -> dict[str, int]:
    """Elo ratings of every level in ``matches``, the most likely given their results
    (Bradley-Terry, fitted by minorization-maximization), ``anchor`` (default the
    weakest level by :data:`LEVELS` order among them) held at :data:`ANCHOR`. Each
    level must have won and lost at least one game, or ``ValueError``."""
    played = [m for m in matches if m.games]
    names = sorted({n for m in played for n in (m.upper, m.lower)}, key=_order)
    wins = dict.fromkeys(names, 0.0)
    for m in played:
        wins[m.upper] += m.upper_wins
        wins[m.lower] += m.games - m.upper_wins
    lost = {n: sum(m.games for m in played if n in (m.upper, m.lower)) - wins[n] for n in names}
    unfit = [n for n in names if not wins[n] or not lost[n]]
    if unfit:
        raise ValueError(f"no rating fits {', '.join(unfit)}: it won or lost every game")
    strength = dict.fromkeys(names, 1.0)
    for _ in range(2000):
        new = {n: wins[n] / _exposure(n, played, strength) for n in names}
        total = sum(new.values())
        new = {n: v * len(names) / total for n, v in new.items()}
        done = max(abs(math.log(new[n] / strength[n])) for n in names) < 1e-10
        strength = new
        if done:
            break
    base = anchor or names[0]
    scale = 400.0 / math.log(10)
    return {n: round(ANCHOR + scale * math.log(strength[n] / strength[base])) for n in names}


def _exposure(name: str, matches: Sequence[Match], strength: Mapping[str, float]) -> float:
    """The MM step's denominator for ``name``: its games, each over both strengths."""
    total = 0.0
    for m in matches:
        if name in (m.upper, m.lower):
            total += m.games / (strength[m.upper] + strength[m.lower])
    return total


def _order(name: str) -> int:
    names = list(BOTS)
    return names.index(name) if name in names else len(names)


def published() -> list[Match]:
    """The published matches (``ladder.json``)."""
    data = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    return [Match(**m) for m in data["matches"]]


@cache
def ladder_ratings() -> dict[str, int]:
    """Every level's rating, fitted to the published matches (:func:`fit_ratings`)."""
    return fit_ratings(published())


def nearest_level(rating: float, ratings: Mapping[str, int] | None = None) -> Level:
    """The level whose rating is nearest ``rating`` (the lower of two as near)."""
    table = ratings or ladder_ratings()
    return min(LEVELS, key=lambda level: (abs(table[level.name] - rating), table[level.name]))


@dataclass(frozen=True)
class Estimate:
    """A person's estimated ``rating`` (Elo), the ``level`` nearest it and the number of
    ``results`` (one per bot in each finished game) it rests on."""

    rating: int
    level: Level
    results: int


def estimate_rating(
    results: Iterable[tuple[str, float]], ratings: Mapping[str, int] | None = None
) -> Estimate | None:
    """A person's :class:`Estimate` from ``results``: ``(bot level, score)`` pairs, score
    1 when they finished ahead of that bot, 0 behind it, 0.5 level (former level names
    are read as today's: :data:`levels.FORMER_NAMES`; other names are skipped). None
    with no result. The most likely rating under Elo's odds times a normal prior around
    the middle level's rating (:data:`PRIOR_SPREAD`), found by Newton's method."""
    table = ratings or ladder_ratings()
    games = [(table[n], float(s)) for n, s in _known(results, table)]
    if not games:
        return None
    centre = float(table[middle_level().name])
    r = centre
    k = math.log(10) / 400.0
    for _ in range(50):
        p = [expected(r, other) for other, _ in games]
        grad = sum(k * (s - q) for (_, s), q in zip(games, p, strict=True))
        grad -= (r - centre) / PRIOR_SPREAD**2
        curve = -sum(k * k * q * (1 - q) for q in p) - 1 / PRIOR_SPREAD**2
        step = grad / curve
        r -= step
        if abs(step) < 1e-6:
            break
    rating = round(r)
    return Estimate(rating, nearest_level(rating, table), len(games))


def results_against(
    state: GameState, seat: int, levels: Sequence[str | None]
) -> list[tuple[str, float]]:
    """The player at ``seat``'s results in the finished game ``state`` against each bot
    seat (``levels[s]`` its level, None for a person), for :func:`estimate_rating`: 1 when
    they finished ahead of it (the winner is ahead of everyone, then the higher total),
    0 behind, 0.5 level; under partnership rules (P1) by side, a partner giving none.
    None finished: no result."""
    if state.winner is None:
        return []
    won = {state.unit_of(s) for s in winning_seats(state)}
    totals: dict[int, int] = {}
    for s, total in enumerate(state.totals):
        totals[state.unit_of(s)] = totals.get(state.unit_of(s), 0) + total
    mine = state.unit_of(seat)
    found = []
    for other_seat, level in enumerate(levels):
        other = state.unit_of(other_seat)
        if level is None or other == mine:
            continue
        if won & {mine, other}:
            score = 1.0 if mine in won else 0.0
        else:
            score = 0.5 + 0.5 * ((totals[mine] > totals[other]) - (totals[mine] < totals[other]))
        found.append((level, score))
    return found


def _known(
    results: Iterable[tuple[str, float]], table: Mapping[str, int]
) -> list[tuple[str, float]]:
    out = []
    for name, score in results:
        level = FORMER_NAMES.get(name, name)
        if level in table:
            out.append((level, score))
    return out


def fair_step(match: Match) -> bool:
    """Whether ``match`` is a fair step: its rate within :data:`FAIR` and its interval
    within :data:`FAIR_INTERVAL` (False with no games)."""
    low, high = match.interval
    return (
        match.games > 0
        and FAIR[0] <= match.rate <= FAIR[1]
        and FAIR_INTERVAL[0] <= low
        and high <= FAIR_INTERVAL[1]
    )


def title(name: str) -> str:
    """A level's title for people (its name when it is no level, e.g. ``random``)."""
    level = BOTS.get(name)
    return level.title if level else name


def match_line(match: Match, width: int = 8) -> str:
    """``Steady vs Casual   1,000 games   73.5% (70.7-76.1%)   fair step``, the pair's
    names padded to ``width`` each; with no games ``... 0 games``."""
    pair = f"{title(match.upper):<{width}} vs {title(match.lower):<{width}}"
    if not match.games:
        return f"{pair} {match.games:>7,} games"
    low, high = match.interval
    verdict = "fair step" if fair_step(match) else "NOT a fair step (65-75%, interval in 60-80%)"
    return (
        f"{pair} {match.games:>7,} games  {match.rate:6.1%} ({low * 100:.1f}-{high:.1%})  {verdict}"
    )


Progress = Callable[[int, int], None]
"""``progress(done, total)``: games played (decided or stopped at the guard) of all."""


@dataclass(frozen=True)
class _Game:
    """One game of a match: the ``pair`` (match index) it counts for, its levels, its
    game seed and whether the seats are swapped (the lower level deals first)."""

    pair: int
    upper: str | Level
    lower: str | Level
    seed: int
    swapped: bool


def _play(game: _Game) -> tuple[int, bool | None]:
    """``(pair, True when the upper level won)``; None for a game with no winner."""
    seats = [game.lower, game.upper] if game.swapped else [game.upper, game.lower]
    result = play_game(2, seats, seed=game.seed)
    if len(result.winners) != 1:
        return game.pair, None
    return game.pair, result.winners[0] == int(game.swapped)


def _name(level: str | Level) -> str:
    return level if isinstance(level, str) else level.name


def play_match(
    upper: str | Level,
    lower: str | Level,
    games: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    deadline: float | None = None,
    progress: Progress | None = None,
) -> Match:
    """The :class:`Match` of ``games`` two-player games to 500 (preset standard) between
    levels ``upper`` and ``lower`` (names for :func:`levels.make_bot`, or a
    :class:`levels.Level`, which must pickle when ``jobs`` > 1), played in pairs on one
    deal, seats swapped; the game seeds are drawn from ``seed`` (the same seed plays the
    same games, whatever ``jobs``). ``jobs`` worker processes (1: in this process); no
    game starts after ``deadline`` (a :func:`time.monotonic` instant), the games
    decided by then are counted. Raises ``ValueError`` for an unknown level or
    negative ``games``."""
    return play_pairs(
        [(upper, lower)], games, seed=seed, jobs=jobs, deadline=deadline, progress=progress
    )[0]


def play_ladder(
    games: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    seconds: float | None = None,
    progress: Progress | None = None,
    levels: Sequence[Level] = LEVELS,
) -> list[Match]:
    """A :func:`play_match` of ``games`` games for each adjacent pair of ``levels``
    (weakest first; the upper the stronger), weakest pair first. The pairs' games are
    interleaved (a pair of games of each in turn) under one bound of ``seconds`` (None:
    none) and one ``progress`` count over them all."""
    pairs = [(up.name, low.name) for low, up in zip(levels, levels[1:], strict=False)]
    deadline = None if seconds is None else time.monotonic() + seconds
    return play_pairs(pairs, games, seed=seed, jobs=jobs, deadline=deadline, progress=progress)


def play_pairs(
    pairs: Sequence[tuple[str | Level, str | Level]],
    games: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    deadline: float | None = None,
    progress: Progress | None = None,
) -> list[Match]:
    """One :class:`Match` per ``(upper, lower)`` of ``pairs``, as :func:`play_match`
    plays one, the pairs' games interleaved and all of them on the same deals."""
    if games < 0:
        raise ValueError(f"games must be 0 or more, not {games}")
    for upper, lower in pairs:
        for level in (upper, lower):
            if isinstance(level, str):
                make_bot(level)
    draw = random.Random(seed)
    deals = [draw.randrange(2**31) for _ in range((games + 1) // 2)]
    plan = [
        _Game(p, upper, lower, deals[g // 2], bool(g % 2))
        for g in range(games)
        for p, (upper, lower) in enumerate(pairs)
    ]
    tally = [[0, 0] for _ in pairs]
    for pair, upper_won in _run(plan, jobs, deadline, progress):
        if upper_won is not None:
            tally[pair][0] += 1
            tally[pair][1] += upper_won
    return [
        Match(_name(upper), _name(lower), played, won)
        for (upper, lower), (played, won) in zip(pairs, tally, strict=True)
    ]


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() >= deadline


def _run(
    plan: Sequence[_Game], jobs: int, deadline: float | None, progress: Progress | None
) -> Iterable[tuple[int, bool | None]]:
    """Each game's :func:`_play` result, ``jobs`` at a time, none started past
    ``deadline``; ``progress`` after each."""
    results = _in_process(plan, deadline) if jobs <= 1 else _in_pool(plan, jobs, deadline)
    for done, result in enumerate(results, start=1):
        if progress is not None:
            progress(done, len(plan))
        yield result


def _in_process(plan: Sequence[_Game], deadline: float | None) -> Iterable[tuple[int, bool | None]]:
    for game in plan:
        if _past(deadline):
            return
        yield _play(game)


def _deaf() -> None:
    """A worker process ignores Ctrl-C (SIGINT): the parent stops the match, and the
    games in play end there, with no traceback from each worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_pool(
    plan: Sequence[_Game], jobs: int, deadline: float | None
) -> Iterable[tuple[int, bool | None]]:
    """:func:`_play` in ``jobs`` worker processes, one game each at a time, so that no
    game waits in a queue past ``deadline``."""
    waiting = iter(plan)
    running: set[Future[tuple[int, bool | None]]] = set()
    with ProcessPoolExecutor(jobs, initializer=_deaf) as pool:
        while True:
            while len(running) < jobs and not _past(deadline):
                game = next(waiting, None)
                if game is None:
                    break
                running.add(pool.submit(_play, game))
            if not running:
                return
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
