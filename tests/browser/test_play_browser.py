"""The digital game at a phone's size in Chromium, played like an app: a whole round against
one bot by taps with no page load between moves (a marker set on ``window`` survives), the
hand sorted by rank and reordered by dragging (kept after a reload), the bots' moves shown
step by step and skipped, a refusal with its rule, the round-end pause shown and dismissed
with "Next round"; the hand and the action bar stay on screen; axe finds no serious or
critical violation. Screenshots go to tests/browser/screenshots/play-*.png.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, shot

MAX_TURNS = 40


def _no_overflow(page, screen: int = 390) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= screen, f"the page is {width}px wide on a {screen}px screen"


def _hand(page) -> list[str]:
    return page.locator(".hand .hcard").evaluate_all("els => els.map(e => e.dataset.card)")


def _settled(page) -> None:
    page.wait_for_selector("#board-root:not(.sending)", state="attached")


def _tap(page, locator) -> None:
    locator.click()
    _settled(page)


def _tap_cards(page, cards: list[str]) -> int:
    for card in cards:
        text = card.split("=")[0]
        page.locator(f'.hand input[value="{text}"]:not(:checked) + label').first.click()
    return len(cards)


def _hints(page) -> list[dict]:
    buttons = page.locator(".hints button")
    return [json.loads(v) for v in buttons.evaluate_all("els => els.map(e => e.value)")]


def _round_over(page) -> bool:
    return page.locator(".roundend").count() > 0


def _play_melds(page) -> int:
    """Lay down (or lay off) what the page offers, by tapping cards; returns taps made."""
    taps = 0
    for _ in range(10):
        hints = _hints(page)
        if not hints or _round_over(page):
            return taps
        play = hints[0]
        if play["type"] == "lay_down":
            taps += _tap_cards(page, [c for meld in play["melds"] for c in meld])
            _tap(page, page.locator(".playbar button[value=lay_down]"))
        else:
            taps += _tap_cards(page, [play["card"]])
            _tap(page, page.locator(f'button[value="lay_off:{play["meld"]}"]'))
        taps += 1
        if page.locator("#notice .choices button").count():
            _tap(page, page.locator("#notice .choices button").first)
            taps += 1
    return taps


def _dock_on_screen(page) -> None:
    bar = page.locator(".playbar").bounding_box()
    hand = page.locator(".hand").bounding_box()
    assert bar is not None and hand is not None
    assert bar["y"] + bar["height"] <= PHONE["height"] and hand["y"] > PHONE["height"] / 2


def _sort_and_drag(page) -> None:
    """By rank, then a drag: the first card moved to the end; kept after a reload."""
    page.get_by_role("button", name="By rank").click()
    ranks = page.locator(".hand .hcard").evaluate_all(
        "els => els.map(e => Number(e.dataset.byRank))"
    )
    assert ranks == sorted(ranks)
    shot(page, "play-02-by-rank")
    first, last = page.locator(".hand .hcard").first, page.locator(".hand .hcard").last
    before = _hand(page)
    moved = before[0]
    a, b = first.bounding_box(), last.bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    for i in range(1, 11):
        x = a["x"] + (b["x"] + b["width"] * 0.8 - a["x"]) * i / 10
        y = a["y"] + (b["y"] - a["y"]) * i / 10 + a["height"] / 2
        page.mouse.move(x, y)
    page.mouse.up()
    order = _hand(page)
    assert order != before and order.index(moved) >= len(order) - 3, order  # dragged near the end
    assert page.locator('[data-sort][aria-pressed="true"]').count() == 0  # now the person's order
    page.reload()
    page.wait_for_selector(".hand .hcard")
    assert _hand(page) == order


def test_a_round_by_taps_without_a_page_load(page):
    page.goto("/play")
    page.fill("#name", "Sam")
    page.select_option("#bot_0", "casual")
    page.fill("#seed", "1")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector(".hand .hcard")
    shot(page, "play-01-dealt")
    _no_overflow(page)
    _dock_on_screen(page)
    assert page.locator(".playbar button.legal").all_inner_texts() == ["Draw"]
    _sort_and_drag(page)
    page.evaluate("window.noReload = 42")

    # an illegal move is explained in the rule's words, with a link to the rule
    _tap(page, page.locator(".pile button.pcard").last)
    assert "can be taken only if you use it at once" in page.inner_text("#notice")
    assert page.locator('#notice a[href="/rules#T2"]').count() == 1
    shot(page, "play-03-refused")

    taps: list[int] = []
    for turn in range(MAX_TURNS):
        _tap(page, page.get_by_role("button", name="Draw", exact=True))
        made = 1 + _play_melds(page)
        if _round_over(page):
            taps.append(made)
            break
        discard = page.locator(".playbar button[value=discard]")
        assert discard.is_disabled()  # nothing selected yet
        page.locator(".hand label").last.click()
        assert discard.inner_text().startswith("Discard ")
        _tap(page, discard)
        taps.append(made + 2)
        if _round_over(page):
            break
        if turn == 1:  # the bot's moves, made by jobs, listed as the latest moves
            expect(page.locator("[data-turn]")).to_have_text("Your turn.")
            page.locator(".moves summary").click()
            assert "Ada" in page.inner_text(".moves")
            shot(page, "play-04-bot-moves")
        _dock_on_screen(page)
    assert _round_over(page), "the round did not end"
    assert page.evaluate("window.noReload") == 42  # no page load between moves
    print("taps per turn:", taps)
    shot(page, "play-06-round-over")
    _no_overflow(page)
    ended = page.inner_text(".roundend")
    assert "Round 1 is over" in ended and "hand left" in ended and "total" in ended
    assert page.locator(".roundend .scored").count() >= 14
    axe = _axe(page)
    _tap(page, page.get_by_role("button", name="Next round"))
    page.wait_for_selector(".dock")
    assert not _round_over(page) and page.evaluate("window.noReload") == 42
    assert "Round 2" in page.inner_text(".meta")
    shot(page, "play-07-next-round")
    assert axe == [] and _axe(page) == []

    page.set_viewport_size({"width": 360, "height": 780})  # a small phone
    page.reload()
    page.wait_for_selector(".dock")
    _no_overflow(page, 360)
    shot(page, "play-08-360px")
    with page.expect_download() as download:
        page.locator(".rules-used summary").click()
        page.get_by_role("link", name="Download the game record so far").click()
    record = json.loads(Path(download.value.path()).read_text())
    assert record["format"] == "500rum-record/1" and len(record["rounds"]) == 1


def _axe(page) -> list[str]:
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    results = axe_module.Axe().run(page, options={"resultTypes": ["violations"]})
    return [
        f"{v['id']} ({v['impact']}): {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 780)])
def test_the_discard_buttons_label_fits_with_a_card_selected(browser, live_server, width, height):
    """Issue 26: with a card selected the Discard button read "iscard 5" at 390 and 360 px.
    The longest label (the card of the longest name, e.g. "Discard 10♥") fits its button,
    and every button of the action bar is inside the screen."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        base_url=live_server,
    )
    try:
        page = context.new_page()
        page.goto("/play")
        page.fill("#name", "Sam")
        page.select_option("#bot_0", "casual")
        page.fill("#seed", "1")
        page.get_by_role("button", name="Deal").click()
        page.wait_for_selector(".hand .hcard")
        _tap(page, page.get_by_role("button", name="Draw", exact=True))
        labels = page.locator(".hand label")
        names = labels.evaluate_all("els => els.map(e => e.dataset.display)")
        longest = max(range(len(names)), key=lambda i: len(names[i]))
        labels.nth(longest).click()
        discard = page.locator(".playbar button[value=discard]")
        expect(discard).to_have_text(f"Discard {names[longest]}")
        fits = discard.evaluate("b => b.scrollWidth <= b.clientWidth")
        assert fits, f"the label {discard.inner_text()!r} is cut at {width} px"
        for button in page.locator(".playbar button").all():
            box = button.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
            assert button.evaluate("b => b.scrollWidth <= b.clientWidth"), button.inner_text()
        _no_overflow(page, width)
        shot(page, f"play-discard-{width}")
    finally:
        context.close()
