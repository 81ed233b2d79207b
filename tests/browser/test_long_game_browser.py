"""A long game at a phone's size: the page shows the latest 20 rounds, and the link to
every round works. Screenshots go to tests/browser/screenshots/."""

from __future__ import annotations

from tests.browser.conftest import shot
from tests.conftest import make_app
from tests.table.test_costs import _long_game


def test_a_long_game_shows_its_latest_rounds_and_all_on_demand(page, tmp_path):
    slug, _ = _long_game(make_app(str(tmp_path / "browser.sqlite3")), 25)
    page.goto(f"/games/{slug}")
    first = page.locator("table.rounds tbody tr td:first-child")
    assert first.first.inner_text().strip() == "6" and first.last.inner_text().strip() == "25"
    assert page.locator(".chart polyline").count() == 4
    shot(page, "long_game_latest")
    page.get_by_role("link", name="Show all 25 rounds").click()
    page.wait_for_selector("text=Show the latest 20")
    assert first.first.inner_text().strip() == "1" and first.count() == 25
    shot(page, "long_game_all")
