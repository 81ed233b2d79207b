"""Each card's row in a scored round: its points in its place, why, the rule behind it,
and its row in the scoring contract's JSON, each made once per rule set and memoised.

Glossary:
- row: one card's part in the round, ``(card, points, why, rule id)``: a meld's rows, a
  lay-off's row, a hand's rows (S1 to S9, P3, X2, S7, S8, O3).
- template: the row in the contract's JSON (``card``, ``owner``, ``where``, ``points``,
  ``why``, ``rule``) with ``owner`` and ``where`` left empty; each answer copies it and
  fills them in.
- place: where a row lies, ``"meld 3"``, ``"layoff 1 onto meld 3"`` or ``"hand"``.

Each memo belongs to the rule set (:meth:`.rules.RuleSet.memo`) and is keyed by cards and
melds alone; a round looks each memo up once, not once per card.
"""

from __future__ import annotations

from typing import Any

from .cards import DOUBLE, Card
from .checks import RoundPlay, unit_of
from .melds import Meld
from .outcome import HandRule, s8_taker
from .rules import RuleSet
from .values import CardValues, card_values, points_in_place

Counted = tuple[tuple[Card, int, str, str], ...]
"""Cards counted: ``(card, points, why, rule id)`` for each."""

Template = dict[str, Any]
"""A card's row in the contract's JSON with ``owner`` and ``where`` left empty."""

MeldRows = tuple[Counted, int, tuple[Template, ...]]
"""A meld's (or a lay-off's) rows, their total in points, their JSON templates."""

HandRow = tuple[tuple[Card, int, str, str], int, Template]
"""A card left in hand: its row, its points before the hand's rule, its JSON template."""


def templates(counted: Counted) -> tuple[Template, ...]:
    """The JSON templates of ``counted`` rows (:data:`Template`)."""
    return tuple(
        {"card": c.text, "owner": "", "where": "", "points": p, "why": y, "rule": r}
        for c, p, y, r in counted
    )


def meld_rows(cards: tuple[Card, ...], as_laid: Meld, final: Meld, rules: RuleSet) -> MeldRows:
    """Each of ``cards`` (a meld as listed) counted, given the meld as laid and as it ends
    the round: S1 to S5 and S9 per card, S6 four aces, P3 a meld of four laid at once, X2
    a set doubled. Memoised per rule set by ``(cards, as_laid, final)`` (memo "meld
    points")."""
    memo = rules.memo("meld points")
    key = (cards, as_laid, final)
    found: MeldRows | None = memo.get(key)
    if found is None:
        counted = _count_meld(cards, as_laid, final, rules)
        rows = tuple((card, *row) for card, row in zip(cards, counted, strict=True))
        found = memo[key] = (rows, sum(points for points, _, _ in counted), templates(rows))
    return found


