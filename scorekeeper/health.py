"""``/healthz``: whether this app can serve, for a reverse proxy or a container's
health check.

200 with ``{"status": "ok", ...}`` when the database answers and its schema is the
code's (the database's alembic revision is the migrations' head); 503 with
``{"status": "unavailable", ...}`` otherwise, saying which. Never rate limited (only
the API and imports are, :data:`scorekeeper.extensions.RATE_LIMITED`), never cached,
and no session cookie is read or set.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Flask, Response, jsonify
from sqlalchemy.exc import SQLAlchemyError

from .extensions import db
from .schema import database_revisions, head_revisions


def healthz() -> tuple[Response, int]:
    """The health answer (see the module's docstring)."""
    head = sorted(head_revisions())
    try:
        with db.engine.connect() as connection:
            current = sorted(database_revisions(connection))
    except SQLAlchemyError:
        body = {"status": "unavailable", "database": "not answering", "schema": {"head": head}}
        return _uncached(body), 503
    schema = {"head": head, "database": current}
    if current != head:
        body = {"status": "unavailable", "database": "answering", "schema": schema}
        return _uncached(body | {"problem": "schema out of date"}), 503
    return _uncached({"status": "ok", "database": "answering", "schema": schema}), 200


def _uncached(body: Mapping[str, object]) -> Response:
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    return response


def register_health(app: Flask) -> None:
    """Add ``/healthz`` to ``app``."""
    app.add_url_rule("/healthz", "healthz", healthz, methods=["GET", "HEAD"])
