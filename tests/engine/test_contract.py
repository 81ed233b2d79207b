"""The scoring contract (shared/score-contract.md): Python function and command line."""

import copy
import json
import subprocess
import sys

import pytest

from scorekeeper import ScoreRequestError, score
from tests.engine.helpers import CONTRACT_EXAMPLE

EXAMPLE = CONTRACT_EXAMPLE


def example(**changes):
    request = copy.deepcopy(EXAMPLE)
    request.update(changes)
    return request


def errors_of(request):
    with pytest.raises(ScoreRequestError) as error:
        score(request)
    return error.value.body["errors"]


def test_the_contract_example_scores_as_documented():
    result = score(copy.deepcopy(EXAMPLE))
    assert result["players"] == {
        "Ann": {"shown": 21, "in_hand": 0, "bonus": 0, "round": 21, "total": 141},
        "Bob": {"shown": 12, "in_hand": 10, "bonus": 0, "round": 2, "total": 37},
        "Cat": {"shown": 6, "in_hand": 11, "bonus": 0, "round": -5, "total": -15},
    }
    assert result["sides"] is None and result["winner"] is None
    assert result["game_over"] is False
    assert result["cards"][0] == {
        "card": "7H",
        "owner": "Ann",
        "where": "meld 0",
        "points": 7,
        "why": "pip value",
        "rule": "S4",
    }
    assert len(result["cards"]) == 10


def test_totals_before_is_optional_and_cards_print_in_notation():
    request = example(totals_before=None)
    request["melds"][0]["cards"] = ["7h", "7♠", "7D"]
    result = score(request)
    assert result["players"]["Ann"]["total"] == 21
    assert [c["card"] for c in result["cards"][:3]] == ["7H", "7S", "7D"]


def test_the_contract_error_example():
    request = example()
    request["hands"]["Cat"] = ["2D", "9H"]
    request["melds"].append({"owner": "Bob", "cards": ["KS", "AS", "2S"]})
    assert errors_of(request) == [
        {
            "where": "melds[2]",
            "message": "K♠ A♠ 2♠ goes round the corner, which these rules do not allow",
        }
    ]


def test_teams_give_sides_keyed_by_players_joined():
    request = {
        "rules": {"preset": "partnership"},
        "players": ["Ann", "Bob", "Cat", "Dee"],
        "teams": [["Ann", "Cat"], ["Bob", "Dee"]],
        "went_out": "Ann",
        "melds": [{"owner": "Ann", "cards": ["7H", "7S", "7D"]}],
        "layoffs": [],
        "hands": {"Ann": [], "Bob": ["KD"], "Cat": ["2S"], "Dee": []},
    }
    result = score(request)
    assert result["sides"] == {
        "Ann & Cat": {"shown": 21, "in_hand": 2, "bonus": 0, "round": 19, "total": 19},
        "Bob & Dee": {"shown": 0, "in_hand": 10, "bonus": 0, "round": -10, "total": -10},
    }


