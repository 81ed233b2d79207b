"""The OpenAPI 3.1 document of the JSON API (``/api/v1/openapi.json``).

Option names, their values and the preset names come from the engine
(:data:`scorekeeper.engine.OPTIONS`, :data:`~scorekeeper.engine.PRESETS`), so
the document follows the rule set. The schema says what is well formed; whether a round
follows the rules is the engine's answer (422 with every problem listed).
"""

from __future__ import annotations

from functools import lru_cache

from ..engine import OPTIONS, PRESETS

CARD_PATTERN = (
    r"^\s*(?:(?:[Aa1-9]|10|[TtJjQqKk])[SHDCshdc♠♥♦♣]"
    r"|[Jj][Kk](?:=(?:(?:[Aa1-9]|10|[TtJjQqKk])[SHDCshdc♠♥♦♣]|[Dd][Oo][Uu][Bb][Ll][Ee]))?)\s*$"
)
"""A card in the contract's notation: ``7H``, ``10d``, ``T♦``, ``JK``, ``JK=7C``,
``JK=double`` (X2)."""


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _option_schema(name: str) -> dict[str, object]:
    info = OPTIONS[name]
    if info.minimum is not None:
        return {"type": "integer", "minimum": info.minimum, "maximum": info.maximum}
    if isinstance(info.default, bool):
        return {"type": "boolean"}
    kind = "integer" if isinstance(info.default, int) else "string"
    return {"type": kind, "enum": list(info.choices)}


def _cards(most: int, least: int = 0) -> dict[str, object]:
    return {"type": "array", "items": _ref("Card"), "minItems": least, "maxItems": most}


def _figures() -> dict[str, object]:
    names = ("shown", "in_hand", "bonus", "round", "total")
    return {
        "type": "object",
        "required": list(names),
        "properties": {n: {"type": "integer"} for n in names},
    }


def _reason() -> dict[str, object]:
    return {
        "type": "object",
        "required": ["id", "why", "link"],
        "properties": {
            "id": {"type": "string"},
            "why": {"type": "string"},
            "link": {"type": "string"},
        },
    }


def _meld() -> dict[str, object]:
    return {
        "type": "object",
        "required": ["kind", "cards", "points", "describe"],
        "properties": {
            "kind": {"enum": ["set", "run", "jokers"]},
            "cards": {"type": "array", "items": {"type": "string"}},
            "suit": {"type": ["string", "null"]},
            "points": {"type": "integer"},
            "describe": {"type": "string"},
        },
    }


def _answer(flag: str) -> dict[str, object]:
    return {
        "type": "object",
        "required": [flag, "message", "meld", "rules"],
        "properties": {
            flag: {"type": "boolean"},
            "message": {"type": "string"},
            "meld": {"oneOf": [_ref("Meld"), {"type": "null"}]},
            "rules": {"type": "array", "items": _ref("Reason")},
        },
    }


def _plays(required: list[str], properties: dict[str, object]) -> dict[str, object]:
    """A request's list of melds or lay-offs (at most 60, or null)."""
    item = {"type": "object", "required": required, "properties": properties}
    return {"type": ["array", "null"], "maxItems": 60, "items": item}


def _meld_play() -> dict[str, object]:
    return {
        "owner": {"type": "string"},
        "cards": _cards(26),
        "final_turn": {
            "type": "boolean",
            "default": False,
            "description": "laid down in the turn its owner went out (S10)",
        },
    }


def _layoff_play() -> dict[str, object]:
    return {
        "owner": {"type": "string"},
        "card": _ref("Card"),
        "meld": {"type": "integer", "minimum": 0},
    }


def _score_request() -> dict[str, object]:
    name = {"type": "string", "minLength": 1, "maxLength": 40}
    return {
        "type": "object",
        "required": ["players", "hands"],
        "properties": {
            "rules": _ref("Rules"),
            "players": {"type": "array", "items": name, "minItems": 2, "maxItems": 8},
            "teams": {"type": ["array", "null"], "items": {"type": "array", "items": name}},
            "went_out": {"type": ["string", "null"]},
            "went_out_by": {
                "type": "string",
                "enum": ["discard", "play"],
                "default": "discard",
                "description": "how the player went out: discarding their last card, or "
                "melding or laying it off (S10)",
            },
            "melds": _plays(["owner", "cards"], _meld_play()),
            "layoffs": _plays(["owner", "card", "meld"], _layoff_play()),
            "hands": {"type": "object", "additionalProperties": _cards(60)},
            "totals_before": {
                "type": ["object", "null"],
                "additionalProperties": {
                    "type": "integer",
                    "minimum": -1_000_000,
                    "maximum": 1_000_000,
                },
            },
            "deal_number": {"type": "integer", "minimum": 1, "maximum": 1000},
        },
    }


def _score_response() -> dict[str, object]:
    row = {
        "type": "object",
        "required": ["card", "owner", "where", "points", "why", "rule"],
        "properties": {k: {"type": "string"} for k in ("card", "owner", "where", "why", "rule")}
        | {"points": {"type": "integer"}},
    }
    return {
        "type": "object",
        "required": ["players", "sides", "cards", "winner", "game_over"],
        "properties": {
            "players": {"type": "object", "additionalProperties": _ref("Figures")},
            "sides": {"type": ["object", "null"], "additionalProperties": _ref("Figures")},
            "cards": {"type": "array", "items": row},
            "notes": {"type": "array", "items": {"type": "object"}},
            "winner": {"type": ["string", "null"]},
            "game_over": {"type": "boolean"},
            "outcome": {"type": "string"},
            "settlement": {"type": "array", "items": {"type": "object"}},
        },
    }


