"""The draw (T1, T3, T6) and the stock running out (O3).

Glossary:
- take: draw from the discard pile: the card at an index and every card above it (T1).
- stock gone: the stock is empty (no rule text limits a round's turns); then O3 decides:
  the round ends ("hands count", "nobody deducts"), players may go on drawing from the
  pile ("draw from the discard pile", :class:`EndRound` to stop), the pile is reshuffled
  into a new stock ("reshuffle", at most :data:`deal.MAX_RESHUFFLES` times), or play
  goes on without drawing (:class:`Pass`) until someone goes out ("play on").
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from functools import reduce
from operator import or_

from ..cards import SUITS, Card, make_pack
from ..melds import RunShape, run_shape, suits_must_differ
from ..messages import Message, say
from ..rules.ruleset import RuleSet
from .actions import Action, Draw, DrawTwo, EndRound, Pass, take_from
from .deal import MAX_RESHUFFLES, end_round
from .hand_melds import RANK_COUNT, SUIT_RANK, accepts
from .plays import (
    IllegalMove,
    may_lay_off_on,
    pair_layoffs,
    use_options,
)
from .state import GameState, Phase
from .taking import NEIGHBOURS, barred_discard, may_keep_top, may_lay_off_taken, table_pairs


def stock_gone(state: GameState) -> bool:
    """True when the stock is empty (O3)."""
    return not state.stock


def ends_with_the_turn(state: GameState) -> bool:
    """O3: True when the stock is empty and the rules end the round there ("hands count",
    "nobody deducts"; 003: "Game play continues until one player, or the stock, has run
    out of cards. The hand then ends immediately, with no further melding possible"): the
    round ends with the turn that emptied it, with no "Rummy!" call (X1) or out-of-turn
    melding (T7) on its discard. Under the other readings play goes on (and a call with
    it)."""
    return stock_gone(state) and state.rules.stock_exhausted in ("hands-count", "nobody-deducts")


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
    if ends_with_the_turn(state):
        end_round(state, "stock exhausted")
    elif mode == "reshuffle" and not state.stock and state.reshuffles < MAX_RESHUFFLES:
        if len(state.pile) >= 2:
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


def _may_keep_top(state: GameState, index: int) -> bool:
    return may_keep_top(state.rules, index, len(state.pile)) and not stock_gone(state)


def can_take(state: GameState, seat: int, index: int, *, rummy: bool = False) -> bool:
    """True when ``seat`` may take the pile from ``index`` up: the selected card can be
    used at once (T2), or it is the top card and may be kept (T3). Under plain rules
    (:func:`_plain`), outside a "Rummy!" call (X1), the answer is :func:`_one_pass`'s, down
    the pile from the top to ``index``: the same one that lists the draws."""
    if not rummy and _plain(state):
        return index in _one_pass(state, seat, index)
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
            and may_lay_off_taken(rules, rummy)
            and accepts(state.table, rules).get(card)
        )
        if lays_off and plain and state.teams is None:
            return True
        if not lays_off:
            melds = _quick_meld(card, state.hands[seat], pile, index, rules)
            paired = not melds and not rummy and _may_pair(state, seat, index)
            if melds is not None and (plain or not melds) and not paired:
                return melds
    hand = state.hands[seat] + pile[index:]
    saved = state.no_discard
    state.no_discard = barred_discard(rules, pile[index:], False)
    try:
        return bool(use_options(state, seat, card, hand, rummy=rummy, first=True))
    finally:
        state.no_discard = saved


def _quick_meld(
    card: Card, own: list[Card], pile: list[Card], index: int, rules: RuleSet
) -> bool | None:
    """Whether the natural ``card`` melds with ``own`` and the pile cards above ``index``
    (M1, M2, M3, M4), without jokers; None when wild jokers make the quick answer unsure."""
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
    if _set_through(suits, suit, rules):
        return True
    return run_through(ranks, rank, run_shape(rules))


def _set_through(suits: list[str], suit: str, rules: RuleSet) -> bool:
    """True when cards of the suits ``suits`` make a set with one of ``suit`` (M1, M2)."""
    if suits_must_differ(rules):
        return len(set(suits) - {suit}) >= 2
    return len(suits) >= 2


def run_through(ranks: int, rank: int, shape: RunShape) -> bool:
    """True when the rank bits ``ranks`` (bit r for rank r, the ace bit 1) with ``rank``
    hold a run through ``rank`` that the rules allow (M3, M4): one of the shortest runs
    :func:`melds.run_shape` derives from :func:`melds.run_refusal`."""
    ranks |= 1 << rank
    return any(mask & ranks == mask for mask in shape.through[rank])


def _may_pair(state: GameState, seat: int, index: int) -> bool:
    """Seed 002's pair: the card at ``index`` of the pile may be taken to be laid off after
    a partner (:func:`plays.pair_layoffs`; T2 must allow lay-offs); a quick look for a
    neighbour of its suit first."""
    if not (state.opened[seat] and state.table and may_lay_off_taken(state.rules)):
        return False
    card = state.pile[index]
    hand = state.hands[seat] + state.pile[index:]
    if card.is_joker or not any(
        c.suit == card.suit and (1 << c.rank) & _NEXT_TO[card.rank] for c in hand
    ):
        return False
    return bool(pair_layoffs(state, seat, card, hand))


def _plain(state: GameState) -> bool:
    """No jokers (none wild, none held under X2), no first-meld minimum (M6), no final
    discard (O2), no sides (P1): the rules under which :func:`_takeable` answers in one
    pass down the pile."""
    rules = state.rules
    return not (
        rules.joker_use != "none"
        or rules.dealers_gambit
        or rules.first_meld_minimum
        or rules.discard_to_go_out
        or state.teams is not None
    )


def _takeable(state: GameState, seat: int) -> list[int]:
    """The pile indices ``seat`` may take from (T1 to T3): :func:`can_take` for each,
    or under plain rules (:func:`_plain`) :func:`_one_pass`."""
    if not _plain(state):
        return [i for i in range(len(state.pile)) if can_take(state, seat, i)]
    return _one_pass(state, seat)


def _one_pass(state: GameState, seat: int, lowest: int = 0) -> list[int]:
    """:func:`_takeable` under plain rules in one pass down the pile, top first, as far
    as index ``lowest`` (:func:`can_take` asks down to the index it is asked about), the
    cards above each index joining the hand's: a card is taken to be laid off alone (the
    table's :func:`hand_melds.accepts`) or after a partner (:func:`taking.table_pairs`,
    looked at only where a partner the table takes is held, :func:`_partner_held`), to
    make a run (:func:`run_through`) or a set (M1, M2: two more suits of its rank held
    where suits must differ, else two more cards of its rank), or kept as the top card
    (T3). The cards held are kept as bits (:data:`hand_melds.SUIT_RANK`,
    :data:`hand_melds.RANK_COUNT`)."""
    pile, rules, hand = state.pile, state.rules, state.hands[seat]
    top = len(pile) - 1
    if top < lowest:
        return []
    lay = bool(state.table) and state.opened[seat] and may_lay_off_taken(rules)
    takes = accepts(state.table, rules) if lay else _NOTHING
    pairs: Mapping[Card, Sequence[tuple[Card, int]]] | None = None
    shape = run_shape(rules)
    holds = shape.holds_run
    distinct = suits_must_differ(rules)
    suited = reduce(or_, map(SUIT_RANK.__getitem__, hand), 0)  # rank bits, 14 per suit
    counts = 0 if distinct else sum(map(RANK_COUNT.__getitem__, hand))  # 4 bits a rank
    out: list[int] = []
    for i in range(top, lowest - 1, -1):
        card = pile[i]
        rank = card.rank
        lane, own, others, count = _PLACES[card]
        held = suited >> lane & _RANKS  # its suit's rank bits, of the hand and above
        if (
            card in takes
            or (holds[held | 1 << rank] and run_through(held, rank, shape))
            or ((suited & others).bit_count() >= 2 if distinct else counts & count * 14)
            or (i == top and _may_keep_top(state, top))
        ):
            out.append(i)
        elif lay and held & _NEXT_TO[rank] and _partner_held(card, held, takes):
            if pairs is None:
                pairs = table_pairs(state.table, rules)
            if card in pairs and _pairs_with(state, seat, pairs[card], hand, pile[i + 1 :]):
                out.append(i)
        suited |= own
        counts += count
    out.reverse()
    return out


def _partner_held(card: Card, held: int, takes: Mapping[Card, Sequence[int]]) -> bool:
    """True when a card next to ``card`` in its suit (K and A both ways) is held (its rank
    bit in ``held``) and a table meld takes it (``takes``): a partner of seed 002's pair
    is always such a card (:data:`taking.NEIGHBOURS`)."""
    for near, bit in NEIGHBOURS[card]:
        if held & bit and near in takes:
            return True
    return False


_NOTHING: dict[Card, list[int]] = {}
_STOCK, _TWO = Draw("stock"), DrawTwo()  # moves are values: one of each serves every draw
_NEXT_TO = tuple(
    sum(1 << r for r in range(1, 14) if abs(r - rank) in (1, 12)) for rank in range(14)
)
"""Per rank, the rank bits of the cards next to it in a run (K and A both ways): a pair's
partner is one of them (:func:`_may_pair`)."""
_RANKS = (1 << 14) - 1
_PLACES = {
    card: (
        14 * SUITS.index(card.suit),
        SUIT_RANK[card],
        sum(1 << 14 * lane + card.rank for lane in range(4)) & ~SUIT_RANK[card],
        RANK_COUNT[card],
    )
    for card in make_pack()
}
"""Per natural card, for :func:`_one_pass`: the shift of its suit's lane of rank bits, its
own bit there, its rank's bits in the other suits' lanes, and its 1 in its rank's 4-bit
count (a count of 2 or more has a bit in ``count * 14``)."""


def _pairs_with(
    state: GameState,
    seat: int,
    pairs: Sequence[tuple[Card, int]],
    hand: list[Card],
    above: list[Card],
) -> bool:
    """True when ``seat`` holds a partner of one of ``pairs`` (:func:`taking.table_pairs`) in
    ``hand`` or ``above`` and may lay off on its meld (L4)."""
    return any((p in hand or p in above) and may_lay_off_on(state, seat, i) for p, i in pairs)


def draw_options(state: GameState) -> tuple[Action | None, list[int], Action | None]:
    """The DRAW moves of the seat to play, in :func:`legal_draw`'s order: the stock draw
    (None once the stock is gone), the pile indices it may take from (T1 to T3), and the
    move that replaces drawing once the stock is gone (O3; None before)."""
    gone = stock_gone(state)
    first: Action | None = None
    if not gone:
        first = _TWO if state.rules.draw_two_from_stock else _STOCK
    last: Action | None = None
    if gone:
        last = EndRound() if state.rules.stock_exhausted == "draw-from-discard" else Pass()
    return first, _takeable(state, state.seat), last


def legal_draw(state: GameState) -> list[Action]:
    """Every DRAW move (:func:`draw_options`), as one list."""
    first, indices, last = draw_options(state)
    out: list[Action] = [] if first is None else [first]
    out.extend(map(take_from, indices))
    if last is not None:
        out.append(last)
    return out


def apply_draw(state: GameState, action: Action) -> None:
    seat = state.seat
    gone = stock_gone(state)
    if isinstance(action, (Draw, DrawTwo)) and (
        isinstance(action, DrawTwo) or action.source == "stock"
    ):
        _draw_stock(state, seat, action, gone)
    elif isinstance(action, Draw) and action.source == "discard":
        index = action.index if action.index is not None else -1
        if not 0 <= index < len(state.pile):
            raise IllegalMove(
                say("the discard pile has no card %(index)s", index=action.index), "T1"
            )
        if not can_take(state, seat, index):
            card = state.pile[index]
            rule = _refusing_rule(state, seat, index)
            raise IllegalMove(_cannot_use(state, card, rule), rule)
        state.log.append((seat, action))
        take(state, seat, index)
    elif isinstance(action, EndRound) and gone:
        if state.rules.stock_exhausted != "draw-from-discard":
            raise IllegalMove(say("the round does not end this way under these rules"), "O3")
        state.log.append((seat, action))
        end_round(state, "stock exhausted")
    elif isinstance(action, Pass) and gone and state.rules.stock_exhausted != "draw-from-discard":
        state.log.append((seat, action))
        state.phase = Phase.PLAY
    else:
        raise IllegalMove(say("first draw: from the stock, or from the discard pile"), "T1")


def _refusing_rule(state: GameState, seat: int, index: int) -> str:
    """``"O2"`` when the take is refused only because it leaves no discard but the last card
    picked up (:func:`taking.barred_discard`), else ``"T2"``."""
    rules = state.rules
    if not rules.discard_to_go_out:
        return "T2"
    state.rules = dataclasses.replace(rules, discard_to_go_out=False)
    try:
        return "O2" if can_take(state, seat, index) else "T2"
    finally:
        state.rules = rules


def _cannot_use(state: GameState, card: Card, rule: str) -> Message:
    if rule == "O2":
        top = state.pile[-1]
        return say(
            "the %(card)s can be taken only if you use it at once and keep a card "
            "to discard other than the %(card2)s, the last card picked up (O2)",
            card=card.name,
            card2=top.name,
        )
    if not may_lay_off_taken(state.rules):
        return say(
            "the %(card)s can be taken only to go straight into a new meld of "
            "three or more with it (no picking up to hit)",
            card=card.name,
        )
    return say(
        "the %(card)s can be taken only if you use it at once, in a meld or a lay-off",
        card=card.name,
    )


def _draw_stock(state: GameState, seat: int, action: Draw | DrawTwo, gone: bool) -> None:
    two = state.rules.draw_two_from_stock
    if gone:
        raise IllegalMove(say("the stock is used up"), "O3")
    if two != isinstance(action, DrawTwo):
        if two:
            raise IllegalMove(say("under these rules a stock draw is two cards"), "T6")
        raise IllegalMove(say("a stock draw is one card under these rules"), "T6")
    count = min(2 if two else 1, len(state.stock))
    for _ in range(count):
        state.hands[seat].append(state.stock.pop())
    state.log.append((seat, action))
    state.phase = Phase.PLAY


def take(state: GameState, seat: int, index: int, *, rummy: bool = False) -> None:
    """Take the pile from ``index`` up into ``seat``'s hand (T1); the selected card must
    then be used (T2) unless it is the top card kept (T3). The top card of the stack may
    not be this turn's discard under O2 (:func:`taking.barred_discard`)."""
    card = state.pile[index]
    keep = _may_keep_top(state, index) and not rummy
    taken = state.pile[index:]
    del state.pile[index:]
    state.hands[seat].extend(taken)
    state.known[seat].extend(taken)
    state.must_use = None if keep else card
    state.rummy = rummy
    state.no_discard = barred_discard(state.rules, taken, keep)
    state.phase = Phase.PLAY if keep else Phase.MUST_USE
