"""``serve --https``'s certificates (issue 25, item 6): an authority made once in the data
folder, a server certificate it signed for the LAN address, 127.0.0.1, localhost and the
host's .local name, made again when the LAN address changes; /ca and /ca.pem only when
served that way, and the share page pointing at /ca then."""

from __future__ import annotations

import socket
import ssl
from datetime import UTC, datetime, timedelta

from cryptography import x509

from scorekeeper.hosting import trust
from scorekeeper.hosting.certificates import SERVER_DAYS, ensure_certificates
from tests.conftest import make_app


def _names(path) -> tuple[set[str], set[str]]:
    certificate = x509.load_pem_x509_certificate(path.read_bytes())
    alt = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(alt.get_values_for_type(x509.DNSName)), {
        str(a) for a in alt.get_values_for_type(x509.IPAddress)
    }


def test_the_server_certificate_names_every_address_a_phone_may_open(tmp_path):
    files = ensure_certificates(tmp_path, "192.168.1.20")
    names, addresses = _names(files.cert)
    host = socket.gethostname().split(".")[0].lower()
    assert names == {"localhost", f"{host}.local"} - {"localhost.local"}
    assert addresses == {"127.0.0.1", "192.168.1.20"}
    assert files.key.stat().st_mode & 0o777 == 0o600
    assert files.ca_key.stat().st_mode & 0o777 == 0o600
    context = ssl.create_default_context(cafile=str(files.ca))
    context.load_cert_chain(str(files.cert), str(files.key))  # the key fits the certificate


def test_the_authority_is_made_once_and_the_server_certificate_follows_the_lan(tmp_path):
    first = ensure_certificates(tmp_path, "192.168.1.20")
    authority, server = first.ca.read_bytes(), first.cert.read_bytes()
    assert ensure_certificates(tmp_path, "192.168.1.20").cert.read_bytes() == server
    moved = ensure_certificates(tmp_path, "10.0.0.7")
    assert moved.ca.read_bytes() == authority
    assert _names(moved.cert)[1] == {"127.0.0.1", "10.0.0.7"}
    before = moved.cert.read_bytes()
    later = datetime.now(UTC) + timedelta(days=SERVER_DAYS - 10)
    renewed = ensure_certificates(tmp_path, "10.0.0.7", now=later)
    assert renewed.cert.read_bytes() != before
    assert renewed.ca.read_bytes() == authority


def test_ca_pages_exist_only_when_served_with_https(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_DATA", str(tmp_path / "data"))
    app = make_app(str(tmp_path / "c.db"))
    client = app.test_client()
    assert client.get("/ca").status_code == 404 and client.get("/ca.pem").status_code == 404
    started = client.post("/games/new", data={"player_0": "Ann", "player_1": "Bob"})
    share = f"/games/{started.location.rsplit('/', 1)[-1]}/share"
    assert 'href="/ca"' not in client.get(share).get_data(as_text=True)
    files = ensure_certificates(tmp_path / "data", None)
    assert client.get("/ca").status_code == 200
    download = client.get("/ca.pem")
    assert download.data == files.ca.read_bytes()
    assert download.mimetype == "application/x-x509-ca-cert"
    assert 'href="/ca"' in client.get(share).get_data(as_text=True)


def test_only_a_page_that_offers_the_authority_looks_for_it(tmp_path, monkeypatch):
    """``https_authority`` is asked only where a template tests it (issue 27: each board
    of a live table rendered without a look at the data folder)."""
    monkeypatch.setenv("SCOREKEEPER_DATA", str(tmp_path / "data"))
    app = make_app(str(tmp_path / "c.db"))
    looked: list[int] = []
    real = trust._ca_path
    monkeypatch.setattr(trust, "_ca_path", lambda: looked.append(1) or real())
    client = app.test_client()
    started = client.post("/games/new", data={"player_0": "Ann", "player_1": "Bob"})
    game = started.location
    assert client.get(game).status_code == 200 and not looked
    assert 'href="/ca"' not in client.get(f"{game}/share").get_data(as_text=True)
    assert looked
