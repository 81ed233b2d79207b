"""Candidate melds: every legal meld holding one card, built from the cards at hand, for
the checker's advice on the discard pile (:mod:`.advice`).

Glossary:
- anchor: the card every candidate holds (the card taken from the discard pile).
- others: the cards it may be melded with (the hand and the other taken cards).
- window: the ranks of a run the rules allow (M3, M4), from :func:`.melds.run_shape`.

Legality is always :func:`.melds.check_meld`'s: this module only proposes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from .cards import JOKER, SUITS, Card, declare, natural_card
from .melds import IllegalMeld, Meld, check_meld, run_shape
from .rules import RuleSet


def _available(cards: Iterable[Card]) -> tuple[Counter[Card], int]:
    """Natural cards by count, and the number of jokers."""
    naturals: Counter[Card] = Counter()
    jokers = 0
    for c in cards:
        if c.is_joker:
            jokers += 1
        else:
            naturals[c] += 1
    return naturals, jokers


def _legal(cards: Sequence[Card], rules: RuleSet) -> Meld | None:
    try:
        return check_meld(cards, rules)
    except IllegalMeld:
        return None


def _set_candidates(
    anchor: Card, naturals: Counter[Card], jokers: int, wild: bool
) -> list[list[Card]]:
    """Sets of ``anchor``'s rank: 2 or 3 more cards from the naturals, then jokers."""
    same = [c for c in sorted(naturals.elements(), key=lambda c: c.suit) if c.rank == anchor.rank]
    out: list[list[Card]] = []
    for size in (3, 4):
        for k in range(min(size - 1, len(same)), -1, -1):
            need = size - 1 - k
            if need and not (wild and need <= jokers):
                continue
            for chosen in set(combinations(same, k)):
                used = {anchor.suit} | {c.suit for c in chosen}
                free = [s for s in SUITS if s not in used] + list(SUITS)
                fill = [declare(JOKER, natural_card(anchor.rank, s)) for s in free[:need]]
                out.append([anchor, *chosen, *fill])
    return out


def _windows(rank: int, rules: RuleSet) -> Iterable[tuple[int, ...]]:
    """Rank lists of every run window holding ``rank`` that M3 and M4 allow
    (:func:`.melds.run_shape`), shortest first."""
    return (ranks for ranks in run_shape(rules).windows if rank in ranks)


def _run_candidates(
    anchor: Card, naturals: Counter[Card], jokers: int, wild: bool, rules: RuleSet
) -> list[list[Card]]:
    """Runs of ``anchor``'s suit through it, gaps filled by wild jokers (M3, M4, M5)."""
    out: list[list[Card]] = []
    for ranks in _windows(anchor.rank, rules):
        cards: list[Card] = []
        spare = jokers if wild else 0
        for r in ranks:
            card = natural_card(r, anchor.suit)
            if r == anchor.rank:
                cards.append(anchor)
            elif naturals[card]:
                cards.append(card)
            elif spare:
                spare -= 1
                cards.append(declare(JOKER, card))
            else:
                break
        else:
            out.append(cards)
    return out


def candidate_melds(anchor: Card, others: Sequence[Card], rules: RuleSet) -> list[Meld]:
    """Every legal meld holding ``anchor`` built with cards from ``others``.

    A natural anchor goes in sets of its rank and runs of its suit, with wild jokers from
    ``others`` declared where a card is missing (M5); a joker anchor goes in any such meld
    round a natural card of ``others`` (wild) or in a set of jokers (Persian, P2). Each is
    confirmed by :func:`.melds.check_meld`; duplicates are dropped.
    """
    naturals, jokers = _available(others)
    wild = rules.joker_use == "wild"
    raw: list[list[Card]] = []
    if anchor.is_joker:
        if rules.joker_use == "sets-of-jokers":
            raw += [[JOKER] * n for n in (3, 4) if jokers + 1 >= n]
        elif wild:
            for seed in naturals:
                rest = naturals.copy()
                rest[seed] -= 1
                raw += _set_candidates(seed, rest, jokers + 1, True)
                raw += _run_candidates(seed, rest, jokers + 1, True, rules)
            raw = [m for m in raw if any(c.is_joker for c in m)]
    else:
        raw += _set_candidates(anchor, naturals, jokers, wild)
        raw += _run_candidates(anchor, naturals, jokers, wild, rules)
    seen: dict[tuple[str, ...], Meld] = {}
    for cards in raw:
        meld = _legal(cards, rules)
        if meld is not None:
            seen.setdefault(tuple(sorted(c.text for c in meld.cards)), meld)
    return list(seen.values())
