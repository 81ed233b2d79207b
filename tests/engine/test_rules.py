"""The rule set: one option per catalogue row, the eight presets, overrides, errors."""

import re

import pytest

from scorekeeper.engine.rules.ruleset import OPTIONS, PRESETS, RulesError, RuleSet, ruleset
from tests.engine.helpers import ROW_IDS, SHARED

CATALOGUE = SHARED / "rules-catalogue.md"


def test_every_catalogue_row_is_an_option():
    covered = {i for info in OPTIONS.values() for i in info.ids}
    assert set(ROW_IDS) <= covered
    if CATALOGUE.exists():
        in_file = set(re.findall(r"^\| ([A-Z]\d+) \|", CATALOGUE.read_text(), re.M))
        assert in_file == set(ROW_IDS)


def test_every_option_is_documented_with_its_id():
    doc = RuleSet.__doc__ or ""
    for name, info in OPTIONS.items():
        assert f"``{name}``" in doc, name
        assert info.title and info.id
        assert info.check(info.default) is None, name


def test_the_eight_presets_by_name():
    assert list(PRESETS) == [
        "standard",
        "classic",
        "modern",
        "jokers-wild",
        "add-opponents-hand",
        "partnership",
        "persian",
        "quick",
    ]
    for name in PRESETS:
        assert isinstance(ruleset(name), RuleSet)


def test_standard_is_the_card_maker_rules():
    rules = ruleset("standard")
    assert rules.cards_dealt == "13-for-two" and rules.hand_size(2) == 13
    assert rules.hand_size(3) == 7
    assert rules.ace_points == "15-low-1" and rules.low_card_points == "pip"
    assert not rules.discard_to_go_out and rules.stock_exhausted == "hands-count"
    assert rules.tie_break == "highest" and rules.settlement == "difference"
    assert rules.pack_size(4) == 52 and rules.pack_size(5) == 104


def test_presets_change_the_catalogue_rows():
    classic = ruleset("classic")
    assert (classic.hand_size(2), classic.min_run, classic.top_discard) == (7, 4, "may-keep")
    modern = ruleset("modern")
    assert modern.pack_size(3) == 54 and modern.joker_use == "wild"
    assert modern.first_meld_minimum == 30 and modern.discard_use == "new-meld-only"
    assert modern.stock_exhausted == "nobody-deducts" and modern.tie_break == "went-out"
    jokers = ruleset("jokers-wild")
    assert jokers.rummy_call == "play-then-turn" and jokers.same_suit_in_set == "forbidden"
    assert ruleset("add-opponents-hand").add_opponents_hand
    assert ruleset("partnership").partnership and ruleset("partnership").partners_lay_off
    persian = ruleset("persian")
    assert persian.pack_size(4) == 56 and persian.joker_points == 20
    assert persian.meld_of_four_doubles and persian.going_out_bonus == 25
    assert persian.two_deal_game
    quick = ruleset("quick")
    assert quick.divide_by_five and quick.target == 100 and quick.ace_points == "15"


def test_options_override_by_name_and_differences_are_listed():
    rules = ruleset("classic", {"min_run": 3}, ace_in_run="round-the-corner")
    assert rules.min_run == 3
    assert rules.differences("classic") == [
        ("min_run", 4, 3),
        ("ace_in_run", "high-or-low", "round-the-corner"),
    ]
    assert rules.replace(target=250).target == 250
    assert ruleset("standard").differences("standard") == []


@pytest.mark.parametrize(
    ("preset", "options", "where", "message"),
    [
        ("nope", {}, "preset", "no preset called 'nope'"),
        ("standard", {"bogus": 1}, "bogus", "no house rule called 'bogus'"),
        ("standard", {"min_run": 7}, "min_run", "one of 3, 4"),
        ("standard", {"min_run": "3"}, "min_run", "one of 3, 4"),
        ("standard", {"partnership": 1}, "partnership", "one of False, True"),
        ("standard", {"target": 10**9}, "target", "from 50 to 10000"),
        ("standard", {"target": True}, "target", "whole number"),
        ("standard", {"jokers": 2}, "joker_use", "needs a joker rule"),
        ("standard", {"joker_use": "wild"}, "jokers", "the pack has none"),
        ("standard", {"divide_by_five": True}, "divide_by_five", "pip values"),
        ("standard", {"target": [1]}, "target", "plain value"),
        ("standard", {"min_run": {"a": 1}}, "min_run", "plain value"),
    ],
)
def test_invalid_options_are_refused_with_a_clear_message(preset, options, where, message):
    with pytest.raises(RulesError) as error:
        ruleset(preset, options)
    assert any(w == where and message in m for w, m in error.value.problems), error.value.problems


def test_rule_sets_are_immutable_values():
    rules = ruleset("standard")
    with pytest.raises(AttributeError):
        rules.min_run = 4  # type: ignore[misc]
    assert ruleset("standard") == ruleset("standard", {})
    assert hash(rules) == hash(ruleset("standard"))


def test_zero_and_false_are_different_answers():
    assert ruleset("standard", {"two_deal_game": False}).two_deal_game is False
    with pytest.raises(RulesError):
        ruleset("standard", {"two_deal_game": 0})
    assert ruleset("standard", {"min_run": 4}).min_run == 4
    with pytest.raises(RulesError):
        ruleset("standard", {"partnership": 1})


def test_option_check_refuses_containers_without_crashing():
    assert "one of" in (OPTIONS["ace_points"].check(["15"]) or "")
    assert "one of" in (OPTIONS["partnership"].check({}) or "")


def test_each_choice_option_is_typed_with_exactly_its_choices():
    import dataclasses
    import typing

    from scorekeeper.engine.rules import ruleset as rules

    hints = typing.get_type_hints(RuleSet, vars(rules))
    typed = 0
    for field in dataclasses.fields(RuleSet):
        info = OPTIONS[field.name]
        hint = hints[field.name]
        if typing.get_origin(hint) is typing.Literal:
            typed += 1
            assert list(typing.get_args(hint)) == list(info.choices), field.name
        elif hint is bool:
            assert set(info.choices) == {False, True}, field.name
        else:
            assert hint is int and info.minimum is not None, field.name
    assert typed == 34
