"""Dealer's gambit (catalogue X2, seed 002): the dealer's joker of one deal, and the round's
rules once the dealer has nominated what jokers do.

Glossary (seed 002, "Dealer's gambit"):
- dealer's joker: "At the beginning of each deal one joker is removed from the pack. After
  shuffling and dealing that joker is placed face-up at the side of the pack closest to
  the dealer." It lies ``beside`` the pack until the dealer uses it or it is blocked.
- nomination: "After dealing but before any of the players look at their cards the dealer
  must nominate the effect of the jokers for that hand": ``wild``, ``double`` or ``split``.
  It is the effect of every joker of the hand: the dealer's joker and the joker(s) dealt.
- block: "The dealer's joker can be 'blocked' at any time in the game by placing another
  joker face down over it": both jokers are then out of the hand.
- aside: the cards out of the hand: a blocked dealer's joker and the joker over it, a
  joker spent on a split and the cards inside the split ("removed from the game for the
  remainder of that hand").

Every card of the pack is in exactly one place: a hand, the stock, the pile, a meld or
lay-off on the table, ``beside`` the pack or ``aside``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from ..cards import DOUBLE, Card, parse_card
from ..messages import say
from .ruleset import RuleSet

NOMINATION_MEANINGS: Final = {
    "wild": say("a joker stands for any card"),
    "double": say("a joker doubles a set and seals it"),
    "split": say("a joker splits the discard pile"),
}
"""Each of the dealer's choices in a few words (a :class:`Message`), in the seed's order (X2,
seed 002)."""

NOMINATIONS: Final = tuple(NOMINATION_MEANINGS)
"""The dealer's choices, in the seed's order."""

NOMINATION_OPTION: Final = "dealers_joker"
"""The scoring contract's name for a round's nomination in ``rules.options``: "wild",
"double" or "split" (a fact of one round, not a house rule: it is not a RuleSet option)."""


@dataclass
class DealersJoker:
    """The dealer's joker of the round in play: ``dealer`` seat, ``nomination`` (None until
    made), ``beside`` (the joker while face up beside the pack, None once used or blocked),
    ``blocked_by`` (the seat that blocked it), ``used`` ("wild", "double" or "split" once the
    dealer used it) and ``aside`` (cards out of the hand, see the module glossary)."""

    dealer: int
    nomination: str | None = None
    beside: Card | None = None
    blocked_by: int | None = None
    used: str | None = None
    aside: list[Card] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        """True while the dealer may still use the joker (nominated, beside, unblocked)."""
        return self.nomination is not None and self.beside is not None

    def to_json(self) -> dict[str, object]:
        """A JSON-able dict; :meth:`from_json` reads it back."""
        return {
            "dealer": self.dealer,
            "nomination": self.nomination,
            "beside": self.beside.text if self.beside else None,
            "blocked_by": self.blocked_by,
            "used": self.used,
            "aside": [c.text for c in self.aside],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DealersJoker:
        """The joker :meth:`to_json` wrote; raises ``KeyError``/``ValueError`` otherwise."""
        beside = data["beside"]
        return cls(
            dealer=int(data["dealer"]),
            nomination=data["nomination"],
            beside=parse_card(beside) if beside else None,
            blocked_by=data["blocked_by"],
            used=data["used"],
            aside=[parse_card(t) for t in data["aside"]],
        )


def gambit_problems(rules: RuleSet) -> list[tuple[str, str]]:
    """What stops ``rules`` playing X2: ``(option, message)`` pairs, empty when none or
    when X2 is off. X2 needs 2 or 4 jokers (seed 002: "The pack is 54 cards ... Some
    people play with 56 cards, including four jokers"), wild jokers (M5) and jokers
    worth 0 (S5)."""
    if not rules.dealers_gambit:
        return []
    problems: list[tuple[str, str]] = []
    if rules.jokers not in (2, 4):
        problems.append(("jokers", say("dealer's gambit (X2) plays with 2 jokers (54 cards) or 4")))
    if rules.joker_use != "wild":
        problems.append(("joker_use", say("dealer's gambit (X2) nominates jokers wild (M5)")))
    if rules.joker_points != 0:
        problems.append(("joker_points", say("under dealer's gambit (X2) a joker counts 0 (S5)")))
    return problems


def round_rules(rules: RuleSet, nomination: str | None) -> RuleSet:
    """The rules of a round under X2 once the dealer nominated: jokers are wild only when
    nominated "wild" (M5); under "double" or "split" no joker stands for a card (a joker
    goes over a set as ``JK=double`` or splits the pile). The same object for the same
    arguments, so each keeps its caches."""
    if not rules.dealers_gambit or nomination in (None, "wild"):
        return _with_jokers(rules, "wild") if rules.dealers_gambit else rules
    return _with_jokers(rules, "none")


@lru_cache(maxsize=64)
def _with_jokers(rules: RuleSet, use: str) -> RuleSet:
    if rules.joker_use == use:
        return rules
    return dataclasses.replace(rules, joker_use=use)  # type: ignore[arg-type]


def nomination_shown(melds: Sequence[Sequence[Card]]) -> str | None:
    """The nomination the melds show: "double" when a joker doubles a set (``JK=double``),
    "wild" when a joker stands for a card (``JK=7C``), None when neither."""
    cards = [c for m in melds for c in m]
    if any(c is DOUBLE for c in cards):
        return "double"
    if any(c.stands_for is not None for c in cards):
        return "wild"
    return None


def round_rules_stated(
    rules: RuleSet, stated: object, melds: Sequence[Sequence[Card]]
) -> tuple[RuleSet, list[tuple[str, str]]]:
    """The rules of a round a table states (the scoring contract, the checker): the
    nomination ``stated`` (``rules.options.dealers_joker``: "wild", "double", "split" or
    None), else the one the ``melds`` show (:func:`nomination_shown`); and the problems,
    as ``(where, message)``: a nomination without X2, an unknown one, one the melds
    contradict (``JK=double`` is "double", ``JK=7C`` is "wild")."""
    where = f"rules.options.{NOMINATION_OPTION}"
    shown = nomination_shown(melds)
    if stated is None:
        return round_rules(rules, shown), []
    if not rules.dealers_gambit:
        return rules, [(where, say("a nomination belongs to dealer's gambit (X2) only"))]
    if stated not in NOMINATIONS:
        return rules, [(where, say('the dealer nominates "wild", "double" or "split"'))]
    if shown is not None and shown != stated:
        message = say(
            "the jokers were nominated %(stated)s, yet a meld holds a joker %(shown)s",
            stated=stated,
            shown=shown,
        )
        return round_rules(rules, str(stated)), [(where, message)]
    return round_rules(rules, str(stated)), []
