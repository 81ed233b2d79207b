"""The digital game: play 500 Rum against bots on a phone, at ``/play``.

A game lives at ``/play/<slug>``: anyone with the link plays it, from any phone or tab.
Every move is a POST carrying the game's version: a form (without JavaScript), a tap as
JSON from the page (``/tap``, CSRF token in a header: the board comes back and is
swapped in place, :mod:`.live`), or JSON
for scripts (``/move.json``); the engine decides, the page shows.
"""

from __future__ import annotations

import json
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as WerkzeugResponse

from .. import jobs
from ..engine import current_player, legal_actions, observation
from ..extensions import csrf, hints_limit, limiter, new_games_limit
from ..inputs import is_int, load_json, parse_int
from ..models import DigitalGame
from ..web import wants_json
from . import services, taps, thinking
from .board import board
from .forms import MoveForm, NewPlayForm, parse_do
from .moves import Ambiguous, ChoiceError, action_for, button_label
from .seats import bot_levels
from .tables import events, seating, watch
from .tables import services as table_services
from .tables import views as table_views

bp = Blueprint("play", __name__, url_prefix="/play")
table_views.register(bp)  # a game on several phones: the new table, its seats
events.register(bp)  # live updates: events, version, board.json
watch.register(bp)  # the spectator board
bp.add_app_template_global(taps.latest_moves, "latest_moves")  # shared by every seat
bp.add_app_template_global(taps.render_once, "render_once")  # pieces made once


def _game(slug: str) -> DigitalGame:
    game = services.get_game(slug)
    if game is None:
        abort(404, description="There is no game at this link.")
    return game


def _seated(game: DigitalGame) -> seating.Sitting:
    """Who this phone is at ``game``; 403 at a table game where it has no seat (another
    seat's cards are never shown, :mod:`scorekeeper.play.tables.seating`)."""
    sitting = table_services.sitting(game)
    if sitting.seat is None:
        abort(403, description="This is a table of several phones: open your seat's link.")
    return sitting


@bp.errorhandler(429)
def too_many(_error: Any) -> Any:
    """A rate limit reached (new games, hints): 429 with ``Retry-After`` and one plain
    sentence, as JSON for the JSON routes, else as a page; nothing was done."""
    busy = jobs.Refused("you have asked for a lot at once: wait a moment and try again", 1)
    return _busy_json(busy) if wants_json() else _busy_page(busy)


@bp.errorhandler(403)
@bp.errorhandler(404)
def not_found(error: Any) -> tuple[str, int]:
    """An unknown game, or a table game's page on a phone with no seat there: say so."""
    return render_template("play/refused.html", error=error), error.code or 404


# ---- starting ----------------------------------------------------------------------------


@bp.route("", methods=["GET", "POST"])
@limiter.limit(new_games_limit, methods=["POST"])
def index() -> Any:
    """Start a game against bots (preset, house rules, bots); this phone's games."""
    form = NewPlayForm()
    if form.validate_on_submit():
        try:
            game = services.start_game(
                form.name.data or "", form.preset.data, form.options(), form.bots(), form.seed.data
            )
        except services.PlayError as error:
            form.field_for(error.where).errors.append(error.message)
        except jobs.Refused as busy:
            return _busy_page(busy, form)
        else:
            table_services.remember(game)
            return redirect(url_for("play.show", slug=game.slug, step=game.version))
    status = 422 if form.is_submitted() else 200
    games = services.games_by_slugs(session.get("played", []))
    return render_template("play/index.html", form=form, games=games, levels=bot_levels()), status


# ---- the game page ------------------------------------------------------------------------


@bp.get("/<slug>")
def show(slug: str) -> str:
    """The game: your hand, the pile, the stock, the table, the bots' moves, the scores."""
    game = _game(slug)
    sitting = _seated(game)
    table_services.catch_up(game)
    table_services.remember(game)
    notice = session.pop("play_notice", None)
    if not isinstance(notice, dict) or notice.get("slug") != slug:
        notice = {}
    error = notice.get("error")
    refusal = services.PlayError(error["message"], error.get("rule")) if error else None
    page = _page(game, refusal, notice.get("choices"), sitting)
    if request.args.get("hint") and sitting.seat is not None:
        try:
            page["hint"] = thinking.hint_for(game, sitting.seat) or {"thinking": True}
        except jobs.Refused as busy:
            page["hint"] = {"error": busy.message}
    return render_template("play/game.html", **page)


@bp.get("/<slug>/hint.json")
@limiter.limit(hints_limit)
def hint(slug: str) -> tuple[Response, int]:
    """What the expert would do now in this phone's seat, and why (nothing is played):
    200 with the hint; 202 ``{"thinking": true}`` with ``Retry-After`` while a worker
    thinks (ask again); 409 when there is nothing to decide; 429 when this client has
    too many jobs waiting."""
    game, seat = _json_seat(slug, "play at")
    try:
        said = thinking.hint_for(game, seat)
    except jobs.Refused as busy:
        return _busy_json(busy)
    if said is None:
        response = jsonify(thinking=True)
        response.headers["Retry-After"] = "1"
        response.headers["Cache-Control"] = "no-store"
        return response, 202
    response = jsonify(said)
    response.headers["Cache-Control"] = "no-store"
    return response, 409 if "error" in said else 200


