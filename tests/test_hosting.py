"""Where phones find the app: the LAN address chosen from this machine's interfaces, the
share page's base URL (PUBLIC_URL, else the address the phone opened, else the LAN
address, never loopback) and its hint when phones may not reach it, and serve's banner
with its QR code."""

from __future__ import annotations

import io
import re

import pytest

from scorekeeper.hosting import addresses as hosting
from scorekeeper.hosting.addresses import (
    announce,
    choose_lan_address,
    is_loopback_host,
    public_base,
    serve_url,
)
from tests.conftest import make_app
from tests.table.test_pages import GameActions


@pytest.mark.parametrize(
    ("candidates", "chosen"),
    [
        (["192.168.1.20"], "192.168.1.20"),
        (["127.0.0.1", "192.168.1.20"], "192.168.1.20"),
        (["172.17.0.1", "192.168.1.20"], "192.168.1.20"),  # Docker's bridge after Wi-Fi
        (["172.17.0.1", "10.0.0.7"], "10.0.0.7"),
        (["10.0.0.7", "192.168.1.20"], "10.0.0.7"),  # equals: the default route's first
        (["169.254.3.4", "172.20.1.5"], "172.20.1.5"),  # link-local never
        (["0.0.0.0", "127.0.1.1", "203.0.113.9"], "203.0.113.9"),
        (["8.8.4.4", "100.64.0.3"], "100.64.0.3"),  # a private range before public
        (["224.0.0.1", "not an address", "::1"], None),
        (["127.0.0.1", "127.0.1.1"], None),
        ([], None),
    ],
)
def test_the_lan_address_is_a_reachable_one(candidates, chosen):
    assert choose_lan_address(candidates) == chosen


def test_this_machine_has_addresses_and_none_is_a_duplicate():
    found = hosting.interface_addresses()
    assert len(found) == len(set(found))
    assert choose_lan_address(found) is None or not is_loopback_host(choose_lan_address(found))


@pytest.mark.parametrize(
    ("public_url", "scheme", "host", "lan", "base"),
    [
        (
            "https://rum.example.org/",
            "http",
            "127.0.0.1:5000",
            "192.168.1.20",
            "https://rum.example.org",
        ),
        ("", "http", "127.0.0.1:5000", "192.168.1.20", "http://192.168.1.20:5000"),
        ("", "http", "localhost:8000", "10.0.0.7", "http://10.0.0.7:8000"),
        ("", "http", "localhost", "10.0.0.7", "http://10.0.0.7"),
        ("", "https", "[::1]:443", "10.0.0.7", "https://10.0.0.7"),
        ("", "http", "192.168.1.20:5000", "192.168.1.20", "http://192.168.1.20:5000"),
        ("", "http", "127.0.0.1:5000", None, "http://127.0.0.1:5000"),
        # the address the phone opened (through a proxy: its Host), not this machine's
        ("", "http", "rum.local:8080", "172.17.0.2", "http://rum.local:8080"),
        ("", "http", "192.168.1.5:8000", "172.17.0.2", "http://192.168.1.5:8000"),
        ("", "https", "rum.example.org", "10.0.0.7", "https://rum.example.org"),
    ],
)
def test_public_base(public_url, scheme, host, lan, base):
    assert public_base(public_url, scheme, host, lan) == base


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("127.0.0.1", True),
        ("[::1]", True),
        ("0.0.0.0", True),
        ("app.localhost", True),
        ("192.168.1.20", False),
        ("rum.example.org", False),
    ],
)
def test_loopback_hosts(host, loopback):
    assert is_loopback_host(host) is loopback


def test_serve_tells_the_lan_address_not_all_interfaces(monkeypatch):
    monkeypatch.setattr(hosting, "interface_addresses", lambda: ["127.0.0.1", "192.168.1.20"])
    assert serve_url("0.0.0.0", 5000, "") == "http://192.168.1.20:5000/"
    assert serve_url("10.0.0.7", 8000, "") == "http://10.0.0.7:8000/"
    assert serve_url("0.0.0.0", 5000, "https://rum.example.org") == "https://rum.example.org/"
    monkeypatch.setattr(hosting, "interface_addresses", lambda: ["127.0.0.1"])
    assert serve_url("0.0.0.0", 5000, "") == "http://127.0.0.1:5000/"


def test_announce_prints_the_url_and_a_qr_code():
    out = io.StringIO()
    announce("http://192.168.1.20:5000/", out)
    text = out.getvalue()
    assert "    http://192.168.1.20:5000/\n" in text
    blocks = [line for line in text.splitlines() if set(line) <= set("█▀▄ ") and len(line) > 20]
    assert len(blocks) > 10, "a QR code drawn with half blocks"
    assert "cannot reach" not in text
    out = io.StringIO()
    announce("http://127.0.0.1:5000/", out)
    assert "other phones cannot reach this machine" in out.getvalue()


