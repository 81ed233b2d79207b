"""The Hint button in /play at a phone's size in Chromium: the expert's move and why
shown in place (no page load, nothing played), and a bot's reason in the moves list; the
review of the person's moves at the round's end. Screenshots go to
tests/browser/screenshots/play-hint*.png and play-review.png."""

from __future__ import annotations

import random
import threading

from playwright.sync_api import expect
from werkzeug.serving import make_server

from tests.browser.conftest import PHONE, SCREENSHOTS, shot
from tests.conftest import make_app


def test_the_hint_shows_the_experts_move_and_why_in_place(page) -> None:
    page.goto("/play")
    page.fill("#name", "Sam")
    page.select_option("#bot_0", "expert")
    page.fill("#seed", "3")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector(".hand .hcard")
    page.evaluate("window.stayed = true")
    version = page.locator("#board").get_attribute("data-version")
    page.get_by_role("link", name="Hint").click()
    hint = page.locator("[data-hint-text]")
    expect(hint).to_contain_text("The expert's move:")
    assert page.evaluate("window.stayed") is True  # no page load
    assert page.locator("#board").get_attribute("data-version") == version  # nothing played
    page.get_by_role("button", name="Draw").click()
    expect(page.locator("#board")).not_to_have_attribute("data-version", version)
    page.wait_for_selector("#board-root:not(.sending)", state="attached")
    page.get_by_role("link", name="Hint").click()
    expect(hint).to_contain_text("sampled deals")  # the discards weighed
    expect(hint).to_contain_text("expected")
    shot(page, "play-hint")
    if page.locator(".moves summary").count():
        page.locator(".moves summary").click()
        shot(page, "play-hint-moves")


def test_the_round_end_shows_the_review_of_the_persons_moves(browser, tmp_path) -> None:
    app = make_app(str(tmp_path / "review.sqlite3"), PLAY_REVIEW_SAMPLES=2)
    client = app.test_client()
    data = {"name": "Sam", "preset": "standard", "bot_0": "expert", "seed": "5"}
    slug = client.post("/play", data=data).headers["Location"].split("?")[0].rsplit("/", 1)[1]
    rng = random.Random(5)
    for _ in range(400):
        now = client.get(f"/play/{slug}/state.json").get_json()
        if now["paused"] or now["finished"]:
            break
        move = now["legal"][rng.randrange(len(now["legal"]))]
        client.post(f"/play/{slug}/tap", json={"version": now["version"], "do": move})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{server.server_port}/play/{slug}")
        review = page.locator("details.review")
        expect(review).to_contain_text("Your moves against the expert's")
        review.locator("summary").click()
        expect(review.locator("li").first).to_contain_text("the expert:")
        shot(page, "play-review")
        box = review.bounding_box()
        assert box is not None
        top = box["y"] + page.evaluate("window.scrollY")
        clip = {"x": 0, "y": top, "width": PHONE["width"], "height": 600}
        page.screenshot(path=str(SCREENSHOTS / "play-review-top.png"), clip=clip, full_page=True)
    finally:
        context.close()
        server.shutdown()
        thread.join(timeout=5)