def _busy_json(busy: jobs.Refused) -> tuple[Response, int]:
    """429 with ``Retry-After`` and the one sentence, as JSON."""
    response = jsonify(error=busy.message, rule=None)
    response.headers["Retry-After"] = str(busy.retry_after)
    response.headers["Cache-Control"] = "no-store"
    return response, 429


def _busy_page(busy: jobs.Refused, form: Any = None) -> Any:
    """429 with ``Retry-After`` and the one sentence, as a page."""
    body = render_template("play/busy.html", message=busy.message, form=form)
    return body, 429, {"Retry-After": str(busy.retry_after)}


def _page(
    game: DigitalGame,
    error: services.PlayError | None = None,
    choices: Any = None,
    sitting: seating.Sitting | None = None,
) -> dict[str, Any]:
    state = taps.shared_state(game)
    return {
        "game": game,
        "sitting": sitting,
        "status": seating.table_status(game, state, sitting) if sitting else None,
        "b": taps.page_board(game, state, sitting.seat if sitting else None),
        "form": MoveForm(version=game.version, formdata=None),
        "error": error,
        "choices": choices,
    }


def _back(game: DigitalGame, **notice: Any) -> WerkzeugResponse:
    """Back to the game page (redirect after POST), with a refusal or a question."""
    session["play_notice"] = {"slug": game.slug, **notice}
    return redirect(url_for("play.show", slug=game.slug), 303)


@bp.post("/<slug>/move")
def move(slug: str) -> Any:
    """Make a move (form or JSON), then the bots'; back to the game page, which says why
    when the move was refused."""
    game = _game(slug)
    sitting = _seated(game)
    form = MoveForm()
    if not form.validate():
        problem = next(iter(form.errors.values()))[0]
        return _refuse(game, services.PlayError(str(problem)), 400, sitting)
    state = services.load_state(game)
    try:
        kind, number, raw = parse_do(form.do.data or "")
    except ValueError as problem:
        return _refuse(game, services.PlayError(f"that is not a move: {problem}"), 400, sitting)
    if kind == "next_round":
        return _next_round(game, parse_int(form.version.data), sitting.bots)
    try:
        services.check_share()
    except jobs.Refused as busy:
        return _busy_page(busy)
    try:
        action = action_for(state, kind, form.cards.data or [], number, raw)
    except ChoiceError as problem:
        return _back(game, error={"message": problem.message, "rule": problem.rule})
    except Ambiguous as many:
        picks = [(json.dumps(a.to_json()), button_label(state, a)) for a in many.actions]
        return _back(game, choices=picks)
    try:
        version = parse_int(form.version.data)
        services.play_move(game, version, action, sitting.seat, sitting.bots)
    except services.StaleGame as stale:
        return render_template("play/stale.html", game=game, error=stale), 409
    except services.PlayError as refused:
        return _back(game, error={"message": refused.message, "rule": refused.rule})
    except jobs.Refused as busy:
        return _busy_page(busy)
    return redirect(url_for("play.show", slug=game.slug, step=game.version), 303)


def _next_round(game: DigitalGame, version: int, bots: Any) -> Any:
    try:
        services.next_round(game, version, bots)
    except services.StaleGame as stale:
        return render_template("play/stale.html", game=game, error=stale), 409
    except services.PlayError as refused:
        return _back(game, error={"message": refused.message, "rule": refused.rule})
    return redirect(url_for("play.show", slug=game.slug), 303)


def _refuse(
    game: DigitalGame, error: services.PlayError, status: int, sitting: seating.Sitting
) -> tuple[str, int]:
    return render_template("play/game.html", **_page(game, error, None, sitting)), status


JsonMove = tuple[DigitalGame, seating.Sitting, Any] | tuple[None, None, tuple[Response, int]]
"""A move's JSON request read (:func:`_json_move`)."""


def _json_move(slug: str) -> JsonMove:
    """A move's JSON request read: ``(game, sitting, body)`` (the phone's seat read once
    for the request), or ``(None, None, error answer)`` when it is not JSON (415) or
    breaks the JSON limits (400/413); a link to no game (404) or a phone with no seat at
    a table game (403) aborts (:func:`_json_sitting`)."""
    if not request.is_json:
        message = "send the move as JSON (Content-Type: application/json)"
        return None, None, _json_error(message, None, 415)
    game, sitting = _json_sitting(slug, "play at")
    try:
        return game, sitting, load_json(request.get_data())
    except HTTPException as error:
        return None, None, _json_error(str(error.description), None, error.code or 400)


