"""The scorekeeper's forms. House-rule choices come from the engine's ``OPTIONS``.

Round forms are built per game (one group of fields per seat), so field names use the
seat number (``net-0``, ``shown-0``), never a player's name. Numbers are plain text inputs
with ``inputmode="numeric"``, empty with a grey "0", so phones show their number pad; the
page adds a ± toggle. Who went out may be left untold only where the figures show it.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import cast

from flask_babel import LazyString
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
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
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # (stubs lag)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import TextInput

from ..engine import N_, OPTIONS, PRESET_TITLES, RulesError, ruleset, went_out_by_hand
from ..house_rules import (
    NUMERIC,
    option_field,
    option_field_name,
    preset_labels,
    select_choices,
)
from ..inputs import MAX_VERSION, NAME_MAX, clean_name, is_int
from ..languages.reader import translate
from .entries import MAX_PLAYERS, TITLE_MAX, clean_title, names_problems, stake_problem

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
        _l("Name of the game (optional)"), validators=[Optional(), Length(max=TITLE_MAX * 2)]
    )
    preset = SelectField(
        _l("Rules"), choices=select_choices(PRESET_TITLES.items()), default="standard"
    )
    target = IntegerField(
        _l("Target (points)"),
        validators=[Optional(), NumberRange(OPTIONS["target"].minimum, OPTIONS["target"].maximum)],
        render_kw=NUMERIC
        | {
            "placeholder": _l("as the preset"),
            "data-as-preset": json.dumps(preset_labels("target")),
        },
    )
    first_dealer = SelectField(
        _l("First dealer"),
        choices=select_choices(
            (i, _l("Player %(number)s", number=i + 1)) for i in range(MAX_PLAYERS)
        ),
        default="0",
    )
    stake = DecimalField(
        _l("Stake per point for the settlement (optional)"),
        places=2,
        validators=[Optional()],
        render_kw={"inputmode": "decimal", "autocomplete": "off"},
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        """The form as FlaskForm builds it, the presets' titles in the reader's language."""
        super().__init__(*args, **kwargs)
        self.preset.choices = select_choices(
            (name, translate(title)) for name, title in PRESET_TITLES.items()
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

    def name_dealers(self, names: Sequence[str]) -> None:
        """Offer as first dealer only the seated players, ``names`` in seat order (eight
        at most; "Player 1" alone when nobody is seated yet), so the list reads right
        before any script runs (static/table.js adds a choice as a name is typed). Call
        it after :meth:`validate`: any seat 0-7 is a valid choice there, and
        :meth:`_seats_ok` refuses one beyond the players."""
        seated = [(str(i), name) for i, name in enumerate(names[:MAX_PLAYERS])]
        self.first_dealer.choices = seated or [("0", _("Player %(number)s", number=1))]

    def clean_title(self) -> str:
        """The title as stored (the rule an import passes too)."""
        return clean_title(self.title.data)

    def name_fields(self) -> list[StringField]:
        """The eight name fields, in seat order."""
        return [self[f"player_{i}"] for i in range(MAX_PLAYERS)]

    def options(self) -> dict[str, object]:
        """The house rules chosen, as engine option values (only those set)."""
        chosen: dict[str, object] = {}
        for name in OPTIONS:
            if name == "target":
                continue
            field = self[option_field_name(name)]
            if field.data not in (None, ""):
                chosen[name] = field.data if isinstance(field.data, int) else json.loads(field.data)
        if self.target.data is not None:
            chosen["target"] = self.target.data
        return chosen

    def changed_options(self) -> dict[str, object]:
        """The chosen house rules that differ from the preset (what the game stores)."""
        base = ruleset(self.preset.data)
        return {k: v for k, v in self.options().items() if getattr(base, k) != v}

    def validate(
        self, extra_validators: Mapping[str, Sequence[Callable[..., object]]] | None = None
    ) -> bool:
        """Field checks, then the players and the rule set as the engine sees them."""
        if not super().validate(extra_validators):
            return False
        names = self.names()
        seated = self._seats_ok(names)
        return self._rules_ok(names) and seated

    def _seats_ok(self, names: Sequence[str]) -> bool:
        """The players' names and the first dealer, each problem put by its field."""
        filled = [f for f in self.name_fields() if f.data and f.data.strip()]
        typed = [f.data for f in filled if f.data]
        ok = True
        for seat, message in names_problems(typed):
            field = self.player_0 if seat < 0 else filled[seat]
            field.errors = [*field.errors, message]
            ok = False
        if int(self.first_dealer.data) >= max(len(names), 1):
            self.first_dealer.errors = [
                *self.first_dealer.errors,
                _("the first dealer must be one of the players"),
            ]
            ok = False
        return ok

    def _rules_ok(self, names: Sequence[str]) -> bool:
        """The rule set as the engine builds it (each problem by its option's field), and
        partnership play with exactly four players (P1)."""
        try:
            rules = ruleset(self.preset.data, self.options())
        except RulesError as error:
            for where, message in error.problems:
                field = self._fields.get(option_field_name(where), self.preset)
                field = self.target if where == "target" else field
                field.errors = [*field.errors, translate(message)]
            return False
        if rules.partnership and len(names) != 4:
            self.player_0.errors.append(_("partnership play needs exactly 4 players (P1)"))
            return False
        return True


