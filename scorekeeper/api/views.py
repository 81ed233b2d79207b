"""The JSON API, ``/api/v1/``: the scoring contract (shared/score-contract.md), meld and
lay-off checks, the rule options and the presets, described at ``/api/v1/openapi.json``.

Every error is JSON ``{"errors": [{"where": ..., "message": ...}]}`` with a 4xx status:
400 malformed JSON, 404 unknown API path, 405 wrong method, 413 body too large, 415 not
JSON, 422 a rule or notation problem. CSRF does not apply (no cookies are used).
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, UnsupportedMediaType

from ..extensions import csrf, limiter
from ..inputs import load_json
from ..languages.reader import translate
from . import answers
from .openapi import openapi_document

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
limiter.limit(lambda: str(current_app.config["RATELIMIT_API"]))(bp)


def _errors(status: int, where: str, message: object) -> tuple[Response, int]:
    """The error body: ``message`` (text, or an engine sentence) in the request's language
    (English unless ``?lang=``)."""
    return jsonify({"errors": [{"where": where, "message": translate(message)}]}), status


@bp.errorhandler(HTTPException)
def json_error(error: HTTPException) -> tuple[Response, int]:
    """Any HTTP error inside the API as a JSON body."""
    if isinstance(error, answers.Unprocessable):
        return jsonify({"errors": error.errors}), 422
    return _errors(error.code or 400, "request", error.description or error.name)


def api_not_found_or_not_allowed(error: HTTPException) -> ResponseReturnValue:
    """404 and 405 as JSON on ``/api/`` paths; other paths keep their own pages."""
    if request.path.startswith("/api/"):
        response, status = _errors(error.code or 404, "request", error.description or "")
        if error.code == 405 and hasattr(error, "valid_methods") and error.valid_methods:
            response.headers["Allow"] = ", ".join(error.valid_methods)
        return response, status
    return error


def register_api(app: Flask) -> None:
    """Attach the API blueprint and its app-wide 404/405 handlers (JSON on /api/ only)."""
    app.register_blueprint(bp)
    app.register_error_handler(404, api_not_found_or_not_allowed)
    app.register_error_handler(405, api_not_found_or_not_allowed)


def _body() -> dict[str, object]:
    """The request's JSON object (415 when not JSON, 400 when malformed, 413 too big)."""
    if not request.is_json:
        raise UnsupportedMediaType(_("send the body as JSON with Content-Type: application/json"))
    data = load_json(request.get_data())
    if not isinstance(data, dict):
        raise answers.Unprocessable(
            [{"where": "request", "message": _("the body must be a JSON object")}]
        )
    return data


@bp.post("/score")
def score_round() -> tuple[Response, int]:
    """Score one round: the scoring contract."""
    body, status = answers.score_answer(_body())
    return jsonify(body), status


@bp.post("/meld-check")
def check_meld_request() -> tuple[Response, int]:
    """Is this meld legal under these rules, and which rules say so or say no."""
    return jsonify(answers.meld_answer(_body())), 200


@bp.post("/layoff-check")
def check_layoff_request() -> tuple[Response, int]:
    """Can this card (or pair) be laid off onto that meld, and why or why not."""
    return jsonify(answers.layoff_answer(_body())), 200


@bp.get("/rules")
def list_rules() -> Response:
    """Every option of the rule set with its catalogue ids, choices, labels and sources."""
    return jsonify(answers.options_answer())


@bp.get("/presets")
def list_presets() -> Response:
    """The presets: what each changes from the defaults, and every option's value."""
    return jsonify(answers.presets_answer())


@bp.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI 3.1 document of this API."""
    return jsonify(openapi_document())
