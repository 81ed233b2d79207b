"""Light and dark (issue 26, item 2) in Chromium at 390 x 844: every kind of page, built
through the forms, in the phone's light and dark setting (prefers-color-scheme) and in
the theme chosen with the footer's switch (kept on the phone), with axe-core finding no
serious or critical violation (colour contrast AA among them). Screenshots:
tests/browser/screenshots/theme-<light|dark>-<page>.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot
from tests.browser.test_home_browser import _axe_problems
from tests.browser.test_small_things_browser import make_group, net_round


def _pages(page) -> dict[str, str]:
    """A group with two finished games and a game with rounds in play, a game against
    bots and a shared table, all made through the forms; their pages by name."""
    group = make_group(page, "Theme night", ["Ann", "Bob", "Cat"])
    page.get_by_role("link", name="New game").click()
    page.select_option("#preset", "quick")
    page.get_by_role("button", name="Start the game").click()
    net_round(page, {"Ann": 110, "Bob": 20, "Cat": 5}, "Ann", 1)
    over = page.url
    page.goto(group)
    page.get_by_role("link", name="New game").click()
    page.get_by_role("button", name="Start the game").click()
    net_round(page, {"Ann": 60, "Bob": 20, "Cat": -5}, "Ann", 1)
    net_round(page, {"Ann": 10, "Bob": 45, "Cat": 5}, "Bob", 2)
    game = page.url
    page.goto(group)
    ann = page.get_by_role("link", name="Ann", exact=True).get_attribute("href")
    page.goto("/play")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector(".hand")
    play = page.url.split("?")[0]
    page.goto("/play/table")
    page.fill("#name", "Hana")
    page.select_option("#seat_0", "person")
    page.fill("#who_0", "Ivo")
    page.select_option("#seat_1", "casual")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_url(re.compile(r"/play/[^/]+/seats$"))
    return {
        "home": "/",
        "new-game": "/games/new",
        "game": game,
        "game-over": over,
        "share": f"{game}/share",
        "history": f"{game}/history",
        "round-by-cards": f"{game}/rounds/new?mode=cards",
        "rules": "/rules",
        "rule": "/rules/M4",
        "check": "/check",
        "check-meld": "/check/meld?cards=7H+8H+9H+JK",
        "play": play,
        "play-table-seats": page.url,
        "groups": "/groups/",
        "group": group,
        "profile": ann,
        "season": f"{group}/season",
    }


def test_every_page_in_light_and_dark_passes_axe(page):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    pages = _pages(page)
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for name, path in pages.items():
            page.goto(path)
            page.wait_for_load_state("load")
            assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (
                scheme == "dark"
            )
            problems = _axe_problems(page, axe)
            if problems:
                found[f"{scheme} {name}"] = problems
            shot(page, f"theme-{scheme}-{name}")
    assert found == {}


def _background(page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def test_the_switch_overrides_the_phone_and_is_kept(page):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    page.emulate_media(color_scheme="dark")
    page.goto("/rules")
    dark = _background(page)
    page.select_option("#theme", "light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    light = _background(page)
    assert light != dark
    page.goto("/check")  # kept on the phone: the next page opens light, before paint
    assert page.get_attribute("html", "data-theme") == "light" and _background(page) == light
    assert _axe_problems(page, axe) == []
    page.emulate_media(color_scheme="light")
    page.goto("/")
    page.select_option("#theme", "dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert _background(page) == dark
    assert _axe_problems(page, axe) == []
    page.select_option("#theme", "system")
    expect(page.locator("html")).not_to_have_attribute("data-theme", re.compile("."))
    assert _background(page) == light
