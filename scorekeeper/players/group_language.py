"""The language of a group's shared pages (its season), chosen from its share page by a
phone holding the edit link (``POST /groups/<view token>/share/language``). The players
blueprint (:data:`scorekeeper.players.views.bp`) takes the route through :func:`register`."""

from __future__ import annotations

from flask import Blueprint, abort, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ..extensions import csrf
from ..groups.members import can_add, group_by_slug
from ..languages.places import change_place_language


def group_language(slug: str) -> ResponseReturnValue:
    """Keep the group's language (the edit right needed: 403 without it; 404 for an
    unknown link) and go back to its share page."""
    group = group_by_slug(slug)
    if group is None:
        abort(404, description=_("There is no group at this link."))
    if not can_add(group):
        abort(403, description=_("Only a phone holding the group's edit link may change this."))
    return change_place_language(group, url_for("players.share", slug=slug))


csrf.exempt(group_language)  # the form checks its own token: a stale one is told, not a bare 400


def register(bp: Blueprint) -> None:
    """Add the route to the players blueprint (:mod:`.views` calls it)."""
    bp.add_url_rule("/<slug>/share/language", view_func=group_language, methods=["POST"])
