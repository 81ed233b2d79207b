"""The digital game: play 500 Rum against bots on a phone, at ``/play``.

A game lives at ``/play/<slug>``: anyone with the link plays it, from any phone or tab.
Every move is a POST carrying the game's version: a form (without JavaScript), a tap as
JSON from the page (``/tap``, CSRF token in a header: the board comes back and is
swapped in place, :mod:`.taps`), or JSON
for scripts (``/move.json``); the engine decides, the page shows.
"""

from __future__ import annotations

import json

from flask import (
    Blueprint,
    Response,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as WerkzeugResponse

from .. import jobs
from ..engine import current_player, legal_actions, observation, say_plural
from ..extensions import csrf, hints_limit, limiter, new_games_limit
from ..inputs import load_json
from ..languages.reader import translate
from ..models import DigitalGame
from ..web import wants_json
from . import estimate, per_version, refusals, replays, services, taps, thinking
from .board import board
from .forms import MoveForm, NewPlayForm, read_form, read_move_json, read_tap
from .seats import level_title, shown_levels
from .steps import told
from .tables import events, seating, watch
from .tables import services as table_services
from .tables import views as table_views

bp = Blueprint("play", __name__, url_prefix="/play")
table_views.register(bp)  # a game on several phones: the new table, its seats
events.register(bp)  # live updates: events, version, board.json
watch.register(bp)  # the spectator board
replays.register(bp)  # a finished game's replay, a record file opened from the phone
bp.add_app_template_global(taps.latest_moves, "latest_moves")  # shared by every seat
bp.add_app_template_global(taps.render_once, "render_once")  # pieces made once
bp.add_app_template_filter(level_title, "level_title")  # a stored level for people
bp.add_app_template_filter(told, "told")  # a step's words in the reader's language
bp.add_app_template_global(say_plural, "say_plural")  # a plural with figures besides its count


def _game(slug: str) -> DigitalGame:
    """The game at ``slug`` (kept in ``g.play_game`` for the error handlers); raises
    :class:`.refusals.NoGame`."""
    game = services.get_game(slug)
    if game is None:
        raise refusals.NoGame()
    g.play_game = game
    return game


def _seated(game: DigitalGame, doing: str = "play at") -> seating.Sitting:
    """Who this phone is at ``game`` (kept in ``g.play_sitting``); raises
    :class:`.refusals.NotSeated` at a table game where it has no seat (another seat's
    cards are never shown, :mod:`scorekeeper.play.tables.seating`)."""
    sitting = table_services.sitting(game)
    if sitting.seat is None:
        raise refusals.NotSeated(doing)
    g.play_sitting = sitting
    return sitting


JSON_ROUTES = frozenset({"play.tap", "play.move_json", "play.hint", "play.state_json"})
"""The routes that answer JSON, refusals too."""


def _answers_json() -> bool:
    return request.endpoint in JSON_ROUTES


def _no_store(response: Response, status: int) -> tuple[Response, int]:
    response.headers["Cache-Control"] = "no-store"
    return response, status


# ---- refusals: every exception of a route mapped to its answer, here only ----------------


@bp.errorhandler(refusals.PlayError)
def refused(error: refusals.PlayError) -> ResponseReturnValue:
    """A refusal (:class:`.refusals.PlayError` and its kinds, each with its status):
    ``{"error", "rule"}`` for the JSON routes; on a page, the game page again with the
    refusal (a move's problem: back to the game with it, 303; a form that names no move:
    400; stale: 409), or a page of its own (403 no seat, 404 no game)."""
    if _answers_json():
        return _no_store(jsonify(error=translate(error.message), rule=error.rule), error.status)
    game, sitting = g.get("play_game"), g.get("play_sitting")
    if isinstance(error, refusals.StaleGame) and game is not None:
        return render_template("play/stale.html", game=game, error=error), 409
    if game is None or sitting is None or error.status in (403, 404):
        return render_template("play/refused.html", error=error), error.status
    if isinstance(error, refusals.Malformed):
        return render_template("play/game.html", **_page(game, error, None, sitting)), 400
    return _back(game, error={"message": translate(error.message), "rule": error.rule})


@bp.errorhandler(refusals.Choose)
def choose(question: refusals.Choose) -> ResponseReturnValue:
    """A choice that fits several moves: ``{"choices": [{"value", "label"}]}`` (200), or
    back to the game page with the buttons to pick one (303); nothing was made."""
    if _answers_json():
        return _no_store(jsonify(choices=[p.to_json() for p in question.picks]), 200)
    return _back(g.play_game, choices=[(p.value, p.label) for p in question.picks])


@bp.errorhandler(jobs.Refused)
def busy(refusal: jobs.Refused) -> ResponseReturnValue:
    """This client's jobs waiting at their bound: 429 with ``Retry-After`` and one plain
    sentence (``{"error", "rule", "retry_after"}`` for the JSON routes), nothing done."""
    return _busy_json(refusal) if _answers_json() or wants_json() else _busy_page(refusal)


@bp.errorhandler(429)
def too_many(_error: HTTPException) -> ResponseReturnValue:
    """A rate limit reached (new games, hints): 429 with ``Retry-After`` and one plain
    sentence, as JSON for the JSON routes, else as a page; nothing was done."""
    return busy(jobs.Refused(_("you have asked for a lot at once: wait a moment and try again"), 1))


@bp.errorhandler(403)
@bp.errorhandler(404)
def not_found(error: HTTPException) -> tuple[str, int]:
    """An unknown game, or a table game's page on a phone with no seat there: say so."""
    return render_template("play/refused.html", error=error), error.code or 404


# ---- starting ----------------------------------------------------------------------------


@bp.route("", methods=["GET", "POST"])
@limiter.limit(new_games_limit, methods=["POST"])
def index() -> ResponseReturnValue:
    """Start a game against bots (preset, house rules, bots); this phone's games."""
    form = NewPlayForm()
    games = services.games_by_slugs(session.get("played", []))
    reading = estimate.phone_reading(games)
    form.label_match(reading.match_label)
    if form.validate_on_submit():
        bots = [b for b in estimate.chosen_levels(form.bots(), reading) if b]
        try:
            game = services.start_game(
                form.name.data or "", form.preset.data, form.options(), bots, form.seed.data
            )
        except refusals.PlayError as error:
            form.field_for(error.where).errors.append(translate(error.message))
        except jobs.Refused as busy:
            return _busy_page(busy, form)
        else:
            table_services.remember(game)
            return redirect(url_for("play.show", slug=game.slug, step=game.version))
    status = 422 if form.is_submitted() else 200
    page = {"form": form, "games": games, "levels": shown_levels(), "reading": reading}
    return render_template("play/index.html", **page), status


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
    refusal = refusals.PlayError(error["message"], error.get("rule")) if error else None
    page = _page(game, refusal, notice.get("choices"), sitting)
    if request.args.get("hint") and sitting.seat is not None:
        try:
            page["hint"] = thinking.hint_for(game, sitting.seat) or {"thinking": True}
        except jobs.Refused as busy:
            page["hint"] = {"error": translate(busy.message)}
    return render_template("play/game.html", **page)


@bp.get("/<slug>/hint.json")
@limiter.limit(hints_limit)
def hint(slug: str) -> tuple[Response, int]:
    """What the expert would do now in this phone's seat, and why (nothing is played):
    200 with the hint; 202 ``{"thinking": true}`` with ``Retry-After`` while a worker
    thinks (ask again); 409 when there is nothing to decide; 429 when this client has
    too many jobs waiting."""
    game = _game(slug)
    seat = _seat_of(_seated(game))
    said = thinking.hint_for(game, seat)
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
    response = jsonify(error=translate(busy.message), rule=None, retry_after=busy.retry_after)
    response.headers["Retry-After"] = str(busy.retry_after)
    response.headers["Cache-Control"] = "no-store"
    return response, 429


def _busy_page(busy: jobs.Refused, form: NewPlayForm | None = None) -> ResponseReturnValue:
    """429 with ``Retry-After`` and the one sentence, as a page."""
    body = render_template("play/busy.html", message=busy.message, form=form)
    return body, 429, {"Retry-After": str(busy.retry_after)}


def _page(
    game: DigitalGame,
    error: refusals.PlayError | None = None,
    choices: list[tuple[str, str]] | None = None,
    sitting: seating.Sitting | None = None,
) -> dict[str, object]:
    state = per_version.shared_state(game)
    return {
        "game": game,
        "sitting": sitting,
        "status": seating.table_status(game, state, sitting) if sitting else None,
        "b": taps.page_board(game, state, sitting.seat if sitting else None),
        "form": MoveForm(version=game.version, formdata=None),
        "error": error,
        "choices": choices,
    }


def _back(game: DigitalGame, **notice: object) -> WerkzeugResponse:
    """Back to the game page (redirect after POST), with a refusal or a question."""
    session["play_notice"] = {"slug": game.slug, **notice}
    return redirect(url_for("play.show", slug=game.slug), 303)


@bp.post("/<slug>/move")
def move(slug: str) -> WerkzeugResponse:
    """Make a move (a form posted, without JavaScript), then the bots'; back to the game
    page (refusals: :func:`refused`, :func:`choose`, :func:`busy`)."""
    game = _game(slug)
    sitting = _seated(game)
    choice = read_form(MoveForm())
    services.move(game, choice, sitting.seat, sitting.bots)
    step = None if choice.kind == "next_round" else game.version
    return redirect(url_for("play.show", slug=game.slug, step=step), 303)


def _json_body() -> object:
    """A JSON route's body; raises :class:`.refusals.Malformed` when it is not JSON
    (415) or breaks the JSON limits (400/413)."""
    if not request.is_json:
        raise refusals.Malformed("send the move as JSON (Content-Type: application/json)", 415)
    try:
        return load_json(request.get_data())
    except HTTPException as error:
        raise refusals.Malformed(str(error.description), error.code or 400) from None


@bp.post("/<slug>/tap")
def tap(slug: str) -> tuple[Response, int]:
    """A tap on the play page as JSON (CSRF token in the ``X-CSRFToken`` header): the move,
    answered at once with the board to swap in (:func:`.taps.answer`; the bots' moves
    that follow are jobs, each reaching the page through its stream), or the refusal
    with its rule (:func:`refused`)."""
    body = _json_body()
    game = _game(slug)
    sitting = _seated(game)
    choice = read_tap(body)
    services.move(game, choice, sitting.seat, sitting.bots)
    return _no_store(jsonify(taps.answer(game, sitting.seat)), 200)


@bp.post("/<slug>/move.json")
def move_json(slug: str) -> tuple[Response, int]:
    """A move as JSON, for scripts: ``{"version": 3, "action": {...}}`` (an action as
    ``action.to_json()`` gives it), or ``{"version": 3, "do": "next_round"}`` after a
    round's end -> ``{"version", "steps", "paused", "finished"}``; errors
    ``{"error", "rule"}`` with 400, 404, 409, 415 or 422 (:func:`refused`). Only a JSON
    body is read (a cross-site form cannot send one), so no CSRF token is needed."""
    body = _json_body()
    game = _game(slug)
    sitting = _seated(game)
    choice = read_move_json(body)
    services.move(game, choice, sitting.seat, sitting.bots)
    body = {"version": game.version, "steps": game.moves, "paused": game.paused}
    return jsonify(body | {"finished": game.finished}), 200


csrf.exempt(move_json)  # a JSON body from a script, never a browser form


@bp.get("/<slug>/state.json")
def state_json(slug: str) -> tuple[Response, int]:
    """What the person's seat may see, the version, and the person's legal moves."""
    game = _game(slug)
    seat = _seat_of(_seated(game, "see"))
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


def _seat_of(sitting: seating.Sitting) -> int:
    """The seat of a phone :func:`_seated` found seated."""
    assert sitting.seat is not None
    return sitting.seat


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
