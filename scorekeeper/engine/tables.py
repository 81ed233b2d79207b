"""What the melds on the table take, for laying off: worked out once per table and kept
in the state until the table changes (a meld laid down or grown).

Glossary:
- lay off: add a card from the hand to a meld on the table (L1, L3).
- pair: seed 002's "pair of cards in sequence" laid off together: a partner the meld
  takes, then a card it takes only after the partner (:func:`taking.meld_pairs`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import Card
from .moves import accepts
from .state import GameState
from .taking import meld_pairs


def _per_table(state: GameState, name: str, build: Callable[[GameState], Any]) -> Any:
    """``build(state)``, kept in the state until the table changes (a meld laid or grown)."""
    key = (state.deal_number, len(state.laid), len(state.layoffs))
    cached = state.scratch.get(name)
    if cached is None or cached[0] != key:
        cached = state.scratch[name] = (key, build(state))
    return cached[1]


def table_accepts(state: GameState) -> dict[Card, list[int]]:
    """:func:`moves.accepts` for the state's table, cached until the table changes."""
    found: dict[Card, list[int]] = _per_table(state, "accepts", _accepts)
    return found


def _accepts(state: GameState) -> dict[Card, list[int]]:
    return accepts(state.table, state.rules)


def pair_table(state: GameState) -> dict[Card, list[tuple[Card, int]]]:
    """Seed 002's pair (:func:`taking.meld_pairs`) for every card at once: for each natural
    card that a table meld takes only after a partner, the ``(partner, meld index)``
    pairs; cached until the table changes."""
    found: dict[Card, list[tuple[Card, int]]] = _per_table(state, "pairs", _pairs)
    return found


def _pairs(state: GameState) -> dict[Card, list[tuple[Card, int]]]:
    found: dict[Card, list[tuple[Card, int]]] = {}
    for index, meld in enumerate(state.table):
        for partner, card in meld_pairs(meld, state.rules):
            found.setdefault(card, []).append((partner, index))
    return found
