"""Round scoring under every scoring rule, with the seed texts' worked examples."""

from dataclasses import replace

import pytest

from scorekeeper.engine.cards import parse_card, parse_cards
from scorekeeper.engine.rules.ruleset import ruleset
from scorekeeper.engine.scoring.checks import check_round
from scorekeeper.engine.scoring.contract import parse_request
from scorekeeper.engine.scoring.score_round import (
    MeldPlay,
    RoundError,
    RoundPlay,
    card_points,
    hand_points,
    score_round,
    settle,
)
from tests.engine.helpers import cards, round_play

ABC = ["Ann", "Bob", "Cat"]
STANDARD = ruleset("standard")
SIDES = [["Ann", "Cat"], ["Bob", "Dee"]]
FOUR = ["Ann", "Bob", "Cat", "Dee"]


def figures(result, who):
    f = result.players[who]
    return (f.shown, f.in_hand, f.bonus, f.round, f.total)


def test_s11_shown_87_hand_90_takes_3_off_seeds_000_001_004():
    play = round_play(
        ["Ann", "Bob"],
        melds=[("Ann", "AS AH AD"), ("Ann", "10C JC QC"), ("Ann", "3H 4H 5H")],
        hands={"Ann": "KS KH KD KC QS QH QD JS JH", "Bob": "2C"},
        went_out=None,
    )
    result = score_round(STANDARD, play, {"Ann": 100})
    assert figures(result, "Ann") == (87, 90, 0, -3, 97)


def test_s11_variant_of_seed_002_shown_85_hand_90_takes_5_off():
    play = round_play(
        ["Ann", "Bob"],
        melds=[("Ann", "AS AH AD"), ("Ann", "10C JC QC")],
        layoffs=[("Ann", "KC", 1)],
        hands={"Ann": "KS KH KD QS QH QD JS JH JD", "Bob": "2C"},
    )
    assert figures(score_round(STANDARD, play), "Ann") == (85, 90, 0, -5, -5)


@pytest.mark.parametrize(
    ("preset", "options", "meld", "expected"),
    [
        ("standard", {}, "AH 2H 3H", [1, 2, 3]),
        ("standard", {}, "QH KH AH", [10, 10, 15]),
        ("standard", {}, "AH AS AD", [15, 15, 15]),
        ("standard", {"ace_points": "15"}, "AH 2H 3H", [15, 2, 3]),
        ("standard", {"ace_points": "25"}, "AH 2H 3H", [25, 2, 3]),
        ("modern", {}, "QH KH AH", [10, 10, 15]),
        ("modern", {}, "AH 2H 3H", [5, 5, 5]),
        ("modern", {}, "AH AS AD", [15, 15, 15]),
        ("modern", {}, "JK=9H 10H JH", [15, 10, 10]),
        ("quick", {}, "AH 2H 3H", [3, 1, 1]),
        ("quick", {}, "10H JH QH", [2, 2, 2]),
        ("persian", {}, "JK JK JK", [20, 20, 20]),
        ("standard", {"ace_in_run": "round-the-corner"}, "KS AS 2S", [10, 15, 2]),
    ],
)
def test_card_points_in_place_s1_to_s5_s9(preset, options, meld, expected):
    play = round_play(
        ABC if preset != "persian" else FOUR,
        melds=[("Ann", meld)],
        teams=SIDES if preset == "persian" else None,
    )
    result = score_round(ruleset(preset, options), play)
    assert [row.points for row in result.cards if row.where == "meld 0"] == expected


def test_every_card_row_names_its_rule():
    result = score_round(
        STANDARD, round_play(ABC, melds=[("Ann", "AH 2H 3H")], hands={"Bob": "KD"})
    )
    rows = {row.card.text: row for row in result.cards}
    assert rows["AH"].why == "ace low in A-2-3" and rows["AH"].rule == "S1"
    assert rows["2H"].why == "pip value" and rows["2H"].rule == "S4"
    assert rows["KD"].rule == "S2, S7" and "counts against Bob" in rows["KD"].why


def test_ace_in_hand_counts_15_and_joker_in_hand_counts_its_value():
    assert hand_points(cards("AS KD 5C"), STANDARD) == 30
    assert hand_points(cards("AS JK"), ruleset("modern")) == 20
    assert hand_points(cards("JK"), ruleset("persian")) == 20
    assert card_points(cards("7H")[0], ruleset("quick")) == (
        1,
        "5 for each card 2 to 9, divided by five",
        "S4, S9",
    )


