"""O1 read from the hands: in a round counted as shown and in hand, the one player with
nothing in hand went out (:func:`scorekeeper.engine.scoring.checks.went_out_by_hand`)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.scoring.checks import went_out_by_hand


def test_the_one_empty_hand_went_out():
    assert went_out_by_hand({"Ann": 0, "Bob": 15, "Cat": 5}) == "Ann"
    assert went_out_by_hand({"0": 20, "1": None, "2": 5, "3": 10}) == "1"


def test_no_empty_hand_or_several_tell_nobody():
    assert went_out_by_hand({"Ann": 5, "Bob": 15}) is None
    assert went_out_by_hand({"Ann": 0, "Bob": None, "Cat": 5}) is None
    assert went_out_by_hand({}) is None


@given(st.dictionaries(st.text(min_size=1, max_size=3), st.none() | st.integers(0, 200)))
def test_an_answer_is_always_the_only_empty_hand(hands):
    who = went_out_by_hand(hands)
    empty = [k for k, v in hands.items() if not v]
    assert who == (empty[0] if len(empty) == 1 else None)
    if who is not None:
        assert not hands[who] and all(hands[k] for k in hands if k != who)
