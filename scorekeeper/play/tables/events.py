"""Live updates of a table game on several phones, with no game state in process memory:
every phone learns that the game moved from the database's ``version`` of the game, so
any worker process (and PostgreSQL or SQLite shared by several) serves any phone.

- ``GET /play/<slug>/events``: server-sent events. The stream waits on its process's
  one listener (:mod:`scorekeeper.live.bus`: woken by a move's notice, never polling on
  its own) and then takes the game and its seats as read once for every stream of
  the game that wake-up woke in the process (:class:`SharedReads`: one SELECT a
  process, not one a stream); when the version changed, and the seat is still the
  stream's, it sends ``event: version`` with the seat's board in its data
  (:func:`seat_board`: the same body as ``board.json``, so the phone makes no request
  of its own; rendered under the stream's request, whose CSRF token is put in the
  session when the stream opens, before its headers are sent); after
  :func:`~scorekeeper.live.bus.check_every` of quiet (30 s) it sends a keep-alive
  comment, nothing read. A game of one person has its stream too (its bots' moves are
  made by jobs of the queue, each a version: :mod:`.thinking`); anyone with its link
  plays it, so its stream checks no seat. Meanwhile its process's ONE sweep
  (:func:`scorekeeper.play.tables.services.sweep`, every 30 s for all the streams the process holds)
  stamps the seat's contact and lets any due bot move (stand-ins for people who are
  away). An open stream holds no thread (``serve`` runs
  gevent workers) and no database connection between its reads; it ends after
  ``PLAY_STREAM_SECONDS`` (an hour) and the browser reconnects by itself (``retry``).
- One stream per seat: each stream opened counts the seat's ``stream`` number up
  (:func:`.services.new_stream`, a notice to every process) and every read gets it
  with the version, so an older stream of the seat (the phone reconnecting, the link
  opened on another phone), in whichever process, ends with ``event: end`` and
  ``{"reason": "replaced"}``; a seat given to a bot or a new link ends its stream the
  same way (``"removed"``), as does a game deleted (``"gone"``).
- At most ``PLAY_STREAMS_PER_PROCESS`` streams open in one process (the only thing
  counted in process memory besides the listener's:
  :class:`~scorekeeper.live.caps.OpenStreams`); beyond it a stream is answered 503 with
  ``Retry-After`` and the page polls the version instead (static/seats.js). The cap is
  below the worker's connections (``serve``).
- ``GET /play/<slug>/version``: the polling fallback (a phone whose stream dropped):
  ``{"version": 7}`` with an ETag (304 when unchanged); also a contact and a catch-up.
- ``GET /play/<slug>/board.json``: what the phone swaps in after a change its poll saw
  (or an event without a board), the same as a version event's data
  (:func:`seat_board`): the board from its own seat (never another seat's cards; the
  game's state decoded and its public part rendered once per version in each process,
  :func:`..per_version.shared_state`, :func:`..taps.render_board`), the table's status line (no
  catch-up here: it answers a change the stream or the poll already saw).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    request,
)
from flask.sansio.blueprints import BlueprintSetupState
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf
from sqlalchemy import Select, String, bindparam, case, cast, func, select

from ...extensions import db
from ...live.bus import Wakeups
from ...live.caps import OpenStreams
from ...live.keys import play_key
from ...live.streams import open_stream, since_asked, version_events
from ...models import DigitalGame, DigitalSeat
from ...web import same_token
from .. import per_version, services, taps
from ..caches import BoundedCache
from . import seating
from . import services as table_services


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
    state.app.extensions["play_reads"] = SharedReads()
    state.app.extensions["wakeups"].sweep = table_services.sweep


def _sitting_at(slug: str) -> tuple[DigitalGame, seating.Sitting]:
    """The game at ``slug`` and this phone at it, a seat's (404: no game; 403: no seat)."""
    game = services.get_game(slug)
    if game is None:
        abort(404, description=_("There is no game at this link."))
    sitting = table_services.sitting(game)
    if sitting.seat is None:
        abort(403, description=_("This is a table of several phones: open your seat's link."))
    return game, sitting


def _seated_game(slug: str) -> tuple[DigitalGame, int]:
    game, sitting = _sitting_at(slug)
    assert sitting.seat is not None
    return game, sitting.seat


