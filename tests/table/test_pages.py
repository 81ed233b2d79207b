"""The scorekeeper's pages through Flask's test client: every route and every refusal."""

from __future__ import annotations

import io
import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Game, Round


class GameActions:
    """Common steps: start a game, open its forms, record rounds, read the game back."""

    def __init__(self, client: FlaskClient, app: Flask) -> None:
        self.client, self.app = client, app
        self.slug = ""

    def start(self, names=("Ann", "Bob", "Cat"), preset="standard", **fields) -> str:
        data = {f"player_{i}": n for i, n in enumerate(names)}
        data |= {"preset": preset, "first_dealer": "0"} | fields
        response = self.client.post("/games/new", data=data)
        assert response.status_code == 302, response.data
        self.slug = response.location.rsplit("/", 1)[-1]
        return self.slug

    def form(self, path: str) -> dict[str, str]:
        """The hidden fields of the form at ``path`` (nonce, version, csrf)."""
        page = self.client.get(path).get_data(as_text=True)
        fields = re.findall(r'<input id="(\w+)" name="\w+" type="hidden" value="([^"]*)"', page)
        return dict(fields)

    def totals(self, went_out, shown, in_hand, adjust=None, action="save", **extra):
        """Post a totals round; ``went_out`` a seat number or None; figures per seat."""
        path = f"/games/{self.slug}/rounds/new"
        data = self.form(path) | {"mode": "totals", "action": action, **extra}
        data["went_out"] = "" if went_out is None else str(went_out)
        for i, (s, h) in enumerate(zip(shown, in_hand, strict=True)):
            data[f"shown-{i}"], data[f"in_hand-{i}"] = str(s), str(h)
            data[f"adjust-{i}"] = str((adjust or {}).get(i, ""))
        return self.client.post(path, data=data)

    def cards(self, went_out, fields, action="save"):
        path = f"/games/{self.slug}/rounds/new"
        data = self.form(path + "?mode=cards") | {"mode": "cards", "action": action}
        data["went_out"] = "" if went_out is None else str(went_out)
        return self.client.post(path, data=data | fields)

    def game(self) -> Game:
        with self.app.app_context():
            game = db.session.execute(db.select(Game).filter_by(view_token=self.slug)).scalar_one()
            _ = list(game.rounds), list(game.changes), list(game.players)
            db.session.expunge_all()
            return game

    def totals_now(self) -> dict[str, int]:
        data = json.loads(self.client.get(f"/games/{self.slug}/export.json").data)
        if not data["rounds"]:
            return {}
        return {n: f["total"] for n, f in data["rounds"][-1]["response"]["players"].items()}

    def rounds(self) -> list[dict]:
        return json.loads(self.client.get(f"/games/{self.slug}/export.json").data)["rounds"]


@pytest.fixture
def games(client: FlaskClient, app: Flask) -> GameActions:
    return GameActions(client, app)


def test_home_lists_games_newest_first(games, client):
    games.start(("Ann", "Bob"), title="First night")
    games.start(("Cat", "Dee"), title="Second night")
    page = client.get("/").get_data(as_text=True)
    assert page.index("Second night") < page.index("First night")
    assert "No finished game on this phone yet." in page


def test_new_game_shows_house_rules_in_plain_words(games, client):
    slug = games.start(preset="standard", opt_min_run="4", target="300")
    page = client.get(f"/games/{slug}").get_data(as_text=True)
    assert "M3" in page and "300" in page
    assert "to go" in page and "Next deal: <strong>Ann</strong>" in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"player_0": "Ann", "player_1": ""}, "enter 2 to 8 players"),
        ({"player_0": "Ann", "player_1": "ann"}, "same name"),
        ({"player_0": "A" * 41, "player_1": "Bob"}, "40 characters"),
        ({"player_0": "Ann", "player_1": "Bob", "preset": "persian"}, "exactly 4 players"),
        ({"player_0": "Ann", "player_1": "Bob", "target": "99999999"}, "between"),
        ({"player_0": "Ann", "player_1": "Bob", "opt_jokers": "2"}, "joker rule"),
        ({"player_0": "Ann", "player_1": "Bob", "first_dealer": "5"}, "first dealer"),
        ({"player_0": "Ann", "player_1": "Bob", "stake": "-1"}, "between"),
    ],
)
def test_new_game_refuses_bad_input(client, fields, message):
    data = {"preset": "standard", "first_dealer": "0"} | fields
    response = client.post("/games/new", data=data)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert "No game in progress on this phone." in client.get("/").get_data(as_text=True)


