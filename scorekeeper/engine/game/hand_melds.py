"""Finding the melds in a hand and the lay-offs it allows, quickly.

Glossary:
- position: a card's place in a run: 1 for an ace played low, 2 to 13, 14 for an ace played
  high; round the corner (M4) runs continue past 14 (K-A-2 is 13, 14, 15).
- window: the positions ``start..end`` of a possible run in one suit.

What :func:`hand_melds` lists (the lay-downs ``legal_actions`` offers): every meld of the
hand's cards that :func:`melds.check_meld` accepts. Every set of 3 and of 4 natural cards
of one rank (with two packs and M2 "allowed", duplicates too); every run of ``min_run`` or
more natural cards of one suit, maximal and every shorter window inside it; with wild
jokers (M5), every meld holding jokers that :mod:`.wild` lists (a joker in a set names a
missing suit, once where M2 allows two cards of one suit); Persian joker sets of 3 and 4
(P2). Legality is always :func:`melds.check_meld`'s: this module only proposes, and the
lister is tested equal to it (tests/engine/test_wild.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache, reduce
from itertools import combinations
from operator import or_

from ..cards import JOKER, JOKERS, SUITS, Card, declare, make_pack, natural_card
from ..melds import (
    IllegalMeld,
    Meld,
    RunShape,
    check_meld,
    extend,
    run_shape,
    suits_must_differ,
)
from ..rules.ruleset import RuleSet
from ..scoring.score_round import meld_rows
from ..wild import wild_melds


def rank_at(position: int) -> int:
    """The rank (1-13) at run ``position`` (1 ace low ... 14 ace high, wrapping past)."""
    return (position - 1) % 13 + 1


def _sets(by_rank: dict[int, list[Card]], rules: RuleSet) -> list[tuple[Card, ...]]:
    """Sets of 3 and 4 natural cards of one rank (M1, M2), ranks in order; ``by_rank[r]``
    the natural cards of rank r."""
    out: list[tuple[Card, ...]] = []
    groups = [group for group in by_rank.values() if len(group) >= 3]
    if not groups:
        return out
    if len(groups) > 1:
        groups.sort(key=lambda group: group[0].rank)
    distinct = suits_must_differ(rules)
    for group in groups:
        if distinct:
            seen: dict[str, Card] = {}
            for c in group:
                seen.setdefault(c.suit, c)
            group = list(seen.values())
        for size in (3, 4):
            if len(group) >= size:
                out.extend(combinations(group, size))
    return list(dict.fromkeys(out)) if not distinct else out


def _runs(
    by_suit: dict[str, list[Card | None]], bits: dict[str, int], shape: RunShape
) -> list[tuple[Card, ...]]:
    """Runs of natural cards (M3, M4): maximal and every shorter window inside;
    ``by_suit[s][r]`` the card of suit s and rank r held, else None, ``bits[s]`` their
    rank bits. Only the suits whose rank bits hold a run (:attr:`.melds.RunShape.holds_run`)
    are looked at; ``shape`` is :func:`.melds.run_shape` of the rules."""
    shortest, holds = shape.shortest, shape.holds_run
    suits = [slots for suit, slots in by_suit.items() if holds[bits[suit]]]
    if shape.corner:
        return _runs_corner(suits, shape)
    out: list[tuple[Card, ...]] = []
    for slots in suits:
        run: list[Card] = []
        for pos in range(1, 15):
            card = slots[pos] if pos < 14 else slots[1]
            if card is not None:
                run.append(card)
            if card is None or pos == 14:
                size = len(run)
                if size >= shortest:
                    for i in range(size - shortest + 1):
                        for j in range(i + shortest, min(size, i + 13) + 1):
                            out.append(tuple(run[i:j]))
                run = []
    return out


def _runs_corner(suits: list[list[Card | None]], shape: RunShape) -> list[tuple[Card, ...]]:
    """Runs of natural cards round the corner (M4): every window tried, as far as
    :func:`melds.run_shape` allows; ``suits`` each suit's cards by rank (None where not
    held)."""
    out: list[tuple[Card, ...]] = []
    for slots in suits:
        for start in range(1, 14):
            cards: list[Card] = []
            for pos in range(start, min(shape.last, start + 12) + 1):
                card = slots[rank_at(pos)]
                if card is None:
                    break
                cards.append(card)
                if len(cards) >= shape.shortest:
                    out.append(tuple(cards))
    return list({frozenset(m): m for m in out}.values())


def _meldless(hand: Sequence[Card], rules: RuleSet, shape: RunShape) -> bool:
    """True when, without jokers in play, ``hand`` holds no rank three times (M1) and no
    suit's run (:attr:`.melds.RunShape.holds_run`, M3, M4), so has no meld: told from two
    sums of per-card bits (:data:`RANK_COUNT`, :data:`SUIT_RANK`); ``shape`` is
    :func:`.melds.run_shape` of ``rules``."""
    if rules.joker_use != "none":
        return False
    counts = sum(map(RANK_COUNT.__getitem__, hand))
    if counts & _HIGH_PAIR or counts & (counts >> 1) & _LOW_BIT:
        return False
    suited = reduce(or_, map(SUIT_RANK.__getitem__, hand), 0)
    holds = shape.holds_run
    return not (
        holds[suited & _RANKS]
        or holds[suited >> 14 & _RANKS]
        or holds[suited >> 28 & _RANKS]
        or holds[suited >> 42]
    )


def hand_melds(hand: Sequence[Card], rules: RuleSet) -> list[tuple[Card, ...]]:
    """The melds ``hand`` can lay down (see the module docstring for what is listed), each
    a tuple of cards, wild jokers declared. Every one passes :func:`check_meld`. A hand
    :func:`_meldless` says holds none is answered before any list is made."""
    shape = run_shape(rules)
    if _meldless(hand, rules, shape):
        return []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, list[Card | None]] = {}
    bits = {"S": 0, "H": 0, "D": 0, "C": 0}
    jokers = 0
    for card in hand:
        rank = card.rank
        if rank == 0:
            jokers += 1
            continue
        group = by_rank.get(rank)
        if group is None:
            by_rank[rank] = [card]
        else:
            group.append(card)
        slots = by_suit.get(card.suit)
        if slots is None:
            slots = by_suit[card.suit] = [None] * 14
        slots[rank] = card
        bits[card.suit] |= 1 << rank
    out = _sets(by_rank, rules)
    out += _runs(by_suit, bits, shape)
    if rules.joker_use == "wild":
        out += wild_melds([by_rank.get(r, []) for r in range(14)], by_suit, jokers, rules)
    elif rules.joker_use == "sets-of-jokers" and jokers >= 3:
        out.append((JOKER,) * 3)
        if jokers >= 4:
            out.append((JOKER,) * 4)
    if jokers:
        return [m for m in out if _legal(m, rules)]
    return out


RANK_COUNT = {card: 1 << 4 * card.rank if card.rank else 0 for card in (*make_pack(), *JOKERS)}
"""Per card, 1 in its rank's 4-bit count (ranks 1 to 13; jokers none): a hand's sum holds
how many cards of each rank it has (up to 15)."""
SUIT_RANK = {
    card: 1 << 14 * SUITS.index(card.suit) + card.rank if card.rank else 0
    for card in (*make_pack(), *JOKERS)
}
"""Per card, its rank bit in its suit's 14 bits (spades lowest; jokers none)."""
_HIGH_PAIR = sum(0b1100 << 4 * rank for rank in range(1, 14))
_LOW_BIT = sum(1 << 4 * rank for rank in range(1, 14))
_RANKS = (1 << 14) - 1


