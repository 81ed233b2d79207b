"""The turn: the legal moves in any state, and making one.

Public: :func:`current_player`, :func:`legal_actions`, :func:`apply_action` (refuses an
illegal move with :class:`IllegalMove` and leaves the state unchanged), :func:`is_terminal`.
One pair of functions per :class:`Phase`.

What ``legal_actions`` lists:
- START_PILE (D4): a discard of each different card in the hand.
- DRAW: the stock (T1; two cards under T6, :class:`DrawTwo`); each pile index whose card
  can be used at once (T2), plus the top card alone where it may be kept (T3). With the
  stock gone (O3): "draw from the discard pile" adds :class:`EndRound`; "play on" (and
  "reshuffle" once the pile cannot be reshuffled) adds :class:`Pass` (draw nothing); the
  top card may then only be taken to be used. "hands count" and "nobody deducts" end the
  round at once.
- MUST_USE: the lay-downs and lay-offs that use the selected card (T2).
- PLAY: the lay-downs of :func:`moves.hand_melds` (M6, O2 applied), every lay-off of every
  card onto every meld it fits (L1 to L4; a wild joker at each end it fits), every discard
  of a different card (T5; not the card O2 bars).
- RUMMY (X1): :class:`Pass`, and each "Rummy!" call the pile allows.
- OUT_OF_TURN (T7): :class:`Pass`, and the lay-downs and lay-offs of PLAY (no discard).
- DEADWOOD (O4): :class:`EndRound`, and each lay-off onto the melds of the player who went
  out.
"""

from __future__ import annotations

import random

