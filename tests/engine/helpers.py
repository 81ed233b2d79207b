"""Small builders so engine tests read like the rule texts: cards as text everywhere."""

from __future__ import annotations

from scorekeeper.engine.cards import parse_cards
from scorekeeper.engine.scoring import LayoffPlay, MeldPlay, RoundPlay


def cards(text: str) -> tuple:
    """``cards("7H 7S 7D")`` -> a tuple of Card."""
    return tuple(parse_cards(text))


def round_play(players, melds=(), layoffs=(), hands=None, went_out=None, teams=None, deal=1):
    """A RoundPlay from text: melds ``[("Ann", "7H 7S 7D")]``, layoffs
    ``[("Cat", "6C", 1)]``, hands ``{"Bob": "KD"}`` (missing players hold nothing)."""
    hands = hands or {}
    return RoundPlay(
        players=tuple(players),
        melds=tuple(MeldPlay(owner, cards(text)) for owner, text in melds),
        layoffs=tuple(LayoffPlay(owner, cards(card)[0], meld) for owner, card, meld in layoffs),
        hands={p: cards(hands.get(p, "")) for p in players},
        went_out=went_out,
        teams=tuple(tuple(t) for t in teams) if teams else None,
        deal_number=deal,
    )
