"""The play page's moves in place: a tap sent as a small JSON call, answered with the board
to show at once (the bots' moves that follow are made by jobs of the queue and reach the
page through its event stream, one version each), so the page never reloads between
moves.

Glossary:
- tap: the JSON body the page sends (``{"version": 7, "do": "discard", "cards": ["7H"]}``,
  ``do`` as in :func:`.forms.parse_do`: ``stock``, ``take:<i>``, ``lay_down``,
  ``lay_off`` or ``lay_off:<i>``, ``discard``, ``next_round``, or an action as JSON),
  with the CSRF token in the ``X-CSRFToken`` header.
- answer: ``{"version", "board", "paused", "finished"}`` (200); a question
  ``{"choices": [{"value", "label"}]}`` (200, nothing changed) when the tap fits several
  moves (M5 jokers, a card that lays off on several melds); a refusal ``{"error",
  "rule"}`` with 400, 409 (stale), 422, or 429 when this client's jobs waiting are at
  their bound (``retry_after`` seconds).
"""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import render_template
from markupsafe import Markup

from .. import jobs
from ..engine import GameState
from ..inputs import MAX_VERSION, is_int
from ..models import DigitalGame
from . import hints, services
from .board import board, public
from .ending import ending
from .forms import MoveForm, parse_do
from .moves import Ambiguous, ChoiceError, action_for, button_label

Answer = tuple[dict[str, Any], int]


def refusal(message: str, rule: str | None, status: int) -> Answer:
    """A refused tap: the message for the person and the rule that says no."""
    return {"error": message, "rule": rule}, status


def page_board(game: DigitalGame, state: GameState, seat: int | None = None) -> dict[str, Any]:
    """The board of ``game`` seen from ``seat`` (the person's unless given) with the last
    round's end while the game pauses after it (or is over, :func:`round_end`)."""
    return board(game, state, round_end(game, state), seat)


def round_end(game: DigitalGame, state: GameState) -> dict[str, Any] | None:
    """The last round's end (:func:`.ending.ending`) with the review of the person's
    moves in it (:func:`.hints.reviews`) while ``game`` pauses after a round or is over,
    else None: the same for every seat, read and made once per version in this process
    (:data:`shared_parts`); only read."""
    if not (game.paused or game.finished):
        return None
    return shared_parts.get(game, "ending", lambda: _round_end(game, state))


def _round_end(game: DigitalGame, state: GameState) -> dict[str, Any] | None:
    last = services.last_round(game)
    if last is None:
        return None
    number, record, scored = last
    shown = ending(number, record, scored, state.players)
    shown["review"] = hints.reviews(game, number)
    return shown


SHARED_PARTS = 1024
"""Parts of games at one version (a table, a list of moves, a decoded state) one process
keeps."""

Part = TypeVar("Part")


class SharedParts:
    """The parts of a game at one version that are the same for every seat they are
    shown to, made once in each process: a bounded cache (the :data:`SHARED_PARTS`
    latest), keyed by the game's slug, version and the part's name, never the truth (a
    version's parts never change, and any process makes them again from the database).
    A part is shared: whoever gets one only reads it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: OrderedDict[tuple[str, int, str], Any] = OrderedDict()

    def get(self, game: DigitalGame, part: str, make: Callable[[], Part]) -> Part:
        """The part ``part`` of ``game`` at its version: ``make()``'s, made once (a
        part's name always names the same kind of thing)."""
        key = (game.slug, game.version, part)
        with self._lock:
            if key in self._made:
                self._made.move_to_end(key)
                return cast(Part, self._made[key])
        made = make()
        with self._lock:
            self._made[key] = made
            while len(self._made) > SHARED_PARTS:
                self._made.popitem(last=False)
        return made


shared_parts = SharedParts()
"""This process's parts of games."""


def shared_state(game: DigitalGame) -> GameState:
    """The engine's state of ``game`` at its version (:func:`.services.load_state`),
    decoded once per process for every board rendered from it (each phone's board.json,
    each seat's stream): read only, so never given to a move (a move loads its own)."""
    return shared_parts.get(game, "state", lambda: services.load_state(game))


def shared_table(game: DigitalGame, state: GameState) -> Markup:
    """The stock, discard pile and melds of ``game`` (its ``state``) at its version, as
    every seat with no move on them sees them (``play/_pile_table.html``)."""
    return shared_parts.get(
        game,
        "table",
        lambda: Markup(render_template("play/_pile_table.html", b=public(game, state), can={})),
    )


def latest_moves(game: DigitalGame) -> Markup:
    """The panel of ``game``'s latest moves in words at its version, the same on every
    seat's board (``play/_moves.html``; empty when no move is kept). A template global
    of the play pages (:mod:`.views`)."""
    return shared_parts.get(
        game, "moves", lambda: Markup(render_template("play/_moves.html", moves=game.moves))
    )


