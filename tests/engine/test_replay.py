"""A finished game's record stepped move by move (scorekeeper.engine.replay_steps): every
round's end shows the record's scores, every deal the record's hands, every move is in
words with the rules that allowed it; an unfinished game or a false record is refused."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    ReplayRefused,
    apply_action,
    bot_move,
    is_terminal,
    legal_actions,
    make_bot,
    new_game,
    replay_steps,
)
from scorekeeper.engine.game.records import game_record


def finished(preset: str, seed: int, players: int = 3, options: dict[str, Any] | None = None):
    """The record (as JSON reads it back) of a basic-bots game played to its end."""
    names = ["Ann", "Bob", "Cat", "Dee"][:players]
    state = new_game(names, preset=preset, options=options or {}, seed=seed)
    bot, rng = make_bot("basic"), random.Random(seed)
    while not is_terminal(state):
        apply_action(state, bot_move(state, bot, rng, legal_actions(state)))
    record: dict[str, Any] = json.loads(json.dumps(game_record(state)))
    return record


def check_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Step ``record`` and check the steps against it; returns the steps."""
    steps: list[dict[str, Any]] = json.loads(json.dumps(replay_steps(record)))
    ends = [s for s in steps if s["kind"] == "end"]
    deals = [s for s in steps if s["kind"] == "deal"]
    assert len(ends) == len(deals) == len(record["rounds"])
    rounds = zip(deals, ends, record["rounds"], strict=True)
    for number, (deal, end, stored) in enumerate(rounds, start=1):
        assert deal["round"] == end["round"] == number
        assert end["scores"] == stored["scores"], f"round {number}"
        assert end["totals"] == {p: f["total"] for p, f in stored["scores"].items()}
        left = {p: sorted(h) for p, h in stored["end"]["hands_left"].items()}
        assert {p: sorted(h) for p, h in end["hands"].items()} == left
        dealt = {p: sorted(h) for p, h in stored["hands"].items()}
        assert {p: sorted(h) for p, h in deal["hands"].items()} == dealt
    assert steps[-1] == ends[-1] and steps[-1]["totals"] == record["final"]["totals"]
    moves = [s for s in steps if s["kind"] == "move"]
    assert moves and all(s["player"] in record["players"] and s["rules"] for s in moves)
    assert all(s["text"].startswith(s["player"] + " ") for s in moves)
    return steps


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_stepping_a_game_shows_the_records_scores_at_every_round_end(seed: int) -> None:
    check_steps(finished("quick", seed))


@pytest.mark.parametrize(
    ("preset", "players", "seed"),
    [("jokers-wild", 3, 3), ("partnership", 4, 5), ("persian", 4, 2), ("modern", 2, 8)],
)
def test_every_preset_steps_to_the_records_scores(preset: str, players: int, seed: int) -> None:
    check_steps(finished(preset, seed, players, {"target": 150} if preset != "persian" else None))


def test_each_move_is_in_words_with_the_rule_that_allowed_it() -> None:
    steps = check_steps(finished("quick", 4))
    said = {r["id"] for s in steps for r in s["rules"]}
    assert {"T1", "T4", "T5", "L1", "L3", "O1", "S7", "D3"} <= said
    layoff = next(s for s in steps if " lays off " in s["text"])
    assert "'s meld " in layoff["text"] and layoff["rules"][0]["id"] == "L1"
    down = next(s for s in steps if " lays down " in s["text"])
    assert down["rules"][0]["id"] == "T4" and {"M1", "M3"} & {r["id"] for r in down["rules"]}
    took = next(s for s in steps if "from the discard pile" in s["text"])
    assert [r["id"] for r in took["rules"]][:2] in (["T1", "T2"], ["T1", "T3"])


def test_a_move_step_shows_the_game_after_the_move() -> None:
    steps = check_steps(finished("quick", 6))
    for before, after in zip(steps[:-1], steps[1:], strict=True):
        if after["kind"] != "move" or before["round"] != after["round"]:
            continue
        mover = after["player"]
        if " discards " in after["text"]:
            card = after["pile"][-1]
            assert card in before["hands"][mover] and card not in after["hands"][mover]
        if " draws from the stock" in after["text"]:
            assert after["stock"] == before["stock"] - 1
            assert len(after["hands"][mover]) == len(before["hands"][mover]) + 1
        if " lays down " in after["text"]:
            assert len(after["melds"]) > len(before["melds"])


def test_an_unfinished_game_is_refused_its_hands_stay_hidden() -> None:
    state = new_game(["Ann", "Bob"], preset="quick", seed=1)
    apply_action(state, legal_actions(state)[0])
    record = json.loads(json.dumps(game_record(state)))
    with pytest.raises(ReplayRefused, match="only a finished game"):
        replay_steps(record)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r["rounds"][0]["scores"]["Ann"].update(round=999), "round 1: the scores"),
        (lambda r: r["rounds"][0]["turns"][0].update(discard="ZZ"), "round 1, turn 1"),
        (lambda r: r.update(format="chess"), "not a game record"),
        (lambda r: r["rounds"][0].update(scores=None), "only a finished game"),
    ],
)
def test_a_record_that_lies_is_refused_in_one_sentence(change, words: str) -> None:
    record = copy.deepcopy(finished("quick", 2))
    change(record)
    with pytest.raises(ReplayRefused, match=words) as refused:
        replay_steps(record)
    assert "\n" not in str(refused.value)