def test_name_with_html_is_shown_escaped(games, client):
    slug = games.start(("<script>x()</script>", "Bob"))
    page = client.get(f"/games/{slug}").get_data(as_text=True)
    assert "<script>x()</script>" not in page
    assert "&lt;script&gt;x()&lt;/script&gt;" in page


def test_totals_round_preview_then_save(games, client):
    games.start()
    preview = games.totals(0, [45, 20, 10], [0, 12, 30], action="preview")
    assert preview.status_code == 200
    text = preview.get_data(as_text=True)
    assert "Preview" in text and "+45" in text and "-20" in text and "Save round" in text
    assert games.rounds() == []
    saved = games.totals(0, [45, 20, 10], [0, 12, 30])
    assert saved.status_code == 303
    assert games.totals_now() == {"Ann": 45, "Bob": 8, "Cat": -20}


def test_totals_round_applies_add_opponents_hand(games):
    games.start(preset="add-opponents-hand")
    games.totals(1, [30, 40, 10], [15, 0, 25])
    assert games.totals_now() == {"Ann": 30, "Bob": 80, "Cat": 10}


def test_partnership_sides_and_persian_bonus(games, client):
    games.start(("Ann", "Bob", "Cat", "Dee"), preset="persian")
    games.totals(0, [40, 10, 20, 5], [0, 10, 5, 20])
    text = client.get(f"/games/{games.slug}").get_data(as_text=True)
    assert "Ann &amp; Cat" in text and "Bob &amp; Dee" in text
    assert games.totals_now()["Ann"] == 65  # 40 shown + 25 for going out (P4)


def test_adjustment_may_be_negative(games):
    games.start()
    games.totals(0, [10, 0, 0], [0, 0, 0], adjust={1: -25})
    assert games.totals_now()["Bob"] == -25


@pytest.mark.parametrize(
    ("went_out", "shown", "in_hand", "adjust", "message"),
    [
        (0, [10, 5, 5], [3, 0, 0], {}, "nothing is left in hand"),
        (0, [999999, 5, 5], [0, 0, 0], {}, "from 0 to 2000"),
        (0, [-5, 5, 5], [0, 0, 0], {}, "from 0 to 2000"),
        (0, [5, 5, 5], [0, 0, 0], {2: 5000}, "from -1000 to 1000"),
        (0, ["lots", 5, 5], [0, 0, 0], {}, "Not a valid integer"),
    ],
)
def test_totals_round_refuses_bad_figures(games, went_out, shown, in_hand, adjust, message):
    games.start()
    response = games.totals(went_out, shown, in_hand, adjust)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert games.rounds() == [] and games.game().version == 1


def test_same_form_posted_twice_saves_one_round(games, client):
    games.start()
    path = f"/games/{games.slug}/rounds/new"
    data = games.form(path) | {"mode": "totals", "action": "save", "went_out": "0"}
    data |= {f"shown-{i}": "10" for i in range(3)} | {f"in_hand-{i}": "0" for i in range(3)}
    assert client.post(path, data=data).status_code == 303
    again = client.post(path, data=data, follow_redirects=True)
    assert "already saved" in again.get_data(as_text=True)
    assert len(games.rounds()) == 1


def test_second_phone_saving_same_round_is_told(games, client, app):
    games.start()
    path = f"/games/{games.slug}/rounds/new"
    first, second = games.form(path), games.form(path)
    figures = {f"shown-{i}": "10" for i in range(3)} | {f"in_hand-{i}": "0" for i in range(3)}
    base = {"mode": "totals", "action": "save", "went_out": "0"} | figures
    assert client.post(path, data=first | base).status_code == 303
    late = client.post(path, data=second | base)
    assert late.status_code == 409
    assert "someone else changed this game" in late.get_data(as_text=True)
    assert len(games.rounds()) == 1


