"""The game page's one-screen round entry: the plain form (no script) and the JSON answers
the page's script reads (preview, save, undo), with every refusal: nothing is written."""

from __future__ import annotations

import re

import pytest

from scorekeeper.table import services as sheet
from tests.table.test_pages import GameActions

JSON = {"Accept": "application/json"}
NAMES = ("Ann", "Bob", "Cat", "Dee")


@pytest.fixture
def games(client, app) -> GameActions:
    return GameActions(client, app)


def _path(games) -> str:
    return f"/games/{games.slug}/rounds/new"


def _entry(games) -> dict[str, str]:
    """The hidden fields of the entry form on the game page (csrf, nonce, version)."""
    page = games.client.get(f"/games/{games.slug}").get_data(as_text=True)
    return dict(re.findall(r'<input id="(\w+)" name="\w+" type="hidden" value="([^"]*)"', page))


def _net(games, figures, went_out="0", action="save", headers=JSON, **extra):
    data = _entry(games) | {"mode": "net", "action": action, "went_out": went_out}
    data |= {f"net-{i}": str(v) for i, v in enumerate(figures)} | extra
    return games.client.post(_path(games), data=data, headers=headers)


def _nothing_written(games) -> None:
    assert games.rounds() == [] and games.game().version == 1


def test_game_page_has_the_entry_with_named_fields(games, client, app):
    games.start(NAMES)
    page = client.get(f"/games/{games.slug}").get_data(as_text=True)
    for name in NAMES:
        assert f'aria-label="{name}, round score"' in page
        assert f'aria-label="{name}, shown"' in page and f'aria-label="{name}, in hand"' in page
    assert 'inputmode="numeric"' in page and 'placeholder="0"' in page
    assert ">Save round</button>" in page and "Stock ran out" in page
    assert re.search(r'name="net-0"[^>]*value=', page) is None  # empty, not "0"
    watcher = app.test_client().get(f"/games/{games.slug}").get_data(as_text=True)
    assert "Save round" not in watcher and "round score" not in watcher


def test_net_round_by_plain_post_lands_on_the_game_page(games, client):
    games.start(NAMES)
    response = _net(games, [85, -20, "", 5], headers={})
    assert response.status_code == 303 and response.location.endswith(f"/games/{games.slug}")
    assert games.totals_now() == {"Ann": 85, "Bob": -20, "Cat": 0, "Dee": 5}
    assert games.game().entry_mode == "net"
    history = client.get(f"/games/{games.slug}/history").get_data(as_text=True)
    assert "Ann +85, Bob -20, Cat +0, Dee +5" in history


def test_preview_is_the_engines_figures_and_writes_nothing(games):
    games.start(NAMES, preset="persian")
    response = _net(games, [85, -20, 30, 0], action="preview")
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    html = response.get_json()["html"]
    assert "Ann &amp; Cat" in html and "+115" in html and "-20" in html
    _nothing_written(games)


def test_save_answers_the_new_standings_and_undo_takes_it_back(games, client):
    games.start(NAMES)
    response = _net(games, [85, -20, 30, 0])
    assert response.status_code == 201
    body = response.get_json()
    assert body["number"] == 1 and body["version"] == 2 and body["over"] is False
    assert body["message"] == "Round 1 saved: Ann 85 · Bob -20 · Cat 30 · Dee 0"
    assert "Next deal" in body["live"] and ">85<" in body["live"] and "<html" not in body["live"]
    confirm = {"version": str(body["version"])}
    undone = client.post(body["undo"], data=confirm, headers=JSON)
    assert undone.status_code == 200 and undone.get_json()["version"] == 3
    assert "Next deal" in undone.get_json()["live"] and games.totals_now() == {}
    again = client.post(body["undo"], data={"version": "3"}, headers=JSON)
    assert again.status_code == 409 and "already undone" in again.get_json()["message"]


def test_the_saved_message_gives_the_new_totals_by_sides_in_persian(games):
    games.start(NAMES, preset="persian")
    assert _net(games, [85, -20, 30, 0]).status_code == 201
    body = _net(games, [10, 40, 0, 5], went_out="1").get_json()
    assert body["message"] == "Round 2 saved: Ann & Cat 175 · Bob & Dee 25"  # P5: +50


