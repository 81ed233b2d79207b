"""The ladder of bot levels a person picks from, weakest first, each named for the player
it plays like and a fair step above the one below.

Glossary:
- level: a :class:`Level`: its ``name`` (the key every game stores), its ``title`` for
  people, how it plays in words, and how to build its bot.
- fair step: each level wins about 65-75% of two-player games to 500 against the level
  below (``scorekeeper simulate --ladder``; figures in docs/ladder.md).
- rating: a level's Elo rating, fitted from the ladder's published matches
  (:mod:`ladder`, ``ladder.json``); a person's own estimate is on the same scale.

The knobs are a person's: which heuristics a level knows (laying off onto any meld, a
card's points, what a discard gives away), how deep into the discard pile it looks
(:class:`strategy.Style`), and how many deals of the hidden cards the experts weigh
(:class:`expert.ExpertBot`). No level makes a move a person would laugh at: none
discards a card a meld in its hand uses while a loose card can go, none takes a discard
only to keep it (:func:`strategy.idle_take`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..messages import say
from .bots import BasicBot, Bot, RandomBot
from .expert import ExpertBot
from .gambit_bots import GambitSense
from .strategy import StrongBot, Style


@dataclass(frozen=True)
class Level:
    """One level of the ladder: ``name`` (stored with each game), ``title`` (for people),
    ``words`` (how it plays, one sentence; both :class:`Message` s), ``samples`` (the
    sampled deals per decision of an expert level, 0 for the others) and
    ``build(samples, budget)`` making its bot (``budget``: seconds of CPU time per decision,
    None for none)."""

    name: str
    title: str
    words: str
    samples: int
    build: Callable[[int, float | None], Bot]

    def bot(self, budget: float | None = None, samples: int | None = None) -> Bot:
        """A new bot of this level; an expert level weighs ``samples`` deals (its own
        when None) within ``budget`` CPU seconds a decision."""
        return self.build(samples or self.samples, budget)


def _heuristic(make: Callable[[], Bot]) -> Callable[[int, float | None], Bot]:
    return lambda _samples, _budget: GambitSense(make())


def _expert(samples: int, budget: float | None, depth: int = 1) -> Bot:
    return ExpertBot(samples, budget=budget, depth=depth)


MASTER_DEPTH = 6
"""How deep into the discard pile the master's rollouts look for a take (the expert's look
at the top card only, as the greedy policy does)."""


def _master(samples: int, budget: float | None) -> Bot:
    return _expert(samples, budget, MASTER_DEPTH)


LEVELS: tuple[Level, ...] = (
    Level(
        "beginner",
        say("Beginner"),
        say(
            "knows the melds, lays off only onto its own melds and throws away any loose card, "
            "whatever it is worth"
        ),
        0,
        _heuristic(lambda: BasicBot(own_melds=True, counts=False)),
    ),
    Level(
        "casual",
        say("Casual"),
        say(
            "melds greedily: takes the top discard when it can use it, lays down and lays off "
            "all it can, discards its highest loose card"
        ),
        0,
        _heuristic(BasicBot),
    ),
    Level(
        "steady",
        say("Steady"),
        say(
            "weighs its hand: looks up to three cards into the discard pile, keeps the cards "
            "most likely to meld"
        ),
        0,
        _heuristic(lambda: StrongBot(Style(depth=3))),
    ),
    Level(
        "strong",
        say("Strong"),
        say(
            "plays to win: reads the whole discard pile, remembers what each player took, "
            "weighs what its discards give away"
        ),
        0,
        _heuristic(StrongBot),
    ),
    Level(
        "expert",
        say("Expert"),
        say(
            "deals out the cards it cannot see a few times over, plays each a few turns ahead "
            "and picks the move that scores best"
        ),
        3,
        _expert,
    ),
    Level(
        "master",
        say("Master"),
        say(
            "deals out the cards it cannot see many times over and plays each a few turns "
            "ahead, every player reading the discard pile six cards deep, then picks the move "
            "that scores best (slower)"
        ),
        16,
        _master,
    ),
)
"""The ladder, weakest first (figures: docs/ladder.md)."""

BOTS: dict[str, Level] = {level.name: level for level in LEVELS}
"""The levels by name, weakest first."""

FORMER_NAMES: dict[str, str] = {"basic": "casual", "strong": "strong", "expert": "expert"}
"""The levels' names before the ladder, for games and command lines of that time."""

RANDOM = "random"
"""The simulator's baseline: any legal move at random (:class:`bots.RandomBot`); no level
of the ladder, never offered at a table."""


def middle_level() -> Level:
    """The level in the middle of the ladder (the upper of the two middle ones): the
    stand-in for a person who went away from a shared table."""
    return LEVELS[len(LEVELS) // 2]


def make_bot(level: str, samples: int | None = None, budget: float | None = None) -> Bot:
    """A bot of ``level`` (a key of :data:`BOTS`, a former name of :data:`FORMER_NAMES`,
    or :data:`RANDOM`). Raises ``ValueError`` for another. The heuristic levels come
    wrapped in :class:`gambit_bots.GambitSense`, which plays dealer's gambit's moves (X2)
    and changes nothing else; the expert levels play them themselves, with ``samples``
    sampled deals per decision (the level's own when None), within ``budget`` seconds
    of CPU time per decision (None: no budget; see :class:`expert.ExpertBot`)."""
    if level == RANDOM:
        return RandomBot()
    found = BOTS.get(FORMER_NAMES.get(level, level))
    if found is None:
        raise ValueError(f"no bot level {level!r}: choose {', '.join(BOTS)}")
    return found.bot(budget, samples)
