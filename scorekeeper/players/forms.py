"""The forms of groups: a new group, a new player, attaching a game (a link, then the
names confirmed), archiving a game, and a season's dates (a GET form: it changes
nothing). Names follow :func:`scorekeeper.inputs.clean_name`; HTML in a name is stored
as text and always shown escaped.
"""

from __future__ import annotations

import secrets
from datetime import date

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DateField, HiddenField, SelectField, SelectMultipleField, StringField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # (stubs lag)
from wtforms.validators import InputRequired, Length, Optional, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from ..engine import PRESET_TITLES, say
from ..house_rules import select_choices
from ..inputs import NAME_MAX, clean_name, name_problems
from ..languages.reader import translate

GROUP_NAME_MAX = 80
EARLIEST = date(2000, 1, 1)
LATEST = date(2999, 12, 31)


def _visible(form: FlaskForm, field: StringField) -> None:
    """A name with at least one visible character, after cleaning."""
    if not clean_name(field.data or ""):
        raise ValidationError(say("a name needs at least one visible character"))


def _preset_choices() -> list[SelectChoice]:
    """The presets as a select's choices, their titles in the reader's language (read
    when a form is made, inside its request)."""
    return select_choices((name, translate(title)) for name, title in PRESET_TITLES.items())


class NewGroupForm(FlaskForm):
    """A group: its name and its usual rules (a preset; a game's house rules become the
    group's usual ones when it starts)."""

    name = StringField(
        _l("Name of the group"),
        validators=[InputRequired(), Length(max=GROUP_NAME_MAX), _visible],
        render_kw={"autocomplete": "off", "placeholder": _l("e.g. Friday family")},
    )
    preset = SelectField(_l("Usual rules"), choices=_preset_choices, default="standard")
    nonce = HiddenField(
        default=lambda: secrets.token_urlsafe(12), validators=[InputRequired(), Length(8, 40)]
    )

    def clean_name(self) -> str:
        """The name as stored."""
        return clean_name(self.name.data or "")


class MemberForm(FlaskForm):
    """A new player of the group."""

    name = StringField(
        _l("New player"),
        validators=[InputRequired(), Length(max=NAME_MAX * 4)],
        render_kw={"autocomplete": "off", "autocapitalize": "words", "placeholder": _l("Name")},
    )

    def validate_name(self, field: StringField) -> None:
        """A name that can be stored (visible, not too long)."""
        problems = name_problems(field.data or "")
        if problems:
            raise ValidationError(translate(problems[0]))

    def clean_name(self) -> str:
        """The name as stored."""
        return clean_name(self.name.data or "")


class AttachForm(FlaskForm):
    """Attach a game: its edit link (the right to change it; a view link is refused), or
    a one-person digital game's address, then, once the names are shown, the seats to add
    as new players and a confirmation."""

    link = StringField(
        _l("Edit link of the game"),
        validators=[InputRequired(), Length(max=400)],
        render_kw={"autocomplete": "off", "inputmode": "url", "placeholder": "https://…/games/…"},
    )
    add = SelectMultipleField(
        _l("Add to the group"),
        choices=[],
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
        validate_choice=False,
    )
    confirm = HiddenField()

    def confirmed(self) -> bool:
        """True on the second step (the person saw the names and confirmed)."""
        return self.confirm.data == "yes"


class ConfirmForm(FlaskForm):
    """A button that changes something (archive, bring back): CSRF only."""


class SeasonForm(FlaskForm):
    """A season's dates, both optional (from the first game, to today)."""

    class Meta:
        csrf = False

    start = DateField(_l("From"), validators=[Optional()])
    end = DateField(_l("To (included)"), validators=[Optional()])

    def validate_end(self, field: DateField) -> None:
        """Dates in order and within reason."""
        for value in (self.start.data, field.data):
            if value is not None and not EARLIEST <= value <= LATEST:
                raise ValidationError(_l("choose a date between 2000 and 2999"))
        if self.start.data and field.data and field.data < self.start.data:
            raise ValidationError(_l("the end comes before the start"))
