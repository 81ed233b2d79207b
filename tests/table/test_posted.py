"""A net or totals round as the game page's script posts it, read without a form
(:func:`round_inputs.posted_counts`): whatever it reads is what the round form reads, and
whatever the form refuses it leaves to the form."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from scorekeeper.requests import parse_int
from scorekeeper.table.round_inputs import posted_counts, read_round, round_form

NAMES = ("Ann", "Bob", "Cat")
PLAIN = ["", " ", "0", "5", "-5", " 7 ", "+3", "1_0", "٣"]
FIGURES = st.sampled_from(PLAIN * 8 + ["abc", "2.5", "--1"])
SEATS = st.sampled_from([None, "", "0", "1", "2", "3", "x"])


def _by_form(app, posted: MultiDict, mode: str, seven: bool):
    """The round form's reading of ``posted``: ``(input, nonce, version)``, or None
    when it refuses the post."""
    with app.test_request_context(method="POST", data=posted):
        form = round_form(NAMES, seven, mode, None, None)
        if not form.validate():
            return None
        data, _, _ = read_round(form, mode, NAMES)
        return data, form.nonce.data, parse_int(form.version.data)


def _post(mode, figures, went_out, extra) -> MultiDict:
    kinds = ("net",) if mode == "net" else ("shown", "in_hand", "adjust")
    fields = [("mode", mode), ("nonce", "n" * 12), ("version", "3"), ("action", "save")]
    fields += [(f"{k}-{i}", figures.pop()) for k in kinds for i in range(len(NAMES))]
    if went_out is not None:
        fields.append(("went_out", went_out))
    return MultiDict(fields + extra)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    mode=st.sampled_from(["net", "totals"]),
    figures=st.lists(FIGURES, min_size=9, max_size=9),
    went_out=SEATS,
    seven=st.booleans(),
    ticked=st.sampled_from(
        [[], [("seven", "y")], [("seven", "")], [("seven", "false")], [("round_version", "x")]]
    ),
    nonce=st.sampled_from(["n" * 12] * 6 + [None, "", "short", "n" * 8, "n" * 64, "n" * 65]),
    version=st.sampled_from(["3"] * 6 + [None, "", "-1", "x", "99999999999999999999"]),
)
def test_what_is_read_without_the_form_is_what_the_form_reads(
    app, mode, figures, went_out, seven, ticked, nonce, version
):
    posted = _post(mode, figures, went_out, ticked)
    for key, value in (("nonce", nonce), ("version", version)):
        if value is None:
            posted.poplist(key)
        else:
            posted[key] = value
    quick = posted_counts(posted, NAMES, mode, seven)
    if quick is not None:  # the form, reading the same post, accepts it alike
        assert quick == _by_form(app, posted, mode, seven)


@pytest.mark.parametrize(
    ("mode", "fields", "expected"),
    [
        (
            "totals",
            {"shown-0": "30", "in_hand-1": "15", "in_hand-2": " 5 ", "adjust-2": "-10"},
            {
                "went_out": "Ann",
                "shown": {"Ann": 30, "Bob": 0, "Cat": 0},
                "in_hand": {"Ann": 0, "Bob": 15, "Cat": 5},
                "adjust": {"Cat": -10},
                "seven_card_run": None,
            },
        ),
        (
            "net",
            {"net-0": "40", "net-1": "-5", "went_out": ""},
            {"went_out": None, "net": {"Ann": 40, "Bob": -5, "Cat": 0}},
        ),
    ],
)
def test_a_plain_round_is_read_without_the_form(app, mode, fields, expected):
    posted = MultiDict({"mode": mode, "nonce": "n" * 12, "version": "4"} | fields)
    assert posted_counts(posted, NAMES, mode, False) == (expected, "n" * 12, 4)
    assert _by_form(app, posted, mode, False) == (expected, "n" * 12, 4)


@pytest.mark.parametrize(
    "fields",
    [
        {"net-0": "abc", "went_out": "0"},  # no whole number: the form says so by the field
        {"net-0": "10"},  # who went out not told (net figures do not show it)
        {"net-0": "10", "went_out": "7"},  # no such seat
        {"net-0": "10", "went_out": "0", "meld_slots": "2"},  # a cards form's rows
        {"net-0": "10", "went_out": "0", "round_version": "x"},  # a correction's field
    ],
)
def test_anything_the_form_must_explain_is_left_to_it(fields):
    posted = MultiDict({"mode": "net", "nonce": "n" * 12, "version": "4"} | fields)
    assert posted_counts(posted, NAMES, "net", False) is None
