"""Live updates of a table game on several phones, with no game state in process memory:
every phone learns that the game moved from the database's ``version`` of the game, so
any worker process (and PostgreSQL or SQLite shared by several) serves any phone.

- ``GET /play/<slug>/events``: server-sent events. The stream waits on its process's
  one listener (:mod:`scorekeeper.wakeups`: woken by a move's notice, never polling on
  its own) and then reads the game and its seats once (:class:`_Reading`, one SELECT);
  when the version changed, and the seat is still the stream's, it sends ``event:
  version`` with the seat's board in its data (:func:`seat_board`: the same body as
  ``board.json``, so the phone makes no request of its own; rendered under the
  stream's request, whose CSRF token is put in the session when the stream opens,
  before its headers are sent); after
  :func:`~scorekeeper.wakeups.check_every` of quiet (30 s) it sends a keep-alive
  comment, nothing read. Meanwhile its process's ONE sweep
  (:func:`.shared_seats.sweep`, every 30 s for all the streams the process holds)
  stamps the seat's contact and lets any due bot move (stand-ins for people who are
  away). An open stream holds no thread (``serve`` runs
  gevent workers) and no database connection between its reads; it ends after
  ``PLAY_STREAM_SECONDS`` (an hour) and the browser reconnects by itself (``retry``). A
  table game's only: a one-person game changes only when its person moves (404).
- One stream per seat: each stream opened counts the seat's ``stream`` number up
  (:func:`.shared_seats.new_stream`, a notice to every process) and every read gets it
  with the version, so an older stream of the seat (the phone reconnecting, the link
  opened on another phone), in whichever process, ends with ``event: end`` and
  ``{"reason": "replaced"}``; a seat given to a bot or a new link ends its stream the
  same way (``"removed"``), as does a game deleted (``"gone"``).
- At most ``PLAY_STREAMS_PER_PROCESS`` streams open in one process (the only thing
  counted in process memory besides the listener's:
  :class:`~scorekeeper.wakeups.OpenStreams`); beyond it a stream is answered 503 with
  ``Retry-After`` and the page polls the version instead (static/seats.js). The cap is
  below the worker's connections (``serve``).
- ``GET /play/<slug>/version``: the polling fallback (a phone whose stream dropped):
  ``{"version": 7}`` with an ETag (304 when unchanged); also a contact and a catch-up.
- ``GET /play/<slug>/board.json``: what the phone swaps in after a change its poll saw
  (or an event without a board), the same as a version event's data
  (:func:`seat_board`): the board from its own seat (never another seat's cards; the
  game's state decoded and its public part rendered once per version in each process,
  :func:`.live.shared_state`, :func:`.live.render_board`), the table's status line (no
  catch-up here: it answers a change the stream or the poll already saw).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from flask import (
    Blueprint,
    Response,
    abort,
    jsonify,
    request,
)
from flask.sansio.blueprints import BlueprintSetupState
from flask_wtf.csrf import generate_csrf
from sqlalchemy import Select, bindparam, case, func, select
from sqlalchemy.orm import aliased

from ..engine import OPTIONS
from ..extensions import db
from ..models import DigitalGame, DigitalSeat
from ..wakeups import OpenStreams, open_stream, play_key, since_asked, version_events
from ..web import same_token
from . import live, services, shared_seats


@dataclass(frozen=True)
class Stream:
    """One open event stream: its game (``slug``, ``game_id``), the ``seat`` it serves,
    that seat's ``token`` and the stream's ``number`` when it opened
    (:attr:`~scorekeeper.models.DigitalSeat.stream`)."""

    slug: str
    game_id: int
    seat: int
    token: str
    number: int


def _count_streams(state: BlueprintSetupState) -> None:
    state.app.extensions["play_streams"] = OpenStreams()
    state.app.extensions["wakeups"].sweep = shared_seats.sweep


def _sitting_at(slug: str) -> tuple[DigitalGame, shared_seats.Sitting]:
    """The game at ``slug`` and this phone at it, a seat's (404: no game; 403: no seat)."""
    game = services.get_game(slug)
    if game is None:
        abort(404, description="There is no game at this link.")
    sitting = shared_seats.sitting(game)
    if sitting.seat is None:
        abort(403, description="This is a table of several phones: open your seat's link.")
    return game, sitting


def _seated_game(slug: str) -> tuple[DigitalGame, int]:
    game, sitting = _sitting_at(slug)
    assert sitting.seat is not None
    return game, sitting.seat


def seat_board(game: DigitalGame, sitting: shared_seats.Sitting) -> dict[str, Any]:
    """What a seat's phone swaps in at ``game``'s version, the same in ``board.json``'s
    answer and a version event's data: ``board``, the board from ``sitting``'s seat
    (never another seat's cards, :func:`.live.render_board`, from the state decoded once
    per version in this process, :func:`.live.shared_state`) and the table's status line
    (:func:`.shared_seats.table_status`, with ``version``)."""
    state = live.shared_state(game)
    board = live.render_board(game, state, sitting.seat)
    return {"board": board, **shared_seats.table_status(game, state, sitting)}


SEATS = OPTIONS["max_players"].maximum or 8
"""Seats at a table at most (D1: 2 to 8 players)."""


class _Away(NamedTuple):
    """A person's seat a stand-in plays for (what :func:`.shared_seats.seated` reads)."""

    seat: int
    away: bool = True


