"""Laying down and laying off: which are legal for a seat now, and doing them.

Glossary:
- play: a lay-down (one or more new melds, T4) or a lay-off (one card onto a table meld
  named by its index, L1, L3).
- selected card: the card taken from the discard pile that must be used at once (T2);
  while it is pending, only plays that use it are legal.
- keeps a discard: under O2 ("Boathouse") a play may not leave a hand without a card it
  may discard: going out needs a final discard.

Every refusal raises :class:`IllegalMove` with a sentence for the player and the catalogue
id of the rule that says no.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..cards import Card
from ..melds import IllegalMeld, Meld, check_meld, extend
from ..messages import Message, say
from .actions import LayDown, LayOff, lay_down, lay_off
from .deal import end_round
from .hand_melds import (
    accepts,
    could_meld_with,
    hand_melds,
    holds,
    joker_layoffs,
    meld_points,
    remove_cards,
)
from .state import GameState, Phase
from .taking import (
    keeps_a_discard,
    keeps_any_discard,
    may_lay_off_taken,
    partner_in,
    table_pairs,
)


class IllegalMove(ValueError):
    """A move the rules refuse: ``message`` for the player, ``rule`` the catalogue id
    (``"T2"``, ``"M6"``, ...). The state is left unchanged."""

    def __init__(self, message: Message | str, rule: str) -> None:
        self.message = message
        self.rule = rule
        super().__init__(say("%(message)s (%(rule)s)", message=message, rule=rule))


def keeps_discard(rest: list[Card], state: GameState) -> bool:
    """O2, T3: :func:`taking.keeps_a_discard` for the state's barred card."""
    return keeps_a_discard(state.rules, rest, state.no_discard)


def may_lay_off_on(state: GameState, seat: int, index: int) -> bool:
    """L1, L4: any meld, except a partner's where partners may not lay off on each other."""
    owner = state.owners[index]
    if state.teams is None or owner == seat or state.rules.partners_lay_off:
        return True
    return state.unit_of(owner) != state.unit_of(seat)


def laydown_options(
    state: GameState,
    seat: int,
    hand: list[Card],
    must: Card | None,
    *,
    first: bool = False,
    pool: list[Card] | None = None,
) -> list[LayDown]:
    """Lay-downs from ``hand`` (see :mod:`.hand_melds` for which melds are listed), kept to those
    using ``must`` when it is set (T2), reaching the first-meld minimum for a seat that has
    not opened (M6) and keeping a discard (O2). For M6, a meld short of the minimum is
    offered together with each of the eight highest-scoring other melds that make it up.
    ``first`` stops at the first one found (is there any?); ``pool`` limits the cards
    melds are sought among (a part of ``hand``)."""
    rules = state.rules
    melds = hand_melds(hand if pool is None else pool, rules)
    out: list[LayDown] = []
    if not melds:
        return out
    opened = state.opened[seat]
    minimum = rules.first_meld_minimum
    points = [0] * len(melds) if opened else [meld_points(m, rules) for m in melds]
    kept = keeps_any_discard(rules, state.no_discard)  # the hand holds each meld found in it
    for m, p in zip(melds, points, strict=True):
        if (opened or p >= minimum) and (must is None or holds(m, must)):
            if kept or _keeps_after(state, hand, m):
                out.append(lay_down(m))
                if first:
                    return out
    if opened or (first and out):
        return out
    return out + _opening_pairs(state, hand, melds, points, must, first)


def _opening_pairs(
    state: GameState,
    hand: list[Card],
    melds: list[tuple[Card, ...]],
    points: list[int],
    must: Card | None,
    first: bool,
) -> list[LayDown]:
    """M6: two melds laid together whose points reach the minimum where the first alone
    falls short, paired with up to eight of the highest-scoring other melds."""
    minimum = state.rules.first_meld_minimum
    out: list[LayDown] = []
    ranked = sorted(zip(points, range(len(melds)), strict=True), reverse=True)
    for i, (a, pa) in enumerate(zip(melds, points, strict=True)):
        if pa >= minimum or (must is not None and not holds(a, must)):
            continue
        tried = 0
        for pb, k in ranked:
            b = melds[k]
            if pa + pb < minimum or tried >= 8:
                break
            if k == i or (pb < minimum and must is None and k < i):  # each pair once
                continue
            rest = remove_cards(hand, a + b)
            if rest is None:
                continue
            tried += 1
            if keeps_discard(rest, state):
                out.append(lay_down(a, (b,)))
                if first:
                    return out
    return out


def layoff_options(
    state: GameState,
    seat: int,
    hand: list[Card],
    only: Card | None = None,
    onto: int | None = None,
) -> list[LayOff]:
    """Lay-offs of cards in ``hand`` (or of ``only``) onto table melds (or only melds owned
    by ``onto``): L1, L3, L4, M1 to M5, P2; none before the seat has opened (M6); each
    keeping a discard (O2)."""
    return [lay_off(card, index) for card, index in layoff_pairs(state, seat, hand, only, onto)]


