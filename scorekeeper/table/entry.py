"""The game page's round entry as JSON: what a round post answers when the page's script
sent it (``Accept: application/json``) instead of a plain form.

Answers (every score the engine's, every page part rendered by the server):
- preview, 200: ``{"html", "went_out"}``, the round's scores as they would be saved and
  the seat who went out as the server counts it: told, or inferred from the hands (O1,
  :func:`scorekeeper.engine.scoring.checks.went_out_by_hand`); the page's script shows it;
- saved, 201: ``{"number", "version", "undo", "over", "message", "shown"}``: the round's
  number, the game's new version, the undo URL of the change, whether the game is over,
  the toast's words with the new totals (:func:`saved_message`), the rounds the page
  shows; and either ``parts``, the parts of the page's changing part that a new round
  changes (``standings``, ``dealer``, ``older``, ``row``, ``chart``, as
  HTML) or, when the page's layout changes (the first round, the game over), ``live``,
  the whole changing part; each rendered from the page's own templates, which the
  page's script puts in place;
- refused, 4xx: ``{"error", "message"}`` and, by ``error``: ``"invalid"`` (422) with
  ``fields`` (field name: messages), ``problems``, ``went_out`` (as a preview's) and
  ``sentences``, one clear sentence per problem (:func:`sentences`; ``message`` is
  them joined by spaces), which the page shows one to a line;
  ``"stale"`` (409) with the game's
  ``version`` and its ``latest`` rounds (``{"number", "went_out", "scores"}``);
  ``"already_saved"`` (409) with the ``number`` of the round that form saved;
  ``"refused"`` (400, 403, 404) for an out-of-date form, a view link or no such game.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from flask import Response, flash, jsonify, render_template, request
from flask_babel import gettext as _

from ..engine import N_
from ..languages.reader import number
from ..models import Game, Round
from . import page
from . import services as sheet
from .forms import RoundForm
from .round_inputs import place_errors

Submitted = tuple[int | Response, dict[str, object] | None, list[str]]
"""A posted round as the view answers it: ``(status or JSON answer, preview, problems)``:
the status of the page to show (200, 303, 422) or the JSON answer already made, the
figures previewed (None when none) and the problems that fit no field."""

LATEST = 3
"""Rounds sent back with a stale-version refusal, newest last."""

FIX_FIELDS = N_("Some figures need fixing: see the messages by the fields.")
"""What a refused round page says above its fields (each field's own message beside
it; give it as ``_(FIX_FIELDS)``); the game page's entry names each problem instead
(:func:`sentences`)."""

FIELD_WORDS = {
    "net": N_("%(name)s, round score: %(problem)s"),
    "shown": N_("%(name)s, shown: %(problem)s"),
    "in_hand": N_("%(name)s, in hand: %(problem)s"),
    "adjust": N_("%(name)s, ±: %(problem)s"),
}
"""A problem with a seat's figure fields (``net-0``, ``shown-0``...), the field named as
the entry labels it."""


def wants_json() -> bool:
    """True when the page's script asked for JSON rather than a page."""
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def answer(status: int, **body: object) -> Response:
    """A JSON answer that no cache keeps."""
    response = jsonify(body)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


def refused(status: int, error: str, message: str, **extra: object) -> Response:
    """A refusal: nothing was written."""
    return answer(status, error=error, message=message, **extra)


def sentence(text: str) -> str:
    """``text`` as one sentence: upper-case first letter, one full stop at the end
    (``"tap the player who went out;"`` -> ``"Tap the player who went out."``); ``""``
    for nothing."""
    text = text.strip().rstrip(".;:, ")
    return f"{text[:1].upper()}{text[1:]}." if text else ""


def field_sentence(name: str, message: str, names: Sequence[str]) -> str:
    """A field's ``message`` as one sentence that names the field when it is a seat's
    figure (``net-3``: ``"Dee, round score: not a valid integer value."``)."""
    seat = re.fullmatch(r"(net|shown|in_hand|adjust)-(\d+)", name)
    if seat is None or int(seat.group(2)) >= len(names):
        return sentence(message)
    who = names[int(seat.group(2))]
    if not message.startswith(tuple(names)):
        message = message[:1].lower() + message[1:]
    return sentence(_(FIELD_WORDS[seat.group(1)], name=who, problem=message))