ERROR_CASES = [
    ("request", [], "request", "JSON object"),
    ("rules", {"rules": "standard"}, "rules", "must be an object"),
    ("preset", {"rules": {"preset": "canasta"}}, "rules.preset", "no preset called"),
    ("preset type", {"rules": {"preset": 5}}, "rules.preset", "a name"),
    ("options type", {"rules": {"options": [1]}}, "rules.options", "object"),
    ("options empty list", {"rules": {"options": []}}, "rules.options", "object"),
    ("options false", {"rules": {"options": False}}, "rules.options", "object"),
    ("option name", {"rules": {"options": {"aces": 1}}}, "rules.options.aces", "no house rule"),
    ("option value", {"rules": {"options": {"min_run": 9}}}, "rules.options.min_run", "one of"),
    ("players", {"players": "Ann"}, "players", "list of player names"),
    ("one player", {"players": ["Ann"], "hands": {"Ann": []}}, "players", "2 to 8"),
    ("duplicate names", {"players": ["Ann", "Ann", "Cat"]}, "players", "different name"),
    ("empty name", {"players": ["Ann", " ", "Cat"]}, "players[1]", "1 to 40"),
    ("teams without partnership", {"teams": [["Ann"], ["Bob", "Cat"]]}, "teams", "only for"),
    ("team member not a name", {"teams": [[{}], ["Bob"]]}, "teams[0][0]", "not one of"),
    ("teams not lists", {"teams": "Ann"}, "teams", "lists of player names"),
    ("went_out", {"went_out": "Zed"}, "went_out", "not one of the players"),
    ("melds type", {"melds": {}}, "melds", "list of melds"),
    ("meld item", {"melds": [3]}, "melds[0]", "owner"),
    (
        "meld owner",
        {"melds": [{"owner": "Zed", "cards": ["7H", "7S", "7D"]}]},
        "melds[0].owner",
        "not one of the players",
    ),
    (
        "meld card",
        {"melds": [{"owner": "Ann", "cards": ["7H", "7X", "7D"]}]},
        "melds[0].cards[1]",
        "is not a card",
    ),
    (
        "meld cards type",
        {"melds": [{"owner": "Ann", "cards": "7H"}]},
        "melds[0].cards",
        "list of cards",
    ),
    ("layoffs type", {"layoffs": "6C"}, "layoffs", "list of lay-offs"),
    ("layoff item", {"layoffs": [1]}, "layoffs[0]", "lay-off is"),
    (
        "layoff meld",
        {"layoffs": [{"owner": "Cat", "card": "6C", "meld": 5}]},
        "layoffs[0].meld",
        "no meld 5",
    ),
    (
        "layoff card",
        {"layoffs": [{"owner": "Cat", "card": "6Z", "meld": 1}]},
        "layoffs[0].card",
        "is not a card",
    ),
    (
        "layoff fit",
        {"layoffs": [{"owner": "Cat", "card": "9C", "meld": 1}]},
        "layoffs[0]",
        "does not fit",
    ),
    ("hands type", {"hands": []}, "hands", "object of hands"),
    ("hand type", {"hands": {"Ann": [], "Bob": "KD", "Cat": []}}, "hands.Bob", "list of cards"),
    (
        "hand player",
        {"hands": {"Ann": [], "Bob": [], "Cat": [], "Zed": []}},
        "hands.Zed",
        "not one of the players",
    ),
    ("missing hand", {"hands": {"Ann": [], "Bob": ["KD"]}}, "hands", "no hand is given for Cat"),
    (
        "hand card",
        {"hands": {"Ann": [], "Bob": ["KD", "QQ"], "Cat": []}},
        "hands.Bob[1]",
        "is not a card",
    ),
    (
        "declared joker in hand",
        {"rules": {"preset": "modern"}, "hands": {"Ann": [], "Bob": ["JK=7C"], "Cat": []}},
        "hands.Bob[0]",
        "just JK",
    ),
    ("went out with cards", {"went_out": "Bob"}, "went_out", "hand must be empty"),
    (
        "duplicate card",
        {"hands": {"Ann": [], "Bob": ["7H"], "Cat": []}},
        "hands.Bob[0]",
        "more often than the pack allows",
    ),
    (
        "joker without jokers",
        {"hands": {"Ann": [], "Bob": ["JK"], "Cat": []}},
        "hands.Bob[0]",
        "without jokers",
    ),
    ("totals type", {"totals_before": [1]}, "totals_before", "object"),
    ("total huge", {"totals_before": {"Ann": 10**12}}, "totals_before.Ann", "between"),
    ("total not a number", {"totals_before": {"Ann": "12"}}, "totals_before.Ann", "whole number"),
    (
        "total unknown player",
        {"totals_before": {"Zed": 1}},
        "totals_before.Zed",
        "not one of the players",
    ),
    ("deal number", {"deal_number": 0}, "deal_number", "from 1"),
    (
        "reshuffle needs a goer",
        {"rules": {"options": {"stock_exhausted": "reshuffle"}}, "went_out": None},
        "went_out",
        "only when someone goes out",
    ),
    ("went out by", {"went_out_by": "magic"}, "went_out_by", '"discard" or "play"'),
    ("went out by a number", {"went_out_by": 2}, "went_out_by", '"discard" or "play"'),
    ("went out by a list", {"went_out_by": ["play"]}, "went_out_by", '"discard" or "play"'),
    (
        "going out without a discard under Boathouse",
        {"rules": {"options": {"discard_to_go_out": True}}, "went_out_by": "play"},
        "went_out_by",
        "by a discard (O2)",
    ),
    (
        "final turn of a player who did not go out",
        {"melds": [{"owner": "Bob", "cards": ["3C", "4C", "5C"], "final_turn": True}]},
        "melds[0].final_turn",
        "did not go out",
    ),
    (
        "final turn not a boolean",
        {"melds": [{"owner": "Ann", "cards": ["7H", "7S", "7D"], "final_turn": "yes"}]},
        "melds[0].final_turn",
        "true or false",
    ),
    (
        "partnership without teams",
        {
            "rules": {"preset": "partnership"},
            "players": ["Ann", "Bob", "Cat", "Dee"],
            "hands": {"Ann": [], "Bob": [], "Cat": [], "Dee": []},
            "melds": [],
            "layoffs": [],
            "totals_before": {},
        },
        "teams",
        "two sides of two",
    ),
]


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [(c[1], c[2], c[3]) for c in ERROR_CASES],
    ids=[c[0] for c in ERROR_CASES],
)
def test_every_error_is_listed_with_where_and_a_message(change, where, words):
    request = change if not isinstance(change, dict) else example(**change)
    errors = errors_of(request)
    assert any(e["where"] == where and words in e["message"] for e in errors), errors