PIECES = 16384
"""Pieces of the play pages (a template and what it shows) whose markup one process keeps."""


def render_once(template: str, **context: Any) -> Markup:
    """``template`` rendered with ``context`` (values JSON carries), once per process for
    each template and context (:func:`rendered_piece`, keyed by the context as JSON):
    the pieces a board shares with the other seats' boards and with the versions before
    it, a card of a hand (``play/_hand_card.html``: a seat's hand changes only when it
    moves), a card that cannot be tapped (``play/_pcard.html``: the pile, the melds and a
    round's end draw the same few cards again and again), a player's line
    (``play/_seat_line.html``: seven of a seat's eight are another seat's too) and a move
    in words (``play/_step.html``: the panel of a version repeats the steps before it).
    The markup is the template's from the same data, so a board holds only what its own
    data holds. A template global of the play pages (:mod:`.views`)."""
    return rendered_piece(template, json.dumps(context, sort_keys=True))


@functools.lru_cache(maxsize=PIECES)
def rendered_piece(template: str, context: str) -> Markup:
    """The markup of ``template`` rendered with ``context`` (a JSON object of its
    variables) for :func:`render_once`."""
    return Markup(render_template(template, **json.loads(context)))


def render_board(game: DigitalGame, state: GameState, seat: int | None = None, **extra: Any) -> str:
    """The swappable part of the play page (``play/_board.html``) of ``game`` (its
    ``state``, as :func:`.services.load_state` or :func:`shared_state` gives it, only
    read) seen from ``seat``:
    its own hand and buttons rendered for it, the stock, pile and melds shared with
    every seat that has no move on them (:func:`shared_table`), a round's scores at its
    end (:func:`round_scores`) and the latest moves with every seat
    (:func:`latest_moves`)."""
    form = MoveForm(version=game.version, formdata=None)
    b = page_board(game, state, seat)
    if not (b["can"]["draw"] or b["can"]["lay_off"]):
        extra.setdefault("shared_table", shared_table(game, state))
    if b["ending"]:
        extra.setdefault("shared_scores", round_scores(game, b["ending"]))
    return render_template("play/_board.html", game=game, b=b, form=form, **extra)


def round_scores(game: DigitalGame, shown: dict[str, Any]) -> Markup:
    """The scores of the round ``shown`` ended (:func:`round_end`) of ``game`` at its
    version, the same for every seat (``play/_round_scores.html``)."""
    return shared_parts.get(
        game,
        "scores",
        lambda: Markup(render_template("play/_round_scores.html", e=shown, game=game)),
    )


def _tap(body: Any) -> tuple[int, str, list[str]]:
    """``(version, do, cards)`` of a tap; raises ChoiceError for a malformed one."""
    if not isinstance(body, dict) or not is_int(body.get("version"), 0, MAX_VERSION):
        raise ChoiceError('send {"version": <the game\'s version>, "do": ..., "cards": [...]}')
    do = body.get("do")
    if isinstance(do, dict):
        do = json.dumps(do)
    cards = body.get("cards") or []
    if not isinstance(do, str) or not isinstance(cards, list):
        raise ChoiceError('"do" names a move and "cards" lists card texts')
    return int(body["version"]), do, [str(c) for c in cards][:60]


def answer(game: DigitalGame, body: Any, seat: int | None = None, bots: Any = None) -> Answer:
    """Make the tap ``body`` on ``game`` (then the bots' moves) and say what to show:
    the board at the new version rendered from its state decoded once in this process
    (:func:`shared_state`, as this process's streams render theirs); ``seat`` and
    ``bots`` as in :func:`.services.play_move` (a table of several phones)."""
    try:
        version, do, cards = _tap(body)
        kind, number, raw = parse_do(do)
    except (ChoiceError, ValueError) as bad:
        message = bad.message if isinstance(bad, ChoiceError) else f"that is not a move: {bad}"
        return refusal(message, None, 400)
    try:
        if kind == "next_round":
            services.next_round(game, version, bots)
        else:
            state = shared_state(game)  # only read: play_move loads its own
            action = action_for(state, kind, cards, number, raw)
            services.play_move(game, version, action, seat, bots)
    except Ambiguous as many:
        picks = [
            {"value": json.dumps(a.to_json()), "label": button_label(state, a)}
            for a in many.actions
        ]
        return {"choices": picks}, 200
    except ChoiceError as problem:
        return refusal(problem.message, problem.rule, 422)
    except services.StaleGame as stale:
        return refusal(stale.message, None, 409)
    except services.PlayError as refused:
        return refusal(refused.message, refused.rule, 422)
    except jobs.Refused as busy:
        return {"error": busy.message, "rule": None, "retry_after": busy.retry_after}, 429
    return {
        "version": game.version,
        "board": render_board(game, shared_state(game), seat),
        "paused": game.paused,
        "finished": game.finished,
    }, 200
