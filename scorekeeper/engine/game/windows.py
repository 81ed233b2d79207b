"""The windows after a discard: the "Rummy!" call (X1) and melding out of turn (T7).

Glossary:
- window: the seats asked in turn, starting left of the player who discarded, whether
  they call or play; each answers with a move or :class:`Pass`. Seats with nothing to do
  are skipped.
"""

from __future__ import annotations

from ..cards import Card
from ..melds import Meld, extend
from .actions import Action, LayDown, LayOff, Pass, RummyCall
from .draws import begin_turn, can_take, ends_with_the_turn, take
from .hand_melds import accepts, fits, hand_melds, holds
from .plays import (
    IllegalMove,
    laydown_options,
    layoff_options,
    may_lay_off_on,
    play_cards,
)
from .state import GameState, Phase


def after_turn(state: GameState, next_seat: int) -> None:
    """After a discard: the "Rummy!" window (X1), the out-of-turn window (T7), then the
    next seat's turn; neither window when the round ends with this turn (O3,
    :func:`draws.ends_with_the_turn`)."""
    state.resume_seat = next_seat
    state.must_use = state.no_discard = None
    if ends_with_the_turn(state):
        begin_turn(state, next_seat)
        return
    if state.rules.rummy_call != "off":
        discarder = state.turn_seat
        state.phase = Phase.RUMMY
        state.window = [(discarder + k) % state.n for k in range(1, state.n)]
        if _open_window(state):
            return
    if state.rules.out_of_turn_melding:
        _out_of_turn_window(state)
    else:
        begin_turn(state, next_seat)


def _out_of_turn_window(state: GameState) -> None:
    if state.rules.out_of_turn_melding:
        state.phase = Phase.OUT_OF_TURN
        state.window = [
            (state.turn_seat + k) % state.n
            for k in range(1, state.n)
            if (state.turn_seat + k) % state.n != state.resume_seat
        ]
        if _open_window(state):
            return
    begin_turn(state, state.resume_seat)


def _open_window(state: GameState) -> bool:
    """Move to the first seat of the window with something to do; False when none has."""
    while state.window:
        seat = state.window[0]
        state.seat = seat
        if len(_window_options(state, seat)) > 1:
            return True
        state.window.pop(0)
    return False


def _window_options(state: GameState, seat: int) -> list[Action]:
    out: list[Action] = [Pass()]
    if state.phase is Phase.RUMMY:
        out.extend(rummy_calls(state, seat))
    else:
        hand = state.hands[seat]
        out.extend(laydown_options(state, seat, hand, None))
        out.extend(layoff_options(state, seat, hand))
    return out


def rummy_calls(state: GameState, seat: int) -> list[RummyCall]:
    """The "Rummy!" calls ``seat`` may make (X1): under "lay-off-only" the top card laid off
    onto each meld it fits; under "play-then-turn" each pile card that fits a table meld
    or makes a meld with cards above it in the pile, and that the caller can use."""
    pile = state.pile
    if not pile:
        return []
    if state.rules.rummy_call == "lay-off-only":
        top = len(pile) - 1
        card = pile[top]
        if card.rank == 0 or not state.opened[seat]:
            return []
        return [
            RummyCall(top, index)
            for index in accepts(state.table, state.rules).get(card, ())
            if may_lay_off_on(state, seat, index)
        ]
    out = []
    for index, card in enumerate(pile):
        if _pile_plays(state, seat, index, card) and can_take(state, seat, index, rummy=True):
            out.append(RummyCall(index))
    return out


def _pile_plays(state: GameState, seat: int, index: int, card: Card) -> bool:
    if card.rank and any(
        may_lay_off_on(state, seat, i) and _fits(m, card, state) for i, m in enumerate(state.table)
    ):
        return True
    above = state.pile[index + 1 :]
    if len(above) < 2:
        return False
    return any(holds(m, card) for m in hand_melds([card, *above], state.rules))


def _fits(meld: Meld, card: Card, state: GameState) -> bool:
    return fits(meld, card, state.rules)


def legal_window(state: GameState) -> list[Action]:
    return _window_options(state, state.seat)


def apply_window(state: GameState, action: Action) -> None:
    seat = state.seat
    if isinstance(action, Pass):
        state.window.pop(0)
        if _open_window(state):
            return
        if state.phase is Phase.RUMMY:
            _out_of_turn_window(state)
        else:
            begin_turn(state, state.resume_seat)
    elif state.phase is Phase.RUMMY and isinstance(action, RummyCall):
        _call_rummy(state, seat, action)
    elif state.phase is Phase.OUT_OF_TURN and isinstance(action, LayDown | LayOff):
        play_cards(state, action, None)
        if state.phase is Phase.OUT_OF_TURN and not _window_has_more(state, seat):
            apply_window(state, Pass())
    else:
        raise IllegalMove("call, play, or pass", "X1" if state.phase is Phase.RUMMY else "T7")


def _window_has_more(state: GameState, seat: int) -> bool:
    return len(_window_options(state, seat)) > 1


def _call_rummy(state: GameState, seat: int, action: RummyCall) -> None:
    if action not in rummy_calls(state, seat):
        raise IllegalMove(
            "that card cannot be called: it must fit a meld on the table (or "
            "make one with the cards above it in the pile)",
            "X1",
        )
    state.window = []
    if state.rules.rummy_call == "lay-off-only":
        card = state.pile.pop()
        meld = action.meld if action.meld is not None else -1
        state.table[meld] = extend(state.table[meld], card, state.rules)
        state.layoffs.append((seat, card, meld))
        state.log.append((-1, {"event": "rummy", "card": card.text}))
        state.log.append((seat, action))
        _out_of_turn_window(state)
        return
    state.log.append((seat, action))
    state.turn_seat = state.seat = seat
    take(state, seat, action.index, rummy=True)
