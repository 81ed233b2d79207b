"""Seed 002's pair, taken from the discard pile: the digital game and the checker agree.

Seed 002: "A player may also lay down a pair of cards in sequence of the same suit on a
run or part of a run that has already been laid down", and in the variation that allows
picking up to hit, "a player may pick up from the discard pile to play a single card or
pair of cards on a meld or other cards that have already been laid down".
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    Discard,
    Draw,
    LayOff,
    Phase,
    apply_action,
    legal_actions,
    new_game,
)
from scorekeeper.engine.cards import parse_cards
from scorekeeper.engine.checker.advice import advise
from scorekeeper.engine.melds import check_meld
from scorekeeper.engine.rules.ruleset import RuleSet, ruleset

from .test_turns_scenarios import ANN, BOB, CAT, card, refused, rigged


def checker_allows(rules: RuleSet, pile: str, hand: str, meld: str, *, has_melded: bool) -> bool:
    """What /check answers for taking the top card of ``pile``."""
    table = [check_meld(parse_cards(meld), rules)]
    choice = advise(rules, parse_cards(pile), parse_cards(hand), table, has_melded=has_melded)
    return choice[-1].allowed


def test_the_nine_taken_follows_the_eight_onto_the_run() -> None:
    # Bob's 5H 6H 7H is on the table. Ann holds 8H; the 9H on the pile fits only after it.
    state = rigged(["8H KC QD", "2D", "3D"], pile="2S 9H", table=[(BOB, "5H 6H 7H")])
    assert Draw("discard", 1) in legal_actions(state)
    apply_action(state, Draw("discard", 1))
    assert legal_actions(state) == [LayOff(card("8H"), 0)]
    # Nothing else may come before the 9H is used: not a discard, not another lay-off.
    refused(state, Discard(card("KC")), "T2")
    apply_action(state, LayOff(card("8H"), 0))
    assert state.phase is Phase.MUST_USE
    assert legal_actions(state) == [LayOff(card("9H"), 0)]
    refused(state, Discard(card("KC")), "T2")
    apply_action(state, LayOff(card("9H"), 0))
    assert state.phase is Phase.PLAY
    assert [c.text for c in state.table[0].cards] == ["5H", "6H", "7H", "8H", "9H"]
    apply_action(state, Discard(card("KC")))
    assert state.seat == BOB


def test_a_card_that_is_no_partner_cannot_go_first() -> None:
    state = rigged(["8H KC QD", "2D", "3D"], pile="2S 9H", table=[(BOB, "5H 6H 7H")])
    apply_action(state, Draw("discard", 1))
    message = refused(state, LayOff(card("KC"), 0), "T2")
    assert "pair" in message


def test_no_pair_without_a_neighbour_in_hand() -> None:
    state = rigged(["KC QD 2C", "2D", "3D"], pile="2S 9H", table=[(BOB, "5H 6H 7H")])
    assert Draw("discard", 1) not in legal_actions(state)
    refused(state, Draw("discard", 1), "T2")
    rules = ruleset("standard")
    assert not checker_allows(rules, "2S 9H", "KC QD 2C", "5H 6H 7H", has_melded=True)


def test_the_checker_gives_the_game_s_answer() -> None:
    rules = ruleset("standard")
    assert checker_allows(rules, "2S 9H", "8H KC QD", "5H 6H 7H", has_melded=True)


def test_no_picking_up_to_hit_forbids_the_pair_too() -> None:
    # Seed 002: "you cannot pick up just to play a single card on a meld" (T2, modern).
    state = rigged(
        ["8H KC QD", "2D", "3D"], pile="2S 9H", table=[(BOB, "5H 6H 7H")], preset="modern"
    )
    state.opened = [True, True, True]
    refused(state, Draw("discard", 1), "T2")
    assert not checker_allows(ruleset("modern"), "2S 9H", "8H KC QD", "5H 6H 7H", has_melded=True)


def test_the_partner_may_come_from_the_cards_taken_above() -> None:
    # Taking the 9H from under the 8H brings the 8H too: the pair is 8H then 9H.
    state = rigged(["KC QD 2C", "2D", "3D"], pile="2S 9H 8H", table=[(CAT, "5H 6H 7H")])
    apply_action(state, Draw("discard", 1))
    assert LayOff(card("8H"), 0) in legal_actions(state)
    apply_action(state, LayOff(card("8H"), 0))
    apply_action(state, LayOff(card("9H"), 0))
    assert state.seat == ANN and state.phase is Phase.PLAY


def test_m6_before_the_first_meld_a_taken_card_is_not_laid_off() -> None:
    # Seed 002: "In order to begin scoring all players must lay no less than 30 points for
    # their first score"; the card taken must be used at once, so a lay-off cannot wait
    # for other melds: the game refuses the pick-up, and so does the checker.
    options = {"first_meld_minimum": 30}
    hand = "KC KD KS QH QD QS 2C"
    state = rigged([hand, "2D", "3D"], pile="2S 9H", table=[(BOB, "5H 6H 7H 8H")], options=options)
    refused(state, Draw("discard", 1), "T2")
    rules = ruleset("standard", options)
    assert not checker_allows(rules, "2S 9H", hand, "5H 6H 7H 8H", has_melded=False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["standard", "classic", "add-opponents-hand"]),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 400),
)
def test_the_checker_and_the_game_agree_on_every_pick_up(
    preset: str, seed: int, moves: int
) -> None:
    """Played at random to a draw, each card of the pile may be taken in the game exactly
    when the checker says so (T1, T2, T3, M6, O2 and the pair). Presets without wild
    jokers: with them the game lists fewer melds of one natural and jokers."""
    state = new_game(["Ann", "Bob", "Cat"], preset=preset, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.winner is not None:
            return
        apply_action(state, rng.choice(legal_actions(state)))
    if state.phase is not Phase.DRAW or not state.pile:
        return
    seat = state.seat
    game = {a.index for a in legal_actions(state) if isinstance(a, Draw) and a.source == "discard"}
    advice = advise(
        state.rules, state.pile, state.hands[seat], state.table, has_melded=state.opened[seat]
    )
    assert {c.index for c in advice if c.allowed} == game
