"""Bots choose legal moves from their seat's view only, and the strong one wins more."""

from __future__ import annotations

import random

import pytest

from scorekeeper.engine.game import (
    BOTS,
    apply_action,
    is_terminal,
    legal_actions,
    make_bot,
    new_game,
    observation,
)
from scorekeeper.engine.simulate import play_game


@pytest.mark.parametrize("level", sorted(BOTS))
@pytest.mark.parametrize("preset", ["standard", "modern", "jokers-wild", "persian"])
def test_every_bot_picks_a_legal_move_from_its_view(level: str, preset: str) -> None:
    state = new_game(4, preset=preset, seed=7)
    bot, rng = make_bot(level), random.Random(7)
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
