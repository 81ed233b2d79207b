"""The JSON API under /api/v1/: the scoring contract, meld and lay-off checks, rules and
presets, and JSON errors (400, 404, 405, 413, 415, 422) -- never HTML, never a 500."""

from __future__ import annotations

import pytest

from scorekeeper import score
from scorekeeper.engine.rules.ruleset import OPTIONS, PRESETS
from tests.engine.helpers import CONTRACT_EXAMPLE


def test_score_is_the_contract(client):
    response = client.post("/api/v1/score", json=CONTRACT_EXAMPLE)
    assert response.status_code == 200
    body = response.get_json()
    assert body == score(CONTRACT_EXAMPLE)
    assert body["players"]["Ann"] == {
        "shown": 21,
        "in_hand": 0,
        "bonus": 0,
        "round": 21,
        "total": 141,
    }
    assert body["players"]["Cat"]["total"] == -15
    assert body["sides"] is None and body["winner"] is None and body["game_over"] is False


def test_score_rule_problem_is_422_listing_every_problem(client):
    bad = CONTRACT_EXAMPLE | {
        "melds": [{"owner": "Ann", "cards": ["KS", "AS", "2S"]}, {"owner": "Zed", "cards": ["XX"]}],
        "layoffs": [],
    }
    response = client.post("/api/v1/score", json=bad)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    wheres = {e["where"] for e in errors}
    assert "melds[0]" in wheres and "melds[1].owner" in wheres and "melds[1].cards[0]" in wheres
    assert any("round the corner" in e["message"] for e in errors)


@pytest.mark.parametrize(
    ("cards", "preset", "options", "legal", "ids"),
    [
        (["7H", "7S", "7D"], "standard", {}, True, ["M1"]),
        (["KS", "AS", "2S"], "standard", {}, False, ["M4"]),
        (["KS", "AS", "2S"], "modern", {"ace_in_run": "round-the-corner"}, True, ["M3", "M4"]),
        (["5H", "6H", "7H"], "classic", {}, False, ["M3"]),
        (["7H", "JK=8H", "9H"], "jokers-wild", {}, True, ["M3", "M5"]),
        (["7H", "JK", "9H"], "jokers-wild", {}, False, ["M5"]),
    ],
)
def test_meld_check(client, cards, preset, options, legal, ids):
    body = {"rules": {"preset": preset, "options": options}, "cards": cards}
    response = client.post("/api/v1/meld-check", json=body)
    assert response.status_code == 200
    answer = response.get_json()
    assert answer["legal"] is legal
    assert [r["id"] for r in answer["rules"]] == ids
    assert all(r["link"] == f"/rules#{r['id']}" for r in answer["rules"])
    assert (answer["meld"] is not None) is legal


def test_meld_check_orders_a_run_and_counts_it(client):
    answer = client.post("/api/v1/meld-check", json={"cards": ["3S", "AS", "2S"]}).get_json()
    assert answer["meld"]["cards"] == ["AS", "2S", "3S"]
    assert answer["meld"]["points"] == 1 + 2 + 3


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"cards": ["7H", "ZZ", "7D"]}, "cards[1]"),
        ({"cards": []}, "cards"),
        ({"cards": "7H 7S 7D"}, "cards"),
        ({"rules": {"preset": "nope"}, "cards": ["7H", "7S", "7D"]}, "rules.preset"),
        (
            {"rules": {"options": {"min_run": 9}}, "cards": ["7H", "7S", "7D"]},
            "rules.options.min_run",
        ),
    ],
)
def test_meld_check_notation_and_rules_problems_are_422(client, body, where):
    response = client.post("/api/v1/meld-check", json=body)
    assert response.status_code == 422
    assert where in [e["where"] for e in response.get_json()["errors"]]


def test_layoff_check_fits_and_names_rules(client):
    body = {"meld": ["9D", "10D", "JD"], "cards": ["QD"]}
    answer = client.post("/api/v1/layoff-check", json=body).get_json()
    assert answer["fits"] is True
    assert answer["meld"]["cards"] == ["9D", "10D", "JD", "QD"]
    assert [r["id"] for r in answer["rules"]][:2] == ["L1", "L3"]


