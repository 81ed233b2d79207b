"""The caps on a process's live streams: how many it holds open
(``PLAY_STREAMS_PER_PROCESS``), how many each link, session and address holds
(:func:`stream_shares`), how many do their opening's database work at once
(:data:`OPENING_AT_ONCE`), and the answer beyond a cap (:func:`busy`: 503 with
``Retry-After``). Counts only, under a lock, keyed by hashes: nothing of any game.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter

from flask import Response, current_app, request
from flask_babel import gettext as _

from ..inputs import client_key

RETRY_AFTER = 15
"""Seconds a page refused a stream (503, the process holds its cap) waits before it
asks again; it polls the version meanwhile and reopens the stream after as long."""

OPENING_AT_ONCE = 8
"""Streams of one process doing their opening's database work (the seat's contact, a
catch-up, the seat's stream number written) at once. An open stream holds no database
connection between its reads, but opening holds one from its first query to its
commit: with thousands of phones arriving together, so many openings would take every
connection of the process's pool (``pool_size`` 10 + ``max_overflow`` 22, app.py) and
pages and moves would wait for one. Eight leave 24 for pages, moves and the streams'
reads."""
OPENING_WAIT = 10.0
"""Seconds a stream waits for its turn to open before it is answered 503 (its page
polls and asks again after ``Retry-After``)."""


Shares = tuple[tuple[str, int], ...]
"""A stream's shares: each ``(key, cap)`` it counts against besides the process's cap (its
link, its client's session, its client's address: :func:`stream_shares`)."""


class OpenStreams:
    """How many event streams this process holds open, for the cap
    ``PLAY_STREAMS_PER_PROCESS``, and how many of them each link, session and address
    holds, for their caps (:func:`stream_shares`: counts under a lock, keyed by a hash;
    nothing of any game), and the gate of their openings (:data:`OPENING_AT_ONCE`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0
        self.held: Counter[str] = Counter()
        self.opening = threading.BoundedSemaphore(OPENING_AT_ONCE)

    def take(self, cap: int, shares: Shares = ()) -> bool:
        """Count one more open stream, and one more of each of its ``shares``; False, and
        nothing counted, when ``cap`` are open or any share is at its own cap."""
        with self._lock:
            if self.count >= cap or any(self.held[key] >= most for key, most in shares):
                return False
            self.count += 1
            for key, _most in shares:
                self.held[key] += 1
            return True

    def give_back(self, shares: Shares = ()) -> None:
        """A counted stream (of ``shares``) has closed."""
        with self._lock:
            self.count -= 1
            for key, _most in shares:
                self.held[key] -= 1
                if self.held[key] <= 0:
                    del self.held[key]


def stream_shares() -> Shares:
    """The shares of the stream being opened: its link (the address without
    ``/events``: a seat's, a view link's, a TV's), ``PLAY_STREAMS_PER_LINK`` (8) at
    most; its client's session (:func:`scorekeeper.inputs.client_key`),
    ``PLAY_STREAMS_PER_CLIENT`` (16); its client's network address,
    ``PLAY_STREAMS_PER_ADDRESS`` (512: a game night's phones behind one router). So the
    TVs on one view link, or one client's many tabs, cannot take the streams a seat
    needs. Keys are hashes: no link's token is kept."""
    client, address = client_key()
    config = current_app.config
    parts = (
        ("link", request.path, int(config.get("PLAY_STREAMS_PER_LINK", 8))),
        ("client", client, int(config.get("PLAY_STREAMS_PER_CLIENT", 16))),
        ("address", address, int(config.get("PLAY_STREAMS_PER_ADDRESS", 512))),
    )
    return tuple(
        (kind + ":" + hashlib.sha256(value.encode()).hexdigest()[:20], most)
        for kind, value, most in parts
    )


def busy() -> Response:
    """The answer beyond the process's cap of streams: 503 with ``Retry-After``."""
    text = _("This server carries as many live updates as it can: try again shortly.")
    headers = {"Retry-After": str(RETRY_AFTER), "Cache-Control": "no-store"}
    return Response(text, 503, headers, mimetype="text/plain")
