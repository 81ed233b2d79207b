"""Scoring: each card's points in its place, a round, the game, the settlement.

Glossary:
- shown: the points of the cards a player has on the table, melds and lay-offs (S7, L2).
- in hand / deadwood: cards left in a hand when the round ends; they count against their
  holder (S7), or go to the player who went out (S8), or do not count (O3).
- bonus: points not from cards shown: going out in Persian (P4), the seven-card straight
  (S10), the opponents' hands under S8, the two-deal game's 50 (P5).
- round: shown - in hand + bonus, added to the running total (S7; S11's worked example:
  shown 87, hand 90, 3 points off).
- side: two partners scoring as a unit (P1); its figures are the sums of its players'.

Every figure comes with its explanation: one :class:`CardScore` per card and one
:class:`Note` per bonus, each naming the catalogue rule behind it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple, TypedDict, cast

from ..cards import DOUBLE, Card
from ..melds import Meld
from ..messages import say
from ..rules.ruleset import RuleSet
from ..values import CardValues, card_points, card_values, hand_points, points_in_place
from .checks import (
    LayoffPlay,
    MeldPlay,
    RoundError,
    RoundPlay,
    build_table,
    check_round,
    fitting_order,
    full_check,
    unit_of,
)
from .outcome import (
    CardRow,
    Figures,
    Note,
    Payment,
    count_hands,
    decide_game,
    going_out_notes,
    hand_rows,
    hand_rule,
    hand_takers,
    s8_taker,
    settle,
    seven_card_straight,
    side_figures,
    unit_totals,
)

__all__ = [
    "CardScore",
    "Figures",
    "LayoffPlay",
    "MeldPlay",
    "Note",
    "Payment",
    "RoundError",
    "RoundPlay",
    "RoundScore",
    "Rows",
    "build_table",
    "card_points",
    "check_round",
    "close_round",
    "meld_rows",
    "decide_game",
    "fitting_order",
    "hand_points",
    "s8_taker",
    "score_round",
    "settle",
    "side_figures",
    "unit_of",
    "unit_totals",
]


class CardScore(NamedTuple):
    """One card's part in the round: ``points`` it was counted at (positive, for the
    direction see ``why``), ``where`` (``"meld 0"``, ``"layoff 2 onto meld 1"``,
    ``"hand"``), and the rule id behind the figure."""

    card: Card
    owner: str
    where: str
    points: int
    why: str
    rule: str


Counted = tuple[CardRow, ...]
"""Cards counted: ``(card, points, why, rule id)`` for each."""


class CardRowJSON(TypedDict):
    """One card's row in the scoring contract's answer: ``card`` in notation, ``owner``
    and ``where`` (None in a template, :data:`Shapes`), ``points``, ``why`` in words and
    ``rule``, the catalogue id (S1 to S5, S9)."""

    card: str
    owner: str | None
    where: str | None
    points: int
    why: str
    rule: str


class NoteJSON(TypedDict):
    """A bonus explained in the contract's answer (:class:`Note`): points, words, rule id."""

    owner: str
    points: int
    why: str
    rule: str


class PaymentJSON(TypedDict):
    """G3's settlement in the contract's answer: ``payer`` owes ``payee`` ``points``."""

    payer: str
    payee: str
    points: int


Shapes = tuple[CardRowJSON, ...]
"""Each counted card's row in the scoring contract's JSON (``card``, ``owner``, ``where``,
``points``, ``why``, ``rule``, in that order), ``owner`` and ``where`` left None: templates
that :meth:`RoundScore.to_json` copies and fills in, never hands out."""


class Rows(NamedTuple):
    """Rows of :class:`CardScore` that share ``owner`` and ``where`` (one meld, one
    lay-off, one hand): ``counted`` the cards, each ``(card, points, why, rule id)``, and
    ``shapes`` the same cards as the contract's JSON rows (:data:`Shapes`)."""

    owner: str
    where: str
    counted: Counted
    shapes: Shapes


class MeldCount(NamedTuple):
    """A meld's cards counted (:func:`meld_rows`): ``counted`` each card's ``(card, points,
    why, rule id)``, ``points`` their total, ``shapes`` the cards' JSON rows (:data:`Shapes`)."""

    counted: Counted
    points: int
    shapes: Shapes


