"""Every meld a hand makes with wild jokers (M5), for the move lister (:mod:`.game.hand_melds`).

Glossary:
- wild joker: a joker that stands for any card, named when it is melded (M5; seed 003:
  "At the time that it is melded, the player must declare the card the joker stands
  for"; seed 002: "can represent any card the player chooses even if that card is
  already used in another meld").
- window: the ranks of a run the rules allow (M3, M4), from :func:`.melds.run_shape`.
- naming: the cards the jokers of a meld stand for.

What is listed, each meld holding at least one joker: every set of 3 or 4 (M1) of a
rank's natural cards (none to three of them) completed by jokers; every run of every
allowed window in every suit, a joker at each rank not held and, where jokers are spare,
at any ranks held too (a joker may stand in for a card the player keeps). A joker in a
set names a suit the set lacks: every choice where M2 forbids two cards of one suit (the
named suit decides which card may later be laid off), one choice where M2 allows it
(then the suit named changes nothing). Runs are named by their window. That is exactly
what :func:`.melds.check_meld` accepts from the hand's cards (tested equal over random
hands, tests/engine/test_wild.py); :func:`.hand_melds.hand_melds` still confirms each.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .cards import JOKER, SUITS, Card, declare, natural_card
from .melds import run_shape, suits_must_differ
from .rules.ruleset import RuleSet


def wild_melds(
    by_rank: Sequence[Sequence[Card]],
    by_suit: dict[str, list[Card | None]],
    jokers: int,
    rules: RuleSet,
) -> list[tuple[Card, ...]]:
    """The melds holding at least one of ``jokers`` wild jokers (see the module
    docstring): ``by_rank[r]`` the hand's natural cards of rank r, ``by_suit[s][r]`` its
    card of suit s and rank r (or None). Jokers are declared (``JK=7C``)."""
    if jokers <= 0:
        return []
    return wild_sets(by_rank, jokers, rules) + wild_runs(by_suit, jokers, rules)


def wild_sets(
    by_rank: Sequence[Sequence[Card]], jokers: int, rules: RuleSet
) -> list[tuple[Card, ...]]:
    """Sets of 3 or 4 (M1) with 1 to 4 jokers naming suits the naturals lack (M2)."""
    out: list[tuple[Card, ...]] = []
    distinct = suits_must_differ(rules)
    for rank in range(1, 14):
        group = list(by_rank[rank])
        if distinct:
            first: dict[str, Card] = {}
            for card in group:
                first.setdefault(card.suit, card)
            group = list(first.values())
        for k in range(max(0, 3 - jokers), min(len(group), 3) + 1):
            for base in dict.fromkeys(combinations(group, k)):
                for m in range(max(1, 3 - k), min(jokers, 4 - k) + 1):
                    out.extend(base + names for names in _set_namings(base, m, rank, distinct))
    return out


def _set_namings(
    base: tuple[Card, ...], m: int, rank: int, distinct: bool
) -> list[tuple[Card, ...]]:
    """The declared jokers that complete ``base`` with ``m`` jokers: each choice of
    ``m`` missing suits where suits must differ (M2 "forbidden"), else the first ones."""
    missing = [s for s in SUITS if all(c.suit != s for c in base)]
    if distinct:
        choices: list[Sequence[str]] = list(combinations(missing, m))
    else:
        choices = [(missing + list(SUITS))[:m]]
    return [tuple(declare(JOKER, natural_card(rank, s)) for s in suits) for suits in choices]


def wild_runs(
    by_suit: dict[str, list[Card | None]], jokers: int, rules: RuleSet
) -> list[tuple[Card, ...]]:
    """Runs of every window :func:`.melds.run_shape` allows (M3, M4), in every suit,
    holding 1 to ``jokers`` jokers: at the ranks not held, and by choice at held ones."""
    shape = run_shape(rules)
    empty: list[Card | None] = [None] * 14
    out: list[tuple[Card, ...]] = []
    for suit in SUITS:
        slots = by_suit.get(suit, empty)
        for ranks in shape.windows:
            held = [slots[r] for r in ranks]
            gaps = [i for i, c in enumerate(held) if c is None]
            spare = jokers - len(gaps)
            if spare < 0:
                continue
            present = [i for i, c in enumerate(held) if c is not None]
            named = [declare(JOKER, natural_card(r, suit)) for r in ranks]
            for extra in range(0 if gaps else 1, min(spare, len(present)) + 1):
                for swap in combinations(present, extra):
                    as_joker = set(gaps).union(swap)
                    out.append(
                        tuple(
                            named[i] if c is None or i in as_joker else c
                            for i, c in enumerate(held)
                        )
                    )
    if shape.corner:
        return list({frozenset(m): m for m in out}.values())
    return out
