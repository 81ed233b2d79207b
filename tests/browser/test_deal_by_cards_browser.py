"""A Persian deal of 34 cards entered by cards in Chromium at a phone's size, one grid per
player (issue 26, item 5; static/dealgrid.js): every tap the test makes is counted, from
"By cards" on the game page to "Save round", and must be 30 or fewer (the old entry took
57); the saved scores are the engine's for the same deal (P2 jokers in a set of their
own, P3 a set of four laid at once doubled, P4 the going-out bonus, by sides, P1).

The grid decides no rule: which cards fill a run, whether a card continues a meld and
which cards complete a set are the server's answers under the game's house rules
(scorekeeper/table/deal_melds.py), so the same taps give what the table plays (M2 same
suit in a set, M4 round the corner); offline the grid only groups the cards tapped.
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


def _start(page, names, preset="standard", house=None) -> None:
    """A new game of ``names`` with ``house`` rules (option: value) changed from ``preset``,
    opened on its round by cards."""
    page.goto("/games/new")
    for i, name in enumerate(names):
        page.fill(f"#player_{i}", name)
    page.select_option("#preset", value=preset)
    if house:
        page.locator("summary", has_text="House rules changed").click()
        for option, value in house.items():
            page.select_option(f"#opt_{option}", value=json.dumps(value))
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("#entry")
    page.get_by_role("link", name="By cards").click()
    page.wait_for_selector("fieldset[data-deal] .deal")


CORNER = {"ace_in_run": "round-the-corner", "same_suit_in_set": "allowed"}


@pytest.mark.parametrize(
    ("house", "width", "run", "sets"),
    [
        (None, 390, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH", ("7C 7C", "7H")),
        (CORNER, 360, "QH KH AH 2H", ("7C 7C 7H 7S", "")),
    ],
    ids=["as-the-preset", "round-the-corner-same-suit-sets"],
)
def test_the_grid_follows_the_tables_house_rules(browser, live_server, house, width, run, sets):
    """Q♥ then 2♥ fills the run between them the table's way: 2♥ to Q♥, or Q♥ K♥ A♥ 2♥
    where runs go round the corner (M4). Five players play with two packs (D2): after
    7♣ 7♣ (typed), 7♥ is no part of a set where a set's suits must differ (M2), so it
    starts the next meld; where the house allows two of a suit, it joins the set and
    "All four 7s" adds the 7♠ left, a set's fourth card."""
    context, page = phone(browser, live_server, width)
    _start(page, ["Ann", "Bob", "Cat", "Dee", "Eve"], house=house)
    ann = _player(page, "Ann").locator(".deal")
    ann.locator(".picker-card[data-card='QH']").click()
    ann.locator(".picker-card[data-card='2H']").click()
    expect(page.locator("#meld-0-0")).to_have_value(run)
    ann.get_by_role("button", name="Next meld", exact=True).click()
    expect(_player(page, "Ann").locator(".deal-target")).to_have_text("Ann: meld 2")
    page.fill("#meld-0-1", "7C 7C")
    page.dispatch_event("#meld-0-1", "input")
    ann.locator(".picker-card[data-card='7H']").click()
    if house:
        ann.get_by_role("button", name="All four 7s", exact=True).click()
    else:
        expect(ann.get_by_role("button", name="All four 7s", exact=True)).to_be_visible()
    expect(page.locator("#meld-0-1")).to_have_value(sets[0])
    expect(page.locator("#meld-0-2")).to_have_value(sets[1])
    shot(page, f"deal-03-house-rules-{width}")
    part = SCREENSHOTS / f"deal-03-ann-{width}.png"  # Ann's part, as the phone shows it
    _player(page, "Ann").screenshot(path=str(part), scale="css")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()


def test_offline_the_grid_only_groups_the_cards_tapped(browser, live_server):
    """With no answer from the server the grid decides nothing: 5♥ then 8♥ are two cards of
    meld 1 (no run filled), 9♠ joins them; "Next meld" moves on by hand. Back online, the
    preview says what the server refuses."""
    context, page = phone(browser, live_server, 390)
    _start(page, ["Ann", "Bob", "Cat"])
    ann = _player(page, "Ann").locator(".deal")
    context.set_offline(True)
    for card in ("5H", "8H", "9S"):
        ann.locator(f".picker-card[data-card='{card}']").click()
    expect(page.locator("#meld-0-0")).to_have_value("5H 8H 9S")
    ann.get_by_role("button", name="Next meld", exact=True).click()
    ann.locator(".picker-card[data-card='9H']").click()
    expect(page.locator("#meld-0-1")).to_have_value("9H")
    context.set_offline(False)
    page.select_option("#went_out", label="Ann")
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("main")).to_contain_text("neither a set")
    shot(page, "deal-04-offline-grouped-390")
    _player(page, "Ann").screenshot(path=str(SCREENSHOTS / "deal-04-ann-390.png"), scale="css")
    context.close()
