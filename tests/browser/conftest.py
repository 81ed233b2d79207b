"""Browser tests: the app served on 127.0.0.1 and Debian's Chromium driven by Playwright
at a phone's size (390 x 844). Screenshots go to ``tests/browser/screenshots/``.

Skipped with a message when Playwright or Chromium is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.serving import make_server

from tests.conftest import make_app

SCREENSHOTS = Path(__file__).parent / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
WAIT = 30_000
"""The most a browser test waits for a condition, in ms (Playwright's actions, page loads
and ``expect``): far beyond what any page needs, so a busy machine never fails a test
that waits; a test waits on conditions only, never on a clock."""


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    sync_api.expect.set_options(timeout=WAIT)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """``app`` served from a thread while the block runs: its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture
def live_server(tmp_path) -> Iterator[str]:
    """The app served from a thread; yields its base URL."""
    with serving(make_app(str(tmp_path / "browser.sqlite3"), WTF_CSRF_ENABLED=True)) as base:
        yield base


@pytest.fixture
def page(browser, live_server) -> Iterator[object]:
    """A fresh phone-sized page; ``page.base_url`` is the live server. Any Content-Security-
    Policy violation Chromium reports in the console fails the test."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, base_url=live_server
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    yield page
    context.close()
    assert violations == [], f"the page broke its Content-Security-Policy: {violations}"


def phone(
    browser,
    live_server,
    width: int = PHONE["width"],
    dark: bool = False,
    height: int = PHONE["height"],
):
    """A phone-sized page of its own (``width`` x ``height`` px, light or ``dark`` colour
    scheme) for a test that needs several or a chosen size: ``(context, page)``."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        base_url=live_server,
        color_scheme="dark" if dark else "light",
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    return context, page


def shot(page, name: str) -> Path:
    """Save a full-page screenshot ``tests/browser/screenshots/NAME.png`` and return its path.
    One pixel per CSS pixel: a quarter of a phone's device pixels, so a long page (the
    rules) is encoded in a fraction of the time."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, scale="css")
    return path


def make_group(page, name: str, members: list[str]) -> str:
    """A group made through its forms with ``members``; returns its page's URL."""
    page.goto("/groups/")
    page.fill("#name", name)
    page.get_by_role("button", name="Make the group").click()
    url = page.url
    for member in members:
        page.fill("#name", member)
        page.get_by_role("button", name="Add").click()
        page.wait_for_selector(f".chip:has-text('{member}')")
    return url


def save_net(page, names: list[str], figures: list[str], out: str, number: int | None) -> None:
    """A round by net scores through the game page's own entry, as a person types it
    (each of ``names`` its figure, ``out`` went out); with ``number``, waits for the
    "Round N saved" toast."""
    for name, digits in zip(names, figures, strict=True):
        page.get_by_label(f"{name}, round score", exact=True).click()
        page.keyboard.type(digits)
    page.locator("label.out", has_text=out).click()
    page.wait_for_selector(".preview-list")
    page.get_by_role("button", name="Save round").click()
    if number is not None:
        page.wait_for_selector(f".toast:has-text('Round {number} saved')")
