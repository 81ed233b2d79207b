"""The spectator board in the pause after a round (issue 37, item 5), in Chromium: a
table of the host and a bot played to the round's end through the host's moves; a
watching phone at 360 px, light and dark, shows "Round 1 is over" with round 1's
figures (not the next deal) and nothing wider than the screen. Screenshots:
tests/browser/screenshots/watch-pause-360-*.png, watch-pause-1920.png."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import phone as phone_page
from tests.browser.conftest import shot
from tests.browser.test_tv_browser import _table

EAGER = ("lay_down", "lay_off", "draw", "discard")
"""The host's moves, most wanted first: the round ends soon."""


def _pick(legal: list[dict]) -> dict:
    for kind in EAGER:
        found = [a for a in legal if a["type"] == kind and a.get("from", "stock") == "stock"]
        if found:
            return found[0]
    return legal[0]


def _play_to_the_pause(host, slug: str) -> dict:
    """The host moves at each of its turns (the bot moves by itself) until the round
    ends in its pause; the host's last view of the game."""
    for _ in range(3000):  # a guard against a hang: a round ends long before
        state = json.loads(host.request.get(f"/play/{slug}/state.json").text())
        if state["paused"]:
            return state
        if not state["legal"]:  # the bot's turn: its job moves it
            host.wait_for_timeout(20)
            continue
        body = json.dumps({"version": state["version"], "action": _pick(state["legal"])})
        host.request.post(
            f"/play/{slug}/move.json", data=body, headers={"Content-Type": "application/json"}
        )
    raise AssertionError("the round never ended")


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_spectator_pause_shows_the_round_just_played(browser, live_server, dark):
    host_context, host = _table(browser, live_server)
    watch_context, watch = phone_page(browser, live_server, width=360, dark=dark)
    try:
        slug = host.url.rsplit("/", 2)[-2]
        link = host.get_by_role("link", name="Open the spectator board").get_attribute("href")
        assert link
        watch.goto(link)
        expect(watch.locator(".watch-turn")).to_contain_text("Round 1")
        _play_to_the_pause(host, slug)
        result = watch.locator(".watch-result")  # the open board follows by itself
        expect(result).to_contain_text("Round 1 is over")
        expect(watch.locator("#live")).not_to_contain_text("Round 2")
        rows = result.locator("tbody tr")
        expect(rows).to_have_count(2)
        assert watch.locator(".pile").count() == 0  # the next deal is not shown
        shot(watch, f"watch-pause-360-{'dark' if dark else 'light'}")
        wide = watch.evaluate(
            """() => [...document.querySelectorAll('body *')]
              .filter(e => e.getBoundingClientRect().right > 360.5)
              .map(e => e.tagName + "." + e.className + " " + e.getBoundingClientRect().right)"""
        )
        assert wide == [], wide
        if not dark:  # the same pause on a TV
            watch.set_viewport_size({"width": 1920, "height": 1080})
            expect(result).to_contain_text("Round 1 is over")
            shot(watch, "watch-pause-1920")
    finally:
        host_context.close()
        watch_context.close()