def _reading_query() -> Select[DigitalGame, str | None, int | None, int]:
    """ONE statement for a stream's wake-up, made once (its parameters ``game_id`` and
    ``seat``): the game (every column read afresh), the token and stream number of the
    stream's seat (None when it has no person's row) and the seats a stand-in plays for
    as bits (seat ``n`` away: bit ``n``)."""
    mine = aliased(DigitalSeat)
    bit = case(*((DigitalSeat.seat == n, 1 << n) for n in range(SEATS)), else_=0)
    away = (
        select(func.coalesce(func.sum(bit), 0))
        .where(DigitalSeat.game_id == DigitalGame.id, DigitalSeat.away.is_(True))
        .scalar_subquery()
    )
    seat_row = (mine.game_id == DigitalGame.id) & (mine.seat == bindparam("seat"))
    return (
        select(DigitalGame, mine.token, mine.stream, away)
        .outerjoin(mine, seat_row)
        .where(DigitalGame.id == bindparam("game_id"))
        .execution_options(populate_existing=True)
    )


READING = _reading_query()
"""The statement of every stream's wake-up (:func:`_reading_query`)."""


class _Reading:
    """What one seat's stream reads at each wake-up: ONE statement
    (:data:`READING`, in a transaction of its own) gives the standing (the
    version, and why the stream must end: ``"replaced"``, ``"removed"``, ``"gone"``, see
    the module) and, only when the version is not the last one told, the seat's board
    (:func:`seat_board`), rendered while the seat is still the stream's (its token and
    stream number checked first). Nothing of the game is kept between wake-ups but the
    last version told and the board read for the next event."""

    def __init__(self, stream: Stream, since: int | None) -> None:
        self.stream = stream
        self.last = since
        self.board: dict[str, Any] | None = None

    def standing(self) -> tuple[int, str | None]:
        """The game's version now and why the stream must end (or None); the seat's
        board kept for :meth:`tell` when the version is new to the phone."""
        stream = self.stream
        given = {"game_id": stream.game_id, "seat": stream.seat}
        row = db.session.execute(READING, given).one_or_none()
        try:
            if row is None:
                return 0, "gone"
            game, token, number, away = row
            if token is None or not same_token(stream.token, token):
                return game.version, "removed"
            if number != stream.number:
                return game.version, "replaced"
            if game.version != self.last:
                rows = [_Away(n) for n in range(SEATS) if int(away) >> n & 1]
                self.board = seat_board(game, shared_seats.seated(game, rows, stream.seat))
            return game.version, None
        finally:
            db.session.rollback()

    def tell(self, _version: int) -> dict[str, Any] | None:
        """The version event's data: the board :meth:`standing` read (None when it read
        none: the stream reads its standing again)."""
        told, self.board = self.board, None
        if told is not None:
            self.last = told["version"]
        return told


def _events(stream: Stream, since: int | None) -> Iterator[str]:
    """The seat's stream: :func:`scorekeeper.wakeups.version_events` on its standing,
    each version event with the seat's board (:class:`_Reading`: one read a wake-up),
    its seat's contact stamped by the process's sweep."""
    reading = _Reading(stream, since)
    return version_events(
        play_key(stream.game_id),
        reading.standing,
        since,
        tell=reading.tell,
        contact=(stream.game_id, stream.seat, stream.number),
    )


def _open(slug: str) -> tuple[Stream, int | None]:
    """A new stream of this phone's seat (any older one of the seat ends) and the
    version the phone last heard (:func:`~scorekeeper.wakeups.since_asked`), in as few
    round trips as it takes: the version asked checked first, then ONE query of the
    game's few columns (:func:`.shared_seats.opening`: no state), ONE
    ``UPDATE ... RETURNING`` of the seat's stream number and contact
    (:func:`.shared_seats.new_stream`), and a catch-up only where a stand-in may be due.
    Aborts with 400 (:func:`~scorekeeper.wakeups.since_asked`), 404 (no such game, or a
    game of one person) or 403 (no seat here, or the seat given to a bot or a new link
    meanwhile), nothing written."""
    since = since_asked()
    found = shared_seats.opening(slug)
    if found is None:
        abort(404, description="There is no game at this link.")
    if not found.table:
        abort(404, description="A game of one person has no live updates: it moves when you do.")
    if found.seat is None:
        abort(403, description="This is a table of several phones: open your seat's link.")
    number = shared_seats.new_stream(found)
    if number is None:
        abort(403, description="This seat is no longer yours: open your seat's link.")
    generate_csrf()  # the boards' forms carry it: kept in the session before it is sent
    return Stream(slug, found.game_id, found.seat, found.token, number), since


def events(slug: str) -> Response:
    """Server-sent events: ``version`` each time the game moves, ``end`` when the stream
    must close early; 503 beyond the process's cap (see the module)."""
    return open_stream(lambda: _events(*_open(slug)))


def version(slug: str) -> Any:
    """The polling fallback: the game's version, ETag ``"v<version>"`` (304 if unchanged)."""
    game, _seat = _seated_game(slug)
    shared_seats.catch_up(game)
    tag = f"v{game.version}"
    if request.if_none_match.contains(tag):
        return Response(status=304, headers={"ETag": f'"{tag}"', "Cache-Control": "no-cache"})
    response = jsonify(version=game.version)
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response


def board_json(slug: str) -> tuple[Response, int]:
    """The board from this phone's seat to swap in, and the table's status line."""
    game, sitting = _sitting_at(slug)
    response = jsonify(seat_board(game, sitting))
    response.headers["Cache-Control"] = "no-store"
    return response, 200


def register(bp: Blueprint) -> None:
    """Add these routes to the ``play`` blueprint (:mod:`.views` calls it), and to each
    app it is registered on the count of open streams and the sweep of its listener
    (:func:`.shared_seats.sweep`)."""
    bp.record_once(_count_streams)
    bp.add_url_rule("/<slug>/events", view_func=events)
    bp.add_url_rule("/<slug>/version", view_func=version)
    bp.add_url_rule("/<slug>/board.json", view_func=board_json)
