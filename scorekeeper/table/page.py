"""What the game page shows and when it need not be sent again: the latest rounds (older
on demand), the standings and the forms; its ETag is the game, its version, this phone's
edit right and whether every round was asked for, so a phone whose copy is current gets
304 Not Modified (the page, its changing part, the version JSON)."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, get_template_attribute, render_template, request, session

from ..engine.rules import PRESET_TITLES
from ..house_rules import check_link
from ..models import Game
from . import services as sheet
from .forms import ConfirmForm, net_form
from .rights import can_edit
from .standings import from_summaries, house_rules, standings

SHOWN = 20
"""Rounds the game page shows (the latest); older ones with "all rounds"."""


def unchanged(game: Game, version: int) -> tuple[bool, str]:
    """Whether the phone's copy (its ``If-None-Match``) is still current, and the ETag
    of this answer: the game's version, this phone's edit right and whether every round
    is asked for. A page with a message to show (a flash) is always sent."""
    whole = request.args.get("all") == "1"
    tag = f"g{game.id}v{version}{'e' if can_edit(game) else 'w'}{'a' if whole else 'l'}"
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


def page(game: Game) -> dict[str, Any]:
    """What the game page's templates (show.html, _live.html) are given: the latest
    ``SHOWN`` live rounds (all of them with ``?all=1``), their count and standings."""
    editable = can_edit(game)
    names = sheet.names_of(game)
    whole = request.args.get("all") == "1"
    rounds, count = sheet.page_rounds(game, None if whole else SHOWN)
    return {
        "entry": net_form(names, data={"version": game.version}) if editable else None,
        "rules": sheet.rules_of(game),
        "game": game,
        "names": names,
        "rounds": rounds,
        "count": count,
        "shown": SHOWN,
        "first_number": count - len(rounds) + 1,
        "standings": standings(game, rounds),
        "house_rules": house_rules(game),
        "editable": editable,
        "confirm": ConfirmForm(version=game.version) if editable else None,
        "teams": sheet.teams_of(game),
        "preset_title": PRESET_TITLES.get(game.preset, game.preset),
        "check_link": check_link(game.preset, game.options),
    }


def answer(game: Game, template: str) -> Response:
    """``template`` rendered for ``game`` with its ETag, or 304 when the phone's copy is
    of the game's current version (and the same edit right and rounds asked for)."""
    fresh, tag = unchanged(game, game.version)
    if fresh:
        return not_modified(tag)
    return conditional(render_template(template, **page(game)), tag)


def parts(game: Game, saved: sheet.Saved) -> dict[str, str]:
    """The parts of the game page's changing part (``_live.html``) that a new round
    changes, drawn from the summaries a save read (:attr:`sheet.Saved.earlier`, the
    ``SHOWN - 1`` rounds before it) with no query: ``standings``, ``dealer``, ``older``
    (the caption over the latest rounds, ``""`` when every round is shown), the new
    round's table ``row`` and the ``chart`` of the shown rounds."""
    summaries = [*saved.earlier, saved.summary]
    st = from_summaries(game, summaries)
    first = saved.number - len(summaries) + 1
    macros = current_app.jinja_env.get_template("table/_parts.html").module
    row = {"id": saved.id, "mode": saved.mode, "summary": saved.summary}
    return {
        "standings": str(macros.standings_part(st)),  # type: ignore[attr-defined]
        "dealer": str(macros.dealer_part(st, saved.number)),  # type: ignore[attr-defined]
        "older": str(macros.older_part(game, first, saved.number, SHOWN)).strip(),  # type: ignore[attr-defined]
        "row": str(macros.round_row(game, row, saved.number, st.series, {}, can_edit(game))),  # type: ignore[attr-defined]
        "chart": str(get_template_attribute("_macros.html", "chart")(st)),
    }
