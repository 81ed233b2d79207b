"""The melds a round is being written into, card by card (the deal-by-cards grid of a
table's round): which row a tapped card makes with the meld row being filled, and which
cards complete a set. Every verdict is :func:`..melds.check_meld`'s under the table's
rules (sets M1, M2; runs M3, M4, an ace high or low or round the corner; jokers M5, P2);
this module only proposes the cards a row lacks (the suits a set lacks, the ranks of a
run's window) and keeps the smallest meld the rules accept.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..cards import JOKER, SUITS, Card, natural_card
from ..game.hand_melds import rank_at
from ..melds import IllegalMeld, Meld, check_meld
from ..rules.ruleset import RuleSet


def _natural(position: int, suit: str) -> Card:
    """The natural card at run ``position`` (1 the ace low, 14 the ace high, past 14 round
    the corner) of ``suit``."""
    return natural_card(rank_at(position), suit)


def _set_fillings(cards: list[Card], naturals: list[Card]) -> Iterator[list[Card]]:
    """``cards``, naturals of one rank, with the suits they lack, one more at a time."""
    suits = {c.suit for c in naturals}
    lacking = [natural_card(naturals[0].rank, s) for s in SUITS if s not in suits]
    yield from (cards + lacking[:k] for k in range(1, len(lacking) + 1))


def _run_fillings(cards: list[Card], naturals: list[Card]) -> Iterator[list[Card]]:
    """``cards``, naturals of one suit, with the ranks of each window of run positions
    holding theirs (every length, every first position; round the corner too)."""
    ranks, suit = {c.rank for c in naturals}, naturals[0].suit
    for length in range(max(len(ranks), 2), 14):
        for low in range(1, 14):
            window = [_natural(p, suit) for p in range(low, low + length)]
            if ranks <= {c.rank for c in window}:
                yield cards + [c for c in window if c.rank not in ranks]


def _fillings(cards: Sequence[Card]) -> Iterator[list[Card]]:
    """Every way of adding cards to ``cards`` that might make a meld (unchecked): plain
    jokers more jokers, naturals of one rank the suits they lack, naturals of one suit of
    distinct ranks the ranks of a run holding theirs."""
    yield list(cards)
    if all(c is JOKER for c in cards):
        yield from (list(cards) + [JOKER] * k for k in range(1, 4))
        return
    naturals = [c.natural for c in cards if c.natural.rank]
    if len(naturals) < len(cards):  # a plain joker among naturals, or one doubling a set
        return
    if len({c.rank for c in naturals}) == 1:
        yield from _set_fillings(list(cards), naturals)
    if len({c.suit for c in naturals}) == 1 and len({c.rank for c in naturals}) == len(cards):
        yield from _run_fillings(list(cards), naturals)


def smallest_meld(cards: Sequence[Card], rules: RuleSet) -> Meld | None:
    """The smallest legal meld under ``rules`` holding every one of ``cards`` (the cards
    themselves when they are one; padded with the cards a set or run of theirs lacks), or
    None when no legal meld holds them all. Every verdict is :func:`check_meld`'s (M1 to
    M5, P2); of two melds of one size, a set before a run, runs by their first position."""
    for candidate in sorted(_fillings(cards), key=len):
        try:
            return check_meld(candidate, rules)
        except IllegalMeld:
            continue
    return None


def row_after_tap(meld: Sequence[Card], card: Card, rules: RuleSet) -> list[Card] | None:
    """The meld row ``meld`` after ``card`` is tapped into it: the card added at the end,
    or, after one natural card of its suit, the run between the two (the cards of the
    smallest legal run holding both, from one to the other: 5♥ then 8♥ gives 5♥ 6♥ 7♥ 8♥;
    an ace at the nearer end; round the corner only where M4 allows it). None when no
    legal meld holds the row's cards and ``card``, or none holds them side by side in a
    run (5♥ 6♥ 7♥ then 10♥): it starts the next meld."""
    grown = smallest_meld([*meld, card], rules)
    if grown is None or grown.kind != "run":
        return None if grown is None else [*meld, card]
    at = sorted(grown.cards.index(c) for c in (*meld, card))
    if len(meld) == 1 and not (meld[0].is_joker or card.is_joker):
        return list(grown.cards[at[0] : at[-1] + 1])
    return [*meld, card] if at[-1] - at[0] + 1 == len(at) else None


def set_completion(meld: Sequence[Card], rules: RuleSet) -> list[Card]:
    """The natural cards of the rank of ``meld`` (naturals of one rank) that complete it as
    a set ("All four"): the suits it lacks, while a legal set (M1, M2) holds them. Empty
    for an empty row, a run, jokers, or cards no set holds."""
    if not meld or any(c.is_joker for c in meld) or len({c.rank for c in meld}) > 1:
        return []
    found = smallest_meld(meld, rules)
    if found is None or found.kind != "set":
        return []
    added: list[Card] = []
    for suit in SUITS:
        card = natural_card(meld[0].rank, suit)
        if card not in meld and smallest_meld([*meld, *added, card], rules) is not None:
            added.append(card)
    return added