def joker_namings(selection: Sequence[Card], rules: RuleSet) -> list[tuple[Card, ...]]:
    """Every way the wild jokers (M5) among ``selection`` can be named so that it makes
    one meld, each the meld's cards as they lie: the melds of :func:`hand_melds` that use
    every card of ``selection`` (a set's jokers name missing suits as listed there).
    Empty without wild jokers."""
    if rules.joker_use != "wild" or all(c.rank for c in selection):
        return []
    out: list[tuple[Card, ...]] = []
    for cards in hand_melds(selection, rules):
        if len(cards) == len(selection):
            laid = check_meld(cards, rules).cards
            if laid not in out:
                out.append(laid)
    return out


def _legal(cards: tuple[Card, ...], rules: RuleSet) -> bool:
    try:
        check_meld(cards, rules)
    except IllegalMeld:
        return False
    return True


@lru_cache(maxsize=65536)
def meld_points(cards: tuple[Card, ...], rules: RuleSet) -> int:
    """The points ``cards`` count as a meld laid at once, exactly as the round's score
    counts them (:func:`.score_round.meld_rows`: S1 to S5, S9, S6 four aces, P3 a meld of
    four, X2 a set doubled by the dealer's joker): what a first meld is measured by against
    M6's minimum. Raises :class:`.melds.IllegalMeld` when ``cards`` are not a meld."""
    meld = check_meld(cards, rules)
    return meld_rows(cards, meld, meld, rules).points


def fits(meld: Meld, card: Card, rules: RuleSet) -> bool:
    """True when the natural ``card`` can be laid off on ``meld`` (L1, M1 to M4)."""
    if meld.kind == "set":
        if card.rank != meld.rank or len(meld.cards) >= 4:
            return False
    elif meld.kind == "run":
        if card.suit != meld.suit:
            return False
        below, above = meld.low - 1, meld.high + 1
        if card.rank != rank_at(below) and card.rank != rank_at(above):
            return False
    else:
        return False
    try:
        extend(meld, card, rules)
    except IllegalMeld:
        return False
    return True


