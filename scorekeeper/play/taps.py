"""The play page's moves in place: a tap sent as a small JSON call, answered with the board
to show at once (the bots' moves that follow are made by jobs of the queue and reach the
page through its event stream, one version each), so the page never reloads between
moves.

Glossary:
- tap: the JSON body the page sends (``{"version": 7, "do": "discard", "cards": ["7H"]}``,
  ``do`` as in :func:`.forms.parse_do`: ``stock``, ``take:<i>``, ``lay_down``,
  ``lay_off`` or ``lay_off:<i>``, ``discard``, ``next_round``, or an action as JSON),
  with the CSRF token in the ``X-CSRFToken`` header.
- answer: ``{"version", "board", "paused", "finished"}`` (200, :func:`answer`); a
  question ``{"choices": [{"value", "label"}]}`` (200, nothing changed) when the tap
  fits several moves (M5 jokers, a card that lays off on several melds); a refusal
  ``{"error", "rule"}`` with 400, 409 (stale), 422, or 429 when this client's jobs
  waiting are at their bound (``retry_after`` seconds): :mod:`.views` maps the
  exceptions of :func:`.services.move` to these, in one place.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, fields, is_dataclass
from typing import TypedDict

from flask import render_template
from markupsafe import Markup

from ..engine import GameState, Message
from ..languages.reader import chosen_language, translate
from ..models import DigitalGame
from . import hints, per_version, services
from .board import board, public
from .caches import BoundedCache, Memo
from .ending import ending
from .forms import MoveForm
from .per_version import SHARED_PARTS, shared_state, version_of
from .shown import Board, Ending


def page_board(game: DigitalGame, state: GameState, seat: int | None = None) -> Board:
    """The board of ``game`` seen from ``seat`` (the person's unless given) with the last
    round's end while the game pauses after it (or is over, :func:`round_end`)."""
    return board(game, state, round_end(game, state), seat)


def round_end(game: DigitalGame, state: GameState) -> Ending | None:
    """The last round's end (:func:`.ending.ending`) with the review of the person's
    moves in it (:func:`.hints.reviews`) while ``game`` pauses after a round or is over,
    else None: the same for every seat, read and made once per version in this process
    (:data:`shared_parts`); only read."""
    if not (game.paused or game.finished):
        return None
    return endings.get((*version_of(game), chosen_language()), lambda: _round_end(game, state))


def _round_end(game: DigitalGame, state: GameState) -> Ending | None:
    last = services.last_round(game)
    if last is None:
        return None
    number, record, scored = last
    shown = ending(number, record, scored, state.players)
    shown["review"] = hints.reviews(game, number)
    return shown


shared_parts = per_version.markup
"""This process's shared markup of games at one version (:mod:`.per_version`)."""
endings: BoundedCache[tuple[str, int, str], Ending | None] = BoundedCache(SHARED_PARTS)
"""This process's round ends, by game, version and language (:func:`round_end`)."""


def part(name: str) -> str:
    """The key of the shared part ``name`` in the request's language (:data:`shared_parts`
    keeps each language's markup apart)."""
    return f"{name}:{chosen_language()}"


def shared_table(game: DigitalGame, state: GameState) -> Markup:
    """The stock, discard pile and melds of ``game`` (its ``state``) at its version, as
    every seat with no move on them sees them (``play/_pile_table.html``)."""
    return shared_parts.get(
        (*version_of(game), part("table")),
        lambda: Markup(render_template("play/_pile_table.html", b=public(game, state), can={})),
    )


def latest_moves(game: DigitalGame) -> Markup:
    """The panel of ``game``'s latest moves in words at its version, the same on every
    seat's board (``play/_moves.html``; empty when no move is kept). A template global
    of the play pages (:mod:`.views`)."""
    return shared_parts.get(
        (*version_of(game), part("moves")),
        lambda: Markup(render_template("play/_moves.html", moves=game.moves)),
    )


PIECES = 16384
"""Pieces of the play pages (a template and what it shows) whose markup one process keeps."""


def plain(value: object) -> object:
    """A dataclass of a board (a card, a player's line) as the JSON object
    :func:`render_once` keys its pieces by; raises TypeError for anything else."""
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def render_once(template: str, **context: object) -> Markup:
    """``template`` rendered with ``context`` (values JSON carries), once per process for
    each template and context (:func:`rendered_piece`, keyed by the context as JSON):
    the pieces a board shares with the other seats' boards and with the versions before
    it, a card of a hand (``play/_hand_card.html``: a seat's hand changes only when it
    moves), a card that cannot be tapped (``play/_pcard.html``: the pile, the melds and a
    round's end draw the same few cards again and again), a player's line
    (``play/_seat_line.html``: seven of a seat's eight are another seat's too) and a move
    in words (``play/_step.html``: the panel of a version repeats the steps before it).
    The markup is the template's from the same data, so a board holds only what its own
    data holds; engine sentences in it are put into the request's language first, and
    each language has its own pieces. A template global of the play pages (:mod:`.views`)."""
    said = json.dumps(spoken(context), sort_keys=True, default=plain)
    return rendered_piece((template, said, chosen_language()))


def spoken(value: object) -> object:
    """``value`` (a context of :func:`render_once`: dataclasses, dicts, lists, texts)
    with every engine sentence in it translated (:func:`translate`), as JSON carries it."""
    if isinstance(value, Message):
        return str(translate(value))
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: spoken(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {key: spoken(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [spoken(item) for item in value]
    return value


def _render_piece(piece: tuple[str, str, str]) -> Markup:
    """The markup of a template rendered with a context (a JSON object of its
    variables) in a language (the request's, in the key) for :func:`render_once`."""
    template, context, _language = piece
    return Markup(render_template(template, **json.loads(context)))


rendered_piece: Memo[tuple[str, str, str], Markup] = Memo(_render_piece, PIECES)
"""The pieces of markup of this process, by template and context (as JSON)."""


def render_board(
    game: DigitalGame, state: GameState, seat: int | None = None, **extra: object
) -> str:
    """The swappable part of the play page (``play/_board.html``) of ``game`` (its
    ``state``, as :func:`.services.load_state` or :func:`shared_state` gives it, only
    read) seen from ``seat``:
    its own hand and buttons rendered for it, the stock, pile and melds shared with
    every seat that has no move on them (:func:`shared_table`), a round's scores at its
    end (:func:`round_scores`) and the latest moves with every seat
    (:func:`latest_moves`)."""
    form = MoveForm(version=game.version, formdata=None)
    b = page_board(game, state, seat)
    if not (b.can["draw"] or b.can["lay_off"]):
        extra.setdefault("shared_table", shared_table(game, state))
    if b.ending:
        extra.setdefault("shared_scores", round_scores(game, b.ending))
    return render_template("play/_board.html", game=game, b=b, form=form, **extra)


def round_scores(game: DigitalGame, shown: Ending) -> Markup:
    """The scores of the round ``shown`` ended (:func:`round_end`) of ``game`` at its
    version, the same for every seat (``play/_round_scores.html``)."""
    return shared_parts.get(
        (*version_of(game), part("scores")),
        lambda: Markup(render_template("play/_round_scores.html", e=shown, game=game)),
    )


class Answer(TypedDict):
    """A tap's answer (:func:`answer`): the game's ``version``, the ``board`` to swap in
    (markup), ``paused`` and ``finished``."""

    version: int
    board: str
    paused: bool
    finished: bool


def answer(game: DigitalGame, seat: int | None = None) -> Answer:
    """What a tap made on ``game`` answers (:func:`.services.move` made it): the board
    at the new version seen from ``seat``, rendered from the state decoded once in this
    process (:func:`.shared.shared_state`, as this process's streams render theirs)."""
    return Answer(
        version=game.version,
        board=render_board(game, shared_state(game), seat),
        paused=game.paused,
        finished=game.finished,
    )
