"""``serve --https``: a certificate authority of this machine's own and a certificate
for this server, so phones on the table's Wi-Fi get https (a secure context: the
service worker, installing the app, the Wake Lock API) once each phone trusts the
authority.

Both are made once with ``cryptography`` and kept in the data folder under ``https/``:
``ca.pem`` (the authority's certificate, served at ``/ca.pem`` for phones to install),
``ca-key.pem`` (its private key, never served), ``server.pem`` and ``server-key.pem``
(what gunicorn serves). The server's certificate names this machine's LAN address,
``127.0.0.1``, ``localhost`` and the host's ``.local`` name (mDNS); it is made again,
by the same authority, when one of these changes or it nears its end (phones keep
trusting the authority).
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_DAYS = 3650
SERVER_DAYS = 397
"""The longest a server certificate may last for Apple's and Chrome's rules."""
RENEW_DAYS = 30
"""A server certificate this close to its end is made again."""


@dataclass(frozen=True)
class HttpsFiles:
    """Where the files of ``serve --https`` are (all PEM)."""

    folder: Path

    @property
    def ca(self) -> Path:
        """The authority's certificate (public: phones install it)."""
        return self.folder / "ca.pem"

    @property
    def ca_key(self) -> Path:
        """The authority's private key (kept here, mode 600)."""
        return self.folder / "ca-key.pem"

    @property
    def cert(self) -> Path:
        """The server's certificate."""
        return self.folder / "server.pem"

    @property
    def key(self) -> Path:
        """The server's private key (mode 600)."""
        return self.folder / "server-key.pem"


def https_files(data: Path) -> HttpsFiles:
    """The https files of the data folder ``data``."""
    return HttpsFiles(data / "https")


def server_names(lan: str | None) -> tuple[list[str], list[str]]:
    """The DNS names and IP addresses the server's certificate names: ``localhost`` and
    the host's ``.local`` name; ``127.0.0.1`` and the LAN address when there is one."""
    host = socket.gethostname().split(".")[0].lower()
    names = ["localhost"] + ([f"{host}.local"] if host and host != "localhost" else [])
    addresses = ["127.0.0.1"] + ([lan] if lan and lan != "127.0.0.1" else [])
    return names, addresses


def _write_private(path: Path, data: bytes) -> None:
    path.touch(mode=0o600, exist_ok=True)
    path.chmod(0o600)
    path.write_bytes(data)


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _authority(
    files: HttpsFiles, now: datetime
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """The authority, made on first use."""
    if files.ca.exists() and files.ca_key.exists():
        key = serialization.load_pem_private_key(files.ca_key.read_bytes(), None)
        assert isinstance(key, ec.EllipticCurvePrivateKey)
        return x509.load_pem_x509_certificate(files.ca.read_bytes()), key
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "500 Rum scorekeeper"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"500 Rum on {socket.gethostname()}"),
        ]
    )
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .sign(key, hashes.SHA256())
    )
    files.folder.mkdir(parents=True, exist_ok=True)
    _write_private(files.ca_key, _key_pem(key))
    files.ca.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return certificate, key


def _current(files: HttpsFiles, names: list[str], addresses: list[str], now: datetime) -> bool:
    """True when the server's certificate exists, names exactly these and lasts."""
    if not (files.cert.exists() and files.key.exists()):
        return False
    certificate = x509.load_pem_x509_certificate(files.cert.read_bytes())
    alt = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    named = sorted(alt.get_values_for_type(x509.DNSName))
    addressed = sorted(str(a) for a in alt.get_values_for_type(x509.IPAddress))
    lasts = certificate.not_valid_after_utc - now > timedelta(days=RENEW_DAYS)
    return named == sorted(names) and addressed == sorted(addresses) and lasts


def ensure_certificates(data: Path, lan: str | None, now: datetime | None = None) -> HttpsFiles:
    """The authority (made once) and a server certificate for :func:`server_names`
    (made again when they change or it nears its end), in the data folder ``data``."""
    now = now or datetime.now(UTC)
    files = https_files(data)
    authority, authority_key = _authority(files, now)
    names, addresses = server_names(lan)
    if _current(files, names, addresses, now):
        return files
    key = ec.generate_private_key(ec.SECP256R1())
    alt = [x509.DNSName(n) for n in names] + [
        x509.IPAddress(ipaddress.ip_address(a)) for a in addresses
    ]
    certificate = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[-1])]))
        .issuer_name(authority.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=SERVER_DAYS))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(authority_key.public_key()), False
        )
        .sign(authority_key, hashes.SHA256())
    )
    _write_private(files.key, _key_pem(key))
    files.cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return files
