"""Game records (shared/game-record.md): written, read back, and refused when they lie."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from scorekeeper import score
from scorekeeper.engine import (
    apply_action,
    bot_move,
    is_terminal,
    legal_actions,
    make_bot,
    new_game,
)
from scorekeeper.engine.game.records import RecordError, game_record, replay, round_request


def finished(preset: str = "standard", players: int = 3, seed: int = 4) -> dict[str, Any]:
    state = new_game(["Ann", "Bob", "Cat", "Dee"][:players], preset=preset, seed=seed)
    bot, rng = make_bot("basic"), random.Random(seed)
    while not is_terminal(state):
        apply_action(state, bot_move(state, bot, rng, legal_actions(state)))
    record: dict[str, Any] = json.loads(json.dumps(game_record(state)))
    return record


def test_a_record_has_the_documented_shape() -> None:
    record = finished()
    assert record["format"] == "500rum-record/1"
    assert record["rules"] == {"preset": "standard", "options": {}}
    assert record["players"] == ["Ann", "Bob", "Cat"] and record["teams"] is None
    first = record["rounds"][0]
    assert set(first) >= {"dealer", "hands", "upcard", "stock", "turns", "end", "scores"}
    assert len(first["stock"]) == 52 - 21 - 1
    turn = first["turns"][0]
    assert set(turn) >= {"player", "draw", "melds", "layoffs", "discard"}
    assert turn["draw"]["from"] in ("stock", "discard")
    winner = record["final"]["winner"]
    assert record["final"]["totals"][winner] >= 500


def test_a_record_replays_to_the_same_game() -> None:
    record = finished("partnership", 4)
    state = replay(record)
    assert state.winner == record["final"]["winner"]
    assert [r["scores"] for r in state.rounds] == [r["scores"] for r in record["rounds"]]


def test_each_round_of_a_record_scores_the_same_through_the_contract() -> None:
    record = finished("modern")
    for number, stored in enumerate(record["rounds"], start=1):
        assert score(round_request(record, number))["players"] == stored["scores"]


def test_a_record_that_breaks_a_rule_is_refused_saying_where() -> None:
    record = finished()
    bad = copy.deepcopy(record)
    turns = bad["rounds"][0]["turns"]
    turns[1]["discard"] = "JK"  # Bob never held a joker
    with pytest.raises(RecordError) as error:
        replay(bad)
    assert (error.value.round, error.value.turn) == (1, 2)
    assert "round 1, turn 2" in str(error.value) and "do not hold" in str(error.value)


def test_a_record_taking_an_unusable_pile_card_is_refused_with_t2() -> None:
    record = finished()
    bad = copy.deepcopy(record)
    turn = bad["rounds"][0]["turns"][0]
    turn["draw"] = {"from": "discard", "index": 0}
    turn["melds"], turn["layoffs"], turn["plays"] = [], [], []
    with pytest.raises(RecordError, match=r"\(T[12]\)"):
        replay(bad)


def test_changed_scores_and_deals_are_refused() -> None:
    record = finished()
    wrong_score = copy.deepcopy(record)
    wrong_score["rounds"][0]["scores"]["Ann"]["round"] += 5
    with pytest.raises(RecordError, match="scores differ"):
        replay(wrong_score)
    wrong_deal = copy.deepcopy(record)
    wrong_deal["rounds"][0]["hands"]["Ann"][0] = wrong_deal["rounds"][0]["hands"]["Bob"][0]
    with pytest.raises(RecordError, match="D2"):
        replay(wrong_deal)


def test_a_turn_field_the_reader_does_not_know_is_named_not_guessed() -> None:
    record = finished()
    record["rounds"][0]["turns"][0]["gambit"] = "wild"
    with pytest.raises(RecordError, match="does not know the turn field"):
        replay(record)


def test_not_a_record_is_refused() -> None:
    with pytest.raises(RecordError, match="format"):
        replay({"format": "something else"})
    with pytest.raises(RecordError):
        replay({"format": "500rum-record/1", "rules": {"preset": "nope"}, "players": ["A"]})
