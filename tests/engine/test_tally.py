"""Rounds scored from the table's counted figures (engine.scoring.tally): the same rules as a
round scored card by card, checked against score_round on the same rounds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.rules.ruleset import ruleset
from scorekeeper.engine.scoring.score_round import RoundError, hand_points, score_round
from scorekeeper.engine.scoring.tally import (
    TableCount,
    check_count,
    next_dealer,
    tally_net,
    tally_round,
)
from tests.engine.helpers import cards, round_play

ABC = ("Ann", "Bob", "Cat")


def count(shown, in_hand, went_out="Ann", players=ABC, **kw) -> TableCount:
    return TableCount(
        players,
        dict(zip(players, shown, strict=True)),
        dict(zip(players, in_hand, strict=True)),
        went_out,
        **kw,
    )


def rounds(result):
    return {p: f.round for p, f in result.players.items()}


def test_worked_example_s11_three_points_off():
    result = tally_round(ruleset("standard"), count([0, 87, 0], [0, 90, 0]), {"Bob": 10})
    assert result.players["Bob"].round == -3 and result.players["Bob"].total == 7


def test_add_opponents_hand_s8_goes_to_the_player_who_went_out():
    result = tally_round(ruleset("add-opponents-hand"), count([30, 40, 10], [0, 15, 25]))
    assert rounds(result) == {"Ann": 70, "Bob": 40, "Cat": 10}
    assert [(n.owner, n.points, n.rule) for n in result.notes] == [("Ann", 40, "S8")]


def test_add_opponents_hand_nobody_out_two_players_each_adds_the_other():
    rules = ruleset("add-opponents-hand")
    result = tally_round(rules, count([20, 30], [5, 12], None, players=("Ann", "Bob")))
    assert rounds(result) == {"Ann": 32, "Bob": 35}


def test_stock_out_nobody_deducts_o3():
    result = tally_round(ruleset("modern"), count([20, 30, 5], [5, 12, 40], None))
    assert rounds(result) == {"Ann": 20, "Bob": 30, "Cat": 5}


def test_persian_going_out_bonus_and_sides():
    players = ("Ann", "Bob", "Cat", "Dee")
    teams = (("Ann", "Cat"), ("Bob", "Dee"))
    result = tally_round(
        ruleset("persian"), count([40, 10, 20, 5], [0, 10, 5, 20], players=players, teams=teams)
    )
    assert result.players["Ann"].bonus == 25
    assert result.sides["Ann & Cat"].round == 80 and result.sides["Bob & Dee"].round == -15
    assert not result.game_over  # P5: the game ends after two deals


def test_persian_second_deal_ends_game_with_50():
    players = ("Ann", "Bob", "Cat", "Dee")
    teams = (("Ann", "Cat"), ("Bob", "Dee"))
    c = count([40, 10, 20, 5], [0, 10, 5, 20], players=players, teams=teams, deal_number=2)
    result = tally_round(ruleset("persian"), c)
    assert result.game_over and result.winner == "Ann & Cat"
    assert any(n.rule == "P5" and n.points == 50 for n in result.notes)


def test_seven_card_straight_s10_and_adjustments():
    rules = ruleset("standard", seven_card_straight=True)
    result = tally_round(
        rules, count([49, 0, 0], [0, 0, 0], seven_card_run="Ann", adjust={"Bob": -20})
    )
    assert rounds(result) == {"Ann": 549, "Bob": -20, "Cat": 0}


def test_target_and_settlement():
    result = tally_round(
        ruleset("standard"), count([60, 0, 0], [0, 10, 0]), {"Ann": 450, "Bob": 300, "Cat": 200}
    )
    assert result.game_over and result.winner == "Ann"
    assert [(p.payer, p.points) for p in result.settlement] == [("Bob", 220), ("Cat", 310)]


@pytest.mark.parametrize(
    ("c", "where"),
    [
        (count([10, 0, 0], [5, 0, 0]), "in_hand.Ann"),
        (count([-1, 0, 0], [0, 0, 0]), "shown.Ann"),
        (count([0, 3000, 0], [0, 0, 0]), "shown.Bob"),
        (count([0, 0, 0], [0, 0, 0], adjust={"Cat": 2000}), "adjust.Cat"),
        (count([0, 0, 0], [0, 0, 0], went_out="Zed"), "went_out"),
        (count([0, "x", 0], [0, 0, 0]), "shown.Bob"),
        (count([0, 0, 0], [0, 0, 0], seven_card_run="Bob"), "seven_card_run"),
    ],
)
def test_bad_counts_are_refused(c, where):
    assert where in [w for w, _ in check_count(ruleset("standard"), c)]
    with pytest.raises(RoundError):
        tally_round(ruleset("standard"), c)


def test_reshuffle_rules_need_someone_out():
    problems = check_count(
        ruleset("standard", stock_exhausted="reshuffle"), count([0, 0, 0], [0, 0, 0], None)
    )
    assert problems and problems[0][0] == "went_out"


@pytest.mark.parametrize("preset", ["standard", "add-opponents-hand", "modern", "quick"])
@pytest.mark.parametrize("hand", ["", "KD", "2S 9H", "AS JK", "6D 5D 10H"])
@pytest.mark.parametrize("went_out", ["Ann", None])
def test_same_figures_as_the_card_by_card_score(preset, hand, went_out):
    rules = ruleset(preset)
    if "JK" in hand and not rules.jokers:
        hand = hand.replace("JK", "").strip()
    if went_out is None and rules.stock_exhausted in ("reshuffle", "play-on"):
        return
    play = round_play(
        ABC,
        melds=[("Ann", "7H 7S 7D"), ("Bob", "3C 4C 5C")],
        hands={"Bob": hand, "Cat": "QD"},
        went_out=went_out,
    )
    by_cards = score_round(rules, play)
    shown = {p: f.shown for p, f in by_cards.players.items()}
    in_hand = {p: hand_points(cards({"Bob": hand, "Cat": "QD"}.get(p, "")), rules) for p in ABC}
    by_table = tally_round(rules, TableCount(ABC, shown, in_hand, went_out))
    assert rounds(by_table) == rounds(by_cards)


def test_next_dealer_d5():
    left = ruleset("standard")
    assert next_dealer(left, ABC, 1, ["Ann", None, "Cat"]) == 1
    winner = ruleset("standard", next_dealer="round-winner")
    assert next_dealer(winner, ABC, 0, ["Cat"]) == 2
    assert next_dealer(winner, ABC, 0, ["Cat", None]) == 0


def test_net_round_takes_the_tables_figures_as_they_are():
    """Net figures already hold every bonus: Persian's going-out bonus (P4) is not added
    again, sides are summed (P1), and the totals run on."""
    rules = ruleset("persian")
    four = ("Ann", "Bob", "Cat", "Dee")
    teams = (("Ann", "Cat"), ("Bob", "Dee"))
    c = TableCount(four, {}, {}, "Ann", teams=teams)
    result = tally_net(rules, c, {"Ann": 85, "Bob": -20, "Cat": 30, "Dee": 0}, {"Ann": 100})
    assert rounds(result) == {"Ann": 85, "Bob": -20, "Cat": 30, "Dee": 0}
    assert result.players["Ann"].total == 185
    assert {s: f.round for s, f in result.sides.items()} == {"Ann & Cat": 115, "Bob & Dee": -20}
    assert {n.rule for n in result.notes} == {"S7"}


@pytest.mark.parametrize(
    ("net", "where"),
    [
        ({"Zed": 5}, "net.Zed"),
        ({"Bob": 2001}, "net.Bob"),
        ({"Bob": -2001}, "net.Bob"),
        ({"Bob": "12"}, "net.Bob"),
        ({"Bob": True}, "net.Bob"),
    ],
)
def test_net_round_refuses_bad_figures(net, where):
    with pytest.raises(RoundError) as caught:
        tally_net(ruleset("standard"), count([0, 0, 0], [0, 0, 0]), net)
    assert where in [w for w, _ in caught.value.problems]


def test_net_round_checks_who_went_out():
    with pytest.raises(RoundError) as caught:
        tally_net(ruleset("standard"), count([0, 0, 0], [0, 0, 0], went_out="Zed"), {"Ann": 5})
    assert [w for w, _ in caught.value.problems] == ["went_out"]


@given(st.lists(st.integers(-2000, 2000), min_size=3, max_size=3), st.integers(-500, 500))
def test_net_round_adds_exactly_the_figures_given(figures, before):
    net = dict(zip(ABC, figures, strict=True))
    result = tally_net(ruleset("standard"), count([0, 0, 0], [0, 0, 0]), net, {"Ann": before})
    assert rounds(result) == net
    assert result.players["Ann"].total == before + net["Ann"]
