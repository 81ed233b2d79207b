"""The rules reference: every catalogue row, choices from the engine, seed quotes,
presets, the filter, linkable rows, and a light page readable without script."""

from __future__ import annotations

import gzip
import re

import pytest
from markupsafe import escape

from scorekeeper.engine.rules.ruleset import OPTIONS, PRESETS
from scorekeeper.house_rules import check_link, query_for, rules_from_query
from scorekeeper.rules.quotes import QUOTES, ROWS
from tests.engine.helpers import ROW_IDS, SHARED

CATALOGUE = SHARED / "rules-catalogue.md"
SEEDS = SHARED / "seeds"
ALL_IDS = ROW_IDS


def test_every_catalogue_row_has_an_anchor_on_the_page(client):
    html = client.get("/rules").get_data(as_text=True)
    anchors = re.findall(r'<section class="rule" id="([A-Z]\d+)"', html)
    assert anchors == ALL_IDS


@pytest.mark.skipif(not CATALOGUE.exists(), reason="shared catalogue not present")
def test_rows_match_the_catalogue_file():
    ids = re.findall(r"^\| ([DMTLOSGPX]\d+) \|", CATALOGUE.read_text(), re.M)
    assert ids == ALL_IDS == list(ROWS)


def test_every_option_and_choice_from_the_engine_is_shown(client):
    html = client.get("/rules").get_data(as_text=True)
    for name, info in OPTIONS.items():
        assert str(escape(info.title)) in html
        if "_" in name:  # a plain word ("jokers", "target") may be in the text
            assert name not in re.sub(r"<[^>]*>", " ", html), "players never see option names"
        for label in info.choices.values():
            assert str(label).replace("'", "&#39;").replace('"', "&#34;") in html


def test_option_with_two_ids_shows_in_both_rows(client):
    html = client.get("/rules").get_data(as_text=True)
    p2 = html[html.index('id="P2"') : html.index('id="P3"')]
    assert str(escape(OPTIONS["jokers"].title)) in p2
    assert str(escape(OPTIONS["joker_use"].title)) in p2
    s11 = html[html.index('id="S11"') : html.index('id="G1"')]
    assert "87 points" in s11 and str(escape(OPTIONS["round_score"].title)) in s11


@pytest.mark.skipif(not SEEDS.exists(), reason="shared seed texts not present")
def test_every_quote_is_verbatim_from_its_seed():
    texts = {p.name[:3]: " ".join(p.read_text().split()) for p in SEEDS.glob("*.txt")}
    for row, options in QUOTES.items():
        for option, values in options.items():
            assert row in OPTIONS[option].ids
            for quotes in values.values():
                for seed, quote in quotes:
                    assert " ".join(quote.split()) in texts[seed], (row, seed, quote)


def test_every_seed_backed_choice_has_a_quote():
    for row in ROWS:
        for name, info in OPTIONS.items():
            if row in info.ids and len(info.ids) == 1:
                for value, sources in info.sources.items():
                    key = "true" if value is True else str(value)
                    if sources:
                        assert QUOTES[row][name].get(key), (row, name, value)


def test_presets_matrix_and_badges(client):
    html = client.get("/rules").get_data(as_text=True)
    matrix = html[html.index('id="presets"') :]
    for name in PRESETS:
        assert f">{name}</th>" in matrix
    assert "new-meld-only" in matrix
    m6 = re.sub(r"<[^>]+>", "", html[html.index('id="M6"') : html.index('id="M7"')])
    assert "30 points" in m6 and "Presets: modern" in m6


def test_house_rules_mark_the_table_choice(client):
    html = client.get("/rules?preset=modern&opt_ace_in_run=round-the-corner").get_data(True)
    m4 = html[html.index('id="M4"') : html.index('id="M5"')]
    mine = re.findall(r'<li class="mine">\s*<span class="label">([^<]+)', m4)
    assert mine == ["round the corner allowed (K-A-2)"]


