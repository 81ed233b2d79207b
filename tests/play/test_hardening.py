"""/play under hostile input (issue 10): bounded integers and JSON, and a record that
holds only what the person's seat has seen before the game is over."""

from __future__ import annotations

import json

import pytest

from scorekeeper.engine import legal_actions
from tests.play.test_pages import PlayActions


@pytest.fixture
def play(app, client) -> PlayActions:
    return PlayActions(app, client)


@pytest.mark.parametrize("version", ["²", str(10**30), "-1", "٣"])
def test_a_move_with_an_odd_version_is_a_4xx(play, version):
    slug = play.start()
    before = play.game(slug).version
    response = play.client.post(f"/play/{slug}/move", data={"version": version, "do": "stock"})
    assert 400 <= response.status_code < 500
    assert play.game(slug).version == before


@pytest.mark.parametrize("version", [10**30, "²", -1, True, 1.5])
def test_a_json_move_with_an_odd_version_is_a_4xx(play, version):
    slug = play.start()
    action = legal_actions(play.state(slug))[0].to_json()
    response = play.client.post(
        f"/play/{slug}/move.json", json={"version": version, "action": action}
    )
    assert 400 <= response.status_code < 500
    assert "error" in response.get_json()


def test_deeply_nested_json_moves_are_refused(play):
    slug = play.start()
    body = "[" * 50_000
    response = play.client.post(
        f"/play/{slug}/move.json", data=body, content_type="application/json"
    )
    assert response.status_code == 400
    assert "nested" in response.get_json()["error"]
    form = play.client.post(f"/play/{slug}/move", data={"version": "1", "do": "{" + "[" * 50_000})
    assert form.status_code == 400


def test_a_json_move_too_large_is_413(play):
    slug = play.start()
    body = json.dumps({"version": 1, "action": {"pad": "x" * 300_000}})
    response = play.client.post(
        f"/play/{slug}/move.json", data=body, content_type="application/json"
    )
    assert response.status_code == 413
    assert "KiB" in response.get_json()["error"]


def test_the_record_mid_game_holds_only_what_the_seat_has_seen(play):
    slug = play.start(seed="")
    state = play.state(slug)
    for _ in range(400):  # play on (bots answer) until a round has finished
        if state.rounds:
            break
        action = legal_actions(state)[0]
        assert play.act(slug, action.to_json()).status_code == 200
        state = play.state(slug)
    assert state.rounds and not play.game(slug).finished
    record = play.client.get(f"/play/{slug}/record").get_json()
    assert record["seed"] is None and record["seen_by"] == "Sam"
    for stored in record["rounds"]:
        assert stored["stock"] is None
        assert stored["hands"]["Sam"] and all(
            hand is None for name, hand in stored["hands"].items() if name != "Sam"
        )
    text = json.dumps(record)
    assert str(state.seed) not in text


def test_a_seed_not_given_has_64_random_bits(play):
    seeds = {play.state(play.start(seed="")).seed for _ in range(6)}
    assert len(seeds) == 6
    assert max(seeds) >= 2**40
    assert play.state(play.start(seed="7")).seed == 7


ODD_SHAPES = [
    pytest.param(["draw"], id="list"),
    pytest.param({"draw": "stock"}, id="object"),
    pytest.param(7, id="number"),
    pytest.param(None, id="null"),
    pytest.param(True, id="true"),
    pytest.param([[{"type": ["draw"]}]], id="nested"),
    pytest.param("d" * 200_000, id="huge string"),
]


def _refused_and_unchanged(play, slug: str, response, before: int) -> str:
    assert 400 <= response.status_code < 500, response.status_code
    assert play.game(slug).version == before
    return response.get_json()["error"]


@pytest.mark.parametrize("shape", ODD_SHAPES)
def test_a_json_move_of_any_shape_is_a_4xx_with_a_short_message(play, shape):
    """A move's "type" (or the move itself) of any JSON shape is refused, never a 500,
    and the refusal does not echo a huge value back."""
    slug = play.start()
    before = play.game(slug).version
    moves = ({"type": shape}, {"type": "draw", "from": shape}, {"type": "discard", "card": shape})
    for action in (*moves, shape):
        body = {"version": before, "action": action}
        response = play.client.post(f"/play/{slug}/move.json", json=body)
        error = _refused_and_unchanged(play, slug, response, before)
        assert error and len(error) < 300


@pytest.mark.parametrize("shape", ODD_SHAPES)
def test_a_tap_of_any_shape_is_a_4xx_with_a_short_message(play, shape):
    slug = play.start()
    before = play.game(slug).version
    taps = [({"type": shape}, []), (shape, []), ("discard", [shape]), (f"take:{shape}", [])]
    for do, cards in taps:
        body = {"version": before, "do": do, "cards": cards}
        response = play.client.post(f"/play/{slug}/tap", json=body)
        error = _refused_and_unchanged(play, slug, response, before)
        assert error and len(error) < 300


@pytest.mark.parametrize("shape", ODD_SHAPES)
def test_a_form_move_of_any_shape_is_refused_and_changes_nothing(play, shape):
    slug = play.start()
    before = play.game(slug).version
    response = play.move(slug, json.dumps({"type": shape}))
    assert response.status_code < 500 and play.game(slug).version == before
    page = play.client.get(f"/play/{slug}").get_data(as_text=True)
    assert "not a move" in page and "d" * 300 not in page
