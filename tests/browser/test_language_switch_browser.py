"""The language switch in a phone's browser (390 x 844 and 360 px): chosen in the footer
(sent as soon as it changes), the choice holds across pages, and offline a game page kept
by the service worker shows in the chosen language, as does the worker's own sentence for
a page never opened. Read with the pseudo-languages (their catalogues are compiled from
the template: ``[Ţĥéɱé ···]``), since the real catalogues are filled by translators."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from werkzeug.serving import make_server

from tests.browser.conftest import shot
from tests.conftest import make_app

CONTROLLED = "() => !!(navigator.serviceWorker && navigator.serviceWorker.controller)"
"""Whether the service worker controls the page (the CSP forbids an evaluated string)."""
GAME = {"player_0": "Ann", "player_1": "Bob", "preset": "standard", "first_dealer": "0"}
KEPT_IN = """async ([url, lang]) => {
  for (const name of await caches.keys()) {
    if (!name.startsWith("sk-pages-")) continue;
    const hit = await (await caches.open(name)).match(url);
    if (hit && (await hit.text()).includes(`<html lang="${lang}"`)) return true;
  }
  return false;
}"""
"""Whether the service worker's copy of the page at ``url`` is in ``lang`` (run in a page)."""


@pytest.fixture
def pseudo_server(tmp_path) -> Iterator[tuple[str, object]]:
    """The app (CSRF on, pseudo-languages offered) served from a thread: its base URL,
    and the same app without CSRF checks, to start games directly."""
    path = str(tmp_path / "lang.sqlite3")
    app = make_app(path, WTF_CSRF_ENABLED=True, LANGUAGES_PSEUDO=True)
    direct = make_app(path)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", direct
    server.shutdown()
    thread.join(timeout=5)


@pytest.mark.parametrize("width", [390, 360])
def test_the_chosen_language_holds_across_pages_and_offline(browser, pseudo_server, width):
    from playwright.sync_api import expect

    from tests.browser.conftest import WAIT

    base, app = pseudo_server
    game = app.test_client().post("/games/new", data=GAME).headers["Location"]
    context = browser.new_context(
        viewport={"width": width, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        base_url=base,
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    page.goto(game)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.wait_for_function(CONTROLLED)
    page.reload()  # now kept by the worker, in English
    page.wait_for_function(KEPT_IN, arg=[base + game, "en"])

    page.goto("/rules")  # not a page the worker keeps: the switch is used here
    expect(page.locator(".language-switch button")).to_be_hidden()
    page.select_option(".language-switch select", "en_XA")  # sent on change, no button
    expect(page.locator("html")).to_have_attribute("lang", "en-XA")
    expect(page.locator(".site-foot")).to_contain_text("[Ţĥéɱé")
    assert page.url.endswith("/rules")
    page.wait_for_function(KEPT_IN, arg=[base + game, "en-XA"])  # fetched again by the worker

    context.set_offline(True)
    page.goto(game)  # never opened in en_XA from this page: the worker's copy
    expect(page.locator("html")).to_have_attribute("lang", "en-XA")
    expect(page.locator(".site-foot")).to_contain_text("[Ţĥéɱé")
    shot(page, f"language-01-game-offline-pseudo-{width}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.goto("/games/never-opened-here")
    expect(page.locator("body")).to_contain_text("[Öƒƒļîñé")
    expect(page.locator("html")).to_have_attribute("lang", "en-XA")  # a page, in its language
    shot(page, f"language-02-never-opened-offline-{width}")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.set_offline(False)
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "en-XA")  # across pages

    page.goto(game)
    page.select_option(".language-switch select", "ar_XB")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    shot(page, f"language-03-game-rtl-{width}")
    page.select_option(".language-switch select", "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    context.close()


def test_without_scripts_the_switch_has_its_button(browser, pseudo_server):
    from playwright.sync_api import expect

    from tests.browser.conftest import PHONE, WAIT

    base, _app = pseudo_server
    context = browser.new_context(viewport=PHONE, java_script_enabled=False, base_url=base)
    page = context.new_page()
    page.set_default_timeout(WAIT)
    page.goto("/rules")
    page.select_option(".language-switch select", "fr")
    page.locator(".language-switch button").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.url.endswith("/rules")
    page.goto("/check")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    context.close()
