"""Eight at the table on a phone (issue 37, items 1, 4, 6 and the toast's "·" of 7): at
360 x 740 and 390 x 844, light and dark, a game of eight players and a partnership game
(two sides), several rounds entered through the game page's own entry: the game page,
a round's page and the share page never pan sideways; after each save the toast with the
new totals and its Undo lie inside the visible screen; a refused save moves nothing and
says one sentence per problem; ``/ca`` fits 360 px with its fingerprint in groups of four.
Screenshots: tests/browser/screenshots/eight-*.png."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper.hosting.certificates import ensure_certificates
from tests.browser.conftest import SCREENSHOTS, phone, shot
from tests.conftest import make_app

EIGHT = ["Annabelle", "Bartholomew", "Catherine", "Dee", "Ezekiel", "Florence", "Gus", "Henrietta"]
SIDES = ["Ann", "Bob", "Cat", "Dee"]
SIZES = {360: 740, 390: 844}
OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"


def _phone(browser, live_server, width: int, dark: bool):
    return phone(browser, live_server, width, dark, height=SIZES[width])


def _start(page, names: list[str], preset: str = "standard") -> None:
    page.goto("/games/new")
    for i, name in enumerate(names):
        page.fill(f"#player_{i}", name)
    page.select_option("#preset", value=preset)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("#entry")
    page.locator(".modes label", has_text="Net").click()


def _fill_net(page, names: list[str], number: int) -> None:
    for seat, name in enumerate(names):
        points = (number * 7 + seat * 13) % 40 - (10 if seat % 3 == 2 else 0)
        page.get_by_label(f"{name}, round score", exact=True).fill(str(points))


def _inside(page, selector: str) -> None:
    """The element at ``selector`` lies wholly inside the visible screen."""
    box = page.locator(selector).bounding_box()
    size = page.evaluate("[window.innerWidth, window.innerHeight]")
    assert box is not None, f"{selector} is not shown"
    assert 0 <= box["x"] and box["x"] + box["width"] <= size[0], (selector, box, size)
    assert 0 <= box["y"] and box["y"] + box["height"] <= size[1], (selector, box, size)


def _save(page, names: list[str], number: int) -> None:
    """A round through the entry: figures, who went out, Save; the toast and its Undo on
    the screen, with no dangling separator."""
    _fill_net(page, names, number)
    page.locator("label.out", has_text=names[number % len(names)]).first.click()
    page.get_by_role("button", name="Save round").click()
    toast = page.locator(".toast", has_text=f"Round {number} saved")
    expect(toast).to_be_visible()
    _inside(page, ".toast")
    _inside(page, ".toast button")
    text = toast.inner_text().strip()
    assert not re.search(r"·\s*(Undo)?$", text) and "· ·" not in text, text


def _fits(page, what: str) -> None:
    assert page.evaluate(OVERFLOW) <= 0, f"{what} pans sideways"


CASES = [
    pytest.param(names, preset, width, dark, id=f"{label}-{width}-{'dark' if dark else 'light'}")
    for label, names, preset in (("eight", EIGHT, "standard"), ("sides", SIDES, "partnership"))
    for width in SIZES
    for dark in (False, True)
]


@pytest.mark.parametrize(("names", "preset", "width", "dark"), CASES)
def test_no_sideways_pan_and_the_toast_on_the_screen(
    browser, live_server, names, preset, width, dark
):
    context, page = _phone(browser, live_server, width, dark)
    _start(page, names, preset)
    tag = f"{'eight' if len(names) == 8 else 'sides'}-{width}-{'dark' if dark else 'light'}"
    for number in range(1, 5):
        _save(page, names, number)
        _fits(page, "the game page")
    if width == 360 and len(names) == 8:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"eight-toast-{tag}.png"), scale="css")
    rounds = page.locator(".rounds-panel .scroll")
    assert rounds.evaluate(
        "e => e.scrollWidth <= e.clientWidth || getComputedStyle(e).overflowX === 'auto'"
    )
    page.evaluate("document.querySelectorAll('#toast').forEach((e) => e.remove())")
    shot(page, f"eight-game-{tag}")
    game = page.url
    for mode in ("net", "totals", "cards"):
        page.goto(f"{game}/rounds/new?mode={mode}")
        _fits(page, f"the round page ({mode})")
    page.goto(game)
    page.get_by_role("link", name="Edit round 1").click()
    page.wait_for_selector("form.round")
    _fits(page, "a round's correction")
    if width == 360:
        shot(page, f"eight-round-{tag}")
    page.goto(f"{game}/share")
    _fits(page, "the share page")
    page.goto(f"{game}/history")
    _fits(page, "the history")
    context.close()
    watcher, phone = _phone(browser, live_server, width, dark)  # no rights: the view link
    phone.goto(game.split("/edit/")[0])
    _fits(phone, "a watching phone's page")
    watcher.close()


def test_a_refused_save_moves_nothing_and_says_one_sentence_each(browser, live_server):
    context, page = _phone(browser, live_server, 360, False)
    _start(page, EIGHT)
    _save(page, EIGHT, 1)
    heading = page.inner_text("#entry h2")
    dealer = page.inner_text(".dealer")
    assert heading == "Round 2"
    _fill_net(page, EIGHT, 2)
    page.get_by_label("Dee, round score", exact=True).fill("abc")
    page.get_by_role("button", name="Save round").click()
    problem = page.locator("#entry-problem")
    expect(problem).to_be_visible()
    lines = [line.strip() for line in problem.inner_text().splitlines() if line.strip()]
    assert len(lines) == 2, lines
    for line in lines:
        assert line[0].isupper() and line.endswith(".") and ";" not in line, line
        assert line.count(". ") == 0, f"more than one sentence: {line!r}"
    assert any("went out" in line for line in lines)
    assert any(line.startswith("Dee") for line in lines)
    assert page.inner_text("#entry h2") == heading and page.inner_text(".dealer") == dealer
    assert page.input_value("#net-0") != "" and page.input_value("#net-3") == "abc"
    assert page.locator(".rounds tbody tr").count() == 1
    shot(page, "eight-refused-360")
    # put right, the same figures save as round 2
    page.get_by_label("Dee, round score", exact=True).fill("5")
    page.locator("label.out", has_text="Gus").click()
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".toast", has_text="Round 2 saved")).to_be_visible()
    expect(page.locator("#entry h2")).to_have_text("Round 3")
    expect(problem).to_be_hidden()
    context.close()


@pytest.fixture
def https_app_server(tmp_path, monkeypatch) -> Iterator[str]:
    """The app served with its own certificate authority in its data folder (as
    ``serve --https`` leaves it), over plain http from a thread: ``/ca`` answers."""
    monkeypatch.setenv("SCOREKEEPER_DATA", str(tmp_path / "data"))
    ensure_certificates(tmp_path / "data", None)
    app = make_app(str(tmp_path / "ca.sqlite3"))
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


@pytest.mark.parametrize("width", [360, 390])
def test_ca_fits_and_its_fingerprint_is_grouped_in_fours(browser, https_app_server, width):
    context, page = _phone(browser, https_app_server, width, width == 390)
    page.goto("/ca")
    code = page.locator(".fingerprint")
    groups = code.inner_text().split()
    assert len(groups) == 16 and all(re.fullmatch(r"[0-9A-F]{4}", g) for g in groups), groups
    _fits(page, "/ca")
    assert code.evaluate("e => e.getBoundingClientRect().right") <= width
    shot(page, f"eight-ca-{width}")
    context.close()
