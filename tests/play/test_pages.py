"""The digital game at /play through Flask's test client: starting, moving, refusals,
stale versions, a whole game, the round scores and the downloadable record."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from scorekeeper.engine import Discard, Draw, GameState, legal_actions, make_bot
from scorekeeper.engine.game.records import replay
from scorekeeper.extensions import db
from scorekeeper.models import DigitalGame
from scorekeeper.play import services as digital
from scorekeeper.play import store


class PlayActions:
    """Common steps: start a game, read it back, post moves as forms or JSON."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        self.app = app
        self.client = client

    def start(self, **fields: str) -> str:
        data = {"name": "Sam", "preset": "standard", "bot_0": "casual", "seed": "7"} | fields
        response = self.client.post("/play", data=data)
        assert response.status_code == 302, response.data
        return response.headers["Location"].split("?")[0].rsplit("/", 1)[1]

    def game(self, slug: str) -> DigitalGame:
        with self.app.app_context():
            game = digital.get_game(slug)
            assert game is not None
            db.session.expunge(game)
            return game

    def state(self, slug: str) -> GameState:
        with self.app.app_context():
            game = digital.get_game(slug)
            assert game is not None
            return store.full_state(game)

    def scored(self, slug: str) -> list[dict[str, Any]]:
        with self.app.app_context():
            game = digital.get_game(slug)
            assert game is not None
            return digital.scored_rounds(game)

    def move(self, slug: str, do: str, cards: tuple[str, ...] = (), version: int | None = None):
        version = self.game(slug).version if version is None else version
        data = {"version": str(version), "do": do, "cards": list(cards)}
        return self.client.post(f"/play/{slug}/move", data=data)

    def act(self, slug: str, action: dict[str, Any] | None, version: int | None = None):
        version = self.game(slug).version if version is None else version
        body = {"version": version, "action": action}
        return self.client.post(f"/play/{slug}/move.json", json=body)

    def refused(self, response) -> str:
        """The game page a refused move leads back to (redirect after POST)."""
        assert response.status_code == 303, response.status_code
        return text(self.client.get(response.headers["Location"]))

    def edit_state(self, slug: str, **changes: Any) -> None:
        """Set fields of the stored engine state (to stage a position)."""
        with self.app.app_context():
            game = digital.get_game(slug)
            assert game is not None
            game.state = game.state | changes
            db.session.commit()


@pytest.fixture
def play(app: Flask, client: FlaskClient) -> PlayActions:
    return PlayActions(app, client)


def text(response) -> str:
    return response.get_data(as_text=True)


# ---- starting ---------------------------------------------------------------------------


def test_the_new_game_page_offers_presets_house_rules_and_bot_levels(client) -> None:
    page = text(client.get("/play"))
    assert client.get("/play").status_code == 200
    assert "Jokers wild with &#34;Rummy!&#34;" in page or 'Jokers wild with "Rummy!"' in page
    assert "The ace in a run" in page and "round the corner allowed" in page
    assert "When the stock runs out" in page
    assert "<b>Casual</b>" in page and "melds greedily" in page and "no bot" in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"bot_0": ""}, "choose at least one bot"),
        ({"opt_divide_by_five": "true"}, "dividing by five (S9)"),
        ({"preset": "partnership"}, "partnership play is for 4 players"),
        ({"opt_dealers_gambit": "true", "opt_jokers": "1"}, "plays with 2 jokers (54 cards) or 4"),
        ({"seed": "-4"}, "Number must be between"),
        ({"preset": "nonsense"}, "Not a valid choice"),
    ],
)
def test_a_game_that_cannot_be_set_up_says_why_next_to_the_field(client, fields, message):
    data = {"preset": "standard", "bot_0": "casual"} | fields
    response = client.post("/play", data=data)
    assert response.status_code == 422
    assert message in text(response)
    with client.application.app_context():
        assert db.session.execute(db.select(DigitalGame)).first() is None


