"""One random legal move, drawn without building every legal move.

Glossary:
- uniform: each move of :func:`turns.legal_actions` equally likely.
- counted: the moves of a kind are counted and only the one drawn is built.

:func:`random_action` draws exactly the move ``legal_actions(state)[k]`` with
``k = rng.randrange(len(legal_actions(state)))``: the same distribution and the same use
of ``rng``, so random play gives the same games either way, only faster. In the PLAY
phase the lay-downs are searched only when the hand may hold a meld
(:func:`moves.may_hold_meld`, from the hand's :func:`hand_bits.lanes`) and the discards
are counted, not listed (a hand of different cards with none barred is its own list of
discards); in the DRAW
phase the pile indices are counted and only the drawn move is built; other phases
(short lists) and dealer's gambit (X2, whose moves :func:`turns.legal_actions` adds last)
draw from :func:`turns.legal_actions`.
"""

from __future__ import annotations

import random

from .actions import Action, LayOff, discard_of, take_from
from .cards import Card
from .draws import draw_options
from .hand_bits import lanes
from .moves import lanes_may_meld, may_hold_meld
from .plays import laydown_options, layoff_pairs
from .state import GameState, Phase
from .taking import may_discard
from .turns import legal_actions


def random_action(state: GameState, rng: random.Random) -> Action:
    """A legal move of the current seat drawn uniformly with ``rng`` (see the module
    docstring: exactly ``legal[rng.randrange(len(legal))]`` of :func:`legal_actions`).
    Raises ValueError when there is no legal move (the game is over)."""
    if state.gambit is None:
        if state.phase is Phase.PLAY:
            return _random_play(state, rng)
        if state.phase is Phase.DRAW:
            return _random_draw(state, rng)
    legal = legal_actions(state)
    return legal[rng.randrange(len(legal))]


def _random_draw(state: GameState, rng: random.Random) -> Action:
    """DRAW (T1, O3): :func:`draws.draw_options` counted, only the drawn move built."""
    first, indices, last = draw_options(state)
    k = rng.randrange((first is not None) + len(indices) + (last is not None))
    if first is not None:
        if k == 0:
            return first
        k -= 1
    if k < len(indices):
        return take_from(indices[k])
    assert last is not None
    return last


def _random_play(state: GameState, rng: random.Random) -> Action:
    """PLAY (T4, T5): the lay-downs, then the lay-offs, then the discards, as
    :func:`turns.legal_actions` orders them, the discards counted."""
    seat = state.seat
    hand = state.hands[seat]
    found = lanes(hand)  # None unless every card differs: then the discards are the hand
    if found is None:
        melds = may_hold_meld(hand, state.rules)
        discards = _discardable(hand, state.no_discard)
    else:
        melds = lanes_may_meld(found, state.rules)
        discards = hand if state.no_discard is None else _discardable(hand, state.no_discard)
    laydowns = laydown_options(state, seat, hand, None) if melds else []
    layoffs = layoff_pairs(state, seat, hand)
    k = rng.randrange(len(laydowns) + len(layoffs) + len(discards))
    if k < len(laydowns):
        return laydowns[k]
    k -= len(laydowns)
    if k < len(layoffs):
        return LayOff(*layoffs[k])
    return discard_of(discards[k - len(layoffs)])


def _discardable(hand: list[Card], banned: Card | None) -> list[Card]:
    """The different cards of ``hand`` that may be discarded (T5, O2, T3), in hand order."""
    distinct = list(dict.fromkeys(hand))  # cards compare and hash by identity
    if banned is None:
        return distinct
    return [card for card in distinct if may_discard(hand, card, banned)]
