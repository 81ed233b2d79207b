"""Words for players on the scorekeeper's pages: presets by name, no seed numbers or
option names, the two-deal game by its deals, sides in the plural, times as UTC ISO for
the phone to show in its own time zone."""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest

from scorekeeper.engine.rules.ruleset import OPTIONS
from scorekeeper.engine.scoring.outcome import wins
from tests.table.test_pages import GameActions


@pytest.fixture
def games(client, app) -> GameActions:
    return GameActions(client, app)


def _text(html: str) -> str:
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def _live(client, slug: str) -> str:
    return _text(client.get(f"/games/{slug}/live").get_data(as_text=True))


def test_wins_agrees_with_a_side():
    assert wins("Ann") == "Ann wins"
    assert wins("Ann & Cat") == "Ann & Cat win"


def test_persian_counts_deals_and_ends_without_a_target(client, games):
    slug = games.start(("Ann", "Bob", "Cat", "Dee"), preset="persian")
    live = _live(client, slug)
    assert "Deal 1 of 2" in live and "to go" not in live and "round 1" not in live
    games.totals(0, [60, 20, 30, 5], [0, 10, 0, 5])
    assert "Deal 2 of 2" in _live(client, slug)
    entry = client.get(f"/games/{slug}/rounds/new").get_data(as_text=True)
    assert "<h1>Deal 2 of 2</h1>" in entry
    games.totals(1, [20, 60, 30, 5], [10, 0, 0, 5])
    live = _live(client, slug)
    assert "Ann & Cat win!" in live and "Ann & Cat win after two deals" in live
    no_name = live.replace("500 Rum", "")  # the shared result names the game: no target
    assert "to go" not in live and "target" not in live and "500" not in no_name
    # deal 2 without the end bonus, then the bonus on its own line
    assert "2 +40 155 +85 95" in live
    assert "End bonus +50 205 0 95" in live


def test_a_side_wins_in_the_plural_to_a_target(client, games):
    slug = games.start(("Ann", "Bob", "Cat", "Dee"), preset="partnership", target="100")
    games.totals(0, [120, 20, 30, 5], [0, 10, 0, 5])
    assert "Ann & Cat win!" in _live(client, slug)


def test_pages_name_presets_and_rules_in_words(client, games):
    slug = games.start(("Ann", "Bob", "Cat", "Dee"), preset="persian", opt_min_run="4")
    new = client.get("/games/new").get_data(as_text=True)
    assert '<option selected value="standard">Standard</option>' in new
    assert ">Persian</option>" in new
    assert '<a class="rule-id" href="/rules#M3">M3</a>' in new
    game = client.get(f"/games/{slug}").get_data(as_text=True)
    assert "<p>Persian" in game and '<a class="rule-id" href="/rules#M3">M3</a>' in game
    for html in (new, game, client.get("/").get_data(as_text=True)):
        text = _text(html)
        assert not re.search(r"\bseeds? \d{3}|\d{3}_[0-9a-f]{16}", text)
        assert not [name for name in OPTIONS if "_" in name and name in text]


def test_house_rule_fields_carry_each_presets_own_value(client):
    html = client.get("/games/new").get_data(as_text=True)
    field = re.search(r'<select data-as-preset="([^"]+)" id="opt_min_run"', html)
    values = json.loads(html_lib.unescape(field.group(1)))
    assert values["standard"] == "3 or more cards in sequence"
    assert values["classic"] == "4 or more cards in sequence"
    target = re.search(r'data-as-preset="([^"]+)"[^>]* id="target"', html)
    assert json.loads(html_lib.unescape(target.group(1)))["quick"] == "100"


def test_history_times_are_utc_iso_for_the_phone_to_localise(client, games):
    slug = games.start(("Ann", "Bob"))
    games.totals(0, [50, 10], [0, 5])
    history = client.get(f"/games/{slug}/history").get_data(as_text=True)
    assert re.search(
        r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" data-local="time">', history
    )