P3_CASES = [
    # "four jokers laid down together count 160"
    ([("Ann", "JK JK JK JK")], [], 160, 0),
    # "three jokers laid down count 60, and the fourth joker when added counts only 20 more"
    ([("Ann", "JK JK JK")], [("Cat", "JK", 0)], 60, 20),
    # "Four 6s put down together count 48"
    ([("Ann", "6S 6H 6D 6C")], [], 48, 0),
    # "but three 6s count only 18, and the fourth 6 adds only 6 points"
    ([("Ann", "6S 6H 6D")], [("Cat", "6C", 0)], 18, 6),
]


@pytest.mark.parametrize(("melds", "layoffs", "ann", "cat"), P3_CASES)
def test_p3_persian_doubling_worked_examples_seeds_000_002(melds, layoffs, ann, cat):
    play = round_play(FOUR, melds=melds, layoffs=layoffs, teams=SIDES)
    result = score_round(ruleset("persian"), play)
    assert result.players["Ann"].shown == ann
    assert result.players["Cat"].shown == cat
    assert result.sides["Ann & Cat"].shown == ann + cat


def test_s6_four_aces_at_once_count_100():
    rules = ruleset("modern", four_aces_100=True)
    result = score_round(rules, round_play(ABC, melds=[("Ann", "AS AH AD AC")]))
    assert result.players["Ann"].shown == 100
    result = score_round(
        rules, round_play(ABC, melds=[("Ann", "AS AH AD")], layoffs=[("Ann", "AC", 0)])
    )
    assert result.players["Ann"].shown == 60  # four aces played high, not laid at once


def test_s1_fifteen_played_high_else_five_a_set_of_aces_is_played_high():
    # Seed 002: "Aces played high are worth 15 except in the case where a single player
    # plays a 4-of-a-kind Ace meld, in which case the meld is worth 100 points (25/ea.)".
    # The exception is carved out of aces played high, so a set of aces is played high.
    rules = ruleset("modern")
    play = round_play(ABC, melds=[("Ann", "AS AH AD"), ("Bob", "AC 2C 3C")])
    rows = [(row.card.text, row.where, row.points) for row in score_round(rules, play).cards]
    assert rows[:3] == [("AS", "meld 0", 15), ("AH", "meld 0", 15), ("AD", "meld 0", 15)]
    assert ("AC", "meld 1", 5) in rows  # low in A-2-3
    play = round_play(ABC, melds=[("Cat", "QD KD AD")], hands={"Bob": "AS"}, went_out="Cat")
    rows = [(row.card.text, row.where, row.points) for row in score_round(rules, play).cards]
    assert ("AD", "meld 0", 15) in rows  # high in Q-K-A
    assert ("AS", "hand", 5) in rows  # left in hand


def test_s8_the_player_who_went_out_adds_every_other_hand():
    rules = ruleset("add-opponents-hand")
    play = round_play(
        ABC, melds=[("Ann", "7H 7S 7D")], hands={"Bob": "KD", "Cat": "2S 9H"}, went_out="Ann"
    )
    result = score_round(rules, play)
    assert figures(result, "Ann") == (21, 0, 21, 42, 42)
    assert figures(result, "Bob") == (0, 0, 0, 0, 0)
    assert [n.rule for n in result.notes] == ["S8"]


def test_s8_nobody_out_two_players_each_add_the_opponents_remainder():
    rules = ruleset("add-opponents-hand")
    play = round_play(["Ann", "Bob"], hands={"Ann": "KD", "Bob": "2S 3S"})
    result = score_round(rules, play)
    assert result.players["Ann"].bonus == 5 and result.players["Bob"].bonus == 10


def test_s8_nobody_out_more_players_no_hand_counts():
    rules = ruleset("add-opponents-hand")
    result = score_round(rules, round_play(ABC, hands={"Ann": "KD", "Bob": "2S", "Cat": "3S"}))
    assert all(f.round == 0 for f in result.players.values())


def test_o3_nobody_deducts_when_the_stock_runs_out_modern():
    result = score_round(
        ruleset("modern"), round_play(ABC, melds=[("Ann", "7H 7S 7D")], hands={"Bob": "KD"})
    )
    assert figures(result, "Bob") == (0, 0, 0, 0, 0)
    assert result.players["Ann"].shown == 15


def test_o3_reshuffle_rounds_only_end_when_someone_goes_out():
    with pytest.raises(RoundError, match="only when someone goes out"):
        score_round(ruleset("standard", stock_exhausted="reshuffle"), round_play(ABC))


def test_p1_sides_score_as_a_unit_and_p4_going_out_bonus():
    play = round_play(
        FOUR,
        melds=[("Ann", "7H 7S 7D"), ("Bob", "2C 3C 4C")],
        layoffs=[("Cat", "7C", 0)],
        hands={"Bob": "KD", "Dee": "QS"},
        went_out="Ann",
        teams=SIDES,
    )
    result = score_round(ruleset("persian"), play)
    assert result.players["Ann"].bonus == 25
    assert result.sides["Ann & Cat"].as_dict() == {
        "shown": 28,
        "in_hand": 0,
        "bonus": 25,
        "round": 53,
        "total": 53,
    }
    assert result.sides["Bob & Dee"].round == 9 - 20