def test_a_two_deal_games_entry_is_headed_by_its_deal(games, client):
    """P5 (Persian: two deals): the entry says "Deal 2 of 2", as the line above it does."""
    games.start(NAMES, preset="persian")
    assert _net(games, [85, -20, 30, 0]).status_code == 201
    page = client.get(f"/games/{games.slug}").get_data(as_text=True)
    assert "Deal <span data-round-number>2</span> of 2" in page
    assert "Round <span data-round-number>" not in page


def test_shown_in_hand_infers_who_went_out(games):
    games.start(NAMES, preset="add-opponents-hand")
    data = _entry(games) | {"mode": "totals", "action": "save"}
    data |= {"shown-0": "40", "in_hand-0": "", "shown-1": "10", "in_hand-1": "15"}
    data |= {"shown-2": "", "in_hand-2": "5", "shown-3": "20", "in_hand-3": "10"}
    response = games.client.post(_path(games), data=data, headers=JSON)
    assert response.status_code == 201, response.get_json()
    assert games.rounds()[0]["input"]["went_out"] == "Ann"
    assert games.totals_now() == {"Ann": 70, "Bob": 10, "Cat": 0, "Dee": 20}
    assert games.game().entry_mode == "totals"


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"net-1": "abc"}, "net-1", "Not a valid integer value"),
        ({"net-1": "12.5"}, "net-1", "Not a valid integer value"),
        ({"net-1": "99999999999999999999"}, "net-1", "must be from -2000 to 2000 points"),
        ({"net-2": "-2001"}, "net-2", "must be from -2000 to 2000 points"),
        ({"went_out": None}, "went_out", "tap the player who went out"),
        ({"went_out": "7"}, "went_out", "choose one of the players"),
        ({"went_out": "Zed"}, "went_out", "choose one of the players"),
        ({"version": "abc"}, "version", "out of date"),
        ({"version": ""}, "version", "This field is required"),
        ({"nonce": "short"}, "nonce", "between 8 and 64"),
    ],
)
def test_each_refusal_is_a_clear_422_and_writes_nothing(games, fields, field, message):
    games.start(NAMES)
    data = _entry(games) | {"mode": "net", "action": "save", "went_out": "0", "net-0": "10"}
    data = {k: v for k, v in (data | fields).items() if v is not None}
    response = games.client.post(_path(games), data=data, headers=JSON)
    assert response.status_code == 422
    body = response.get_json()
    assert body["error"] == "invalid" and message in " ".join(body["fields"][field])
    assert message.lower() in body["message"].lower()  # issue 37: each one a sentence
    _nothing_written(games)


def test_a_refusal_says_one_sentence_per_problem(games):
    """Issue 37: "...by the fields.; tap the player who went out..." is now one sentence
    per problem, each naming the figure it is about; the message is them, in order."""
    games.start(NAMES)
    data = _entry(games) | {"mode": "net", "action": "save", "net-0": "10", "net-3": "abc"}
    body = games.client.post(_path(games), data=data, headers=JSON).get_json()
    assert body["sentences"] == [
        "Tap the player who went out, or “Stock ran out”.",
        "Dee, round score: not a valid integer value.",
    ]
    assert body["message"] == " ".join(body["sentences"])
    assert "Some figures need fixing" in games.client.post(_path(games), data=data).get_data(
        as_text=True
    )  # the plain page keeps its line above the fields
    totals = _entry(games) | {"mode": "totals", "action": "save", "went_out": "0"}
    totals |= {"in_hand-0": "5", "shown-1": "-3"}
    said = games.client.post(_path(games), data=totals, headers=JSON).get_json()["sentences"]
    assert said[0].startswith("Ann, in hand: ") and said[1].startswith("Bob, shown: ")
    assert all(s[0].isupper() and s.endswith(".") and ";" not in s for s in said), said
    _nothing_written(games)


def test_shown_in_hand_refusals(games):
    games.start(NAMES)
    data = _entry(games) | {"mode": "totals", "action": "save", "went_out": "0"}
    data |= {"in_hand-0": "5", "shown-1": "-3", "in_hand-2": "2001"}
    body = games.client.post(_path(games), data=data, headers=JSON).get_json()
    assert "nothing is left in hand (O1)" in body["fields"]["in_hand-0"][0]
    assert "from 0 to 2000" in body["fields"]["shown-1"][0]
    assert "from 0 to 2000" in body["fields"]["in_hand-2"][0]
    _nothing_written(games)


