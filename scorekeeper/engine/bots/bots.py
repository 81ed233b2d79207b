"""Bots: players that choose a move from what their seat may see.

Glossary:
- view: the seat's :class:`state.Observation`; a bot is given nothing else, together with
  the list of legal moves (which depends only on what the seat sees).
- deadwood: cards in a hand that no meld uses; they count against the holder (S7).

The players (the ladder of levels built from them: :mod:`levels`): ``RandomBot`` picks any
legal move (the simulator's baseline); ``BasicBot`` melds greedily (takes the top discard
when it melds or lays off, never only to keep it, :func:`strategy.idle_take`; lays down
and lays off everything it can, discards its highest loose card); the strong bot plays to
win (see :mod:`strategy`); the expert weighs its moves by Monte Carlo over the hidden
cards (see :mod:`expert`). Every bot's move comes with a sentence saying why, from what
every seat may see (:func:`bot_move_why`).

Use :func:`bot_move` to get a bot's move for the current seat of a game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from ..cards import DOUBLE, Card
from ..game.actions import (
    Action,
    Discard,
    Draw,
    DrawTwo,
    EndRound,
    LayDown,
    LayOff,
    Pass,
    RummyCall,
)
from ..game.hand_melds import hand_melds
from ..game.state import GameState, Observation, Phase, observation
from ..scoring.score_round import card_points
from .strategy import idle_take
from .why import explain


class Bot(Protocol):
    """A player: ``choose(view, legal, rng)`` returns one of ``legal``."""

    name: str

    def choose(self, view: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """One of ``legal`` for the seat whose ``view`` this is."""
        ...


class RandomBot:
    """Any legal move, uniformly at random."""

    name = "random"

    def choose(self, view: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """A uniformly random member of ``legal``."""
        return legal[rng.randrange(len(legal))]


def loose_cards(hand: Sequence[Card]) -> list[Card]:
    """Cards with no partner: no other card of their rank and no card of their suit within
    two ranks (the ace next to both the 2 and the king). Jokers are never loose."""
    out = []
    for i, c in enumerate(hand):
        if c.rank == 0:
            continue
        partnered = False
        for j, o in enumerate(hand):
            if i == j or o.rank == 0:
                continue
            if o.rank == c.rank or (o.suit == c.suit and _near(o.rank, c.rank)):
                partnered = True
                break
        if not partnered:
            out.append(c)
    return out


def _near(a: int, b: int) -> bool:
    d = abs(a - b)
    return d <= 2 or d >= 11


def play_points(action: LayDown | LayOff, view: Observation) -> int:
    """Points a play puts on the table (in-hand values; enough to rank plays; a set under
    a joker nominated double counts twice, X2)."""
    cards = action.melds if isinstance(action, LayDown) else ((action.card,),)
    return (
        sum(card_points(c, view.rules)[0] * (2 if DOUBLE in m else 1) for m in cards for c in m) + 1
    )


class BasicBot:
    """Melds greedily: takes the top discard when it can use it, lays down and lays off
    everything it can (largest first), and discards its highest loose card.
    ``own_melds`` True lays off only onto its own melds (as a beginner who has not yet
    learnt that L1 allows any meld on the table); ``counts`` False discards any loose
    card, whatever its points (S1 to S5)."""

    name = "basic"

    def __init__(self, own_melds: bool = False, counts: bool = True) -> None:
        self.own_melds = own_melds
        self.counts = counts

    def choose(self, view: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The greedy move among ``legal``."""
        phase = view.phase
        if phase is Phase.DRAW:
            return self._draw(view, legal)
        plays = [a for a in legal if isinstance(a, LayDown | LayOff) and self._sees(a, view)]
        if plays and phase is not Phase.RUMMY:
            return max(plays, key=lambda a: play_points(a, view))
        calls = [a for a in legal if isinstance(a, RummyCall)]
        if calls:
            return calls[-1]
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return self._discard(view, discards, rng)
        for kind in (Pass, EndRound):
            for a in legal:
                if isinstance(a, kind):
                    return a
        return legal[0]

    def _draw(self, view: Observation, legal: Sequence[Action]) -> Action:
        top = len(view.pile) - 1
        stock: Action | None = None
        for a in legal:
            if isinstance(a, Draw) and a.source == "discard" and a.index == top:
                if not idle_take(view, a):
                    return a
            if isinstance(a, DrawTwo) or (isinstance(a, Draw) and a.source == "stock"):
                stock = a
        if stock is not None:
            return stock
        takes = [a for a in legal if isinstance(a, Draw)]
        return takes[-1] if takes else legal[-1]

    def _sees(self, play: LayDown | LayOff, view: Observation) -> bool:
        """Whether it thinks of ``play`` (a lay-off onto another seat's meld only when it
        lays off onto any meld)."""
        return not (self.own_melds and isinstance(play, LayOff)) or (
            view.owners[play.meld] == view.seat
        )

    def _discard(self, view: Observation, discards: list[Discard], rng: random.Random) -> Action:
        """A loose card (the highest, or any when it does not count points), else a card
        no meld in its hand uses (one it may not lay down yet, M6), else the highest."""
        loose = set(loose_cards(view.hand))
        rules = view.rules
        melded = {c for meld in hand_melds(list(view.hand), rules) for c in meld}
        if not self.counts:
            pool = [a for a in discards if a.card in loose]
            pool = pool or [a for a in discards if a.card not in melded] or discards
            return pool[rng.randrange(len(pool))]

        def badness(a: Discard) -> tuple[bool, bool, int]:
            return (a.card in loose, a.card not in melded, card_points(a.card, rules)[0])

        return max(discards, key=badness)


def bot_move(state: GameState, bot: Bot, rng: random.Random, legal: Sequence[Action]) -> Action:
    """``bot``'s move for the current seat of ``state``: it sees only that seat's view."""
    return bot.choose(observation(state, state.seat), legal, rng)


def move_reason(state: GameState, action: Action) -> str:
    """Why the current seat of ``state`` makes ``action``, in the one sentence every seat
    is shown with it (:func:`why.explain` said to the table): from public figures only,
    the same whatever cards the seat holds, whichever bot or person moves. The expert's
    expected differences come from its hand: they are said to the seat itself only
    (:func:`expert.advise`)."""
    return explain(observation(state, state.seat), action)


def bot_move_why(
    state: GameState, bot: Bot, rng: random.Random, legal: Sequence[Action]
) -> tuple[Action, str]:
    """:func:`bot_move` and the sentence every seat is shown with it
    (:func:`move_reason`)."""
    action = bot_move(state, bot, rng, legal)
    return action, move_reason(state, action)
