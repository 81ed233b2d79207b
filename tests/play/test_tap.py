"""The play page's moves in place (POST /play/<slug>/tap, JSON, CSRF token in a header):
the board comes back to swap in, the bots' moves as frames, refusals as JSON with the
rule id, questions as choices; the pause at a round's end and "Next round"; the finished
rounds kept in their own rows (and the migration that moved existing games there)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import downgrade, upgrade

from scorekeeper import create_app
from scorekeeper.engine import GameState, apply_action, legal_actions, new_game
from scorekeeper.extensions import db
from scorekeeper.models import DigitalGame, DigitalRound
from scorekeeper.play import store
from tests.play.test_pages import PlayActions, _stage


@pytest.fixture
def play(app: Flask, client: FlaskClient) -> PlayActions:
    return PlayActions(app, client)


def tap(play: PlayActions, slug: str, version: int | None = None, **body: Any):
    version = play.game(slug).version if version is None else version
    return play.client.post(f"/play/{slug}/tap", json={"version": version, **body})


def test_a_tap_answers_with_the_board_and_the_bots_moves_follow_as_versions(play) -> None:
    slug = play.start()
    drawn = tap(play, slug, do="stock")
    assert drawn.status_code == 200 and drawn.headers["Cache-Control"] == "no-store"
    answer = drawn.get_json()
    assert answer["version"] == 2 and answer["paused"] is False
    assert 'class="dock"' in answer["board"] and 'value="discard"' in answer["board"]
    assert "frames" not in answer  # the bots' moves come through the stream, one a version
    card = play.state(slug).hands[0][0].text
    answer = tap(play, slug, do="discard", cards=[card]).get_json()
    game = play.game(slug)
    assert answer["version"] == game.version > 3  # the jobs (inline here) made the bots' moves
    whos = [m["who"] for m in game.moves]
    assert whos[0] == "Sam" and "Ada" in whos  # the person's discard, then the bot's moves
    assert all(m["bot"] for m in game.moves[1:])
    assert [m["v"] for m in game.moves][:2] == [3, 4]
    assert 'class="legal"' in answer["board"]  # Draw is highlighted: the person's turn again


def test_refusals_come_back_as_json_with_the_rule_and_change_nothing(play) -> None:
    slug = play.start()
    before = play.game(slug).state
    refused = tap(play, slug, do="discard", cards=["2C"])
    assert refused.status_code == 422
    assert refused.get_json()["rule"] and refused.get_json()["error"]
    stale = tap(play, slug, version=7, do="stock")
    assert stale.status_code == 409 and "moved on" in stale.get_json()["error"]
    bad = tap(play, slug, do="take:x")
    assert bad.status_code == 400 and "not a move" in bad.get_json()["error"]
    assert play.client.post(f"/play/{slug}/tap", data="x").status_code == 415
    assert play.client.post("/play/nope/tap", json={"version": 1}).status_code == 404
    assert play.game(slug).state == before and play.game(slug).version == 1


def test_a_card_that_lays_off_on_two_melds_asks_which(play) -> None:
    slug = play.start()
    _stage(play, slug, ["9C", "KD"], owners=[1, 1], laid=[["9S", "9D", "9H"], ["6C", "7C", "8C"]])
    asked = tap(play, slug, do="lay_off", cards=["9C"]).get_json()
    labels = [c["label"] for c in asked["choices"]]
    assert labels == ["Lay off 9♣ on Ada's meld 1", "Lay off 9♣ on Ada's meld 2"]
    assert play.game(slug).version == 1
    made = tap(play, slug, do=json.loads(asked["choices"][1]["value"]))
    assert made.status_code == 200 and play.state(slug).layoffs[0][2] == 1
    nowhere = tap(play, slug, do="lay_off", cards=["KD"])
    assert nowhere.status_code == 422 and nowhere.get_json()["rule"] == "L1"


def test_with_csrf_on_a_tap_needs_the_token_in_its_header(csrf_app) -> None:
    client = csrf_app.test_client()
    page = client.get("/play").get_data(as_text=True)
    token = page.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    data = {"preset": "standard", "bot_0": "casual", "csrf_token": token}
    slug = client.post("/play", data=data).headers["Location"].split("?")[0].rsplit("/", 1)[1]
    version = client.get(f"/play/{slug}/state.json").get_json()["version"]  # bots first?
    body = {"version": version, "do": "stock"}
    assert client.post(f"/play/{slug}/tap", json=body).status_code == 400
    sent = client.post(f"/play/{slug}/tap", json=body, headers={"X-CSRFToken": token})
    assert sent.status_code == 200 and sent.get_json()["version"] == version + 1


def test_a_round_ends_in_a_pause_until_next_round(play) -> None:
    slug = play.start()
    _stage(play, slug, ["5H", "6H", "7H", "9C"])
    assert tap(play, slug, do="lay_down", cards=["5H", "6H", "7H"]).status_code == 200
    answer = tap(play, slug, do="discard", cards=["9C"]).get_json()
    assert answer["paused"] is True
    board = answer["board"]
    assert "Round 1 is over: Sam went out" in board and "Next round" in board
    assert "hand left" in board and 'class="dock"' not in board  # the new hand not shown yet
    rows = play.scored(slug)
    assert len(rows) == 1 and rows[0]["players"]["Sam"]["round"] > 0
    waiting = tap(play, slug, do="stock")
    assert waiting.status_code == 422 and waiting.get_json()["rule"] == "D5"
    page = play.client.get(f"/play/{slug}").get_data(as_text=True)
    assert "Round 1 is over" in page and 'value="next_round"' in page
    dealt = tap(play, slug, do="next_round").get_json()
    assert dealt["paused"] is False and 'class="dock"' in dealt["board"]
    assert play.state(slug).deal_number == 2 and len(play.state(slug).rounds) == 1
    assert tap(play, slug, do="next_round").get_json()["rule"] == "D5"


def test_a_move_reads_and_writes_only_the_round_in_play(play) -> None:
    slug = play.start()
    _stage(play, slug, ["5H", "6H", "7H", "9C"])
    assert tap(play, slug, do="lay_down", cards=["5H", "6H", "7H"]).status_code == 200
    assert tap(play, slug, do="discard", cards=["9C"]).get_json()["paused"] is True
    with play.app.app_context():
        game = db.session.execute(db.select(DigitalGame)).scalar_one()
        assert "rounds" not in game.state and game.state["opened_game"] == [0]  # M6
        state = store.load_state(game)
        assert state.rounds == [] and store.fresh_rounds(state) == []
        assert state.opened_game == {0} and len(store.full_state(game).rounds) == 1


def test_a_state_saved_before_it_kept_who_opened_gets_them_from_the_log(play) -> None:
    """States saved before ``opened_game`` (M6, once per game) was kept load with it read
    from the finished rounds in the log, and the next move saves it."""
    slug = play.start()
    _stage(play, slug, ["5H", "6H", "7H", "9C"])
    assert tap(play, slug, do="lay_down", cards=["5H", "6H", "7H"]).status_code == 200
    assert tap(play, slug, do="discard", cards=["9C"]).get_json()["paused"] is True
    with play.app.app_context():
        game = db.session.execute(db.select(DigitalGame)).scalar_one()
        game.state = {k: v for k, v in game.state.items() if k != "opened_game"}
        db.session.commit()
        assert store.load_state(game).opened_game == {0}
        assert store.full_state(game).opened_game == {0}
    assert tap(play, slug, do="next_round").status_code == 200
    assert play.game(slug).state["opened_game"] == [0]


def test_the_migration_moves_existing_games_rounds_into_rows(tmp_path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/m.db",
            "JOBS": "inline",
        }
    )
    state = new_game(["Sam", "Ada"], preset="standard", seed=4)
    rng = random.Random(4)
    while len(state.rounds) < 2:
        apply_action(state, rng.choice(legal_actions(state)))
    old = state.to_json()
    scored = [s.to_json() for s in state.scores]
    with app.app_context():
        upgrade()
        downgrade(revision="c4d2e8f1a907")
        with db.engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO digital_games (id, slug, preset, options, seed, human_seat, bots, "
                    "state, moves, scored, version, finished, created_at, updated_at) VALUES (1, "
                    "'g', 'standard', '{}', '4', 0, '[null, \"basic\"]', :state, '[]', :scored, 3, "
                    "0, '2026-01-01', '2026-01-01')"
                ),
                {"state": json.dumps(old), "scored": json.dumps(scored)},
            )
        upgrade()
        game = db.session.execute(db.select(DigitalGame)).scalar_one()
        assert "rounds" not in game.state and not game.paused
        rows = db.session.execute(db.select(DigitalRound).order_by(DigitalRound.number)).scalars()
        assert [(r.number, r.record, r.scored) for r in rows] == [
            (1, old["rounds"][0], scored[0]),
            (2, old["rounds"][1], scored[1]),
        ]
        assert store.full_state(game) == GameState.from_json(old)
        db.session.remove()
        downgrade(revision="c4d2e8f1a907")
        with db.engine.connect() as conn:
            back = conn.execute(sa.text("SELECT state, scored FROM digital_games")).one()
        assert json.loads(back.state) == old and json.loads(back.scored) == scored


class _Nominate:
    """A move some house rule might add, with no control of its own on the page."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "nominate", "seat": 1}

    def describe(self) -> str:
        return "nominate Ada"


def test_a_legal_move_without_a_control_is_offered_as_a_labelled_button(play, monkeypatch):
    from scorekeeper.play import board

    slug = play.start()
    real = board.legal_actions
    monkeypatch.setattr(board, "legal_actions", lambda state: [*real(state), _Nominate()])
    page = play.client.get(f"/play/{slug}").get_data(as_text=True)
    value = json.dumps({"type": "nominate", "seat": 1}).replace('"', "&#34;")
    assert f'<button name="do" value="{value}">Nominate ada</button>' in page


def test_without_javascript_next_round_is_a_form(play) -> None:
    slug = play.start()
    _stage(play, slug, ["5H", "6H", "7H", "9C"])
    play.move(slug, "lay_down", ("5H", "6H", "7H"))
    play.move(slug, "discard", ("9C",))
    assert play.game(slug).paused
    page = play.refused(play.move(slug, "stock"))
    assert "Next round" in page and 'href="/rules#D5"' in page
    response = play.move(slug, "next_round")
    assert response.status_code == 303 and not play.game(slug).paused
    assert 'class="dock"' in play.client.get(f"/play/{slug}").get_data(as_text=True)
