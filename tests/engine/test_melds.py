"""Melds and lay-offs (M1-M5, M7, P2, L1, L3), with the seed texts' own examples."""

import pytest

from scorekeeper.engine.melds import (
    IllegalMeld,
    check_meld,
    extend,
    extend_with,
    meld_problem,
    run_shape,
)
from scorekeeper.engine.rules.ruleset import ruleset
from tests.engine.helpers import cards

STANDARD = ruleset("standard")
WILD = ruleset("jokers-wild")
PERSIAN = ruleset("persian")
CORNER = ruleset("standard", ace_in_run="round-the-corner")


def meld(text, rules=STANDARD):
    return check_meld(cards(text), rules)


def refusal(text, rules=STANDARD):
    problem = meld_problem(cards(text), rules)
    assert problem is not None, f"{text} should be refused"
    return problem


@pytest.mark.parametrize(
    "text",
    [
        "7H 7S 7D",
        "7H 7S 7D 7C",
        "3D 4D 5D",
        "4D 5D 3D",
        "AS KS QS",
        "AH 2H 3H",
        "9C 10C JC QC KC AC",
    ],
)
def test_legal_melds_seed_001(text):
    assert meld(text).kind in ("set", "run")


def test_runs_are_put_in_order_low_to_high():
    assert [c.text for c in meld("5C 3C 4C").cards] == ["3C", "4C", "5C"]
    assert [c.text for c in meld("AS QS KS").cards] == ["QS", "KS", "AS"]


def test_no_round_the_corner_m4():
    problem = refusal("KS AS 2S")
    assert problem.message == "K♠ A♠ 2♠ goes round the corner, which these rules do not allow"
    assert problem.rules == ("M4",)


def test_round_the_corner_where_the_house_allows_it_m4():
    assert meld("KS AS 2S", CORNER).kind == "run"
    assert [c.text for c in meld("2S KS AS QS", CORNER).cards] == ["QS", "KS", "AS", "2S"]


@pytest.mark.parametrize(
    ("text", "rule", "words"),
    [
        ("7H 7S", "M1", "at least three"),
        ("7H 7S 7D 7C 7C", "M1", "3 or 4 cards"),
        ("7H 8S 9H", "M1", "neither a set"),
        ("7C 9C 10C", "M3", "not a sequence"),
        ("7C 7C 8C", "M3", "same rank twice"),
    ],
)
def test_illegal_melds_say_which_rule_says_no(text, rule, words):
    problem = refusal(text, ruleset("standard", same_suit_in_set="allowed"))
    assert rule in problem.rules and words in problem.message


def test_classic_runs_need_four_cards_m3():
    problem = refusal("3D 4D 5D", ruleset("classic"))
    assert problem.rules == ("M3",) and "at least 4" in problem.message
    assert meld("3D 4D 5D 6D", ruleset("classic")).kind == "run"


def test_two_of_a_suit_in_a_set_m2_seed_003():
    problem = refusal("5C 5C 5H", WILD)
    assert problem.rules == ("M2",)
    assert meld("5C 5C 5H", ruleset("standard", same_suit_in_set="allowed")).kind == "set"


def test_wild_jokers_name_their_card_m5_seed_003():
    assert meld("JK=7C 7H 7S", WILD).kind == "set"
    run = meld("8D JK=9D 10D", WILD)
    assert [c.text for c in run.cards] == ["8D", "JK=9D", "10D"]
    assert "name the card" in refusal("JK 7H 7S", WILD).message
    # a joker may duplicate a card that is elsewhere on the table (seed 003)
    assert meld("JK=7C 7H 7D", WILD).kind == "set"
    assert refusal("JK=7C 7H 7S").rules == ("M5", "D2")


def test_persian_jokers_only_in_sets_of_jokers_p2():
    assert meld("JK JK JK", PERSIAN).kind == "jokers"
    assert meld("JK JK JK JK", PERSIAN).kind == "jokers"
    assert refusal("JK 7H 7S", PERSIAN).rules == ("P2",)
    assert refusal("JK=7C 7H 7S", PERSIAN).rules == ("P2",)


def test_lay_off_names_the_meld_l3_seed_000():
    run = meld("JD 10D 9D")
    queens = meld("QS QH QC")
    queen = cards("QD")[0]
    longer = extend(run, queen, STANDARD)
    assert [c.text for c in longer.cards] == ["9D", "10D", "JD", "QD"]
    # "if the player makes the queen part of the diamond sequence, any player may later
    # add K♦ to that sequence"
    assert extend(longer, cards("KD")[0], STANDARD).high == 13
    assert len(extend(queens, queen, STANDARD).cards) == 4
    with pytest.raises(IllegalMeld):
        extend(run, cards("KD")[0], STANDARD)


def test_lay_off_onto_a_run_at_either_end_seed_003():
    run = meld("9D 10D JD")
    assert extend(run, cards("8D")[0], STANDARD).low == 8
    assert extend(run, cards("QD")[0], STANDARD).high == 12


def test_lay_off_refusals_say_why():
    with pytest.raises(IllegalMeld, match="at most 4") as error:
        extend(meld("7H 7S 7D 7C"), cards("7C")[0], ruleset("standard", two_packs="always"))
    assert error.value.rules == ("M1",)
    with pytest.raises(IllegalMeld, match="round the corner"):
        extend(meld("QS KS AS"), cards("2S")[0], STANDARD)
    assert extend(meld("QS KS AS", CORNER), cards("2S")[0], CORNER).high == 15
    with pytest.raises(IllegalMeld, match="only cards of its suit"):
        extend(meld("9D 10D JD"), cards("QS")[0], STANDARD)
    with pytest.raises(IllegalMeld, match="only a joker"):
        extend(meld("JK JK JK", PERSIAN), cards("7S")[0], PERSIAN)
    with pytest.raises(IllegalMeld, match="only in sets of jokers"):
        extend(meld("7H 7S 7D", PERSIAN), cards("JK")[0], PERSIAN)


def test_a_pair_in_sequence_lays_off_in_the_order_that_fits_seed_002():
    run = meld("5C 6C 7C")
    assert extend_with(run, cards("9C 8C"), STANDARD).high == 9
    with pytest.raises(IllegalMeld):
        extend_with(run, cards("10C JC"), STANDARD)


def test_ace_low_and_high_positions_s1():
    low = meld("AH 2H 3H")
    assert low.ace_is_low(0) and not low.ace_is_high(0)
    high = meld("QH KH AH")
    assert high.ace_is_high(2) and not high.ace_is_low(2)


def _bits(*ranks: int) -> int:
    return sum(1 << rank for rank in ranks)


def test_a_suits_rank_bits_hold_a_run_as_m3_and_m4_allow() -> None:
    standard = run_shape(ruleset("standard")).holds_run
    assert standard[_bits(2, 3, 4)] and standard[_bits(2, 3, 4, 9, 11)]
    assert not standard[_bits(2, 3, 5)] and not standard[_bits(13, 1, 2)]  # K-A-2: M4
    assert standard[_bits(12, 13, 1)] and standard[_bits(1, 2, 3)]  # the ace high or low
    corner = run_shape(ruleset("standard", ace_in_run="round-the-corner")).holds_run
    assert corner[_bits(13, 1, 2)]
    four = run_shape(ruleset("standard", min_run=4)).holds_run
    assert not four[_bits(2, 3, 4)] and four[_bits(2, 3, 4, 5)]  # M3
