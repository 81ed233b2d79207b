"""Which lay-downs the game lists from a hand (engine.game.hand_melds), written as card strings."""

from __future__ import annotations

import pytest

from scorekeeper.engine.cards import parse_cards
from scorekeeper.engine.game.hand_melds import hand_melds
from scorekeeper.engine.melds import check_meld
from scorekeeper.engine.rules.ruleset import ruleset


def listed(hand: str, preset: str = "standard", **options: object) -> set[str]:
    rules = ruleset(preset, options)
    melds = hand_melds(parse_cards(hand), rules)
    for meld in melds:
        check_meld(meld, rules)  # every listed meld is legal
    return {" ".join(c.text for c in check_meld(m, rules).cards) for m in melds}


def test_sets_of_three_and_four_with_every_three_inside_a_four() -> None:
    assert listed("7H 7S 7D 7C 2S") == {
        "7H 7S 7D 7C",
        "7H 7S 7D",
        "7H 7S 7C",
        "7H 7D 7C",
        "7S 7D 7C",
    }


def test_runs_maximal_and_every_shorter_window_inside() -> None:
    assert listed("4H 5H 6H 7H KS") == {"4H 5H 6H 7H", "4H 5H 6H", "5H 6H 7H"}
    assert listed("4H 5H 6H 7H KS", min_run=4) == {"4H 5H 6H 7H"}


def test_the_ace_is_low_or_high_never_both() -> None:
    assert listed("AS 2S 3S QS KS") == {"AS 2S 3S", "QS KS AS"}
    whole = listed("AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD")
    assert "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD" in whole
    assert all(len(m.split()) <= 13 for m in whole)
    assert "KS AS 2S" in listed("KS AS 2S", ace_in_run="round-the-corner")
    assert listed("KS AS 2S") == set()


def test_wild_jokers_fill_a_gap_or_a_missing_suit() -> None:
    found = listed("5H 7H 9S 9D JK", "jokers-wild")
    assert "5H JK=6H 7H" in found
    assert any(m.startswith("9S 9D JK=") for m in found)


def test_persian_jokers_meld_only_with_jokers() -> None:
    assert listed("JK JK JK 5H 6H", "persian") == {"JK JK JK"}


@pytest.mark.parametrize(
    ("preset", "options"), [("standard", {}), ("standard", {"two_packs": "always"})]
)
def test_two_packs_sets_keep_to_different_suits_unless_allowed(
    preset: str, options: dict[str, object]
) -> None:
    assert listed("5C 5C 5H", preset, **options) == set()
    assert listed("5C 5C 5H", preset, same_suit_in_set="allowed", **options) == {"5C 5C 5H"}
