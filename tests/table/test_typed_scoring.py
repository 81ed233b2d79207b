"""The scoresheet hands the engine typed values and gets a typed result back: the same
figures, and the same problems, as the scoring contract gives for the same round."""

from __future__ import annotations

import pytest

from scorekeeper.engine.scoring.contract import ScoreRequestError, layoff_order, score
from scorekeeper.engine.scoring.score_round import RoundScore
from scorekeeper.table import services as sheet

ABC = ("Ann", "Bob", "Cat")
BEFORE = {"Ann": 120, "Bob": 35, "Cat": -10}

ROUNDS = [
    # lay-offs written out of order: Cat's 6C must come before Bob's 7C
    {
        "went_out": "Ann",
        "melds": [
            {"owner": "Ann", "cards": ["3C", "4C", "5C"]},
            {"owner": "Bob", "cards": ["KH", "KS", "KD"]},
        ],
        "layoffs": [
            {"owner": "Bob", "card": "7C", "meld": 0},
            {"owner": "Cat", "card": "6C", "meld": 0},
        ],
        "hands": {"Ann": [], "Bob": ["AS", "9D"], "Cat": ["QC", "2H"]},
    },
    # the stock ran out, an ace low and high
    {
        "went_out": None,
        "melds": [
            {"owner": "Cat", "cards": ["AH", "2H", "3H"]},
            {"owner": "Bob", "cards": ["QS", "KS", "AS"]},
        ],
        "layoffs": [],
        "hands": {"Ann": ["7D", "8C"], "Bob": ["4D"], "Cat": []},
    },
    # a round the rules refuse: K-A-2, a card twice, a lay-off that fits nowhere
    {
        "went_out": "Ann",
        "melds": [{"owner": "Ann", "cards": ["KH", "AH", "2H"]}],
        "layoffs": [{"owner": "Bob", "card": "9S", "meld": 0}],
        "hands": {"Ann": [], "Bob": ["5D", "5D"], "Cat": ["XX"]},
    },
    # missing parts: no melds, no lay-offs, a hand missing
    {"went_out": "Bob", "hands": {"Bob": [], "Cat": ["4S"]}},
]

PRESETS = [("standard", {}), ("add-opponents-hand", {}), ("modern", {}), ("quick", {})]


def _contract(game, data: dict, deal: int) -> dict | list[tuple[str, str]]:
    request = {
        "rules": {"preset": game.preset, "options": game.options},
        "players": list(ABC),
        "went_out": data.get("went_out"),
        "melds": data.get("melds") or [],
        "layoffs": data.get("layoffs") or [],
        "hands": data.get("hands") or {},
        "totals_before": BEFORE,
        "deal_number": deal,
    }
    order = layoff_order(request)
    request["layoffs"] = [request["layoffs"][i] for i in order]
    try:
        return score(request)
    except ScoreRequestError as error:
        problems = []
        for e in error.errors:
            where = e["where"]
            if where.startswith("layoffs[") and order:
                index = int(where[8 : where.index("]")])
                where = f"layoffs[{order[index]}]" + where[where.index("]") + 1 :]
            problems.append((where, e["message"]))
        return problems


@pytest.mark.parametrize(("preset", "options"), PRESETS)
@pytest.mark.parametrize("number", range(len(ROUNDS)))
def test_a_cards_round_scores_as_the_contract_scores_it(app, preset, options, number):
    data = ROUNDS[number]
    with app.app_context():
        game = sheet.start_game(ABC, preset, options)
        expected = _contract(game, data, 2)
        try:
            result = sheet.score_input(game, "cards", data, BEFORE, 2)
        except sheet.ScoresheetError as error:
            assert error.problems == expected
            return
        assert isinstance(result, RoundScore)
        assert result.to_json() == expected


def test_a_totals_round_comes_back_typed(app):
    with app.app_context():
        game = sheet.start_game(ABC, "add-opponents-hand", {})
        data = {"went_out": "Ann", "shown": {"Ann": 40, "Bob": 10}, "in_hand": {"Bob": 5}}
        result = sheet.score_input(game, "totals", data, BEFORE, 1)
        assert isinstance(result, RoundScore)
        assert result.players["Ann"].bonus == 5 and result.players["Ann"].total == 165
        preview = sheet.preview_round(game, "totals", data)
        assert preview == sheet.score_input(game, "totals", data, {}, 1).to_json()
        assert preview["players"]["Ann"]["total"] == 45