def _errors() -> dict[str, object]:
    """The ``Error`` and ``Errors`` schemas: every 4xx answer's body."""
    return {
        "Error": {
            "type": "object",
            "required": ["where", "message"],
            "properties": {"where": {"type": "string"}, "message": {"type": "string"}},
        },
        "Errors": {
            "type": "object",
            "required": ["errors"],
            "properties": {"errors": {"type": "array", "items": _ref("Error")}},
        },
    }


def _rules_options() -> dict[str, object]:
    """The contract's ``rules.options``: every option by name, and dealer's gambit's
    nomination for the round (X2, ``dealers_joker``)."""
    nomination = {
        "enum": ["wild", "double", "split"],
        "description": "Dealer's gambit (X2): the dealer's nomination for this round (not a "
        "house rule); JK=double in a set is the joker nominated double",
    }
    return {
        "type": ["object", "null"],
        "additionalProperties": False,
        "properties": {name: _option_schema(name) for name in OPTIONS}
        | {"dealers_joker": nomination},
    }


def _schemas() -> dict[str, object]:
    return {
        "Card": {
            "type": "string",
            "pattern": CARD_PATTERN,
            "examples": ["7H", "10D", "JK=7C", "JK=double"],
        },
        "Rules": {
            "type": ["object", "null"],
            "properties": {
                "preset": {"enum": list(PRESETS)},
                "options": _rules_options(),
            },
        },
        **_errors(),
        "Figures": _figures(),
        "Reason": _reason(),
        "Meld": _meld(),
        "ScoreRequest": _score_request(),
        "ScoreResponse": _score_response(),
        "MeldCheckRequest": {
            "type": "object",
            "required": ["cards"],
            "properties": {"rules": _ref("Rules"), "cards": _cards(26, 1)},
        },
        "MeldCheckResponse": _answer("legal"),
        "LayoffCheckRequest": {
            "type": "object",
            "required": ["meld", "cards"],
            "properties": {"rules": _ref("Rules"), "meld": _cards(26, 1), "cards": _cards(2, 1)},
        },
        "LayoffCheckResponse": _answer("fits"),
        "Options": _listing("options", _option_item()),
        "Presets": _listing("presets", _preset_item()),
    }


def _error(description: str) -> dict[str, object]:
    return {"description": description, "content": {"application/json": {"schema": _ref("Errors")}}}


def _ok(schema: str, description: str) -> dict[str, object]:
    return {
        "description": description,
        "content": {"application/json": {"schema": _ref(schema) if schema else {"type": "object"}}},
    }


def _post(summary: str, request: str, response: str) -> dict[str, object]:
    return {
        "post": {
            "summary": summary,
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _ref(request)}},
            },
            "responses": {
                "200": _ok(response, summary),
                "400": _error("the body is not valid JSON, or nested more than 32 deep"),
                "405": _error("wrong method"),
                "413": _error("the body is too large"),
                "415": _error("the body is not sent as application/json"),
                "422": _error("a rule or notation problem; every problem is listed"),
                "429": _error("too many requests from this client: wait a minute"),
            },
        }
    }


def _get(summary: str, schema: str) -> dict[str, object]:
    return {
        "get": {
            "summary": summary,
            "responses": {
                "200": _ok(schema, summary),
                "405": _error("wrong method"),
                "429": _error("too many requests from this client: wait a minute"),
            },
        }
    }


def _listing(key: str, item: dict[str, object]) -> dict[str, object]:
    return {
        "type": "object",
        "required": [key],
        "properties": {key: {"type": "array", "items": item}},
    }


def _option_item() -> dict[str, object]:
    choice = {
        "type": "object",
        "required": ["value", "label", "sources"],
        "properties": {"label": {"type": "string"}, "sources": {"type": ["string", "null"]}},
    }
    return {
        "type": "object",
        "required": ["name", "ids", "title", "default", "choices", "minimum", "maximum"],
        "properties": {
            "name": {"enum": list(OPTIONS)},
            "ids": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "title": {"type": "string"},
            "minimum": {"type": ["integer", "null"]},
            "maximum": {"type": ["integer", "null"]},
            "choices": {"type": "array", "items": choice},
        },
    }


def _preset_item() -> dict[str, object]:
    return {
        "type": "object",
        "required": ["name", "title", "changes", "options"],
        "properties": {
            "name": {"enum": list(PRESETS)},
            "title": {"type": "string"},
            "changes": {"type": "object"},
            "options": {"type": "object", "required": list(OPTIONS)},
        },
    }


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, object]:
    """The whole OpenAPI 3.1 document as a dict."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "500 Rum scorekeeper API",
            "version": "1.0.0",
            "description": "The scoring contract (POST /score), meld and lay-off checks, the "
            "rule options with their catalogue ids and the presets. Errors are "
            '{"errors": [{"where", "message"}]} with a 4xx status.',
        },
        "servers": [{"url": "/api/v1"}],
        "paths": {
            "/score": _post("Score one round, card by card", "ScoreRequest", "ScoreResponse"),
            "/meld-check": _post(
                "Is this meld legal, and which rules say so",
                "MeldCheckRequest",
                "MeldCheckResponse",
            ),
            "/layoff-check": _post(
                "Can this card or pair be laid off onto that meld",
                "LayoffCheckRequest",
                "LayoffCheckResponse",
            ),
            "/rules": _get(
                "Every option with its catalogue ids, choices, labels and sources", "Options"
            ),
            "/presets": _get("The presets and every option's value under each", "Presets"),
        },
        "components": {"schemas": _schemas()},
    }