def test_unknown_mode_is_refused(games):
    games.start(NAMES)
    response = _net(games, [10], mode="bogus")
    assert response.status_code == 400 and "net, totals or cards" in response.get_json()["message"]
    _nothing_written(games)


def test_same_nonce_twice_is_stored_once(games):
    games.start(NAMES)
    data = _entry(games) | {"mode": "net", "action": "save", "went_out": "0", "net-0": "10"}
    assert games.client.post(_path(games), data=data, headers=JSON).status_code == 201
    again = games.client.post(_path(games), data=data | {"net-0": "99"}, headers=JSON)
    assert again.status_code == 409
    assert again.get_json() | {"message": ""} == {
        "error": "already_saved",
        "message": "",
        "number": 1,
        "version": 2,
    }
    assert len(games.rounds()) == 1 and games.totals_now()["Ann"] == 10


def test_stale_version_is_refused_with_the_round_saved_meanwhile(games):
    games.start(NAMES)
    mine, theirs = _entry(games), _entry(games)
    base = {"mode": "net", "action": "save", "went_out": "1"}
    saved = games.client.post(_path(games), data=theirs | base | {"net-1": "40"}, headers=JSON)
    assert saved.status_code == 201
    late = games.client.post(_path(games), data=mine | base | {"net-1": "45"}, headers=JSON)
    assert late.status_code == 409
    body = late.get_json()
    assert body["error"] == "stale" and body["version"] == 2
    assert "someone else changed this game" in body["message"]
    assert body["latest"] == [
        {"number": 1, "went_out": "Bob", "scores": {"Ann": 0, "Bob": 40, "Cat": 0, "Dee": 0}}
    ]
    assert len(games.rounds()) == 1 and games.totals_now()["Bob"] == 40


def test_game_over_refuses_another_round(games):
    games.start(NAMES)
    assert _net(games, [520, 0, 0, 0]).get_json()["over"] is True
    assert "Save round" not in games.client.get(f"/games/{games.slug}").get_data(as_text=True)
    data = games.form(_path(games)) | {"mode": "net", "action": "save", "went_out": "0"}
    response = games.client.post(_path(games), data=data | {"net-0": "5"}, headers=JSON)
    assert response.status_code == 422  # issue 37: the message is a sentence now
    assert "the game is over" in response.get_json()["message"].lower()
    assert len(games.rounds()) == 1


def test_refusals_outside_the_form_are_json_too(games, app, csrf_app):
    games.start(NAMES)
    watcher = app.test_client()
    data = _entry(games) | {"mode": "net", "action": "save", "went_out": "0", "net-0": "10"}
    refused = watcher.post(_path(games), data=data, headers=JSON)
    assert refused.status_code == 403 and "view link" in refused.get_json()["message"]
    missing = games.client.post("/games/nope/rounds/new", data=data, headers=JSON)
    assert missing.status_code == 404 and missing.get_json()["error"] == "refused"
    _nothing_written(games)
    no_token = csrf_app.test_client().post("/games/nope/rounds/new", data=data, headers=JSON)
    assert no_token.status_code == 400 and "CSRF" in no_token.get_json()["message"]


def test_a_net_round_is_corrected_on_its_own_page(games, client):
    games.start(NAMES)
    _net(games, [85, -20, 30, 0])
    round_id = games.game().rounds[0].id
    page = client.get(f"/games/{games.slug}/rounds/{round_id}/edit").get_data(as_text=True)
    assert 'aria-current="page">Net</a>' in page and "Bob, round score" in page
    assert re.search(r'name="net-1"[^>]*value="-20"', page)


def test_a_net_rounds_correction_previews_it_as_net(games, client):
    games.start(NAMES)
    _net(games, [85, -20, 30, 0])
    path = f"/games/{games.slug}/rounds/{games.game().rounds[0].id}/edit"
    form = games.form(path) | {"mode": "net", "action": "preview", "went_out": "0"}
    form |= {"net-0": "90", "net-1": "-20", "net-2": "30", "net-3": "0"}
    page = client.post(path, data=form).get_data(as_text=True)
    preview = page.split('id="preview"', 1)[1].split("</section>", 1)[0]
    header = re.search(r"<thead>(.*?)</thead>", preview, re.S).group(1)
    assert re.findall(r"<th[^>]*>(\w+)</th>", header) == ["Player", "Round", "Total"]
    assert "+90" in preview and ">Shown<" not in preview and ">Bonus<" not in preview


