"""The discard-pile advice and meld explanations (scorekeeper.engine.checker.advice): T1, T2, T3,
M6 and O2, with meld legality from the melds module."""

from __future__ import annotations

import pytest

from scorekeeper.engine.cards import parse_card, parse_cards
from scorekeeper.engine.checker.advice import advise, best_melds_points, layoff_uses
from scorekeeper.engine.checker.candidates import candidate_melds
from scorekeeper.engine.checker.explain import meld_reasons
from scorekeeper.engine.melds import check_meld
from scorekeeper.engine.rules.ruleset import ruleset


def by_card(choices):
    return {c.card.text: c for c in choices}


def texts(use):
    return " ".join(c.text for c in use.cards)


STANDARD = ruleset("standard")


def test_every_card_of_the_pile_is_answered_bottom_first():
    choices = advise(STANDARD, parse_cards("9D KC 8C 4H"), parse_cards("9S 9H 2D QS"))
    assert [c.card.text for c in choices] == ["9D", "KC", "8C", "4H"]
    assert [c.index for c in choices] == [0, 1, 2, 3]


def test_t1_taking_a_card_takes_every_card_above_it():
    choice = advise(STANDARD, parse_cards("9D KC 8C"), parse_cards("9S 9H"))[0]
    assert [c.text for c in choice.taken] == ["9D", "KC", "8C"]
    assert "the 2 cards above it (K♣ 8♣) (T1)" in choice.must
    assert "T1" in choice.rules


def test_t2_selected_card_must_make_a_meld_with_hand_or_cards_above():
    choices = by_card(advise(STANDARD, parse_cards("9D 10D KC"), parse_cards("JD 2S 3H")))
    assert choices["9D"].allowed
    assert [texts(u) for u in choices["9D"].uses] == ["9D 10D JD"]
    assert not choices["KC"].allowed
    assert "no meld or lay-off uses it" in choices["KC"].must
    assert "(T2)" in choices["KC"].must


def test_t2_lay_off_counts_under_meld_or_lay_off():
    table = [check_meld(parse_cards("5C 6C 7C"), STANDARD)]
    choice = advise(STANDARD, parse_cards("8C"), parse_cards("2D 9S"), table)[0]
    assert choice.allowed
    (use,) = choice.uses
    assert (use.kind, use.onto, texts(use), use.points) == ("lay-off", 0, "8C", 8)


def test_t2_new_meld_only_forbids_picking_up_to_hit():
    rules = ruleset("standard", discard_use="new-meld-only")
    table = [check_meld(parse_cards("5C 6C 7C"), rules)]
    choice = advise(rules, parse_cards("8C"), parse_cards("2D 9S"), table)[0]
    assert not choice.allowed
    assert "never only to lay it off (T2)" in choice.must


def test_t3_top_card_alone_may_be_kept_under_may_keep_only():
    pile, hand = parse_cards("3H KS"), parse_cards("2D")
    assert not advise(STANDARD, pile, hand)[1].allowed
    classic = by_card(advise(ruleset("classic"), pile, hand))
    assert classic["KS"].allowed and classic["KS"].may_keep
    assert "(T3)" in classic["KS"].must
    assert not classic["3H"].allowed and not classic["3H"].may_keep


def test_o2_boathouse_needs_a_discard_other_than_the_card_picked_up():
    rules = ruleset("standard", discard_to_go_out=True)
    choice = advise(rules, parse_cards("3H"), parse_cards("3D 3S"))[0]
    assert not choice.allowed
    assert "(O2)" in choice.must and "O2" in choice.rules
    assert advise(STANDARD, parse_cards("3H"), parse_cards("3D 3S"))[0].allowed
    assert advise(rules, parse_cards("3H"), parse_cards("3D 3S 9C"))[0].allowed


def test_m6_first_meld_must_reach_the_minimum():
    rules = ruleset("standard", first_meld_minimum=30)
    pile, hand = parse_cards("2S"), parse_cards("2H 2D 9C")
    low = advise(rules, pile, hand, has_melded=False)[0]
    assert not low.allowed and "(M6)" in low.must and "M6" in low.rules
    assert advise(rules, pile, hand, has_melded=True)[0].allowed


