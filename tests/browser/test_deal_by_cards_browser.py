"""A Persian deal of 34 cards entered by cards in Chromium at a phone's size, one grid per
player (issue 26, item 5; static/dealgrid.js): every tap the test makes is counted, from
"By cards" on the game page to "Save round", and must be 30 or fewer (the old entry took
57); the saved scores are the engine's for the same deal (P2 jokers in a set of their
own, P3 a set of four laid at once doubled, P4 the going-out bonus, by sides, P1).
Screenshots: deal-*.png at 390 and 360 px, light and dark."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from scorekeeper.engine import ruleset
from scorekeeper.engine.scoring.notation import score_sheet
from tests.browser.conftest import SCREENSHOTS, phone, shot

NAMES = ["Ann", "Bob", "Cat", "Dee"]
DEAL = {
    "Ann": (["5H 6H 7H 8H", "9S 9H 9C", "JK JK JK"], ""),
    "Bob": (["2C 3C 4C 5C 6C"], "KD 4S"),
    "Cat": (["QS QH QD QC"], "3D 8C 10S"),
    "Dee": (["7D 8D 9D 10D JD"], "AS 2S 5S KH JK"),
}
"""Each player's melds (each laid at once) and the cards left in hand: 34 cards, the
four jokers among them; Ann went out."""
TAPS = {
    "Ann": ["5H", "8H", "9S", "9H", "9C", "Joker", "Joker", "Joker"],
    "Bob": ["2C", "6C", "The rest is in hand", "KD", "4S"],
    "Cat": ["QS", "All four Qs", "The rest is in hand", "3D", "8C", "10S"],
    "Dee": ["7D", "JD", "The rest is in hand", "AS", "2S", "5S", "KH", "Joker"],
}
"""What a person taps in each player's grid: a run by its two ends, a set of four by one
card and "All four", a new meld by its first card, the hand after "The rest is in hand"."""


class Taps:
    """Every click or tap the test makes, counted."""

    def __init__(self) -> None:
        self.count = 0

    def tap(self, locator) -> None:
        self.count += 1
        locator.click()


def _engine_scores() -> dict:
    """The engine's figures for :data:`DEAL`, the first deal of a Persian game."""
    written = {
        "went_out": "Ann",
        "melds": [
            {"owner": name, "cards": meld.split()}
            for name, (melds, _) in DEAL.items()
            for meld in melds
        ],
        "layoffs": [],
        "hands": {name: hand.split() for name, (_, hand) in DEAL.items()},
    }
    teams = (("Ann", "Cat"), ("Bob", "Dee"))
    return score_sheet(ruleset("persian"), NAMES, written, {}, teams, 1).to_json()


def _player(page, name: str):
    return page.locator("fieldset[data-deal]").filter(has=page.locator("legend", has_text=name))


def _grid_tap(taps: Taps, box, what: str) -> None:
    if what[-1] in "SHDC" and what[:-1] in {*"A23456789JQK", "10"}:
        taps.tap(box.locator(f".deal .picker-card[data-card='{what}']"))
    elif what == "Joker":  # its label counts the jokers of the row: "Joker ×2"
        taps.tap(box.locator(".deal .picker-joker"))
    else:
        taps.tap(box.locator(".deal").get_by_role("button", name=what, exact=True))


@pytest.mark.parametrize(("width", "dark"), [(390, False), (360, True)])
def test_a_persian_deal_of_34_cards_in_at_most_30_taps(browser, live_server, width, dark):
    assert (
        sum(len(m.split()) for ms, _ in DEAL.values() for m in ms)
        + sum(len(h.split()) for _, h in DEAL.values())
        == 34
    )
    context, page = phone(browser, live_server, width, dark)
    page.goto("/games/new")
    for i, name in enumerate(NAMES):
        page.fill(f"#player_{i}", name)
    page.select_option("#preset", value="persian")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("#entry")
    game = page.url

    taps = Taps()
    taps.tap(page.get_by_role("link", name="By cards"))
    expect(_player(page, "Ann").locator(".deal-target")).to_have_text("Ann: meld 1 (laid at once)")
    for name, sequence in TAPS.items():
        box = _player(page, name)
        for what in sequence:
            _grid_tap(taps, box, what)
        melds, hand = DEAL[name]
        for k, meld in enumerate(melds):
            expect(box.locator(f"#meld-{NAMES.index(name)}-{k}")).to_have_value(meld)
        expect(box.locator(f"#hand-{NAMES.index(name)}")).to_have_value(hand)
    shot(page, f"deal-01-entered-{width}{'-dark' if dark else ''}")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)  # one player's part, as the phone shows it
    path = SCREENSHOTS / f"deal-01-bob-{width}{'-dark' if dark else ''}.png"
    _player(page, "Bob").screenshot(path=str(path), scale="css")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    taps.tap(page.get_by_role("button", name="Save round"))
    page.wait_for_url(game)
    expect(page.locator(".flash-success")).to_contain_text("Round saved")
    assert taps.count <= 30, f"{taps.count} taps"

    slug = game.rstrip("/").rsplit("/", 1)[-1]
    saved = json.loads(page.request.get(f"/games/{slug}/export.json").text())["rounds"]
    assert len(saved) == 1 and saved[0]["input"]["went_out"] == "Ann"  # the empty hand
    expected = _engine_scores()
    assert saved[0]["response"]["players"] == expected["players"]
    assert saved[0]["response"]["sides"] == expected["sides"]
    sides = {s: f["total"] for s, f in expected["sides"].items()}
    for side, total in sides.items():
        expect(page.locator(".standing", has_text=side)).to_contain_text(str(total))
    shot(page, f"deal-02-saved-{width}{'-dark' if dark else ''}")
    context.close()
