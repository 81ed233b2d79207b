"""What the melds on the table take, for laying off: kept in the state and brought up to
date meld by meld as the table changes (a meld laid down or grown).

Glossary:
- lay off: add a card from the hand to a meld on the table (L1, L3).
- pair: seed 002's "pair of cards in sequence" laid off together: a partner the meld
  takes, then a card it takes only after the partner (:func:`taking.meld_pairs`).

The view of the table (:class:`_View`) remembers the melds it was worked out for; when
the table has changed (a new round's too) it looks again only at the melds that are not
the same objects (a meld grown is a new object), so that each lay-down or lay-off costs
the work of one meld, not of the whole table. Its answers are those of
:func:`moves.accepts` and of :func:`taking.meld_pairs` over the whole table, list for
list (tests/engine/test_fast_paths.py).
"""

from __future__ import annotations

from bisect import insort

from .cards import Card
from .melds import Meld
from .moves import meld_accepts
from .rules import RuleSet
from .state import GameState
from .taking import meld_pairs

Accepts = dict[Card, list[int]]
Pairs = dict[Card, list[tuple[Card, int]]]


class _View:
    """The table as last seen: its rules, its melds, and what they take (``accepts``,
    ``pairs``)."""

    __slots__ = ("rules", "melds", "accepts", "pairs")

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.melds: list[Meld] = []
        self.accepts: Accepts = {}
        self.pairs: Pairs = {}


def _view(state: GameState) -> _View:
    """The state's :class:`_View`, brought up to date with its table (the melds compared
    by identity: a meld laid or grown is a new object)."""
    view: _View | None = state.scratch.get("table")
    table = state.table
    if view is not None and view.melds == table and view.rules is state.rules:
        return view
    if view is None or view.rules is not state.rules or len(view.melds) > len(table):
        view = state.scratch["table"] = _View(state.rules)
    melds = view.melds
    for index, meld in enumerate(table):
        if index == len(melds):
            melds.append(meld)
            _add(view, index, meld)
        elif melds[index] is not meld:
            _drop(view, index, melds[index])
            melds[index] = meld
            _add(view, index, meld)
    return view


def _add(view: _View, index: int, meld: Meld) -> None:
    """Count in ``meld`` at table ``index`` (its entries kept in table order)."""
    accepts, pairs = view.accepts, view.pairs
    for card in meld_accepts(meld, view.rules):
        found = accepts.get(card)
        if found is None:
            accepts[card] = [index]
        else:
            grown = found.copy()
            insort(grown, index)
            accepts[card] = grown
    for partner, card in meld_pairs(meld, view.rules):
        listed = pairs.get(card)
        if listed is None:
            pairs[card] = [(partner, index)]
            continue
        at = len(listed)
        while at and listed[at - 1][1] > index:
            at -= 1
        pairs[card] = [*listed[:at], (partner, index), *listed[at:]]


def _drop(view: _View, index: int, meld: Meld) -> None:
    """Count out ``meld``, which was at table ``index``."""
    accepts, pairs = view.accepts, view.pairs
    for card in meld_accepts(meld, view.rules):
        if card in accepts:
            kept = [i for i in accepts[card] if i != index]
            if kept:
                accepts[card] = kept
            else:
                del accepts[card]
    for _, card in meld_pairs(meld, view.rules):
        if card in pairs:
            left = [p for p in pairs[card] if p[1] != index]
            if left:
                pairs[card] = left
            else:
                del pairs[card]


def table_accepts(state: GameState) -> Accepts:
    """:func:`moves.accepts` for the state's table: for every natural card some table
    meld takes (L1, M1 to M4), the indices of those melds in table order. Kept up to date
    with the table; do not change it."""
    view: _View | None = state.scratch.get("table")  # _view's first test, without a call
    if view is not None and view.melds == state.table and view.rules is state.rules:
        return view.accepts
    return _view(state).accepts


def pair_table(state: GameState) -> Pairs:
    """Seed 002's pair (:func:`taking.meld_pairs`) for every card at once: for each natural
    card that a table meld takes only after a partner, the ``(partner, meld index)``
    pairs, in table order. Kept up to date with the table; do not change it."""
    view: _View | None = state.scratch.get("table")  # as table_accepts
    if view is not None and view.melds == state.table and view.rules is state.rules:
        return view.pairs
    return _view(state).pairs
