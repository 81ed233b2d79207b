"""The digital game at a phone's size in Chromium: a whole round against one bot, by tapping.

One scenario: choose the rules and a bot, deal (seed 1: the bot plays first), tap a discard
pile card that cannot be used and read why (T2), then draw, lay down every meld the page
offers by tapping its cards, lay off, and discard, until the round ends; reload mid-round
(the game continues where it was); read the round's scores card by card; download the
record. Screenshots go to tests/browser/screenshots/play-*.png.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.browser.conftest import shot

MAX_TURNS = 40


def _no_overflow(page, screen: int = 390) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= screen, f"the page is {width}px wide on a {screen}px screen"


def _hand(page) -> list[str]:
    return page.locator(".hand label").evaluate_all("els => els.map(e => e.dataset.card)")


def _tap_cards(page, cards: list[str]) -> None:
    for card in cards:
        text = card.split("=")[0]
        page.locator(f'.hand input[value="{text}"]:not(:checked) + label').first.click()


def _hints(page) -> list[dict]:
    buttons = page.locator(".hints button")
    return [json.loads(v) for v in buttons.evaluate_all("els => els.map(e => e.value)")]


def _play_melds(page) -> int:
    """Lay down (or lay off) what the page offers, by tapping cards; returns plays made."""
    made = 0
    for _ in range(10):
        hints = _hints(page)
        if not hints:
            return made
        play = hints[0]
        if play["type"] == "lay_down":
            _tap_cards(page, [c for meld in play["melds"] for c in meld])
            page.get_by_role("button", name="Lay down", exact=True).click()
        else:
            _tap_cards(page, [play["card"]])
            page.locator(f'button[value="lay_off:{play["meld"]}"]').click()
        page.wait_for_load_state()
        if page.locator(".choices").count():
            page.locator(".choices button").first.click()
        made += 1
        if page.locator(".roundend").count():
            return made
    return made


def _round_over(page) -> bool:
    return page.locator(".roundend").count() > 0


def test_a_round_against_a_bot_by_tapping(page):
    page.goto("/play")
    page.fill("#name", "Sam")
    page.select_option("#preset", "standard")
    page.select_option("#bot_0", "basic")
    page.fill("#seed", "1")
    shot(page, "play-01-new-game")
    _no_overflow(page)
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector(".hand label")
    assert page.locator(".steplist li").count() == 2  # Ada played first
    page.get_by_role("button", name="Show all at once").click()
    shot(page, "play-02-dealt")
    _no_overflow(page)
    assert len(_hand(page)) == 13

    # an illegal move is explained in the rule's words, with a link to the rule
    page.locator(".pile button.pcard").last.click()
    page.wait_for_selector(".refusal")
    refusal = page.inner_text(".refusal")
    assert "can be taken only if you use it at once" in refusal
    assert page.locator('.refusal a[href="/rules#T2"]').count() == 1
    shot(page, "play-03-refused")

    url = page.url.split("?")[0]
    plays = 0
    for turn in range(MAX_TURNS):
        if _round_over(page):
            break
        page.get_by_role("button", name="Draw from the stock").click()
        page.wait_for_selector(".prompt")
        if _round_over(page):
            break
        plays += _play_melds(page)
        if _round_over(page):
            break
        if turn == 2:
            hand, prompt = _hand(page), page.inner_text(".prompt")
            page.goto(url)  # reload mid-round: the game continues where it was
            assert _hand(page) == hand and page.inner_text(".prompt") == prompt
            shot(page, "play-04-mid-round")
        discard = page.get_by_role("button", name="Discard")
        assert discard.is_disabled()  # nothing selected yet
        page.locator(".hand label").last.click()
        assert discard.inner_text().startswith("Discard ")
        if turn == 3:
            shot(page, "play-05-card-selected")
        discard.click()
        page.wait_for_selector(".prompt, .over")
        if turn == 1:
            page.wait_for_timeout(300)
            shot(page, "play-06-bot-moves")
    assert _round_over(page), "the round did not end"
    if page.locator("[data-show-all]:visible").count():
        page.get_by_role("button", name="Show all at once").click()
    shot(page, "play-07-round-over")
    _no_overflow(page)
    assert "Round 1 scores" in page.inner_text(".roundend")

    page.get_by_role("link", name="Every card's points and the rule for each").click()
    page.wait_for_selector("#round-1")
    rows = page.locator("#round-1 .why li")
    assert rows.count() >= 20  # every card of both hands and the table
    shot(page, "play-08-round-scores")
    _no_overflow(page)

    page.set_viewport_size({"width": 360, "height": 780})  # a small phone
    page.goto(url)
    _no_overflow(page, 360)
    shot(page, "play-09-360px")

    with page.expect_download() as download:
        page.locator(".rules-used summary").click()
        page.get_by_role("link", name="Download the game record so far").click()
    record = json.loads(Path(download.value.path()).read_text())
    assert record["format"] == "500rum-record/1" and len(record["rounds"]) == 1
    assert record["players"] == ["Sam", "Ada"]
