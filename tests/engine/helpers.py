"""Small builders so engine tests read like the rule texts: cards as text everywhere."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.engine.cards import parse_cards
from scorekeeper.engine.scoring.score_round import LayoffPlay, MeldPlay, RoundPlay

SHARED = Path(__file__).resolve().parents[3] / "shared"
"""The project's shared folder (rule texts, catalogue, contracts), beside the checkout."""

ROW_IDS = (
    [f"D{i}" for i in range(1, 7)]
    + [f"M{i}" for i in range(1, 8)]
    + [f"T{i}" for i in range(1, 8)]
    + [f"L{i}" for i in range(1, 5)]
    + [f"O{i}" for i in range(1, 5)]
    + [f"S{i}" for i in range(1, 12)]
    + [f"G{i}" for i in range(1, 5)]
    + [f"P{i}" for i in range(1, 6)]
    + ["X1", "X2"]
)
"""Every row id of shared/rules-catalogue.md, in its order."""

CONTRACT_EXAMPLE = {
    "rules": {"preset": "standard", "options": {"first_meld_minimum": 30}},
    "players": ["Ann", "Bob", "Cat"],
    "teams": None,
    "went_out": "Ann",
    "melds": [
        {"owner": "Ann", "cards": ["7H", "7S", "7D"]},
        {"owner": "Bob", "cards": ["3C", "4C", "5C"]},
    ],
    "layoffs": [{"owner": "Cat", "card": "6C", "meld": 1}],
    "hands": {"Ann": [], "Bob": ["KD"], "Cat": ["2S", "9H"]},
    "totals_before": {"Ann": 120, "Bob": 35, "Cat": -10},
}
"""The request of shared/score-contract.md, as written there (copy before changing)."""


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