def test_cards_round_scored_by_engine(games):
    games.start()
    fields = {
        "meld-0-0": "7H 7S 7D",
        "meld-1-0": "3C 4C 5C",
        "layoff-2-0": "6C",
        "onto-2-0": "1-0",
        "hand-0": "",
        "hand-1": "KD",
        "hand-2": "2S 9H",
    }
    preview = games.cards(0, fields, action="preview")
    text = preview.get_data(as_text=True)
    assert (
        preview.status_code == 200
        and "pip value" in text
        and "lay-off onto Bob&#39;s meld 1" in text
    )
    assert games.cards(0, fields).status_code == 303
    assert games.totals_now() == {"Ann": 21, "Bob": 2, "Cat": -5}
    assert games.rounds()[0]["request"]["layoffs"] == [{"owner": "Cat", "card": "6C", "meld": 1}]


def test_cards_round_lay_offs_need_not_be_entered_in_the_order_made(games):
    """Ann's 7♣ (seat 0) only fits after Cat's 6♣ (seat 2) extended Bob's 3♣ 4♣ 5♣:
    the sheet does not record the order, the engine finds one that fits (L1, L3)."""
    games.start()
    fields = {
        "meld-1-0": "3C 4C 5C",
        "layoff-0-0": "7C",
        "onto-0-0": "1-0",
        "layoff-2-0": "6C",
        "onto-2-0": "1-0",
        "hand-0": "KD",
        "hand-1": "",
        "hand-2": "2S",
    }
    assert games.cards(1, fields).status_code == 303
    assert games.totals_now() == {"Ann": 7 - 10, "Bob": 12, "Cat": 6 - 2}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"meld-0-0": "7H 7S 7X"}, "7X"),
        ({"meld-0-0": "7H 7S 7D", "hand-1": "7H"}, "appears more often"),
        ({"meld-0-0": "7H 8S 9D"}, "is neither a set"),
        ({"meld-0-0": "7H 7S 7D", "layoff-1-0": "9C", "onto-1-0": "0-0"}, "does not fit set"),
        ({"meld-0-0": "7H 7S 7D", "layoff-1-0": "7C", "onto-1-0": ""}, "choose a meld"),
    ],
)
def test_cards_round_refuses_bad_cards(games, fields, message):
    games.start()
    response = games.cards(0, fields)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert games.rounds() == []


def test_persian_meld_of_four_marked_double(games):
    games.start(("Ann", "Bob", "Cat", "Dee"), preset="persian")
    response = games.cards(0, {"meld-0-0": "6H 6S 6D 6C", "hand-1": "KD"}, action="preview")
    text = response.get_data(as_text=True)
    assert "doubled: meld of four laid at once" in text and "laid at once" in text


def test_correct_round_recomputes_later_totals(games, client):
    games.start()
    games.totals(0, [40, 10, 10], [0, 5, 5])
    games.totals(1, [10, 30, 10], [5, 0, 5])
    first = games.game().rounds[0]
    path = f"/games/{games.slug}/rounds/{first.id}/edit"
    page = client.get(path).get_data(as_text=True)
    assert 'value="40"' in page
    data = games.form(path) | {"mode": "totals", "action": "save", "went_out": "0"}
    data |= {"shown-0": "60", "shown-1": "10", "shown-2": "10"}
    data |= {"in_hand-0": "0", "in_hand-1": "5", "in_hand-2": "5"}
    assert client.post(path, data=data).status_code == 303
    assert games.totals_now() == {"Ann": 65, "Bob": 35, "Cat": 10}


