"""Where the other phones find the app: this machine's LAN address, and the base URL
that the share page's links and QR codes (and ``serve``'s banner) give them.

Glossary:
- LAN address: the IPv4 address of one of this machine's network interfaces that the
  other phones on the same Wi-Fi can reach (``192.168.1.20``), never a loopback address
  (``127.0.0.1``, which on a phone means the phone itself) nor ``0.0.0.0`` (listen on
  all interfaces, not an address to open);
- public URL: ``PUBLIC_URL`` from the config or the environment, the address of an HTTPS
  reverse proxy in front of the app (``https://rum.example.org``); when set it wins;
  else the address the phone itself opened (its Host, through trusted proxies), unless
  that is a loopback one: then the LAN address.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO
from urllib.parse import urlsplit

import segno
from flask import current_app, request
from markupsafe import Markup

from ..engine import say
from ..languages.terminal import gettext, sentence

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


def _hostname(host: str) -> str:
    return urlsplit(f"//{host}").hostname or ""


def public_base(public_url: str, scheme: str, host: str, lan: str | None) -> str:
    """The base URL (no trailing slash) for links other phones open: ``public_url``
    when set; else the address this request came to (``scheme`` and ``host``, its Host
    header after any trusted proxy, e.g. ``192.168.1.20:8080``) when it is not a
    loopback one, since the phone that opened it reached it and so can the others on
    its network; else (opened as ``localhost`` or ``127.0.0.1`` on this machine) the
    ``lan`` address with the request's port; else, without a LAN address, the
    request's own loopback host."""
    if public_url.strip():
        return public_url.strip().rstrip("/")
    parts = urlsplit(f"//{host}")
    if lan is None or not is_loopback_host(_hostname(host)):
        return f"{scheme}://{host}"
    default = {"http": 80, "https": 443}.get(scheme)
    port = f":{parts.port}" if parts.port and parts.port != default else ""
    return f"{scheme}://{lan}{port}"


CONTAINER_MARKERS = (Path("/.dockerenv"), Path("/run/.containerenv"))
"""Files whose presence means this process runs in a container (Docker's, Podman's):
its interfaces' addresses are then the container's own, which phones cannot reach."""
BRIDGES = ipaddress.ip_network("172.16.0.0/12")
"""Where Docker and Podman put their bridge networks (``172.17.0.2``)."""
NO_ADDRESS = say(
    "This machine has no network address other phones can reach. Connect it to the "
    'table\'s Wi-Fi, or set PUBLIC_URL (see docs/hosting.md, "Hosting for a group").'
)
BRIDGE_ADDRESS = say(
    "Phones may not reach this address (a container's or a bridge network's): set "
    "PUBLIC_URL to the address they open (e.g. PUBLIC_URL=http://192.168.1.20:8000 in "
    "the environment or in the .env file next to compose.yaml) and restart the app."
)
"""The share pages' hints: sentences (:class:`~scorekeeper.engine.Message`, English as
text) a page prints in the reader's language."""


def in_container() -> bool:
    """True when this process runs in a container (:data:`CONTAINER_MARKERS`)."""
    return any(marker.exists() for marker in CONTAINER_MARKERS)


def _bridge(hostname: str) -> bool:
    try:
        return ipaddress.ip_address(hostname) in BRIDGES
    except ValueError:
        return False


@dataclass(frozen=True)
class SharePlace:
    """Where the share links point: ``base`` (:func:`public_base`) and ``hint``, the one
    line the page shows when phones may not reach it (None when they should)."""

    base: str
    hint: str | None


def share_place(public_url: str, scheme: str, host: str, lan: str | None) -> SharePlace:
    """:func:`public_base` with its hint: none with ``public_url``;
    :data:`NO_ADDRESS` when only a loopback address is known; :data:`BRIDGE_ADDRESS`
    when the address is a bridge network's (172.16.0.0/12), or this machine's own
    address (``host`` a loopback one) while :func:`in_container`."""
    base = public_base(public_url, scheme, host, lan)
    if public_url.strip():
        return SharePlace(base, None)
    offered = urlsplit(base).hostname or ""
    if is_loopback_host(offered):
        return SharePlace(base, NO_ADDRESS)
    own = is_loopback_host(_hostname(host))
    if _bridge(offered) or (own and in_container()):
        return SharePlace(base, BRIDGE_ADDRESS)
    return SharePlace(base, None)


def current_share_place() -> SharePlace:
    """:func:`share_place` for the current request and app (``PUBLIC_URL`` config); the
    interfaces are read only when the request came to a loopback address."""
    public_url = str(current_app.config.get("PUBLIC_URL", "") or "")
    lan = None
    if not public_url.strip() and is_loopback_host(_hostname(request.host)):
        lan = choose_lan_address(interface_addresses())
    return share_place(public_url, request.scheme, request.host, lan)


def share_base() -> str:
    """The base URL of :func:`current_share_place` (no trailing slash)."""
    return current_share_place().base


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
    first = gettext("First, once on each phone, trust this machine's certificate at:")
    out.write(f"\n{first}\n\n    {url}\n\n")
    out.write(gettext("(the browser warns the first time: continue to the page) or scan:"))
    out.write("\n\n")
    segno.make(url, error="m").terminal(out=out, compact=True)


def announce(url: str, out: TextIO = sys.stdout, chosen: bool = True) -> None:
    """Print the URL to open and its QR code (Unicode blocks) for phones to scan; when
    ``chosen`` (the address is this machine's, not ``PUBLIC_URL``) and phones may not
    reach it (a loopback address; a bridge network's, or any while :func:`in_container`),
    the share page's hint (:func:`share_place`) below it."""
    running = gettext("500 Rum is running. On every phone at the table, open:")
    out.write(f"\n{running}\n\n    {url}\n\n")
    out.write(gettext("or scan this code with the phone's camera:") + "\n\n")
    segno.make(url, error="m").terminal(out=out, compact=True)
    hostname = urlsplit(url).hostname or ""
    if hostname == "127.0.0.1":
        none = gettext("No network address found: other phones cannot reach this machine.")
        out.write(f"\n{none}\n")
    elif chosen and (_bridge(hostname) or in_container()):
        out.write(f"\n{sentence(BRIDGE_ADDRESS)}\n")
    out.write("\n")
    out.flush()


def qr_svg(url: str) -> Markup:
    """``url`` as a QR code to scan across the table: inline SVG markup (the share pages,
    a table game's seat links)."""
    svg = segno.make(url, error="m").svg_inline(scale=5, dark="#000", light="#fff", omitsize=True)
    return Markup(svg)