@pytest.mark.parametrize(("query", "ids"), [("corner", ["M4"]), ("boathouse", ["T6", "O2"])])
def test_filter_without_script(client, query, ids):
    html = client.get(f"/rules?q={query}").get_data(as_text=True)
    assert re.findall(r'<section class="rule" id="([A-Z]\d+)"', html) == ids
    assert f"{len(ids)} of 50 rows match" in html


def test_filter_with_no_match(client):
    assert "No rule matches" in client.get("/rules?q=zebra").get_data(as_text=True)


def test_single_row_page_and_lowercase_redirect(client):
    page = client.get("/rules/M4")
    assert page.status_code == 200
    assert "Rule M4 says" in page.get_data(as_text=True)
    redirect = client.get("/rules/m4?preset=modern")
    assert redirect.status_code == 302
    assert redirect.headers["Location"].endswith("/rules/M4?preset=modern")
    assert client.get("/rules/Z9").status_code == 404


def test_rules_page_is_light_and_needs_no_script(client):
    page = client.get("/rules")
    html = page.get_data()
    css = []
    for href in re.findall(rb'<link rel="stylesheet" href="([^"]+)"', html):
        with client.get(href.decode()) as sheet:
            css.append(sheet.get_data())
    assert len(css) == 2
    total = len(gzip.compress(html)) + sum(len(gzip.compress(c)) for c in css)
    assert total < 30 * 1024, total
    scripts = re.findall(rb"<script[^>]*>", html)
    assert all(b"src=" in s for s in scripts)  # no inline script
    # every script waits for the page, but the theme's: it sets light or dark before paint
    assert all(b"defer" in s for s in scripts if b"theme.js" not in s)
    text = re.sub(rb"<script.*?</script>", b"", html, flags=re.S)
    assert b"Sequences may not" in text and b'id="X2"' in text


def test_query_format_round_trips():
    query = query_for("modern", {"ace_in_run": "round-the-corner", "discard_to_go_out": True})
    assert query == {
        "preset": "modern",
        "opt_ace_in_run": "round-the-corner",
        "opt_discard_to_go_out": "true",
    }
    house = rules_from_query(query)
    assert not house.problems
    assert house.rules.ace_in_run == "round-the-corner" and house.rules.discard_to_go_out
    assert house.query == query
    assert check_link("modern", {"min_run": 4}) == "/check?preset=modern&opt_min_run=4"


def test_query_json_form_and_problems():
    house = rules_from_query({"rules": '{"preset": "classic", "options": {"min_run": 3}}'})
    assert house.preset == "classic" and house.rules.min_run == 3 and not house.problems
    bad = rules_from_query({"preset": "nope", "opt_min_run": "x", "opt_zzz": "1"})
    assert bad.preset == "standard" and bad.rules.min_run == 3
    assert {w for w, _ in bad.problems} == {"preset", "min_run", "zzz"}
    assert rules_from_query({"rules": "{oops"}).problems == [
        ("rules", "the rules parameter is not valid JSON")
    ]
    assert rules_from_query({"opt_two_deal_game": "0"}).rules.two_deal_game is False
    assert rules_from_query({"rules": '{"options": {"two_deal_game": 0}}'}).problems


def test_m6_says_which_reading_of_the_first_meld_minimum_each_preset_takes(client):
    # Seed 002: "In order to begin scoring all players must lay no less than 30 points
    # for their first score": once per game in modern; every round the other presets.
    html = client.get("/rules").get_data(as_text=True)
    start = html.index('id="M6"')
    row = html[start : html.index('id="M7"')]
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row))
    assert "every round: each player's first melds of the round" in words.replace("&#39;", "'")
    once = words[words.index("once per game") :]
    assert "Presets: modern" in once and "every preset but modern" not in once


def test_o3_and_x1_say_when_a_rummy_call_is_still_allowed(client):
    # Seed 003: "The hand then ends immediately, with no further melding possible."
    html = client.get("/rules").get_data(as_text=True)
    o3 = html[html.index('id="O3"') : html.index('id="O4"')]
    assert "no &#34;Rummy!&#34; call" in o3 or 'no "Rummy!" call' in o3
    assert "a call is still allowed" in o3
    x1 = html[html.index('id="X1"') : html.index('id="X2"')]
    assert "the last stock card" in x1
