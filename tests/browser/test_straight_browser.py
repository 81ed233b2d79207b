"""The by-cards form asks for the 500-point straight's final turn (S10) on a phone."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import shot


def test_by_cards_form_marks_the_final_turn_for_the_500_point_straight(page):
    # Seed 002: "If a player lays down a 7-card straight and then discards his last card,
    # he is awarded 500 points."
    page.goto("/games/new")
    for i, name in enumerate(["Ann", "Bob", "Cat"]):
        page.fill(f"#player_{i}", name)
    page.eval_on_selector("#opt_seven_card_straight", "el => { el.value = 'true'; }")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector(".standings")
    page.get_by_role("link", name="By cards").click()
    page.select_option("#went_out", label="Ann")
    page.fill("#meld-0-0", "3H 4H 5H 6H 7H 8H 9H")
    page.check("#final-0-0")
    page.select_option("#went_out_by", value="discard")
    page.fill("#hand-1", "KD")
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#preview")).to_contain_text("Rummy Master")
    shot(page, "straight-01-cards-form-final-turn")