def seat_board(game: DigitalGame, sitting: seating.Sitting) -> dict[str, object]:
    """What a seat's phone swaps in at ``game``'s version, the same in ``board.json``'s
    answer and a version event's data: ``board``, the board from ``sitting``'s seat
    (never another seat's cards, :func:`..taps.render_board`, from the state decoded once
    per version in this process, :func:`..per_version.shared_state`) and the table's status line
    (:func:`scorekeeper.play.tables.seating.table_status`, with ``version``)."""
    state = per_version.shared_state(game)
    board = taps.render_board(game, state, sitting.seat)
    return {"board": board, **seating.table_status(game, state, sitting).to_json()}


class SeatStanding(NamedTuple):
    """A person's seat as a wake-up reads it: its ``seat`` (0-based), ``token``, its
    newest stream's ``number`` and whether a stand-in plays for it (``away``); a
    :class:`scorekeeper.play.tables.seating.SeatRow`."""

    seat: int
    token: str
    number: int
    away: bool


@dataclass(frozen=True)
class GameReading:
    """A digital game as one wake-up of its streams in a process reads it
    (:func:`read_game`): the ``game`` (every column read afresh, detached from any
    session: only read) and its person ``seats`` (seat, 0-based -> :class:`SeatStanding`)."""

    game: DigitalGame
    seats: dict[int, SeatStanding]


def _reading_query() -> Select[DigitalGame, str | None]:
    """ONE statement for a game's wake-up, made once (its parameter ``game_id``): the
    game and its person seats as one text, ``seat.stream.away.token`` per seat joined
    by commas (a token is URL-safe base 64: no dot, no comma), None when it has none."""
    seat = DigitalSeat
    one = (
        cast(seat.seat, String)
        + "."
        + cast(seat.stream, String)
        + "."
        + case((seat.away.is_(True), "1"), else_="0")
        + "."
        + seat.token
    )
    seats = (
        select(func.aggregate_strings(one, ","))
        .where(seat.game_id == DigitalGame.id)
        .scalar_subquery()
    )
    return (
        select(DigitalGame, seats)
        .where(DigitalGame.id == bindparam("game_id"))
        .execution_options(populate_existing=True)
    )


READING = _reading_query()
"""The statement of every wake-up's read (:func:`_reading_query`)."""


def read_game(game_id: int) -> GameReading | None:
    """The game ``game_id`` and its seats now (None: deleted), in ONE statement
    (:data:`READING`) in a transaction of its own, the game detached from the session."""
    try:
        row = db.session.execute(READING, {"game_id": game_id}).one_or_none()
        if row is None:
            return None
        game, text = row
        db.session.expunge(game)
    finally:
        db.session.rollback()
    seats = {}
    for part in (text or "").split(","):
        if part:
            number, stream, away, token = part.split(".", 3)
            seats[int(number)] = SeatStanding(int(number), token, int(stream), away == "1")
    return GameReading(game, seats)


READINGS = 256
"""Games whose latest wake-up read one process keeps (:class:`SharedReads`)."""
READ_LOCKS = 64
"""Locks that keep two streams of one game from reading it for the same wake-up."""


class SharedReads:
    """The reads of games woken in this process, shared by the streams one wake-up woke
    (``app.extensions["play_reads"]``): the first stream of a game woken reads it
    (:func:`read_game`) and the others take that read, so a move costs each process
    one statement, not one per stream. Each read is tagged with the game's wake number
    asked before it began (:meth:`.Wakeups.wakes`): a stream takes a read whose tag is
    at least the number it asked after it was woken, so it never sees the game older
    than a read of its own would. A :class:`~scorekeeper.play.caches.BoundedCache` (the
    :data:`READINGS` latest games, :data:`READ_LOCKS` locks), never the truth: every new
    wake-up reads again."""

    def __init__(self) -> None:
        self._read: BoundedCache[int, tuple[int, GameReading | None]] = BoundedCache(
            READINGS, READ_LOCKS
        )

    def get(self, game_id: int, wake: int) -> GameReading | None:
        """The game ``game_id`` read at its wake number ``wake`` or later (None:
        deleted)."""
        found = self._read.get(
            game_id, lambda: (wake, read_game(game_id)), lambda read: read[0] >= wake
        )
        return found[1]


