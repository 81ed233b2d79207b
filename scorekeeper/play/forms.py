"""Forms of the digital game: a new game against bots, and a move.

House-rule choices come from the engine's ``OPTIONS`` (each labelled with its catalogue
id), presets from ``PRESET_TITLES`` and bot levels from the engine's ladder (``LEVELS``, by
title and rating, :mod:`.seats`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import LazyString
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Field, HiddenField, IntegerField, SelectField, SelectMultipleField, StringField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # (stubs lag)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from ..engine import (
    OPTIONS,
    PRESET_TITLES,
    ActionError,
    RulesError,
    action_from_json,
    quoted,
    ruleset,
)
from ..house_rules import NUMERIC, option_field, select_choices
from ..inputs import (
    JSON_MAX_BYTES,
    JSON_MAX_DEPTH,
    MAX_VERSION,
    BadNumber,
    is_int,
    json_depth,
    parse_int,
)
from ..languages.reader import error_text, translate
from .refusals import Choice, Malformed
from .seats import MATCH, MAX_BOTS, ShownLevel, shown_levels

HIDDEN_OPTIONS = frozenset({"max_players"})
"""Options with no meaning for a game whose players are chosen here (D1)."""


def house_rule_names() -> list[str]:
    """The options a new game offers: those with a choice to make (two or more readings,
    or a number), in catalogue order."""
    return [
        name
        for name, info in OPTIONS.items()
        if name not in HIDDEN_OPTIONS and (info.minimum is not None or len(info.choices) > 1)
    ]


class LevelField(SelectField):
    """A select of the ladder's levels (and "Match my level", :data:`.seats.MATCH`) that
    refuses any other value with a one-line message naming it."""

    def pre_validate(self, form: object) -> None:
        """The value is one of the choices, or ``ValidationError``."""
        if self.data not in {c[0] for c in self.iter_choices()}:
            level = quoted(str(self.data))[:60]
            raise ValidationError(_("there is no bot level %(level)s", level=level))


def level_choices(first: Sequence[tuple[str, Any]], match: Any) -> list[tuple[str, Any]]:
    """A level select's ``(value, label)`` pairs: ``first``, then "Match my level"
    (labelled ``match``), then every level of the ladder with its rating."""
    return [*first, (MATCH, match), *((lv.name, LazyString(_label, lv)) for lv in shown_levels())]


def _label(level: ShownLevel) -> str:
    """A level's label in the request's language (read when a select is drawn)."""
    return level.label


def spoken(text: object) -> LazyString:
    """An engine sentence (a preset's title) put into words when a form is drawn."""
    return LazyString(lambda: str(translate(text)))


def _bot_field(index: int) -> LevelField:
    levels = level_choices([("", _l("no bot"))], _l("Match my level"))
    default = MATCH if index == 0 else ""
    label = _l("Bot %(number)s", number=index + 1)
    return LevelField(label, choices=select_choices(levels), default=default)


class NewGameForm(FlaskForm):
    """A new digital game: the person's name, the rules (a preset and house rules changed
    from it) and 1 to 7 bots each with its level; no shuffle seed (the server draws it)."""

    name = StringField(
        _l("Your name"),
        validators=[Optional(), Length(max=40)],
        render_kw={"autocomplete": "off", "autocapitalize": "words", "placeholder": _l("You")},
    )
    preset = SelectField(
        _l("Preset"),
        choices=select_choices((k, spoken(v)) for k, v in PRESET_TITLES.items()),
        default="standard",
    )

    def bot_fields(self) -> list[Field]:
        """The bot level fields, in seat order."""
        return [self[f"bot_{i}"] for i in range(MAX_BOTS)]

    def level_fields(self) -> list[Any]:
        """Every select of a level (Any: WTForms' stubs type no ``choices``)."""
        return self.bot_fields()

    def label_match(self, label: str) -> None:
        """Label every select's "Match my level" choice ``label`` (the view's words for
        this phone's estimate, :attr:`.estimate.Reading.match_label`)."""
        for f in self.level_fields():
            f.choices = [
                SelectChoice(c.value, label if c.value == MATCH else c.label) for c in f.choices
            ]

    def option_fields(self) -> list[Field]:
        """The house-rule fields, in catalogue order."""
        return [self[f"opt_{name}"] for name in house_rule_names()]

    def bots(self) -> list[str]:
        """The chosen bot levels in seat order ("no bot" rows left out)."""
        return [f.data for f in self.bot_fields() if f.data]

    def options(self) -> dict[str, object]:
        """The house rules chosen that differ from the preset, as engine option values."""
        chosen: dict[str, object] = {}
        for name in house_rule_names():
            data = self[f"opt_{name}"].data
            if data not in (None, ""):
                chosen[name] = data if isinstance(data, int) else json.loads(data)
        try:
            base = ruleset(self.preset.data)
        except RulesError:
            return chosen
        return {k: v for k, v in chosen.items() if getattr(base, k) != v}

    def validate(self, extra_validators: Mapping[str, Sequence[object]] | None = None) -> bool:
        """Field checks, at least one bot, then the rule set as the engine sees it."""
        if not super().validate(extra_validators):
            return False
        if not self.bots():
            self.bot_0.errors.append(_("choose at least one bot to play against"))
            return False
        try:
            ruleset(self.preset.data, self.options())
        except RulesError as error:
            for where, message in error.problems:
                self.field_for(where).errors.append(message)
            return False
        return True

    def field_for(self, where: str | None) -> Any:
        """The field a problem about ``where`` (an option name, "preset", "bots") goes
        next to (Any: WTForms' stubs give a field's ``errors`` no ``append``, which the
        views call)."""
        if where == "bots":
            return self.bot_0
        return self._fields.get(f"opt_{where}", self.preset)


for _i in range(MAX_BOTS):
    setattr(NewGameForm, f"bot_{_i}", _bot_field(_i))
for _name in house_rule_names():
    setattr(NewGameForm, f"opt_{_name}", option_field(_name))


class NewPlayForm(NewGameForm):
    """A game against bots (:class:`NewGameForm`) with an optional shuffle seed, for
    practice: only the person plays, so choosing the deal is fair to no one else."""

    seed = IntegerField(
        _l("Shuffle number (optional)"),
        validators=[Optional(), NumberRange(0, 2**31 - 1)],
        description=_l("The same number deals the same cards: replay a game or share a deal."),
        render_kw=NUMERIC,
    )


class MoveForm(FlaskForm):
    """A move on the play page: the game's ``version`` it was made on, the button pressed
    (``do``: ``stock``, ``take:<pile index>``, ``lay_down``, ``lay_off:<meld index>``,
    ``discard`` or an action as JSON) and the hand cards selected (``cards``)."""

    version = HiddenField(validators=[InputRequired()])
    do = StringField(validators=[InputRequired(message=_l("choose a move"))])
    cards = SelectMultipleField(choices=[], validate_choice=False)

    def validate_version(self, field: HiddenField) -> None:
        """The version is a whole number (it is compared with the game's)."""
        if not is_int(field.data, 0, MAX_VERSION):
            raise ValidationError(_("this page is out of date: reload it"))


def parse_do(do: str) -> tuple[str, int | None, object]:
    """A ``do`` value as ``(kind, number, action dict)``: ``"take:3"`` -> ``("take", 3,
    None)``; a JSON object -> ``("action", None, dict)``. Raises ``ValueError`` (JSON
    too large or nested too deeply too)."""
    do = do.strip()
    if do.startswith("{"):
        if len(do) > JSON_MAX_BYTES or json_depth(do) > JSON_MAX_DEPTH:
            raise ValueError(_("the move is too large or nested too deeply"))
        return "action", None, json.loads(do)
    kind, _sep, number = do.partition(":")
    if not number:
        return kind, None, None
    try:
        return kind, parse_int(number, 0, 999), None
    except BadNumber:
        raise ValueError(_("%(number)s is not a number", number=quoted(number))) from None


def _do(do: str, version: int, cards: Sequence[str]) -> Choice:
    """The choice a ``do`` value makes (:func:`parse_do`); raises :class:`Malformed`."""
    try:
        kind, number, raw = parse_do(do)
    except ValueError as problem:
        raise Malformed(_("that is not a move: %(problem)s", problem=problem)) from None
    return Choice(version, kind, tuple(cards), number, raw)


def read_form(form: MoveForm) -> Choice:
    """The move a posted :class:`MoveForm` chose; raises :class:`Malformed` (the form's
    first problem, or a ``do`` that names no move)."""
    if not form.validate():
        raise Malformed(str(next(iter(form.errors.values()))[0]))
    return _do(form.do.data or "", parse_int(form.version.data), form.cards.data or [])


TAP_SHAPE = 'send {"version": <the game\'s version>, "do": ..., "cards": [...]}'
"""What a tap's body must be."""


def read_tap(body: object) -> Choice:
    """The move a tap's JSON ``body`` chose (:mod:`.taps`' glossary); raises
    :class:`Malformed`."""
    if not isinstance(body, dict) or not is_int(body.get("version"), 0, MAX_VERSION):
        raise Malformed(TAP_SHAPE)
    do = body.get("do")
    if isinstance(do, dict):
        do = json.dumps(do)
    cards = body.get("cards") or []
    if not isinstance(do, str) or not isinstance(cards, list):
        raise Malformed('"do" names a move and "cards" lists card texts')
    return _do(do, int(body["version"]), [str(c) for c in cards][:60])


def read_move_json(body: object) -> Choice:
    """The move a script's JSON ``body`` makes: ``{"version", "action"}`` (an action as
    ``action.to_json()`` gives it) or ``{"version", "do": "next_round"}``; raises
    :class:`Malformed`."""
    if not isinstance(body, dict) or not is_int(body.get("version")):
        raise Malformed('send {"version": <the game\'s version>, "action": {...}}')
    version = parse_int(body["version"])
    if body.get("do") == "next_round":
        return Choice(version, "next_round")
    try:
        return Choice(version, "action", action=action_from_json(body.get("action")))
    except ActionError as error:
        raise Malformed(_("that is not a move: %(problem)s", problem=error_text(error))) from None
