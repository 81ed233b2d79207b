"""The engine's fast paths equal its plain paths: one random legal move drawn without
listing every move is exactly the move drawn from ``legal_actions`` with the same random
numbers, and the quick "may this hand hold a meld?" test never misses a meld.

(Where M6 pairs two melds laid together, ``legal_actions`` orders a pair by the melds'
object ids, so two calls may list the pairs differently: there the draw is only checked
for legality.)"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine.cards import make_pack, parse_card, parse_cards
from scorekeeper.engine.checks import RoundPlay, check_round
from scorekeeper.engine.contract import parse_request
from scorekeeper.engine.draws import _quick_run, run_through
from scorekeeper.engine.game import LayDown, apply_action, is_terminal, legal_actions, new_game
from scorekeeper.engine.melds import run_shape
from scorekeeper.engine.moves import hand_melds, may_hold_meld, run_table
from scorekeeper.engine.plays import layoff_options
from scorekeeper.engine.rules import PRESETS, ruleset
from scorekeeper.engine.sampling import random_action
from scorekeeper.engine.scoring import score_round
from scorekeeper.engine.state import Phase

from .test_game_properties import HOUSE_RULES, players_for, random_play
from .test_scoring_properties import random_round

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(st.sampled_from(HOUSE_RULES), st.integers(0, 2**31 - 1), st.integers(0, 4))
def test_random_action_is_the_uniform_draw_from_legal_actions(
    choice: tuple[str, dict[str, Any]], seed: int, extra: int
) -> None:
    preset, options = choice
    state = new_game(players_for(preset, extra), preset=preset, options=options, seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        if is_terminal(state):
            break
        legal = legal_actions(state)
        state_rng = rng.getstate()
        drawn = random_action(state, rng)
        rng.setstate(state_rng)
        expected = legal[rng.randrange(len(legal))]
        if not any(isinstance(a, LayDown) and a.more for a in legal):
            assert drawn == expected
        apply_action(state, drawn)  # refuses a move that is not legal


def test_random_action_reaches_every_legal_move_of_a_play() -> None:
    state = new_game(2, seed=7)
    rng = random.Random(7)
    while state.phase is not Phase.PLAY:
        apply_action(state, random_action(state, rng))
    legal = legal_actions(state)
    drawn = {repr(random_action(state, random.Random(n))) for n in range(60 * len(legal))}
    assert drawn == {repr(a) for a in legal}


def test_random_action_refuses_a_finished_game() -> None:
    state = new_game(2, seed=3)
    rng = random.Random(3)
    while not is_terminal(state):
        apply_action(state, random_action(state, rng))
    try:
        random_action(state, rng)
    except ValueError:
        return
    raise AssertionError("a finished game has no random move")


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(HOUSE_RULES),
    st.integers(0, 2**31 - 1),
    st.integers(3, 14),
)
def test_a_hand_said_to_hold_no_meld_holds_none(
    choice: tuple[str, dict[str, Any]], seed: int, size: int
) -> None:
    preset, options = choice
    rules = ruleset(preset, options)
    pack = make_pack(rules.jokers, 2 if seed % 3 == 0 else 1)
    hand = random.Random(seed).sample(pack, size)
    if not may_hold_meld(hand, rules):
        assert hand_melds(hand, rules) == []


def test_the_quick_meld_test_on_worked_hands() -> None:
    standard = ruleset("standard")
    assert not may_hold_meld(parse_cards("2S 3S 5S 7H 7D KC AC"), standard)
    assert may_hold_meld(parse_cards("2S 3S 4S 7H 9D KC AC"), standard)
    assert may_hold_meld(parse_cards("QS KS AS"), standard)
    assert not may_hold_meld(parse_cards("KS AS 2S 9H"), standard)
    corner = ruleset("standard", ace_in_run="round-the-corner")
    assert may_hold_meld(parse_cards("KS AS 2S"), corner)
    assert may_hold_meld(parse_cards("7H 7D 7C"), standard)
    assert not may_hold_meld(parse_cards("2S 3S 4S 9H"), ruleset("standard", min_run=4))
    assert may_hold_meld(parse_cards("JK 2S 9H"), ruleset("modern"))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from(sorted(PRESETS)))
def test_a_round_scores_the_same_with_cold_and_warm_memos(seed: int, preset: str) -> None:
    request = random_round(seed, preset)
    rules, play, totals = parse_request(request)
    cold = score_round(rules.replace(), play, totals)  # an equal rule set, memos empty
    warm = score_round(rules, play, totals)
    again = score_round(rules, play, totals)
    assert cold.to_json() == warm.to_json() == again.to_json()
    assert [
        {"card": r.card.text, "owner": r.owner, "where": r.where, "points": r.points}
        | {"why": r.why, "rule": r.rule}
        for r in warm.cards
    ] == warm.to_json()["cards"]


def test_the_run_table_answers_as_run_through_for_every_suit_holding() -> None:
    for rules in (
        ruleset("standard"),
        ruleset("classic"),
        ruleset("modern", ace_in_run="round-the-corner", min_run=4),
    ):
        shape, runs = run_shape(rules), run_table(rules)
        for held in range(0, 1 << 14, 2):
            for rank in range(1, 14):
                assert _quick_run(held, rank, runs, shape) == run_through(held, rank, shape)


@FAST
@given(st.sampled_from(HOUSE_RULES), st.integers(0, 2**31 - 1), st.integers(0, 4))
def test_the_lay_offs_of_a_hand_are_those_of_its_cards_one_by_one(
    choice: tuple[str, dict[str, Any]], seed: int, extra: int
) -> None:
    """layoff_options' quick "no card of the hand fits" answer is what asking about each
    card of the hand alone finds, at every PLAY step of random games."""
    for state in random_play(choice, seed, extra, 300):
        if state.phase is Phase.PLAY:
            seat, hand = state.seat, state.hands[state.seat]
            one_by_one = [
                lay_off
                for card in dict.fromkeys(hand)
                if card is not state.must_use
                for lay_off in layoff_options(state, seat, hand, only=card)
            ]
            assert layoff_options(state, seat, hand) == one_by_one


def test_the_pack_check_finds_a_card_twice_and_a_joker_named_in_hand() -> None:
    standard = parse_request(
        {"players": ["Ann", "Bob"], "went_out": "Ann", "hands": {"Ann": [], "Bob": ["7H"]}}
    )[0]
    twice = RoundPlay(("Ann", "Bob"), hands={"Ann": (), "Bob": tuple(parse_cards("7H 7H"))})
    assert (
        "hands.Bob[1]",
        "7♥ appears more often than the pack allows: a single pack has one",
    ) in check_round(standard, twice)
    named = RoundPlay(("Ann", "Bob"), hands={"Ann": (), "Bob": (parse_card("JK=7C"),)})
    assert ("hands.Bob[0]", "in a hand a joker is just JK") in check_round(standard, named)
    once = RoundPlay(("Ann", "Bob"), hands={"Ann": (), "Bob": tuple(parse_cards("7H 8H"))})
    assert check_round(standard, once) == []