@dataclass(slots=True)
class RoundScore:
    """A scored round: figures per player (and per side), every card explained (``cards``,
    made from ``rows``), bonus notes, and the game's state after it (winner, game over,
    settlement)."""

    players: dict[str, Figures]
    sides: dict[str, Figures] | None
    rows: list[Rows]
    notes: list[Note]
    winner: str | None
    game_over: bool
    settlement: list[Payment]
    outcome: str

    @property
    def cards(self) -> list[CardScore]:
        """One :class:`CardScore` per card melded, laid off or left in a hand, in order."""
        return [
            _row(CardScore, (card, owner, where, points, why, rule))
            for owner, where, counted, _ in self.rows
            for card, points, why, rule in counted
        ]

    def to_json(self) -> dict[str, Any]:
        """The scoring contract's response shape (shared/score-contract.md), as the API
        answers it and the scorekeeper stores it."""
        players = {}
        for name, figures in self.players.items():
            players[name] = figures.as_dict()
        sides = None
        if self.sides:
            sides = {}
            for name, figures in self.sides.items():
                sides[name] = figures.as_dict()
        notes: list[NoteJSON] = []
        for n in self.notes:
            notes.append({"owner": n.owner, "points": n.points, "why": n.why, "rule": n.rule})
        settlement: list[PaymentJSON] = []
        for s in self.settlement:
            settlement.append({"payer": s.payer, "payee": s.payee, "points": s.points})
        return {
            "players": players,
            "sides": sides,
            "cards": _json_rows(self.rows),
            "notes": notes,
            "winner": self.winner,
            "game_over": self.game_over,
            "outcome": self.outcome,
            "settlement": settlement,
        }


def _json_rows(rows: list[Rows]) -> list[CardRowJSON]:
    """Every card's row in the contract's JSON, in order: each row's template
    (:data:`Shapes`) copied, its ``owner`` and ``where`` filled in."""
    out = []
    for owner, where, _, shapes in rows:
        for shape in shapes:
            row = shape.copy()
            row["owner"] = owner
            row["where"] = where
            out.append(row)
    return out


def _shapes(counted: Counted) -> Shapes:
    """The JSON row templates of ``counted`` (:data:`Shapes`)."""
    return tuple(
        {"card": card.text, "owner": None, "where": None, "points": p, "why": y, "rule": r}
        for card, p, y, r in counted
    )


_row = tuple.__new__  # builds a NamedTuple row without its Python-level constructor


