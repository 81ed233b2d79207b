"""The phone's language switch: ``POST /language`` keeps the choice in the ``lang``
cookie (400 days, like the theme's choice kept on the phone) and goes back to the page it
came from. Works without scripts (a small form in every page's footer); with scripts the
choice is sent as soon as it changes (static/theme.js)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, SelectField

from ..extensions import csrf
from . import COOKIE, COOKIE_AGE
from .reader import known, offered, reader_language

bp = Blueprint("languages", __name__)
csrf.exempt(bp)  # the form checks its own token, so a stale one is told, not a bare 400


class LanguageForm(FlaskForm):
    """The switch: a language among :func:`~scorekeeper.languages.offered`, and the page
    to go back to (a path on this site)."""

    language = SelectField(_l("Language"), choices=[])
    next = HiddenField()


def switch_form() -> LanguageForm:
    """The footer's form, the reader's language chosen (not a TV's own)."""
    form = LanguageForm(formdata=None, language=reader_language(), next=request.full_path)
    form.language.choices = language_choices()
    return form


def language_choices() -> list[tuple[str, str, dict[str, str]]]:
    """Each offered language by its own name, marked as written in it (``lang``)."""
    return [(code, name, {"lang": code.replace("_", "-")}) for code, name in offered().items()]


def refusal(form: FlaskForm) -> str:
    """Why a language form that did not validate changed nothing: its token out of date
    (or missing), or a language not offered."""
    if getattr(form, "csrf_token", None) is not None and form.csrf_token.errors:
        return str(_("This form is out of date: reload the page; nothing was changed."))
    return str(_("That language is not offered; nothing was changed."))


def _back(target: str | None) -> str:
    """``target`` when it is a path on this site, else the home page."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or "\\" in target:
        return "/"
    return target.rstrip("?") or "/"


@bp.post("/language")
def switch() -> ResponseReturnValue:
    """Keep the chosen language on this phone and go back; an unknown language or a form
    without its CSRF token changes nothing and says so."""
    form = LanguageForm()
    form.language.choices = language_choices()
    back = _back(request.form.get("next"))
    response = redirect(back, code=303)
    if not form.validate_on_submit() or known(form.language.data) is None:
        flash(refusal(form), "error")
        return response
    language = known(form.language.data)
    response.set_cookie(COOKIE, str(language), max_age=COOKIE_AGE, samesite="Lax", httponly=False)
    return response


__all__ = ["bp", "switch_form", "LanguageForm", "refusal", "language_choices"]
