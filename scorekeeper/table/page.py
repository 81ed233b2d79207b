"""What the game page shows and when it need not be sent again: the latest rounds (older
on demand), the standings and the forms; its ETag is the game, its version, this phone's
edit right and whether every round was asked for, so a phone whose copy is current gets
304 Not Modified (the page, its changing part, the version JSON)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from flask import (
    Response,
    current_app,
    render_template,
    request,
    session,
    url_for,
)
from jinja2.environment import TemplateModule

from ..engine import PRESET_TITLES, RuleSet
from ..house_rules import check_link
from ..languages.reader import chosen_language, number, translate
from ..models import Game
from . import services as sheet
from .forms import ConfirmForm, RoundForm, net_form
from .result import Result, result_of
from .rights import can_edit
from .sheets import ShownRound
from .standings import Standings, house_rules, standings

SHOWN = 20
"""Rounds the game page shows (the latest); older ones with "all rounds"."""
KEEP_PANELS = 256
"""Rules panels (:func:`rules_panel`) kept per process, one per preset and house rules."""


@dataclass(frozen=True)
class RulesPanel:
    """What the game page says of its rules, the same for every game of one preset and
    house rules: the :class:`RuleSet`, the ``house_rules`` in plain words
    (:func:`.standings.house_rules`), the preset's title and the checker's link with
    these rules loaded."""

    rules: RuleSet
    house_rules: tuple[dict[str, str], ...]
    preset_title: str
    check_link: str


_panels: dict[tuple[str, str, tuple[tuple[str, object], ...]], RulesPanel] = {}


def rules_panel(game: Game) -> RulesPanel:
    """The game's :class:`RulesPanel`, worked out once per process for each language,
    preset and set of house rules (at most :data:`KEEP_PANELS` kept; house rules of a kind that
    cannot be a key are worked out each time)."""
    try:
        key = (chosen_language(), game.preset, tuple(sorted(game.options.items())))
        found = _panels.get(key)
    except TypeError:
        return _panel_of(game)
    if found is None:
        if len(_panels) >= KEEP_PANELS:
            _panels.clear()
        found = _panels[key] = _panel_of(game)
    return found


def _panel_of(game: Game) -> RulesPanel:
    return RulesPanel(
        sheet.rules_of(game),
        tuple(house_rules(game)),
        str(translate(PRESET_TITLES.get(game.preset, game.preset))),
        check_link(game.preset, game.options),
    )


def every_round() -> bool:
    """True when every round is asked for (``?all=1``), else the latest :data:`SHOWN`."""
    args = request.args
    return "all" in args and args["all"] == "1"


def unchanged(game: Game, version: int) -> tuple[bool, str]:
    """Whether the phone's copy (its ``If-None-Match``) is still current, and the ETag
    of this answer: the game's version, this phone's edit right, whether every round
    is asked for and the language. A page with a message to show (a flash) is always
    sent."""
    whole = every_round()
    edit, asked = "e" if can_edit(game) else "w", "a" if whole else "l"
    tag = f"g{game.id}v{version}{edit}{asked}-{chosen_language()}"
    fresh = tag in request.if_none_match and "_flashes" not in session
    return fresh, tag


def conditional(body: str, tag: str, mimetype: str = "text/html") -> Response:
    """``body`` with its ETag, to be checked again on each use (``no-cache``)."""
    response = Response(body, mimetype=mimetype)
    response.set_etag(tag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def not_modified(tag: str) -> Response:
    """304: the phone's copy (ETag ``tag``) is current."""
    response = conditional("", tag)
    response.status_code = 304
    return response


@dataclass(frozen=True)
class Row:
    """One round's row of the game page's table (``round_rows`` in table/_parts.html): its
    ``number``; whether it was entered by ``cards``; each unit's cell as ``(tone, round,
    total)``, the tone ``"good"``, ``"bad"`` or ``""``, the round score signed
    (``"+35"``) and the running total, in points (as the request's language writes
    them, ``"1,020"``), less the P5 end bonus on the game's
    last row; ``edit``, the URL correcting it (None without the edit right)."""

    number: int
    cards: bool
    cells: list[tuple[str, str, str]]
    edit: str | None


TONES = ("", "good", "bad")
"""A round score's tone by its sign (0, positive, negative: index -1)."""


def rows(
    game: Game, rounds: Sequence[ShownRound], first: int, st: Standings, editable: bool
) -> list[Row]:
    """The table's rows of ``rounds`` (oldest first, numbered from ``first``), their
    cells in the order of ``st.series``; the end bonus (``st.end_bonus``) taken off the
    last row's. Computed here once, so the template only writes them out."""
    units, last = list(st.series), len(rounds) - 1
    found = []
    for index, r in enumerate(rounds):
        scores, totals = r.summary["round"], r.summary["total"]
        if index == last and st.end_bonus:
            bonus = st.end_bonus
            scores = {u: scores[u] - bonus.get(u, 0) for u in units}
            totals = {u: totals[u] - bonus.get(u, 0) for u in units}
        cells = [
            (TONES[(s > 0) - (s < 0)], f"{s:+d}", number(totals[u]))
            for u in units
            for s in (scores[u],)
        ]
        edit = None
        if editable:
            edit = url_for("table.correct_round", slug=game.view_token, round_id=r.id)
        found.append(Row(first + index, r.mode == "cards", cells, edit))
    return found


