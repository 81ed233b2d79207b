"""The JSON API, ``/api/v1/``: the scoring contract (shared/score-contract.md), meld and
lay-off checks, the rule options and the presets, described at ``/api/v1/openapi.json``.

Every error is JSON ``{"errors": [{"where": ..., "message": ...}]}`` with a 4xx status:
400 malformed JSON, 404 unknown API path, 405 wrong method, 413 body too large, 415 not
JSON, 422 a rule or notation problem. CSRF does not apply (no cookies are used).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException, UnprocessableEntity, UnsupportedMediaType

from ..api_schema import openapi_document
from ..engine.cards import Card, CardError, parse_card
from ..engine.contract import ScoreRequestError, rules_from_request, score
from ..engine.explain import layoff_reasons, meld_points, meld_reasons
from ..engine.melds import IllegalMeld, Meld, check_meld, extend_with
from ..engine.rules import OPTIONS, PRESET_TITLES, PRESETS, RuleSet, ruleset
from ..extensions import csrf
from ..rules_query import option_problems

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)

MAX_MELD_CARDS = 26
"""Most cards in one meld-check request (a run holds 13; two packs double that)."""


class _Unprocessable(UnprocessableEntity):
    def __init__(self, errors: list[dict[str, str]]) -> None:
        super().__init__()
        self.errors = errors


def _errors(status: int, where: str, message: str) -> tuple[Response, int]:
    return jsonify({"errors": [{"where": where, "message": message}]}), status


@bp.errorhandler(HTTPException)
def json_error(error: HTTPException) -> tuple[Response, int]:
    """Any HTTP error inside the API as a JSON body."""
    if isinstance(error, _Unprocessable):
        return jsonify({"errors": error.errors}), 422
    return _errors(error.code or 400, "request", error.description or error.name)


def api_not_found_or_not_allowed(error: HTTPException) -> Any:
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


def _body() -> dict[str, Any]:
    """The request's JSON object (415 when not JSON, 400 when malformed, 413 too big)."""
    if not request.is_json:
        raise UnsupportedMediaType("send the body as JSON with Content-Type: application/json")
    data = request.get_json()
    if not isinstance(data, dict):
        raise _Unprocessable([{"where": "request", "message": "the body must be a JSON object"}])
    return data


def _check_rules_shape(data: dict[str, Any]) -> None:
    """422 unless ``rules`` is absent, null or an object whose options are null or an
    object (the Python contract reads any falsy value as "no options"; the API is strict)."""
    value = data.get("rules")
    if value is not None and not isinstance(value, dict):
        raise _Unprocessable(
            [{"where": "rules", "message": 'rules is {"preset": ..., "options": {...}}'}]
        )
    options = (value or {}).get("options")
    if options is not None and not isinstance(options, dict):
        raise _Unprocessable(
            [
                {
                    "where": "rules.options",
                    "message": "options is an object of option names and values",
                }
            ]
        )
    problems = option_problems(options or {})
    if problems:
        raise _Unprocessable([{"where": f"rules.options.{n}", "message": m} for n, m in problems])


def _check_teams_shape(data: dict[str, Any]) -> None:
    """422 unless ``teams`` is null or lists of player names (checked before the contract,
    whose round check expects names there)."""
    teams = data.get("teams")
    if teams is None:
        return
    if not isinstance(teams, list) or not all(
        isinstance(team, list) and all(isinstance(n, str) for n in team) for team in teams
    ):
        raise _Unprocessable(
            [
                {
                    "where": "teams",
                    "message": 'teams are lists of names: [["Ann", "Cat"], ["Bob", "Dee"]]',
                }
            ]
        )


def _rules(data: dict[str, Any]) -> RuleSet:
    _check_rules_shape(data)
    try:
        rules = rules_from_request(data.get("rules"))
    except ScoreRequestError as error:
        raise _Unprocessable(error.errors) from None
    assert rules is not None
    return rules


