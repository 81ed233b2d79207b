"""A fast greedy policy for playing a sampled deal forward (the expert's rollouts).

Glossary:
- greedy move: take the top discard when it makes a meld with the hand (T1, T2), else draw
  from the stock (a deeper look, ``depth`` cards into the pile, takes where a meld with the
  card taken is worth most, less :data:`EXTRA_SHARE` of the other cards taken with it);
  lay down the meld of most points (T4), lay off what fits (L1) once the seat has opened,
  discard the highest card that has no partner (T5; else the highest).
- fallback: when the greedy move is refused (:class:`plays.IllegalMove`: a first meld
  under M6's minimum, a card barred by O2, a window's phase) the first suitable move of
  :func:`turns.legal_actions` is made instead.

The greedy move is tried without listing every legal move (listing them is the engine's
slow part): :func:`turns.apply_action` checks it and leaves the state unchanged when it
refuses, so the policy only ever makes legal moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card
from ..checker.candidates import candidate_melds
from ..game.actions import Action, Discard, Draw, DrawTwo, EndRound, LayDown, LayOff, Pass
from ..game.hand_melds import accepts, hand_melds, meld_points
from ..game.plays import IllegalMove
from ..game.state import GameState, Phase
from ..game.turns import apply_action, legal_actions
from ..scoring.score_round import card_points

EXTRA_SHARE = 0.5
"""A deep take counts this share of the points of the cards taken with the one melded (they
may be caught in hand, S7)."""


def greedy_move(state: GameState, depth: int = 1) -> Action | None:
    """The greedy move of the current seat (see the glossary), looking ``depth`` cards
    into the discard pile, or None where the phase has none (windows, must-use, the stock
    gone)."""
    seat, rules = state.seat, state.rules
    hand = state.hands[seat]
    if state.phase is Phase.DRAW:
        if not state.stock:
            return None
        index = pile_take(state, depth)
        return Draw("stock") if index is None else Draw("discard", index)
    if state.phase is not Phase.PLAY:
        return None
    melds = hand_melds(hand, rules) if len(hand) > 2 else []
    if melds:
        return LayDown(max(melds, key=lambda m: meld_points(m, rules)))
    if state.opened[seat] and state.table:
        fits = accepts(state.table, rules)
        for card in hand:
            if card in fits and len(hand) > 1:
                return LayOff(card, fits[card][0])
    return Discard(_worst(hand, state))


def pile_take(state: GameState, depth: int) -> int | None:
    """The index of the greedy take among the top ``depth`` cards of the pile: the card
    whose best meld with the hand and the cards above it is worth most, less
    :data:`EXTRA_SHARE` of the cards above it that the meld leaves (T2: the card taken must
    be melded); None when no card there melds (the top card alone at ``depth`` 1)."""
    rules, pile = state.rules, state.pile
    hand = state.hands[state.seat]
    best: tuple[float, int] | None = None
    for index in range(len(pile) - 1, max(-1, len(pile) - 1 - depth), -1):
        above = pile[index + 1 :]
        melds = candidate_melds(pile[index], [*hand, *above], rules)
        if not melds:
            continue
        if depth == 1:
            return index
        meld = max(melds, key=lambda m: meld_points(m.cards, rules))
        used = {id(c) for c in meld.cards}
        left = sum(card_points(c, rules)[0] for c in above if id(c) not in used)
        value = meld_points(meld.cards, rules) - EXTRA_SHARE * left
        if value > 0 and (best is None or value > best[0]):
            best = (value, index)
    return None if best is None else best[1]


def _worst(hand: Sequence[Card], state: GameState) -> Card:
    rules = state.rules

    def badness(card: Card) -> tuple[bool, bool, int]:
        partnered = any(
            o is not card
            and o.rank
            and (o.rank == card.rank or (o.suit == card.suit and abs(o.rank - card.rank) <= 2))
            for o in hand
        )
        return (card is not state.no_discard, not partnered, card_points(card, rules)[0])

    return max(hand, key=badness)


def fallback(legal: Sequence[Action]) -> Action:
    """The first play (lay-down or lay-off), else a discard of the highest card, else a
    stock draw, a pass or the end of the round, else the first legal move."""
    for action in legal:
        if isinstance(action, LayDown | LayOff):
            return action
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards:
        return max(discards, key=lambda a: a.card.rank)
    for action in legal:
        if isinstance(action, DrawTwo | Pass | EndRound) or (
            isinstance(action, Draw) and action.source == "stock"
        ):
            return action
    return legal[0]


def play_greedy(state: GameState, depth: int = 1) -> None:
    """Make the current seat's greedy move in ``state`` (looking ``depth`` cards into the
    pile), or the fallback when it is refused or there is none. Raises ValueError when no
    move is legal (game over)."""
    move = greedy_move(state, depth)
    if move is not None:
        try:
            apply_action(state, move)
            return
        except IllegalMove:
            pass
    legal = legal_actions(state)
    if not legal:
        raise ValueError("no legal move: the game is over")
    apply_action(state, fallback(legal))
