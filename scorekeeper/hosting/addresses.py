"""Where the other phones find the app: this machine's LAN address, and the base URL
that the share page's links and QR codes (and ``serve``'s banner) give them.

Glossary:
- LAN address: the IPv4 address of one of this machine's network interfaces that the
  other phones on the same Wi-Fi can reach (``192.168.1.20``), never a loopback address
  (``127.0.0.1``, which on a phone means the phone itself) nor ``0.0.0.0`` (listen on
  all interfaces, not an address to open);
- public URL: ``PUBLIC_URL`` from the config or the environment, the address of an HTTPS
  reverse proxy in front of the app (``https://rum.example.org``); when set it wins.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
from collections.abc import Iterable
from typing import TextIO
from urllib.parse import urlsplit

import segno
from flask import current_app, request
from markupsafe import Markup

SIOCGIFADDR = 0x8915
"""Linux's ioctl that reads an interface's IPv4 address."""
ROUTE_PROBE = ("198.51.100.1", 9)
"""A documentation address (RFC 5737): "connecting" a UDP socket to it sends nothing but
tells which of this machine's addresses the default route would use."""


def _route_address() -> list[str]:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)
            return [probe.getsockname()[0]]
    except OSError:
        return []


def _interface_addresses() -> list[str]:
    try:
        import fcntl
    except ImportError:  # not on Linux or another Unix
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            asked = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(s.fileno(), SIOCGIFADDR, asked)
            except OSError:
                continue
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def _host_addresses() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]


def interface_addresses() -> list[str]:
    """This machine's IPv4 addresses, the default route's first, then each interface's,
    then those its host name resolves to; no duplicates."""
    found = _route_address() + _interface_addresses() + _host_addresses()
    return list(dict.fromkeys(found))


def _rank(address: ipaddress.IPv4Address) -> int | None:
    if address.is_loopback or address.is_link_local or address.is_unspecified:
        return None
    if address.is_multicast or address.is_reserved:
        return None
    if any(address in ipaddress.ip_network(n) for n in ("192.168.0.0/16", "10.0.0.0/8")):
        return 0
    if address in ipaddress.ip_network("172.16.0.0/12"):
        return 1  # often a container bridge (Docker's 172.17.0.1), not the Wi-Fi
    return 3 if address.is_global else 2


def choose_lan_address(candidates: Iterable[str]) -> str | None:
    """The address other phones should open, from ``candidates`` (IPv4 texts, best
    known first, as :func:`interface_addresses` gives them): a home or office network's
    private address (192.168/16, 10/8) before 172.16/12 (container bridges), before
    other non-public ranges (100.64/10), before a public address; never loopback, link-local
    (169.254/16), 0.0.0.0 or multicast. Among equals, the first. None when none fits."""
    ranked = []
    for index, text in enumerate(candidates):
        try:
            address = ipaddress.IPv4Address(text)
        except ValueError:
            continue
        rank = _rank(address)
        if rank is not None:
            ranked.append((rank, index, text))
    return min(ranked)[2] if ranked else None


def is_loopback_host(host: str) -> bool:
    """True for ``localhost`` and loopback or unspecified addresses (``127.0.0.1``,
    ``::1``, ``0.0.0.0``): addresses that mean "this device" on every phone."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def public_base(public_url: str, scheme: str, host: str, lan: str | None) -> str:
    """The base URL (no trailing slash) for links other phones open: ``public_url``
    when set; else this request's ``scheme`` and port (``host`` is its Host header, e.g.
    ``127.0.0.1:5000``) at the ``lan`` address; else, without a LAN address, the
    request's own host (a loopback one only when nothing better exists)."""
    if public_url.strip():
        return public_url.strip().rstrip("/")
    parts = urlsplit(f"//{host}")
    if lan is None:
        return f"{scheme}://{host}"
    default = {"http": 80, "https": 443}.get(scheme)
    port = f":{parts.port}" if parts.port and parts.port != default else ""
    return f"{scheme}://{lan}{port}"


def share_base() -> str:
    """:func:`public_base` for the current request and app (``PUBLIC_URL`` config)."""
    lan = None
    if not current_app.config.get("PUBLIC_URL"):
        lan = choose_lan_address(interface_addresses())
    return public_base(current_app.config.get("PUBLIC_URL", ""), request.scheme, request.host, lan)


def serve_url(host: str, port: int, public_url: str, scheme: str = "http") -> str:
    """The URL ``serve`` tells every phone to open: ``public_url`` when set; else
    ``scheme://`` the address ``host`` listens on, or this machine's LAN address when it
    listens on all of them (``0.0.0.0``) or on loopback only."""
    if public_url.strip():
        return public_url.strip().rstrip("/") + "/"
    address = host
    if is_loopback_host(host):
        address = choose_lan_address(interface_addresses()) or "127.0.0.1"
    return f"{scheme}://{address}:{port}/"


def announce_authority(url: str, out: TextIO = sys.stdout) -> None:
    """Print where phones trust ``serve --https``'s authority (``url``, the ``/ca``
    page) and its QR code: the step before :func:`announce`'s address works."""
    out.write(f"\nFirst, once on each phone, trust this machine's certificate at:\n\n    {url}\n\n")
    out.write("(the browser warns the first time: continue to the page) or scan:\n\n")
    segno.make(url, error="m").terminal(out=out, compact=True)


def announce(url: str, out: TextIO = sys.stdout) -> None:
    """Print the URL to open and its QR code (Unicode blocks) for phones to scan."""
    out.write(f"\n500 Rum is running. On every phone at the table, open:\n\n    {url}\n\n")
    out.write("or scan this code with the phone's camera:\n\n")
    segno.make(url, error="m").terminal(out=out, compact=True)
    if urlsplit(url).hostname == "127.0.0.1":
        out.write("\nNo network address found: other phones cannot reach this machine.\n")
    out.write("\n")
    out.flush()


def qr_svg(url: str) -> Markup:
    """``url`` as a QR code to scan across the table: inline SVG markup (the share pages,
    a table game's seat links)."""
    svg = segno.make(url, error="m").svg_inline(scale=5, dark="#000", light="#fff", omitsize=True)
    return Markup(svg)
