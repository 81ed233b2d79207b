"""Bots: players that choose a move from what their seat may see.

Glossary:
- view: the seat's :class:`state.Observation`; a bot is given nothing else, together with
  the list of legal moves (which depends only on what the seat sees).
- deadwood: cards in a hand that no meld uses; they count against the holder (S7).

Levels (:data:`BOTS`): ``random`` picks any legal move; ``basic`` melds greedily (takes the
top discard when it melds or lays off, never only to keep it, :func:`strategy.idle_take`;
lays down and lays off everything it can, discards its highest loose card); ``strong``
plays to win (see :mod:`strategy`): it remembers the pile and what each opponent was seen
taking, weighs what they collect before discarding, and values a stock draw by sampling
the unseen cards; ``expert`` weighs its moves by Monte Carlo over the hidden cards (see
:mod:`expert`). Every bot's move comes with a sentence saying why, from what every seat
may see (:func:`bot_move_why`).

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
from ..game.state import GameState, Observation, Phase, observation
from ..scoring.score_round import card_points
from .expert import SAMPLES, ExpertBot
from .gambit_bots import GambitSense
from .strategy import StrongBot, idle_take
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
    everything it can (largest first), and discards its highest loose card."""

    name = "basic"

    def choose(self, view: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        """The greedy move among ``legal``."""
        phase = view.phase
        if phase is Phase.DRAW:
            return self._draw(view, legal)
        plays = [a for a in legal if isinstance(a, LayDown | LayOff)]
        if plays and phase is not Phase.RUMMY:
            return max(plays, key=lambda a: play_points(a, view))
        calls = [a for a in legal if isinstance(a, RummyCall)]
        if calls:
            return calls[-1]
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return self._discard(view, discards)
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

    def _discard(self, view: Observation, discards: list[Discard]) -> Action:
        loose = set(loose_cards(view.hand))
        rules = view.rules

        def badness(a: Discard) -> tuple[int, int]:
            return (a.card in loose, card_points(a.card, rules)[0])

        return max(discards, key=badness)


def bot_move(state: GameState, bot: Bot, rng: random.Random, legal: Sequence[Action]) -> Action:
    """``bot``'s move for the current seat of ``state``: it sees only that seat's view."""
    return bot.choose(observation(state, state.seat), legal, rng)


BOTS: dict[str, type] = {
    "random": RandomBot,
    "basic": BasicBot,
    "strong": StrongBot,
    "expert": ExpertBot,
}
"""Bot classes by level name."""


def make_bot(level: str, samples: int | None = None, budget: float | None = None) -> Bot:
    """A bot of ``level`` (a key of :data:`BOTS`). Raises ``ValueError`` for another.
    The basic and strong bots come wrapped in :class:`gambit_bots.GambitSense`, which
    plays dealer's gambit's moves (X2) and changes nothing else; the expert plays them
    itself, with ``samples`` sampled deals per decision (default
    :data:`expert.SAMPLES`), within ``budget`` seconds of CPU time per decision (None: no
    budget; see :class:`expert.ExpertBot`)."""
    if level == "expert":
        return ExpertBot(samples or SAMPLES, budget=budget)
    try:
        bot: Bot = BOTS[level]()
    except KeyError:
        raise ValueError(f"no bot level {level!r}: choose {', '.join(BOTS)}") from None
    return bot if level == "random" else GambitSense(bot)


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