def test_starting_stores_the_game_and_lets_bots_that_come_first_move(play) -> None:
    slug = play.start(bot_0="beginner", bot_1="casual", bot_2="casual")
    game = play.game(slug)
    state = play.state(slug)
    assert state.players == ("Sam", "Ada", "Bea", "Cy")
    assert game.bots == [None, "beginner", "casual", "casual"]
    assert state.seat == game.human_seat == 0 and not game.finished
    bots_first = (state.dealer + 1) % 4 != 0
    assert bool(game.moves) == bots_first == (game.version > 1)
    # each bot's move was made by a job as a version of its own
    assert all(m["bot"] for m in game.moves)
    assert sorted({m["v"] for m in game.moves}) == list(range(2, game.version + 1))
    page = text(play.client.get(f"/play/{slug}"))
    assert "Your turn: draw from the stock" in page and "Discard pile" in page
    assert play.client.get("/play").status_code == 200
    assert f"/play/{slug}" in text(play.client.get("/play"))  # this phone's games


# ---- moves by form ------------------------------------------------------------------------


def test_a_draw_and_a_discard_pass_the_turn_to_the_bots_and_back(play) -> None:
    slug = play.start()
    response = play.move(slug, "stock")
    assert response.status_code == 303 and response.headers["Location"].endswith("?step=2")
    state = play.state(slug)
    assert state.phase.value == "play" and len(state.hands[0]) == 14
    card = state.hands[0][0].text
    response = play.move(slug, "discard", (card,))
    assert response.status_code == 303
    game = play.game(slug)
    # the discard is version 3; each bot's move after it a version of its own, by a job
    assert sorted({m["v"] for m in game.moves[1:]}) == list(range(4, game.version + 1))
    # the words are kept as a message id with its figures too, to be said in any language
    said = {"id": "discards %(card)s", "figures": {"card": state.hands[0][0].display}}
    assert game.moves[0] == {
        "who": "Sam",
        "kind": "move",
        "text": f"discards {state.hands[0][0].display}",
        "text_said": said,
        "cards": [card],
        "groups": [],
        "v": 3,
    }
    assert [m["who"] for m in game.moves[1:3]] == ["Ada", "Ada"]
    play.move(slug, "stock")  # the person's turn goes on: the bots' moves stay listed
    moves = play.game(slug).moves
    assert moves[: len(game.moves)] == game.moves and moves[-1]["v"] == game.version + 1
    assert moves[-1]["text"] == "draws from the stock"
    page = text(play.client.get(f"/play/{slug}"))
    assert "Latest moves (" in page and "draws from the stock" in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"do": "stock"}, "This field is required"),
        ({"version": "x", "do": "stock"}, "this page is out of date"),
        ({"version": "1"}, "choose a move"),
        ({"version": "1", "do": "take:x"}, "is not a number"),
        ({"version": "1", "do": "{bad json"}, "that is not a move: Expecting"),
    ],
)
def test_a_malformed_move_form_is_refused_and_changes_nothing(play, data, message) -> None:
    slug = play.start()
    before = play.game(slug).state
    response = play.client.post(f"/play/{slug}/move", data=data)
    assert response.status_code == 400
    assert message in text(response)
    assert play.game(slug).state == before and play.game(slug).version == 1


@pytest.mark.parametrize(
    ("do", "cards", "message"),
    [
        ("juggle", (), "there is no move called"),
        ("take", (), "choose a card of the discard pile"),
        ("discard", ("ZZ",), "not a card"),
        ("discard", ("2C", "3C"), "tap one card of your hand to discard (you chose 2)"),
        ("lay_off:0", (), "tap one card of your hand to lay off (you chose 0)"),
        ('{"type": "fly"}', (), "there is no action of type"),
    ],
)
def test_a_move_that_names_no_move_says_why_and_changes_nothing(play, do, cards, message):
    slug = play.start()
    before = play.game(slug).state
    page = play.refused(play.move(slug, do, cards))
    assert message in page
    assert play.game(slug).state == before and play.game(slug).version == 1
    assert message not in text(play.client.get(f"/play/{slug}"))  # said once


