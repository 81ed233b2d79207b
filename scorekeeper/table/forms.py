"""The scorekeeper's forms. House-rule choices come from the engine's ``OPTIONS``.

Round forms are built per game (one group of fields per seat), so field names use the
seat number (``shown-0``), never a player's name. Numbers are plain text inputs with
``inputmode="numeric"`` so phones show their number pad; the page adds a ± toggle and a
one-tap zero.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DecimalField,
    FileField,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from ..engine.rules import OPTIONS, PRESET_TITLES, RulesError, ruleset
from ..house_rules import NUMERIC, option_field, option_field_name, select_choices
from ..requests import MAX_VERSION, NAME_MAX, clean_name, is_int
from .entries import MAX_PLAYERS, TITLE_MAX, clean_title, names_problems, stake_problem

POINTS_MAX = 1_000_000
"""Points one figure of a round may hold at most, either sign."""
IMPORT_MAX_BYTES = 512 * 1024
"""Bytes of an imported file at most (1,000 rounds by totals take about 150 KiB)."""
MELD_SLOTS = 3
"""Meld inputs shown per player in cards mode (more appear when a round needs them)."""
LAYOFF_SLOTS = 2
"""Lay-off rows shown per player in cards mode."""


class NewGameForm(FlaskForm):
    """A new game: 2 to 8 names in seat order (partners opposite: seats 1 & 3 against
    2 & 4), a preset, house rules changed from it, the target, the first dealer, a stake."""

    title = StringField(
        "Name of the game (optional)", validators=[Optional(), Length(max=TITLE_MAX * 2)]
    )
    preset = SelectField("Rules", choices=select_choices(PRESET_TITLES.items()), default="standard")
    target = IntegerField(
        "Target (points; empty: the preset's)",
        validators=[Optional(), NumberRange(OPTIONS["target"].minimum, OPTIONS["target"].maximum)],
        render_kw=NUMERIC,
    )
    first_dealer = SelectField(
        "First dealer",
        choices=select_choices((i, f"Player {i + 1}") for i in range(MAX_PLAYERS)),
        default="0",
    )
    stake = DecimalField(
        "Stake per point for the settlement (optional)",
        places=2,
        validators=[Optional()],
        render_kw={"inputmode": "decimal", "autocomplete": "off"},
    )

    def validate_stake(self, field: DecimalField) -> None:
        """A finite stake from 0 to the most (the rule an import passes too)."""
        problem = stake_problem(field.data)
        if problem:
            raise ValidationError(problem)

    def names(self) -> list[str]:
        """The names entered (NFC, invisible characters removed), blanks left out, in
        seat order."""
        cleaned = (clean_name(f.data or "") for f in self.name_fields())
        return [name for name in cleaned if name]

    def clean_title(self) -> str:
        """The title as stored (the rule an import passes too)."""
        return clean_title(self.title.data)

    def name_fields(self) -> list[Any]:
        """The eight name fields, in seat order."""
        return [self[f"player_{i}"] for i in range(MAX_PLAYERS)]

    def options(self) -> dict[str, Any]:
        """The house rules chosen, as engine option values (only those set)."""
        chosen: dict[str, Any] = {}
        for name in OPTIONS:
            if name == "target":
                continue
            field = self[option_field_name(name)]
            if field.data not in (None, ""):
                chosen[name] = field.data if isinstance(field.data, int) else json.loads(field.data)
        if self.target.data is not None:
            chosen["target"] = self.target.data
        return chosen

    def changed_options(self) -> dict[str, Any]:
        """The chosen house rules that differ from the preset (what the game stores)."""
        base = ruleset(self.preset.data)
        return {k: v for k, v in self.options().items() if getattr(base, k) != v}

    def validate(self, extra_validators: Any = None) -> bool:
        """Field checks, then the players and the rule set as the engine sees them."""
        if not super().validate(extra_validators):
            return False
        names = self.names()
        filled = [f for f in self.name_fields() if f.data and f.data.strip()]
        typed = [f.data for f in filled]
        ok = True
        for seat, message in names_problems(typed):
            field = self.player_0 if seat < 0 else filled[seat]
            field.errors.append(message)
            ok = False
        if int(self.first_dealer.data) >= max(len(names), 1):
            self.first_dealer.errors.append("the first dealer must be one of the players")
            ok = False
        try:
            rules = ruleset(self.preset.data, self.options())
        except RulesError as error:
            for where, message in error.problems:
                field = self._fields.get(option_field_name(where), self.preset)
                field = self.target if where == "target" else field
                field.errors.append(message)
            return False
        if rules.partnership and len(names) != 4:
            self.player_0.errors.append("partnership play needs exactly 4 players (P1)")
            ok = False
        return ok


for _i in range(MAX_PLAYERS):
    setattr(
        NewGameForm,
        f"player_{_i}",
        StringField(
            f"Player {_i + 1}",
            validators=[Optional(), Length(max=NAME_MAX * 4)],
            render_kw={"autocomplete": "off", "autocapitalize": "words"},
        ),
    )
for _name in OPTIONS:
    if _name != "target":
        setattr(NewGameForm, option_field_name(_name), option_field(_name))


def _nonce() -> str:
    return secrets.token_urlsafe(16)


class _RoundBase(FlaskForm):
    """Fields every round form carries: the one-time key and the game's version."""

    mode = HiddenField(default="totals")
    nonce = HiddenField(default=_nonce, validators=[InputRequired(), Length(min=8, max=64)])
    version = HiddenField(validators=[InputRequired()])
    round_version = HiddenField()
    went_out = SelectField("Who went out?", choices=[])

    def validate_version(self, field: HiddenField) -> None:
        """The version must be a whole number (it is compared with the game's)."""
        if not is_int(field.data, 0, MAX_VERSION):
            raise ValidationError("this form is out of date: reload the page")

    def validate_round_version(self, field: HiddenField) -> None:
        """A correction's round version, when sent, is a whole number too."""
        if field.data not in (None, "") and not is_int(field.data, 0, MAX_VERSION):
            raise ValidationError("this form is out of date: reload the page")


