"""Dealer's gambit (X2, seed 002) at /play through Flask's test client: a person plays it
through the generic moves (the action JSON of the page's buttons), the board shows the
dealer's joker, its nomination and a block."""

from __future__ import annotations

import json
import random

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.engine import Nominate, Phase, make_bot, observation
from scorekeeper.engine.game.records import replay
from scorekeeper.engine.game.turns import legal_actions

from .test_pages import PlayActions, text


def resume(play: PlayActions, slug: str) -> bool:
    """Dismiss the round-end pause with "Next round" when the game waits there."""
    game = play.game(slug)
    if not game.paused:
        return False
    body = {"version": game.version, "do": "next_round"}
    assert play.client.post(f"/play/{slug}/move.json", json=body).status_code == 200
    return True


@pytest.fixture
def play(app: Flask, client: FlaskClient) -> PlayActions:
    return PlayActions(app, client)


def test_the_new_game_form_offers_dealers_gambit_and_a_target_of_250(client) -> None:
    """002: "some people only play to a smaller score of 250 points" (G1)."""
    page = text(client.get("/play"))
    assert "Dealer&#39;s gambit" in page or "Dealer's gambit" in page
    assert 'name="opt_target"' in page
    response = client.post(
        "/play",
        data={
            "name": "Sam",
            "preset": "standard",
            "bot_0": "casual",
            "bot_1": "strong",
            "seed": "4",
            "opt_dealers_gambit": "true",
            "opt_target": "250",
        },
    )
    assert response.status_code == 302


def test_a_person_nominates_through_the_page_and_sees_the_dealers_joker(play) -> None:
    """002: "After dealing but before any of the players look at their cards the dealer
    must nominate the effect of the jokers for that hand"."""
    slug = play.start(opt_dealers_gambit="true", opt_target="250", bot_1="strong", seed="2")
    for _ in range(400):
        resume(play, slug)
        state = play.state(slug)
        if state.phase.value == "nominate" and state.seat == 0:
            break
        action = make_bot("basic").choose(
            observation(state, state.seat), legal_actions(state), random.Random(1)
        )
        assert play.act(slug, action.to_json()).status_code == 200
    else:
        raise AssertionError("the person never dealt")
    page = text(play.client.get(f"/play/{slug}"))
    assert "nominate what the jokers do this hand" in page
    assert "Nominate the jokers double" in page
    assert "Dealer's joker (Sam): face up beside the pack" in page
    play.act(slug, Nominate("double").to_json())
    page = text(play.client.get(f"/play/{slug}"))
    assert "jokers this hand: double" in page


def test_no_card_of_the_persons_hand_is_shown_before_the_dealer_nominates(play) -> None:
    """002: "After dealing but before any of the players look at their cards the dealer
    must nominate the effect of the jokers for that hand" (issue 23: the person's seven
    cards were on the board and in state.json while the only moves were nominations).
    Seed 1 makes Sam the first dealer."""
    slug = play.start(opt_dealers_gambit="true", opt_target="250", bot_1="strong", seed="1")
    state = play.state(slug)
    assert state.phase is Phase.NOMINATE and state.seat == 0 and len(state.hands[0]) == 7
    client = play.client
    shown = {
        "page": text(client.get(f"/play/{slug}")),
        "board": text(client.get(f"/play/{slug}/board.json")),
        "state": text(client.get(f"/play/{slug}/state.json")),
        "hint": text(client.get(f"/play/{slug}/hint.json")),
    }
    for card in state.hands[0]:
        for where, body in shown.items():
            assert f'"{card.text}"' not in body and card.name not in body, (card, where)
    view = json.loads(shown["state"])["view"]
    assert view["hand"] == [] and view["hand_sizes"] == [7, 7, 7]
    advice = json.loads(shown["hint"])
    assert advice["action"] == {"type": "nominate", "effect": "double"}
    assert advice["why"].startswith("Nominate the jokers double")
    assert shown["page"].count('class="pcard back"') == 7 and "7 cards" in shown["page"]
    assert "Your cards stay face down until the dealer has nominated" in shown["page"]
    play.act(slug, Nominate("wild").to_json())
    page = text(client.get(f"/play/{slug}"))
    assert 'class="pcard back"' not in page
    assert all(f'data-card="{card.text}"' in page for card in state.hands[0])


def test_a_bot_dealers_nomination_is_told_when_next_round_is_tapped(play) -> None:
    """The next deal's bot dealer nominates as the person taps "Next round" (a job): the
    latest moves say so, with why, from what the table knows (a nomination was a step with no
    words, and the tap failed)."""
    slug = play.start(opt_dealers_gambit="true", opt_target="250", bot_1="strong", seed="1")
    rng, bot = random.Random(3), make_bot("basic")
    for _ in range(600):
        if play.game(slug).paused:
            break
        state = play.state(slug)
        action = bot.choose(observation(state, state.seat), legal_actions(state), rng)
        assert play.act(slug, action.to_json()).status_code == 200
    game = play.game(slug)
    assert game.paused and play.state(slug).dealer == 2
    body = {"version": game.version, "do": "next_round"}
    answer = play.client.post(f"/play/{slug}/tap", json=body)
    assert answer.status_code == 200
    first = next(m for m in play.game(slug).moves if m["who"] == "Bea")
    assert (first["who"], first["text"]) == ("Bea", "nominates the jokers double")
    assert first["why"].startswith("nominated the jokers double")


def test_a_whole_x2_game_is_played_by_a_person_and_its_record_replays(play) -> None:
    """The person's every move goes through the JSON moves; the downloaded record
    replays (game-record.md, with X2's fields)."""
    slug = play.start(opt_dealers_gambit="true", opt_target="250", bot_1="beginner", seed="9")
    rng = random.Random(3)
    bot = make_bot("basic")
    seen = set()
    for _ in range(3000):
        game = play.game(slug)
        if game.finished:
            break
        if resume(play, slug):
            continue
        state = play.state(slug)
        legal = legal_actions(state)
        action = bot.choose(observation(state, state.seat), legal, rng)
        seen.add(type(action).__name__)
        response = play.act(slug, action.to_json())
        assert response.status_code == 200, response.get_json()
    assert play.game(slug).finished and "Nominate" in seen
    record = json.loads(text(play.client.get(f"/play/{slug}/record")))
    assert all(r["dealers_joker"] == "JK" for r in record["rounds"])
    assert replay(record).totals == play.state(slug).totals
