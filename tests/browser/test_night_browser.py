"""A night that outlives one game (issue 37, item 3) in Chromium: a group's game played to
its end through the game page's forms with a TV open (1280 x 720) and a watching phone
open (390 x 844); between games the TV shows the result and tonight's tally; "Play
again" tapped on the scorer's phone carries the TV and the watching phone to the new
game with no touch on either; a fresh phone (360 px) joins by the room code from the
home page in three taps/keys (tap the field, type, submit), and a wrong code gets one
sentence. Screenshots: night-*.png in tests/browser/screenshots/."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import WAIT, make_group, save_net, shot
from tests.browser.conftest import phone as phone_page

TV = {"width": 1280, "height": 720}
NAMES = ["Ann", "Bob", "Cat"]


def _group_game(phone) -> None:
    """A group of NAMES and a quick game of all three, from the group's page."""
    make_group(phone, "Friday family", NAMES)
    phone.get_by_role("link", name="New game").click()
    phone.select_option("#preset", "quick")
    phone.get_by_role("button", name="Start the game").click()
    phone.wait_for_selector("#entry")


def _no_sideways_pan(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def test_play_again_carries_the_tv_and_a_watching_phone_and_a_code_joins(browser, live_server):
    scorer_context, scorer = phone_page(browser, live_server)
    tv_context = browser.new_context(viewport=TV, base_url=live_server)
    tv = tv_context.new_page()
    tv.set_default_timeout(WAIT)
    watcher_context, watcher = phone_page(browser, live_server)
    fresh_context, fresh = phone_page(browser, live_server, width=360)
    try:
        _group_game(scorer)
        first = scorer.url.rstrip("/").rsplit("/", 1)[-1]
        tv.goto(f"/games/{first}/tv")
        code = tv.locator(".room-code .code").inner_text().strip()
        assert re.fullmatch(r"[ACDEFGHJKMNPQRTUVWXY34679]{5}", code)
        shot(tv, "night-01-tv-room-code-1280")
        watcher.goto(f"/games/{first}")
        scorer.get_by_role("link", name="Share / QR").click()
        expect(scorer.locator(".room-code-panel .code")).to_have_text(code)
        shot(scorer, "night-00-share-room-code-390")
        scorer.go_back()

        save_net(scorer, NAMES, ["110", "20", "5"], "Ann", None)
        between = tv.locator(".between-games")
        expect(between).to_contain_text("Tonight · 1 game")
        expect(between.locator(".tally tbody tr").first).to_contain_text("Ann")
        expect(tv.locator(".tv-winner")).to_contain_text("Ann wins!")
        shot(tv, "night-02-tv-between-games-1280")
        height = tv.evaluate("document.documentElement.scrollHeight")
        assert height <= TV["height"], f"the TV between games is {height} px tall"
        expect(watcher.locator(".over")).to_contain_text("Ann wins!")

        scorer.get_by_role("button", name="Play again, same players and rules").click()
        scorer.wait_for_url(re.compile(r"/games/(?!" + re.escape(first) + r")[\w-]+$"))
        second = scorer.url.rstrip("/").rsplit("/", 1)[-1]
        # no touch on the TV nor on the watching phone: they follow by themselves
        tv.wait_for_url(f"**/games/{second}/tv")
        expect(tv.locator(".tv-last")).to_contain_text("No round yet")
        expect(tv.locator(".room-code .code")).to_have_text(code)
        watcher.wait_for_url(f"**/games/{second}")
        expect(watcher.locator("#entry")).to_have_count(0)  # still only watching
        shot(tv, "night-03-tv-next-game-1280")

        fresh.goto("/")
        taps = 0
        fresh.get_by_label("Watch a game by its room code").tap()
        taps += 1
        fresh.keyboard.type(f"{code[:3].lower()} {code[3:].lower()}")
        taps += 1
        shot(fresh, "night-04-join-form-360")
        fresh.keyboard.press("Enter")
        taps += 1
        fresh.wait_for_url(f"**/games/{second}")
        assert taps <= 5
        expect(fresh.locator("h1")).to_contain_text("Ann")
        expect(fresh.locator("#entry")).to_have_count(0)

        fresh.goto("/")
        fresh.get_by_label("Watch a game by its room code").tap()
        fresh.keyboard.type("HHHHH")
        fresh.get_by_role("button", name="Watch").tap()
        expect(fresh.get_by_role("alert")).to_have_text(
            "No game night has the room code HHHHH now: check it on the TV."
        )
        _no_sideways_pan(fresh)
        shot(fresh, "night-05-join-wrong-code-360")
        fresh.emulate_media(color_scheme="dark")
        shot(fresh, "night-06-join-wrong-code-dark-360")
    finally:
        for context in (scorer_context, tv_context, watcher_context, fresh_context):
            context.close()
