"""The language of a table game's TV and shared result, chosen from its share page by a
phone holding the edit link (``POST /games/<view token>/share/language``). The table
blueprint (:data:`scorekeeper.table.views.bp`) takes the route through :func:`register`."""

from __future__ import annotations

from flask import Blueprint, abort, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ..extensions import csrf
from ..languages.places import change_place_language
from . import services as sheet
from .rights import require_edit


def game_language(slug: str) -> ResponseReturnValue:
    """Keep the game's language (the edit right needed: 403 without it; 404 for an
    unknown link) and go back to its share page."""
    game = sheet.get_game(slug, rounds=False)
    if game is None:
        abort(404, description=_("There is no game at this link."))
    require_edit(game)
    return change_place_language(game, url_for("table.share", slug=slug))


csrf.exempt(game_language)  # the form checks its own token: a stale one is told, not a bare 400


def register(bp: Blueprint) -> None:
    """Add the route to the table blueprint (:mod:`.views` calls it)."""
    bp.add_url_rule("/games/<slug>/share/language", view_func=game_language, methods=["POST"])