def _points(label: str, default: int | None) -> IntegerField:
    """A figure of a round in points, within ±:data:`POINTS_MAX`."""
    bounds = NumberRange(-POINTS_MAX, POINTS_MAX)
    return IntegerField(label, default=default, validators=[Optional(), bounds], render_kw=NUMERIC)


def _went_out_choices(names: Sequence[str]) -> list[SelectChoice]:
    return select_choices([*enumerate(names), ("", "Nobody: the stock ran out")])


def totals_form(names: Sequence[str], seven_card: bool, **kwargs: Any) -> Any:
    """A totals-mode round form for the players ``names`` (seat order): per seat
    ``shown-i``, ``in_hand-i`` (points, 0 or more) and ``adjust-i`` (either sign);
    ``seven`` when the rules have S10."""
    form = _totals_class(len(names), seven_card)(**kwargs)
    form.went_out.choices = _went_out_choices(names)
    return form


@lru_cache(maxsize=32)
def _totals_class(seats: int, seven_card: bool) -> type:
    """The totals form class for ``seats`` players (built once: an import of many rounds
    checks each through it)."""

    class TotalsForm(_RoundBase):
        pass

    for i in range(seats):
        setattr(TotalsForm, f"shown-{i}", _points("Shown", 0))
        setattr(TotalsForm, f"in_hand-{i}", _points("In hand", 0))
        setattr(TotalsForm, f"adjust-{i}", _points("±", None))
    if seven_card:
        TotalsForm.seven = BooleanField("Went out after laying a seven-card run (S10)")
    return TotalsForm


