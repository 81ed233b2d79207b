"""Bots choose legal moves from their seat's view only, and the strong one wins more."""

from __future__ import annotations

import random

import pytest

from scorekeeper.engine import (
    BOTS,
    Draw,
    Phase,
    apply_action,
    is_terminal,
    legal_actions,
    make_bot,
    new_game,
    observation,
)
from scorekeeper.engine.bots import simulate
from scorekeeper.engine.bots.simulate import play_game
from scorekeeper.engine.cards import parse_cards
from scorekeeper.engine.game.records import replay


@pytest.mark.parametrize("level", sorted(BOTS))
@pytest.mark.parametrize("preset", ["standard", "modern", "jokers-wild", "persian"])
def test_every_bot_picks_a_legal_move_from_its_view(level: str, preset: str) -> None:
    state = new_game(4, preset=preset, seed=7)
    bot, rng = make_bot(level, samples=2), random.Random(7)
    for _ in range(300):
        if is_terminal(state):
            break
        legal = legal_actions(state)
        move = bot.choose(observation(state, state.seat), legal, rng)
        assert move in legal
        apply_action(state, move)


def test_a_view_holds_no_other_hand() -> None:
    state = new_game(3, seed=2)
    view = observation(state, 0)
    assert view.hand == tuple(state.hands[0])
    assert not hasattr(view, "hands") and not hasattr(view, "stock")


def test_unknown_bot_levels_are_refused() -> None:
    with pytest.raises(ValueError, match="no bot level"):
        make_bot("genius")


def test_the_strong_bot_beats_the_basic_bot_more_often_than_not() -> None:
    wins = 0
    games = 24
    for seed in range(games):
        seating = ["strong", "basic"] if seed % 2 == 0 else ["basic", "strong"]
        result = play_game(2, seating, seed=seed)
        wins += any(seating[s] == "strong" for s in result.winners)
    assert wins / games > 0.6


def test_the_same_seed_plays_the_same_game() -> None:
    first = play_game(3, ["strong", "basic", "random"], seed=5)
    again = play_game(3, ["strong", "basic", "random"], seed=5)
    assert (first.totals, first.rounds, first.turns) == (again.totals, again.rounds, again.turns)


def test_a_view_does_not_show_the_order_of_a_reshuffled_stock() -> None:
    state = new_game(2, options={"stock_exhausted": "reshuffle"}, seed=3)
    rng = random.Random(3)
    while state.reshuffles == 0 and not is_terminal(state):
        legal = legal_actions(state)
        apply_action(state, legal[rng.randrange(len(legal))])
    assert any(seat < 0 for seat, _ in state.log)  # the game keeps it for its record
    view = observation(state, state.seat)
    assert all(seat >= 0 for seat, _ in view.moves)
    assert view.stock_size == len(state.stock)


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_bots_never_take_the_top_discard_only_to_keep_it(level: str) -> None:
    # Classic (T3): the top card alone may be kept without using it. A bot that takes it
    # for nothing, then throws another card the next bot takes for nothing, would keep
    # the round going for ever: no rule text limits a round's turns.
    state = new_game(2, preset="classic", seed=4)
    state.hands[0] = parse_cards("2S 5D 9C JH KS 4H 7C")
    state.pile = parse_cards("QD")
    legal = legal_actions(state)
    assert Draw("discard", 0) in legal  # the rules allow it (T3)
    move = make_bot(level).choose(observation(state, 0), legal, random.Random(1))
    assert move == Draw("stock")
    state.hands[0] = parse_cards("2S 5D 9C JH KS QH QC")
    move = make_bot(level).choose(observation(state, 0), legal_actions(state), random.Random(1))
    assert move == Draw("discard", 0)  # QD melds with QH QC: a gain


@pytest.mark.parametrize("level", ["random", "basic", "strong"])
def test_classic_bot_games_end_by_the_rules_without_the_guard(level: str) -> None:
    for seed in range(6):
        result = play_game(2, [level, "strong"], preset="classic", seed=seed, keep_record=True)
        assert result.winners and not result.stopped
        assert result.record is not None
        reasons = {r["end"]["reason"] for r in result.record["rounds"]}
        assert reasons <= {"went out", "stock exhausted"}


def test_the_simulators_guard_ends_a_game_unfinished_and_honestly(monkeypatch) -> None:
    monkeypatch.setattr(simulate, "MAX_ROUND_TURNS", 4)
    result = play_game(2, ["basic", "basic"], seed=3, keep_record=True)
    record = result.record
    assert result.stopped and result.winners == [] and record is not None
    last = record["rounds"][-1]
    assert last["end"]["reason"] == "simulation limit" and last["scores"] is None
    assert record["final"]["winner"] is None
    assert replay(record).phase is Phase.GAME_OVER
    assert simulate.simulate(2, 2, seed=3).to_json()["stopped_at_guard"] == 2
