"""A group's small things in Chromium (issue 26, item 7): the new game's "First dealer"
lists the ticked players (and follows the ticks), a profile says the points left in hand
are not recorded for games entered by net and its chart's caption reads the line the
right way; nothing is cut at 390 or 360 px: the header's "Check", the season table's
"Money" column, the "Edit" buttons of a finished Persian game's rounds. Everything is
built through the forms. Screenshots: tests/browser/screenshots/small-*.png."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import make_group, shot

NAMES = ["Ann", "Bob", "Cat"]
WIDTHS = ({"width": 390, "height": 844}, {"width": 360, "height": 780})


def net_round(page, scores: dict[str, int], out: str, saved: int) -> None:
    """On a game page: a round by net (each player's round score, the Net mode chosen),
    who went out, save."""
    page.wait_for_selector("#entry")
    page.locator(".modes label", has_text="Net").click()  # Persian opens in shown / in hand
    for name, points in scores.items():
        page.get_by_label(f"{name}, round score", exact=True).fill(str(points))
    page.locator("label.out", has_text=out).click()
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector(f".toast:has-text('Round {saved} saved'), .over")


def assert_fits(page, selector: str) -> None:
    """Every element at ``selector`` lies inside the viewport and inside each scrolling
    box that holds it (so nothing is hidden past a scroll edge), and shows all its text."""
    width = page.viewport_size["width"]
    boxes = page.locator(selector).evaluate_all(
        """els => els.map(e => {
          const r = e.getBoundingClientRect();
          let left = 0, right = innerWidth;
          for (let p = e.parentElement; p; p = p.parentElement) {
            if (getComputedStyle(p).overflowX === "visible") continue;
            const b = p.getBoundingClientRect();
            left = Math.max(left, b.left); right = Math.min(right, b.right);
          }
          return [e.textContent.trim(), r.left, r.right, left, right, e.scrollWidth, e.clientWidth];
        })"""
    )
    assert boxes, f"nothing at {selector}"
    for text, left, right, low, high, scroll, client in boxes:
        assert low - 0.5 <= left and right <= high + 0.5 <= width + 0.5, (
            f"{text!r} at {left:.0f}..{right:.0f} px is cut (seen {low:.0f}..{high:.0f})"
        )
        assert scroll <= client, f"{text!r} is clipped ({scroll} > {client})"


def test_first_dealer_lists_the_ticked_players(page):
    group = make_group(page, "Dealers", NAMES)
    page.get_by_role("link", name="New game").click()
    dealer = page.locator("#first_dealer option:not([hidden])")
    expect(dealer).to_have_text(NAMES)
    page.get_by_label("Bob", exact=True).uncheck()
    expect(dealer).to_have_text(["Ann", "Cat"])
    page.fill("#player_0", "Guest")
    expect(dealer).to_have_text(["Ann", "Cat", "Guest"])
    page.select_option("#first_dealer", label="Guest")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("#entry")
    assert "Next deal: Guest" in page.inner_text(".dealer")
    shot(page, "small-first-dealer-390")
    page.goto(group)
    assert page.locator(".games li").count() == 1


def test_first_dealer_without_javascript(browser, live_server):
    context = browser.new_context(java_script_enabled=False, base_url=live_server)
    page = context.new_page()
    make_group(page, "No script", NAMES)
    page.get_by_role("link", name="New game").click()
    labels = page.locator("#first_dealer option").all_inner_texts()
    assert labels == NAMES  # the seated players only (issue 37, item 7), not "Player 4".."8"
    context.close()


def test_profile_by_net_and_the_narrow_pages(page):
    group = make_group(page, "Net night", NAMES)
    games = (
        ({"Ann": 110, "Bob": 20, "Cat": 5}, "Ann"),
        ({"Ann": 10, "Bob": 105, "Cat": 15}, "Bob"),
    )
    for scores, out in games:
        page.goto(group)
        page.get_by_role("link", name="New game").click()
        page.select_option("#preset", "quick")
        page.fill("#stake", "0.05")
        page.get_by_role("button", name="Start the game").click()
        net_round(page, scores, out, 1)
    page.goto(group)
    page.get_by_role("link", name="Ann", exact=True).click()
    figure = page.locator(".figures div", has_text="left in hand").locator("dd")
    expect(figure).to_contain_text("not recorded")
    caption = page.inner_text(".points-chart figcaption")
    assert "oldest on the left" in caption and "110 in the first game, 10 in the latest" in caption
    shot(page, "small-profile-390")
    page.goto(f"{group}/season")
    for size in WIDTHS:
        page.set_viewport_size(size)
        assert_fits(page, ".top nav a")
        assert_fits(page, ".league th, .league td")
        shot(page, f"small-season-{size['width']}")


def test_a_finished_persian_games_edit_buttons_fit(page):
    page.goto("/games/new")
    for i, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        page.fill(f"#player_{i}", name)
    page.select_option("#preset", "persian")
    page.get_by_role("button", name="Start the game").click()
    net_round(page, {"Ann": 120, "Bob": 15, "Cat": 40, "Dan": 10}, "Ann", 1)
    net_round(page, {"Ann": 30, "Bob": 90, "Cat": 20, "Dan": 35}, "Bob", 2)
    expect(page.locator(".over")).to_be_visible()
    for size in WIDTHS:
        page.set_viewport_size(size)
        assert_fits(page, ".rounds a.button")
        assert_fits(page, ".top nav a")
        shot(page, f"small-persian-over-{size['width']}")