def test_m6_other_melds_of_the_turn_count_towards_the_minimum():
    rules = ruleset("standard", first_meld_minimum=30)
    choice = advise(rules, parse_cards("2S"), parse_cards("2H 2D KC KD KH"), has_melded=False)[0]
    assert choice.allowed
    assert "(M6)" in choice.uses[0].note


def test_round_the_corner_meld_only_where_allowed():
    pile, hand = parse_cards("KS"), parse_cards("AS 2S")
    assert not advise(STANDARD, pile, hand)[0].allowed
    corner = ruleset("standard", ace_in_run="round-the-corner")
    (use,) = advise(corner, pile, hand)[0].uses
    assert texts(use) == "KS AS 2S"


def test_wild_joker_in_hand_fills_a_gap():
    rules = ruleset("jokers-wild")
    melds = candidate_melds(parse_card("7H"), parse_cards("9H JK"), rules)
    assert "7H JK=8H 9H" in {" ".join(c.text for c in m.cards) for m in melds}


def test_joker_taken_from_the_pile_is_declared_when_laid_off():
    rules = ruleset("jokers-wild")
    table = [check_meld(parse_cards("5C 6C 7C"), rules)]
    uses = layoff_uses(parse_card("JK"), [], table, rules)
    assert {texts(u) for u in uses} == {"JK=4C", "JK=8C"}


def test_persian_jokers_only_in_sets_of_jokers():
    rules = ruleset("persian")
    melds = candidate_melds(parse_card("JK"), parse_cards("JK JK 5H 6H"), rules)
    assert {len(m.cards) for m in melds} == {3}
    assert all(m.kind == "jokers" for m in melds)


def test_pair_lay_off_when_the_card_alone_does_not_fit():
    table = [check_meld(parse_cards("5C 6C 7C"), STANDARD)]
    uses = layoff_uses(parse_card("9C"), parse_cards("8C 2D"), table, STANDARD)
    assert [texts(u) for u in uses] == ["9C 8C"]


def test_best_melds_points_finds_separate_melds():
    assert best_melds_points(parse_cards("KC KD KH 2S 3S 4S"), STANDARD) == 39
    assert best_melds_points(parse_cards("KC 2S"), STANDARD) == 0


@pytest.mark.parametrize(
    ("preset", "options", "cards", "ids"),
    [
        ("standard", {}, "7H 7S 7D", ["M1"]),
        ("standard", {"same_suit_in_set": "allowed"}, "7H 7H 7D", ["M1", "M2"]),
        ("standard", {}, "AS 2S 3S", ["M3", "M4"]),
        ("standard", {"ace_in_run": "round-the-corner"}, "KS AS 2S", ["M3", "M4"]),
        ("jokers-wild", {}, "7H JK=8H 9H", ["M3", "M5"]),
        ("persian", {}, "JK JK JK", ["P2"]),
    ],
)
def test_meld_reasons_name_the_rules(preset, options, cards, ids):
    rules = ruleset(preset, options)
    reasons = meld_reasons(check_meld(parse_cards(cards), rules), rules)
    assert [rule for rule, _ in reasons] == ids


def test_round_the_corner_reason_says_so():
    rules = ruleset("modern", ace_in_run="round-the-corner")
    reasons = dict(meld_reasons(check_meld(parse_cards("KS AS 2S"), rules), rules))
    assert "corner" in reasons["M4"]


def test_advice_and_explain_import_no_web_framework():
    import subprocess
    import sys

    code = (
        "import sys, scorekeeper.engine.checker.advice, scorekeeper.engine.checker.explain;"
        "sys.exit(any(m in sys.modules for m in ('flask', 'sqlalchemy', 'wtforms')))"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_o2_the_checker_and_the_game_agree_on_a_deep_pick_up():
    # Seed 002: "the last card in a set picked up from the discard pile cannot be used as
    # the discard in that round": 3C under KC, with 3H 3S in hand, may not be taken.
    rules = ruleset("standard", discard_to_go_out=True)
    choice = advise(rules, parse_cards("9S 3C KC"), parse_cards("3H 3S"))[1]
    assert not choice.allowed and "K♣, the last card you picked up" in choice.must
    assert advise(rules, parse_cards("9S 3C KC"), parse_cards("3H 3S 8D"))[1].allowed
