"""The turn: the legal moves in any state, and making one.

Public: :func:`current_player`, :func:`legal_actions`, :func:`apply_action` (refuses an
illegal move with :class:`IllegalMove` and leaves the state unchanged), :func:`is_terminal`.
One pair of functions per :class:`Phase` (the draw in :mod:`draws`, the windows after a
discard in :mod:`windows`).

What ``legal_actions`` lists:
- START_PILE (D4): a discard of each different card in the hand.
- DRAW: the stock (T1; two cards under T6, :class:`DrawTwo`); each pile index whose card
  can be used at once (T2), plus the top card alone where it may be kept (T3). With the
  stock gone (O3): "draw from the discard pile" adds :class:`EndRound`; "play on" (and
  "reshuffle" once the pile cannot be reshuffled) adds :class:`Pass` (draw nothing); the
  top card may then only be taken to be used. "hands count" and "nobody deducts" end the
  round at once.
- MUST_USE: the lay-downs and lay-offs that use the selected card (T2).
- PLAY: the lay-downs of :func:`hand_melds.hand_melds` (M6, O2 applied), every lay-off of every
  card onto every meld it fits (L1 to L4; a wild joker at each end it fits), every discard
  of a different card (T5; not the card O2 bars).
- RUMMY (X1): :class:`Pass`, and each "Rummy!" call the pile allows.
- OUT_OF_TURN (T7): :class:`Pass`, and the lay-downs and lay-offs of PLAY (no discard).
- DEADWOOD (O4): :class:`EndRound`, and each lay-off onto the melds of the player who went
  out.
- Under dealer's gambit (X2) :func:`gambit.gambit_legal` adds its moves: the nomination
  (NOMINATE), splits (DRAW), plays with the dealer's joker, doubled sets and a block.
"""

from __future__ import annotations

from ..cards import Card
from ..messages import say
from .actions import (
    Action,
    Discard,
    EndRound,
    LayDown,
    LayOff,
    discard_of,
)
from .deal import end_round
from .draws import apply_draw, legal_draw
from .gambit import apply_gambit, gambit_legal
from .plays import (
    IllegalMove,
    laydown_options,
    layoff_options,
    pair_layoffs,
    play_cards,
    use_options,
    went_out,
)
from .state import GameState, Phase
from .taking import may_discard, may_lay_off_taken
from .windows import after_turn, apply_window, legal_window

__all__ = [
    "IllegalMove",
    "apply_action",
    "current_player",
    "is_terminal",
    "legal_actions",
]


def current_player(state: GameState) -> int | None:
    """The seat whose decision it is, or None when the game is over."""
    return None if state.phase is Phase.GAME_OVER else state.seat


def is_terminal(state: GameState) -> bool:
    """True when the game is over (target reached, G1, or two deals played, P5)."""
    return state.phase is Phase.GAME_OVER


def legal_actions(state: GameState) -> list[Action]:
    """Every legal move of the current seat (see the module docstring for what is listed);
    empty when the game is over."""
    handler = _LEGAL.get(state.phase)
    out = handler(state) if handler else []
    return out + gambit_legal(state) if state.gambit is not None else out


def apply_action(state: GameState, action: Action) -> None:
    """Make ``action`` for the current seat, in place. Raises :class:`IllegalMove` with
    the reason and the rule id when it is not legal now; the state is then unchanged."""
    if state.phase is Phase.GAME_OVER:
        raise IllegalMove(say("the game is over"), "G1")
    if state.gambit is not None and apply_gambit(state, action):
        return
    handler = _APPLY[state.phase]
    handler(state, action)


def _legal_start(state: GameState) -> list[Action]:
    return list(map(discard_of, dict.fromkeys(state.hands[state.seat])))  # each card once


def _apply_start(state: GameState, action: Action) -> None:
    hand = state.hands[state.seat]
    if not isinstance(action, Discard):
        raise IllegalMove(say("first choose a card from your hand to start the discard pile"), "D4")
    if not any(c is action.card for c in hand):
        raise IllegalMove(say("you do not hold the %(card)s", card=action.card.name), "D4")
    hand.remove(action.card)
    state.pile.append(action.card)
    state.deal["upcard"] = action.card.text
    state.deal["upcard_from"] = state.players[state.seat]
    state.phase = Phase.DRAW


def _legal_must_use(state: GameState) -> list[Action]:
    seat = state.seat
    card = state.must_use
    assert card is not None
    return list(use_options(state, seat, card, state.hands[seat], rummy=state.rummy))


