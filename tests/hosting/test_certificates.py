"""``serve --https``'s certificates (issue 25, item 6): an authority made once in the data
folder, a server certificate it signed for the LAN address, 127.0.0.1, localhost and the
host's .local name, made again when the LAN address changes; /ca and /ca.pem only when
served that way, and the share page pointing at /ca then. Issue 36: the authority
name-constrained to the LAN, two years at most, an old one replaced (phones told)."""

from __future__ import annotations

import ipaddress
import re
import socket
import ssl
from datetime import UTC, datetime, timedelta

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError

from scorekeeper.hosting import trust
from scorekeeper.hosting.certificates import (
    CA_DAYS,
    SERVER_DAYS,
    HttpsFiles,
    ensure_certificates,
    https_files,
)
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


def test_ca_shows_the_fingerprint_in_groups_of_four(tmp_path, monkeypatch):
    """Issue 37: the SHA-256 fingerprint in 16 groups of four hex digits (grouped by the
    server, so a narrow phone wraps between them), the certificate's own."""
    monkeypatch.setenv("SCOREKEEPER_DATA", str(tmp_path / "data"))
    files = ensure_certificates(tmp_path / "data", None)
    page = make_app(str(tmp_path / "c.db")).test_client().get("/ca").get_data(as_text=True)
    shown = re.search(r'<p class="fingerprint"><code>([^<]*)</code>', page)
    assert shown is not None
    groups = shown.group(1).split(" ")
    assert len(groups) == 16 and all(re.fullmatch(r"[0-9A-F]{4}", g) for g in groups)
    certificate = x509.load_pem_x509_certificate(files.ca.read_bytes())
    assert "".join(groups) == certificate.fingerprint(hashes.SHA256()).hex().upper()


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


# issue 36: the authority name-constrained to the LAN and valid at most two years


def _verify(files, name):
    """Verify the server certificate for ``name`` (a DNS name or an IP address) under the
    authority alone, with cryptography's own path validation (name constraints included)."""
    authority = x509.load_pem_x509_certificate(files.ca.read_bytes())
    leaf = x509.load_pem_x509_certificate(files.cert.read_bytes())
    try:
        subject = x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        subject = x509.DNSName(name)
    verifier = PolicyBuilder().store(Store([authority])).build_server_verifier(subject)
    return verifier.verify(leaf, [])


def _signed_by_the_authority(files, name, tmp_path):
    """A server certificate for ``name`` signed with the authority's own key."""
    authority = x509.load_pem_x509_certificate(files.ca.read_bytes())
    authority_key = serialization.load_pem_private_key(files.ca_key.read_bytes(), None)
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.now(UTC)
    leaf = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
        .issuer_name(authority.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(authority_key.public_key()), False
        )
        .sign(authority_key, hashes.SHA256())
    )
    forged = HttpsFiles(tmp_path / "forged")
    forged.folder.mkdir(parents=True)
    forged.ca.write_bytes(files.ca.read_bytes())
    forged.cert.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    return forged


def test_the_authority_vouches_only_for_the_lan_and_lasts_two_years(tmp_path):
    files = ensure_certificates(tmp_path, "192.168.1.20")
    authority = x509.load_pem_x509_certificate(files.ca.read_bytes())
    constraints = authority.extensions.get_extension_for_class(x509.NameConstraints)
    assert constraints.critical and constraints.value.excluded_subtrees is None
    permitted = constraints.value.permitted_subtrees
    assert {n.value for n in permitted if isinstance(n, x509.DNSName)} == {
        "local", "lan", "home.arpa", "internal", "localhost"
    }  # fmt: skip
    assert {str(n.value) for n in permitted if isinstance(n, x509.IPAddress)} == {
        "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16",
        "fc00::/7", "fe80::/10", "::1/128",
    }  # fmt: skip
    assert authority.not_valid_after_utc - authority.not_valid_before_utc <= timedelta(days=731)
    leaf = x509.load_pem_x509_certificate(files.cert.read_bytes())
    assert leaf.not_valid_after_utc - leaf.not_valid_before_utc <= timedelta(days=398)
    assert leaf.not_valid_after_utc <= authority.not_valid_after_utc
    names, addresses = _names(files.cert)
    for name in names | addresses:
        assert _verify(files, name)[-1] == authority  # the chain ends at the authority
    for outside in ("example.com", "bank.example.org"):
        with pytest.raises(VerificationError):
            _verify(_signed_by_the_authority(files, outside, tmp_path / outside), outside)


def test_a_public_lan_address_is_left_out_of_the_server_certificate(tmp_path):
    files = ensure_certificates(tmp_path, "203.0.113.9")
    assert _names(files.cert)[1] == {"127.0.0.1"}
    assert _verify(files, "127.0.0.1")


def _old_authority(files, days):
    """An authority as ``serve --https`` made it before issue 36: no name constraints."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "500 Rum, old")])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(key, hashes.SHA256())
    )
    files.folder.mkdir(parents=True, exist_ok=True)
    files.ca_key.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    files.ca.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))


@pytest.mark.parametrize("days", [3650, 700])
def test_an_old_authority_is_replaced_once_and_phones_are_told(tmp_path, capsys, days):
    files = https_files(tmp_path)
    _old_authority(files, days)
    old = files.ca.read_bytes()
    ensure_certificates(tmp_path, "192.168.1.20")
    told = capsys.readouterr().err.strip().splitlines()
    assert len(told) == 1 and "every phone must trust it again" in told[0]
    assert files.ca.read_bytes() != old
    authority = x509.load_pem_x509_certificate(files.ca.read_bytes())
    assert authority.extensions.get_extension_for_class(x509.NameConstraints).critical
    assert _verify(files, "192.168.1.20")[-1] == authority
    new = files.ca.read_bytes()
    ensure_certificates(tmp_path, "192.168.1.20")
    assert capsys.readouterr().err == "" and files.ca.read_bytes() == new


def test_an_authority_near_its_end_is_replaced(tmp_path, capsys):
    files = ensure_certificates(tmp_path, "10.0.0.7")
    first = files.ca.read_bytes()
    later = datetime.now(UTC) + timedelta(days=CA_DAYS - 20)
    ensure_certificates(tmp_path, "10.0.0.7", now=later)
    assert "near its end" in capsys.readouterr().err
    assert files.ca.read_bytes() != first
    leaf = x509.load_pem_x509_certificate(files.cert.read_bytes())
    leaf.verify_directly_issued_by(x509.load_pem_x509_certificate(files.ca.read_bytes()))
