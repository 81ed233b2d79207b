"""The game page's round entry as JSON: what a round post answers when the page's script
sent it (``Accept: application/json``) instead of a plain form.

Answers (every figure the engine's, rendered by the server):
- preview, 200: ``{"html"}``, the round's scores as they would be saved;
- saved, 201: ``{"number", "version", "undo", "live", "over", "message"}``: the round's
  number, the game's new version, the undo URL of the change, the game page's changing
  part as HTML, and whether the game is over;
- refused, 4xx: ``{"error", "message"}`` and, by ``error``: ``"invalid"`` (422) with
  ``fields`` (field name: messages) and ``problems``; ``"stale"`` (409) with the game's
  ``version`` and its ``latest`` rounds (``{"number", "went_out", "scores"}``);
  ``"already_saved"`` (409) with the ``number`` of the round that form saved;
  ``"refused"`` (400, 403, 404) for an out-of-date form, a view link or no such game.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request

from ..models import Game, Round
from . import services as sheet

LATEST = 3
"""Rounds sent back with a stale-version refusal, newest last."""


def wants_json() -> bool:
    """True when the page's script asked for JSON rather than a page."""
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def answer(status: int, **body: Any) -> Response:
    """A JSON answer that no cache keeps."""
    response = jsonify(body)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


def refused(status: int, error: str, message: str, **extra: Any) -> Response:
    """A refusal: nothing was written."""
    return answer(status, error=error, message=message, **extra)


def invalid(form: Any, problems: list[str]) -> Response:
    """422: the messages by field (form field names) and those that fit no field."""
    fields = {name: list(f.errors) for name, f in form._fields.items() if f.errors}
    message = "; ".join(problems + [m for ms in fields.values() for m in ms])
    return refused(422, "invalid", message, fields=fields, problems=problems)


def latest(game: Game) -> list[dict[str, Any]]:
    """The last rounds that count, each with its number, who went out and each player's
    (or side's) round score in points."""
    rounds = sheet.latest_rounds(game, LATEST)
    first = sheet.live_count(game) - len(rounds) + 1
    return [
        {
            "number": number,
            "went_out": r.input.get("went_out"),
            "scores": dict(r.totals["round"]),
        }
        for number, r in enumerate(rounds, start=first)
    ]


def stale(game: Game, message: str) -> Response:
    """409: another phone changed the game since this form was filled in."""
    return refused(409, "stale", message, version=game.version, latest=latest(game))


def already_saved(game: Game, round_: Round) -> Response:
    """409: this form (its nonce) saved a round before; it is stored once."""
    number = None if round_.deleted else sheet.round_number(round_)
    message = "That round was already saved (it was sent twice): it is stored once."
    return refused(409, "already_saved", message, number=number, version=game.version)


def saved(game: Game, round_: Round, undo: str | None, live: str) -> Response:
    """201: the round stored; the game page's new standings in ``live``."""
    number = sheet.round_number(round_)
    return answer(
        201,
        number=number,
        version=game.version,
        undo=undo,
        live=live,
        over=game.finished_at is not None,
        message=f"Round {number} saved",
    )
