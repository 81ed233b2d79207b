"""Browser scenarios (Chromium, 390 x 844): the shared card picker, and the checker with a
game's house rules loaded from a link."""

from __future__ import annotations

from flask import render_template_string
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS, shot

PICKER_PAGE = """<!doctype html>
<html lang="en" data-words="{{ script_words()|tojson|forceescape }}"><head>
<meta name="viewport" content="width=device-width">
<link rel="stylesheet" href="/static/style.css">
<script src="/static/words.js" defer></script></head><body><main>
{% from "_cards.html" import card_picker, card_picker_script %}
<form>{{ card_picker("meld", "7H", label="Meld", used="9H") }}
{{ card_picker("hand", label="Hand", jokers=false) }}</form>
{{ card_picker_script() }}</main></body></html>"""


def _picker_page(app, page):
    with app.test_request_context():
        html = render_template_string(PICKER_PAGE)
    html_type = "text/html; charset=utf-8"
    page.route("**/picker-test", lambda route: route.fulfill(body=html, content_type=html_type))
    page.goto("/picker-test")


def test_card_picker_taps_cards_jokers_and_clear(app, page):
    _picker_page(app, page)
    meld = page.locator("#cp-meld")
    picker = page.locator("[data-card-picker]").first
    picker.get_by_role("button", name="Cards").click()
    grid = picker.locator(".picker-grid")
    assert grid.is_visible()
    assert grid.locator("button[data-card='9H']").is_disabled()
    assert grid.locator("button[data-card='7H']").get_attribute("aria-pressed") == "true"
    grid.locator("button[data-card='7S']").click()
    grid.locator("button[data-card='7D']").click()
    assert meld.input_value() == "7H 7S 7D"
    grid.locator("button[data-card='7S']").click()
    assert meld.input_value() == "7H 7D"
    grid.get_by_role("button", name="Joker").click()
    assert "stands for" in grid.locator(".picker-hint").inner_text()
    grid.locator("button[data-card='7C']").click()
    assert meld.input_value() == "7H 7D JK=7C"
    grid.get_by_role("button", name="Joker").click()
    grid.get_by_role("button", name="Joker").click()
    assert meld.input_value() == "7H 7D JK=7C JK"
    chips = picker.locator(".picker-chips .card")
    assert chips.all_inner_texts() == ["7♥", "7♦", "JK(7♣)", "JK"]
    shot(page, "picker-open")
    chips.nth(0).click()
    assert meld.input_value() == "7D JK=7C JK"
    meld.fill("kc qc")
    assert grid.locator("button[data-card='KC']").get_attribute("aria-pressed") == "true"
    picker.get_by_role("button", name="Clear Meld").click()
    assert meld.input_value() == ""
    page.evaluate("CardPicker.setUsed(document.querySelector('[data-card-picker]'), '2S')")
    assert grid.locator("button[data-card='2S']").is_disabled()
    assert not grid.locator("button[data-card='9H']").is_disabled()
    hand = page.locator("[data-card-picker]").nth(1)
    hand.get_by_role("button", name="Cards").click()
    assert not grid.is_visible()
    assert hand.locator(".picker-joker").count() == 0
    hand.locator("button[data-card='10D']").click()
    assert page.locator("#cp-hand").input_value() == "10D"
    shot(page, "picker-hand")


def test_house_rules_link_round_the_corner_meld_and_rule_link(page):
    page.goto("/check?preset=modern&opt_ace_in_run=round-the-corner")
    house = page.get_by_role("region", name="House rules")
    assert "Modern" in house.inner_text()
    assert "round the corner allowed" in house.inner_text()
    shot(page, "check-house-rules")
    page.get_by_role("link", name="Is this meld legal?").click()
    assert "opt_ace_in_run=round-the-corner" in page.url
    grid = page.locator("[data-card-picker] .picker-grid")
    for card in ("KS", "AS", "2S"):
        grid.locator(f"button[data-card='{card}']").click()
    assert page.locator("#cp-cards").input_value() == "KS AS 2S"
    page.get_by_role("button", name="Check").click()
    answer = page.locator("#answer")
    expect(answer).to_contain_text("Legal: a run of K♠ A♠ 2♠")
    expect(answer).to_contain_text("turns the corner")
    shot(page, "check-meld-answer")
    answer.get_by_role("link", name="M4").click()
    page.wait_for_url("**/rules?**#M4")
    row = page.locator("section#M4")
    assert row.evaluate("el => el.matches(':target')")
    mine = row.locator("li.mine")
    assert "round the corner allowed" in mine.inner_text()
    assert "your table" in mine.inner_text()
    assert "the encyclopedia article" in mine.inner_text()
    page.screenshot(path=str(SCREENSHOTS / "rules-m4-viewport.png"))


def test_discard_question_wild_joker_completes_an_ace_high_run(page):
    # Seed 003: "Jokers are wild and may represent any card for the purpose of melding."
    page.goto("/check/discard?preset=jokers-wild&pile=3C+KH&hand=AH+JK+4S+8D")
    answer = page.locator("#answer")
    assert "You may take: K♥." in answer.inner_text()
    king = page.locator("li.yes")
    assert "JK(Q♥)K♥A♥" in king.inner_text().replace(" ", "").replace("\n", "")
    assert page.locator("li.no").inner_text().startswith("3♣")
    shot(page, "check-discard-wild-joker")
