"""Flask extensions, created without an app and attached in :func:`scorekeeper.app.create_app`."""

from __future__ import annotations

import hmac
import sqlite3
from functools import lru_cache
from typing import Any

from flask import current_app, g, request, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from itsdangerous import BadData, URLSafeTimedSerializer
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base of every table (SQLAlchemy 2.0 typed models)."""


@lru_cache(maxsize=1024)
def _unsigned(secret: str, token: str) -> str | None:
    """The session's value that a signed CSRF token carries, or None when its signature
    is not ``secret``'s (flask-wtf's serializer; the answer depends on nothing else, so
    each process checks a token's signature once)."""
    try:
        value = URLSafeTimedSerializer(secret, salt="wtf-csrf-token").loads(token)
    except BadData:
        return None
    return value if isinstance(value, str) else None


class CSRF(CSRFProtect):  # type: ignore[misc]
    """flask-wtf's CSRF protection on every POST, with a shortcut: a token whose signature
    this process already checked (:func:`_unsigned`), carrying this session's value, is
    let through at once. Everything else (a missing, forged or other session's token;
    over https, where flask-wtf also checks the Referer; tokens with a time limit) goes
    through flask-wtf's own check, with its messages."""

    def protect(self, apply_exemptions: bool = False) -> None:
        """Validate CSRF on the current request (flask-wtf's, shortcut as above)."""
        config = current_app.config
        if request.method == "POST" and not request.is_secure:
            secret = config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key
            token = request.form.get(config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
            timeless = config.get("WTF_CSRF_TIME_LIMIT", 3600) is None
            if isinstance(secret, str) and token and timeless:
                stored = session.get(config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
                value = _unsigned(secret, token)
                if stored and value and hmac.compare_digest(stored, value):
                    g.csrf_valid = True
                    return
        super().protect(apply_exemptions)


db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
csrf = CSRF()
limiter = Limiter(key_func=get_remote_address)
"""Rate limits per client address (``RATELIMIT_*`` settings; storage
``RATELIMIT_STORAGE_URI``, in memory by default)."""
RATE_LIMITED = frozenset({"api", "table.import_game"})
"""The blueprints and endpoints that carry a rate limit (the JSON API, an import);
every other request is let through before the limiter looks up any limit."""


@limiter.request_filter
def _without_limit() -> bool:
    """True (no limit looked up) outside :data:`RATE_LIMITED`."""
    return request.blueprint not in RATE_LIMITED and request.endpoint not in RATE_LIMITED


@event.listens_for(Engine, "connect")
def _sqlite_for_several_workers(connection: Any, _record: Any) -> None:
    """SQLite set up for several worker processes: write-ahead logging, so that phones
    reading a game are not blocked while another saves a round (and a save syncs the disk
    once); wait up to 5 s for another worker's write instead of failing."""
    if isinstance(connection, sqlite3.Connection):
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()
