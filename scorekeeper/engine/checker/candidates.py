"""Candidate melds: every legal meld holding one card, built from the cards at hand, for
the checker's advice on the discard pile (:mod:`.advice`) and the bots.

Glossary:
- anchor: the card every candidate holds (the card taken from the discard pile).
- others: the cards it may be melded with (the hand and the other taken cards).

The candidates are the digital game's own lister's (:func:`.hand_melds.hand_melds`, every meld
:func:`.melds.check_meld` accepts), kept to those holding the anchor: the checker and the
game list the same melds.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card
from ..game.hand_melds import hand_melds, holds
from ..melds import Meld, check_meld
from ..rules.ruleset import RuleSet


def candidate_melds(anchor: Card, others: Sequence[Card], rules: RuleSet) -> list[Meld]:
    """Every legal meld holding ``anchor`` built with cards from ``others``.

    A natural anchor goes in sets of its rank and runs of its suit, with wild jokers from
    ``others`` named where a card is missing or in place of one (M5); a joker anchor goes
    in any meld of wild jokers (M5) or in a set of jokers (Persian, P2). The melds are
    :func:`.hand_melds.hand_melds`' of ``anchor`` with ``others`` (only the cards of its rank
    or suit and the jokers for a natural anchor); duplicates are dropped.
    """
    if anchor.is_joker:
        pool = [anchor, *others]
    else:
        pool = [anchor]
        pool += [c for c in others if c.rank in (0, anchor.rank) or c.suit == anchor.suit]
    seen: dict[tuple[str, ...], Meld] = {}
    for cards in hand_melds(pool, rules):
        if holds(cards, anchor):
            meld = check_meld(cards, rules)
            seen.setdefault(tuple(sorted(c.text for c in meld.cards)), meld)
    return list(seen.values())
