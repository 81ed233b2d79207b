"""The home page: this phone's games (started or opened here), each with archive and
delete (with undo), and the room code form: a night's code (shown on its TV and share
page) opens the night's current game to watch (its view link, never an edit link),
rate-limited per address (``RATELIMIT_ROOM_CODES``) so codes cannot be tried in bulk.
Its own blueprint, ``home``, beside the game pages of ``views``.

No route here or anywhere lists games beyond the ones this phone's signed session names
(:mod:`scorekeeper.table.mine`).
"""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from ..engine import PRESET_TITLES
from ..extensions import limiter
from ..languages.reader import error_text, translate
from ..models import Game
from . import mine
from .forms import ConfirmForm
from .nights import BadCode, clean_code, game_of_code
from .rights import can_edit
from .services import get_game
from .views import refused

bp = Blueprint("home", __name__)
bp.register_error_handler(400, refused)
bp.register_error_handler(403, refused)
bp.register_error_handler(404, refused)


def _game(slug: str) -> Game:
    game = get_game(slug)
    if game is None:
        abort(404, description=_("There is no game at this link."))
    return game


@bp.app_template_filter("utc_iso")
def utc_iso(when: datetime) -> str:
    """A stored time as UTC ISO 8601 (``2026-11-23T19:04:00Z``), for ``<time datetime>``;
    times stored without a zone (SQLite) are UTC."""
    aware = when if when.tzinfo else when.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _confirmed() -> None:
    if not ConfirmForm().validate():
        abort(400, description=_("This form is out of date: reload the page."))


def _home(join_error: str | None = None, code: str = "", status: int = 200) -> tuple[str, int]:
    """The home page, with ``join_error`` (one sentence) under the room code form holding
    ``code`` as typed, answered with ``status``."""
    cards = mine.my_games()
    shelf: dict[str, list[mine.GameCard]] = {"playing": [], "finished": [], "archived": []}
    for card in cards:
        if mine.is_archived(card.game.view_token):
            shelf["archived"].append(card)
        else:
            shelf["finished" if card.game.finished_at else "playing"].append(card)
    page = render_template(
        "table/index.html",
        **shelf,
        deleted=[g for g in mine.deleted_games() if can_edit(g)],
        editable={c.game.id for c in cards if can_edit(c.game)},
        confirm=ConfirmForm(version="0"),
        presets={name: translate(title) for name, title in PRESET_TITLES.items()},
        join_error=join_error,
        code=code[:20],
    )
    return page, status


@bp.get("/")
def index() -> tuple[str, int]:
    """This phone's games: in progress, finished, archived, and those it just deleted."""
    return _home()


def room_codes_limit() -> str:
    """``RATELIMIT_ROOM_CODES`` (room codes tried per client address, "10 per minute;60
    per hour": a person types one or two; 25 ** 5 codes cannot be tried at that pace)."""
    return str(current_app.config["RATELIMIT_ROOM_CODES"])


@bp.get("/join")
@limiter.limit(room_codes_limit)
def join_night() -> ResponseReturnValue:
    """The room code typed on the home page (``?code=``, case-insensitive, spaces
    ignored): a redirect to the view link of the current game of the live night that has
    it; the home page with one sentence under the form otherwise (400 for what cannot be
    a code, 404 for a code no live night has; 429 past the rate limit)."""
    typed = request.args.get("code", "")
    try:
        code = clean_code(typed)
    except BadCode as error:
        return _home(error_text(error), typed, 400)
    game = game_of_code(code)
    if game is None:
        sentence = _("No game night has the room code %(code)s now: check it on the TV.", code=code)
        return _home(sentence, typed, 404)
    return redirect(url_for("table.show", slug=game.view_token), 303)


@bp.errorhandler(429)
def too_many_codes(_error: HTTPException) -> tuple[str, int]:
    """Room codes tried too often from this address: the home page with one sentence."""
    return _home(_("Too many room codes tried from here: wait a minute and try again."), "", 429)


@bp.post("/games/<slug>/archive")
def archive(slug: str) -> ResponseReturnValue:
    """Put a game away on this phone's list (still reachable by its links)."""
    _confirmed()
    mine.archive(_game(slug), True)
    return redirect(url_for("home.index"), 303)


@bp.post("/games/<slug>/unarchive")
def unarchive(slug: str) -> ResponseReturnValue:
    """Bring an archived game back to this phone's list."""
    _confirmed()
    mine.archive(_game(slug), False)
    return redirect(url_for("home.index"), 303)


@bp.post("/games/<slug>/delete")
def delete(slug: str) -> ResponseReturnValue:
    """Delete a game for everyone (edit rights needed); this phone can undo it."""
    _confirmed()
    game = _game(slug)
    if not can_edit(game):
        abort(403, description=_("Only a phone that keeps the score can delete this game."))
    mine.delete_game(game)
    flash(_("Game deleted. Changed your mind? Undo it below."), "success")
    return redirect(url_for("home.index"), 303)


@bp.post("/games/<slug>/restore")
def restore(slug: str) -> ResponseReturnValue:
    """Undo this phone's delete of a game."""
    _confirmed()
    game = mine.deleted_game(slug)
    if game is None or not can_edit(game):
        abort(404, description=_("There is no game deleted from this phone at this link."))
    mine.restore_game(game)
    flash(_("Game back."), "success")
    return redirect(url_for("home.index"), 303)
