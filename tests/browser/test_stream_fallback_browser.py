"""A table's page when the server ends or refuses its event stream (issue 23, item 1), in
Chromium at a phone's size: refused (503, the process's cap of streams reached) it polls
the version and still follows the game; replaced by a newer stream of its seat (the
same seat's page in another tab) it polls instead of reconnecting at once; its seat
given to a new link, it reloads and says the seat is no longer this phone's."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from werkzeug.serving import make_server

from tests.browser.conftest import PHONE
from tests.conftest import make_app

POLLING = "checking every few seconds"
"""What the page's live line says while it polls (static/seats.js)."""


def _serve(tmp_path, **config: Any) -> Iterator[str]:
    app = make_app(
        str(tmp_path / "fallback.sqlite3"),
        WTF_CSRF_ENABLED=True,
        PLAY_GRACE_SECONDS=600,
        PLAY_STREAM_SECONDS=600,
        **config,
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    app.config["PUBLIC_URL"] = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture
def no_streams(tmp_path) -> Iterator[str]:
    """A server whose process takes no event stream at all (every one a 503)."""
    yield from _serve(tmp_path, PLAY_STREAMS_PER_PROCESS=0)


@pytest.fixture
def streams(tmp_path) -> Iterator[str]:
    yield from _serve(tmp_path)


class Table:
    """The host's phone and Ivo's (two browser contexts), at a table with a bot."""

    def __init__(self, browser: Any, base: str) -> None:
        self.contexts = [self._context(browser, base) for _ in range(2)]
        self.host = self.contexts[0].new_page()
        self.host.goto("/play/table")
        self.host.fill("#name", "Hana")
        self.host.select_option("#seat_0", "person")
        self.host.fill("#who_0", "Ivo")
        self.host.select_option("#seat_1", "casual")
        self.host.get_by_role("button", name="Deal").click()
        self.host.wait_for_url(re.compile(r"/play/[^/]+/seats$"))
        self.slug = self.host.url.split("/")[-2]
        self.ivo_link = self.host.locator("input.seat-link").first.input_value()
        self.ivo = self.contexts[1].new_page()
        self.ivo.goto(self.ivo_link)
        self.ivo.wait_for_selector("#seating")

    @staticmethod
    def _context(browser: Any, base: str) -> Any:
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, base_url=base)
        context.set_default_timeout(20_000)
        return context

    def give_seat(self, seat: int, button: str) -> None:
        """The host presses ``button`` on seat ``seat``'s row of the seats page."""
        self.host.goto(f"/play/{self.slug}/seats")
        self.host.locator(f"[data-seat='{seat}']").get_by_role("button", name=button).click()
        self.host.wait_for_url(re.compile(r"/seats$"))

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def test_a_page_refused_its_stream_polls_the_version_and_follows_the_game(
    browser, no_streams
) -> None:
    from playwright.sync_api import expect

    table = Table(browser, no_streams)
    try:
        expect(table.ivo.locator("[data-live]")).to_have_text(POLLING)
        version = int(table.ivo.locator("#seating").get_attribute("data-version") or 0)
        table.give_seat(2, "Give to a person")
        seating = table.ivo.locator("#seating")
        expect(seating).to_have_attribute("data-version", str(version + 1))
    finally:
        table.close()


def test_a_replaced_page_polls_and_a_removed_seat_reloads(browser, streams) -> None:
    from playwright.sync_api import expect

    table = Table(browser, streams)
    try:
        expect(table.ivo.locator("[data-live]")).to_have_text("live")
        again = table.contexts[1].new_page()  # Ivo's seat in a second tab: a newer stream
        again.goto(f"/play/{table.slug}")
        expect(table.ivo.locator("[data-live]")).to_have_text(POLLING)
        table.give_seat(1, "Remove Ivo (new link)")
        expect(again.get_by_text("open your seat's link")).to_be_visible()
    finally:
        table.close()
