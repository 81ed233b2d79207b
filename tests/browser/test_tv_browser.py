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
from tests.browser.conftest import SCREENSHOTS, WAIT, save_net, shot
from tests.browser.conftest import phone as phone_page
from tests.browser.test_home_browser import _axe_problems
from tests.browser.test_share_result_browser import SHARE
from tests.browser.test_small_things_browser import net_round

TV = {"width": 1920, "height": 1080}
NAMES = ["Ann", "Bob", "Cat"]


def _context(browser, base: str, viewport: dict, **options):
    context = browser.new_context(viewport=viewport, base_url=base, **options)
    page = context.new_page()
    page.set_default_timeout(WAIT)
    return context, page


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

        save_net(phone, NAMES, ["300", "20", "35"], "Ann", 1)
        expect(tv.locator(".dealer")).to_contain_text("Next deal: Bob · round 2")
        expect(tv.locator(".tv-last")).to_contain_text("+300")
        expect(tv.locator(".standing").first).to_contain_text("200 to go")
        shot(tv, "tv-02-after-round-1-1920")
        assert _axe_problems(tv, axe) == []

        save_net(phone, NAMES, ["250", "10", "5"], "Ann", 2)
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
    host.select_option("#seat_0", "casual")
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


# Issue 37, item 2 and 7: the TV with 8 players or two sides on one screen at 1920 x 1080 and
# 1280 x 720, the Persian bonus counted in the last deal's rise, and who pays whom.
SIZES = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
EIGHT = ["Ann", "Bob", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def _start(phone, names: list[str], **fields: str) -> str:
    """A game started through the new game form (``fields``: ``preset`` chosen, others
    filled by id); returns its view link's path."""
    phone.goto("/games/new")
    for i, name in enumerate(names):
        phone.fill(f"#player_{i}", name)
    for key, value in fields.items():
        if key == "preset":
            phone.select_option("#preset", value)
        else:
            phone.fill(f"#{key}", value)
    phone.get_by_role("button", name="Start the game").click()
    phone.wait_for_selector("#entry")
    return "/games/" + phone.url.rstrip("/").rsplit("/", 1)[-1]


def _fits_one_screen(tv, names: list[str]) -> None:
    """No scrolling either way, and every unit's card, name and total inside the window."""
    size = tv.evaluate(
        "[document.documentElement.scrollHeight, innerHeight,"
        " document.documentElement.scrollWidth, innerWidth]"
    )
    assert size[0] <= size[1] and size[2] <= size[3], size
    cards = tv.locator(".tv-cards .standing")
    expect(cards).to_have_count(len(names))
    for i in range(len(names)):
        for part in (cards.nth(i), cards.nth(i).locator(".total")):
            box = part.bounding_box()
            assert box is not None and box["width"] > 0
            assert box["x"] >= 0 and box["x"] + box["width"] <= size[3], (names[i], box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], (names[i], box)
    shown = {cards.nth(i).locator(".name").inner_text() for i in range(len(names))}
    assert shown == set(names)


def _at_both_sizes(tv, names: list[str], name: str) -> None:
    for size in SIZES:
        tv.set_viewport_size(size)
        _fits_one_screen(tv, names)
        shot(tv, f"{name}-{size['width']}")


def test_the_tv_of_eight_players_fits_one_screen_at_both_sizes(browser, live_server):
    phone_context, phone = phone_page(browser, live_server)
    tv_context, tv = _context(browser, live_server, TV)
    try:
        game = _start(phone, EIGHT, target="300", stake="0.05")
        tv.goto(f"{game}/tv")
        _at_both_sizes(tv, EIGHT, "tv-07-eight-new")
        net_round(phone, dict(zip(EIGHT, [120, 15, 40, 10, 35, 0, 25, 5], strict=True)), "Ann", 1)
        expect(tv.locator(".tv-last")).to_contain_text("+120")
        _at_both_sizes(tv, EIGHT, "tv-08-eight-round-1")
        net_round(phone, dict(zip(EIGHT, [200, 5, 10, 15, 20, 0, 25, 5], strict=True)), "Ann", 2)
        expect(tv.locator(".tv-winner")).to_contain_text("Ann wins!")
        expect(tv.locator(".standing.won")).to_have_text(re.compile(r"Ann\s*320\s*collects 2030"))
        expect(tv.locator(".standing", has_text="Fay")).to_contain_text("pays Ann 320 (16.00)")
        _at_both_sizes(tv, EIGHT, "tv-09-eight-winner")
        tv.select_option("#theme", "dark")
        _at_both_sizes(tv, EIGHT, "tv-09-eight-winner-dark")
    finally:
        phone_context.close()
        tv_context.close()


def test_the_tv_of_two_sides_fits_one_screen_at_both_sizes(browser, live_server):
    phone_context, phone = phone_page(browser, live_server)
    tv_context, tv = _context(browser, live_server, TV)
    try:
        game = _start(phone, ["Ann", "Bob", "Cat", "Dee"], preset="partnership", target="200")
        tv.goto(f"{game}/tv")
        net_round(phone, {"Ann": 150, "Bob": 20, "Cat": 80, "Dee": 10}, "Ann", 1)
        expect(tv.locator(".tv-winner")).to_contain_text("Ann & Cat win!")
        expect(tv.locator(".standing", has_text="Bob & Dee")).to_contain_text("pay Ann & Cat 200")
        _at_both_sizes(tv, ["Ann & Cat", "Bob & Dee"], "tv-10-sides-winner")
    finally:
        phone_context.close()
        tv_context.close()


def test_the_persian_tv_counts_the_bonus_in_the_rise_and_says_who_pays(browser, live_server):
    phone_context, phone = phone_page(browser, live_server)
    tv_context, tv = _context(browser, live_server, TV)
    try:
        game = _start(phone, ["Ann", "Bob", "Cat", "Dan"], preset="persian", title="Nowruz")
        tv.goto(f"{game}/tv")
        net_round(phone, {"Ann": 120, "Bob": 15, "Cat": 40, "Dan": 10}, "Ann", 1)
        expect(tv.locator(".tv-last")).to_contain_text("+160")
        net_round(phone, {"Ann": 200, "Bob": 10, "Cat": 120, "Dan": 5}, "Ann", 2)
        last = tv.locator(".tv-last")
        expect(last).to_contain_text("Deal 2")
        expect(last.locator("li", has_text="Ann & Cat")).to_contain_text("+370")  # 320 + 50
        expect(last.locator(".tv-bonus")).to_contain_text(
            "+50 Ann & Cat: the better score after two deals P5"
        )
        expect(tv.locator(".standing", has_text="Bob & Dan")).to_contain_text("pay Ann & Cat 490")
        _at_both_sizes(tv, ["Ann & Cat", "Bob & Dan"], "tv-11-persian-bonus")
        phone.add_init_script(SHARE)
        phone.reload()
        phone.get_by_role("button", name="Share result").click()
        text = phone.evaluate("window.shared[0].text")
        assert "Deal 2: Ann & Cat +370 · Bob & Dan +15 (Ann & Cat +50: " in text, text
        assert text.endswith("\nBob & Dan pay Ann & Cat 490"), text
    finally:
        phone_context.close()
        tv_context.close()


def test_the_picture_of_eight_players_fits_its_title(browser, live_server):
    phone_context, phone = phone_page(browser, live_server)
    try:
        names = [f"{n}-{'W' * 5}berg" for n in EIGHT]
        game = _start(phone, names, target="100")
        net_round(phone, dict(zip(names, [120, 5, 10, 15, 20, 0, 25, 5], strict=True)), names[0], 1)
        phone.goto(f"{game}/result.svg")
        widths = phone.evaluate(
            "[...document.querySelectorAll('text')].map(t => [t.textContent,"
            " t.getBBox().x, t.getBBox().x + t.getBBox().width])"
        )
        canvas = phone.evaluate("document.querySelector('svg').viewBox.baseVal.width")
        titles = phone.evaluate("document.querySelectorAll('text.t').length")
        assert titles > 1  # the title wrapped onto more than one line
        for text, left, right in widths:
            assert 0 <= left and right <= canvas, (text, left, right, canvas)
        said = " ".join(w[0] for w in widths)
        assert "pays" in said and names[0] in said  # the settlement in the picture
        phone.screenshot(path=str(SCREENSHOTS / "tv-12-picture-eight.png"))
    finally:
        phone_context.close()
