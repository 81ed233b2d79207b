"""Narrated scenarios of single rules of the turn, each on a table laid out by hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from scorekeeper.engine import (
    Discard,
    Draw,
    DrawTwo,
    EndRound,
    GameState,
    IllegalMove,
    LayDown,
    LayOff,
    Pass,
    Phase,
    RummyCall,
    apply_action,
    legal_actions,
    new_game,
)
from scorekeeper.engine.cards import parse_card, parse_cards
from scorekeeper.engine.game.state import rebuild_table

ANN, BOB, CAT = 0, 1, 2


def rigged(
    hands: Sequence[str],
    pile: str = "",
    stock: str = "2C 3C 4C 5C 6C 7C 8C 9C",
    *,
    preset: str = "standard",
    options: dict[str, Any] | None = None,
    table: Sequence[tuple[int, str]] = (),
    seat: int = ANN,
) -> GameState:
    """A game whose round is laid out as given: ``hands`` per seat, the ``pile`` bottom to
    top, the ``stock`` next card first, melds on the table as ``(owner, cards)``; ``seat``
    is about to draw."""
    names = ["Ann", "Bob", "Cat", "Dee"][: len(hands)]
    state = new_game(names, preset=preset, options=options, seed=1)
    state.hands = [parse_cards(h) for h in hands]
    state.pile = parse_cards(pile)
    state.stock = list(reversed(parse_cards(stock)))
    state.owners = [owner for owner, _ in table]
    state.laid = [tuple(parse_cards(cards)) for _, cards in table]
    state.table = rebuild_table(state)
    state.opened = [True] * len(names) if not state.rules.first_meld_minimum else state.opened
    state.known = [[] for _ in names]
    state.seat = state.turn_seat = seat
    state.phase = Phase.DRAW
    return state


def meld(text: str, *more: str) -> LayDown:
    return LayDown(tuple(parse_cards(text)), tuple(tuple(parse_cards(m)) for m in more))


def card(text: str) -> Any:
    return parse_card(text)


def refused(state: GameState, action: Any, rule: str) -> str:
    before = state.to_json()
    with pytest.raises(IllegalMove) as error:
        apply_action(state, action)
    assert error.value.rule == rule
    assert state.to_json() == before
    return error.value.message


def test_t1_taking_from_the_pile_takes_every_card_above() -> None:
    # Ann holds two fives; the 5D is second from the bottom of the pile.
    state = rigged(["5H 5S KC", "2D", "3D"], pile="9S 5D JC QH")
    apply_action(state, Draw("discard", 1))
    assert state.pile == parse_cards("9S")
    assert sorted(c.text for c in state.hands[ANN]) == sorted("5H 5S KC 5D JC QH".split())
    assert state.phase is Phase.MUST_USE


def test_t2_the_selected_card_must_be_used_at_once() -> None:
    state = rigged(["5H 5S KC", "2D", "3D"], pile="9S 5D JC")
    assert "use it at once" in refused(state, Draw("discard", 0), "T2")  # the 9S melds nothing
    apply_action(state, Draw("discard", 1))
    refused(state, Discard(card("KC")), "T2")  # no discard before the 5D is used
    refused(state, meld("5H 5S KC"), "M1")
    assert legal_actions(state) == [meld("5H 5S 5D")]
    apply_action(state, meld("5H 5S 5D"))
    assert state.phase is Phase.PLAY


def test_t2_meld_or_lay_off_lets_the_selected_card_be_laid_off() -> None:
    state = rigged(["KC QD", "2D", "3D"], pile="9S 8H", table=[(BOB, "5H 6H 7H")])
    apply_action(state, Draw("discard", 1))
    apply_action(state, LayOff(card("8H"), 0))
    assert state.layoffs == [(ANN, card("8H"), 0)]


def test_t2_new_meld_only_forbids_picking_up_to_hit() -> None:
    options = {"discard_use": "new-meld-only"}
    state = rigged(["KC QD", "2D", "3D"], pile="9S 8H", table=[(BOB, "5H 6H 7H")], options=options)
    assert "no picking up to hit" in refused(state, Draw("discard", 1), "T2")
    state = rigged(
        ["8S 8D 9H", "2D", "3D"], pile="9S 8H", table=[(BOB, "5H 6H 7H")], options=options
    )
    apply_action(state, Draw("discard", 1))
    refused(state, LayOff(card("8H"), 0), "T2")
    apply_action(state, meld("8S 8D 8H"))


def test_t3_the_top_card_alone_may_be_kept_but_not_thrown_back() -> None:
    state = rigged(["2S 9D KC", "2D", "3D"], pile="5D JC", preset="classic")
    apply_action(state, Draw("discard", 1))  # JC melds nothing, yet may be kept
    assert state.phase is Phase.PLAY and state.must_use is None
    refused(state, Discard(card("JC")), "T3")
    apply_action(state, Discard(card("2S")))
    # A card below the top must still be used at once.
    state = rigged(["2S 9D KC", "2D", "3D"], pile="5D JC", preset="classic")
    refused(state, Draw("discard", 0), "T2")


def test_o2_boathouse_needs_a_final_discard() -> None:
    options = {"discard_to_go_out": True}
    # Two threes and a third on the pile: melding them would leave no discard.
    state = rigged(["3S 3H", "2D", "4D"], pile="9S 3D", options=options)
    assert "last card picked up" in refused(state, Draw("discard", 1), "O2")
    state = rigged(["7H 7S 7D", "2D", "4D"], pile="9S", stock="KC 2H", options=options)
    apply_action(state, Draw("stock"))
    apply_action(state, meld("7H 7S 7D"))
    apply_action(state, Discard(card("KC")))
    assert state.rounds[-1]["end"] == {
        "went_out": "Ann",
        "reason": "went out",
        "hands_left": {"Ann": [], "Bob": ["2D"], "Cat": ["4D"]},
    }


def test_o2_the_last_card_of_a_stack_picked_up_is_not_that_turns_discard() -> None:
    # Seed 002: "Under this variation, the last card in a set picked up from the discard
    # pile cannot be used as the discard in that round." Ann holds 3H 3S; the 3C lies
    # under the KC. Taking both, melding 3-3-3 and going out on the KC is not allowed:
    # the KC, the last card picked up, could not be the discard, so the pick-up is refused.
    options = {"discard_to_go_out": True}
    state = rigged(["3H 3S", "2D", "4D"], pile="9S 3C KC", options=options)
    assert Draw("discard", 1) not in legal_actions(state)
    assert "king of clubs, the last card picked up" in refused(state, Draw("discard", 1), "O2")
    # With an 8D besides, she may take them, but must keep the KC and throw the 8D.
    state = rigged(["3H 3S 8D", "2D", "4D"], pile="9S 3C KC", options=options)
    apply_action(state, Draw("discard", 1))
    apply_action(state, meld("3H 3S 3C"))
    refused(state, Discard(card("KC")), "O2")
    assert [a for a in legal_actions(state) if isinstance(a, Discard)] == [Discard(card("8D"))]
    # Without Boathouse the KC may go, and Ann goes out on it.
    state = rigged(["3H 3S", "2D", "4D"], pile="9S 3C KC")
    apply_action(state, Draw("discard", 1))
    apply_action(state, meld("3H 3S 3C"))
    apply_action(state, Discard(card("KC")))
    assert state.rounds[-1]["end"]["went_out"] == "Ann"


def test_o2_refuses_melding_the_last_cards_and_o1_without_it_goes_out() -> None:
    state = rigged(["7H 7S", "2D", "4D"], pile="9S 7D", options={"discard_to_go_out": True})
    refused(state, Draw("discard", 1), "O2")
    state = rigged(["7H 7S", "2D", "4D"], pile="9S 7D")
    apply_action(state, Draw("discard", 1))
    apply_action(state, meld("7H 7S 7D"))  # the last cards: Ann is out at once (O1)
    assert state.rounds[-1]["end"]["went_out"] == "Ann"
    assert state.rounds[-1]["scores"]["Ann"]["shown"] == 21


@pytest.mark.parametrize(("choice", "in_hand"), [("hands-count", 11), ("nobody-deducts", 0)])
def test_o3_the_round_ends_when_the_stock_is_gone(choice: str, in_hand: int) -> None:
    state = rigged(
        ["2S 9D", "JD", "3D"], pile="4H", stock="KC", options={"stock_exhausted": choice}
    )
    apply_action(state, Draw("stock"))
    apply_action(state, Discard(card("KC")))  # Bob would draw from an empty stock
    end = state.rounds[-1]
    assert end["end"]["went_out"] is None and end["end"]["reason"] == "stock exhausted"
    assert end["scores"]["Ann"]["in_hand"] == in_hand


def test_o3_draw_from_the_discard_pile_while_able_and_willing() -> None:
    state = rigged(
        ["2S 9D", "JD JH 2C 9C", "3D"],
        pile="4H",
        stock="JS",
        options={"stock_exhausted": "draw-from-discard"},
    )
    apply_action(state, Draw("stock"))
    apply_action(state, Discard(card("JS")))
    assert legal_actions(state) == [Draw("discard", 1), EndRound()]
    apply_action(state, Draw("discard", 1))
    apply_action(state, meld("JD JH JS"))
    apply_action(state, Discard(card("2C")))
    assert legal_actions(state) == [EndRound()]  # Cat cannot use the 4H
    apply_action(state, EndRound())
    assert state.rounds[-1]["end"]["reason"] == "stock exhausted"


def test_o3_reshuffle_turns_the_pile_into_a_new_stock() -> None:
    state = rigged(
        ["2S 9D", "JD", "3D"], pile="4H 5S 6C", stock="KC", options={"stock_exhausted": "reshuffle"}
    )
    apply_action(state, Draw("stock"))
    apply_action(state, Discard(card("KC")))
    assert state.pile == [card("KC")]
    assert sorted(c.text for c in state.stock) == ["4H", "5S", "6C"]
    assert Draw("stock") in legal_actions(state)


def test_o3_play_on_discarding_until_someone_goes_out() -> None:
    state = rigged(
        ["2S 9D", "JD", "3D"], pile="4H", stock="KC", options={"stock_exhausted": "play-on"}
    )
    apply_action(state, Draw("stock"))
    apply_action(state, Discard(card("KC")))
    assert legal_actions(state) == [Pass()]
    apply_action(state, Pass())
    apply_action(state, Discard(card("JD")))  # Bob's last card: he goes out
    assert state.rounds[-1]["end"]["went_out"] == "Bob"


def test_m6_a_first_meld_must_reach_thirty() -> None:
    state = rigged(["2S 3S 4S 9H 9D 9C KD", "2D", "4D"], stock="QH", preset="modern")
    state.opened = [False, False, False]
    apply_action(state, Draw("stock"))
    assert "30" in refused(state, meld("2S 3S 4S"), "M6")
    assert meld("9H 9D 9C") not in legal_actions(state)  # 5 + 5 + 5 falls short too
    apply_action(state, meld("2S 3S 4S", "9H 9D 9C"))  # 30 together
    assert state.opened[ANN]


def test_m6_no_lay_off_before_opening() -> None:
    state = rigged(["8H 2S", "2D", "4D"], stock="QH", preset="modern", table=[(BOB, "5H 6H 7H")])
    state.opened = [False, True, True]
    apply_action(state, Draw("stock"))
    refused(state, LayOff(card("8H"), 0), "M6")


def test_x1_rummy_lay_off_only_takes_the_discard_out_of_turn() -> None:
    state = rigged(
        ["8H 2S", "2D 3D", "4D 5D"],
        stock="QS KS",
        table=[(BOB, "5H 6H 7H")],
        options={"rummy_call": "lay-off-only"},
    )
    apply_action(state, Draw("stock"))
    apply_action(state, Discard(card("8H")))  # it fits Bob's run: a "Rummy!" is on
    assert state.phase is Phase.RUMMY and state.seat == BOB
    assert legal_actions(state) == [Pass(), RummyCall(0, 0)]
    apply_action(state, Pass())
    assert state.seat == CAT
    apply_action(state, RummyCall(0, 0))
    assert state.layoffs == [(CAT, card("8H"), 0)]
    assert state.phase is Phase.DRAW and state.seat == BOB  # Bob's turn as usual


def test_x1_rummy_play_then_turn_the_caller_plays_on() -> None:
    state = rigged(
        ["8H 2S", "2D 3D", "4D 5D"], stock="QS KS", table=[(BOB, "5H 6H 7H")], preset="jokers-wild"
    )
    apply_action(state, Draw("stock"))
    apply_action(state, Discard(card("8H")))
    apply_action(state, Pass())  # Bob lets it go
    apply_action(state, RummyCall(0))  # Cat calls
    assert state.phase is Phase.MUST_USE and state.seat == CAT
    apply_action(state, LayOff(card("8H"), 0))
    apply_action(state, Discard(card("4D")))
    assert state.seat == ANN  # play passes to Cat's left


def test_t6_boathouse_rum_draws_two_from_the_stock() -> None:
    state = rigged(["2S", "2D", "4D"], stock="QS KS AS", options={"draw_two_from_stock": True})
    assert legal_actions(state)[0] == DrawTwo()
    refused(state, Draw("stock"), "T6")
    apply_action(state, DrawTwo())
    assert [c.text for c in state.hands[ANN]] == ["2S", "QS", "KS"]


def test_t7_a_player_melds_on_another_players_turn() -> None:
    state = rigged(
        ["2S 9H", "2D 4H", "JD JH JS 5C"], stock="QS KS", options={"out_of_turn_melding": True}
    )
    apply_action(state, Draw("stock"))
    apply_action(state, Discard(card("9H")))
    assert state.phase is Phase.OUT_OF_TURN and state.seat == CAT
    apply_action(state, meld("JD JH JS"))
    assert state.phase is Phase.DRAW and state.seat == BOB
    assert state.owners == [CAT]


def test_o4_the_other_player_lays_off_deadwood_onto_the_goers_melds() -> None:
    state = rigged(
        ["7H 7S 7D", "7C 2D"], pile="9S", stock="KC", options={"deadwood_after_out": True}
    )
    apply_action(state, Draw("stock"))
    apply_action(state, meld("7H 7S 7D"))
    apply_action(state, Discard(card("KC")))
    assert state.phase is Phase.DEADWOOD and state.seat == BOB
    apply_action(state, LayOff(card("7C"), 0))
    assert state.rounds[-1]["scores"]["Bob"] == {
        "shown": 7,
        "in_hand": 2,
        "bonus": 0,
        "round": 5,
        "total": 5,
    }


def test_d4_the_player_left_of_the_dealer_starts_the_pile() -> None:
    state = new_game(["Ann", "Bob", "Cat"], options={"first_discard": "extra-card-to-left"}, seed=3)
    left = (state.dealer + 1) % 3
    assert state.phase is Phase.START_PILE and state.seat == left
    assert len(state.hands[left]) == 8 and state.pile == []
    first = state.hands[left][0]
    apply_action(state, Discard(first))
    assert state.pile == [first] and state.phase is Phase.DRAW and state.seat == left


def test_d5_the_winner_of_the_round_deals_next() -> None:
    state = rigged(["7H 7S", "2D", "4D"], pile="9S 7D", options={"next_dealer": "round-winner"})
    apply_action(state, Draw("discard", 1))
    apply_action(state, meld("7H 7S 7D"))
    assert state.dealer == ANN and state.seat == BOB


@pytest.mark.parametrize(("partners", "rule"), [(True, None), (False, "L4")])
def test_l4_partners_lay_off_on_each_others_melds(partners: bool, rule: str | None) -> None:
    state = rigged(
        ["8H 2S", "2D", "4D", "5D"],
        stock="QS",
        table=[(CAT, "5H 6H 7H")],
        preset="partnership",
        options={"partners_lay_off": partners},
    )
    apply_action(state, Draw("stock"))
    if rule:
        refused(state, LayOff(card("8H"), 0), rule)
    else:
        apply_action(state, LayOff(card("8H"), 0))
        assert state.layoffs == [(ANN, card("8H"), 0)]


def test_l3_the_player_names_the_meld_a_card_extends() -> None:
    state = rigged(["QD 2S", "2D", "4D"], stock="5S", table=[(BOB, "9D 10D JD"), (CAT, "QS QH QC")])
    apply_action(state, Draw("stock"))
    assert {a for a in legal_actions(state) if isinstance(a, LayOff)} == {
        LayOff(card("QD"), 0),
        LayOff(card("QD"), 1),
    }
    apply_action(state, LayOff(card("QD"), 0))
    assert [c.text for c in state.table[0].cards] == ["9D", "10D", "JD", "QD"]
    refused(state, LayOff(card("2S"), 1), "M1")


def test_x1_a_rummy_call_under_boathouse_rules_needs_no_discard_of_the_caller() -> None:
    state = rigged(
        ["8H 2S 3S", "2D 3D", "4D 5D"],
        stock="QS KS",
        table=[(BOB, "5H 6H 7H")],
        options={"rummy_call": "lay-off-only", "discard_to_go_out": True},
    )
    apply_action(state, Draw("stock"))
    apply_action(state, Discard(card("8H")))
    assert RummyCall(0, 0) in legal_actions(state)
    apply_action(state, RummyCall(0, 0))
    assert state.layoffs == [(BOB, card("8H"), 0)]


def test_no_rule_limits_a_rounds_turns() -> None:
    # A round ends when someone goes out or the stock runs out (O1, O3), never after a
    # number of turns: however long it has gone on, the stock may still be drawn.
    state = rigged(["2S 9D", "JD", "3D"], pile="4H", stock="KC QD", preset="classic")
    state.turns = 10_000
    assert Draw("stock") in legal_actions(state)
    apply_action(state, Draw("stock"))
    apply_action(state, Discard(card("KC")))
    assert not state.rounds and state.phase is Phase.DRAW


def test_s10_the_500_point_straight_in_the_game() -> None:
    # Seed 002: "If a player lays down a 7-card straight and then discards his last card,
    # he is awarded 500 points."
    options = {"seven_card_straight": True}
    state = rigged(["3H 4H 5H 6H 7H 8H 9H", "2D", "4D"], pile="9S", stock="KC", options=options)
    apply_action(state, Draw("stock"))
    apply_action(state, meld("3H 4H 5H 6H 7H 8H 9H"))
    apply_action(state, Discard(card("KC")))
    assert state.rounds[-1]["scores"]["Ann"]["bonus"] == 500
    # Drawing the seventh card and melding it out without a discard is no straight bonus.
    state = rigged(["3H 4H 5H 6H 7H 8H", "2D", "4D"], pile="9S", stock="9H", options=options)
    apply_action(state, Draw("stock"))
    apply_action(state, meld("3H 4H 5H 6H 7H 8H 9H"))
    assert state.rounds[-1]["end"]["went_out"] == "Ann"
    assert state.rounds[-1]["scores"]["Ann"]["bonus"] == 0
    # Nor a run laid turns before going out.
    state = rigged(
        ["3H 4H 5H 6H 7H 8H 9H KC", "2D", "4D"], pile="9S", stock="QD JC 10C 10H", options=options
    )
    apply_action(state, Draw("stock"))
    apply_action(state, meld("3H 4H 5H 6H 7H 8H 9H"))
    for move in (Discard(card("KC")), Draw("stock"), Discard(card("JC"))):
        apply_action(state, move)
    for move in (Draw("stock"), Discard(card("10C")), Draw("stock"), LayOff(card("10H"), 0)):
        apply_action(state, move)
    apply_action(state, Discard(card("QD")))
    assert state.rounds[-1]["end"]["went_out"] == "Ann"
    assert state.rounds[-1]["scores"]["Ann"]["bonus"] == 0


@pytest.mark.parametrize(
    ("applies", "opened_in_round_two"), [("once-per-game", True), ("every-round", False)]
)
def test_m6_the_first_meld_minimum_once_per_game_or_every_round(
    applies, opened_in_round_two
) -> None:
    # Seed 002: "In order to begin scoring all players must lay no less than 30 points
    # for their first score": read as once per game, a player who opened in round one
    # lays any meld in round two; read as every round, the 30 applies again.
    options = {"first_meld_minimum": 30, "first_meld_applies": applies}
    state = rigged(["KH KS KD", "2D 9S", "4D 8S"], pile="9S", stock="2C 6H", options=options)
    apply_action(state, Draw("stock"))
    apply_action(state, meld("KH KS KD"))
    apply_action(state, Discard(card("2C")))  # Ann goes out: round two is dealt
    assert state.rounds[0]["end"]["went_out"] == "Ann"
    assert len(state.rounds) == 1
    assert state.opened[ANN] is opened_in_round_two
    assert not state.opened[BOB]
    assert state.opened_game == {ANN}  # kept in the state: no need of earlier rounds
    saved = state.to_json()
    stored = GameState.from_json({**saved, "rounds": []})  # a store keeps rounds elsewhere
    older = GameState.from_json({k: v for k, v in saved.items() if k != "opened_game"})
    assert stored.opened_game == older.opened_game == {ANN}  # older: from its rounds


def test_o3_with_x1_no_rummy_call_on_the_discard_after_the_last_stock_card() -> None:
    # Seed 003: "Game play continues until one player, or the stock, has run out of
    # cards. The hand then ends immediately, with no further melding possible."
    state = rigged(
        ["8H 2S", "2D 3D", "4D 5D"], stock="QS", table=[(BOB, "5H 6H 7H")], preset="jokers-wild"
    )
    apply_action(state, Draw("stock"))  # the last stock card
    apply_action(state, Discard(card("8H")))  # it would fit Bob's run: no call now
    end = state.rounds[-1]["end"]
    assert end["reason"] == "stock exhausted" and end["went_out"] is None
    assert not state.layoffs
    # Where players go on drawing from the discard pile (O3), a call is still allowed.
    state = rigged(
        ["8H 2S", "2D 3D", "4D 5D"],
        stock="QS",
        table=[(BOB, "5H 6H 7H")],
        preset="jokers-wild",
        options={"stock_exhausted": "draw-from-discard"},
    )
    apply_action(state, Draw("stock"))
    apply_action(state, Discard(card("8H")))
    assert state.phase is Phase.RUMMY and RummyCall(0) in legal_actions(state)
