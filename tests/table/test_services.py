"""The scoresheet services: one transaction per change, versions, nonces, history, undo,
import, standings."""

from __future__ import annotations

import threading

import pytest

from scorekeeper.extensions import db
from scorekeeper.models import Change, Game, Round
from scorekeeper.table import services as sheet
from scorekeeper.table.exchange import BadExport, export_json, read_export
from scorekeeper.table.standings import house_rules, standings

ABC = ("Ann", "Bob", "Cat")


def totals(went_out="Ann", shown=(40, 10, 10), in_hand=(0, 5, 5)):
    return {
        "went_out": went_out,
        "shown": dict(zip(ABC, shown, strict=True)),
        "in_hand": dict(zip(ABC, in_hand, strict=True)),
        "adjust": {},
    }


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield app


def fresh(game_id: int) -> Game:
    db.session.expire_all()
    return db.session.get(Game, game_id)


def count(model) -> int:
    return db.session.execute(db.select(db.func.count()).select_from(model)).scalar_one()


def test_start_game_refuses_bad_rules_and_players(ctx):
    with pytest.raises(sheet.ScoresheetError, match="joker rule"):
        sheet.start_game(ABC, "standard", {"jokers": 2})
    with pytest.raises(sheet.ScoresheetError, match="no preset"):
        sheet.start_game(ABC, "nonsense", {})
    with pytest.raises(sheet.ScoresheetError, match="named differently"):
        sheet.start_game(("Ann", "Ann"), "standard", {})
    with pytest.raises(sheet.ScoresheetError, match="two sides of two"):
        sheet.start_game(ABC, "partnership", {})
    assert count(Game) == 0


def test_record_round_bumps_version_and_logs(ctx):
    game = sheet.start_game(ABC, "standard", {})
    sheet.record_round(game, "totals", totals(), "nonce-1", 1)
    game = fresh(game.id)
    assert game.version == 2 and len(game.changes) == 1
    assert game.rounds[0].figures["players"]["Ann"]["total"] == 40


def test_a_round_after_every_round_was_deleted_is_placed_after_them(ctx):
    """No live round left: the new one is round 1, placed after the deleted ones (which
    keep their places, so undoing their deletion puts them back in order)."""
    game = sheet.start_game(ABC, "standard", {})
    sheet.record_round(game, "totals", totals(), "nonce-1", 1)
    sheet.record_round(fresh(game.id), "totals", totals(), "nonce-2", 2)
    for round_ in fresh(game.id).rounds:
        sheet.delete_round(fresh(game.id), round_, fresh(game.id).version)
    saved = sheet.record_round(fresh(game.id), "totals", totals(), "nonce-3", 5, shown=20)
    assert saved.number == 1 and [r.id for r in saved.latest] == [saved.id]
    assert [r.position for r in fresh(game.id).rounds] == [1, 2, 3]


def test_stale_version_changes_nothing(ctx):
    game = sheet.start_game(ABC, "standard", {})
    sheet.record_round(game, "totals", totals(), "nonce-1", 1)
    with pytest.raises(sheet.StaleVersion):
        sheet.record_round(fresh(game.id), "totals", totals(), "nonce-2", 1)
    assert count(Round) == 1 and count(Change) == 1 and fresh(game.id).version == 2


def test_same_nonce_is_already_saved(ctx):
    game = sheet.start_game(ABC, "standard", {})
    first = sheet.record_round(game, "totals", totals(), "nonce-1", 1)
    with pytest.raises(sheet.AlreadySaved) as caught:
        sheet.record_round(fresh(game.id), "totals", totals(), "nonce-1", 2)
    assert caught.value.round.id == first.id and count(Round) == 1


def test_bad_round_changes_nothing(ctx):
    game = sheet.start_game(ABC, "standard", {})
    with pytest.raises(sheet.ScoresheetError) as caught:
        sheet.record_round(game, "totals", totals(in_hand=(5, 0, 0)), "nonce-1", 1)
    assert caught.value.problems[0][0] == "in_hand.Ann"
    with pytest.raises(sheet.ScoresheetError):
        sheet.record_round(game, "totals", {"shown": [1, 2]}, "nonce-2", 1)
    with pytest.raises(sheet.ScoresheetError):
        sheet.record_round(game, "dice", {}, "nonce-3", 1)
    assert count(Round) == 0 and fresh(game.id).version == 1