def test_an_illegal_move_is_explained_in_the_rule_s_words_with_its_id(play) -> None:
    slug = play.start()
    state = play.state(slug)
    page = play.refused(play.move(slug, "discard", (state.hands[0][0].text,)))
    assert "Not allowed:" in page and "first draw" in page
    assert 'href="/rules#T1"' in page
    unusable = next(
        i for i in range(len(state.pile)) if Draw("discard", i) not in legal_actions(state)
    )
    page = play.refused(play.move(slug, f"take:{unusable}"))
    assert "can be taken only if you use it at once" in page
    assert 'href="/rules#T2"' in page
    assert play.game(slug).version == 1


def test_a_lay_down_that_is_no_meld_says_which_rule(play) -> None:
    slug = play.start()
    play.move(slug, "stock")
    hand = play.state(slug).hands[0]
    spades = [c.text for c in hand if c.suit == "S"][:1]
    hearts = [c.text for c in hand if c.suit == "H"][:2]
    page = play.refused(play.move(slug, "lay_down", tuple(spades + hearts)))
    assert "neither a set" in page and 'href="/rules#M1"' in page
    page = play.refused(play.move(slug, "lay_down", tuple(hearts)))
    assert "three or more" in page


def _stage(play: PlayActions, slug: str, hand: list[str], **more: Any) -> None:
    play.edit_state(
        slug,
        hands=[hand, ["2C", "3D", "9S"]],
        phase="play",
        seat=0,
        turn_seat=0,
        opened=[True, True],
        known=[[], []],
        **more,
    )


def test_a_joker_that_can_stand_for_two_cards_asks_which(play) -> None:
    slug = play.start(preset="jokers-wild")
    _stage(play, slug, ["5H", "6H", "JK", "9C"])
    page = play.refused(play.move(slug, "lay_down", ("5H", "JK", "6H")))
    assert "Which do you mean?" in page
    assert "Lay down JK(4♥) 5♥ 6♥" in page and "Lay down 5♥ 6♥ JK(7♥)" in page
    choice = json.dumps({"type": "lay_down", "melds": [["5H", "6H", "JK=7H"]]})
    assert play.move(slug, choice).status_code == 303
    state = play.state(slug)
    assert [c.text for c in state.laid[0]] == ["5H", "6H", "JK=7H"]


def test_laying_off_names_the_meld_and_shows_who_laid_it(play) -> None:
    slug = play.start()
    _stage(
        play, slug, ["8H", "9C", "KD"], owners=[1, 1], laid=[["5H", "6H", "7H"], ["9S", "9D", "9H"]]
    )
    assert "Not allowed" in play.refused(play.move(slug, "lay_off:0", ("9C",)))  # not a run
    assert play.move(slug, "lay_off:1", ("9C",)).status_code == 303
    assert play.move(slug, "lay_off:0", ("8H",)).status_code == 303
    page = text(play.client.get(f"/play/{slug}"))
    assert '<h2 class="owner-name">Ada</h2>' in page and "Meld 1, a run" in page
    assert "+Sam" in page
    state = play.state(slug)
    assert state.layoffs == [(0, state.layoffs[0][1], 1), (0, state.layoffs[1][1], 0)]


# ---- versions, unknown games, JSON --------------------------------------------------------


def test_a_move_on_an_old_version_is_refused_and_the_player_told_to_reload(play) -> None:
    slug = play.start()
    assert play.move(slug, "stock", version=1).status_code == 303
    before = play.game(slug).state
    response = play.move(slug, "stock", version=1)  # a second tab still on version 1
    assert response.status_code == 409
    assert "moved on in another tab" in text(response) and "Reload the game" in text(response)
    assert play.game(slug).state == before and play.game(slug).version == 2


