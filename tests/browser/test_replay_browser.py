"""A finished digital game replayed on a phone (390 x 844) in Chromium: a quick game
started in the browser and played to its end through the real moves, the replay opened
from the end screen, stepped forward to the end and back to the start (buttons and the
arrow keys), a jump to a round; the figures shown equal the record's. The record file
downloaded from the end screen replays from a fresh phone too; an unfinished game's replay
is refused. Screenshots: tests/browser/screenshots/replay-*.png.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from tests.browser.conftest import PHONE, WAIT, phone, shot
from tests.conftest import make_app
from tests.play.test_pages import PlayActions, _play_to_the_end


@pytest.fixture
def served(tmp_path) -> Iterator[tuple[object, str]]:
    """The app served from a thread, and the app itself (its moves are made through its
    JSON route by a test client, as a script would): ``(app, base URL)``."""
    app = make_app(str(tmp_path / "replay.sqlite3"), WTF_CSRF_ENABLED=True)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def _phone(browser, base_url: str):
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, base_url=base_url
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    return context, page


def _start(page) -> str:
    """A quick game against one bot, started on the phone; its slug."""
    page.goto("/play")
    page.fill("#name", "Sam")
    page.select_option("#preset", "quick")
    page.select_option("#bot_0", "casual")
    page.fill("#seed", "11")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector(".hand .hcard")
    return page.url.split("?")[0].rstrip("/").rsplit("/", 1)[1]


def _at(page) -> int:
    return int(page.get_attribute("#replay", "data-at") or "-1")


def _figures(page) -> dict[str, list[int]]:
    rows = page.locator("#replay-figures tr")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        cells = row.locator("td").all_inner_texts()
        out[row.get_attribute("data-player")] = [int(t) for t in cells]
    return out


def _expected(scores: dict[str, dict[str, int]]) -> dict[str, list[int]]:
    keys = ("shown", "in_hand", "bonus", "round", "total")
    return {p: [f[k] for k in keys] for p, f in scores.items()}


def _no_overflow(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide"


def _controls_on_screen(page) -> None:
    for name in ("#replay-back", "#replay-forward", "#replay-jump"):
        box = page.locator(name).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], name
        assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


def _step_through(page, record: dict) -> None:
    """Forward to the end, checking each round's end figures; back to the start."""
    total = int(page.locator("#replay").evaluate("e => JSON.parse(e.dataset.steps).steps.length"))
    rounds = record["rounds"]
    seen = 0
    forward = page.locator("#replay-forward")
    for step in range(1, total):
        if step % 2:
            forward.click()
        else:
            page.keyboard.press("ArrowRight")
        expect(page.locator("#replay")).to_have_attribute("data-at", str(step))
        if page.get_attribute("#replay", "data-kind") == "end":
            assert _figures(page) == _expected(rounds[seen]["scores"]), f"round {seen + 1}"
            seen += 1
    assert seen == len(rounds) and forward.is_disabled()
    totals = {n: int(t) for n, t in _hand_totals(page).items()}
    assert totals == record["final"]["totals"]
    page.keyboard.press("Home")
    expect(page.locator("#replay")).to_have_attribute("data-at", "0")
    page.locator("#replay-forward").click()
    page.locator("#replay-back").click()
    expect(page.locator("#replay")).to_have_attribute("data-at", "0")
    assert page.locator("#replay-back").is_disabled()


def _hand_totals(page) -> dict[str, str]:
    whos = page.locator(".replay-hand-who")
    return {
        whos.nth(i).locator("b").inner_text(): whos.nth(i).locator(".num").inner_text()
        for i in range(whos.count())
    }


def test_a_finished_game_replays_move_by_move_from_its_end_screen(browser, served) -> None:
    app, base_url = served
    context, page = _phone(browser, base_url)
    try:
        slug = _start(page)
        play = PlayActions(app, app.test_client())
        page.goto(f"/play/{slug}/replay")
        assert "Only a finished game can be replayed" in page.inner_text("#replay-error")
        _play_to_the_end(play, slug)
        page.goto(f"/play/{slug}")
        with page.expect_download() as download:
            page.get_by_role("link", name="Download the game record").click()
        record_file = Path(download.value.path())
        record = json.loads(record_file.read_text())
        page.get_by_role("link", name="Replay the game move by move").click()
        page.wait_for_selector("#replay[data-at='0']")
        _no_overflow(page)
        _controls_on_screen(page)
        assert "Round 1" in page.inner_text(".replay-where")
        shot(page, "replay-01-start")
        _jump_and_look(page, record)
        _step_through(page, record)
        _from_a_fresh_phone(browser, base_url, record_file, record)
    finally:
        context.close()


def _jump_and_look(page, record: dict) -> None:
    """Jump to the last round, step into it (a mid-round screenshot) and to its end."""
    last = len(record["rounds"])
    page.select_option("#replay-jump", label=f"Round {last}")
    expect(page.locator("#replay-round")).to_have_text(f"Round {last}")
    assert page.get_attribute("#replay", "data-kind") == "deal"
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-rules a.rule-id").first).to_be_visible()
    _no_overflow(page)
    shot(page, "replay-02-mid-round")
    page.keyboard.press("End")
    expect(page.locator("#replay")).to_have_attribute("data-kind", "end")
    assert _figures(page) == _expected(record["rounds"][-1]["scores"])
    _no_overflow(page)
    shot(page, "replay-03-round-end")
    page.keyboard.press("Home")


def _from_a_fresh_phone(browser, base_url: str, record_file: Path, record: dict) -> None:
    """The downloaded record opened on another phone (360 px, dark): the same figures."""
    context, page = phone(browser, base_url, width=360, dark=True)
    try:
        page.goto("/play/replay")
        page.set_input_files("#record", str(record_file))
        page.get_by_role("button", name="Replay it").click()
        page.wait_for_selector("#replay[data-at='0']")
        page.keyboard.press("End")
        expect(page.locator("#replay")).to_have_attribute("data-kind", "end")
        assert _figures(page) == _expected(record["rounds"][-1]["scores"])
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the page is {width}px wide at 360"
        shot(page, "replay-04-opened-file-360-dark")
    finally:
        context.close()