def test_phones_saving_at_once_store_one_round(app, tmp_path):
    with app.app_context():
        game_id = sheet.start_game(ABC, "standard", {}).id
    outcomes: list[str] = []

    def save(n: int) -> None:
        with app.app_context():
            game = db.session.get(Game, game_id)
            try:
                sheet.record_round(game, "totals", totals(), f"phone-{n}", 1)
                outcomes.append("saved")
            except sheet.StaleVersion:
                outcomes.append("stale")

    threads = [threading.Thread(target=save, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["saved"] + ["stale"] * 5
    with app.app_context():
        assert count(Round) == 1


def test_correction_moves_game_over_and_undo_redo(ctx):
    game = sheet.start_game(ABC, "standard", {})
    r1 = sheet.record_round(game, "totals", totals(shown=(300, 0, 0)), "n1", 1)
    sheet.record_round(fresh(game.id), "totals", totals(shown=(150, 0, 0)), "n2", 2)
    assert fresh(game.id).finished_at is None
    game = fresh(game.id)
    sheet.correct_round(game, game.rounds[0], "totals", totals(shown=(350, 0, 0)), 1)
    game = fresh(game.id)
    assert game.winner == "Ann" and standings(game).units[0].total == 500
    correction = game.changes[-1]
    undo = sheet.undo_change(game, correction, game.version)
    game = fresh(game.id)
    assert game.winner is None and game.rounds[0].input["shown"]["Ann"] == 300
    sheet.undo_change(game, undo, game.version)  # undoing the undo puts it back
    game = fresh(game.id)
    assert game.winner == "Ann" and db.session.get(Round, r1.id).input["shown"]["Ann"] == 350
    assert [c.action for c in game.changes] == ["record", "record", "correct", "undo", "undo"]


def test_undo_a_record_deletes_the_round_but_keeps_it(ctx):
    game = sheet.start_game(ABC, "standard", {})
    sheet.record_round(game, "totals", totals(), "n1", 1)
    game = fresh(game.id)
    sheet.undo_change(game, game.changes[0], game.version)
    game = fresh(game.id)
    assert sheet.live_rounds(game) == [] and game.rounds[0].deleted
    assert game.rounds[0].input == totals()


def test_standings_dealer_progress_and_settlement(ctx):
    game = sheet.start_game(ABC, "standard", {}, first_dealer=2, stake=None)
    sheet.record_round(game, "totals", totals(shown=(250, 10, 0)), "n1", 1)
    st = standings(fresh(game.id))
    assert st.dealer == "Ann" and st.units[0].needed == 250 and st.units[0].progress == 0.5
    assert st.series == {"Ann": [0, 250], "Bob": [0, 5], "Cat": [0, -5]}


def test_house_rules_in_plain_words(ctx):
    game = sheet.start_game(ABC, "classic", {"min_run": 3})
    rows = house_rules(game)
    assert rows == [
        {
            "id": "M3",
            "title": "Shortest run",
            "value": "3 or more cards in sequence",
            "preset": "4 or more cards in sequence",
        }
    ]


def test_import_is_all_or_nothing(ctx):
    game = sheet.start_game(ABC, "standard", {})
    sheet.record_round(game, "totals", totals(), "n1", 1)
    doc = export_json(fresh(game.id))
    doc["rounds"].append({"mode": "totals", "input": totals(in_hand=(9, 0, 0))})
    with pytest.raises(sheet.ScoresheetError, match="round 2"):
        sheet.import_game(read_export(doc))
    assert count(Game) == 1 and count(Round) == 1
    with pytest.raises(BadExport):
        read_export({"format": "500rum-scoresheet/1", "players": "Ann", "rounds": {}})
