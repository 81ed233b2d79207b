"""The event streams (server-sent events) of the live pages: a stream's lines for one
game, woken by this process's bus (:class:`.bus.Wakeups`), and its response, counted
against the caps (:mod:`.caps`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator

from flask import Response, current_app, request, stream_with_context

from ..inputs import MAX_VERSION, parse_int
from .bus import Contact, Wakeups, check_every
from .caps import OPENING_WAIT, OpenStreams, busy, stream_shares

Standing = Callable[[], tuple[int, str | None]]
"""Reads a game's version and why its stream must end now (``"replaced"``,
``"removed"``, ``"gone"``) or None, in a transaction of its own."""


Told = Callable[[int], dict[str, object] | None]
"""A version event's data for the version read (see :func:`version_events`)."""
CLOSED_RETRY_MS = 3000
"""The ``retry:`` (milliseconds) a stream ends with when its process is stopping: the
phone's EventSource reconnects after it, to another process or the restarted server
(a container's restart takes a few seconds; sooner would mostly find nothing)."""


def version_only(version: int) -> dict[str, object]:
    """A version event's data that says only the version: ``{"version": 7}``."""
    return {"version": version}


def version_events(
    key: str,
    standing: Standing,
    since: int | None,
    tell: Told = version_only,
    contact: Contact | None = None,
) -> Iterator[str]:
    """An event stream's lines (server-sent events) for the game of ``key``: its
    ``standing`` read when it opens and each time this process's listener wakes it,
    ``event: version`` when the version is not the last told (``since`` at first), its
    data ``tell(version)`` (``{"version": 7, ...}``: the version it tells, which may be
    newer than the one read; None when the standing changed meanwhile, read again),
    ``event: end`` with the reason when it must end; after :func:`check_every` of quiet,
    a keep-alive comment, nothing read (the
    listener wakes every stream when it reconnects, so no notice is lost unread; the
    process's sweep stamps ``contact``, the seat it serves, and lets due bots move).
    Ends after ``PLAY_STREAM_SECONDS`` (3600), and at once, after ``retry:``
    :data:`CLOSED_RETRY_MS`, when the process is stopping (:meth:`Wakeups.close`)."""
    wakeups: Wakeups = current_app.extensions["wakeups"]
    every = check_every()
    end = time.monotonic() + float(current_app.config.get("PLAY_STREAM_SECONDS", 3600))
    woken = wakeups.hold(key, contact)
    try:
        yield "retry: 1000\n\n"
        last: object = since
        while True:
            woken.clear()
            if wakeups.closing:
                yield f"retry: {CLOSED_RETRY_MS}\n\n"
                return
            version, ended = standing()
            if ended is not None:
                yield f"event: end\ndata: {json.dumps({'reason': ended})}\n\n"
                return
            if version != last:
                told = tell(version)
                if told is None:  # the seat changed while its board was read: read again
                    continue
                last = told["version"]
                yield f"id: {last}\nevent: version\ndata: {json.dumps(told)}\n\n"
            while not woken.wait(max(0.0, min(end - time.monotonic(), every))):
                if time.monotonic() >= end:
                    return
                yield ": still here\n\n"
    finally:
        wakeups.let_go(key, woken)


def since_asked() -> int | None:
    """The version a page last heard: ``Last-Event-ID`` (the browser reconnecting) or
    ``?since=``, None when neither is given. Raises
    :class:`~scorekeeper.inputs.BadNumber` (400) when it is not a whole number from 0
    to ``MAX_VERSION``."""
    given = request.headers.get("Last-Event-ID") or request.args.get("since")
    return parse_int(given, 0, MAX_VERSION, "version") if given else None


def open_stream(opened: Callable[[], Iterator[str]]) -> Response:
    """An event stream's response, counted against the process's cap and its link's,
    session's and address's (:func:`stream_shares`; 503 with ``Retry-After`` beyond any,
    before any database work); ``opened()`` checks the
    request (it may abort with a 4xx) and gives the stream's lines, at most
    :data:`OPENING_AT_ONCE` at once (503 after :data:`OPENING_WAIT` seconds of waiting
    for a turn)."""
    counted: OpenStreams = current_app.extensions["play_streams"]
    shares = stream_shares()
    if not counted.take(int(current_app.config["PLAY_STREAMS_PER_PROCESS"]), shares):
        return busy()
    if not counted.opening.acquire(timeout=OPENING_WAIT):
        counted.give_back(shares)
        return busy()
    try:
        lines = opened()
    except BaseException:
        counted.give_back(shares)
        raise
    finally:
        counted.opening.release()
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    response = Response(stream_with_context(lines), mimetype="text/event-stream", headers=headers)
    response.call_on_close(lambda: counted.give_back(shares))
    return response
