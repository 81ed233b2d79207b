"""Trusting ``serve --https``'s own certificate authority on a phone: ``/ca`` (short
steps for Android and iOS, the download's QR code and the authority's fingerprint to
compare) and ``/ca.pem`` (the authority's certificate). Both answer 404 when the app
is not served that way (no authority in the data folder)."""

from __future__ import annotations

from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from flask import Flask, Response, abort, current_app, render_template, url_for

from .addresses import qr_svg, share_base
from .certificates import https_files

DOWNLOAD_NAME = "500rum-ca.crt"
"""The file name phones save the authority under (Android wants ``.crt``)."""


def _ca_path() -> Path:
    return https_files(Path(current_app.instance_path)).ca


def has_authority() -> bool:
    """True when this app is served by ``serve --https`` (its authority exists)."""
    return _ca_path().is_file()


class _Authority:
    """``https_authority`` in every template: true when :func:`has_authority`, asked
    only when a template tests it (the share pages, ``_trust.html``), so the many
    templates that never do (each board of a live table, issue 27) look up no file."""

    def __bool__(self) -> bool:
        return has_authority()


def fingerprint_groups(certificate: x509.Certificate) -> list[str]:
    """The certificate's SHA-256 fingerprint as a phone's settings show it, upper-case
    hex, in groups of four digits (16 groups of 4 for the 32 bytes): short pieces a
    person compares one by one and a narrow page wraps between (issue 37)."""
    digits = certificate.fingerprint(hashes.SHA256()).hex().upper()
    return [digits[i : i + 4] for i in range(0, len(digits), 4)]


def ca_page() -> str:
    """The steps to trust the authority, with its download's QR code and its fingerprint
    (:func:`fingerprint_groups`)."""
    if not has_authority():
        abort(404, description="This server does not use its own certificate authority.")
    certificate = x509.load_pem_x509_certificate(_ca_path().read_bytes())
    fingerprint = fingerprint_groups(certificate)
    download = share_base() + url_for("ca_file")
    return render_template(
        "ca.html", download=download, qr=qr_svg(download), fingerprint=fingerprint
    )


def ca_file() -> Response:
    """The authority's certificate, for a phone to install."""
    if not has_authority():
        abort(404, description="This server does not use its own certificate authority.")
    response = Response(_ca_path().read_bytes(), mimetype="application/x-x509-ca-cert")
    response.headers["Content-Disposition"] = f'attachment; filename="{DOWNLOAD_NAME}"'
    return response


def register_trust(app: Flask) -> None:
    """Add ``/ca`` and ``/ca.pem``, and ``https_authority`` to every template (the share
    pages link to ``/ca`` when it is set)."""
    app.add_url_rule("/ca", "ca_page", ca_page)
    app.add_url_rule("/ca.pem", "ca_file", ca_file)
    authority = _Authority()
    app.context_processor(lambda: {"https_authority": authority})
