"""The groups' pages are wholly translatable: in the pseudo-language en_XA every word of
the page's content is accented (a plain English word left means a string not wrapped),
names people typed, card-free figures and dates aside."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask

from tests.conftest import make_app
from tests.players.conftest import Night, totals

ACCENTED = re.compile(r"[åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ]")
NAMES = {"Friday", "Ann", "Bob", "Cat"}
PRESET_TITLES = re.compile(
    r"Standard|Classic|Modern|Jokers wild|Add opponents|Partnership|Persian|Quick"
)
"""The engine's preset titles (the engine's own sentences, translated once it says them
as messages)."""


def plain_english(page: str) -> list[str]:
    """The texts and read attributes of ``page``'s <main> with an English word and no
    accented letter (what is marked ``lang`` aside)."""
    main = page.split("<main", 1)[1].split("</main>", 1)[0]
    main = re.sub(r"<(script|svg|time)\b.*?</\1>", "", main, flags=re.S)
    # what is marked as written in a language of its own (each language's own name)
    main = re.sub(r'<(\w+)\b[^>]*\blang="[^"]*"[^>]*>.*?</\1>', "", main, flags=re.S)
    texts = re.findall(r">([^<>]+)<", main)
    texts += re.findall(r'(?:aria-label|title|placeholder|alt)="([^"]+)"', main)
    found = (html.unescape(t).strip() for t in texts)
    return [
        t
        for t in found
        if re.search(r"[A-Za-z]{3,}", t)
        and not ACCENTED.search(t)
        and not set(re.split(r"[,\s]+", t)) <= NAMES
        and not PRESET_TITLES.match(t)
        and not t.startswith("https://")
    ]


@pytest.fixture
def pseudo_night(tmp_path) -> Night:
    app: Flask = make_app(str(tmp_path / "groups.sqlite"), LANGUAGES_PSEUDO=True)
    night = Night(app, app.test_client())
    night.client.set_cookie("lang", "en_XA")
    night.make_group("Friday", ("Ann", "Bob", "Cat"))
    game = night.start(("Ann", "Bob"))
    night.play(game, totals("Ann", {"Ann": 120, "Bob": 10}, {"Ann": 0, "Bob": 5}))
    night.page("")  # the new game's flash (the table's words) shown and gone
    return night


@pytest.mark.parametrize(
    "path",
    ["", "/share", "/season", "/season?start=2020-01-02&end=2020-01-01", "/versus", "/attach"],
)
def test_a_group_page_has_no_plain_english(pseudo_night: Night, path: str):
    answer = pseudo_night.client.get(pseudo_night.url(path))
    assert answer.status_code in (200, 422)
    assert plain_english(answer.get_data(as_text=True)) == []


def test_a_profile_and_head_to_head_have_no_plain_english(pseudo_night: Night):
    ann, bob = pseudo_night.member("Ann"), pseudo_night.member("Bob")
    for path in (f"/players/{ann}", f"/versus?a={ann}&b={bob}"):
        assert plain_english(pseudo_night.page(path)) == []


def test_the_groups_and_a_refusal_have_no_plain_english(pseudo_night: Night):
    client = pseudo_night.client
    assert plain_english(client.get("/groups/").get_data(as_text=True)) == []
    assert plain_english(client.get("/groups/nowhere").get_data(as_text=True)) == []
    refused = client.post(pseudo_night.url("/attach"), data={"link": "http://x/games/abcdefgh"})
    assert refused.status_code == 422
    assert plain_english(refused.get_data(as_text=True)) == []


def test_a_flash_is_in_the_readers_language(pseudo_night: Night):
    added = pseudo_night.client.post(
        pseudo_night.url("/players"), data={"name": "Ann"}, follow_redirects=True
    )
    assert plain_english(added.get_data(as_text=True)) == []
    assert "Not added" not in added.get_data(as_text=True)
