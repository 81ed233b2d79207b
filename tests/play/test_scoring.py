"""The digital game's round scoring, card by card: the scoring contract's answer to each
round as the game record states it must give exactly the engine's own figures, under
every preset and the house rules that change how a round ends."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from scorekeeper.engine import Message, is_terminal, new_game
from scorekeeper.engine.rules.ruleset import PRESETS
from scorekeeper.play.steps import run_bot


def run_bots(state, bots: list, steps: list[dict], scored: list[dict]) -> bool:
    """The bots' moves one at a time, as the queue's jobs make them, until a round ends
    (True while the game goes on) or the game is over (False)."""
    while not is_terminal(state):
        if run_bot(state, bots, steps, scored):
            return not is_terminal(state)
    return False


def _bots_only(preset: str, options: dict, seed: int, players: int) -> list[dict]:
    state = new_game([f"P{i}" for i in range(players)], preset=preset, options=options, seed=seed)
    steps: list[dict] = []
    scored: list[dict] = []
    bots = ["basic" if i % 2 else "random" for i in range(players)]
    pauses = 0
    while run_bots(state, bots, steps, scored):  # the bots stop at each round's end
        pauses += 1
    assert is_terminal(state) and pauses == len(state.rounds) - 1
    assert [s["players"] for s in scored] == [r["scores"] for r in state.rounds]
    assert sum(1 for s in steps if s["kind"] == "round") == len(state.rounds)
    assert steps[-1]["kind"] == "game" and state.winner in steps[-1]["text"]
    return scored


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_round_of_every_preset_is_explained_card_by_card(preset) -> None:
    players = 4 if preset in ("partnership", "persian") else 3
    for scored in _bots_only(preset, {}, 5, players):
        assert scored["cards"], "a round without its cards"
        assert all(row["rule"] for row in scored["cards"])


@pytest.mark.parametrize(
    "options",
    [
        {"rummy_call": "lay-off-only"},
        {"deadwood_after_out": True},
        {"stock_exhausted": "reshuffle"},
        {"stock_exhausted": "draw-from-discard"},
        {"discard_to_go_out": True},
    ],
)
def test_rounds_ended_by_house_rules_are_explained_too(options) -> None:
    for scored in _bots_only("standard", {**options, "target": 200}, 3, 2):
        assert scored["cards"]


def _without_said(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_said(v) for k, v in data.items() if not k.endswith("_said")}
    if isinstance(data, list):
        return [_without_said(v) for v in data]
    return data


def _said(data: Any) -> Iterator[tuple[dict, str]]:
    """Every kept message (``<key>_said``) of ``data`` with the English beside it."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key.endswith("_said"):
                yield value, data[key.removesuffix("_said")]
            else:
                yield from _said(value)
    elif isinstance(data, list):
        for value in data:
            yield from _said(value)


def test_each_round_is_scored_once_and_its_explanation_is_that_scoring(monkeypatch) -> None:
    from scorekeeper.engine.game import deal
    from scorekeeper.engine.game.records import game_record, round_request
    from scorekeeper.engine.scoring import contract, score_round

    made: list[score_round.RoundScore] = []

    def score_once(*args, **kwargs):
        made.append(score_round.score_checked(*args, **kwargs))
        return made[-1]

    def refuse(request):
        raise AssertionError("a digital round was scored a second time, through the contract")

    monkeypatch.setattr(deal, "score_checked", score_once)
    monkeypatch.setattr(contract, "score", refuse)
    state = new_game(["Ann", "Bob", "Cat"], preset="add-opponents-hand", seed=11)
    scored: list[dict] = []
    while run_bots(state, ["random", "basic", "random"], [], scored):
        pass
    assert len(made) == len(state.rounds) == len(scored) > 1
    # each engine sentence is kept as its message beside its English (for each reader's
    # language): the same scoring once those are set aside, and each the same English
    assert _without_said(scored) == [result.to_json() for result in made]
    assert all(str(Message.from_json(said)) == text for said, text in _said(scored))
    monkeypatch.undo()
    record = game_record(state)
    for number, explained in enumerate(scored, start=1):
        assert _without_said(explained) == contract.score(round_request(record, number))