@lru_cache(maxsize=8192)
def meld_rows(cards: tuple[Card, ...], as_laid: Meld, final: Meld, rules: RuleSet) -> MeldCount:
    """Each of ``cards`` (a meld as listed) counted, given the meld as laid and as it ends
    the round, their total in points and their JSON rows: S1 to S5 and S9 per card, S6 four
    aces, P3 a meld of four laid at once, X2 a set doubled."""
    values = card_values(rules)
    naturals = [c for c in cards if c is not DOUBLE]
    four = len(naturals) == 4
    if rules.four_aces_100 and four and as_laid.kind == "set" and as_laid.rank == 1:
        if DOUBLE in cards:
            counted = _four_aces_doubled(cards, values)
        else:
            counted = ((25 // values.divisor, say("four aces melded at once: 100"), "S6"),) * 4
    elif DOUBLE in cards:
        counted = _doubled(cards, final, values)
    else:
        counted = tuple(points_in_place(values, card, final) for card in cards)
        if rules.meld_of_four_doubles and four:
            counted = tuple(
                (2 * p, say("%(why)s, doubled: meld of four laid at once", why=why), f"{rule}, P3")
                for p, why, rule in counted
            )
    rows = tuple((card, *row) for card, row in zip(cards, counted, strict=True))
    return MeldCount(rows, sum(points for points, _, _ in counted), _shapes(rows))


@lru_cache(maxsize=8192)
def layoff_row(card: Card, final: Meld, rules: RuleSet) -> tuple[Counted, Shapes]:
    """A card laid off counted in its place in ``final``, the meld as it ends the round
    (S1 to S5, S9), with its JSON row (:data:`Shapes`)."""
    counted = ((card, *points_in_place(card_values(rules), card, final)),)
    return counted, _shapes(counted)


def _doubled(
    cards: tuple[Card, ...], final: Meld, values: CardValues
) -> tuple[tuple[int, str, str], ...]:
    """X2, a set under the dealer's joker nominated "double" (seed 002: "The joker
    doubles the value of any set"): each card counts twice, the joker itself 0."""
    out = []
    for card in cards:
        if card is DOUBLE:
            out.append((0, say("the joker doubling the set counts 0"), "X2, S5"))
        else:
            p, why, rule = points_in_place(values, card, final)
            out.append(
                (2 * p, say("%(why)s, doubled by the dealer's joker", why=why), f"{rule}, X2")
            )
    return tuple(out)


def _four_aces_doubled(
    cards: tuple[Card, ...], values: CardValues
) -> tuple[tuple[int, str, str], ...]:
    """S6 and X2 together: four aces melded at once under the dealer's joker nominated
    double (seed 002: the meld "is worth 100 points (25/ea.)"; "The joker doubles the value
    of any set"): each ace 50, the meld 200, the joker itself 0."""
    return tuple(
        (0, say("the joker doubling the set counts 0"), "X2, S5")
        if card is DOUBLE
        else (
            50 // values.divisor,
            say("four aces melded at once: 100, doubled by the dealer's joker"),
            "S6, X2",
        )
        for card in cards
    )


def _meld_cards(
    rules: RuleSet,
    play: RoundPlay,
    laid: list[Meld],
    table: list[Meld],
    figures: dict[str, Figures],
) -> list[Rows]:
    """The rows of each meld and lay-off, counted in their places in the melds as they end
    the round, their points added to their owner's ``shown``."""
    rows: list[Rows] = []
    for i, (meld_play, as_laid, final) in enumerate(zip(play.melds, laid, table, strict=True)):
        owner, cards = meld_play[0], meld_play[1]
        counted, points, shapes = meld_rows(cards, as_laid, final, rules)
        rows.append(_row(Rows, (owner, f"meld {i}", counted, shapes)))
        figures[owner].shown += points
    for i, (owner, card, index) in enumerate(play.layoffs):
        counted, shapes = layoff_row(card, table[index], rules)
        rows.append(_row(Rows, (owner, f"layoff {i} onto meld {index}", counted, shapes)))
        figures[owner].shown += counted[0][1]
    return rows


def _hand_cards(
    rules: RuleSet, play: RoundPlay, figures: dict[str, Figures], notes: list[Note]
) -> list[Rows]:
    """One row per card left in a hand, counted as :func:`outcome.hand_rule` decides:
    against its holder (S7), to an opponent (S8) or not at all (O3); in hand and S8
    credits added to ``figures`` and ``notes`` by :func:`outcome.count_hands`."""
    rule = hand_rule(rules, play.went_out)
    rows: list[Rows] = []
    left: dict[str, int] = {}
    taker_of = (hand_takers(play) if rule == "S8" else {}).get
    for player in play.players:
        hand = play.hands.get(player)
        if not hand:
            continue
        by_rank = hand_rows(rule, taker_of(player), player, rules)
        counted = []
        shapes: list[CardRowJSON] = []
        total = 0
        for card in hand:
            shown, why, rule_id, points = by_rank[card.rank]
            counted.append((card, shown, why, rule_id))
            shapes.append(
                {
                    "card": card.text,
                    "owner": None,
                    "where": None,
                    "points": shown,
                    "why": why,
                    "rule": rule_id,
                }
            )
            total += points
        rows.append(_row(Rows, (player, "hand", tuple(counted), tuple(shapes))))
        left[player] = total
    notes += count_hands(rules, play, left, figures)
    return rows


def add_bonuses(rules: RuleSet, play: RoundPlay, laid: list[Meld], notes: list[Note]) -> None:
    """Add to ``notes`` the bonuses of the player who went out (:func:`going_out_notes`:
    P4, and S10 when :func:`seven_card_straight` says so); ``laid`` the melds as laid."""
    if play.went_out is not None:
        seven = rules.seven_card_straight and seven_card_straight(play, laid)
        notes += going_out_notes(rules, play.went_out, seven)


def score_round(
    rules: RuleSet, play: RoundPlay, totals_before: Mapping[str, int] | None = None
) -> RoundScore:
    """Score one round under ``rules``; ``totals_before`` are the running totals (points)
    per player before it (0 when absent).

    Checks the round first (:func:`check_round`) and raises :class:`RoundError` listing
    every problem. Then: shown per S1 to S6, P3; in hand per S7, S8, O3; bonuses per P4,
    S10, S8, P5; totals; sides summed (P1); winner by G1, G2, G4, P5; settlement G3.
    """
    problems, laid, table = full_check(rules, play, frozenset())
    if problems:
        raise RoundError(problems)
    # A round without problems has every meld legal: none of them is None.
    return score_checked(
        rules, play, cast(list[Meld], laid), cast(list[Meld], table), totals_before
    )


def score_checked(
    rules: RuleSet,
    play: RoundPlay,
    laid: list[Meld],
    table: list[Meld],
    totals_before: Mapping[str, int] | None,
) -> RoundScore:
    """:func:`score_round` of a round already checked (:func:`full_check` found no
    problem), given its melds as laid and as they end the round."""
    figures = {p: Figures() for p in play.players}
    notes: list[Note] = []
    rows = _meld_cards(rules, play, laid, table, figures)
    rows += _hand_cards(rules, play, figures, notes)
    add_bonuses(rules, play, laid, notes)
    return close_round(rules, play, figures, notes, totals_before, rows)


def close_round(
    rules: RuleSet,
    play: RoundPlay,
    figures: dict[str, Figures],
    notes: list[Note],
    totals_before: Mapping[str, int] | None,
    rows: list[Rows],
) -> RoundScore:
    """Finish a round whose ``shown`` and ``in_hand`` are counted: credit each note's
    bonus, ``round = shown - in_hand + bonus`` (S7), the new totals, the sides (P1), and
    the game's state after it (:func:`decide_game`)."""
    for note in notes:
        figures[note.owner].bonus += note.points
    before = totals_before or {}
    for player, fig in figures.items():
        fig.round = points = fig.shown - fig.in_hand + fig.bonus
        fig.total = before.get(player, 0) + points
    result = decide_game(rules, play, figures, notes)
    sides = side_figures(play, figures) if play.teams else None
    return RoundScore(figures, sides, rows, notes, *result)
