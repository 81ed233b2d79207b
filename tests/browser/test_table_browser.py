"""A table of phones in Chromium at 390 x 844 (issue 14): three people, each in a browser
context of their own, and one bot play a round through to its scores, every phone
updated by the server's push; a phone drops, a bot plays its turn, the phone comes back;
no seat's page (HTML or JSON) ever holds another seat's cards."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from werkzeug.serving import make_server

from scorekeeper.engine import middle_level
from scorekeeper.engine.cards import parse_card
from scorekeeper.play import services
from tests.browser.conftest import PHONE, WAIT, shot
from tests.conftest import make_app

STANDIN_BOT = f"A {middle_level().title} bot"
"""How a page tells the table a stand-in (the ladder's middle level) plays for a person."""

SEED = 15
"""A deal whose first round ends after about 19 moves of the people's plain play: the
server's draw of the seed is replaced by it (no seat chooses a table's shuffle)."""


@pytest.fixture
def table_server(tmp_path, monkeypatch) -> Iterator[str]:
    """The app served from a thread, with a short grace period (5 s) for the stand-in,
    its tables dealt from :data:`SEED`."""
    monkeypatch.setattr(services, "drawn_seed", lambda: SEED)
    app = make_app(
        str(tmp_path / "table.sqlite3"),
        WTF_CSRF_ENABLED=True,
        PLAY_GRACE_SECONDS=5,
        PLAY_STREAM_SECONDS=8,
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    app.config["PUBLIC_URL"] = f"http://127.0.0.1:{server.server_port}"  # the seat links
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


class Phones:
    """One browser context (its own cookies: its own seat) per person at the table."""

    def __init__(self, browser: Any, base: str) -> None:
        self.browser, self.base = browser, base
        self.contexts: list[Any] = []
        self.pages: dict[int, Any] = {}
        self.slug = ""

    def phone(self) -> Any:
        context = self.browser.new_context(
            viewport=PHONE,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            base_url=self.base,
        )
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT)
        return page

    def set_up(self) -> list[str]:
        host = self.phone()
        host.goto("/play/table")
        shot(host, "table-new")
        host.fill("#name", "Hana")
        host.select_option("#seat_0", "person")
        host.fill("#who_0", "Ivo")
        host.select_option("#seat_1", "person")
        host.fill("#who_1", "Jun")
        host.select_option("#seat_2", "casual")
        host.get_by_role("button", name="Deal").click()
        host.wait_for_url(re.compile(r"/play/[^/]+/seats$"))
        self.slug = host.url.split("/")[-2]
        shown = [i.input_value() for i in host.locator("input.seat-link").all()]
        links = [link for link in shown if "/sit/" in link]  # not the spectator board's
        self.pages[0] = host
        return links

    def state(self, seat: int) -> dict[str, Any]:
        page = self.pages[seat]
        return page.request.get(f"{self.base}/play/{self.slug}/state.json").json()

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def phones(browser, table_server) -> Iterator[Phones]:
    phones = Phones(browser, table_server)
    yield phones
    phones.close()


def _choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The people's plain play: lay down, else lay off, else draw from the stock, else
    discard the highest card."""
    for kind in ("lay_down", "lay_off"):
        for action in legal:
            if action["type"] == kind:
                return action
    for action in legal:
        if action["type"] == "draw" and action.get("from") == "stock":
            return action
    discards = [a for a in legal if a["type"] == "discard"]
    if discards:
        return max(discards, key=lambda a: parse_card(a["card"]).rank or 0)
    return legal[0]


def _tap(page: Any, action: dict[str, Any]) -> None:
    """Make ``action`` by tapping the page's own controls."""
    if action["type"] == "draw" and action.get("from") == "stock":
        page.locator("button[value=stock]").click()
    elif action["type"] == "discard":
        page.locator(f'label.pcard[data-card="{action["card"]}"]').click()
        page.locator("button[value=discard]").click()
    else:
        hints = page.locator("details.hints")
        if hints.count() and not hints.get_attribute("open"):
            hints.locator("summary").click()
        for button in page.locator("details.hints button, .others button").all():
            if json.loads(button.get_attribute("value") or "null") == action:
                button.click()
                return
        raise AssertionError(f"no control for {action}")


def _whose_turn(phones: Phones) -> tuple[int, list[dict[str, Any]], int] | None:
    """``(seat, its legal moves, the game's version)`` of the phone whose turn it is;
    seat -1 while a bot's move is due; None once the round or the game has ended."""
    for seat in phones.pages:
        state = phones.state(seat)
        if state["paused"] or state["finished"]:
            return None
        if state["legal"]:
            return seat, state["legal"], state["version"]
    return -1, [], state["version"]


def test_three_people_and_a_bot_play_a_round_to_its_scores(phones) -> None:
    links = phones.set_up()
    assert len(links) == 2
    shot(phones.pages[0], "table-seats-host")
    for seat, link in zip((1, 2), links, strict=True):
        page = phones.phone()
        page.goto(link)
        page.wait_for_selector("#seating")
        phones.pages[seat] = page
    phones.pages[0].goto(f"/play/{phones.slug}")
    hands = {seat: phones.state(seat)["view"]["hand"] for seat in phones.pages}
    for seat in phones.pages:
        page_html = phones.pages[seat].content()
        assert all(f'data-card="{c}"' in page_html for c in hands[seat])
        body = json.dumps(phones.state(seat))
        for other in phones.pages:
            if other != seat:
                assert not any(f'data-card="{c}"' in page_html for c in hands[other])
                assert not any(f'"{c}"' in body for c in hands[other])
    shot(phones.pages[1], "table-seat-ivo")
    for _ in range(120):
        turn = _whose_turn(phones)
        if turn is None:
            break
        seat, legal, version = turn
        if seat < 0:  # a bot's move is due: any phone's next request makes it
            phones.pages[0].wait_for_function(
                "v => Number(document.querySelector('#seating').dataset.version) > v", arg=version
            )
            continue
        page = phones.pages[seat]
        page.wait_for_selector("#seating .turn-line.mine")  # pushed to the phone
        assert page.title().startswith("Your turn")
        version = page.locator("#board input[name=version]").input_value()
        _tap(page, _choose(legal))
        page.wait_for_function(
            "v => !document.querySelector('#board input[name=version]') ||"
            " document.querySelector('#board input[name=version]').value !== v",
            arg=version,
        )
    else:
        raise AssertionError("the round did not end")
    for page in phones.pages.values():
        page.wait_for_selector("#roundend-title")  # every phone shows the round's end
        assert "Round 1 is over" in page.locator("#roundend-title").inner_text()
    shot(phones.pages[2], "table-round-end-jun")
    assert phones.state(0)["rounds"][0]["players"]


def test_a_phone_drops_a_bot_plays_its_turn_and_the_phone_comes_back(phones) -> None:
    links = phones.set_up()
    host = phones.pages[0]
    ivo = phones.phone()
    ivo.goto(links[0])
    phones.pages[1] = ivo
    jun = phones.phone()
    jun.goto(links[1])
    phones.pages[2] = jun
    host.goto(f"/play/{phones.slug}")
    for _ in range(10):  # the host plays until it is someone else's turn
        legal = phones.state(0)["legal"]
        if not legal:
            break
        version = host.locator("#board input[name=version]").input_value()
        _tap(host, _choose(legal))
        host.wait_for_function(
            "v => document.querySelector('#board input[name=version]').value !== v", arg=version
        )
    ivo.close()  # Ivo's phone drops (its turn comes next: seat 2 after the host)
    host.wait_for_selector(f"text={STANDIN_BOT} is playing for Ivo")
    shot(host, "table-standin-host")
    assert "Ivo" in (host.locator(".steplist").text_content() or "")
    context = phones.contexts[1]
    back = context.new_page()
    back.goto(f"/play/{phones.slug}")  # the same phone (its session): the same seat
    assert back.locator(".seat.you .who").inner_text().startswith("Ivo")
    assert "bot is playing for Ivo" not in back.locator("#seating").inner_text()
    shot(back, "table-back-ivo")
