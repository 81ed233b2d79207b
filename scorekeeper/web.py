"""App-wide web pieces wired by :func:`scorekeeper.app.create_app`: the session cookie's
``Secure`` flag, the page (or JSON) shown when the database fails, and an error log
without secrets; and two every feature uses: comparing an edit token, guarding a CSV
cell.

A database that fails (unreachable, read-only, full, locked too long) gives a 503 that
says nothing was lost and to try again; a form that was being sent is shown again with
what was typed, ready to send once more (a fresh CSRF token, the same values).
"""

from __future__ import annotations

import hmac
import logging
import time

from flask import Flask, Request, has_request_context, jsonify, render_template, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext as _l
from itsdangerous import BadSignature
from sqlalchemy.exc import DBAPIError

from .extensions import db

UNAVAILABLE = _l(
    "The database did not answer, so nothing was saved just now (nothing already saved "
    "was lost). Try again in a moment."
)
"""The 503's sentence, in the reader's language when shown (lazy: ``str()`` at use)."""
NOT_RESENT = frozenset({"csrf_token"})
REFRESH_AFTER = 24 * 3600
"""Seconds after which an unchanged permanent session cookie is signed and sent again
(its expiry pushed back); before that a request leaves the phone's cookie as it is."""
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula in a CSV cell."""


def same_token(given: object, expected: str) -> bool:
    """Constant-time comparison of a token from a request (a game's or a group's edit
    link) with the stored one; any text (non-ASCII included) or other value compares as
    False, never raises."""
    if not isinstance(given, str):
        return False
    return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))


def spreadsheet_cell(text: str) -> str:
    """A CSV cell a spreadsheet will not run as a formula (a leading quote when ``text``
    starts with one of :data:`FORMULA_START`)."""
    return "'" + text if text.startswith(FORMULA_START) else text


class SignedSession(SecureCookieSession):
    """The session as read from the phone's cookie, with ``signed_at``, when that cookie
    was signed (seconds since the epoch; None for a new session)."""

    signed_at: float | None = None


class TokenSafeSessions(SecureCookieSessionInterface):
    """Flask's signed session cookie, ``Secure`` whenever the request came over https (set
    ``TRUSTED_PROXIES`` behind a proxy that ends TLS), so a phone on the LAN over plain
    http still keeps its edit rights. Every cookie's signature and age are checked by
    Flask's serializer; an unchanged permanent session is sent again only once its cookie
    is :data:`REFRESH_AFTER` old (its expiry then pushed back, so a phone in use keeps its
    rights), not re-signed on every request."""

    session_class = SignedSession

    def get_cookie_secure(self, app: Flask) -> bool:
        """Secure when configured so or when this request is https."""
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def open_session(self, app: Flask, request: Request) -> SignedSession | None:
        """The session from the cookie (empty when missing, forged or expired), as
        Flask's interface reads it, with the time its cookie was signed."""
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        try:
            data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        session = self.session_class(data)
        session.signed_at = signed.timestamp()
        return session

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        """When the session changed, or it is permanent and its cookie is older than
        :data:`REFRESH_AFTER` (with ``SESSION_REFRESH_EACH_REQUEST``, Flask's default)."""
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        signed = getattr(session, "signed_at", None)
        return signed is None or time.time() - signed >= REFRESH_AFTER


def wants_json() -> bool:
    """True for the API and the JSON routes of /play (answers in JSON)."""
    return request.path.startswith("/api/") or request.path.endswith(".json") or request.is_json


def database_failed(error: DBAPIError) -> ResponseReturnValue:
    """503 with the reason; a form is shown again with what was typed."""
    db.session.rollback()
    message = str(UNAVAILABLE)
    if wants_json():
        body = {"error": message, "errors": [{"where": "database", "message": message}]}
        return jsonify(body), 503
    typed = [
        (key, value)
        for key, values in request.form.lists()
        for value in values
        if key not in NOT_RESENT
    ]
    page = render_template("unavailable.html", message=message, typed=typed)
    return page, 503, {"Retry-After": "5"}


class RouteNotPath(logging.Filter):
    """Flask's log line of an unhandled error ("Exception on <path> [<method>]") with the
    route's template in place of the path, which may hold an edit link's token
    (``/games/<slug>/edit/<token>``): a filter of the app's logger (the logging module's
    public API), every other record as it is."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite an unhandled error's record; let every record through."""
        if has_request_context() and str(record.msg).startswith("Exception on "):
            rule = request.url_rule.rule if request.url_rule is not None else "-"
            record.msg, record.args = "Exception on %s [%s]", (rule, request.method)
        return True


def register_unavailable(app: Flask) -> None:
    """Show :func:`database_failed` for any database failure, and log any other error by
    its route template, never its path (:class:`RouteNotPath`)."""
    app.register_error_handler(DBAPIError, database_failed)
    app.logger.addFilter(RouteNotPath())