for _i in range(MAX_PLAYERS):
    setattr(
        NewGameForm,
        f"player_{_i}",
        StringField(
            _l("Player %(number)s", number=_i + 1),
            validators=[Optional(), Length(max=NAME_MAX * 4)],
            render_kw={"autocomplete": "off", "autocapitalize": "words"},
        ),
    )
for _name in OPTIONS:
    if _name != "target":
        setattr(NewGameForm, option_field_name(_name), option_field(_name))


def _nonce() -> str:
    return secrets.token_urlsafe(16)


NO_ONE_OUT = N_("tap the player who went out, or “Stock ran out”")


BY_HAND = "hand"
"""The round page's choice "the one with nothing in hand" for who went out: the same as
not telling (the form infers it from the hands, O1)."""


class WentOutField(SelectField):
    """Who went out: a seat number, ``""`` when the stock ran out, None when not told or
    :data:`BY_HAND` chosen (the form then infers it or refuses with :data:`NO_ONE_OUT`)."""

    def process_formdata(self, valuelist: list[str]) -> None:
        """The posted choice; :data:`BY_HAND` read as not told."""
        super().process_formdata(valuelist)
        if self.data == BY_HAND:
            self.data = None

    def pre_validate(self, form: FlaskForm) -> None:
        """A seat of this game or the stock; nothing chosen is left to the form."""
        choices = cast(list[SelectChoice], self.choices)
        if self.data is not None and self.data not in {c.value for c in choices}:
            raise ValidationError(_("choose one of the players, or that the stock ran out"))


class RoundForm(FlaskForm):
    """Fields every round form carries: the one-time key and the game's version. Its
    CSRF token is checked once, by ``CSRFProtect`` before every POST (the pages write the
    token with ``csrf_token()``), not again by the form."""

    class Meta:
        csrf = False

    mode = HiddenField(default="totals")
    nonce = HiddenField(default=_nonce, validators=[InputRequired(), Length(min=8, max=64)])
    version = HiddenField(validators=[InputRequired()])
    round_version = HiddenField()
    went_out = WentOutField(_l("Who went out?"), choices=[])

    def validate_version(self, field: HiddenField) -> None:
        """The version must be a whole number (it is compared with the game's)."""
        if not is_int(field.data, 0, MAX_VERSION):
            raise ValidationError(_("this form is out of date: reload the page"))

    def validate_went_out(self, field: WentOutField) -> None:
        """Who went out must be told, unless the figures show it (:meth:`inferred_out`)."""
        if field.data is None:
            field.data = self.inferred_out()
        if field.data is None:
            raise ValidationError(_(NO_ONE_OUT))

    def inferred_out(self) -> str | None:
        """The seat who went out when the form's figures show it; None here."""
        return None

    def validate_round_version(self, field: HiddenField) -> None:
        """A correction's round version, when sent, is a whole number too."""
        if field.data not in (None, "") and not is_int(field.data, 0, MAX_VERSION):
            raise ValidationError(_("this form is out of date: reload the page"))


def _went_out_choices(names: Sequence[str], by_hand: bool = False) -> list[SelectChoice]:
    """Each seat, the stock; first, with ``by_hand``, :data:`BY_HAND`."""
    first = [(BY_HAND, _("The one with nothing in hand"))] if by_hand else []
    return select_choices([*first, *enumerate(names), ("", _("Nobody: the stock ran out"))])


def _points(label: str | LazyString) -> IntegerField:
    """A number of points, empty (0) by default: a text input (its whole value can be
    selected, a minus typed) on the phone's number pad. Its bounds are the engine's
    (:data:`scorekeeper.engine.scoring.tally.MAX_POINTS`), checked with the round's other rules."""
    return IntegerField(
        label,
        validators=[Optional()],
        widget=TextInput(),
        render_kw=NUMERIC | {"placeholder": "0"},
    )


def net_form(names: Sequence[str], **kwargs: object) -> RoundForm:
    """A net-mode round form: per seat ``net-i``, the round's score as the table counted
    it (points, either sign, empty for 0), and who went out."""
    form = _net_class(len(names))(**kwargs)
    form.went_out.choices = _went_out_choices(names)
    return form


@lru_cache(maxsize=32)
def _net_class(seats: int) -> type[RoundForm]:
    """The net form class for ``seats`` players (built once per player count)."""

    class NetForm(RoundForm):
        pass

    for i in range(seats):
        setattr(NetForm, f"net-{i}", _points(_l("Round score")))
    return NetForm