def accepts(table: Sequence[Meld], rules: RuleSet) -> Mapping[Card, Sequence[int]]:
    """For every natural card some table meld takes (L1, M1 to M4), the indices of those
    melds in table order: the missing suits of a set, the next card at each end of a run.
    Read only (cached by the melds, which compare by identity; see :data:`TABLES_KEPT`)."""
    return _accepts(tuple(table), rules)


TABLES_KEPT = 32
"""How many tables the per-table caches keep (:func:`accepts`, :func:`.taking.table_pairs`):
a table stands only until the next lay-down or lay-off, so a few serve every lookup of a
round, and a larger cache keeps only dead tables for the garbage collector to walk (with
4,096 kept, collection took 16% of random play)."""


@lru_cache(maxsize=TABLES_KEPT)
def _accepts(table: tuple[Meld, ...], rules: RuleSet) -> dict[Card, list[int]]:
    out: dict[Card, list[int]] = {}
    for index, meld in enumerate(table):
        for card in meld_accepts(meld, rules):
            out.setdefault(card, []).append(index)
    return out


@lru_cache(maxsize=16384)
def meld_accepts(meld: Meld, rules: RuleSet) -> tuple[Card, ...]:
    """The natural cards ``meld`` takes as a lay-off (L1, M1 to M4)."""
    if meld.kind == "set":
        candidates = [natural_card(meld.rank, s) for s in SUITS]
    elif meld.kind == "run":
        candidates = [
            natural_card(rank_at(meld.low - 1), meld.suit),
            natural_card(rank_at(meld.high + 1), meld.suit),
        ]
    else:
        return ()
    return tuple(c for c in candidates if fits(meld, c, rules))


def joker_layoffs(meld: Meld, rules: RuleSet) -> list[Card]:
    """How a joker from the hand can be laid off on ``meld``: declared cards for a wild
    joker (M5) at each free end of a run or as a missing suit of a set; a plain joker onto
    a Persian joker set (P2)."""
    if rules.joker_use == "sets-of-jokers":
        return [JOKER] if meld.kind == "jokers" and len(meld.cards) < 4 else []
    if rules.joker_use != "wild":
        return []
    options: list[Card] = []
    if meld.kind == "set":
        suits = {c.natural.suit for c in meld.cards}
        free = [s for s in SUITS if s not in suits] or list(SUITS)
        named = free if suits_must_differ(rules) else free[:1]
        options.extend(declare(JOKER, natural_card(meld.rank, s)) for s in named)
    elif meld.kind == "run":
        for pos in (meld.low - 1, meld.high + 1):
            options.append(declare(JOKER, natural_card(rank_at(pos), meld.suit)))
    out = []
    for card in options:
        try:
            extend(meld, card, rules)
        except IllegalMeld:
            continue
        out.append(card)
    return out


def remove_cards(hand: list[Card], cards: Sequence[Card]) -> list[Card] | None:
    """``hand`` without ``cards`` (a declared joker takes a plain joker), or None when the
    hand does not hold them all."""
    rest = list(hand)
    for card in cards:
        physical = card if card.rank else JOKER  # Card.physical, without the property's call
        if physical not in rest:  # cards compare by identity
            return None
        if rest[-1] is physical:
            del rest[-1]
        else:  # the last copy goes (two packs hold two)
            del rest[len(rest) - 1 - rest[::-1].index(physical)]
    return rest


def holds(meld: Sequence[Card], card: Card) -> bool:
    """True when ``meld`` includes the physical ``card`` (a declared joker is a joker)."""
    if card.rank:
        return card in meld  # a natural card: only itself is it (cards compare by identity)
    return any(c.physical is card for c in meld)


def could_meld_with(card: Card, hand: Sequence[Card], rules: RuleSet) -> bool:
    """A quick test that ``hand`` may hold a meld with ``card`` (before listing melds):
    False only when no set (M1) or run (M3, within two ranks, M4's corner counted) with
    ``card`` can be there and no wild joker (M5) is held."""
    if card.rank == 0:
        return rules.joker_use != "none"
    wild = rules.joker_use == "wild"
    same_rank = -1
    near = 0
    for c in hand:
        if c.rank == 0:
            if wild:
                return True
        elif c is card:
            same_rank += 1
        else:
            if c.rank == card.rank:
                same_rank += 1
            elif c.suit == card.suit and _near(c.rank, card.rank):
                near += 1
    return same_rank >= 2 or near >= 2


def _near(a: int, b: int) -> bool:
    d = abs(a - b)
    return d <= 2 or d >= 11
