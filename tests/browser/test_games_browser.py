"""The scorekeeper at a phone's size in Chromium: a whole 3-player game to 500.

One scenario: start a game, record rounds by totals (with the ± toggle and one-tap zero),
record a round by tapping cards, correct a round, watch from a second phone that follows
by itself, reach the settlement. Screenshots of every page go to tests/browser/screenshots/.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import shot


def _totals_round(page, went_out: str, figures: dict[str, tuple[int, int]], name: str = ""):
    """A round by shown / in hand on the game page's own entry (no page load)."""
    number = page.inner_text("[data-round-number]")
    page.locator(".modes label", has_text="Shown / in hand").click()
    page.locator("label.out", has_text=went_out).click()
    for seat, (shown, in_hand) in figures.items():
        page.fill(f"#shown-{seat}", str(shown))
        page.fill(f"#in_hand-{seat}", str(in_hand))
    page.wait_for_selector("#entry-preview .preview-list")
    if name:
        shot(page, name)
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector(f".toast:has-text('Round {number} saved')")


def _totals(page) -> list[str]:
    return page.locator(".standing .total").all_inner_texts()


def test_three_players_play_to_500(page, browser, live_server):
    page.goto("/")
    shot(page, "games-01-home-empty")
    page.get_by_role("link", name="New game").click()
    for i, name in enumerate(["Ann", "Bob", "Cat"]):
        page.fill(f"#player_{i}", name)
    page.select_option("#first_dealer", label="Bob")
    page.fill("#stake", "0.05")
    shot(page, "games-02-new-game")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector(".standings")
    assert "Next deal: Bob" in page.inner_text(".dealer")
    shot(page, "games-03-game-started")

    # a watcher on another phone, through the view link: read-only, follows by itself
    watcher = browser.new_context(viewport={"width": 390, "height": 844}, base_url=live_server)
    view = watcher.new_page()
    view.goto(page.url)
    assert view.locator("#entry").count() == 0

    # round 1 by shown / in hand on its own page, using the ± toggle and the one-tap zero
    page.get_by_role("link", name="By cards").click()
    page.get_by_role("link", name="Shown / in hand").click()
    shot(page, "games-04-totals-form")
    page.select_option("#went_out", label="Ann")
    page.fill("#shown-0", "120")
    page.fill("#shown-1", "40")
    page.fill("#in_hand-1", "15")
    page.fill("#shown-2", "10")
    page.fill("#in_hand-2", "35")
    page.fill("#adjust-2", "5")
    page.locator("#adjust-2 ~ button[data-sign]").click()
    assert page.input_value("#adjust-2") == "-5"
    page.locator("#in_hand-0 ~ button[data-zero]").click()
    page.get_by_role("button", name="Preview").click()
    preview = page.inner_text("#preview")
    assert "+120" in preview and "+25" in preview and "-30" in preview
    shot(page, "games-05-totals-preview")
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector(".flash-success")
    assert _totals(page) == ["120", "25", "-30"]
    # the watching phone refreshes by itself (expect polls without eval: the CSP forbids it)

    expect(view.locator(".standing .total").first).to_have_text("120")
    shot(view, "games-06-watcher-follows")

    _totals_round(page, "Bob", {0: (60, 20), 1: (140, 0), 2: (30, 10)})

    # round 3 by cards, melds tapped on the player's grid
    page.get_by_role("link", name="By cards").click()
    page.select_option("#went_out", label="Cat")
    cat = _grid(page, "Cat")
    for card in ("QH", "QS", "QD"):
        cat.locator(f"button[data-card='{card}']").click()
    expect(page.locator("#meld-2-0")).to_have_value("QH QS QD")  # each tap asked of the server
    page.fill("#meld-0-0", "3C 4C 5C")
    page.fill("#layoff-2-0", "6C")
    page.select_option("#onto-2-0", label="Ann's meld 1")
    page.fill("#hand-0", "KD 9S")
    page.fill("#hand-1", "AS")
    shot(page, "games-07-cards-form")
    page.get_by_role("button", name="Preview").click()
    explanation = page.inner_text("#preview")
    assert "lay-off onto Ann's meld 1" in explanation and "left in hand" in explanation
    shot(page, "games-08-cards-preview")
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector(".flash-success")
    assert _totals(page) == ["153", "150", "26"]

    # correct round 2: Bob showed 150, not 140
    page.get_by_role("link", name="Edit round 2").click()
    assert page.input_value("#shown-1") == "140"
    page.fill("#shown-1", "150")
    page.get_by_role("button", name="Preview").click()
    shot(page, "games-09-correct-preview")
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector(".flash-success")
    assert _totals(page) == ["160", "153", "26"]

    _totals_round(page, "Ann", {0: (200, 0), 1: (80, 30), 2: (50, 20)})
    shot(page, "games-10-game-page")
    _totals_round(page, "Ann", {0: (150, 0), 1: (60, 10), 2: (40, 30)}, "games-11-last-preview")
    page.wait_for_selector(".over")
    assert "Ann wins!" in page.inner_text(".over")
    settlement = page.inner_text(".settle")
    assert re.search(r"Bob\s+Ann\s+243\s+12\.15", settlement), settlement
    shot(page, "games-12-settlement")

    page.get_by_role("link", name="History").click()
    shot(page, "games-13-history")
    page.go_back()
    page.get_by_role("link", name="Share / QR").click()
    expect(page.locator(".qr svg")).to_have_count(2)
    shot(page, "games-14-share")
    view.wait_for_selector(".over")
    shot(view, "games-15-watcher-game-over")
    watcher.close()
    page.goto("/")
    shot(page, "games-16-home")


def _grid(page, name: str):
    """The grid of a player's fieldset on a round by cards (static/dealgrid.js)."""
    box = page.locator("fieldset[data-deal]").filter(has=page.locator("legend", has_text=name))
    return box.locator(".deal")


def _start(page, names):
    page.goto("/games/new")
    for i, name in enumerate(names):
        page.fill(f"#player_{i}", name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector(".standings")
    page.get_by_role("link", name="By cards").click()


def test_cards_used_in_one_place_are_greyed_out_in_the_others(page):
    """One pack (D2): a card tapped into Ann's meld cannot be tapped into Bob's hand; it
    is free again once Ann's meld lets go of it."""
    _start(page, ["Ann", "Bob", "Cat"])
    ann, bob = _grid(page, "Ann"), _grid(page, "Bob")
    ann.locator("button[data-card='7H']").click()
    bob.get_by_role("button", name="The rest is in hand").click()
    expect(bob.locator("button[data-card='7H']")).to_be_disabled()
    assert bob.locator("button[data-card='7S']").is_enabled()
    shot(page, "games-17-used-card-greyed")
    page.fill("#meld-0-0", "")
    page.dispatch_event("#meld-0-0", "input")
    expect(bob.locator("button[data-card='7H']")).to_be_enabled()


def test_with_two_packs_a_card_may_be_used_twice(page):
    """Five players play with two packs (D2): the same card may be in two places."""
    _start(page, ["Ann", "Bob", "Cat", "Dee", "Eve"])
    page.fill("#meld-0-0", "7H 7S 7D")
    page.dispatch_event("#meld-0-0", "input")
    bob, cat = _grid(page, "Bob"), _grid(page, "Cat")
    bob.get_by_role("button", name="The rest is in hand").click()
    assert bob.locator("button[data-card='7H']").is_enabled()
    bob.locator("button[data-card='7H']").click()
    expect(page.locator("#hand-1")).to_have_value("7H")
    cat.get_by_role("button", name="The rest is in hand").click()
    expect(cat.locator("button[data-card='7H']")).to_be_disabled()
