"""A game as a file: export as JSON or CSV, import a JSON export. The table blueprint
(:data:`scorekeeper.table.views.bp`) takes these routes through :func:`register`.

An import passes the very checks of the new-game and round forms
(:func:`scorekeeper.table.exchange.read_export`), all or nothing; its body is limited
to :data:`IMPORT_MAX_BYTES` and its nesting depth, and anonymous imports are rate-limited
per client (``RATELIMIT_IMPORT``).
"""

from __future__ import annotations

import json

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ..extensions import limiter
from ..inputs import BadJson, load_json
from ..models import Game
from . import services as sheet
from .exchange import BadExport, export_csv, export_json, read_export
from .forms import IMPORT_MAX_BYTES, ImportForm
from .rights import grant


def _game(slug: str) -> Game:
    game = sheet.get_game(slug)
    if game is None:
        abort(404, description=_("There is no game at this link."))
    return game


def _import_limit() -> str:
    return str(current_app.config["RATELIMIT_IMPORT"])


def export_game_json(slug: str) -> Response:
    """The game as JSON (rounds in the scoring contract's shapes)."""
    game = _game(slug)
    body = json.dumps(export_json(game), ensure_ascii=False, indent=2)
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="500rum-{game.id}.json"'},
    )


def export_game_csv(slug: str) -> Response:
    """The game as CSV, one row per round and player."""
    game = _game(slug)
    return Response(
        export_csv(game),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="500rum-{game.id}.csv"'},
    )


@limiter.limit(_import_limit, methods=["POST"])
def import_game() -> ResponseReturnValue:
    """Import a game exported as JSON."""
    form = ImportForm()
    problems: list[str] = []
    status = 422 if form.is_submitted() else 200
    if form.validate_on_submit():
        upload = request.files.get("file")
        text = upload.read() if upload else b""
        text = text or (form.text.data or "").encode("utf-8")
        try:
            game = sheet.import_game(read_export(load_json(text, IMPORT_MAX_BYTES)))
        except (ValueError, BadJson) as error:
            problems = _problems(error)
            status = 503 if isinstance(error, sheet.SaveFailed) else 422
        else:
            grant(game)
            flash(_("Game imported."), "success")
            return redirect(url_for("table.show", slug=game.view_token), 303)
    return render_template("table/import.html", form=form, problems=problems), status


def _problems(error: Exception) -> list[str]:
    if isinstance(error, (BadExport, sheet.ScoresheetError)):
        return [m for _where, m in error.problems]
    if isinstance(error, BadJson):
        return [str(error.description)]
    return [_("That is not valid JSON: %(error)s", error=str(error))]


def register(bp: Blueprint) -> None:
    """Add these routes to the ``table`` blueprint (:mod:`.views` calls it)."""
    bp.add_url_rule("/games/<slug>/export.json", view_func=export_game_json)
    bp.add_url_rule("/games/<slug>/export.csv", view_func=export_game_csv)
    bp.add_url_rule("/games/import", view_func=import_game, methods=["GET", "POST"])