def test_correct_a_cards_round_shows_its_cards_and_can_switch_mode(games, client):
    games.start()
    fields = {
        "meld-0-0": "7H 7S 7D",
        "meld-1-0": "3C 4C 5C",
        "layoff-2-0": "6C 7C",
        "onto-2-0": "1-0",
        "hand-1": "KD",
        "hand-2": "2S",
    }
    assert games.cards(0, fields).status_code == 303
    round_id = games.game().rounds[0].id
    path = f"/games/{games.slug}/rounds/{round_id}/edit"
    page = client.get(path).get_data(as_text=True)
    assert 'value="3C 4C 5C"' in page and 'value="6C 7C"' in page
    assert '<option selected value="1-0">' in page or 'value="1-0" selected' in page
    data = games.form(path + "?mode=totals") | {"mode": "totals", "action": "save"}
    data |= {"went_out": "1", "shown-0": "0", "shown-1": "30", "shown-2": "0"}
    data |= {"in_hand-0": "10", "in_hand-1": "0", "in_hand-2": "5"}
    assert client.post(path, data=data).status_code == 303
    assert games.totals_now() == {"Ann": -10, "Bob": 30, "Cat": -5}
    assert [r["mode"] for r in games.rounds()] == ["totals"]


def test_delete_and_undo_keep_everything(games, client):
    games.start()
    games.totals(0, [40, 10, 10], [0, 5, 5])
    games.totals(1, [10, 30, 10], [5, 0, 5])
    game = games.game()
    version = str(game.version)
    path = f"/games/{games.slug}/rounds/{game.rounds[0].id}/delete"
    assert client.post(path, data={"version": version}).status_code == 303
    assert games.totals_now() == {"Ann": 5, "Bob": 30, "Cat": 5}
    history = client.get(f"/games/{games.slug}/history").get_data(as_text=True)
    assert "round 1 deleted" in history
    with games.app.app_context():
        deleted = db.session.get(Round, game.rounds[0].id)
        assert deleted.deleted and deleted.input["shown"]["Ann"] == 40
    change = games.game().changes[-1]
    undo = f"/games/{games.slug}/history/{change.id}/undo"
    response = client.post(undo, data={"version": str(games.game().version)})
    assert response.status_code == 303
    assert games.totals_now() == {"Ann": 45, "Bob": 35, "Cat": 10}
    again = client.post(undo, data={"version": str(games.game().version)}, follow_redirects=True)
    assert "already undone" in again.get_data(as_text=True)


def test_undo_refused_when_round_changed_since(games, client):
    games.start()
    games.totals(0, [40, 10, 10], [0, 5, 5])
    game = games.game()
    record = game.changes[0]
    path = f"/games/{games.slug}/rounds/{game.rounds[0].id}/delete"
    client.post(path, data={"version": str(game.version)})
    response = client.post(
        f"/games/{games.slug}/history/{record.id}/undo",
        data={"version": str(games.game().version)},
        follow_redirects=True,
    )
    assert "changed again since" in response.get_data(as_text=True)


def test_game_over_winner_settlement_and_play_again(games, client):
    games.start(stake="0.10")
    games.totals(0, [300, 100, 50], [0, 0, 0])
    games.totals(0, [250, 20, 10], [0, 10, 30])
    page = client.get(f"/games/{games.slug}").get_data(as_text=True)
    assert "Ann wins!" in page and "Play again" in page
    assert "44.00" in page and "52.00" in page  # Bob pays (550 - 110) x 0.10
    assert games.totals(0, [1, 1, 1], [0, 0, 0]).status_code == 422
    confirm = {"version": str(games.game().version)}
    again = client.post(f"/games/{games.slug}/again", data=confirm)
    assert again.status_code == 303
    new_page = client.get(again.location).get_data(as_text=True)
    assert "Next deal: <strong>Cat</strong>" in new_page and "Save round" in new_page