def _apply_must_use(state: GameState, action: Action) -> None:
    card = state.must_use
    assert card is not None
    if isinstance(action, LayOff):
        if not may_lay_off_taken(state.rules, state.rummy):
            raise IllegalMove(
                say(
                    "the %(card)s must go into a new meld, not be laid off (no picking up to hit)",
                    card=card.name,
                ),
                "T2",
            )
        if action.card.physical is not card and not state.rummy:
            _lay_off_partner(state, action, card)
            return
    elif not isinstance(action, LayDown):
        raise IllegalMove(
            say("first use the %(card)s you took from the pile", card=card.name), "T2"
        )
    play_cards(state, action, card)


def _lay_off_partner(state: GameState, action: LayOff, card: Card) -> None:
    """T2 with seed 002's pair: another card goes first only as the partner that lets the
    selected ``card`` follow (:func:`plays.pair_layoffs`); the card is still to be used."""
    if action not in pair_layoffs(state, state.seat, card, state.hands[state.seat]):
        raise IllegalMove(
            say(
                "the %(card)s taken from the pile must be used at once: another card "
                "goes first only as its pair on a run",
                card=card.name,
            ),
            "T2",
        )
    play_cards(state, action, None)
    state.phase, state.must_use = Phase.MUST_USE, card


def _legal_play(state: GameState) -> list[Action]:
    seat = state.seat
    hand = state.hands[seat]
    out: list[Action] = []
    out.extend(laydown_options(state, seat, hand, None))
    out.extend(layoff_options(state, seat, hand))
    banned = state.no_discard
    distinct = dict.fromkeys(hand)  # cards hash by identity: each card once, in hand order
    if banned is None:  # T3, O2: only a barred card may not be discarded
        out.extend(map(discard_of, distinct))
    else:
        out.extend(discard_of(c) for c in distinct if may_discard(hand, c, banned))
    return out


def _apply_play(state: GameState, action: Action) -> None:
    if isinstance(action, Discard):
        _discard(state, action)
    elif isinstance(action, (LayDown, LayOff)):
        play_cards(state, action, None)
    else:
        raise IllegalMove(say("lay down, lay off, or discard to end your turn"), "T4")


def _discard(state: GameState, action: Discard) -> None:
    seat = state.seat
    hand = state.hands[seat]
    card = action.card
    if card not in hand:  # cards compare by identity
        raise IllegalMove(say("you do not hold the %(card)s", card=card.physical.name), "T5")
    if not may_discard(hand, card, state.no_discard):
        rule = "O2" if state.rules.discard_to_go_out else "T3"
        raise IllegalMove(
            say("the %(card)s you just took from the pile cannot be discarded", card=card.name),
            rule,
        )
    hand.remove(card)
    known = state.known[seat]
    if card in known:
        known.remove(card)
    state.pile.append(card)
    state.log.append((seat, action))
    if not hand:
        went_out(state, seat)
        return
    state.turns += 1
    after_turn(state, (state.turn_seat + 1) % state.n)


def _legal_deadwood(state: GameState) -> list[Action]:
    seat = state.seat
    out: list[Action] = [EndRound()]
    out.extend(layoff_options(state, seat, state.hands[seat], onto=state.went_out))
    return out


def _apply_deadwood(state: GameState, action: Action) -> None:
    if isinstance(action, EndRound):
        state.log.append((state.seat, action))
        end_round(state, "went out")
    elif isinstance(action, LayOff):
        play_cards(state, action, None)
        if not layoff_options(state, state.seat, state.hands[state.seat], onto=state.went_out):
            end_round(state, "went out")
    else:
        raise IllegalMove(
            say("lay off deadwood onto the melds of the player who went out, or stop"), "O4"
        )


_LEGAL = {
    Phase.START_PILE: _legal_start,
    Phase.DRAW: legal_draw,
    Phase.MUST_USE: _legal_must_use,
    Phase.PLAY: _legal_play,
    Phase.RUMMY: legal_window,
    Phase.OUT_OF_TURN: legal_window,
    Phase.DEADWOOD: _legal_deadwood,
}
_APPLY = {
    Phase.START_PILE: _apply_start,
    Phase.DRAW: apply_draw,
    Phase.MUST_USE: _apply_must_use,
    Phase.PLAY: _apply_play,
    Phase.RUMMY: apply_window,
    Phase.OUT_OF_TURN: apply_window,
    Phase.DEADWOOD: _apply_deadwood,
}