def test_every_problem_is_listed_at_once():
    request = example(went_out="Bob")
    request["melds"].append({"owner": "Bob", "cards": ["KS", "AS", "2S"]})
    request["hands"]["Cat"] = ["2S", "XX"]
    wheres = {e["where"] for e in errors_of(request)}
    assert {"went_out", "melds[2]", "hands.Cat[1]", "hands.Cat[0]"} <= wheres


def test_the_request_is_not_changed():
    request = example()
    frozen = copy.deepcopy(request)
    score(request)
    assert request == frozen


def test_an_answer_changed_by_its_caller_leaves_the_next_answer_as_it_was():
    """Meld and lay-off rows are counted once per meld and kept (S1 to S5 per card): an
    answer's rows are its own, so a caller editing them changes no later answer."""
    first = score(example())
    expected = copy.deepcopy(first)
    for row in first["cards"]:
        row.update(owner="Zed", where="nowhere", points=999, why="edited", rule="X9")
    again = score(example())
    assert again == expected
    assert all(row["owner"] in ("Ann", "Bob", "Cat") for row in again["cards"])


def run_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", "score", *args],
        input=stdin,
        capture_output=True,
        text=True,
    )


def test_command_line_scores_a_file(tmp_path):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(EXAMPLE))
    done = run_cli(str(path))
    assert done.returncode == 0
    assert json.loads(done.stdout)["players"]["Ann"]["total"] == 141


def test_command_line_reads_standard_input_and_exits_2_listing_every_problem():
    request = example()
    request["melds"].append({"owner": "Bob", "cards": ["KS", "AS", "2S"]})
    request["hands"]["Bob"] = ["KD", "ZZ"]
    request["hands"]["Cat"] = ["2D", "9H"]
    done = run_cli("-", stdin=json.dumps(request))
    assert done.returncode == 2
    errors = json.loads(done.stdout)["errors"]
    assert {e["where"] for e in errors} == {"melds[2]", "hands.Bob[1]"}
    assert "K♠ A♠ 2♠" in done.stdout


@pytest.mark.parametrize(
    ("args", "stdin", "where"),
    [(("-",), "{not json", "request"), (("/no/such/file.json",), None, "file")],
)
def test_command_line_bad_input_exits_2(args, stdin, where):
    done = run_cli(*args, stdin=stdin)
    assert done.returncode == 2
    assert json.loads(done.stdout)["errors"][0]["where"] == where


def test_command_line_does_not_import_flask():
    code = (
        "import runpy, sys; sys.argv=['scorekeeper','score','-'];"
        "sys.stdin=__import__('io').StringIO('{}');"
        "\ntry: runpy.run_module('scorekeeper', run_name='__main__')\n"
        "except SystemExit: pass\n"
        "print('flask' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip().endswith("False")


def test_layoff_order_finds_an_order_in_which_every_layoff_fits():
    from scorekeeper.engine.scoring.contract import layoff_order

    request = example()
    # Bob's 7C only fits after Cat's 6C has extended 3C 4C 5C
    request["layoffs"] = [
        {"owner": "Bob", "card": "7C", "meld": 1},
        {"owner": "Cat", "card": "6C", "meld": 1},
    ]
    request["hands"]["Bob"] = []
    request["went_out"] = None
    assert layoff_order(request) == [1, 0]
    with pytest.raises(ScoreRequestError):
        score(request)
    request["layoffs"] = [request["layoffs"][i] for i in layoff_order(request)]
    assert score(request)["players"]["Bob"]["shown"] == 12 + 7


def test_layoff_order_keeps_the_order_of_what_never_fits():
    from scorekeeper.engine.scoring.contract import layoff_order

    request = example()
    request["layoffs"] = [
        {"owner": "Cat", "card": "9D", "meld": 1},
        {"owner": "Cat", "card": "6C", "meld": 1},
    ]
    assert layoff_order(request) == [1, 0]
    assert layoff_order({"players": "bad", "layoffs": [{}, {}]}) == [0, 1]


def test_s10_the_contract_states_the_final_turn_and_how_the_player_went_out():
    # Seed 002: "If a player lays down a 7-card straight and then discards his last card,
    # he is awarded 500 points."
    run = {"owner": "Ann", "cards": ["3S", "4S", "5S", "6S", "7S", "8S", "9S"]}
    request = example(
        rules={"preset": "standard", "options": {"seven_card_straight": True}},
        melds=[{**run, "final_turn": True}],
        layoffs=[],
    )
    assert score(copy.deepcopy(request))["players"]["Ann"]["bonus"] == 500
    earlier = example(**{**request, "melds": [run]})
    assert score(earlier)["players"]["Ann"]["bonus"] == 0
    by_play = example(**{**request, "went_out_by": "play"})
    assert score(by_play)["players"]["Ann"]["bonus"] == 0