def _count_meld(
    cards: tuple[Card, ...], as_laid: Meld, final: Meld, rules: RuleSet
) -> tuple[tuple[int, str, str], ...]:
    values = card_values(rules)
    naturals = [c for c in cards if c is not DOUBLE]
    four = len(naturals) == 4
    if rules.four_aces_100 and four and as_laid.kind == "set" and as_laid.rank == 1:
        if DOUBLE in cards:
            return _four_aces_doubled(cards, values)
        return ((25 // values.divisor, "four aces melded at once: 100", "S6"),) * 4
    if DOUBLE in cards:
        return _doubled(cards, final, values)
    points = [points_in_place(values, card, final) for card in cards]
    if rules.meld_of_four_doubles and four:
        points = [
            (2 * p, f"{why}, doubled: meld of four laid at once", f"{rule}, P3")
            for p, why, rule in points
        ]
    return tuple(points)


def _doubled(
    cards: tuple[Card, ...], final: Meld, values: CardValues
) -> tuple[tuple[int, str, str], ...]:
    """X2, a set under the dealer's joker nominated "double" (seed 002: "The joker
    doubles the value of any set"): each card counts twice, the joker itself 0."""
    out = []
    for card in cards:
        if card is DOUBLE:
            out.append((0, "the joker doubling the set counts 0", "X2, S5"))
        else:
            p, why, rule = points_in_place(values, card, final)
            out.append((2 * p, f"{why}, doubled by the dealer's joker", f"{rule}, X2"))
    return tuple(out)


def _four_aces_doubled(
    cards: tuple[Card, ...], values: CardValues
) -> tuple[tuple[int, str, str], ...]:
    """S6 and X2 together: four aces melded at once under the dealer's joker nominated
    double (seed 002: the meld "is worth 100 points (25/ea.)"; "The joker doubles the value
    of any set"): each ace 50, the meld 200, the joker itself 0."""
    return tuple(
        (0, "the joker doubling the set counts 0", "X2, S5")
        if card is DOUBLE
        else (
            50 // values.divisor,
            "four aces melded at once: 100, doubled by the dealer's joker",
            "S6, X2",
        )
        for card in cards
    )


def layoff_row(card: Card, final: Meld, rules: RuleSet) -> MeldRows:
    """A card laid off, counted in its place in the meld as it ends the round (S1 to S5,
    S9): its one row, its points and its template; memoised (memo "layoff rows")."""
    points, why, rule = points_in_place(card_values(rules), card, final)
    counted = ((card, points, why, rule),)
    found: MeldRows = (counted, points, templates(counted))
    rules.memo("layoff rows")[card, final] = found
    return found


def hand_rows(
    rule: HandRule, taker: str | None, holder: str, rules: RuleSet
) -> dict[Card, HandRow]:
    """The rows made so far by :func:`hand_row` for cards left in ``holder``'s hand under
    ``rule`` (``taker`` who gains them under S8), by card: the memo "hand rows" holds one
    such dict per ``(rule, taker, holder)``, so that each card is then looked up alone."""
    memo = rules.memo("hand rows")
    found: dict[Card, HandRow] | None = memo.get((rule, taker, holder))
    if found is None:
        found = memo[rule, taker, holder] = {}
    return found


def hand_row(card: Card, rule: HandRule, taker: str | None, holder: str, rules: RuleSet) -> HandRow:
    """``card`` left in ``holder``'s hand, whose points go as ``rule`` says (S7, S8, O3;
    ``taker`` who gains it under S8, :func:`hand_takers`): its row, its points (S1 to S5,
    S9) and its template, owner and place filled in; memoised (:func:`hand_rows`)."""
    points, why, card_rule = card_values(rules).rank[card.rank]
    words = hand_words(rule, holder, taker)
    if words:
        row = (card, points, f"{why}, {words}", f"{card_rule}, {rule}")
    else:
        row = (card, 0, _NOT_COUNTED[rule], rule)
    template = templates((row,))[0] | {"owner": holder, "where": "hand"}
    found: HandRow = (row, points, template)
    hand_rows(rule, taker, holder, rules)[card] = found
    return found


_NOT_COUNTED = {
    "O3": "not counted: nobody deducts when the stock runs out",
    "S8": "not counted (add opponents' hands)",
}


def hand_words(rule: HandRule, holder: str, taker: str | None) -> str:
    """How ``holder``'s hand counts under ``rule``, in words (empty when it does not)."""
    if rule == "S8":
        return f"left in hand: added to {taker}'s score" if taker else ""
    if rule == "O3":
        return ""
    return f"left in hand: counts against {holder}"


def hand_takers(play: RoundPlay) -> dict[str, str | None]:
    """Under S8, who gains each player's hand (:func:`outcome.s8_taker`)."""
    unit = unit_of(play)
    units = list(dict.fromkeys(unit.values()))
    return {p: s8_taker(play, unit, units, p) for p in play.players}


MELD_PLACES = tuple(f"meld {i}" for i in range(64))
"""The place of meld ``i``: ``MELD_PLACES[i]`` (:func:`place` beyond)."""

LAYOFF_PLACES: list[tuple[str, ...] | None] = [None] * 64
"""The places of lay-offs 0 to 63 onto meld ``onto`` (0 to 63), each text made once:
``LAYOFF_PLACES[3]`` once :func:`layoff_places` has made it, else None."""


def layoff_places(onto: int) -> tuple[str, ...]:
    """The places of lay-offs 0 to 63 onto meld ``onto`` (0 to 63):
    ``layoff_places(3)[1] == "layoff 1 onto meld 3"``, made into :data:`LAYOFF_PLACES`."""
    found = LAYOFF_PLACES[onto]
    if found is None:
        found = LAYOFF_PLACES[onto] = tuple(f"layoff {i} onto meld {onto}" for i in range(64))
    return found


def place(i: int, onto: int | None) -> str:
    """``"meld 3"`` for meld ``i`` (``onto`` None), ``"layoff 1 onto meld 3"`` for lay-off
    ``i`` onto meld ``onto``."""
    if onto is None:
        return MELD_PLACES[i] if i < 64 else f"meld {i}"
    if i < 64 and 0 <= onto < 64:
        return layoff_places(onto)[i]
    return f"layoff {i} onto meld {onto}"
