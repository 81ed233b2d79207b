"""The group's figures on PostgreSQL, where the database reads the rounds' figures with
json_extract_path_text instead of SQLite's json_extract: tests of
:mod:`tests.players.test_figures` run here again on a server database (the ``night``
below replaces the SQLite one), with the same known answers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.players.conftest import Night
from tests.players.test_figures import (  # noqa: F401 (collected again, on PostgreSQL)
    history,
    test_a_corrected_round_changes_the_figures_at_once,
    test_a_deleted_round_no_longer_counts,
    test_partnership_games_give_favourite_partners_and_split_the_settlement,
    test_profile_figures,
    test_season_league_table_and_csv,
)


@pytest.fixture
def night(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Night]:
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    config = {"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
    app: Flask = create_app(config | {"RATELIMIT_ENABLED": False})
    yield Night(app, app.test_client())
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
