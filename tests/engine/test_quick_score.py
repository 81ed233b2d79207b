"""The scoring contract's one-pass path (engine.quick_score) gives the plain path's answer,
byte for byte, under every house rule set; and it gives up (None) rather than judge a
request that has a problem, which the plain path then lists."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine.contract import (
    ScoreRequestError,
    _score_plain,
    parse_request,
    score,
)
from scorekeeper.engine.scoring import score_round

from .test_game_properties import HOUSE_RULES
from .test_scoring_properties import random_round

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _plain(request: dict[str, Any]) -> str:
    """The plain path's answer (or its problems) as JSON text."""
    try:
        rules, play, totals = parse_request(request)
        return json.dumps(score_round(rules, play, totals).to_json())
    except ScoreRequestError as error:
        return json.dumps(error.body)
    except ValueError as error:  # RoundError: broken rules
        return f"refused: {error}"


def _request(choice: tuple[str, dict[str, Any]], seed: int) -> dict[str, Any]:
    preset, options = choice
    request = random_round(seed, preset)
    if options:
        request["rules"] = {"preset": preset, "options": dict(options)}
    return request


@SETTINGS
@given(st.sampled_from(HOUSE_RULES), st.integers(0, 2**31 - 1))
def test_the_one_pass_answer_is_the_plain_answer_under_every_house_rule_set(choice, seed):
    request = _request(choice, seed)
    quick = _score_plain(request)
    plain = _plain(request)
    if quick is not None:
        assert json.dumps(quick) == plain
    if not plain.startswith('{"players"'):
        assert quick is None


@SETTINGS
@given(st.sampled_from(HOUSE_RULES), st.integers(0, 2**31 - 1))
def test_a_request_spoilt_anywhere_is_left_to_the_plain_path(choice, seed):
    request = _request(choice, seed)
    rng = random.Random(seed)
    spoilt = [
        ("went_out", "Zed"),
        ("deal_number", 0),
        ("totals_before", {"Ann": 10**7}),
        ("hands", {"Ann": ["JK=7C"]}),
        ("layoffs", [*request["layoffs"], {"owner": "Ann", "card": "KS", "meld": 99}]),
        ("melds", [*request["melds"], {"owner": "Ann", "cards": ["7H", "7H", "7H"]}]),
        ("teams", [["Ann"]]),
    ]
    field, value = rng.choice(spoilt)
    request[field] = value
    quick = _score_plain(request)
    plain = _plain(request)
    if quick is None:
        return
    assert json.dumps(quick) == plain


def test_a_meld_grown_by_lay_offs_is_counted_as_it_ends_the_round():
    """S1 under "15 played high, else 5": A-2-3 laid, then K laid off (round the corner
    not allowed, so onto a run Q-K-A instead): the ace counts by where it ends up."""
    request = {
        "rules": {"preset": "modern"},
        "players": ["Ann", "Bob"],
        "went_out": "Ann",
        "melds": [
            {"owner": "Ann", "cards": ["QS", "KS", "AS"]},
            {"owner": "Bob", "cards": ["2H", "3H", "4H"]},
        ],
        "layoffs": [
            {"owner": "Bob", "card": "JS", "meld": 0},
            {"owner": "Ann", "card": "AH", "meld": 1},
        ],
        "hands": {"Ann": [], "Bob": ["9C"]},
    }
    quick = _score_plain(request)
    assert quick is not None
    assert json.dumps(quick) == _plain(request) == json.dumps(score(request))
    ace_low = [c for c in quick["cards"] if c["card"] == "AH"]
    assert ace_low and ace_low[0]["where"] == "layoff 1 onto meld 1"
