"""The group's figures on PostgreSQL, where the database sums the stored facts and
numbers a player's games for their streak (window functions) as SQLite does: tests of
:mod:`tests.players.test_figures` and :mod:`tests.players.test_facts` (the stored facts
after every change, the migration filling them, pages and ETags; and attaching and
detaching games, from :mod:`tests.players.test_pages`) run here again on a server
database (the ``night`` below replaces the SQLite one), with the same known answers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.players.conftest import Night
from tests.players.test_facts import (  # noqa: F401 (collected again, on PostgreSQL)
    test_a_deleted_game_has_no_facts_until_it_is_restored,
    test_a_winning_streak_counts_on_and_is_counted_again_after_a_correction,
    test_an_imported_group_has_its_games_facts,
    test_figures_pages_answer_304_until_the_group_changes,
    test_long_lists_come_a_page_at_a_time_in_a_stable_order,
    test_stored_facts_follow_every_change_to_a_game,
    test_the_migration_fills_the_facts_of_existing_games,
)
from tests.players.test_figures import (  # noqa: F401 (collected again, on PostgreSQL)
    history,
    odd_names,
    test_a_corrected_round_changes_the_figures_at_once,
    test_a_deleted_round_no_longer_counts,
    test_a_digital_game_counts_its_stored_rounds_for_the_person_only,
    test_a_name_with_an_accent_or_a_quote_has_its_figures,
    test_a_name_with_an_accent_or_a_quote_has_its_season,
    test_partnership_games_give_favourite_partners_and_split_the_settlement,
    test_profile_figures,
    test_season_league_table_and_csv,
)
from tests.players.test_pages import (  # noqa: F401 (collected again, on PostgreSQL)
    test_a_name_from_an_attached_game_passes_the_groups_name_rules,
    test_a_view_link_cannot_attach_a_game_and_its_edit_link_can,
    test_the_groups_edit_link_detaches_a_game_which_can_then_join_another,
)


@pytest.fixture
def night(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Night]:
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    config = {"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "JOBS": "inline"}
    app: Flask = create_app(config | {"RATELIMIT_ENABLED": False})
    yield Night(app, app.test_client())
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