def totals_form(names: Sequence[str], seven_card: bool, **kwargs: object) -> RoundForm:
    """A totals-mode round form for the players ``names`` (seat order): per seat
    ``shown-i``, ``in_hand-i`` (points, 0 or more, empty for 0) and ``adjust-i`` (either
    sign); ``seven`` when the rules have S10. Who went out, when not told, is the one
    player with nothing in hand."""
    form = _totals_class(len(names), seven_card)(**kwargs)
    form.went_out.choices = _went_out_choices(names, by_hand=True)
    return form


@lru_cache(maxsize=32)
def _totals_class(seats: int, seven_card: bool) -> type[RoundForm]:
    """The totals form class for ``seats`` players (built once: an import of many rounds
    checks each through it)."""

    class TotalsForm(RoundForm):
        def inferred_out(self) -> str | None:
            """The one seat with nothing in hand (empty counts as 0), if exactly one
            (:func:`~scorekeeper.engine.scoring.checks.went_out_by_hand`, O1)."""
            return went_out_by_hand({str(i): self[f"in_hand-{i}"].data for i in range(seats)})

    for i in range(seats):
        setattr(TotalsForm, f"shown-{i}", _points(_l("Shown")))
        setattr(TotalsForm, f"in_hand-{i}", _points(_l("In hand")))
        setattr(TotalsForm, f"adjust-{i}", _points("±"))
    if seven_card:
        TotalsForm.seven = BooleanField(_l("Went out after laying a seven-card run (S10)"))
    return TotalsForm


WENT_OUT_BY = [
    ("discard", _l("by discarding their last card")),
    ("play", _l("by melding or laying off their last card")),
]
"""How the player went out (the scoring contract's ``went_out_by``, S10)."""


def _add_card_fields(
    form_class: type, names: Sequence[str], melds: int, layoffs: int, seven_card: bool
) -> None:
    """Each seat's meld rows (with S10's "laid in the turn they went out"), lay-off rows
    with the meld each extends, and the cards left in hand."""
    slots = [("", _("onto meld…"))] + [
        (f"{j}-{m}", _("%(name)s's meld %(number)s", name=n, number=m + 1))
        for j, n in enumerate(names)
        for m in range(melds)
    ]
    for i in range(len(names)):
        for k in range(melds):
            setattr(form_class, f"meld-{i}-{k}", StringField(_("Meld %(number)s", number=k + 1)))
            if seven_card:
                final = BooleanField(_("laid in the turn they went out"))
                setattr(form_class, f"final-{i}-{k}", final)
        for k in range(layoffs):
            setattr(
                form_class, f"layoff-{i}-{k}", StringField(_("Lay-off %(number)s", number=k + 1))
            )
            onto = SelectField(_("onto"), choices=select_choices(slots), default="")
            setattr(form_class, f"onto-{i}-{k}", onto)
        setattr(form_class, f"hand-{i}", StringField(_("Left in hand")))


def cards_form(
    names: Sequence[str],
    melds: int = MELD_SLOTS,
    layoffs: int = LAYOFF_SLOTS,
    seven_card: bool = False,
    **kwargs: object,
) -> RoundForm:
    """A cards-mode round form: per seat ``meld-i-k`` (cards of one meld, laid at once),
    ``layoff-i-k`` (cards laid off) with ``onto-i-k`` (the meld slot ``"j-m"`` they
    extend), and ``hand-i`` (cards left in hand); card texts separated by spaces. With
    ``seven_card`` (S10) also ``final-i-k`` (the meld was laid in the turn its owner went
    out) and ``went_out_by`` (:data:`WENT_OUT_BY`). Who went out, when not told, is the
    one player with no card left in hand."""

    class CardsForm(RoundForm):
        def inferred_out(self) -> str | None:
            """The one seat with no card left in hand, if exactly one
            (:func:`~scorekeeper.engine.scoring.checks.went_out_by_hand`, O1)."""
            hands = {str(i): len((self[f"hand-{i}"].data or "").split()) for i in range(seats)}
            return went_out_by_hand(hands)

    if seven_card:
        CardsForm.went_out_by = SelectField(
            _("Went out"), choices=select_choices(WENT_OUT_BY), default="discard"
        )

    seats = len(names)
    _add_card_fields(CardsForm, names, melds, layoffs, seven_card)
    form = CardsForm(**kwargs)
    form.went_out.choices = _went_out_choices(names, by_hand=True)
    form.meld_slots, form.layoff_slots = melds, layoffs
    return form


class ImportForm(FlaskForm):
    """A game exported as JSON, uploaded or pasted."""

    file = FileField(_l("Exported JSON file"))
    text = TextAreaField(
        _l("…or paste the JSON"), validators=[Optional(), Length(max=IMPORT_MAX_BYTES)]
    )


class ConfirmForm(FlaskForm):
    """A button form (delete, undo, play again): the CSRF token and the game's version."""

    version = HiddenField(validators=[InputRequired()])