def cards_form(
    names: Sequence[str], melds: int = MELD_SLOTS, layoffs: int = LAYOFF_SLOTS, **kwargs: Any
) -> Any:
    """A cards-mode round form: per seat ``meld-i-k`` (cards of one meld, laid at once),
    ``layoff-i-k`` (cards laid off) with ``onto-i-k`` (the meld slot ``"j-m"`` they
    extend), and ``hand-i`` (cards left in hand); card texts separated by spaces."""

    class CardsForm(_RoundBase):
        pass

    slots = [("", "onto meld…")] + [
        (f"{j}-{m}", f"{n}'s meld {m + 1}") for j, n in enumerate(names) for m in range(melds)
    ]
    for i, _ in enumerate(names):
        for k in range(melds):
            setattr(CardsForm, f"meld-{i}-{k}", StringField(f"Meld {k + 1}"))
        for k in range(layoffs):
            setattr(CardsForm, f"layoff-{i}-{k}", StringField(f"Lay-off {k + 1}"))
            setattr(
                CardsForm,
                f"onto-{i}-{k}",
                SelectField("onto", choices=select_choices(slots), default=""),
            )
        setattr(CardsForm, f"hand-{i}", StringField("Left in hand"))
    form = CardsForm(**kwargs)
    form.went_out.choices = _went_out_choices(names)
    form.meld_slots, form.layoff_slots = melds, layoffs
    return form


class ImportForm(FlaskForm):
    """A game exported as JSON, uploaded or pasted."""

    file = FileField("Exported JSON file")
    text = TextAreaField(
        "…or paste the JSON", validators=[Optional(), Length(max=IMPORT_MAX_BYTES)]
    )


class ConfirmForm(FlaskForm):
    """A button form (delete, undo, play again): the CSRF token and the game's version."""

    version = HiddenField(validators=[InputRequired()])


# ---- between forms and a round's input ---------------------------------------------------


def _seat(value: str | None, names: Sequence[str]) -> str | None:
    return names[int(value)] if is_int(value, 0, len(names) - 1) else None


