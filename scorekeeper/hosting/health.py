"""``/healthz``: whether this app can serve, for a reverse proxy or a container's
health check; and the request deadline, so that no request waits for ever on a database
(or any other server) that stopped answering.

200 with ``{"status": "ok", ...}`` when the database answers and its schema is the
code's (the database's alembic revision is the migrations' head); 503 with
``{"status": "unavailable", ...}`` otherwise, saying which. The 200 answer also says
whether the servers the app can serve without answer: ``"rate_limits"`` (the
``RATELIMIT_STORAGE_URI`` store: ``"answering"`` or ``"not answering: requests served
without shared limits"``) and ``"bus"`` (the live updates' wake-ups,
:func:`bus_state`); either failing leaves the answer 200, since the app still serves.
Never rate limited (only the API and imports are,
:data:`scorekeeper.extensions.RATE_LIMITED`), never cached, and no session cookie
is read or set. It answers within ``HEALTH_SECONDS`` (1.5 s): a database that does
not answer in time is reported ``"not answering in time"`` (503).

The deadline (:class:`RequestDeadline`, on a database server): under ``serve``'s gevent
workers, every request waits at most ``REQUEST_WAIT_SECONDS`` (2.5 s; an event stream's
opening 12 s), then is answered 503 with ``Retry-After`` and the reason, and the
connection it was waiting on is dropped (SQLAlchemy discards a connection whose call
was interrupted), so a frozen PostgreSQL gives 503s within about 3 s instead of
hanging every page, and the next request after its return is served on a fresh
connection. The work that computes never
runs in a request (:mod:`scorekeeper.jobs`), so a request's time is its waits. Outside
gevent (the development server, the tests' threads) nothing can interrupt a wait: the
database's own timeouts (``connect_timeout``, ``statement_timeout``, ``lock_timeout``,
:func:`scorekeeper.app._postgresql_timeouts`) still apply.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from flask import Flask, Response, current_app, jsonify
from sqlalchemy.exc import SQLAlchemyError

from ..extensions import db, limiter
from ..live.bus import bus_of
from .loop import gevent_serving
from .schema import database_revisions, head_revisions

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment


def healthz() -> tuple[Response, int]:
    """The health answer (see the module's docstring)."""
    head = sorted(head_revisions())
    seconds = float(current_app.config.get("HEALTH_SECONDS", 1.5))
    try:
        with deadline(seconds), db.engine.connect() as connection:
            current = sorted(database_revisions(connection))
    except SQLAlchemyError:
        body = {"status": "unavailable", "database": "not answering", "schema": {"head": head}}
        return _uncached(body), 503
    except Overdue:
        body = {"status": "unavailable", "database": "not answering in time"}
        return _uncached(body | {"schema": {"head": head}}), 503
    schema = {"head": head, "database": current}
    if current != head:
        body = {"status": "unavailable", "database": "answering", "schema": schema}
        return _uncached(body | {"problem": "schema out of date"}), 503
    healthy: dict[str, object] = {"status": "ok", "database": "answering", "schema": schema}
    return _uncached(healthy | _helpers(seconds)), 200


RATE_LIMITS_DOWN = "not answering: requests served without shared limits"
"""``rate_limits`` when the store does not answer: each process counts in its memory."""


def _helpers(seconds: float) -> dict[str, str]:
    """The servers the app serves without (never a 503): the rate limits' store and
    the live updates' bus, each ``"answering"`` or why not."""
    try:
        with deadline(seconds):
            limits = "answering" if limiter.storage.check() else RATE_LIMITS_DOWN
    except Overdue:
        limits = RATE_LIMITS_DOWN
    return {"rate_limits": limits, "bus": bus_state(current_app.config, seconds)}


def bus_state(config: Mapping[str, object], seconds: float) -> str:
    """The live-update bus of an app with ``config`` (:func:`~scorekeeper.live.bus.bus_of`)
    and whether it answers: ``"redis: answering"`` or ``"redis: not answering"`` (a
    ``PING`` within ``seconds``); PostgreSQL's and SQLite's are the database, which
    answers when this is asked (``"postgresql: answering"``)."""
    bus = bus_of(config)
    if bus != "redis":
        return f"{bus}: answering"
    import redis

    client = redis.Redis.from_url(
        str(config["REDIS_URL"]), socket_connect_timeout=seconds, socket_timeout=seconds
    )
    try:
        with deadline(seconds):
            client.ping()
    except (redis.RedisError, OSError, Overdue):
        return "redis: not answering"
    finally:
        client.close()
    return "redis: answering"


def _uncached(body: Mapping[str, object]) -> Response:
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response


def register_health(app: Flask) -> None:
    """Add ``/healthz`` to ``app``, and the request deadline (:class:`RequestDeadline`)
    on a database server: a SQLite file cannot stop answering as a server can (its
    waits are bounded by its busy timeout), and a save that waited on its lock is kept,
    not answered 503 after it was written."""
    app.add_url_rule("/healthz", "healthz", healthz, methods=["GET", "HEAD"])
    if str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("sqlite"):
        return
    seconds = float(app.config.get("REQUEST_WAIT_SECONDS", 2.5))
    app.wsgi_app = RequestDeadline(app.wsgi_app, seconds)  # type: ignore[method-assign]


class Overdue(BaseException):
    """A wait ran past its deadline (:func:`deadline`). Like gevent's own ``Timeout``, not
    an ``Exception``: SQLAlchemy then drops the connection it interrupted instead of
    resetting it (a reset would wait on the same silent server), and no handler meant
    for errors swallows it before the deadline's own answer."""


class _NoDeadline:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def deadline(seconds: float) -> AbstractContextManager[object]:
    """A context that raises :class:`Overdue` in the current greenlet when its waits
    last more than ``seconds`` (gevent's ``Timeout``); does nothing outside gevent."""
    if not gevent_serving():
        return _NoDeadline()
    import gevent

    timeout: AbstractContextManager[object] = gevent.Timeout(
        seconds, Overdue(f"no answer within {seconds:g} s")
    )
    return timeout


STREAM_OPENING_SECONDS = 12.0
"""An event stream's opening may wait this long (its gate lets 8 open at once)."""


class RequestDeadline:
    """WSGI middleware: each request's handling waits at most ``REQUEST_WAIT_SECONDS``
    under gevent (see the module), else 503 with ``Retry-After: 5`` and the reason, as
    JSON for the API and JSON routes, else a short page."""

    def __init__(self, wsgi: Callable[..., Iterable[bytes]], seconds: float) -> None:
        self.wsgi = wsgi
        self.seconds = seconds

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if not gevent_serving():
            return self.wsgi(environ, start_response)
        path = str(environ.get("PATH_INFO", ""))
        seconds = STREAM_OPENING_SECONDS if path.endswith("/events") else self.seconds
        try:
            with deadline(seconds):
                return self.wsgi(environ, start_response)
        except Overdue:
            return _overdue(environ, start_response, seconds)


MESSAGE = "the server is waiting for its database: try again in a few seconds"


def _overdue(
    environ: WSGIEnvironment, start_response: StartResponse, seconds: float
) -> Iterable[bytes]:
    path = str(environ.get("PATH_INFO", ""))
    accept = str(environ.get("HTTP_ACCEPT", ""))
    if path.startswith("/api/") or path.endswith(".json") or "application/json" in accept:
        body = json.dumps({"error": MESSAGE, "waited_seconds": seconds}).encode()
        kind = "application/json"
    else:
        body = (
            "<!doctype html><meta charset=utf-8><meta name=viewport "
            'content="width=device-width,initial-scale=1"><title>Try again</title>'
            f"<h1>Try again in a moment</h1><p>The {MESSAGE}.</p>"
        ).encode()
        kind = "text/html; charset=utf-8"
    headers = [
        ("Content-Type", kind),
        ("Content-Length", str(len(body))),
        ("Retry-After", "5"),
        ("Cache-Control", "no-store"),
    ]
    start_response("503 Service Unavailable", headers)
    return [body]