def layoff_pairs(
    state: GameState,
    seat: int,
    hand: list[Card],
    only: Card | None = None,
    onto: int | None = None,
) -> list[tuple[Card, int]]:
    """:func:`layoff_options` as ``(card as laid off, meld index)`` pairs, in the same
    order."""
    if not state.opened[seat] or not state.table:
        return []
    takes = accepts(state.table, state.rules)
    if only is None:
        cards = [c for c in hand if c in takes or not c.rank]
        if not cards:
            return []  # no natural card any meld takes, no joker: none to lay off
        must = state.must_use
        cards = [c for c in dict.fromkeys(cards) if c is not must]  # cards hash by identity
    else:
        cards = [only]
    keep_check = not keeps_any_discard(state.rules, state.no_discard)
    out: list[tuple[Card, int]] = []
    anyone = onto is None and state.teams is None  # L4 refuses no meld (may_lay_off_on)
    for card in cards:
        if card.rank:
            found = takes.get(card)
            if found is None:
                continue  # a natural card no meld takes (what _layoff_targets would find)
            if anyone and not keep_check:
                out.extend([(card, index) for index in found])  # _layoff_targets, _allowed
                continue
        targets = _layoff_targets(state, card, takes)
        if not targets or (keep_check and not _keeps_after(state, hand, (card,))):
            continue
        out.extend(_allowed(state, seat, targets, onto))
    return out


def _allowed(
    state: GameState, seat: int, targets: list[tuple[int, Card]], onto: int | None
) -> list[tuple[Card, int]]:
    """The lay-offs onto ``targets`` that ``seat`` may make (L4), onto melds owned by
    ``onto`` only when it is given, as ``(card, meld index)``."""
    owners = state.owners
    return [
        (laid, index)
        for index, laid in targets
        if (onto is None or owners[index] == onto) and may_lay_off_on(state, seat, index)
    ]


def _layoff_targets(
    state: GameState, card: Card, takes: Mapping[Card, Sequence[int]]
) -> list[tuple[int, Card]]:
    """``(meld index, card as laid off)`` for each table meld ``card`` fits (a joker as
    each card it may stand for, M5; P2)."""
    if card.rank == 0:
        rules = state.rules
        return [(i, j) for i, m in enumerate(state.table) for j in joker_layoffs(m, rules)]
    return [(i, card) for i in takes.get(card, ())]


def _keeps_after(state: GameState, hand: list[Card], cards: Sequence[Card]) -> bool:
    """O2, T3: ``hand`` holds ``cards`` and without them still keeps a card to discard."""
    rest = remove_cards(hand, cards)
    return rest is not None and keeps_discard(rest, state)


def check_laydown(
    state: GameState, seat: int, action: LayDown, must: Card | None
) -> tuple[list[Meld], list[Card]]:
    """Validate a lay-down; returns ``(melds, rest of hand)``. Raises :class:`IllegalMove`:
    not in hand, not a meld (M1 to M5, P2), first meld short of the minimum (M6), the
    selected card unused (T2), no discard left (O2)."""
    rules = state.rules
    hand = state.hands[seat]
    all_cards = action.cards if not action.more else tuple(c for m in action.melds for c in m)
    rest = remove_cards(hand, all_cards)
    if rest is None:
        raise IllegalMove(say("you do not hold all of those cards"), "T4")
    melds: list[Meld] = []
    for cards in action.melds:
        try:
            melds.append(check_meld(cards, rules))
        except IllegalMeld as problem:
            raise IllegalMove(problem.message, problem.rules[0]) from None
    if must is not None and not holds(all_cards, must):
        raise IllegalMove(
            say(
                "the %(card)s taken from the pile must be used at once, in this play",
                card=must.name,
            ),
            "T2",
        )
    if not state.opened[seat]:
        total = sum(meld_points(cards, rules) for cards in action.melds)
        if total < rules.first_meld_minimum:
            raise IllegalMove(
                say(
                    "a first meld must reach %(minimum)s points; this is %(total)s",
                    minimum=rules.first_meld_minimum,
                    total=total,
                ),
                "M6",
            )
    if not keeps_discard(rest, state):
        raise IllegalMove(say("you need a card left to discard to go out"), "O2")
    return melds, rest


