"""The digital game's public interface: deal, moves, refusals, saving and restoring."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine import (
    ActionError,
    Discard,
    Draw,
    GameSetupError,
    GameState,
    IllegalMove,
    Phase,
    action_from_json,
    apply_action,
    bot_move,
    current_player,
    is_terminal,
    legal_actions,
    make_bot,
    new_game,
    observation,
)
from scorekeeper.engine.cards import parse_card


def test_a_new_game_deals_as_the_rules_say() -> None:
    state = new_game(["Ann", "Bob"], seed=1)
    assert [len(h) for h in state.hands] == [13, 13]  # D3: 13 each with two players
    assert len(state.pile) == 1  # D4: the upcard
    assert len(state.stock) == 52 - 26 - 1
    assert current_player(state) == (state.dealer + 1) % 2  # the dealer's left begins
    assert state.phase is Phase.DRAW
    three = new_game(3, seed=1)
    assert [len(h) for h in three.hands] == [7, 7, 7]
    five = new_game(5, seed=1)
    assert len(five.stock) + len(five.pile) + 35 == 104  # D2: two packs for five


def test_the_same_seed_deals_the_same_game() -> None:
    assert new_game(3, seed=9).to_json() == new_game(3, seed=9).to_json()
    assert new_game(3, seed=9).hands != new_game(3, seed=10).hands


def test_draw_then_discard_passes_the_turn_left() -> None:
    state = new_game(["Ann", "Bob", "Cat"], seed=3)
    seat = current_player(state)
    apply_action(state, Draw("stock"))
    assert len(state.hands[seat]) == 8 and state.phase is Phase.PLAY
    card = state.hands[seat][0]
    apply_action(state, Discard(card))
    assert state.pile[-1] is card
    assert current_player(state) == (seat + 1) % 3


def test_an_illegal_move_is_refused_with_its_rule_and_changes_nothing() -> None:
    state = new_game(["Ann", "Bob"], seed=3)
    before = state.to_json()
    with pytest.raises(IllegalMove) as refused:
        apply_action(state, Discard(state.hands[state.seat][0]))
    assert refused.value.rule == "T1"
    assert state.to_json() == before
    apply_action(state, Draw("stock"))
    with pytest.raises(IllegalMove) as not_held:
        apply_action(state, Discard(parse_card("JK")))
    assert "do not hold" in not_held.value.message


def test_setups_the_game_cannot_play_are_refused() -> None:
    with pytest.raises(GameSetupError, match="D1"):
        new_game(1)
    with pytest.raises(GameSetupError, match="P1"):
        new_game(3, preset="partnership")
    with pytest.raises(GameSetupError, match="X2"):
        new_game(3, options={"dealers_gambit": True, "jokers": 0, "joker_use": "none"})


def test_a_state_saved_as_json_restores_equal_and_plays_on() -> None:
    state = new_game(["Ann", "Bob", "Cat"], preset="jokers-wild", seed=5)
    rng = random.Random(5)
    for _ in range(60):
        apply_action(state, rng.choice(legal_actions(state)))
    saved = json.loads(json.dumps(state.to_json()))
    restored = GameState.from_json(saved)
    assert restored.to_json() == saved
    assert legal_actions(restored) == legal_actions(state)


def test_actions_convert_to_json_and_back() -> None:
    state = new_game(3, preset="modern", seed=2)
    rng = random.Random(2)
    for _ in range(200):
        legal = legal_actions(state)
        for action in legal:
            data = json.loads(json.dumps(action.to_json()))
            assert action_from_json(data) == action
            assert type(action).from_json(data) == action
        apply_action(state, rng.choice(legal))


def test_a_move_of_the_wrong_kind_or_shape_is_refused() -> None:
    with pytest.raises(ActionError, match="not a Discard"):
        Discard.from_json({"type": "draw", "from": "stock"})
    for bad in ({"type": "fly"}, {"type": "discard", "card": "1X"}, [], {"type": "lay_off"}):
        with pytest.raises(ActionError):
            action_from_json(bad)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
MOVE_KEYS = ("type", "from", "index", "card", "meld", "melds", "effect", "dealers_joker")


@given(
    st.dictionaries(st.sampled_from(MOVE_KEYS), JSON_VALUES)
    | st.fixed_dictionaries({"type": JSON_VALUES})
    | JSON_VALUES
)
def test_a_move_of_any_json_shape_is_an_action_or_an_action_error(data) -> None:
    """Whatever JSON a phone sends as a move, the engine names it or refuses it with a
    short message (issue 23: ``{"type": ["draw"]}`` was a TypeError)."""
    try:
        action_from_json(data)
    except ActionError as refused:
        assert len(str(refused)) < 200


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_others() -> None:
    state = new_game(["Ann", "Bob", "Cat"], seed=4)
    view = observation(state, 1)
    assert view.hand == tuple(state.hands[1])
    assert view.hand_sizes == (7, 7, 7)
    shown = view.to_json()
    seen = set(shown["hand"]) | set(shown["pile"])
    hidden = {c.text for seat in (0, 2) for c in state.hands[seat]}
    assert not seen & hidden
    assert "hands" not in shown and "stock" not in shown


@pytest.mark.parametrize("level", ["random", "basic"])
def test_bots_play_a_game_to_the_end(level: str) -> None:
    state = new_game(3, seed=11)
    bot, rng = make_bot(level), random.Random(11)
    for _ in range(20000):
        if is_terminal(state):
            break
        apply_action(state, bot_move(state, bot, rng, legal_actions(state)))
    assert is_terminal(state)
    assert state.winner in state.players
    assert max(state.totals) >= 500


@pytest.mark.parametrize(
    ("preset", "rounds", "target"), [("persian", 2, None), ("quick", None, 100)]
)
def test_the_game_runs_to_its_end_as_the_preset_says(
    preset: str, rounds: int | None, target: int | None
) -> None:
    players = 4 if preset == "persian" else 3
    state = new_game(players, preset=preset, seed=8)
    bot, rng = make_bot("basic"), random.Random(8)
    while not is_terminal(state):
        apply_action(state, bot_move(state, bot, rng, legal_actions(state)))
    if rounds is not None:  # P5: two deals, the better side gets 50
        assert len(state.rounds) == rounds
        assert state.winner is not None and " & " in state.winner
    if target is not None:  # G1: the first to the target
        assert max(state.totals) >= target
        assert state.totals[state.players.index(state.winner)] == max(state.totals)