def test_two_workers_saving_at_once_cannot_both_win(play, app, monkeypatch) -> None:
    slug = play.start()
    step = digital.step

    def another_worker_saves_meanwhile(*args: Any, **kwargs: Any) -> bool:
        ended = step(*args, **kwargs)
        with db.engine.begin() as connection:
            connection.execute(update(DigitalGame).values(version=DigitalGame.version + 1))
        return ended

    monkeypatch.setattr(digital, "step", another_worker_saves_meanwhile)
    response = play.move(slug, "stock", version=1)
    assert response.status_code == 409 and "moved on" in text(response)
    assert play.state(slug).phase.value == "draw"
    assert play.game(slug).version == 2


@pytest.mark.parametrize("path", ["/play/nope", "/play/nope/rounds", "/play/nope/record"])
def test_an_unknown_game_is_not_found(client, path) -> None:
    response = client.get(path)
    assert response.status_code == 404 and "There is no game at this link" in text(response)


def test_a_move_on_an_unknown_game_is_not_found(client) -> None:
    assert client.post("/play/nope/move", data={"version": "1", "do": "stock"}).status_code == 404


def test_moves_as_json(play) -> None:
    slug = play.start()
    url = f"/play/{slug}/move.json"
    assert play.client.post(url, data={"version": "1"}).status_code == 415
    missing = play.client.post("/play/nope/move.json", json={"version": 1})
    assert missing.status_code == 404 and "no game" in missing.get_json()["error"]
    bad = play.client.post(url, json={"action": {"type": "draw"}})
    assert bad.status_code == 400 and "version" in bad.get_json()["error"]
    bad = play.act(slug, {"type": "teleport"})
    assert bad.status_code == 400 and "no action of type" in bad.get_json()["error"]
    refused = play.act(slug, {"type": "discard", "card": "2C"})
    assert refused.status_code == 422 and refused.get_json()["rule"] == "T1"
    done = play.act(slug, {"type": "draw", "from": "stock"})
    assert done.status_code == 200 and done.get_json()["version"] == 2
    assert done.get_json()["steps"][0]["text"] == "draws from the stock"
    stale = play.act(slug, {"type": "draw", "from": "stock"}, version=1)
    assert stale.status_code == 409 and "Reload" in stale.get_json()["error"]
    seen = play.client.get(f"/play/{slug}/state.json").get_json()
    assert seen["version"] == 2 and seen["view"]["phase"] == "play"
    assert (
        len(seen["view"]["hand"]) == 14
        and {"type": "discard", "card": seen["view"]["hand"][0]} in seen["legal"]
    )
    assert "stock" not in seen["view"]  # the person's view only: no hidden cards
    assert play.client.get("/play/nope/state.json").status_code == 404


def test_with_csrf_on_forms_need_the_token_and_json_moves_do_not(csrf_app) -> None:
    client = csrf_app.test_client()
    page = client.get("/play")
    token = text(page).split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    refused = client.post("/play", data={"preset": "standard", "bot_0": "casual"})
    assert refused.status_code == 400
    started = client.post(
        "/play", data={"preset": "standard", "bot_0": "casual", "csrf_token": token}
    )
    assert started.status_code == 302
    slug = started.headers["Location"].split("?")[0].rsplit("/", 1)[1]
    assert (
        client.post(f"/play/{slug}/move", data={"version": "1", "do": "stock"}).status_code == 400
    )
    seen = client.get(f"/play/{slug}/state.json").get_json()  # after any bots that play first
    action = seen["legal"][0]
    moved = client.post(
        f"/play/{slug}/move.json", json={"version": seen["version"], "action": action}
    )
    assert moved.status_code == 200


# ---- a whole game, its scores and its record -------------------------------------------------


