"""Fixtures shared by every test: an app on a fresh, migrated SQLite database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from flask_migrate import upgrade

from scorekeeper import create_app


def make_app(db_path: str, **config: object) -> Flask:
    """An app on the SQLite file ``db_path``, migrated to the newest schema; the expert's
    review of each move in /play is off unless ``PLAY_REVIEW_SAMPLES`` is given, and an
    expert bot samples few deals (``PLAY_EXPERT_SAMPLES``), for speed."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{db_path}",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
            "PLAY_REVIEW_SAMPLES": 0,
            "PLAY_EXPERT_SAMPLES": 4,
            **config,
        }
    )
    with app.app_context():
        upgrade()
    return app


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
