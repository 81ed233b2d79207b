"""The game page between deals in Chromium at a phone's size (issue 26, item 4): a game in
progress opens with its round entry in view; a save's toast gives the new totals (the
sides' in Persian) with Undo; Persian asks for shown / in hand and credits the P5 +50 to
the side; a net round's correction previews it as net. Screenshots at 390 and 360 px,
light and dark: between-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS, phone, shot

NAMES = ["Ann", "Bob", "Cat", "Dee"]


def _start(page, preset="standard"):
    page.goto("/games/new")
    for i, name in enumerate(NAMES):
        page.fill(f"#player_{i}", name)
    page.select_option("#preset", value=preset)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("#entry")


def _type(page, label: str, digits: str) -> None:
    page.get_by_label(label, exact=True).click()
    page.keyboard.type(digits)


def _net_round(page, figures, out: str, number: int) -> str:
    for name, digits in zip(NAMES, figures, strict=True):
        if digits:
            _type(page, f"{name}, round score", digits)
    page.locator("label.out", has_text=out).click()
    page.wait_for_selector(".preview-list")
    page.get_by_role("button", name="Save round").click()
    toast = page.locator(".toast", has_text=f"Round {number} saved")
    expect(toast).to_be_visible()
    return toast.inner_text()


def _view_shot(page, name: str) -> None:
    """What the phone's screen shows (the viewport, not the whole page): NAME.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), scale="css")


def _in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= size["height"]


@pytest.mark.parametrize("width", [390, 360])
def test_a_game_in_progress_opens_with_the_entry_in_view(browser, live_server, width):
    context, page = phone(browser, live_server, width)
    _start(page)
    for number, figures in enumerate([["85", "20", "35", "5"], ["10", "60", "", "15"]] * 3, 1):
        _net_round(page, figures, "Ann" if number % 2 else "Bob", number)
    opened = context.new_page()  # the game opened afresh, at the top of the page
    opened.goto(page.url)
    jump = opened.get_by_role("link", name="Record a round")
    assert _in_view(opened, ".record-jump")
    _view_shot(opened, f"between-01-opened-{width}")
    jump.click()  # one tap brings the entry up, its first figure focused
    expect(opened.locator("#net-0")).to_be_focused()
    assert _in_view(opened, "#entry h2") and _in_view(opened, "#entry button[type=submit]")
    assert opened.evaluate("document.documentElement.scrollWidth") <= width
    _view_shot(opened, f"between-02-entry-up-{width}")
    context.close()


@pytest.mark.parametrize("dark", [False, True])
def test_the_toast_gives_the_new_totals_and_undo(browser, live_server, dark):
    context, page = phone(browser, live_server, dark=dark)
    _start(page)
    _net_round(page, ["85", "20", "35", "5"], "Ann", 1)
    text = _net_round(page, ["10", "60", "", "15"], "Bob", 2)
    assert "Round 2 saved: Ann 95 · Bob 80 · Cat 35 · Dee 20" in text and "Undo" in text
    _view_shot(page, f"between-03-toast-{'dark' if dark else 'light'}-390")
    page.locator(".toast").get_by_role("button", name="Undo").click()
    expect(page.locator(".toast")).to_contain_text("Undone")
    context.close()


def _shown_in_hand(page, figures) -> None:
    for name, (shown, hand) in zip(NAMES, figures, strict=True):
        if shown:
            _type(page, f"{name}, shown", shown)
        if hand:
            _type(page, f"{name}, in hand", hand)


@pytest.mark.parametrize("width", [390, 360])
def test_persian_asks_shown_in_hand_and_credits_the_50_to_the_side(browser, live_server, width):
    context, page = phone(browser, live_server, width)
    _start(page, "persian")
    expect(page.locator("input[name=mode][value=totals]")).to_be_checked()
    _shown_in_hand(page, [("40", ""), ("10", "10"), ("20", "5"), ("5", "20")])
    expect(page.locator("#entry-preview")).to_contain_text("Ann & Cat +25 going out")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".toast")).to_contain_text("Round 1 saved: Ann & Cat 80 · Bob & Dee -15")
    _shown_in_hand(page, [("40", "10"), ("60", ""), ("20", "5"), ("5", "20")])
    preview = page.locator("#entry-preview")
    expect(preview).to_contain_text("Ann & Cat +50 the better score after two deals")
    expect(preview).to_contain_text("Bob & Dee +25 going out")
    shot(page, f"between-04-persian-preview-{width}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".toast")).to_contain_text("Round 2 saved: Ann & Cat 175 · Bob & Dee 55")
    expect(page.locator(".over")).to_contain_text("Ann & Cat win")
    context.close()


def test_a_net_rounds_correction_previews_it_as_net(browser, live_server):
    context, page = phone(browser, live_server, dark=True)
    _start(page)
    _net_round(page, ["85", "20", "35", "5"], "Ann", 1)
    page.get_by_role("link", name="Edit round 1").click()
    page.get_by_label("Ann, round score").fill("90")
    page.get_by_role("button", name="Preview").click()
    table = page.locator("#preview table.figures")
    expect(table.locator("thead th")).to_have_text(["Player", "Round", "Total"])
    expect(table.locator("tbody tr").first).to_contain_text("+90")
    expect(page.locator("#preview")).not_to_contain_text("round score as the table counted it")
    shot(page, "between-05-net-correction-dark-390")
    context.close()


def test_a_queued_save_says_so_and_its_totals_come_once_sent(browser, live_server):
    context, page = phone(browser, live_server)
    _start(page)
    page.context.set_offline(True)
    page.wait_for_selector("#netstate.offline")
    _type(page, "Ann, round score", "50")
    page.locator("label.out", has_text="Ann").click()
    page.get_by_role("button", name="Save round").click()
    toast = page.locator(".toast")
    expect(toast).to_have_text("Round 1 kept on this phone: waiting to sync")
    page.context.set_offline(False)
    expect(toast).to_contain_text("Round 1 saved: Ann 50 · Bob 0 · Cat 0 · Dee 0")
    context.close()