def _play_to_the_end(play: PlayActions, slug: str, pages: bool = False) -> set[str]:
    """The person plays as a basic bot through the JSON moves; returns the phases met
    (with ``pages``, the game page is read in each, and must show)."""
    rng = random.Random(5)
    bot = make_bot("basic")
    phases: set[str] = set()
    for _ in range(3000):
        game = play.game(slug)
        if game.finished:
            return phases
        if game.paused:
            response = play.client.post(
                f"/play/{slug}/move.json", json={"version": game.version, "do": "next_round"}
            )
            assert response.status_code == 200, response.get_json()
            continue
        state = play.state(slug)
        phases.add(state.phase.value)
        if pages and state.phase.value not in ("draw", "play"):
            page = play.client.get(f"/play/{slug}")
            assert page.status_code == 200 and 'class="prompt"' in text(page)
        action = bot.choose(*_view(state), rng)
        response = play.act(slug, action.to_json())
        assert response.status_code == 200, response.get_json()
    raise AssertionError("the game did not end")


def _view(state: GameState) -> tuple[Any, list[Any]]:
    from scorekeeper.engine import observation

    return observation(state, state.seat), legal_actions(state)


def test_a_whole_game_against_bots_to_the_end(play) -> None:
    slug = play.start(preset="quick", bot_1="beginner", seed="11")
    assert {"draw", "play"} <= _play_to_the_end(play, slug)
    game = play.game(slug)
    state = play.state(slug)
    assert game.finished and game.winner == state.winner
    assert len(play.scored(slug)) == len(state.rounds)
    for scored, stored in zip(play.scored(slug), state.rounds, strict=True):
        assert scored["players"] == stored["scores"]
        assert scored["cards"], "every round is explained card by card"
    page = text(play.client.get(f"/play/{slug}"))
    assert "wins the game" in page or "You win the game" in page
    assert f"/play/{slug}/record" in page and "Play again" in page
    assert "the game is over" in play.refused(play.move(slug, "stock"))
    rounds = text(play.client.get(f"/play/{slug}/rounds"))
    assert f"Round {len(state.rounds)}" in rounds and 'class="rule-id" href="/rules#S' in rounds
    download = play.client.get(f"/play/{slug}/record")
    assert download.status_code == 200
    assert "attachment" in download.headers["Content-Disposition"]
    record = json.loads(download.get_data(as_text=True))
    assert record["format"] == "500rum-record/1" and record["bots"][0] == "person"
    replayed = replay(record)
    assert replayed.totals == state.totals and replayed.winner == record["final"]["winner"]


def test_the_record_of_a_game_in_progress_replays_its_finished_rounds(play) -> None:
    slug = play.start()
    play.move(slug, "stock")
    record = json.loads(text(play.client.get(f"/play/{slug}/record")))
    assert record["final"] is None and record["rounds"] == []
    assert replay(record).deal_number == 1


def test_discarding_the_card_just_kept_is_refused_with_its_rule(play) -> None:
    slug = play.start(preset="classic")
    state = play.state(slug)
    top = len(state.pile) - 1
    play.move(slug, f"take:{top}")
    card = state.pile[top]
    page = play.refused(play.move(slug, "discard", (card.text,)))
    assert 'href="/rules#T3"' in page
    assert Discard(card) not in legal_actions(play.state(slug))


@pytest.mark.parametrize(
    ("fields", "phase"),
    [
        ({"preset": "jokers-wild", "bot_1": "casual", "seed": "3"}, "rummy"),
        (
            {
                "opt_out_of_turn_melding": "true",
                "bot_1": "casual",
                "opt_target": "100",
                "seed": "5",
            },
            "out_of_turn",
        ),
        ({"opt_first_discard": '"extra-card-to-left"', "opt_target": "100"}, "start_pile"),
        ({"opt_deadwood_after_out": "true", "opt_target": "150", "seed": "12"}, "deadwood"),
    ],
)
def test_the_person_is_asked_in_every_phase_the_house_rules_add(play, fields, phase) -> None:
    slug = play.start(**fields)
    assert phase in _play_to_the_end(play, slug, pages=True)
    game = play.game(slug)
    assert game.finished and all(scored["cards"] for scored in play.scored(slug))
