"""Random play keeps the game legal: every meld found in a hand is held by it (what lets
the lay-down lister skip that check), and a hand's lay-offs are those of its cards asked
about one by one (what lets ``layoff_options`` answer "no card fits" at once)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine.cards import make_pack
from scorekeeper.engine.game.hand_melds import hand_melds, remove_cards
from scorekeeper.engine.game.plays import layoff_options
from scorekeeper.engine.game.state import Phase
from scorekeeper.engine.rules.ruleset import ruleset

from .test_game_properties import HOUSE_RULES, random_play

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


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