from .actions import (
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
from .cards import Card
from .melds import Meld, extend
from .moves import fits, hand_melds, holds
from .plays import (
    IllegalMove,
    check_laydown,
    check_layoff,
    do_laydown,
    do_layoff,
    laydown_options,
    layoff_options,
    may_discard,
    may_lay_off_on,
    table_accepts,
    use_options,
)
from .rounds import MAX_RESHUFFLES, MAX_TURNS_FACTOR, end_round
from .rules import RuleSet
from .state import GameState, Phase

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
    return handler(state) if handler else []


def apply_action(state: GameState, action: Action) -> None:
    """Make ``action`` for the current seat, in place. Raises :class:`IllegalMove` with
    the reason and the rule id when it is not legal now; the state is then unchanged."""
    if state.phase is Phase.GAME_OVER:
        raise IllegalMove("the game is over", "G1")
    handler = _APPLY[state.phase]
    handler(state, action)


# ---- the stock running out (O3) ------------------------------------------------------


def stock_gone(state: GameState) -> bool:
    """True when the stock is empty (or the round has run past its turn limit)."""
    return not state.stock or state.turns >= MAX_TURNS_FACTOR * state.n


def begin_turn(state: GameState, seat: int) -> None:
    """Start ``seat``'s turn: the DRAW phase, after O3 has had its say."""
    state.phase = Phase.DRAW
    state.seat = state.turn_seat = seat
    state.must_use = state.no_discard = None
    state.rummy = False
    state.window = []
    if not stock_gone(state):
        return
    mode = state.rules.stock_exhausted
    if mode in ("hands-count", "nobody-deducts"):
        end_round(state, "stock exhausted")
    elif mode == "reshuffle" and not state.stock and state.reshuffles < MAX_RESHUFFLES:
        if len(state.pile) >= 2 and state.turns < MAX_TURNS_FACTOR * state.n:
            _reshuffle(state)


def _reshuffle(state: GameState) -> None:
    """O3 "reshuffle": every pile card but the top one, shuffled, is the new stock."""
    state.reshuffles += 1
    stock = state.pile[:-1]
    rng = random.Random(state.seed * 7919 + state.deal_number * 101 + state.reshuffles)
    rng.shuffle(stock)
    state.stock = stock
    state.pile = state.pile[-1:]
    state.log.append((-1, {"event": "reshuffle", "stock": [c.text for c in reversed(stock)]}))


# ---- START_PILE (D4) -----------------------------------------------------------------


def _legal_start(state: GameState) -> list[Action]:
    return [Discard(c) for c in _distinct(state.hands[state.seat])]


def _apply_start(state: GameState, action: Action) -> None:
    hand = state.hands[state.seat]
    if not isinstance(action, Discard):
        raise IllegalMove("first choose a card from your hand to start the discard pile", "D4")
    if not any(c is action.card for c in hand):
        raise IllegalMove(f"you do not hold the {action.card.name}", "D4")
    hand.remove(action.card)
    state.pile.append(action.card)
    state.deal["upcard"] = action.card.text
    state.deal["upcard_from"] = state.players[state.seat]
    state.phase = Phase.DRAW


def _distinct(cards: list[Card]) -> list[Card]:
    seen: set[int] = set()
    out = []
    for c in cards:
        if id(c) not in seen:
            seen.add(id(c))
            out.append(c)
    return out


# ---- DRAW ----------------------------------------------------------------------------


def _may_keep_top(state: GameState, index: int) -> bool:
    return (
        state.rules.top_discard == "may-keep"
        and index == len(state.pile) - 1
        and not stock_gone(state)
    )


def can_take(state: GameState, seat: int, index: int, *, rummy: bool = False) -> bool:
    """True when ``seat`` may take the pile from ``index`` up: the selected card can be
    used at once (T2), or it is the top card and may be kept (T3)."""
    if _may_keep_top(state, index) and not rummy:
        return True
    pile = state.pile
    card = pile[index]
    rules = state.rules
    plain = (
        not rules.first_meld_minimum and not rules.discard_to_go_out and rules.joker_use == "none"
    )
    if card.rank:
        lays_off = (
            state.opened[seat]
            and (rummy or rules.discard_use == "meld-or-lay-off")
            and table_accepts(state).get(card)
        )
        if lays_off and plain and state.teams is None:
            return True
        if not lays_off:
            melds = _quick_meld(card, state.hands[seat], pile, index, rules)
            if melds is not None and (plain or not melds):
                return melds
    hand = state.hands[seat] + pile[index:]
    return bool(use_options(state, seat, card, hand, rummy=rummy, first=True))


def _quick_meld(
    card: Card, own: list[Card], pile: list[Card], index: int, rules: RuleSet
) -> bool | None:
    """Whether the natural ``card`` melds with ``own`` and the pile cards above ``index``
    (M1, M3, M4), without jokers; None when jokers make the quick answer unsure."""
    rank, suit = card.rank, card.suit
    suits: list[str] = []
    ranks = 0
    for cards in (own, pile[index + 1 :]):
        for c in cards:
            r = c.rank
            if r == 0:
                if rules.joker_use == "wild":
                    return None
            elif r == rank:
                suits.append(c.suit)
            elif c.suit == suit:
                ranks |= 1 << r
    same = len(set(suits) - {suit}) if rules.same_suit_in_set == "forbidden" else len(suits)
    if same >= 2:
        return True
    if rules.ace_in_run == "round-the-corner":
        return None
    return _run_through(ranks, rank, rules.min_run)


def _run_through(ranks: int, rank: int, need: int) -> bool:
    """True when the rank bits ``ranks`` (bit r for rank r, the ace bit 1) make a run of
    ``need`` or more through ``rank`` (M3), the ace low or high, never both (M4)."""
    if ranks & 2:
        ranks |= 1 << 14
    ranks |= 1 << rank
    for pos in (rank, 14) if rank == 1 else (rank,):
        if pos == 14:
            ranks |= 1 << 14
        low = pos
        while low > 1 and ranks >> (low - 1) & 1:
            low -= 1
        high = pos
        while high < 14 and ranks >> (high + 1) & 1:
            high += 1
        if high - low + 1 >= need:
            return True
    return False


def _takeable(state: GameState, seat: int) -> list[int]:
    """The pile indices ``seat`` may take from (T1 to T3). Plain rules (no jokers, no
    corner runs, no M6, no O2, no sides) are answered in one pass down the pile."""
    rules = state.rules
    pile = state.pile
    if (
        rules.joker_use != "none"
        or rules.ace_in_run == "round-the-corner"
        or rules.first_meld_minimum
        or rules.discard_to_go_out
        or state.teams is not None
    ):
        return [i for i in range(len(pile)) if can_take(state, seat, i)]
    lay = state.opened[seat] and rules.discard_use == "meld-or-lay-off"
    takes = table_accepts(state) if lay and state.table else {}
    distinct = rules.same_suit_in_set == "forbidden"
    need = rules.min_run
    by_rank: list[list[str]] = [[] for _ in range(14)]
    bits = dict.fromkeys("SHDC", 0)
    for c in state.hands[seat]:
        by_rank[c.rank].append(c.suit)
        bits[c.suit] |= 1 << c.rank
    out: list[int] = []
    top = len(pile) - 1
    keep_top = _may_keep_top(state, top) if pile else False
    for i in range(top, -1, -1):
        card = pile[i]
        suits = by_rank[card.rank]
        same = len(set(suits) - {card.suit}) if distinct else len(suits)
        if (
            (i == top and keep_top)
            or card in takes
            or same >= 2
            or _run_through(bits[card.suit], card.rank, need)
        ):
            out.append(i)
        suits.append(card.suit)
        bits[card.suit] |= 1 << card.rank
    out.reverse()
    return out


def _legal_draw(state: GameState) -> list[Action]:
    seat = state.seat
    out: list[Action] = []
    gone = stock_gone(state)
    if not gone:
        out.append(DrawTwo() if state.rules.draw_two_from_stock else Draw("stock"))
    out.extend(Draw("discard", i) for i in _takeable(state, seat))
    if gone:
        out.append(EndRound() if state.rules.stock_exhausted == "draw-from-discard" else Pass())
    return out


def _apply_draw(state: GameState, action: Action) -> None:
    seat = state.seat
    gone = stock_gone(state)
    if isinstance(action, Draw | DrawTwo) and (
        isinstance(action, DrawTwo) or action.source == "stock"
    ):
        _draw_stock(state, seat, action, gone)
    elif isinstance(action, Draw) and action.source == "discard":
        index = action.index if action.index is not None else -1
        if not 0 <= index < len(state.pile):
            raise IllegalMove(f"the discard pile has no card {action.index}", "T1")
        if not can_take(state, seat, index):
            card = state.pile[index]
            raise IllegalMove(_cannot_use(state, card), "T2")
        state.log.append((seat, action))
        take(state, seat, index)
    elif isinstance(action, EndRound) and gone:
        if state.rules.stock_exhausted != "draw-from-discard":
            raise IllegalMove("the round does not end this way under these rules", "O3")
        state.log.append((seat, action))
        end_round(state, "stock exhausted")
    elif isinstance(action, Pass) and gone and state.rules.stock_exhausted != "draw-from-discard":
        state.log.append((seat, action))
        state.phase = Phase.PLAY
    else:
        raise IllegalMove("first draw: from the stock, or from the discard pile", "T1")


def _cannot_use(state: GameState, card: Card) -> str:
    if state.rules.discard_use == "new-meld-only":
        return (
            f"the {card.name} can be taken only to go straight into a new meld of three or "
            "more with it (no picking up to hit)"
        )
    return f"the {card.name} can be taken only if you use it at once, in a meld or a lay-off"


def _draw_stock(state: GameState, seat: int, action: Draw | DrawTwo, gone: bool) -> None:
    two = state.rules.draw_two_from_stock
    if gone:
        raise IllegalMove("the stock is used up", "O3")
    if two != isinstance(action, DrawTwo):
        if two:
            raise IllegalMove("under these rules a stock draw is two cards", "T6")
        raise IllegalMove("a stock draw is one card under these rules", "T6")
    count = min(2 if two else 1, len(state.stock))
    for _ in range(count):
        state.hands[seat].append(state.stock.pop())
    state.log.append((seat, action))
    state.phase = Phase.PLAY


def take(state: GameState, seat: int, index: int, *, rummy: bool = False) -> None:
    """Take the pile from ``index`` up into ``seat``'s hand (T1); the selected card must
    then be used (T2) unless it is the top card kept (T3). Under O2 it may not be the
    final discard."""
    card = state.pile[index]
    keep = _may_keep_top(state, index) and not rummy
    taken = state.pile[index:]
    del state.pile[index:]
    state.hands[seat].extend(taken)
    state.known[seat].extend(taken)
    state.must_use = None if keep else card
    state.rummy = rummy
    state.no_discard = card if keep or state.rules.discard_to_go_out else None
    state.phase = Phase.PLAY if keep else Phase.MUST_USE


# ---- MUST_USE, PLAY, OUT_OF_TURN, DEADWOOD -------------------------------------------


def _legal_must_use(state: GameState) -> list[Action]:
    seat = state.seat
    card = state.must_use
    assert card is not None
    return list(use_options(state, seat, card, state.hands[seat], rummy=state.rummy))


def _apply_must_use(state: GameState, action: Action) -> None:
    card = state.must_use
    assert card is not None
    if isinstance(action, LayOff):
        if not state.rummy and state.rules.discard_use == "new-meld-only":
            raise IllegalMove(
                f"the {card.name} must go into a new meld, not be laid off (no picking up to hit)",
                "T2",
            )
    elif not isinstance(action, LayDown):
        raise IllegalMove(f"first use the {card.name} you took from the pile", "T2")
    _play(state, action, card)


def _legal_play(state: GameState) -> list[Action]:
    seat = state.seat
    hand = state.hands[seat]
    out: list[Action] = []
    out.extend(laydown_options(state, seat, hand, None))
    out.extend(layoff_options(state, seat, hand))
    banned = state.no_discard
    out.extend(Discard(c) for c in _distinct(hand) if may_discard(hand, c, banned))
    return out


def _apply_play(state: GameState, action: Action) -> None:
    if isinstance(action, Discard):
        _discard(state, action)
    elif isinstance(action, LayDown | LayOff):
        _play(state, action, None)
    else:
        raise IllegalMove("lay down, lay off, or discard to end your turn", "T4")


def _play(state: GameState, action: LayDown | LayOff, must: Card | None) -> None:
    seat = state.seat
    if isinstance(action, LayDown):
        checked = check_laydown(state, seat, action, must)
        do_laydown(state, seat, action, checked)
    else:
        onto = state.went_out if state.phase is Phase.DEADWOOD else None
        grown, rest = check_layoff(state, seat, action, must, onto)
        do_layoff(state, seat, action, grown, rest)
    state.log.append((seat, action))
    if state.phase is Phase.MUST_USE:
        state.phase = Phase.PLAY
    if not state.hands[seat] and state.phase is not Phase.DEADWOOD:
        went_out(state, seat)


def _discard(state: GameState, action: Discard) -> None:
    seat = state.seat
    hand = state.hands[seat]
    card = action.card
    i = next((k for k, c in enumerate(hand) if c is card), -1)
    if i < 0:
        raise IllegalMove(f"you do not hold the {card.physical.name}", "T5")
    if not may_discard(hand, card, state.no_discard):
        rule = "O2" if state.rules.discard_to_go_out else "T3"
        raise IllegalMove(f"the {card.name} you just took from the pile cannot be discarded", rule)
    del hand[i]
    known = state.known[seat]
    if any(k is card for k in known):
        known.remove(card)
    state.pile.append(card)
    state.log.append((seat, action))
    if not hand:
        went_out(state, seat)
        return
    state.turns += 1
    after_turn(state, (state.turn_seat + 1) % state.n)


def went_out(state: GameState, seat: int) -> None:
    """O1: ``seat`` went out; under O4 (two players) the other lays off deadwood first."""
    state.went_out = seat
    other = 1 - seat
    if state.rules.deadwood_after_out and state.n == 2 and state.hands[other]:
        if layoff_options(state, other, state.hands[other], onto=seat):
            state.phase = Phase.DEADWOOD
            state.seat = other
            state.must_use = state.no_discard = None
            state.log.append((-1, {"event": "deadwood", "player": state.players[other]}))
            return
    end_round(state, "went out")


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
        _play(state, action, None)
        if not layoff_options(state, state.seat, state.hands[state.seat], onto=state.went_out):
            end_round(state, "went out")
    else:
        raise IllegalMove(
            "lay off deadwood onto the melds of the player who went out, or stop", "O4"
        )


# ---- windows after a discard: "Rummy!" (X1) and melding out of turn (T7) --------------


def after_turn(state: GameState, next_seat: int) -> None:
    """After a discard: the "Rummy!" window (X1), the out-of-turn window (T7), then the
    next seat's turn."""
    state.resume_seat = next_seat
    discarder = state.turn_seat
    others = [(discarder + k) % state.n for k in range(1, state.n)]
    if state.rules.rummy_call != "off":
        state.phase = Phase.RUMMY
        state.window = others
        if _open_window(state):
            return
    _out_of_turn_window(state)


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
        if card.rank == 0:
            return []
        return [RummyCall(top, a.meld) for a in layoff_options(state, seat, [card], only=card)]
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


def _legal_window(state: GameState) -> list[Action]:
    return _window_options(state, state.seat)


def _apply_window(state: GameState, action: Action) -> None:
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
        _play(state, action, None)
        if state.phase is Phase.OUT_OF_TURN and not _window_has_more(state, seat):
            _apply_window(state, Pass())
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


_LEGAL = {
    Phase.START_PILE: _legal_start,
    Phase.DRAW: _legal_draw,
    Phase.MUST_USE: _legal_must_use,
    Phase.PLAY: _legal_play,
    Phase.RUMMY: _legal_window,
    Phase.OUT_OF_TURN: _legal_window,
    Phase.DEADWOOD: _legal_deadwood,
}
_APPLY = {
    Phase.START_PILE: _apply_start,
    Phase.DRAW: _apply_draw,
    Phase.MUST_USE: _apply_must_use,
    Phase.PLAY: _apply_play,
    Phase.RUMMY: _apply_window,
    Phase.OUT_OF_TURN: _apply_window,
    Phase.DEADWOOD: _apply_deadwood,
}
