"""How the basic and strong bots play dealer's gambit (catalogue X2, seed 002).

:class:`GambitSense` wraps a bot: without X2 it changes nothing; with it, it decides the
X2 moves and leaves every other choice to the bot it wraps (which never sees the X2
moves it does not know). The random bot is not wrapped: it picks any legal move, X2's
too.

What it does (seed 002: "Each joker nomination may be used strategically by the dealer to
improve their position or undermine that of other players"):
- nominate: always "double" (:data:`NOMINATION`). The dealer nominates "before any of the
  players look at their cards", so the choice uses nothing of the hand (the dealer's
  view holds none then, :func:`state.observation`), and one fixed choice is the best the
  bots found: strong bots dealing the same 600 seeded first rounds with the dealer's
  nomination fixed (``benchmarks/nomination_bench.py``) gained over the other players'
  average round +23.6 points with "double", +14.5 with "wild" and +0.6 with "split" at
  2 players; +15.7, +7.7 and +1.9 at 3; +15.0, +8.7 and +1.6 at 4 (standard errors 1.6
  to 2.9 points). A wild joker dealt to another player helps that player, while under
  "double" a joker helps only a hand that makes a set; a split waits for a pile to grow.
- double: lays down its best set with a joker over it as soon as it can (the dealer's
  joker first, before another player blocks it).
- split: where the bot would take the discard pile from a card with cards under it, it
  splits there instead, so that the cards under it leave the hand.
- block: another player holding a joker blocks the dealer's joker when the dealer's side
  is level with or ahead of its own (the dealer is the threat), never a partner's.
- wild: the dealer's joker lay-downs and lay-offs are ordinary plays the wrapped bot
  weighs with the rest.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, Protocol

from ..cards import DOUBLE
from ..game.actions import Action, Block, Draw, LayDown, Nominate, Split
from ..game.state import Observation, Phase
from ..rules.dealers_joker import DealersJoker
from ..scoring.score_round import card_points

NOMINATION: Final = "double"
"""The bots' nomination in every deal they make (X2): see the module docstring for why
it is one fixed choice, and why this one."""


class _Chooser(Protocol):
    name: str

    def choose(self, view: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal``."""
        ...


class GambitSense:
    """A bot (``inner``) that also plays dealer's gambit's moves; ``name`` is the inner
    bot's."""

    def __init__(self, inner: _Chooser) -> None:
        self.inner = inner
        self.name = inner.name

    def choose(self, view: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The X2 move worth making, else the inner bot's choice among the other moves."""
        g = view.gambit
        if g is None:
            return self.inner.choose(view, legal, rng)
        chosen = x2_choice(view, g, legal)
        if chosen is not None:
            return chosen
        plain = [a for a in legal if not isinstance(a, Nominate | Split | Block)]
        action = self.inner.choose(view, plain or legal, rng)
        return _as_split(action, legal)


def x2_choice(view: Observation, g: DealersJoker, legal: Sequence[Action]) -> Action | None:
    """The nomination, a doubled set or a block when one is worth making, else None."""
    if view.phase is Phase.NOMINATE:
        return Nominate(NOMINATION)
    doubles = [a for a in legal if isinstance(a, LayDown) and DOUBLE in a.cards]
    if doubles:
        return max(doubles, key=lambda a: (a.dealers_joker, _points(a, view)))
    if any(isinstance(a, Block) for a in legal) and _dealer_is_threat(view, g):
        return Block()
    return None


def _points(action: LayDown, view: Observation) -> int:
    return sum(card_points(c, view.rules)[0] for c in action.cards)


def _dealer_is_threat(view: Observation, g: DealersJoker) -> bool:
    """The dealer's total is level with or above this seat's; never a partner (P1)."""
    me, dealer = view.seat, g.dealer
    teams = view.teams
    if teams is not None and any(me in t and dealer in t for t in teams):
        return False
    return view.totals[dealer] >= view.totals[me]


def _as_split(action: Action, legal: Sequence[Action]) -> Action:
    """A take from the pile at a card with cards under it becomes a split there, when
    one is legal (the dealer's joker first)."""
    if not (isinstance(action, Draw) and action.source == "discard" and action.index):
        return action
    splits = [a for a in legal if isinstance(a, Split) and a.index == action.index]
    if not splits:
        return action
    return max(splits, key=lambda a: a.dealers_joker)
