"""Card values: each card's points in its place under the rule set (S1 to S5, S9).

Glossary:
- in its place: an ace counts by where it lies (1 low in A-2-3 under the standard count,
  15 played high under "15-high-else-5", catalogue S1: high in a run's top end and in a
  set of aces, which S6's four-ace exception is carved out of); in a hand it is neither.
- divide by five: every value divided by 5 (S9, seeds 000 and 002).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import Card
from .melds import Meld
from .messages import N_, say
from .rules.ruleset import RuleSet


def divisor(rules: RuleSet) -> int:
    """5 under divide-by-five (S9), else 1: every value and bonus is divided by it."""
    return 5 if rules.divide_by_five else 1


@dataclass(frozen=True, slots=True)
class CardValues:
    """Each card's ``(points, why, rule id)`` under one rule set (``why`` a :class:`Message`):
    ``rank`` by rank (index 0 the joker, 1 to 13), the ace ``ace_low`` and ``ace_high`` in a
    run, ``divisor``."""

    rank: tuple[tuple[int, str, str], ...]  # index 0 joker, 1..13 natural
    ace_low: tuple[int, str, str]
    ace_high: tuple[int, str, str]
    divisor: int


@lru_cache(maxsize=256)
def card_values(rules: RuleSet) -> CardValues:
    """The values of every card under ``rules`` (S1 to S5, S9), computed once per rules."""
    div = divisor(rules)

    def v(points: int, why: str, rule: str) -> tuple[int, str, str]:
        if div == 1:
            return (points, say(why), rule)
        return (points // div, say("%(why)s, divided by five", why=say(why)), f"{rule}, S9")

    def low(rank: int) -> tuple[int, str, str]:
        if rules.low_card_points == "pip":
            return v(rank, N_("pip value"), "S4")
        return v(5, N_("5 for each card 2 to 9"), "S4")

    ace = {
        "15-low-1": v(15, N_("ace"), "S1"),
        "15": v(15, N_("ace, 15 always"), "S1"),
        "25": v(25, N_("ace, 25 always"), "S1"),
        "15-high-else-5": v(5, N_("ace not played high"), "S1"),
    }[rules.ace_points]
    ace_low = {
        "15-low-1": v(1, N_("ace low in A-2-3"), "S1"),
        "15-high-else-5": v(5, N_("ace played low"), "S1"),
    }.get(rules.ace_points, ace)
    ace_high = v(15, N_("ace played high"), "S1") if rules.ace_points == "15-high-else-5" else ace
    joker = v(rules.joker_points, N_("joker"), "S5")
    table = [joker, ace] + [low(r) for r in range(2, 10)]
    table += [v(rules.ten_points, N_("ten"), "S3")]
    table += [v(rules.face_points, N_("face card"), "S2")] * 3
    return CardValues(tuple(table), ace_low, ace_high, div)


def card_points(card: Card, rules: RuleSet, meld: Meld | None = None) -> tuple[int, str, str]:
    """A card's points in its place: ``(points, why, rule id)``.

    ``meld`` is the meld the card lies in as it stands at the end of the round, or None for
    a card in hand. The ace counts by S1 (1 when low in A-2-3 under the standard count;
    under "15-high-else-5" 15 when played high, at the top of a run or in a set of aces,
    002: "Aces played high are worth 15 except in the case where a single player plays a
    4-of-a-kind Ace meld", and 5 low in A-2-3 or in hand), K Q J by S2, the 10 by S3, 2 to 9 by S4,
    a joker by S5 whatever it stands for, all divided by five under S9. Doubling (P3) and
    four aces (S6) belong to whole melds: see :func:`score_round`.
    """
    return points_in_place(card_values(rules), card, meld)


def points_in_place(values: CardValues, card: Card, meld: Meld | None) -> tuple[int, str, str]:
    """:func:`card_points` with the values already looked up (for hot loops)."""
    if card.rank == 1 and meld is not None:
        if meld.kind != "run":
            return values.ace_high
        position = meld.low + (1 - _rank_at(meld.low)) % 13
        return values.ace_low if position == 1 else values.ace_high
    return values.rank[card.rank]


def _rank_at(position: int) -> int:
    return (position - 1) % 13 + 1


def hand_points(cards: Sequence[Card], rules: RuleSet) -> int:
    """The points of cards left in a hand (S1 to S5, S9): what counts against the holder."""
    table = card_values(rules).rank
    return sum(table[c.rank][0] for c in cards)