def sentences(
    fields: dict[str, list[str]], problems: Sequence[str], names: Sequence[str]
) -> list[str]:
    """Every problem of a refused round once, each one sentence: those that fit no
    field, then each field's (in the form's order); :data:`FIX_FIELDS` left out, as
    each field's problem is named."""
    fix = _(FIX_FIELDS)
    said = [sentence(p) for p in problems if p != fix]
    said += [field_sentence(name, m, names) for name, ms in fields.items() for m in ms]
    return list(dict.fromkeys(s for s in said if s)) or [sentence(fix)]


def invalid(form: RoundForm, problems: list[str], names: Sequence[str]) -> Response:
    """422: the messages by field (form field names), those that fit no field, and
    every one of them as a sentence (:func:`sentences`; ``names``: the seats' names)."""
    fields = {name: list(f.errors) for name, f in form._fields.items() if f.errors}
    said = sentences(fields, problems, names)
    return refused(
        422,
        "invalid",
        " ".join(said),
        fields=fields,
        problems=problems,
        went_out=form.went_out.data,
        sentences=said,
    )


def latest(game: Game) -> list[dict[str, object]]:
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
    message = _("That round was already saved (it was sent twice): it is stored once.")
    return refused(409, "already_saved", message, number=number, version=game.version)


def saved_message(round_: sheet.Saved) -> str:
    """The toast's words for a round just stored, with the new running totals in points
    of each unit (player, or side by its players' names, P1), in the page's order:
    ``"Round 6 saved: Ann 250 · Bob 175 · Cat 90"``."""
    totals = " · ".join(
        _("%(name)s %(points)s", name=unit, points=number(points))
        for unit, points in round_.summary["total"].items()
    )
    return str(_("Round %(number)s saved: %(totals)s", number=round_.number, totals=totals))


def saved(game: Game, round_: sheet.Saved, undo: str) -> Response:
    """201: the round stored, with what the game page shows of it: the parts of its
    changing part that a new round changes (:func:`.page.parts`, of the latest rounds
    read to save it), or its whole changing part (``live``) when the page's layout
    changes (the first round, the game over); each rendered from the page's own
    templates; ``message`` (:func:`saved_message`)."""
    body: dict[str, object] = {
        "number": round_.number,
        "version": round_.version,
        "undo": undo,
        "over": round_.over,
        "message": saved_message(round_),
        "shown": page.SHOWN,
    }
    if round_.over or round_.number == 1:
        body["live"] = render_template("table/_live.html", **page.page(game).context())
    else:
        body["parts"] = page.parts(game, round_.latest, round_.number)
    return answer(201, **body)


def refusal(
    game: Game,
    round_: Round | None,
    form: RoundForm,
    fields: dict[str, str],
    error: sheet.ScoresheetError,
) -> Submitted:
    """A refused round post as the view answers it, ``(status or JSON answer, preview,
    problems)``: the JSON refusal, or the form again with its messages (each engine
    problem by its field, ``fields`` as :func:`.round_inputs.read_round` gave them)."""
    as_json = wants_json()
    if isinstance(error, sheet.AlreadySaved):
        if as_json:
            return already_saved(game, error.round), None, []
        flash(
            _("That round was already saved (the form was sent twice): it is stored once."),
            "success",
        )
        return 303, None, []
    if isinstance(error, sheet.StaleVersion):
        form.version.data = str(game.version)
        if round_ is not None:
            form.round_version.data = str(round_.version)
        if as_json:
            return stale(game, error.problems[0][1]), None, []
        return 409, None, [m for _where, m in error.problems]
    if isinstance(error, sheet.SaveFailed):
        if as_json:
            return refused(503, "unavailable", error.problems[0][1]), None, []
        return 503, None, [m for _where, m in error.problems]
    return 422, None, place_errors(form, fields, error.problems)
