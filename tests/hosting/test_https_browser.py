"""``scorekeeper serve --https`` in Chromium (issue 25, item 6): the app served over
https by gunicorn with the data folder's own certificate authority, which the browser
trusts through its NSS store (as a phone trusts it once installed; no flag that skips
certificate checks). The service worker runs there: a game opened once is shown after a
reload with the network down, and a round typed offline arrives exactly once when the
network is back."""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
import sys

import pytest

from scorekeeper.hosting.addresses import choose_lan_address, interface_addresses
from scorekeeper.hosting.certificates import ensure_certificates, https_files
from tests.browser.conftest import CHROMIUM, PHONE
from tests.browser.test_entry_browser import _start, _totals, _type
from tests.hosting.servers import fetch, free_port, serving


def _trusting_home(home, ca) -> None:
    """A HOME whose NSS store (Chromium's on Linux) trusts ``ca`` to name web servers."""
    store = f"sql:{home / '.pki' / 'nssdb'}"
    (home / ".pki" / "nssdb").mkdir(parents=True)
    for command in (
        ["certutil", "-d", store, "-N", "--empty-password"],
        ["certutil", "-d", store, "-A", "-t", "C,,", "-n", "500 Rum test", "-i", str(ca)],
    ):
        subprocess.run(command, check=True, capture_output=True)


def _stored_rounds(page) -> list[dict]:
    """The game's rounds as the server has them (fetched by the page: the browser is
    the one that trusts the authority)."""
    slug = page.url.rstrip("/").rsplit("/", 1)[-1]
    script = f"fetch('/games/{slug}/export.json', {{cache: 'no-store'}}).then(r => r.json())"
    return list(page.evaluate(script)["rounds"])


@pytest.fixture
def https_server(tmp_path):
    """``serve --https`` on 127.0.0.1 from a fresh data folder; yields (base URL, CA)."""
    if shutil.which("certutil") is None:
        pytest.skip("certutil is not installed (apt-get install libnss3-tools)")
    data, port = tmp_path / "data", free_port()
    files = ensure_certificates(data, choose_lan_address(interface_addresses()))
    made = files.cert.read_bytes()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env |= {"SCOREKEEPER_DATA": str(data), "SCOREKEEPER_PLAY_REVIEW_SAMPLES": "0"}
    command = [sys.executable, "-m", "scorekeeper", "serve", "--https", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--workers", "1"]
    base = f"https://127.0.0.1:{port}"
    trusting = ssl.create_default_context(cafile=str(files.ca))
    with serving(command, base, env, tmp_path, tmp_path / "serve.log", trusting):
        assert files.cert.read_bytes() == made  # kept, not made again
        yield base, files.ca, trusting


def test_the_authority_is_served_with_its_steps(https_server):
    base, ca, trusting = https_server
    status, page = fetch(f"{base}/ca", trusting)
    assert status == 200 and b"Android" in page and b"iPhone" in page and b"<svg" in page
    status, pem = fetch(f"{base}/ca.pem", trusting)
    assert status == 200 and pem == ca.read_bytes()
    assert https_files(ca.parent.parent).ca == ca


def test_offline_reload_and_an_offline_round_over_https(https_server, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    base, ca, _ = https_server
    home = tmp_path / "home"
    _trusting_home(home, ca)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"],
            env=dict(os.environ) | {"HOME": str(home)},
        )
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, base_url=base)
        page = context.new_page()
        page.set_default_timeout(20_000)
        _start(page)
        game = page.url
        assert game.startswith("https://") and page.evaluate("window.isSecureContext")
        page.wait_for_function(
            "navigator.serviceWorker && navigator.serviceWorker.controller !== null"
            " || (location.reload(), false)",
            polling=1000,
        )
        page.goto(game)  # opened under the service worker, which keeps it
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        context.set_offline(True)
        page.goto(game)
        sync_api.expect(page.locator(".standings")).to_have_count(1)
        sync_api.expect(page.locator("#entry")).to_have_count(1)
        page.wait_for_selector("#netstate.offline")
        _type(page, "Ann, round score", "50")
        _type(page, "Bob, round score", "10")
        page.locator("label.out", has_text="Ann").click()
        page.get_by_role("button", name="Save round").click()
        page.wait_for_selector("#pending:has-text('waiting to sync')")
        context.set_offline(False)
        sync_api.expect(page.locator("#pending")).to_be_hidden()
        assert _totals(page) == [50, 10, 0, 0]
        assert len(_stored_rounds(page)) == 1
        browser.close()
