"""A group's game night in Chromium at 390 x 844: make a group, add its players, start
two short games (the quick preset) from the group's page with its players ticked, keep
the score, then read a profile, head to head and the season; axe-core finds no serious or
critical violation on the group's pages. Screenshots (390 and 360 px wide) go to
tests/browser/screenshots/groups-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import make_group, shot
from tests.browser.test_home_browser import _axe_problems

NAMES = ["Ann", "Bob", "Cat"]
NARROW = {"width": 360, "height": 780}


def _play_one_round(page, scores: list[str], out: str) -> None:
    """On the game page: each player's round score, who went out, save."""
    page.wait_for_selector("#entry")
    for name, digits in zip(NAMES, scores, strict=True):
        page.get_by_label(f"{name}, round score", exact=True).click()
        page.keyboard.type(digits)
    page.locator("label.out", has_text=out).click()
    page.wait_for_selector(".preview-list")
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector(".toast:has-text('Round 1 saved')")


def _new_game(page, group_url: str, preset: str | None) -> None:
    """From the group's page, a game with every player ticked: ``preset`` chosen, or
    (None) the group's usual rules, which must be the quick preset by then."""
    page.goto(group_url)
    page.get_by_role("link", name="New game").click()
    expect(page.locator("input[name=pick]:checked")).to_have_count(3)
    if preset:
        page.select_option("#preset", preset)
    else:
        assert page.input_value("#preset") == "quick"
        shot(page, "groups-new-game-usual-rules-390")
    page.get_by_role("button", name="Start the game").click()


def test_a_group_night_two_quick_games_then_the_figures(page):
    group_url = make_group(page, "Friday family", NAMES)
    shot(page, "groups-01-group-390")

    _new_game(page, group_url, "quick")
    _play_one_round(page, ["110", "20", "5"], "Ann")
    assert "Ann wins" in page.inner_text("body")
    _new_game(page, group_url, None)
    _play_one_round(page, ["10", "105", "15"], "Bob")

    page.goto(group_url)
    assert page.locator(".games li").count() == 2
    shot(page, "groups-02-games-390")
    page.get_by_role("link", name="Ann", exact=True).click()
    page.wait_for_selector(".headline")
    assert "2 games · 1 won · 50%" in page.inner_text(".headline")
    assert page.locator(".points-chart circle").count() == 2
    shot(page, "groups-03-profile-390")

    page.get_by_role("link", name="Head to head").click()
    page.select_option("#b", label="Bob")
    page.get_by_role("button", name="Compare").click()
    page.wait_for_selector("#h-result")
    result = page.inner_text("#h-result + dl")
    assert "Games together\n2" in result and "Ann won\n1" in result
    shot(page, "groups-04-versus-390")

    page.get_by_role("link", name="Season").click()
    page.wait_for_selector(".league")
    rows = page.locator(".league tbody tr").all_inner_texts()
    # Bob 20 + 105 = 125 points, Ann 110 + 10 = 120: one win each, Bob first on points
    assert [r.split()[:5] for r in rows[:2]] == [
        ["1", "Bob", "2", "1", "125"],
        ["2", "Ann", "2", "1", "120"],
    ]
    shot(page, "groups-05-season-390")
    page.get_by_role("link", name="Friday family").first.click()
    page.get_by_role("link", name="Share the group").click()
    page.wait_for_selector(".qr svg")
    assert page.locator(".qr svg").count() == 2
    shot(page, "groups-06-share-390")


def test_axe_and_360_px_on_the_group_pages(page):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    group = make_group(page, "Club", NAMES)
    _new_game(page, group, "quick")
    _play_one_round(page, ["110", "20", "5"], "Ann")
    _new_game(page, group, None)
    _play_one_round(page, ["30", "5", "100"], "Cat")
    page.goto(group)
    ann = page.get_by_role("link", name="Ann", exact=True).get_attribute("href")
    pages = {
        "index": "/groups/",
        "group": group,
        "new-game": f"/games/new?group={group.rsplit('/', 1)[-1]}",
        "profile": ann,
        "versus": f"{group}/versus?a=1&b=2",
        "season": f"{group}/season",
        "share": f"{group}/share",
        "attach": f"{group}/attach",
    }
    found = {}
    for name, path in pages.items():
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(path)
        page.wait_for_load_state("load")
        problems = _axe_problems(page, axe)
        if problems:
            found[name] = problems
        page.set_viewport_size(NARROW)
        shot(page, f"groups-axe-{name}-360")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= NARROW["width"], f"{name} scrolls sideways at 360 px ({wide})"
    assert found == {}