def test_l4_partners_lay_off_on_each_others_melds_only_where_allowed():
    play = round_play(FOUR, melds=[("Ann", "7H 7S 7D")], layoffs=[("Cat", "7C", 0)], teams=SIDES)
    assert score_round(ruleset("partnership"), play).players["Cat"].shown == 7
    with pytest.raises(RoundError, match="L4"):
        score_round(ruleset("partnership", partners_lay_off=False), play)


def test_p5_two_deal_game_ends_after_deal_two_with_50_to_the_better_side():
    rules = ruleset("persian")
    play = round_play(FOUR, melds=[("Ann", "7H 7S 7D")], went_out="Ann", teams=SIDES)
    first = score_round(rules, play)
    assert not first.game_over and first.winner is None
    second = score_round(
        rules,
        round_play(FOUR, melds=[("Bob", "8H 8S 8D")], went_out="Bob", teams=SIDES, deal=2),
        {"Ann": 60, "Bob": 0, "Cat": 0, "Dee": 0},
    )
    assert second.game_over and second.winner == "Ann & Cat"
    assert any(n.rule == "P5" and n.points == 50 for n in second.notes)
    # Bob & Dee: 24 shown + 25 for going out = 49; Ann & Cat 60 + 50
    assert second.sides["Ann & Cat"].total == 110
    assert second.settlement[0].points == 110 - 49


def test_s10_only_a_seven_card_run_laid_at_once_then_the_last_card_discarded_scores_500():
    # Seed 002: "If a player lays down a 7-card straight and then discards his last card,
    # he is awarded 500 points."
    rules = ruleset("standard", seven_card_straight=True)
    run = "3H 4H 5H 6H 7H 8H 9H"
    play = RoundPlay(
        players=ABC,
        melds=(MeldPlay("Ann", cards(run), final_turn=True),),
        hands={p: () for p in ABC},
        went_out="Ann",
    )
    result = score_round(rules, play)
    assert result.players["Ann"].bonus == 500 and result.players["Ann"].round == 542
    # Laid turns before she went out, or going out by melding without a discard: no 500.
    earlier = replace(play, melds=(MeldPlay("Ann", cards(run)),))
    assert score_round(rules, earlier).players["Ann"].bonus == 0
    by_play = replace(play, went_out_by="play")
    assert score_round(rules, by_play).players["Ann"].bonus == 0
    # Seven cards in two melds are not a 7-card straight laid down.
    split = replace(
        play,
        melds=(
            MeldPlay("Ann", cards("3H 4H 5H"), True),
            MeldPlay("Ann", cards("6H 7H 8H 9H"), True),
        ),
    )
    assert score_round(rules, split).players["Ann"].bonus == 0


def test_g1_target_and_g2_highest_wins_seeds_000_003_004():
    play = round_play(ABC, melds=[("Ann", "KH KS KD")], hands={"Cat": "2C"}, went_out="Ann")
    result = score_round(STANDARD, play, {"Ann": 480, "Bob": 200, "Cat": 505})
    assert result.game_over and result.winner == "Ann"
    assert [(p.payer, p.points) for p in result.settlement] == [("Bob", 310), ("Cat", 7)]


def test_g2_the_player_who_went_out_wins_seed_002():
    rules = ruleset("standard", tie_break="went-out")
    play = round_play(ABC, melds=[("Bob", "2C 3C 4C")], hands={"Ann": "5D"}, went_out="Bob")
    result = score_round(rules, play, {"Ann": 700, "Bob": 495})
    assert result.winner == "Bob" and result.game_over


def test_a_tie_at_the_top_plays_on():
    play = round_play(ABC, melds=[("Cat", "2C 3C 4C")], went_out="Cat")
    result = score_round(STANDARD, play, {"Ann": 510, "Bob": 510})
    assert not result.game_over and result.winner is None


def test_g4_partnership_highest_over_target_even_if_the_other_side_went_out():
    play = round_play(FOUR, melds=[("Bob", "2C 3C 4C")], went_out="Bob", teams=SIDES)
    totals = {"Ann": 300, "Cat": 260, "Bob": 250, "Dee": 251}
    first = ruleset("partnership", tie_break="went-out")
    assert score_round(first, play, totals).winner == "Bob & Dee"
    highest = first.replace(partnership_winner="highest-over-target")
    assert score_round(highest, play, totals).winner == "Ann & Cat"


def test_g3_settlement_times_the_stake():
    assert [(p.payer, p.points) for p in settle({"A": 510, "B": 300, "C": -20}, "A", 2)] == [
        ("B", 420),
        ("C", 1060),
    ]


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
