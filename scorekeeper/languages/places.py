"""The language of a game's or a group's TV and shared result, as its edit-link holder
chooses it (a small form in the game's and the group's share page): the form, and the
answer to its post shared by the table's and the groups' routes."""

from __future__ import annotations

from flask import flash, redirect
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField

from ..models import DigitalGame, Game, Group
from .reader import known
from .services import keep_language
from .switch import language_choices, refusal

READERS = ""
"""The choice "each reader's own language" (stored as None)."""


class PlaceLanguageForm(FlaskForm):  # type: ignore[misc]
    """The language of a game's or group's TV and shared result: one of
    :func:`~scorekeeper.languages.offered`, or :data:`READERS`."""

    language = SelectField(_l("Language of the TV and the shared result"), choices=[])


def place_language_form(place: Game | DigitalGame | Group) -> PlaceLanguageForm:
    """The form for ``place``, its kept language chosen (an empty form when it has none)."""
    form = PlaceLanguageForm(formdata=None, language=place.language or READERS)
    _offer(form)
    return form


def _offer(form: PlaceLanguageForm) -> None:
    form.language.choices = [(READERS, _("Each reader's own"), {}), *language_choices()]


def change_place_language(place: Game | DigitalGame | Group, back: str) -> ResponseReturnValue:
    """Answer the form's post for ``place`` (the caller checked the edit right): keep the
    language and go ``back`` (303); a form without its CSRF token or an unknown language
    changes nothing and says so."""
    form = PlaceLanguageForm()
    _offer(form)
    code = form.language.data
    if not form.validate_on_submit() or (code != READERS and known(code) != code):
        flash(refusal(form), "error")
        return redirect(back, 303)
    keep_language(place, code or None)  # an offered code: checked above
    flash(_("The language of the TV and the shared result was changed."), "success")
    return redirect(back, 303)


__all__ = ["PlaceLanguageForm", "place_language_form", "change_place_language"]