def test_view_link_cannot_edit(games, client, app):
    games.start()
    games.totals(0, [40, 10, 10], [0, 5, 5])
    game = games.game()
    watcher = app.test_client()
    assert watcher.get(f"/games/{games.slug}").status_code == 200
    refused = watcher.get(f"/games/{games.slug}/rounds/new")
    assert refused.status_code == 403 and "view link" in refused.get_data(as_text=True)
    form = {"mode": "totals", "action": "save", "version": str(game.version), "nonce": "x" * 16}
    assert watcher.post(f"/games/{games.slug}/rounds/new", data=form).status_code == 403
    delete = f"/games/{games.slug}/rounds/{game.rounds[0].id}/delete"
    assert watcher.post(delete, data={"version": str(game.version)}).status_code == 403
    undo = f"/games/{games.slug}/history/{game.changes[0].id}/undo"
    assert watcher.post(undo, data={"version": str(game.version)}).status_code == 403
    assert watcher.post(f"/games/{games.slug}/again", data={}).status_code == 403
    assert watcher.get(f"/games/{games.slug}/edit/wrong-token").status_code == 403
    assert "Edit link" not in watcher.get(f"/games/{games.slug}/share").get_data(as_text=True)
    assert len(games.rounds()) == 1


def test_edit_link_grants_the_right(games, client, app):
    games.start()
    share = client.get(f"/games/{games.slug}/share").get_data(as_text=True)
    edit = re.search(r'value="http://[^/"]+(/games/[^"]+/edit/[^"]+)"', share)
    assert "<svg" in share
    other = app.test_client()
    assert other.get(edit.group(1)).status_code == 302
    assert other.get(f"/games/{games.slug}/rounds/new").status_code == 200


def test_unknown_game_and_round(client, games):
    assert client.get("/games/nope").status_code == 404
    assert client.get("/games/nope/version").status_code == 404
    games.start()
    assert client.get(f"/games/{games.slug}/rounds/999/edit").status_code == 404


def test_version_and_live_fragment(games, client):
    games.start()
    assert client.get(f"/games/{games.slug}/version").get_json() == {"version": 1}
    games.totals(0, [40, 10, 10], [0, 5, 5])
    assert client.get(f"/games/{games.slug}/version").get_json() == {"version": 2}
    fragment = client.get(f"/games/{games.slug}/live").get_data(as_text=True)
    assert "<html" not in fragment and "<svg" in fragment and "+40" in fragment


def test_export_csv(games, client):
    games.start(("=cmd", "Bob"))
    games.totals(0, [40, 10], [0, 5])
    lines = client.get(f"/games/{games.slug}/export.csv").get_data(as_text=True).splitlines()
    assert lines[0].startswith("round,mode,player")
    assert lines[1] == "1,totals,'=cmd,'=cmd,40,0,0,40,40"


def test_json_export_imports_into_identical_game(games, client):
    games.start(("Ann", "Bob", "Cat", "Dee"), preset="partnership", stake="0.5")
    games.totals(0, [40, 10, 20, 5], [0, 10, 5, 20])
    games.cards(1, {"meld-1-0": "7H 7S 7D", "hand-0": "KD"})
    exported = client.get(f"/games/{games.slug}/export.json").get_json()
    response = client.post("/games/import", data={"text": json.dumps(exported)})
    assert response.status_code == 303
    slug = response.location.rsplit("/", 1)[-1]
    again = client.get(f"/games/{slug}/export.json").get_json()
    assert again == exported


def test_import_from_an_uploaded_file(games, client):
    games.start()
    games.totals(0, [40, 10, 10], [0, 5, 5])
    exported = client.get(f"/games/{games.slug}/export.json").get_data()
    upload = {"file": (io.BytesIO(exported), "game.json")}
    response = client.post("/games/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 303
    assert client.get(response.location + "/export.json").get_data() == exported


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ('{"format": "other"}', "not a game exported"),
        (
            '{"format": "500rum-scoresheet/1", "players": ["A", "B"], "rounds": '
            '[{"mode": "totals", "input": {"went_out": "A", "shown": {"A": 5}, '
            '"in_hand": {"A": 9}}}]}',
            "round 1",
        ),
    ],
)
def test_import_refuses_bad_documents(client, text, message):
    response = client.post("/games/import", data={"text": text})
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert "No game in progress on this phone." in client.get("/").get_data(as_text=True)


