"""Flask extensions, created without an app and attached in :func:`scorekeeper.app.create_app`."""

from __future__ import annotations

import logging
import sqlite3
import sys

from flask import request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base of every table (SQLAlchemy 2.0 typed models)."""


db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
csrf = CSRFProtect()
limiter = Limiter(key_func=get_remote_address, swallow_errors=True, in_memory_fallback_enabled=True)
"""Rate limits per client address (``RATELIMIT_*`` settings; storage
``RATELIMIT_STORAGE_URI``, in memory by default). A store that stops answering (Redis
down) never fails a request: flask-limiter logs one warning ("Rate limit storage
unreachable - falling back to in-memory storage") and counts each process's requests
in its own memory until the store answers again ("Rate limit storage recovered",
checked at most every 2, 4, 8... s); ``/healthz`` says whether it answers."""


class LimiterLines(logging.Handler):
    """flask-limiter's warnings and errors (its store down: one line per failure burst)
    and its "Rate limit storage recovered", on the process's stderr (the serve log)
    whatever the root logger's set-up (flask-limiter gives its logger a handler that
    drops everything); not each refused request (its INFO lines)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """True for a warning or worse, or the store's recovery."""
        return record.levelno >= logging.WARNING or "recovered" in record.getMessage()

    def emit(self, record: logging.LogRecord) -> None:
        """Write ``record`` as one line (the stream looked up now: tests swap it)."""
        try:
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:  # a closed stream must not fail the request
            self.handleError(record)


_limiter_log = logging.getLogger("flask-limiter")
_lines = LimiterLines(logging.INFO)
_lines.setFormatter(logging.Formatter("[%(asctime)s] [%(process)d] [%(levelname)s] %(message)s"))
_limiter_log.addHandler(_lines)
_limiter_log.setLevel(logging.INFO)
_limiter_log.propagate = False
RATE_LIMITED = frozenset(
    {
        "api",
        "table.import_game",
        "group_files.import_file",
        "play.index",
        "play.new_table",
        "play.hint",
        "home.join_night",
    }
)
"""The blueprints and endpoints that carry a rate limit (the JSON API, an import, a new
digital game, a room code tried); every other request is let through before the limiter
looks up any limit."""


def hints_limit() -> str:
    """``RATELIMIT_HINTS`` (hints asked per client address, "5 per second;120 per
    minute": the Hint button asks once a second while the expert thinks)."""
    from flask import current_app

    return str(current_app.config.get("RATELIMIT_HINTS", "5 per second;120 per minute"))


def new_games_limit() -> str:
    """``RATELIMIT_NEW_GAMES`` (new digital games per client address, "20 per minute")."""
    from flask import current_app

    return str(current_app.config.get("RATELIMIT_NEW_GAMES", "20 per minute"))


@limiter.request_filter
def _without_limit() -> bool:
    """True (the request exempt: the limiter looks up no limit and counts nothing)
    outside :data:`RATE_LIMITED` (flask-limiter's public request filter)."""
    return request.blueprint not in RATE_LIMITED and request.endpoint not in RATE_LIMITED


@event.listens_for(Engine, "connect")
def _sqlite_for_several_workers(connection: object, _record: object) -> None:
    """SQLite set up for several worker processes: write-ahead logging, so that phones
    reading a game are not blocked while another saves a round (and a save syncs the disk
    once); wait up to 5 s for another worker's write instead of failing."""
    if isinstance(connection, sqlite3.Connection):
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()