@bp.post("/<slug>/tap")
def tap(slug: str) -> tuple[Response, int]:
    """A tap on the play page as JSON (CSRF token in the ``X-CSRFToken`` header): the move,
    answered at once with the board to swap in (the bots' moves that follow are jobs, each
    reaching the page through its stream), or
    the refusal with its rule (:mod:`.live`)."""
    read = _json_move(slug)
    if read[0] is None:
        return read[2]
    game, sitting, body = read
    answer, status = taps.answer(game, body, sitting.seat, sitting.bots)
    response = jsonify(answer)
    response.headers["Cache-Control"] = "no-store"
    return response, status


@bp.post("/<slug>/move.json")
def move_json(slug: str) -> tuple[Response, int]:
    """A move as JSON, for scripts: ``{"version": 3, "action": {...}}`` (an action as
    ``action.to_json()`` gives it), or ``{"version": 3, "do": "next_round"}`` after a
    round's end -> ``{"version", "steps", "paused", "finished"}``; errors
    ``{"error", "rule"}`` with 400, 404, 409, 415 or 422. Only a JSON body is read (a
    cross-site form cannot send one), so no CSRF token is needed."""
    read = _json_move(slug)
    if read[0] is None:
        return read[2]
    game, sitting, body = read
    if not isinstance(body, dict) or not is_int(body.get("version")):
        return _json_error('send {"version": <the game\'s version>, "action": {...}}', None, 400)
    try:
        if body.get("do") == "next_round":
            services.next_round(game, parse_int(body["version"]), sitting.bots)
        else:
            state = taps.shared_state(game)  # only read: play_move loads its own
            action = action_for(state, "action", [], None, body.get("action"))
            version = parse_int(body["version"])
            services.play_move(game, version, action, sitting.seat, sitting.bots)
    except ChoiceError as bad:
        return _json_error(bad.message, bad.rule, 400)
    except services.StaleGame as stale:
        return _json_error(stale.message, None, 409)
    except services.PlayError as refused:
        return _json_error(refused.message, refused.rule, 422)
    except jobs.Refused as busy:
        return _busy_json(busy)
    body = {"version": game.version, "steps": game.moves, "paused": game.paused}
    return jsonify(body | {"finished": game.finished}), 200


csrf.exempt(move_json)  # a JSON body from a script, never a browser form


@bp.get("/<slug>/state.json")
def state_json(slug: str) -> tuple[Response, int]:
    """What the person's seat may see, the version, and the person's legal moves."""
    game, seat = _json_seat(slug, "see")
    state = services.load_state(game)
    mine = current_player(state) == seat
    body = {
        "version": game.version,
        "finished": game.finished,
        "paused": game.paused,
        "winner": game.winner,
        "seat": seat,
        "bots": game.bots,
        "view": observation(state, seat).to_json(),
        "legal": [a.to_json() for a in legal_actions(state)] if mine else [],
        "steps": game.moves,
        "rounds": services.scored_rounds(game),
    }
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response, 200


def _json_seat(slug: str, doing: str) -> tuple[DigitalGame, int]:
    """This phone's game and seat for a JSON route (:func:`_json_sitting`)."""
    game, sitting = _json_sitting(slug, doing)
    assert sitting.seat is not None
    return game, sitting.seat


def _json_sitting(slug: str, doing: str) -> tuple[DigitalGame, seating.Sitting]:
    """This phone's game and who it is there (a seat's) for a JSON route; aborts with the
    JSON refusal when the link names no game (404) or the phone has no seat in it (403:
    "open your seat's link to ``doing`` this table"), as :func:`_game` and
    :func:`_seated` do for the pages."""
    game = services.get_game(slug)
    if game is None:
        abort(make_response(*_json_error("there is no game at this link", None, 404)))
    sitting = table_services.sitting(game)
    if sitting.seat is None:
        refusal = f"open your seat's link to {doing} this table"
        abort(make_response(*_json_error(refusal, None, 403)))
    return game, sitting


def _json_error(message: str, rule: str | None, status: int) -> tuple[Response, int]:
    return jsonify(error=message, rule=rule), status


# ---- scores and the record ------------------------------------------------------------------


@bp.get("/<slug>/rounds")
def rounds(slug: str) -> str:
    """Every finished round's scores, card by card, with the rule for each."""
    game = _game(slug)
    seat = _seated(game).seat
    state = services.load_state(game)
    scored = services.scored_rounds(game)
    b = board(game, state, None, seat)
    return render_template("play/rounds.html", game=game, b=b, rounds=scored)


@bp.get("/<slug>/record")
def record(slug: str) -> Response:
    """The game record (shared/game-record.md) as a JSON download."""
    game = _game(slug)
    record = services.record_of(game, _seated(game).seat)
    body = json.dumps(record, indent=1, ensure_ascii=False)
    response = Response(body, mimetype="application/json")
    name = f"500rum-{game.created_at:%Y%m%d}-{game.slug[:6]}.json"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
