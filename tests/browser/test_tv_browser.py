"""The TV view and the spectator board in Chromium at 1920 x 1080 (issue 26, item 1): the TV
follows rounds saved from a phone's game page and shows the winner; the spectator board
of a table of phones follows a move and holds no card of any hand; axe finds no serious
or critical problem on either. Screenshots: tv-*.png in tests/browser/screenshots/."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from scorekeeper.engine.cards import parse_card
from tests.browser.conftest import WAIT, shot
from tests.browser.conftest import phone as phone_page
from tests.browser.test_home_browser import _axe_problems

TV = {"width": 1920, "height": 1080}
NAMES = ["Ann", "Bob", "Cat"]


def _context(browser, base: str, viewport: dict, **options):
    context = browser.new_context(viewport=viewport, base_url=base, **options)
    page = context.new_page()
    page.set_default_timeout(WAIT)
    return context, page


def _save_net(phone, figures: list[str], out: str, number: int) -> None:
    """A round by net scores through the game page's own form, as a person types it."""
    for name, digits in zip(NAMES, figures, strict=True):
        phone.get_by_label(f"{name}, round score", exact=True).click()
        phone.keyboard.type(digits)
    phone.locator("label.out", has_text=out).click()
    phone.wait_for_selector(".preview-list")
    phone.get_by_role("button", name="Save round").click()
    phone.wait_for_selector(f".toast:has-text('Round {number} saved')")


def test_the_tv_follows_rounds_saved_on_a_phone_and_shows_the_winner(browser, live_server):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    phone_context, phone = phone_page(browser, live_server)
    tv_context, tv = _context(browser, live_server, TV)
    try:
        phone.goto("/games/new")
        for i, name in enumerate(NAMES):
            phone.fill(f"#player_{i}", name)
        phone.get_by_role("button", name="Start the game").click()
        phone.wait_for_selector("#entry")
        slug = phone.url.rstrip("/").rsplit("/", 1)[-1]

        tv.goto(f"/games/{slug}")  # the view link, then its TV link
        tv.get_by_role("link", name="TV view").click()
        expect(tv.locator(".dealer")).to_contain_text("Next deal: Ann · round 1")
        expect(tv.locator(".tv-last")).to_contain_text("No round yet")
        expect(tv.get_by_role("button", name="Full screen")).to_be_visible()
        shot(tv, "tv-01-new-game-1920")

        _save_net(phone, ["300", "20", "35"], "Ann", 1)
        expect(tv.locator(".dealer")).to_contain_text("Next deal: Bob · round 2")
        expect(tv.locator(".tv-last")).to_contain_text("+300")
        expect(tv.locator(".standing").first).to_contain_text("200 to go")
        shot(tv, "tv-02-after-round-1-1920")
        assert _axe_problems(tv, axe) == []

        _save_net(phone, ["250", "10", "5"], "Ann", 2)
        expect(tv.locator(".tv-winner")).to_contain_text("Ann wins!")
        expect(tv.locator(".dealer")).to_have_count(0)
        banner = tv.locator(".tv-winner").inner_text()
        assert banner.count("Ann") == 1 and "Reached the target" in banner  # the name once
        _theme_switch_in_a_corner(tv)
        shot(tv, "tv-03-winner-1920")
        assert _axe_problems(tv, axe) == []
        tv.select_option("#theme", "dark")
        shot(tv, "tv-03-winner-dark-1920")
        assert _axe_problems(tv, axe) == []
    finally:
        phone_context.close()
        tv_context.close()


def _theme_switch_in_a_corner(tv) -> None:
    """The theme switch sits in the screen's bottom right corner, over none of the
    standings, the last round or the QR code."""
    switch = tv.locator(".site-foot").bounding_box()
    assert switch is not None
    assert switch["x"] + switch["width"] >= TV["width"] - 60
    assert switch["y"] + switch["height"] >= TV["height"] - 60
    assert switch["width"] < TV["width"] / 4 and switch["height"] < TV["height"] / 10
    for part in (".standings", ".tv-last", ".tv-join"):
        box = tv.locator(part).bounding_box()
        assert box is not None
        apart = box["x"] + box["width"] <= switch["x"] or box["y"] + box["height"] <= switch["y"]
        assert apart, f"the theme switch covers {part}"


def _name(text: str) -> str:
    """A card's name as the pages write it (``"5 of diamonds"``)."""
    return parse_card(text).name


def _table(browser, base: str):
    """A table of the host and a bot (every turn but the bot's is the host's), set up on
    the host's phone: ``(context, host page)``."""
    context, host = phone_page(browser, base)
    host.goto("/play/table")
    host.fill("#name", "Hana")
    host.select_option("#seat_0", "basic")
    host.select_option("#seat_1", "")
    host.select_option("#seat_2", "")
    host.get_by_role("button", name="Deal").click()
    host.wait_for_url(re.compile(r"/play/[^/]+/seats$"))
    return context, host


def test_the_spectator_board_follows_the_table_and_holds_no_hand(browser, live_server):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    host_context, host = _table(browser, live_server)
    tv_context, tv = _context(browser, live_server, TV)
    try:
        slug = host.url.rsplit("/", 2)[-2]
        link = host.get_by_role("link", name="Open the spectator board").get_attribute("href")
        assert link and "/watch/" in link
        tv.goto(link)
        expect(tv.locator(".watch-turn")).to_contain_text("Hana")
        state = json.loads(host.request.get(f"/play/{slug}/state.json").text())
        hand = state["view"]["hand"]
        first = tv.locator("#live").inner_html()
        shot(tv, "tv-04-spectator-1920")
        assert _axe_problems(tv, axe) == []

        draw = next(a for a in state["legal"] if a.get("from") == "stock")
        body = {"version": state["version"], "action": draw}
        moved = host.request.post(
            f"/play/{slug}/move.json",
            data=json.dumps(body),
            headers={"Content-Type": "application/json"},
        )
        assert moved.ok, moved.text()
        expect(tv.locator(".steplist")).to_contain_text("Hana")
        shot(tv, "tv-05-spectator-after-a-move-1920")
        after = json.loads(host.request.get(f"/play/{slug}/state.json").text())["view"]["hand"]
        pile = set(re.findall(r'title="([^"]+)"', tv.locator(".pile").inner_html()))
        assert pile, "the discard pile is shown"
        for html in (first, tv.locator("#live").inner_html(), tv.content()):
            words = {w for c in set(hand) | set(after) for w in (f'"{c}"', f">{c}<", _name(c))}
            leaked = [w for w in words if w in html]
            assert leaked == []
    finally:
        host_context.close()
        tv_context.close()


def test_the_tv_of_a_persian_game_shows_the_sides_and_the_deal(browser, live_server):
    phone_context, phone = phone_page(browser, live_server)
    tv_context, tv = _context(browser, live_server, TV)
    try:
        phone.goto("/games/new")
        for i, name in enumerate(["Ann", "Bob", "Cat", "Dee"]):
            phone.fill(f"#player_{i}", name)
        phone.select_option("#preset", "persian")
        phone.get_by_role("button", name="Start the game").click()
        phone.wait_for_selector("#entry")
        tv.goto(phone.url.rstrip("/") + "/tv")
        expect(tv.locator(".dealer")).to_contain_text("Deal 1 of 2")
        expect(tv.locator(".standings")).to_contain_text("Ann & Cat")
        expect(tv.locator(".standings")).to_contain_text("Bob & Dee")
        shot(tv, "tv-06-persian-1920")
    finally:
        phone_context.close()
        tv_context.close()