def test_persian_asks_for_shown_and_in_hand_and_credits_bonuses_to_the_side(games, client):
    games.start(NAMES, preset="persian")
    page = client.get(f"/games/{games.slug}").get_data(as_text=True)
    assert re.search(r'value="totals" checked', page)  # shown / in hand by default
    games.totals(0, [40, 10, 20, 5], [0, 10, 5, 20])
    data = _entry(games) | {"mode": "totals", "action": "preview", "went_out": "1"}
    for i, (shown, hand) in enumerate([(40, 10), (60, 0), (20, 5), (5, 20)]):
        data |= {f"shown-{i}": str(shown), f"in_hand-{i}": str(hand)}
    html = client.post(_path(games), data=data, headers=JSON).get_json()["html"]
    assert "Ann &amp; Cat +50 the better score after two deals" in html  # P5, the side's
    assert "Bob &amp; Dee +25 going out" in html  # P4, the side's
    page = games.totals(1, [40, 60, 20, 5], [10, 0, 5, 20], action="preview").get_data(as_text=True)
    players = page.split('id="preview"', 1)[1].split("</table>", 1)[0]
    assert ">Bonus<" not in players and ">50<" not in players  # no player holds the +50
    assert '<span class="owner">Ann &amp; Cat</span> <strong>+50</strong>' in page


def test_service_worker_is_served_from_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert b"caches" in response.data


def test_cards_preview_names_melds_as_the_form_does(games):
    games.start()
    fields = {
        "meld-0-0": "3C 4C 5C",
        "meld-1-0": "7H 7S 7D",
        "meld-1-1": "QH QS QD",
        "layoff-2-0": "6C",
        "onto-2-0": "0-0",
        "layoff-2-1": "QC",
        "onto-2-1": "1-1",
        "hand-0": "KD",
    }
    page = games.cards(1, fields, action="preview").get_data(as_text=True)
    why = page[page.index('<ul class="why">') :]
    why = why[: why.index("</ul>")]
    assert "Bob&#39;s meld 2" in why and "lay-off onto Bob&#39;s meld 2" in why
    assert "lay-off onto Ann&#39;s meld 1" in why and "meld 3" not in why
    assert '<option value="1-1">Bob&#39;s meld 2</option>' in page


@pytest.mark.parametrize(
    ("preset", "picker"),
    [("standard", 'data-jokers="0"'), ("persian", 'data-jokers="plain"'), ("modern", "")],
)
def test_joker_picker_only_where_jokers_are_wild(games, client, preset, picker):
    games.start(NAMES, preset=preset)
    page = client.get(f"/games/{games.slug}/rounds/new?mode=cards").get_data(as_text=True)
    found = re.findall(r"<div class=\"picker\" data-card-picker( data-jokers=\"\w+\")?", page)
    assert found and {f.strip() for f in found} == {picker}
    assert ("JK=7C" in page) == (preset == "modern")


def test_a_later_save_answers_the_parts_it_changed_as_the_page_renders_them(games, client):
    games.start(NAMES)
    _net(games, [85, -20, 30, 0])
    body = _net(games, [10, 0, 0, 5]).get_json()
    assert body["number"] == 2 and body["version"] == 3 and body["over"] is False
    assert "live" not in body and body["shown"] == 20
    parts = body["parts"]
    assert set(parts) == {"standings", "dealer", "older", "row", "chart"}
    page = client.get(f"/games/{games.slug}/live").get_data(as_text=True)
    for name in ("standings", "dealer", "row", "chart"):
        assert parts[name].strip() and parts[name].strip() in page, name
    assert parts["older"] == "" and 'aria-label="Edit round 2"' in parts["row"]
    assert (
        parts["dealer"]
        == '<p class="dealer" data-next-round="3">Next deal: <strong>Cat</strong> · round 3</p>'
    )


def test_a_save_past_the_rounds_shown_links_every_round(games):
    games.start(NAMES)
    for _ in range(21):
        body = _net(games, [10, 0, 0, -10]).get_json()
    older = body["parts"]["older"]
    assert body["number"] == 21 and "Rounds 2 to 21 of 21" in older
    assert f'href="/games/{games.slug}?all=1#rounds"' in older