def _cards(value: Any, where: str, most: int) -> list[Card]:
    if not isinstance(value, list) or not 1 <= len(value) <= most:
        raise _Unprocessable(
            [{"where": where, "message": f'a list of 1 to {most} cards, such as ["7H", "JK=7C"]'}]
        )
    problems, cards = [], []
    for i, text in enumerate(value):
        try:
            cards.append(parse_card(text))
        except CardError as error:
            problems.append({"where": f"{where}[{i}]", "message": str(error)})
    if problems:
        raise _Unprocessable(problems)
    return cards


def _meld_json(meld: Meld, rules: RuleSet) -> dict[str, Any]:
    return {
        "kind": meld.kind,
        "cards": [c.text for c in meld.cards],
        "suit": meld.suit or None,
        "points": meld_points(meld, rules),
        "describe": meld.describe(),
    }


def _reasons(pairs: list[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"id": rule, "why": why, "link": f"/rules#{rule}"} for rule, why in pairs]


@bp.post("/score")
def score_round() -> tuple[Response, int]:
    """Score one round: the scoring contract."""
    data = _body()
    _check_rules_shape(data)
    _check_teams_shape(data)
    try:
        return jsonify(score(data)), 200
    except ScoreRequestError as error:
        return jsonify(error.body), 422


@bp.post("/meld-check")
def check_meld_request() -> tuple[Response, int]:
    """Is this meld legal under these rules, and which rules say so or say no."""
    data = _body()
    rules = _rules(data)
    cards = _cards(data.get("cards"), "cards", MAX_MELD_CARDS)
    try:
        meld = check_meld(cards, rules)
    except IllegalMeld as problem:
        why = [(rule, problem.message) for rule in problem.rules]
        return jsonify(
            {"legal": False, "message": problem.message, "meld": None, "rules": _reasons(why)}
        ), 200
    return jsonify(
        {
            "legal": True,
            "message": f"legal: {meld.describe()}",
            "meld": _meld_json(meld, rules),
            "rules": _reasons(meld_reasons(meld, rules)),
        }
    ), 200


@bp.post("/layoff-check")
def check_layoff_request() -> tuple[Response, int]:
    """Can this card (or pair) be laid off onto that meld, and why or why not."""
    data = _body()
    rules = _rules(data)
    cards = _cards(data.get("meld"), "meld", MAX_MELD_CARDS)
    laid = _cards(data.get("cards"), "cards", 2)
    try:
        meld = check_meld(cards, rules)
    except IllegalMeld as problem:
        raise _Unprocessable([{"where": "meld", "message": problem.message}]) from None
    try:
        grown = extend_with(meld, laid, rules)
    except IllegalMeld as problem:
        why = [(rule, problem.message) for rule in problem.rules]
        return jsonify(
            {"fits": False, "message": problem.message, "meld": None, "rules": _reasons(why)}
        ), 200
    return jsonify(
        {
            "fits": True,
            "message": f"fits: {grown.describe()}",
            "meld": _meld_json(grown, rules),
            "rules": _reasons(layoff_reasons(grown, laid, rules)),
        }
    ), 200


def _option_json(name: str) -> dict[str, Any]:
    info = OPTIONS[name]
    return {
        "name": name,
        "ids": list(info.ids),
        "title": info.title,
        "default": info.default,
        "minimum": info.minimum,
        "maximum": info.maximum,
        "choices": [
            {"value": value, "label": label, "sources": info.sources.get(value)}
            for value, label in info.choices.items()
        ],
    }


@bp.get("/rules")
def list_rules() -> Response:
    """Every option of the rule set with its catalogue ids, choices, labels and sources."""
    return jsonify({"options": [_option_json(name) for name in OPTIONS]})


@bp.get("/presets")
def list_presets() -> Response:
    """The presets: what each changes from the defaults, and every option's value."""
    return jsonify(
        {
            "presets": [
                {
                    "name": name,
                    "title": PRESET_TITLES.get(name, name),
                    "changes": PRESETS[name],
                    "options": ruleset(name).options(),
                }
                for name in PRESETS
            ]
        }
    )


@bp.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI 3.1 document of this API."""
    return jsonify(openapi_document())
