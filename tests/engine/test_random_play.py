"""Random play's shortcuts keep the game exactly as legal: every move :func:`random_action`
draws is one of ``legal_actions``, every kind of legal move can be drawn, the table's
lay-off view kept up to date meld by meld equals the table worked out afresh, and every
meld found in a hand is held by it (what lets the lay-down lister skip that check)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorekeeper.engine.cards import make_pack
from scorekeeper.engine.game import apply_action, is_terminal, legal_actions, new_game
from scorekeeper.engine.hand_bits import held_thrice, lanes, rank_bits
from scorekeeper.engine.moves import (
    accepts,
    hand_melds,
    may_hold_meld,
    melds_card_by_card,
    remove_cards,
    run_table,
)
from scorekeeper.engine.rules import ruleset
from scorekeeper.engine.sampling import random_action
from scorekeeper.engine.state import GameState
from scorekeeper.engine.tables import pair_table, table_accepts
from scorekeeper.engine.taking import meld_pairs

from .test_game_properties import HOUSE_RULES, players_for, random_play

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _kinds(moves: list[Any]) -> set[str]:
    return {type(m).__name__ for m in moves}


@FAST
@given(st.sampled_from(HOUSE_RULES), st.integers(0, 2**31 - 1), st.integers(0, 4))
@example(("modern", {"dealers_gambit": True, "jokers": 4}), 2351068, 0)  # M6 pairs: same order
def test_every_random_move_is_legal_and_every_kind_of_move_can_be_drawn(
    choice: tuple[str, dict[str, Any]], seed: int, extra: int
) -> None:
    preset, options = choice
    state = new_game(players_for(preset, extra), preset=preset, options=options, seed=seed)
    rng = random.Random(seed)
    looked: set[tuple[str, frozenset[str]]] = set()
    for _ in range(300):
        if is_terminal(state):
            break
        legal = legal_actions(state)
        kinds = _kinds(legal)
        key = (state.phase.name, frozenset(kinds))
        if len(kinds) > 1 and key not in looked:
            looked.add(key)
            draws = [random_action(state, random.Random(n)) for n in range(40 * len(legal))]
            assert all(move in legal for move in draws)
            assert _kinds(draws) == kinds
        move = random_action(state, rng)
        assert move in legal
        apply_action(state, move)


def _pairs_afresh(state: GameState) -> dict[Any, list[Any]]:
    found: dict[Any, list[Any]] = {}
    for index, meld in enumerate(state.table):
        for partner, card in meld_pairs(meld, state.rules):
            found.setdefault(card, []).append((partner, index))
    return found


@FAST
@given(st.sampled_from(HOUSE_RULES), st.integers(0, 2**31 - 1), st.integers(0, 4))
def test_the_table_kept_up_to_date_equals_the_table_worked_out_afresh(
    choice: tuple[str, dict[str, Any]], seed: int, extra: int
) -> None:
    for state in random_play(choice, seed, extra, 400):
        assert table_accepts(state) == accepts(state.table, state.rules)
        assert pair_table(state) == _pairs_afresh(state)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(HOUSE_RULES), st.integers(0, 2**31 - 1), st.integers(3, 14))
def test_every_meld_found_in_a_hand_is_held_by_it(
    choice: tuple[str, dict[str, Any]], seed: int, size: int
) -> None:
    preset, options = choice
    rules = ruleset(preset, options)
    pack = make_pack(max(rules.jokers, 2), 2 if seed % 2 else 1)
    hand = random.Random(seed).sample(pack, size)
    for meld in hand_melds(hand, rules):
        assert remove_cards(hand, meld) is not None


def _one_by_one(hand: list[Any]) -> tuple[dict[str, int], int, int, int]:
    bits = {"S": 0, "H": 0, "D": 0, "C": 0}
    once = twice = thrice = 0
    for card in hand:
        bit = 1 << card.rank
        bits[card.suit] |= bit
        thrice |= twice & bit
        twice |= once & bit
        once |= bit
    return bits, once, twice, thrice


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(0, 14), st.booleans())
def test_a_hands_rank_bits_in_one_step_are_its_bits_card_by_card(
    seed: int, size: int, two_packs: bool
) -> None:
    hand = random.Random(seed).sample(make_pack(0, 2 if two_packs else 1), size)
    bits, once, twice, thrice = _one_by_one(hand)
    assert rank_bits(hand) == (bits, once, twice)
    found = lanes(hand)
    if found is not None:
        assert found == (bits["S"], bits["H"], bits["D"], bits["C"])
        assert held_thrice(*found) == thrice
    else:
        assert len(set(hand)) < len(hand)
    for preset in ("standard", "classic"):
        rules = ruleset(preset)
        runs = run_table(rules)
        expected = bool(thrice) or any(runs[b] for b in bits.values())
        assert may_hold_meld(hand, rules) is expected


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(HOUSE_RULES), st.integers(0, 2**31 - 1), st.integers(0, 14))
def test_the_melds_read_from_a_hands_bits_are_the_melds_found_card_by_card(
    choice: tuple[str, dict[str, Any]], seed: int, size: int
) -> None:
    preset, options = choice
    rules = ruleset(preset, options)
    hand = random.Random(seed).sample(make_pack(0, 1), size)  # different natural cards
    assert hand_melds(hand, rules) == melds_card_by_card(hand, rules)
