"""Fixtures shared by every test: an app on a fresh, migrated SQLite database; a throwaway
PostgreSQL server (:mod:`tests.postgres`)."""

from __future__ import annotations

import functools
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper import create_app
from scorekeeper.extensions import db

pytest_plugins = ["tests.postgres", "tests.redis_server"]
"""The throwaway PostgreSQL server: one per session (per xdist worker), for every test
that asks for ``postgres_url``."""

_KEPT: list[tempfile.TemporaryDirectory[str]] = []


@functools.cache
def _migrated_file() -> Path:
    """A SQLite file migrated to the newest schema once per process, by the app's own
    start-up migration (``MIGRATE_ON_START``: every alembic revision run on an empty file);
    removed when the process ends."""
    folder = tempfile.TemporaryDirectory(prefix="sk-schema-")
    _KEPT.append(folder)
    path = Path(folder.name) / "schema.sqlite3"
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "schema", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}
    )
    with app.app_context():
        db.engine.dispose()  # every connection closed: the write-ahead log checkpointed
    return path


def make_app(db_path: str, **config: object) -> Flask:
    """An app on the SQLite file ``db_path``, migrated to the newest schema (a new file
    starts as a copy of :func:`_migrated_file`; the app's start-up check then finds
    nothing pending); the expert's review of each move in /play is off unless
    ``PLAY_REVIEW`` is given, and an expert bot samples few deals
    (``PLAY_EXPERT_SAMPLES``), for speed."""
    if not Path(db_path).exists():
        shutil.copyfile(_migrated_file(), db_path)
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{db_path}",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
            "PLAY_REVIEW": False,
            "PLAY_EXPERT_SAMPLES": 4,
            "JOBS": "inline",
            **config,
        }
    )


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    """The app with CSRF checks off, for tests that post forms directly."""
    yield make_app(str(tmp_path / "test.sqlite3"))


@pytest.fixture
def csrf_app(tmp_path) -> Iterator[Flask]:
    """The app with CSRF checks on, as in production."""
    yield make_app(str(tmp_path / "test.sqlite3"), WTF_CSRF_ENABLED=True)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