@dataclass(frozen=True)
class GamePage:
    """What the game page's templates (show.html, _live.html) are given
    (:meth:`context`): the ``game``, its ``rules`` and players' ``names``, the latest
    live ``rounds`` shown (oldest first, numbered from ``first_number``) of ``count``
    (``shown`` at most, unless all were asked for), their table ``rows``, the
    ``standings`` and the ``result`` once won, the rules panel (``house_rules``,
    ``preset_title``, ``check_link``), the sides (``teams``, P1), whether this phone
    may edit (``editable``) and then its forms (the round ``entry``, the play-again
    ``confirm``), and the macros of the page's templates (``parts``, ``macros``)."""

    entry: RoundForm | None
    rules: RuleSet
    game: Game
    names: list[str]
    rounds: list[ShownRound]
    count: int
    shown: int
    first_number: int
    rows: list[Row]
    result: Result | None
    standings: Standings
    house_rules: tuple[dict[str, str], ...]
    editable: bool
    confirm: ConfirmForm | None
    teams: tuple[tuple[str, ...], ...] | None
    preset_title: str
    check_link: str
    parts: TemplateModule
    macros: TemplateModule

    def context(self) -> dict[str, object]:
        """The page as the templates' variables, one per field."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def page(game: Game, entry: bool = False) -> GamePage:
    """The game page's :class:`GamePage`: the latest ``SHOWN`` live rounds (all of them
    with ``?all=1``), their count and standings. For a phone that may edit: the round
    entry's form with ``entry`` (the whole page), and the play-again button's form once
    the game is over."""
    editable = can_edit(game)
    names = sheet.names_of(game)
    whole = every_round()
    rounds, count = sheet.page_rounds(game, None if whole else SHOWN)
    st = standings(game, rounds)
    first = count - len(rounds) + 1
    panel = rules_panel(game)
    teams = sheet.teams_of(game)
    return GamePage(
        entry=net_form(names, data={"version": game.version}) if editable and entry else None,
        rules=panel.rules,
        game=game,
        names=names,
        rounds=rounds,
        count=count,
        shown=SHOWN,
        first_number=first,
        rows=rows(game, rounds, first, st, editable),
        result=result_of(game, st, count, rounds[-1].figures if rounds else None, teams),
        standings=st,
        house_rules=panel.house_rules,
        editable=editable,
        confirm=ConfirmForm(version=game.version) if editable and st.winner else None,
        teams=teams,
        preset_title=panel.preset_title,
        check_link=panel.check_link,
        parts=module("table/_parts.html"),
        macros=module("_macros.html"),
    )


def parts(game: Game, rounds: Sequence[ShownRound], count: int) -> dict[str, str]:
    """The parts of the game page's changing part that a new round changes, rendered by
    the page's own macros (table/_parts.html, the chart of _macros.html) for the game as
    it is now, whose latest :data:`SHOWN` live rounds are ``rounds`` (oldest first, as
    :func:`page` reads them) of ``count``: ``standings``, ``dealer``, ``older`` (empty
    while every round is shown), ``row`` (the last round's) and ``chart``. Only the
    last round's row is built."""
    st = standings(game, rounds)
    part: Any = module("table/_parts.html")
    macros: Any = module("_macros.html")
    return {
        "standings": str(part.standings_part(st)),
        "dealer": str(part.dealer_part(st, count)),
        "older": str(part.older_part(game, count - len(rounds) + 1, count, SHOWN)),
        "row": str(part.round_rows(rows(game, rounds[-1:], count, st, can_edit(game)))),
        "chart": str(macros.chart(st)),
    }


def final_result(game: Game) -> Result | None:
    """The game's :class:`~.result.Result` (None while nobody has won), read from its
    last live round."""
    rounds, count = sheet.page_rounds(game, 1)
    figures = rounds[-1].figures if rounds else None
    return result_of(game, standings(game, rounds), count, figures, sheet.teams_of(game))


def answer(game: Game, template: str, entry: bool = False) -> Response:
    """``template`` rendered for ``game`` (with the round entry when ``entry``: the whole
    page) with its ETag, or 304 when the phone's copy is of the game's current version
    (and the same edit right and rounds asked for)."""
    fresh, tag = unchanged(game, game.version)
    if fresh:
        return not_modified(tag)
    return conditional(render_template(template, **page(game, entry).context()), tag)


def module(template: str) -> TemplateModule:
    """The macros of ``template`` as a module, made once (Jinja keeps it with the
    template), for the game page's templates (``parts`` and ``macros``)."""
    return current_app.jinja_env.get_template(template).module