def totals_input(form: Any, names: Sequence[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """A totals form's data as a round input (see :mod:`scorekeeper.table.services`), and
    the field of each ``where`` the engine may name."""
    went_out = _seat(form.went_out.data, names)
    seven = getattr(form, "seven", None)
    data: dict[str, Any] = {
        "went_out": went_out,
        "shown": {n: form[f"shown-{i}"].data or 0 for i, n in enumerate(names)},
        "in_hand": {n: form[f"in_hand-{i}"].data or 0 for i, n in enumerate(names)},
        "adjust": {
            n: form[f"adjust-{i}"].data for i, n in enumerate(names) if form[f"adjust-{i}"].data
        },
        "seven_card_run": went_out if seven is not None and seven.data else None,
    }
    fields = {"went_out": "went_out", "seven_card_run": "seven"}
    for i, n in enumerate(names):
        for key in ("shown", "in_hand", "adjust"):
            fields[f"{key}.{n}"] = f"{key}-{i}"
    return data, fields


def totals_data(data: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Form data that shows a stored totals input again (for a correction)."""
    form: dict[str, Any] = {"went_out": _seat_of(data.get("went_out"), names), "mode": "totals"}
    for i, n in enumerate(names):
        form[f"shown-{i}"] = data.get("shown", {}).get(n, 0)
        form[f"in_hand-{i}"] = data.get("in_hand", {}).get(n, 0)
        form[f"adjust-{i}"] = data.get("adjust", {}).get(n)
    form["seven"] = bool(data.get("seven_card_run"))
    return form


def _seat_of(name: str | None, names: Sequence[str]) -> str:
    return str(list(names).index(name)) if name is not None and name in names else ""


def cards_input(
    form: Any, names: Sequence[str]
) -> tuple[dict[str, Any], dict[str, str], list[tuple[str, str]]]:
    """A cards form's data as a round input (the scoring contract's melds, layoffs, hands
    and went_out), the field of each ``where`` the engine may name, and problems found
    before the engine (a lay-off with no meld chosen)."""
    melds: list[dict[str, Any]] = []
    layoffs: list[dict[str, Any]] = []
    fields: dict[str, str] = {"went_out": "went_out"}
    slot: dict[str, int] = {}
    problems: list[tuple[str, str]] = []
    for i, n in enumerate(names):
        for k in range(form.meld_slots):
            cards = (form[f"meld-{i}-{k}"].data or "").split()
            if cards:
                slot[f"{i}-{k}"] = len(melds)
                fields[f"melds[{len(melds)}]"] = f"meld-{i}-{k}"
                melds.append({"owner": n, "cards": cards})
    for i, n in enumerate(names):
        for k in range(form.layoff_slots):
            cards = (form[f"layoff-{i}-{k}"].data or "").split()
            onto = slot.get(form[f"onto-{i}-{k}"].data or "")
            if cards and onto is None:
                problems.append((f"layoff-{i}-{k}", "choose a meld (not empty) these cards extend"))
                continue
            for card in cards:
                fields[f"layoffs[{len(layoffs)}]"] = f"layoff-{i}-{k}"
                layoffs.append({"owner": n, "card": card, "meld": onto})
    hands = {n: (form[f"hand-{i}"].data or "").split() for i, n in enumerate(names)}
    fields |= {f"hands.{n}": f"hand-{i}" for i, n in enumerate(names)}
    data = {
        "went_out": _seat(form.went_out.data, names),
        "melds": melds,
        "layoffs": layoffs,
        "hands": hands,
    }
    return data, fields, problems


def cards_slots(data: dict[str, Any], names: Sequence[str]) -> tuple[int, int]:
    """How many meld and lay-off rows per player a stored cards input needs."""
    melds = [m.get("owner") for m in data.get("melds", [])]
    runs: dict[str, int] = {}
    last: tuple[str, int] | None = None
    for layoff in data.get("layoffs", []):
        key = (layoff.get("owner"), layoff.get("meld"))
        if key != last:
            runs[key[0]] = runs.get(key[0], 0) + 1
        last = key
    most_melds = max([melds.count(n) for n in names] + [MELD_SLOTS])
    return most_melds, max(list(runs.values()) + [LAYOFF_SLOTS])


def cards_data(data: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Form data that shows a stored cards input again (for a correction)."""
    form: dict[str, Any] = {"went_out": _seat_of(data.get("went_out"), names), "mode": "cards"}
    slot_of: dict[int, str] = {}
    used: dict[str, int] = {}
    for index, meld in enumerate(data.get("melds", [])):
        seat = _seat_of(meld.get("owner"), names)
        k = used.get(seat, 0)
        used[seat] = k + 1
        slot_of[index] = f"{seat}-{k}"
        form[f"meld-{seat}-{k}"] = " ".join(meld.get("cards", []))
    rows: dict[str, int] = {}
    last: tuple[str, Any] | None = None
    for layoff in data.get("layoffs", []):
        seat = _seat_of(layoff.get("owner"), names)
        if (seat, layoff.get("meld")) != last:
            rows[seat] = rows.get(seat, -1) + 1
        last = (seat, layoff.get("meld"))
        key = f"{seat}-{rows[seat]}"
        form[f"layoff-{key}"] = (form.get(f"layoff-{key}", "") + " " + layoff["card"]).strip()
        form[f"onto-{key}"] = slot_of.get(layoff.get("meld"), "")
    for i, n in enumerate(names):
        form[f"hand-{i}"] = " ".join(data.get("hands", {}).get(n, []))
    return form


def place_errors(
    form: Any, fields: dict[str, str], problems: Sequence[tuple[str, str]]
) -> list[str]:
    """Put each engine problem next to its field; return those that fit no field."""
    rest: list[str] = []
    keys = sorted(fields, key=len, reverse=True)
    for where, message in problems:
        key = next((k for k in keys if where == k or where.startswith((k + ".", k + "["))), None)
        name = fields.get(key) if key else (where if where in form._fields else None)
        if name is not None and name in form._fields:
            form[name].errors = [*form[name].errors, message]
        else:
            rest.append(message)
    return rest
