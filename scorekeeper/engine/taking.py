"""Taking from the discard pile: what the card taken may or must do (T2, T3, X1), decided
once for the digital game (:mod:`.draws`, :mod:`.plays`, :mod:`.turns`) and the
checker's advice (:mod:`.advice`).

Glossary:
- selected card: the card of the discard pile a player draws (every card above it comes
  too, T1); it must be used at once unless T3 lets the top card be kept.
- "Rummy!" call: another player takes a discard out of turn (X1), and may then lay it off
  whatever T2 says.
"""

from __future__ import annotations

from .rules import RuleSet


def may_keep_top(rules: RuleSet, index: int, pile_size: int) -> bool:
    """T3: True when the card at ``index`` of a pile of ``pile_size`` cards is the top
    card and the rules let it be kept without using it ("may-keep", seeds 000, 002)."""
    return rules.top_discard == "may-keep" and index == pile_size - 1


def may_lay_off_taken(rules: RuleSet, rummy: bool = False) -> bool:
    """T2: True when the selected card may be used by laying it off, not only in a new
    meld: "meld-or-lay-off" (seeds 000, 001, 003, 004), or after a "Rummy!" call (X1);
    never under "new-meld-only" (002: "no picking up to hit")."""
    return rummy or rules.discard_use == "meld-or-lay-off"
