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

The authority can vouch only for LAN names and private addresses (a critical x509
``NameConstraints``: :data:`PERMITTED_NAMES`, :data:`PERMITTED_NETWORKS`) and lasts at most
two years, so a phone that trusts it risks nothing for the internet's sites; an authority
made before that (unconstrained, ten years), or near its end, is replaced at the next
``serve --https`` with one line on stderr: every phone must trust the new one again.
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_DAYS = 730
"""The authority's whole validity (two years), from a day before it is made."""
SERVER_DAYS = 397
"""A server certificate's whole validity (Apple's and Chrome's limit 398 days; at most to
the authority's end)."""
RENEW_DAYS = 30
"""A server certificate, or the authority, this close to its end is made again."""
PERMITTED_NAMES = ("local", "lan", "home.arpa", "internal", "localhost")
"""The DNS names the authority may vouch for: these and every name under them."""
PERMITTED_NETWORKS = (
    "10.0.0.0/8",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "fc00::/7",
    "fe80::/10",
    "::1/128",
)
"""The addresses the authority may vouch for: private, loopback and link-local."""


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


def permitted(address: str) -> bool:
    """True when the authority may vouch for the IP address ``address`` (a string such as
    ``"192.168.1.20"``; :data:`PERMITTED_NETWORKS`); False for a public one."""
    ip = ipaddress.ip_address(address)
    return any(ip in ipaddress.ip_network(n) for n in PERMITTED_NETWORKS)


def server_names(lan: str | None) -> tuple[list[str], list[str]]:
    """The DNS names and IP addresses the server's certificate names: ``localhost`` and
    the host's ``.local`` name; ``127.0.0.1`` and the LAN address when there is one and the
    authority may vouch for it (:func:`permitted`)."""
    host = socket.gethostname().split(".")[0].lower()
    names = ["localhost"] + ([f"{host}.local"] if host and host != "localhost" else [])
    lan_ok = bool(lan) and lan != "127.0.0.1" and permitted(str(lan))
    addresses = ["127.0.0.1"] + ([str(lan)] if lan_ok else [])
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


def _constraints() -> x509.NameConstraints:
    dns: list[x509.GeneralName] = [x509.DNSName(n) for n in PERMITTED_NAMES]
    ips: list[x509.GeneralName] = [
        x509.IPAddress(ipaddress.ip_network(n)) for n in PERMITTED_NETWORKS
    ]
    return x509.NameConstraints(permitted_subtrees=dns + ips, excluded_subtrees=None)


def _unfit(authority: x509.Certificate, now: datetime) -> str | None:
    """Why the authority ``authority`` must be replaced (None when it is fit): without
    our name constraints, valid over :data:`CA_DAYS` days, or near its end."""
    try:
        constraints = authority.extensions.get_extension_for_class(x509.NameConstraints)
    except x509.ExtensionNotFound:
        return "it could vouch for any site"
    if not constraints.critical or constraints.value != _constraints():
        return "it could vouch for any site"
    if authority.not_valid_after_utc - authority.not_valid_before_utc > timedelta(days=CA_DAYS):
        return f"it was valid for more than {CA_DAYS} days"
    if authority.not_valid_after_utc - now <= timedelta(days=RENEW_DAYS):
        return "it is near its end"
    return None


def _load_authority(
    files: HttpsFiles, now: datetime
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey] | None:
    """The kept authority when it is fit; None (after one line on stderr when it is not)
    when there is none or it must be replaced."""
    if not (files.ca.exists() and files.ca_key.exists()):
        return None
    key = serialization.load_pem_private_key(files.ca_key.read_bytes(), None)
    authority = x509.load_pem_x509_certificate(files.ca.read_bytes())
    why = _unfit(authority, now)
    if why is None and isinstance(key, ec.EllipticCurvePrivateKey):
        return authority, key
    print(
        f"serve --https: a new certificate authority replaces the old one in {files.folder}"
        f" ({why or 'its key is not an EC key'}): every phone must trust it again (open /ca)",
        file=sys.stderr,
    )
    return None


def _authority(
    files: HttpsFiles, now: datetime
) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    """The authority, made on first use or when the kept one is unfit (:func:`_unfit`)."""
    kept = _load_authority(files, now)
    if kept is not None:
        return kept
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "500 Rum scorekeeper"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"500 Rum on {socket.gethostname()}"),
        ]
    )
    start = now - timedelta(days=1)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False),
            critical=True,
        )
        .add_extension(_constraints(), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
        .sign(key, hashes.SHA256())
    )
    files.folder.mkdir(parents=True, exist_ok=True)
    _write_private(files.ca_key, _key_pem(key))
    files.ca.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return certificate, key


def _current(
    files: HttpsFiles,
    authority: x509.Certificate,
    names: tuple[list[str], list[str]],
    now: datetime,
) -> bool:
    """True when the server's certificate exists, was signed by ``authority``, names
    exactly ``names`` (DNS names, addresses) and lasts."""
    if not (files.cert.exists() and files.key.exists()):
        return False
    certificate = x509.load_pem_x509_certificate(files.cert.read_bytes())
    try:
        certificate.verify_directly_issued_by(authority)
    except (ValueError, TypeError, InvalidSignature):
        return False
    alt = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    named = sorted(alt.get_values_for_type(x509.DNSName))
    addressed = sorted(str(a) for a in alt.get_values_for_type(x509.IPAddress))
    lasts = certificate.not_valid_after_utc - now > timedelta(days=RENEW_DAYS)
    return named == sorted(names[0]) and addressed == sorted(names[1]) and lasts


def ensure_certificates(data: Path, lan: str | None, now: datetime | None = None) -> HttpsFiles:
    """The authority (made once, again when unfit: see the module) and a server certificate
    for :func:`server_names` (made again when they change, it nears its end or the
    authority is new), in the data folder ``data``; ``now`` (UTC) for tests."""
    now = now or datetime.now(UTC)
    files = https_files(data)
    authority, authority_key = _authority(files, now)
    names, addresses = server_names(lan)
    if _current(files, authority, (names, addresses), now):
        return files
    start = now - timedelta(days=1)
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
        .not_valid_before(start)
        .not_valid_after(min(start + timedelta(days=SERVER_DAYS), authority.not_valid_after_utc))
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
