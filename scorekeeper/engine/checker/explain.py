"""Why a meld or a lay-off is legal, in the rules' own ids, and what it counts.

Glossary:
- reason: a pair ``(rule id, sentence)``, the id being a row of the rules catalogue
  (``M4``), the sentence saying how that rule applies to these cards.

:func:`.melds.check_meld` and :func:`.melds.extend` decide legality; this module only
explains a meld they accepted, so the checker and the API can name the rules used.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import DOUBLE, Card, format_cards
from ..melds import Meld
from ..messages import say
from ..rules.ruleset import RuleSet
from ..scoring.score_round import card_points, meld_rows


def meld_points(meld: Meld, rules: RuleSet, cards: Iterable[Card] | None = None) -> int:
    """Points of ``cards`` (default: the whole meld, laid at once) as they lie in
    ``meld``: the whole meld as the round's score counts it (:func:`.score_round.meld_rows`:
    S1 to S5, S9, S6, P3, X2); cards laid off by their values in place (S1 to S5, S9),
    twice over in a set under a joker nominated double (``JK=double``, X2)."""
    if cards is None:
        return meld_rows(meld.cards, meld, meld, rules).points
    times = 2 if DOUBLE in meld.cards else 1
    return sum(card_points(c, rules, meld)[0] for c in cards) * times


def meld_reasons(meld: Meld, rules: RuleSet) -> list[tuple[str, str]]:
    """Why a legal meld is legal: ``[(rule id, reason)]``, e.g. for K♠ A♠ 2♠ under
    round the corner ``[("M3", "a run: ..."), ("M4", "the ace turns the corner ...")]``."""
    if meld.kind == "jokers":
        return [("P2", say("a set of three or four jokers, the only place a Persian joker goes"))]
    reasons: list[tuple[str, str]] = []
    if DOUBLE in meld.cards:
        reasons.append(
            ("X2", say("the dealer's joker nominated double: the set counts twice, sealed"))
        )
    elif meld.kind == "set":
        reasons.append(
            (
                "M1",
                say("a set: %(count)s cards of one rank (3 or 4 allowed)", count=len(meld.cards)),
            )
        )
        suits = [c.natural.suit for c in meld.cards]
        if len(set(suits)) < len(suits):
            reasons.append(("M2", say("two cards of one suit, which these rules allow")))
    else:
        reasons.append(
            (
                "M3",
                say(
                    "a run: %(count)s cards of one suit in sequence (%(least)s or more needed)",
                    count=len(meld.cards),
                    least=rules.min_run,
                ),
            )
        )
        if meld.low < 1 + 13 and meld.high > 14:
            reasons.append(("M4", say("the ace turns the corner (K-A-2), which these rules allow")))
        elif any(c.natural.rank == 1 for c in meld.cards):
            if meld.low == 1:
                reasons.append(("M4", say("the ace is played low (A-2-3)")))
            else:
                reasons.append(("M4", say("the ace is played high (Q-K-A)")))
    if any(c.is_joker for c in meld.cards):
        reasons.append(("M5", say("a wild joker names the card it stands for")))
    return reasons


def layoff_reasons(grown: Meld, laid: Sequence[Card], rules: RuleSet) -> list[tuple[str, str]]:
    """Why a lay-off is legal: L1, L3, then what ``grown`` (the meld after it) is."""
    return [
        ("L1", say("any meld on the table takes a card that extends it, one's own or another's")),
        (
            "L3",
            say(
                "%(cards)s is declared onto this meld, which the player names",
                cards=format_cards(laid),
            ),
        ),
        *meld_reasons(grown, rules),
    ]
