"""The ladder's level picker in Chromium at a phone's size (390 x 844, and 360 px in the
dark theme): every level by its title with its rating, its words in the legend, this
phone's level line; choosing "Match my level" starts a game against the level it names
(the middle of the ladder before any finished game). Screenshots:
tests/browser/screenshots/levels-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.engine import LEVELS, ladder_ratings, middle_level
from tests.browser.conftest import SCREENSHOTS, phone, shot


def _no_overflow(page, screen: int) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= screen, f"the page is {width}px wide on a {screen}px screen"


@pytest.mark.parametrize(("width", "dark"), [(390, False), (360, True)])
def test_the_picker_shows_titles_and_ratings_and_match_my_level_starts_a_game(
    browser, live_server, width, dark
) -> None:
    context, page = phone(browser, live_server, width=width, dark=dark)
    try:
        page.goto("/play")
        labels = page.locator("#bot_1 option").all_inner_texts()
        ratings = ladder_ratings()
        assert labels[2:] == [f"{lv.title} · {ratings[lv.name]}" for lv in LEVELS]
        page.get_by_text("How each level plays").click()
        legend = page.locator("#levels li").all_inner_texts()
        assert [line.split(":")[0] for line in legend] == [
            f"{lv.title} · {ratings[lv.name]}" for lv in LEVELS
        ]
        expect(page.locator("#your-level")).to_contain_text("after you finish a game")
        _no_overflow(page, width)
        page.locator("#levels").scroll_into_view_if_needed()
        shot(page, f"levels-picker-{width}{'-dark' if dark else ''}")
        page.goto("/play/table")
        page.get_by_text("How each level plays").click()
        _no_overflow(page, width)
        shot(page, f"levels-table-{width}{'-dark' if dark else ''}")
        page.evaluate("document.getElementById('seat_2').scrollIntoView({block: 'center'})")
        page.screenshot(path=str(SCREENSHOTS / f"levels-seat-{width}{'-dark' if dark else ''}.png"))
        page.goto("/play")
        match = f"Match my level: {middle_level().title}"
        page.select_option("#bot_0", label=match)
        page.fill("#seed", "2")
        page.get_by_role("button", name="Deal").click()
        page.wait_for_selector(".hand .hcard")
        expect(page.locator(".seat").nth(1)).to_contain_text(f"{middle_level().title} bot")
        _no_overflow(page, width)
        shot(page, f"levels-game-{width}{'-dark' if dark else ''}")
    finally:
        context.close()
