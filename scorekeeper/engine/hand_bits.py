"""A hand as rank bits per suit, worked out in one step: the quick tests of random play
(:func:`moves.may_hold_meld`, the draw's pass down the pile) start from it.

Glossary:
- rank bits: an int with bit r set for each rank r held (the ace bit 1), as
  :func:`moves.run_table` reads them.
- lanes: the four suits' rank bits side by side in one int, 16 bits apart (spades,
  hearts, diamonds, clubs): a hand of different natural cards is the sum of its cards'
  bits, which ``sum`` adds up without a Python loop.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import JOKERS, RANKS, SUITS, Card, natural_card

_RANK_BITS = (1 << 14) - 1
_CODES: dict[Card, int] = {
    natural_card(r, s): 1 << (16 * i + r) for i, s in enumerate(SUITS) for r in RANKS
}
_CODES.update(dict.fromkeys(JOKERS, 1 << 64))

Lanes = tuple[int, int, int, int]


def lanes(hand: Sequence[Card]) -> Lanes | None:
    """The rank bits of ``hand``'s spades, hearts, diamonds and clubs; None when the hand
    holds a joker or a card twice (two packs): then count card by card. A card held twice
    adds its bit twice and carries, so the sum has fewer bits set than the hand has cards:
    the sum of different cards' bits has exactly one bit per card."""
    packed = sum(map(_CODES.__getitem__, hand))
    if packed >> 64 or packed.bit_count() != len(hand):
        return None
    m = _RANK_BITS
    return packed & m, packed >> 16 & m, packed >> 32 & m, packed >> 48 & m


def held_twice(s: int, h: int, d: int, c: int) -> int:
    """The rank bits held in at least two of the four suits' rank bits."""
    return (s & h) | ((s | h) & (d | c)) | (d & c)


def held_thrice(s: int, h: int, d: int, c: int) -> int:
    """The rank bits held in at least three of the four suits' rank bits."""
    return (s & h & (d | c)) | (d & c & (s | h))


def rank_bits(hand: Sequence[Card]) -> tuple[dict[str, int], int, int]:
    """``(rank bits per suit, ranks held at least once, ranks held at least twice)`` of a
    hand of natural cards (a card held twice counts twice)."""
    found = lanes(hand)
    if found is not None:
        s, h, d, c = found
        return {"S": s, "H": h, "D": d, "C": c}, s | h | d | c, held_twice(s, h, d, c)
    bits = {"S": 0, "H": 0, "D": 0, "C": 0}
    once = twice = 0
    for card in hand:
        bit = 1 << card.rank
        bits[card.suit] |= bit
        twice |= once & bit
        once |= bit
    return bits, once, twice