def test_layoff_check_pair_and_refusal(client):
    pair = {"meld": ["5C", "6C", "7C"], "cards": ["9C", "8C"]}
    assert client.post("/api/v1/layoff-check", json=pair).get_json()["fits"] is True
    corner = {"meld": ["QS", "KS", "AS"], "cards": ["2S"]}
    answer = client.post("/api/v1/layoff-check", json=corner).get_json()
    assert answer["fits"] is False
    assert [r["id"] for r in answer["rules"]] == ["M4"]


def test_layoff_check_illegal_meld_is_422(client):
    response = client.post("/api/v1/layoff-check", json={"meld": ["2C", "7H"], "cards": ["8H"]})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["where"] == "meld"
    too_many = {"meld": ["5C", "6C", "7C"], "cards": ["8C", "9C", "10C"]}
    assert client.post("/api/v1/layoff-check", json=too_many).status_code == 422


def test_rules_lists_every_option_with_ids_choices_and_sources(client):
    options = client.get("/api/v1/rules").get_json()["options"]
    assert [o["name"] for o in options] == list(OPTIONS)
    corner = next(o for o in options if o["name"] == "ace_in_run")
    assert corner["ids"] == ["M4"] and corner["default"] == "high-or-low"
    assert {
        "value": "round-the-corner",
        "label": "round the corner allowed (K-A-2)",
        "sources": "002",
    } in corner["choices"]


def test_presets_lists_every_preset(client):
    presets = client.get("/api/v1/presets").get_json()["presets"]
    assert [p["name"] for p in presets] == list(PRESETS)
    modern = next(p for p in presets if p["name"] == "modern")
    assert modern["changes"]["first_meld_minimum"] == 30
    assert modern["options"]["joker_use"] == "wild"


def test_openapi_document_describes_every_route(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.1")
    assert set(doc["paths"]) == {"/score", "/meld-check", "/layoff-check", "/rules", "/presets"}


def test_openapi_document_states_how_the_player_went_out_for_s10(client):
    request = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]["ScoreRequest"]
    assert request["properties"]["went_out_by"]["enum"] == ["discard", "play"]
    meld = request["properties"]["melds"]["items"]["properties"]
    assert meld["final_turn"]["type"] == "boolean"


def _is_json_error(response, status):
    assert response.status_code == status
    assert response.mimetype == "application/json"
    assert response.get_json()["errors"][0]["message"]


def test_malformed_json_is_400(client):
    response = client.post("/api/v1/score", data="{not json", content_type="application/json")
    _is_json_error(response, 400)


def test_unknown_api_path_is_404_json_but_other_paths_keep_html(client):
    _is_json_error(client.get("/api/v1/nothing-here"), 404)
    _is_json_error(client.post("/api/v2/score", json={}), 404)
    other = client.get("/no-such-page")
    assert other.status_code == 404 and other.mimetype == "text/html"


def test_wrong_method_is_405_json_with_allow(client):
    response = client.get("/api/v1/score")
    _is_json_error(response, 405)
    assert "POST" in response.headers["Allow"]
    _is_json_error(client.delete("/api/v1/rules"), 405)


def test_too_large_is_413(app, client):
    app.config["MAX_CONTENT_LENGTH"] = 1000
    response = client.post("/api/v1/score", json={"players": ["x" * 2000]})
    _is_json_error(response, 413)


def test_wrong_content_type_is_415(client):
    _is_json_error(client.post("/api/v1/score", data="players=Ann"), 415)
    _is_json_error(client.post("/api/v1/meld-check", data="{}", content_type="text/plain"), 415)


@pytest.mark.parametrize("body", ["[]", '"text"', "5", "null"])
def test_body_that_is_not_an_object_is_422(client, body):
    response = client.post("/api/v1/score", data=body, content_type="application/json")
    assert response.status_code == 422
    assert response.get_json()["errors"]


def test_api_needs_no_csrf_token(csrf_app):
    response = csrf_app.test_client().post("/api/v1/meld-check", json={"cards": ["7H", "7S", "7D"]})
    assert response.status_code == 200