@pytest.mark.parametrize(
    ("url", "chosen", "container", "hinted"),
    [
        ("http://192.168.1.20:8000/", True, False, False),
        ("http://172.17.0.2:8000/", True, False, True),  # a bridge network's address
        ("http://10.0.3.4:8000/", True, True, True),  # the container's own address
        ("http://192.168.1.20:8000/", False, True, False),  # PUBLIC_URL, in a container
    ],
)
def test_serve_in_a_container_says_how_to_set_public_url(
    url, chosen, container, hinted, monkeypatch
):
    monkeypatch.setattr(hosting, "in_container", lambda: container)
    out = io.StringIO()
    announce(url, out, chosen=chosen)
    assert (hosting.BRIDGE_ADDRESS in out.getvalue()) is hinted


def _share_page(app) -> str:
    client = app.test_client()
    slug = GameActions(client, app).start(("Ann", "Bob"))
    return client.get(f"/games/{slug}/share").get_data(as_text=True)


def _links(page: str) -> list[str]:
    return re.findall(r'<input readonly value="([^"]+)"', page)


def test_share_links_use_public_url_when_set(tmp_path):
    app = make_app(str(tmp_path / "t.sqlite3"), PUBLIC_URL="https://rum.example.org/")
    page = _share_page(app)
    links = _links(page)
    assert len(links) == 2 and "localhost" not in page
    assert all(link.startswith("https://rum.example.org/games/") for link in links)


def test_share_links_use_the_lan_address_opened_from_the_host(tmp_path, monkeypatch):
    monkeypatch.setattr(hosting, "interface_addresses", lambda: ["127.0.0.1", "192.168.1.20"])
    monkeypatch.setattr(hosting, "CONTAINER_MARKERS", ())
    for host in ("127.0.0.1:5000", "localhost:5000"):
        app = make_app(str(tmp_path / f"{host}.sqlite3"), SERVER_NAME=host)
        page = _share_page(app)
        links = _links(page)
        assert all(link.startswith("http://192.168.1.20:5000/games/") for link in links)
        assert "127.0.0.1" not in page and "localhost" not in page
        assert "no network address" not in page


def test_share_page_warns_when_no_phone_can_reach_this_machine(tmp_path, monkeypatch):
    monkeypatch.setattr(hosting, "interface_addresses", lambda: ["127.0.0.1"])
    app = make_app(str(tmp_path / "t.sqlite3"))
    assert "no network address other phones can reach" in _share_page(app)


@pytest.mark.parametrize(
    ("public_url", "host", "lan", "container", "hint"),
    [
        ("", "192.168.1.5:8000", None, True, None),  # the phone reached it: so can others
        ("", "localhost:8000", "192.168.1.20", False, None),
        ("", "localhost:8000", "192.168.1.20", True, hosting.BRIDGE_ADDRESS),  # the container's
        ("", "localhost:8000", "172.17.0.2", False, hosting.BRIDGE_ADDRESS),
        ("", "172.17.0.2:8000", None, False, hosting.BRIDGE_ADDRESS),  # opened at the bridge
        ("", "127.0.0.1:8000", None, False, hosting.NO_ADDRESS),
        ("https://rum.example.org", "localhost:8000", None, True, None),
    ],
)
def test_share_hint_when_phones_may_not_reach_the_address(
    public_url, host, lan, container, hint, monkeypatch
):
    monkeypatch.setattr(hosting, "in_container", lambda: container)
    assert hosting.share_place(public_url, "http", host, lan).hint == hint


def test_share_page_hints_at_public_url_when_only_a_bridge_address_is_known(tmp_path, monkeypatch):
    monkeypatch.setattr(hosting, "interface_addresses", lambda: ["127.0.0.1", "172.17.0.2"])
    monkeypatch.setattr(hosting, "CONTAINER_MARKERS", ())
    app = make_app(str(tmp_path / "t.sqlite3"))
    page = _share_page(app)
    assert all(link.startswith("http://172.17.0.2/games/") for link in _links(page))
    assert "Phones may not reach this address" in page and "set PUBLIC_URL" in page
    assert "no network address" not in page


def test_share_page_in_a_container_hints_even_at_a_private_address(tmp_path, monkeypatch):
    monkeypatch.setattr(hosting, "interface_addresses", lambda: ["10.0.3.4"])
    monkeypatch.setattr(hosting, "CONTAINER_MARKERS", (tmp_path,))  # exists: "a container"
    page = _share_page(make_app(str(tmp_path / "t.sqlite3")))
    assert "Phones may not reach this address" in page
    monkeypatch.setattr(hosting, "CONTAINER_MARKERS", (tmp_path / "absent",))
    page = _share_page(make_app(str(tmp_path / "u.sqlite3")))
    assert "Phones may not reach this address" not in page
    assert all(link.startswith("http://10.0.3.4/games/") for link in _links(page))