def test_static_app_files(client):
    def fetch(path: str) -> bytes:
        response = client.get(path)
        assert response.status_code == 200
        data = response.get_data()
        response.close()
        return data

    manifest = json.loads(fetch("/static/manifest.webmanifest"))
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        fetch(icon["src"])
    assert fetch("/static/icon-512.png")[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get("/games/import").status_code == 200


def test_every_form_needs_csrf(csrf_app):
    client = csrf_app.test_client()
    response = client.post("/games/new", data={"player_0": "Ann", "player_1": "Bob"})
    assert response.status_code == 400
    page = client.get("/games/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    data = {
        "csrf_token": token,
        "player_0": "Ann",
        "player_1": "Bob",
        "preset": "standard",
        "first_dealer": "0",
    }
    created = client.post("/games/new", data=data)
    assert created.status_code == 302
    slug = created.location.rsplit("/", 1)[-1]
    no_token = {"mode": "totals", "action": "save", "version": "1", "nonce": "n" * 16}
    assert client.post(f"/games/{slug}/rounds/new", data=no_token).status_code == 400
    assert client.post("/games/import", data={"text": "{}"}).status_code == 400


def test_game_page_links_the_checker_and_rules_with_its_house_rules(client):
    from scorekeeper.table import services as scoresheet

    with client.application.app_context():
        game = scoresheet.start_game(["Ann", "Bob", "Cat"], "classic", {"min_run": 3})
        slug = game.view_token
    page = client.get(f"/games/{slug}").get_data(as_text=True)
    assert "/check?preset=classic&amp;opt_min_run=3" in page
    assert "/rules?preset=classic&amp;opt_min_run=3" in page
    checker = client.get("/check?preset=classic&opt_min_run=3").get_data(as_text=True)
    assert "M3" in checker


def test_cards_round_states_the_final_turn_for_the_500_point_straight(games, client):
    # Seed 002: "If a player lays down a 7-card straight and then discards his last card,
    # he is awarded 500 points." The by-cards form says in which turn each meld was laid
    # and how the player went out (S10, the contract's final_turn and went_out_by).
    games.start(opt_seven_card_straight="true")
    page = client.get(f"/games/{games.slug}/rounds/new?mode=cards").get_data(as_text=True)
    assert 'name="final-0-0"' in page and 'name="went_out_by"' in page
    run = {"meld-0-0": "3H 4H 5H 6H 7H 8H 9H", "hand-1": "KD", "hand-2": "2S"}
    late = games.cards(0, run | {"final-0-0": "y", "went_out_by": "play"}, action="preview")
    assert late.status_code == 200 and "Rummy Master" not in late.get_data(as_text=True)
    assert games.cards(0, run | {"final-0-0": "y", "went_out_by": "discard"}).status_code == 303
    stored = games.rounds()[0]["request"]
    assert stored["melds"][0]["final_turn"] is True and stored["went_out_by"] == "discard"
    assert games.totals_now()["Ann"] == 42 + 500
    round_id = games.game().rounds[0].id
    again = client.get(f"/games/{games.slug}/rounds/{round_id}/edit").get_data(as_text=True)
    box = re.search(r'<input[^>]*name="final-0-0"[^>]*>', again)
    assert box is not None and "checked" in box.group(0)


def test_dealers_gambit_game_to_250_with_a_doubled_set_by_cards(games):
    # Seed 002, dealer's gambit: "The joker doubles the value of any set", "Jokers have a
    # zero value if still in a players hand", "some people only play to a smaller score
    # of 250 points" (X2, S5, G1).
    games.start(opt_dealers_gambit="true", target="250")
    fields = {"meld-0-0": "7H 7S 7D JK=double", "hand-1": "KC JK", "hand-2": "2S"}
    preview = games.cards(0, fields, action="preview")
    assert preview.status_code == 200, preview.data
    assert games.cards(0, fields).status_code == 303
    assert games.totals_now() == {"Ann": 42, "Bob": -10, "Cat": -2}
    assert games.rounds()[0]["request"]["rules"]["options"]["target"] == 250
