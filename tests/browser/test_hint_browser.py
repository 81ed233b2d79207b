"""The Hint button in /play at a phone's size in Chromium: the expert's move and why
shown in place (no page load, nothing played), and a bot's reason in the moves list.
Screenshots go to tests/browser/screenshots/play-hint*.png."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import shot


def test_the_hint_shows_the_experts_move_and_why_in_place(page) -> None:
    page.goto("/play")
    page.fill("#name", "Sam")
    page.select_option("#bot_0", "expert")
    page.fill("#seed", "3")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector(".hand .hcard")
    page.evaluate("window.stayed = true")
    version = page.locator("#board").get_attribute("data-version")
    page.get_by_role("link", name="Hint").click()
    hint = page.locator("[data-hint-text]")
    expect(hint).to_contain_text("The expert's move:", timeout=20_000)
    assert page.evaluate("window.stayed") is True  # no page load
    assert page.locator("#board").get_attribute("data-version") == version  # nothing played
    page.get_by_role("button", name="Draw").click()
    expect(page.locator("#board")).not_to_have_attribute("data-version", version)
    page.wait_for_selector("#board-root:not(.sending)", state="attached")
    page.get_by_role("link", name="Hint").click()
    expect(hint).to_contain_text("sampled deals", timeout=20_000)  # the discards weighed
    expect(hint).to_contain_text("expected")
    shot(page, "play-hint")
    if page.locator(".moves summary").count():
        page.locator(".moves summary").click()
        shot(page, "play-hint-moves")
