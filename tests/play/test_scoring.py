"""The digital game's round scoring, card by card: the scoring contract's answer to each
round as the game record states it must give exactly the engine's own figures, under
every preset and the house rules that change how a round ends."""

from __future__ import annotations

import pytest

from scorekeeper.engine.game import is_terminal, new_game
from scorekeeper.engine.rules import PRESETS
from scorekeeper.play.services import run_bots


def _bots_only(preset: str, options: dict, seed: int, players: int) -> list[dict]:
    state = new_game([f"P{i}" for i in range(players)], preset=preset, options=options, seed=seed)
    steps: list[dict] = []
    scored: list[dict] = []
    run_bots(state, ["basic" if i % 2 else "random" for i in range(players)], steps, scored)
    assert is_terminal(state)
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