class _Reading:
    """What one seat's stream reads at each wake-up: the game read once by the process
    for that wake-up (:class:`SharedReads`) gives the standing (the version, and why the
    stream must end: ``"replaced"``, ``"removed"``, ``"gone"``, see the module) and,
    only when the version is not the last one told, the seat's board
    (:func:`seat_board`), rendered while the seat is still the stream's (its token and
    stream number checked first). Nothing of the game is kept between wake-ups but the
    last version told and the board read for the next event."""

    def __init__(self, stream: Stream, since: int | None) -> None:
        self.stream = stream
        self.last = since
        self.board: dict[str, object] | None = None

    def standing(self) -> tuple[int, str | None]:
        """The game's version now and why the stream must end (or None); the seat's
        board kept for :meth:`tell` when the version is new to the phone."""
        stream = self.stream
        wakeups: Wakeups = current_app.extensions["wakeups"]
        wake = wakeups.wakes(play_key(stream.game_id))
        reads: SharedReads = current_app.extensions["play_reads"]
        reading = reads.get(stream.game_id, wake)
        if reading is None:
            return 0, "gone"
        game, mine = reading.game, reading.seats.get(stream.seat)
        if game.host_token is None:  # a game of one person: its link is its only key
            if game.version != self.last:
                alone = seating.Sitting(game.human_seat, None, False, False)
                self.board = seat_board(game, alone)
            return game.version, None
        if mine is None or not same_token(stream.token, mine.token):
            return game.version, "removed"
        if mine.number != stream.number:
            return game.version, "replaced"
        if game.version != self.last:
            sitting = seating.seated(game, list(reading.seats.values()), stream.seat)
            self.board = seat_board(game, sitting)
        return game.version, None

    def tell(self, version: int) -> dict[str, object] | None:
        """The version event's data: the board :meth:`standing` read at ``version`` (None
        when it read none: the stream reads its standing again)."""
        told, self.board = self.board, None
        if told is not None:
            self.last = version
        return told


def _events(stream: Stream, since: int | None) -> Iterator[str]:
    """The seat's stream: :func:`scorekeeper.live.streams.version_events` on its standing,
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
    version the phone last heard (:func:`~scorekeeper.live.streams.since_asked`), in as few
    round trips as it takes: the version asked checked first, then ONE query of the
    game's few columns (:func:`.seating.opening`: no state), ONE
    ``UPDATE ... RETURNING`` of the seat's stream number and contact
    (:func:`.services.new_stream`), and a catch-up only where a stand-in may be due.
    Aborts with 400 (:func:`~scorekeeper.live.streams.since_asked`), 404 (no such game, or a
    game of one person) or 403 (no seat here, or the seat given to a bot or a new link
    meanwhile), nothing written."""
    since = since_asked()
    found = seating.opening(slug)
    if found is None:
        abort(404, description=_("There is no game at this link."))
    if not found.table:  # the bots' moves, made by jobs, reach the person's phone
        assert found.seat is not None
        generate_csrf()
        return Stream(slug, found.game_id, found.seat, "", 0), since
    if found.seat is None:
        abort(403, description=_("This is a table of several phones: open your seat's link."))
    number = table_services.new_stream(found)
    if number is None:
        abort(403, description=_("This seat is no longer yours: open your seat's link."))
    generate_csrf()  # the boards' forms carry it: kept in the session before it is sent
    return Stream(slug, found.game_id, found.seat, found.token, number), since


def events(slug: str) -> Response:
    """Server-sent events: ``version`` each time the game moves, ``end`` when the stream
    must close early; 503 beyond the process's cap (see the module)."""
    return open_stream(lambda: _events(*_open(slug)))


def version(slug: str) -> Response:
    """The polling fallback: the game's version, ETag ``"v<version>"`` (304 if unchanged)."""
    game, _seat = _seated_game(slug)
    table_services.catch_up(game)
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
    (:func:`scorekeeper.play.tables.services.sweep`)."""
    bp.record_once(_count_streams)
    bp.add_url_rule("/<slug>/events", view_func=events)
    bp.add_url_rule("/<slug>/version", view_func=version)
    bp.add_url_rule("/<slug>/board.json", view_func=board_json)
