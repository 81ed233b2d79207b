"""The pause at a round's end, as the play page shows it: every player's melds, lay-offs
and hand left, each card with its points and the rule (the engine's scoring of the round,
card by card), the round's figures and the running totals.

Glossary:
- ending: a dict for ``templates/play/_ending.html``: ``number`` (the round, from 1),
  ``went_out``, ``reason``, ``players`` (per player in seat order: ``name``, ``melds``
  (lists of cards), ``layoffs`` (cards, each with ``onto``: the meld it went on, from 1),
  ``hand`` (cards left), and ``figures``: shown, in hand, bonus, round, total),
  ``notes`` (bonuses explained) and ``outcome`` (the scoring's summary in words).
  Each card is a card dict (:func:`.board.card_dict`) with ``points``, ``why``, ``rule``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import CardError, parse_card
from .board import card_dict


def _card(item: dict[str, Any]) -> dict[str, Any]:
    try:
        card = parse_card(str(item["card"]))
    except CardError:
        return {"text": item["card"], "display": item["card"], "name": item["card"]}
    return card_dict(card, points=item["points"], why=item["why"], rule=item["rule"])


def _player(name: str, cards: list[dict[str, Any]], figures: dict[str, Any]) -> dict[str, Any]:
    """One player's cards sorted into melds (by table index), lay-offs and hand."""
    melds: dict[int, list[dict[str, Any]]] = {}
    layoffs: list[dict[str, Any]] = []
    hand: list[dict[str, Any]] = []
    for item in cards:
        where = str(item["where"]).split()
        if where[0] == "meld":
            melds.setdefault(int(where[1]), []).append(_card(item))
        elif where[0] == "layoff":
            layoffs.append(_card(item) | {"onto": int(where[-1]) + 1})
        else:
            hand.append(_card(item))
    return {
        "name": name,
        "melds": [melds[i] for i in sorted(melds)],
        "layoffs": layoffs,
        "hand": hand,
        "figures": figures,
    }


def ending(
    number: int, record: dict[str, Any], scored: dict[str, Any] | None, names: Sequence[str]
) -> dict[str, Any]:
    """The round ``number`` as it ended (its engine ``record`` and its ``scored`` figures,
    card by card), for the players ``names`` in seat order."""
    end = record.get("end") or {}
    figures = scored or {"players": {}, "cards": [], "notes": [], "outcome": ""}
    by_owner: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for item in figures.get("cards") or []:
        by_owner.setdefault(str(item["owner"]), []).append(item)
    return {
        "number": number,
        "went_out": end.get("went_out"),
        "reason": end.get("reason", ""),
        "players": [
            _player(name, by_owner[name], (figures.get("players") or {}).get(name, {}))
            for name in names
        ],
        "notes": figures.get("notes") or [],
        "outcome": figures.get("outcome") or "",
        "sides": figures.get("sides"),
    }
