"""An upgrade reaches the phones (issue "Operate it for real"): the service worker installs
under the build's cache names; after the server is upgraded (the same address now served
by an app whose style.css changed) the new worker's activation deletes the old build's
caches and the page loads the new file by its new hashed URL."""

from __future__ import annotations

import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.serving import make_server

from tests.browser.conftest import PHONE, WAIT
from tests.conftest import make_app

STATIC = Path(__file__).resolve().parents[2] / "scorekeeper" / "static"
SHELL_URLS = """name => caches.open(name).then(c => c.keys())
  .then(rs => rs.map(r => new URL(r.url).pathname + new URL(r.url).search))"""


class Switch:
    """A WSGI app forwarding to whichever app is current: one address, an upgrade between."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def __call__(self, environ, start_response):  # type: ignore[no-untyped-def]
        return self.app(environ, start_response)


def _app(tmp_path: Path, name: str, change: str = "") -> Flask:
    """An app on the shared test database, its static folder a copy of the package's with
    ``change`` appended to style.css."""
    folder = tmp_path / f"static-{name}"
    shutil.copytree(STATIC, folder)
    with (folder / "style.css").open("a") as sheet:
        sheet.write(change)
    app = make_app(str(tmp_path / "upgrade.sqlite3"))
    app.static_folder = str(folder)
    return app


def _wait_for_caches(page, condition: str) -> list[str]:
    """Wait (Playwright's polling, bounded by its timeout) until ``condition``, JavaScript over
    ``k`` (the origin's cache names), holds; the names then."""
    page.wait_for_function(
        "() => (caches.keys().then(k => { window.skCaches = k; }),"
        f" window.skCaches !== undefined && (k => {condition})(window.skCaches))",
        polling=100,
    )
    return sorted(page.evaluate("caches.keys()"))


def _build(app: Flask) -> str:
    found = re.search(
        r'var BUILD = "(\w+)";', app.test_client().get("/sw.js").get_data(as_text=True)
    )
    assert found is not None
    return found.group(1)


@pytest.fixture
def upgrade(tmp_path) -> Iterator[tuple[Switch, Flask, Flask, str]]:
    """The old and the new app, the server (a :class:`Switch` on the old one) and its URL."""
    old, new = _app(tmp_path, "old"), _app(tmp_path, "new", "\n/* the next release */\n")
    switch = Switch(old)
    server = make_server("127.0.0.1", 0, switch, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield switch, old, new, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def test_an_upgrade_drops_the_old_builds_caches_on_activate(browser, upgrade):
    switch, old, new, base = upgrade
    form = {"player_0": "Ann", "player_1": "Bob", "preset": "standard", "first_dealer": "0"}
    game = old.test_client().post("/games/new", data=form).headers["Location"]
    before, after = _build(old), _build(new)
    assert before != after
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, base_url=base)
    page = context.new_page()
    page.set_default_timeout(WAIT)
    violations: list[str] = []
    page.on(
        "console", lambda m: violations.append(m.text) if "Content Security" in m.text else None
    )
    page.goto(game)
    page.wait_for_function(
        "navigator.serviceWorker && navigator.serviceWorker.controller !== null"
        " || (location.reload(), false)",
        polling=1000,
    )
    page.goto(game)  # kept in the build's pages cache
    names = _wait_for_caches(page, f"k.includes('sk-pages-{before}')")
    assert names == [f"sk-pages-{before}", f"sk-shell-{before}"]
    sheet = page.get_attribute("link[rel=stylesheet]", "href")
    assert sheet.startswith("/static/style.css?v=")
    assert sheet in page.evaluate(SHELL_URLS, f"sk-shell-{before}")

    switch.app = new  # the server upgraded; the phone checks /sw.js again
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    names = _wait_for_caches(page, f"!k.some(n => n.endsWith('{before}'))")
    assert names == [f"sk-shell-{after}"]  # the old build's shell and pages deleted
    page.goto(game)
    fresh = page.get_attribute("link[rel=stylesheet]", "href")
    assert fresh != sheet and fresh in page.evaluate(SHELL_URLS, f"sk-shell-{after}")
    text = page.evaluate("url => fetch(url).then(r => r.text())", fresh)
    assert text.endswith("/* the next release */\n")
    assert not [name for name in page.evaluate("caches.keys()") if name.endswith(before)]
    context.close()
    assert violations == []
