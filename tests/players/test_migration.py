"""The groups migration keeps every existing game (at the table and digital): a game
saved before it is read and played on after it, in no group; downgrading removes the
groups and keeps the games."""

from __future__ import annotations

from flask_migrate import downgrade, upgrade

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.table import services as sheet
from tests.players.conftest import totals

BEFORE = "c4d2e8f1a907"


def test_existing_games_are_kept_through_the_groups_migration(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/m.db",
        }
    )
    with app.app_context():
        downgrade(revision=BEFORE)
        # a game saved before groups existed: only the columns of that schema
        game_id = db.session.execute(
            db.text(
                "INSERT INTO games (title, preset, options, first_dealer, entry_mode, view_token, "
                "edit_token, version, created_at, updated_at) VALUES ('Old', 'standard', '{}', 0, "
                "'net', 'oldview', 'oldedit', 1, '2026-01-01', '2026-01-01') RETURNING id"
            )
        ).scalar_one()
        for seat, name in enumerate(["Ann", "Bob"]):
            db.session.execute(
                db.text("INSERT INTO players (game_id, seat, name) VALUES (:g, :s, :n)"),
                {"g": game_id, "s": seat, "n": name},
            )
        db.session.commit()
        upgrade()
        game = sheet.get_game("oldview")
        assert game is not None and game.title == "Old" and game.group_id is None
        assert [(p.name, p.member_id) for p in game.players] == [("Ann", None), ("Bob", None)]
        sheet.record_round(
            game, "totals", totals("Ann", {"Ann": 30, "Bob": 5}, {"Ann": 0, "Bob": 10}), "n1", 1
        )
        downgrade(revision=BEFORE)
        db.session.remove()
        assert db.session.execute(db.text("SELECT count(*) FROM rounds")).scalar_one() == 1
        upgrade()
        assert db.session.execute(db.select(Game)).scalar_one().title == "Old"
