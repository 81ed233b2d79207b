"""The ladder's figures: matches between levels, their Elo ratings, and a person's estimate.

Glossary:
- match: games between two levels, two players to 500 (:class:`Match`): how many were
  decided and how many the upper level won (a game stopped by the simulator's guard has
  no winner and is not counted).
- interval: the 95% Wilson score interval of a win rate (:func:`wilson`).
- rating: a level's Elo rating (400 points: ten to one odds), fitted to the published
  matches (``ladder.json``, written by ``benchmarks/ladder_bench.py``) by maximum
  likelihood (Bradley-Terry), the weakest level held at :data:`ANCHOR`.
- estimate: a person's rating from their finished games against bots
  (:func:`estimate_rating`): each bot they finished ahead of counts a win, each one ahead of them
  a loss; the most likely rating given the levels' ratings, pulled gently towards the
  middle of the ladder (:data:`PRIOR_SPREAD`) so one game says little.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .levels import BOTS, FORMER_NAMES, LEVELS, Level, middle_level

ANCHOR = 1000
"""The weakest level's rating: every other rating is measured from it."""
PRIOR_SPREAD = 400.0
"""How far (Elo points, one standard deviation) a person's estimate may stray from the
middle of the ladder before their games have said much."""
PUBLISHED = Path(__file__).with_name("ladder.json")
"""The published matches: ``{"seed", "games_per_pair", "matches": [{"upper", "lower",
"games", "upper_wins"}]}``."""


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


def _known(
    results: Iterable[tuple[str, float]], table: Mapping[str, int]
) -> list[tuple[str, float]]:
    out = []
    for name, score in results:
        level = FORMER_NAMES.get(name, name)
        if level in table:
            out.append((level, score))
    return out
