"""Live updates of a table game on several phones, with no process memory: every phone
learns that the game moved from the database's ``version`` of the game, so any worker
process (and PostgreSQL or SQLite shared by several) serves any phone.

- ``GET /play/<slug>/events``: server-sent events. The response polls the game's version
  (one small SELECT every ``PLAY_POLL_SECONDS``, 0.15 s) and sends ``event: version``
  when it changes; once a second it also stamps the seat's contact and lets any due bot
  move (:func:`.shared_seats.catch_up`: stand-ins for people who are away). It ends after
  ``PLAY_STREAM_SECONDS`` (25 s) so a gthread worker's thread is never held for long;
  the browser reconnects by itself (``retry``). The transaction is ended after each
  poll, so the stream holds no database connection between polls.
- ``GET /play/<slug>/version``: the polling fallback (a phone whose stream dropped):
  ``{"version": 7}`` with an ETag (304 when unchanged); also a contact and a catch-up.
- ``GET /play/<slug>/board.json``: what the phone swaps in after a change: the board
  from its own seat (never another seat's cards), the table's status line (no catch-up
  here: it answers a change the stream or the poll already saw).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    request,
    stream_with_context,
)

from ..extensions import db
from ..models import DigitalGame
from . import live, services, shared_seats

CHECK_EVERY = 5.0
"""Seconds between a stream's contact stamps and catch-ups at most (a quarter of the
grace period when that is shorter)."""
KEEP_ALIVE = 10.0
"""Seconds between comment lines on a quiet stream (proxies close silent connections)."""


def _seated_game(slug: str) -> tuple[DigitalGame, int]:
    game = services.get_game(slug)
    if game is None:
        abort(404, description="There is no game at this link.")
    seat = shared_seats.sitting(game).seat
    if seat is None:
        abort(403, description="This is a table of several phones: open your seat's link.")
    return game, seat


def _version(game_id: int) -> int | None:
    """The stored version of the game, read in a transaction of its own."""
    query = db.select(DigitalGame.version).where(DigitalGame.id == game_id)
    version = db.session.execute(query).scalar_one_or_none()
    db.session.rollback()
    return version


def _check(slug: str) -> None:
    """A contact from this phone's seat, and any bot moves now due."""
    game = services.get_game(slug)
    if game is not None:
        shared_seats.sitting(game)
        shared_seats.catch_up(game)
    db.session.rollback()


def _events(slug: str, game_id: int, since: int | None) -> Iterator[str]:
    config = current_app.config
    poll = float(config.get("PLAY_POLL_SECONDS", 0.15))
    end = time.monotonic() + float(config.get("PLAY_STREAM_SECONDS", 25))
    yield "retry: 1000\n\n"
    last, checked, spoke = since, 0.0, time.monotonic()
    while time.monotonic() < end:
        if time.monotonic() - checked >= min(CHECK_EVERY, shared_seats.grace() / 4):
            _check(slug)
            checked = time.monotonic()
        version = _version(game_id)
        if version is None:
            return
        if version != last:
            last, spoke = version, time.monotonic()
            yield f"id: {version}\nevent: version\ndata: {json.dumps({'version': version})}\n\n"
        elif time.monotonic() - spoke >= KEEP_ALIVE:
            spoke = time.monotonic()
            yield ": still here\n\n"
        time.sleep(poll)


def events(slug: str) -> Response:
    """Server-sent events: ``version`` each time the game moves (see the module)."""
    game, _seat = _seated_game(slug)
    shared_seats.catch_up(game)
    given = request.headers.get("Last-Event-ID") or request.args.get("since")
    since = int(given) if given and given.isdigit() and len(given) < 10 else None
    body = stream_with_context(_events(slug, game.id, since))
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return Response(body, mimetype="text/event-stream", headers=headers)


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
    game, seat = _seated_game(slug)
    status = shared_seats.table_status(game, seat)
    body = {"board": live.render_board(game, seat), **status}
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response, 200


def register(bp: Blueprint) -> None:
    """Add these routes to the ``play`` blueprint (:mod:`.views` calls it)."""
    bp.add_url_rule("/<slug>/events", view_func=events)
    bp.add_url_rule("/<slug>/version", view_func=version)
    bp.add_url_rule("/<slug>/board.json", view_func=board_json)
