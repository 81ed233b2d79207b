"""The engine's answers to the deal-by-cards grid (engine/checker/filling.py): the row a
tapped card makes with the meld being written, and the cards completing a set; every
verdict check_meld's under the table's rules (M1-M5)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine import (
    check_meld,
    parse_cards,
    row_after_tap,
    ruleset,
    set_completion,
    smallest_meld,
)
from scorekeeper.engine.cards import natural_card

STANDARD = ruleset("standard", {})
CORNER = ruleset("standard", {"ace_in_run": "round-the-corner"})


def _row(meld: str, card: str, rules=STANDARD) -> str | None:
    row = row_after_tap(parse_cards(meld), parse_cards(card)[0], rules)
    return None if row is None else " ".join(c.text for c in row)


def test_two_cards_of_a_suit_fill_the_run_between_them_m3() -> None:
    assert _row("5H", "8H") == "5H 6H 7H 8H"
    assert _row("AH", "8H") == "8H 9H 10H JH QH KH AH"  # the ace at the nearer end (M4)


def test_round_the_corner_only_where_m4_allows_it() -> None:
    assert _row("QH", "2H") == "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH"
    assert _row("QH", "2H", CORNER) == "QH KH AH 2H"
    assert _row("KH AH", "2H") is None
    assert _row("KH AH", "2H", CORNER) == "KH AH 2H"


def test_a_set_is_completed_by_the_suits_it_lacks_m1() -> None:
    assert [c.text for c in set_completion(parse_cards("9S 9H"), STANDARD)] == ["9D", "9C"]
    assert set_completion(parse_cards("5H 6H"), STANDARD) == []


@given(st.integers(1, 13), st.integers(1, 13), st.sampled_from("SHDC"))
def test_a_filled_run_holds_both_cards_side_by_side_and_is_legal(a: int, b: int, suit: str):
    first, second = natural_card(a, suit), natural_card(b, suit)
    row = row_after_tap([first], second, CORNER)
    if a == b:
        return
    assert row is not None  # any two ranks of a suit lie in some run round the corner
    assert first in row and second in row
    grown = smallest_meld(row, CORNER)  # the row so far, or the run it is part of
    assert grown is not None and grown.kind == "run"
    if len(row) >= 3:
        assert check_meld(row, CORNER).kind == "run"
