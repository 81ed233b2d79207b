"""Game night in Chromium at a phone's size: this phone's games on the home page (a second
browser sees none), archive, delete and undo; the share page's links at PUBLIC_URL; the
screen kept awake without a script error; and axe-core finding no serious or critical
accessibility violation on any page, with a game that has rounds. Screenshots at 390 and
360 px wide go to tests/browser/screenshots/.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper.extensions import db
from scorekeeper.models import Game
from scorekeeper.table import services
from tests.browser.conftest import PHONE, SCREENSHOTS, WAIT, shot
from tests.conftest import make_app

PUBLIC_URL = "https://rum.example.org"
NARROW = {"width": 360, "height": 780}


@pytest.fixture
def served(tmp_path) -> Iterator[tuple[object, str]]:
    """The app (PUBLIC_URL set) served from a thread: ``(app, base URL)``."""
    app = make_app(str(tmp_path / "home.sqlite3"), WTF_CSRF_ENABLED=True, PUBLIC_URL=PUBLIC_URL)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture
def phone(browser, served) -> Iterator[object]:
    """A new phone (browser context) on the served app: ``phone()`` opens a page."""
    contexts = []

    def open_page(viewport=PHONE, **options):
        context = browser.new_context(
            viewport=viewport,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            base_url=served[1],
            **options,
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT)
        return page

    yield open_page
    for context in contexts:
        context.close()


def seed_game(app, names, rounds=(), title="", undo=False, **options) -> tuple[str, str]:
    """A Standard game with house rules ``options`` and ``rounds`` [(went out, {name:
    (shown, in hand)})] saved through the services, its last change undone when
    ``undo``; returns ``(view link path, edit link path)``."""
    with app.app_context():
        game = services.start_game(names, "standard", options, title=title)
        for i, (went_out, figures) in enumerate(rounds):
            data = {
                "went_out": went_out,
                "shown": {n: s for n, (s, _) in figures.items()},
                "in_hand": {n: h for n, (_, h) in figures.items()},
            }
            services.record_round(game, "totals", data, f"seed-{i}", game.version)
        if undo:
            services.undo_change(game, game.changes[-1], game.version)
        return f"/games/{game.view_token}", f"/games/{game.view_token}/edit/{game.edit_token}"


THREE_ROUNDS = [
    ("Ann", {"Ann": (120, 0), "Bob": (40, 15), "Cat": (10, 35)}),
    ("Bob", {"Ann": (60, 20), "Bob": (140, 0), "Cat": (30, 10)}),
    ("Cat", {"Ann": (25, 30), "Bob": (35, 5), "Cat": (90, 0)}),
]


def _errors(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def test_home_lists_only_this_browsers_games(served, phone):
    app, _ = served
    view, edit = seed_game(app, ["Ann", "Bob", "Cat"], THREE_ROUNDS, title="Friday")
    seed_game(app, ["Dee", "Eve"], title="Someone else's")
    page = phone()
    page.goto(edit)
    page.goto("/")
    games = page.locator(".game-card")
    assert games.count() == 1
    card = games.first.inner_text()
    assert "Friday" in card and "Bob leads with 195 · 3 rounds" in card
    assert "UTC" not in card, "the time is shown in the phone's own time zone"
    assert "Someone else" not in page.content()
    shot(page, "home-01-my-games")

    other = phone()
    other.goto("/")
    assert other.locator(".game-card").count() == 0
    assert "No game in progress on this phone" in other.inner_text("main")
    other.goto(view)
    other.goto("/")
    assert other.locator(".game-card").count() == 1
    assert other.get_by_role("button", name="Delete Friday").count() == 0


def test_archive_delete_and_undo(served, phone):
    app, _ = served
    _, edit = seed_game(app, ["Ann", "Bob"], title="Tuesday")
    page = phone()
    page.goto(edit)
    page.goto("/")
    page.get_by_role("button", name="Archive Tuesday").click()
    page.wait_for_selector("details.archived")
    assert "No game in progress on this phone" in page.inner_text("main")
    page.locator("details.archived summary").click()
    shot(page, "home-02-archived")
    page.get_by_role("button", name="Unarchive Tuesday").click()
    page.wait_for_selector(".game-card")
    assert page.locator("details.archived").count() == 0

    page.get_by_role("button", name="Delete Tuesday").click()
    page.wait_for_selector(".undo-delete")
    assert page.locator(".game-card").count() == 0
    shot(page, "home-03-deleted-undo")
    with app.app_context():
        assert db.session.execute(db.select(Game.deleted_at)).scalar_one() is not None
    page.get_by_role("button", name="Undo delete of Tuesday").click()
    page.wait_for_selector(".game-card")
    assert "Tuesday" in page.locator(".game-card").inner_text()
    page.locator(".game-link").click()
    page.wait_for_selector(".standings")


def test_share_page_uses_public_url_never_loopback(served, phone):
    app, _ = served
    _, edit = seed_game(app, ["Ann", "Bob"], THREE_ROUNDS[:0])
    for width, viewport in (("390", PHONE), ("360", NARROW)):
        page = phone(viewport)
        page.goto(edit)
        page.get_by_role("link", name="Share / QR").click()
        page.wait_for_selector(".share svg")
        assert "127.0.0.1" not in page.content() and "localhost" not in page.content()
        links = page.locator("input[readonly]").evaluate_all("els => els.map(e => e.value)")
        assert len(links) == 2 and all(link.startswith(PUBLIC_URL + "/games/") for link in links)
        page.get_by_role("button", name="Copy view link").click()
        # the Clipboard API answers in a promise: wait for the words to appear
        expect(page.locator("[data-copied]").first).to_have_text(re.compile(r"\S"))
        shot(page, f"home-04-share-{width}")


def test_wake_lock_script_runs_without_error(served, phone):
    app, _ = served
    view, edit = seed_game(app, ["Ann", "Bob"], THREE_ROUNDS[:0])
    page = phone()
    errors = _errors(page)
    page.goto(edit)
    page.wait_for_function("document.documentElement.dataset.awake")
    assert page.evaluate("typeof navigator.wakeLock") == "object"  # 127.0.0.1 is secure

    plain = phone()  # as over plain http on the LAN: no Wake Lock API
    plain.add_init_script("delete Navigator.prototype.wakeLock")
    plain_errors = _errors(plain)
    plain.goto(view)
    plain.wait_for_function("typeof window.NoSleep === 'function'")
    assert plain.evaluate("document.documentElement.dataset.awake") == "waiting"
    plain.locator("h1").click()
    plain.wait_for_function("document.documentElement.dataset.awake === 'nosleep'")
    assert errors == [] and plain_errors == []


AXE_OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {"label-content-name-mismatch": {"enabled": True}},
}
"""axe's rules, with the experimental one that finds a button whose name is not what it
shows (the number pad's "0" named "Zero")."""


def _axe_problems(page, axe) -> list[str]:
    results = axe.run(page, options=AXE_OPTIONS)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_axe_finds_no_serious_or_critical_violation_on_any_page(served, phone):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe()
    app, _ = served
    view, edit = seed_game(app, ["Ann", "Bob", "Cat"], THREE_ROUNDS, title="Axe night", undo=True)
    over, over_edit = seed_game(app, ["Ann", "Bob", "Cat"], THREE_ROUNDS[:2], target=150)
    page = phone()
    page.goto(over_edit)
    page.goto(edit)
    page.goto("/play")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector(".hand")
    play = page.url.split("?")[0]
    pages = {
        "home": "/",
        "new-game": "/games/new",
        "game": view,
        "game-over": over,
        "round-entry": f"{view}/rounds/new",
        "round-by-cards": f"{view}/rounds/new?mode=cards",
        "history": f"{view}/history",
        "share": f"{view}/share",
        "import": "/games/import",
        "play-new": "/play",
        "play-game": play,
        "play-rounds": f"{play}/rounds",
        "rules": "/rules",
        "rule": "/rules/M4",
        "check": "/check",
        "check-meld": "/check/meld?cards=7H+8H+9H",
        "check-score": "/check/score",
    }
    found = {}
    for name, path in pages.items():
        page.goto(path)
        page.wait_for_load_state("load")
        problems = _axe_problems(page, axe)
        if problems:
            found[name] = problems
        shot(page, f"axe-{name}-390")
        page.set_viewport_size(NARROW)
        shot(page, f"axe-{name}-360")
        page.set_viewport_size(PHONE)
    assert found == {}


def test_house_rules_show_the_chosen_presets_own_value(phone):
    page = phone()
    errors = _errors(page)
    page.goto("/games/new")
    page.locator("details summary").click()
    empty = page.locator("#opt_min_run option[value='']")
    assert empty.inner_text() == "as the preset: 3 or more cards in sequence"
    page.select_option("#preset", "classic")
    assert empty.inner_text() == "as the preset: 4 or more cards in sequence"
    page.select_option("#preset", "quick")
    assert page.get_attribute("#target", "placeholder") == "as the preset: 100"
    page.locator("#opt_min_run").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / "home-05-house-rules-as-the-preset.png"))
    assert errors == []