def test_preview_tells_who_went_out_as_the_server_infers_it(games):
    games.start(NAMES)
    data = _entry(games) | {"mode": "totals", "action": "preview"}
    data |= {"shown-0": "40", "in_hand-1": "15", "in_hand-2": "5", "in_hand-3": "10"}
    answer = games.client.post(_path(games), data=data, headers=JSON)
    assert answer.status_code == 200 and answer.get_json()["went_out"] == "0"
    data["in_hand-3"] = ""
    refused = games.client.post(_path(games), data=data, headers=JSON)
    assert refused.status_code == 422 and refused.get_json()["went_out"] is None
    told = games.client.post(_path(games), data=data | {"went_out": "3"}, headers=JSON)
    assert told.get_json()["went_out"] == "3"
    _nothing_written(games)


def test_a_save_past_the_rounds_shown_answers_every_part_as_the_page_then_shows_it(games):
    """The answer's parts are built from the latest rounds read to save (no read after
    the write): past :data:`page.SHOWN` rounds, with a deleted one among them, each part
    is the page's own, the chart over the same 20 rounds."""
    games.start(NAMES)
    for n in range(23):
        assert _net(games, [5 * (n % 5), 0, 10 - 5 * (n % 4), 5]).status_code == 201
    with games.app.app_context():
        second = sheet.live_rounds(sheet.get_game(games.slug))[1]
    delete = {"version": str(games.game().version)}
    path = f"/games/{games.slug}/rounds/{second.id}/delete"
    assert games.client.post(path, data=delete).status_code in (302, 303)
    body = _net(games, [15, -15, 0, 40]).get_json()
    assert body["number"] == 23
    page = games.client.get(f"/games/{games.slug}/live").get_data(as_text=True)
    for name, part in body["parts"].items():
        assert part.strip() and part.strip() in page, name
    assert "Rounds 4 to 23 of 23" in body["parts"]["older"]
    assert body["parts"]["chart"].count(",") == 4 * 21  # 20 rounds and the totals before


@pytest.mark.parametrize("which", [0, 2])
def test_the_next_number_follows_a_deleted_round_and_its_undo(games, which):
    games.start(NAMES)
    for figures in ([10, 0, 0, 5], [20, 0, 5, 0], [30, 5, 0, 0]):
        _net(games, figures)
    with games.app.app_context():
        live = sheet.get_game(games.slug)
        sheet.delete_round(live, live.rounds[which], live.version)
    body = _net(games, [1, 2, 3, 4]).get_json()
    assert body["number"] == 3 and games.totals_now()["Ann"] == 61 - (10 * which + 10)
    assert 'aria-label="Edit round 3"' in body["parts"]["row"]
    assert "round 4" in body["parts"]["dealer"]
    with games.app.app_context():
        live = sheet.get_game(games.slug)
        deleted = next(c for c in live.changes if c.action == "delete")
        sheet.undo_change(live, deleted, live.version)
    assert _net(games, [0, 0, 0, 0]).get_json()["number"] == 5


def test_a_partnership_save_answers_each_side_as_the_page_shows_it(games, client):
    games.start(NAMES, preset="partnership")
    _net(games, [40, 10, 20, 5])
    parts = _net(games, [0, 15, 0, 5], went_out="1").get_json()["parts"]
    assert (
        '<span class="name">Ann &amp; Cat</span><span class="total num">60</span>'
        in parts["standings"]
    )
    assert "Next deal: <strong>Cat</strong>" in parts["dealer"]
    row = '<span class="">+0</span><br><span class="small muted">60</span></td><td class="num">'
    assert (
        row + '<span class="good">+20</span><br><span class="small muted">35</span>' in parts["row"]
    )


def test_a_round_by_cards_untold_went_out_is_the_empty_hand(games):
    games.start(NAMES, preset="persian")
    fields = {"meld-0-0": "5H 6H 7H", "meld-0-1": "JK JK JK", "hand-1": "KD", "hand-2": "3D"}
    fields |= {"meld-3-0": "QS QH QD QC", "hand-3": "4S"}
    page = games.client.get(f"{_path(games)}?mode=cards").get_data(as_text=True)
    assert '<select id="went_out" name="went_out"><option value="hand">The one with nothing' in page
    assert games.cards("hand", fields).status_code == 303
    assert games.rounds()[0]["input"]["went_out"] == "Ann"
    refused = games.cards("hand", fields | {"hand-2": ""})  # two empty hands: say who
    assert refused.status_code == 422 and "tap the player who went out" in refused.get_data(
        as_text=True
    )
    assert len(games.rounds()) == 1