def check_layoff(
    state: GameState, seat: int, action: LayOff, must: Card | None, onto: int | None = None
) -> tuple[Meld, list[Card]]:
    """Validate a lay-off; returns ``(the meld as extended, rest of hand)``. Raises
    :class:`IllegalMove`: no such meld (L3), not in hand, before opening (M6), onto a
    partner's meld (L4), the card does not fit (M1 to M5), picking up to hit (T2), no
    discard left (O2)."""
    rules = state.rules
    if not 0 <= action.meld < len(state.table):
        raise IllegalMove(say("there is no meld %(meld)s on the table", meld=action.meld), "L3")
    rest = remove_cards(state.hands[seat], (action.card,))
    if rest is None:
        raise IllegalMove(say("you do not hold the %(card)s", card=action.card.physical.name), "L1")
    if must is not None and action.card.physical is not must:
        raise IllegalMove(
            say(
                "the %(card)s taken from the pile must be used at once, before other plays",
                card=must.name,
            ),
            "T2",
        )
    if not state.opened[seat]:
        raise IllegalMove(
            say(
                "lay a first meld of %(minimum)s points before laying off",
                minimum=rules.first_meld_minimum,
            ),
            "M6",
        )
    if onto is not None and state.owners[action.meld] != onto:
        raise IllegalMove(
            say("deadwood is laid off only onto the melds of the player who went out"), "O4"
        )
    if not may_lay_off_on(state, seat, action.meld):
        raise IllegalMove(say("partners may not lay off on each other's melds here"), "L4")
    try:
        grown = extend(state.table[action.meld], action.card, rules)
    except IllegalMeld as problem:
        raise IllegalMove(problem.message, problem.rules[0]) from None
    if not keeps_discard(rest, state):
        raise IllegalMove(say("you need a card left to discard to go out"), "O2")
    return grown, rest


def _forget_known(state: GameState, seat: int, cards: tuple[Card, ...]) -> None:
    known = state.known[seat]
    for card in cards:
        physical = card.physical
        for i, k in enumerate(known):
            if k is physical:
                del known[i]
                break


def do_laydown(
    state: GameState, seat: int, action: LayDown, checked: tuple[list[Meld], list[Card]]
) -> None:
    """Put the validated melds on the table (owner ``seat``) and open the seat (M6)."""
    melds, rest = checked
    for cards, meld in zip(action.melds, melds, strict=True):
        state.owners.append(seat)
        state.laid.append(tuple(cards))
        state.table.append(meld)
        _forget_known(state, seat, cards)
    state.hands[seat] = rest
    state.opened[seat] = True
    state.must_use = None


def do_layoff(state: GameState, seat: int, action: LayOff, grown: Meld, rest: list[Card]) -> None:
    """Lay the validated card off: it stays in front of ``seat`` (L2)."""
    state.layoffs.append((seat, action.card, action.meld))
    state.table[action.meld] = grown
    state.hands[seat] = rest
    _forget_known(state, seat, (action.card,))
    state.must_use = None


def use_options(
    state: GameState,
    seat: int,
    card: Card,
    hand: list[Card],
    *,
    rummy: bool = False,
    first: bool = False,
) -> list[LayDown | LayOff]:
    """The plays that use the selected ``card`` from ``hand`` (the seat's hand with the
    taken cards): a new meld holding it, or, where T2 allows (or after a "Rummy!" call,
    X1), a lay-off of it, alone or after its partner (:func:`pair_layoffs`). Empty when
    the card cannot be used: then it cannot be taken.
    ``first``: stop at the first found."""
    out: list[LayDown | LayOff] = []
    if may_lay_off_taken(state.rules, rummy):
        out.extend(layoff_options(state, seat, hand, only=card))
        if not rummy and not (first and out):
            out.extend(pair_layoffs(state, seat, card, hand))
        if first and out:
            return out
    pool = hand
    if card.rank:  # every card could_meld_with counts, so it answers the same for the pool
        pool = [c for c in hand if c.rank == card.rank or c.suit == card.suit or not c.rank]
    if not could_meld_with(card, pool, state.rules):
        return out
    if state.opened[seat] or len(pool) == len(hand):
        out[:0] = laydown_options(state, seat, hand, card, first=first, pool=pool)
    elif laydown_options(state, seat, hand, card, first=True, pool=pool) or any(
        holds(m, card) for m in hand_melds(pool, state.rules)
    ):
        out[:0] = laydown_options(state, seat, hand, card, first=first)
    return out


def pair_layoffs(state: GameState, seat: int, card: Card, hand: list[Card]) -> list[LayOff]:
    """T2 with seed 002's pair: the lay-offs of a partner from ``hand`` that let the
    selected ``card`` follow it onto the same meld (:func:`taking.table_pairs`, from
    :func:`taking.pair_partners`' rule), each keeping a card to discard after both (O2).
    Laid first, the partner leaves the seat in MUST_USE: the card must follow at once."""
    if not state.opened[seat] or not partner_in(card, hand, accepts(state.table, state.rules)):
        return []
    pairs = table_pairs(state.table, state.rules).get(card)
    if not pairs:
        return []
    wanted: dict[int, set[Card]] = {}
    for partner, index in pairs:
        wanted.setdefault(index, set()).add(partner)
    out: list[LayOff] = []
    others = [c for c in hand if c is not card]
    for index in sorted(wanted):
        if may_lay_off_on(state, seat, index):
            for partner in dict.fromkeys(c for c in others if c in wanted[index]):
                rest = remove_cards(hand, (partner, card))
                if rest is not None and keeps_discard(rest, state):
                    out.append(lay_off(partner, index))
    return out


def play_cards(state: GameState, action: LayDown | LayOff, must: Card | None) -> None:
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
