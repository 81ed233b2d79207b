"""Edit rights: which phones may change a game.

A phone that started a game, or opened its edit link (``/games/<view>/edit/<edit
token>``), keeps that token in its session cookie; it may change the game while the
token still matches the game's. "New edit link" gives the game a new token, so every
older link and every phone holding the old one can only watch.
"""

from __future__ import annotations

from flask import abort, session
from flask_babel import gettext as _

from ..models import Game
from ..web import same_token
from .mine import remember

KEEP_EDIT_RIGHTS = 40
"""Edit rights remembered per phone (session cookie), newest kept."""


def can_edit(game: Game) -> bool:
    """True when this phone opened the game's current edit link (or started the game)."""
    return same_token(session.get("edit", {}).get(str(game.id), ""), game.edit_token)


def grant(game: Game) -> None:
    """Remember on this phone the right to change ``game`` (its current edit token), and
    the game among this phone's games (:func:`.mine.remember`)."""
    rights = dict(session.get("edit", {}))
    rights.pop(str(game.id), None)
    rights[str(game.id)] = game.edit_token
    session["edit"] = dict(list(rights.items())[-KEEP_EDIT_RIGHTS:])
    session.permanent = True
    remember(game)


def require_edit(game: Game) -> None:
    """403 unless this phone may change ``game``."""
    if not can_edit(game):
        abort(
            403,
            description=_(
                "This is the view link: it can watch the game but not change it. Open the "
                "edit link (shared from a phone that keeps the score) to change it."
            ),
        )
