"""A net or totals round as the game page's entry posts it, read by its one reader: the
round form (:func:`round_inputs.round_form`, validated, then :func:`round_inputs.read_round`)."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from scorekeeper.inputs import parse_int
from scorekeeper.table.round_inputs import read_round, round_form

NAMES = ("Ann", "Bob", "Cat")


def _by_form(app, posted: MultiDict, mode: str, seven: bool = False):
    """The round form's reading of ``posted``: ``(input, nonce, version)``, or the
    form's messages by field when it refuses the post."""
    with app.test_request_context(method="POST", data=posted):
        form = round_form(NAMES, seven, mode, None, None)
        if not form.validate():
            return {
                name: list(field.errors) for name, field in form._fields.items() if field.errors
            }
        data, _, _ = read_round(form, mode, NAMES)
        return data, form.nonce.data, parse_int(form.version.data)


@pytest.mark.parametrize(
    ("mode", "fields", "expected"),
    [
        (
            "totals",
            {"shown-0": "30", "in_hand-1": "15", "in_hand-2": " 5 ", "adjust-2": "-10"},
            {
                "went_out": "Ann",  # the one empty hand (O1)
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
def test_a_plain_round_is_read_as_the_engines_input(app, mode, fields, expected):
    posted = MultiDict({"mode": mode, "nonce": "n" * 12, "version": "4"} | fields)
    assert _by_form(app, posted, mode) == (expected, "n" * 12, 4)


def test_a_seven_card_run_is_read_only_where_the_rules_have_it(app):
    fields = {"shown-0": "30", "in_hand-1": "15", "in_hand-2": "5", "seven": "y"}
    posted = MultiDict({"mode": "totals", "nonce": "n" * 12, "version": "4"} | fields)
    assert _by_form(app, posted, "totals", seven=True)[0]["seven_card_run"] == "Ann"
    assert _by_form(app, posted, "totals", seven=False)[0]["seven_card_run"] is None


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"net-0": "abc", "went_out": "0"}, "net-0"),  # no whole number
        ({"net-0": "10"}, "went_out"),  # who went out not told (net figures do not show it)
        ({"net-0": "10", "went_out": "7"}, "went_out"),  # no such seat
        ({"net-0": "10", "went_out": "0", "version": "x"}, "version"),  # out of date
        ({"net-0": "10", "went_out": "0", "nonce": "short"}, "nonce"),
    ],
)
def test_what_the_form_refuses_it_explains_by_its_field(app, fields, field):
    posted = MultiDict({"mode": "net", "nonce": "n" * 12, "version": "4"} | fields)
    refused = _by_form(app, posted, "net")
    assert isinstance(refused, dict) and refused[field]
