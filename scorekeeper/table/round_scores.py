"""Scoring one round of a game at a real table by the engine, from its input in any of
the three modes (net, totals, cards), and the small summary the game page keeps of it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _

from ..engine import (
    RoundError,
    RoundScore,
    RuleSet,
    TableCount,
    next_dealer,
    score_sheet,
    tally_net,
    tally_round,
)
from ..models import Game
from .errors import ScoresheetError
from .sheets import names_of, rules_of, teams_of

MODES = ("net", "totals", "cards")
ENTRY_MODES = ("net", "totals")
"""The modes the game page's one-screen entry offers (cards have their own page)."""


def score_input(
    game: Game,
    mode: str,
    data: Mapping[str, Any],
    totals_before: Mapping[str, int],
    deal_number: int,
) -> RoundScore:
    """The engine's scoring of one round's input: net and totals modes as a
    :class:`~scorekeeper.engine.scoring.tally.TableCount` through
    :func:`~scorekeeper.engine.scoring.tally.tally_net` or
    :func:`~scorekeeper.engine.scoring.tally.tally_round`, cards mode read into a
    :class:`~scorekeeper.engine.scoring.score_round.RoundPlay` and scored by
    :func:`~scorekeeper.engine.scoring.notation.score_sheet`. Raises :class:`ScoresheetError`
    listing every problem.
    """
    rules, players, teams = rules_of(game), tuple(names_of(game)), teams_of(game)
    if mode in ENTRY_MODES:
        return _score_count(rules, players, teams, mode, data, totals_before, deal_number)
    if mode == "cards":
        return _score_cards(rules, players, teams, data, totals_before, deal_number)
    raise ScoresheetError(
        [("mode", _("a round is entered as net, totals or cards, not %(mode)r", mode=mode))]
    )


def _score_count(
    rules: RuleSet,
    players: tuple[str, ...],
    teams: tuple[tuple[str, ...], ...] | None,
    mode: str,
    data: Mapping[str, Any],
    totals_before: Mapping[str, int],
    deal_number: int,
) -> RoundScore:
    bad = [
        (k, _("must be points per player"))
        for k in ("shown", "in_hand", "adjust", "net")
        if not isinstance(data.get(k) or {}, Mapping)
    ]
    if bad:
        raise ScoresheetError(bad)
    count = TableCount(
        players=players,
        shown=data.get("shown") or {},
        in_hand=data.get("in_hand") or {},
        went_out=data.get("went_out"),
        adjust=data.get("adjust") or {},
        teams=teams,
        deal_number=deal_number,
        seven_card_run=data.get("seven_card_run"),
    )
    try:
        if mode == "net":
            return tally_net(rules, count, data.get("net") or {}, totals_before)
        return tally_round(rules, count, totals_before)
    except RoundError as error:
        raise ScoresheetError(error.problems) from None


def _score_cards(
    rules: RuleSet,
    players: tuple[str, ...],
    teams: tuple[tuple[str, ...], ...] | None,
    data: Mapping[str, Any],
    totals_before: Mapping[str, int],
    deal_number: int,
) -> RoundScore:
    written = {
        "went_out": data.get("went_out"),
        "melds": data.get("melds") or [],
        "layoffs": data.get("layoffs") or [],
        "hands": data.get("hands") or {},
        "went_out_by": data.get("went_out_by"),
    }
    try:
        return score_sheet(rules, players, written, totals_before, teams, deal_number)
    except RoundError as error:
        raise ScoresheetError(error.problems) from None


def summary_of(
    game: Game,
    mode_input: Mapping[str, Any],
    figures: Mapping[str, Any],
    dealer: int,
    number: int,
) -> dict[str, Any]:
    """The page's summary of a round (:attr:`Round.summary`): each unit's round score and
    running total in points, the seat that deals the next round (D5), the round having
    been dealt by seat ``dealer``, and the round's ``number`` among the live rounds (so
    the page and a save read how many rounds count from the last round, not by counting
    every round; rounds stored before summaries held it are counted)."""
    key = "sides" if teams_of(game) else "players"
    units = figures[key]
    seat = next_dealer(rules_of(game), names_of(game), dealer, [mode_input.get("went_out")])
    summary = {
        "round": {u: f["round"] for u, f in units.items()},
        "total": {u: f["total"] for u, f in units.items()},
        "dealer": seat,
        "number": number,
    }
    return summary
