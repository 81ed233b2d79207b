"""How the basic and strong bots play dealer's gambit (catalogue X2, seed 002).

:class:`GambitSense` wraps a bot: without X2 it changes nothing; with it, it decides the
X2 moves and leaves every other choice to the bot it wraps (which never sees the X2
moves it does not know). The random bot is not wrapped: it picks any legal move, X2's
too.

What it does (seed 002: "Each joker nomination may be used strategically by the dealer to
improve their position or undermine that of other players"):
- nominate: "double" when the dealer holds a set (three of a rank) to double at once,
  else "wild" (a wild card helps any hand).
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
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from .actions import Action, Block, Draw, LayDown, Nominate, Split
from .cards import DOUBLE
from .dealers_joker import DealersJoker
from .scoring import card_points
from .state import Observation, Phase


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
        return Nominate(nomination_for(view))
    doubles = [a for a in legal if isinstance(a, LayDown) and DOUBLE in a.cards]
    if doubles:
        return max(doubles, key=lambda a: (a.dealers_joker, _points(a, view)))
    if any(isinstance(a, Block) for a in legal) and _dealer_is_threat(view, g):
        return Block()
    return None


def nomination_for(view: Observation) -> str:
    """ "double" with a set of three (or more) of a rank in the hand, else "wild"."""
    ranks = Counter(c.rank for c in view.hand if c.rank)
    return "double" if ranks and max(ranks.values()) >= 3 else "wild"


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
