"""The form of a new table game on several phones: the host's name, the rules (as for a
game against bots) and each other seat: a person (named by the host) or a bot (its
level), or left empty. No shuffle seed: the server draws it, and a ``seed`` posted all
the same is refused (no seat chooses the deal the others play)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import Field, StringField
from wtforms.validators import Length, Optional

from ...house_rules import select_choices
from ..forms import LevelField, NewGameForm, level_choices
from ..seats import MATCH, MAX_BOTS

PERSON = "person"


def _seat_field(index: int) -> LevelField:
    levels = level_choices([("", _l("no one")), (PERSON, _l("a person"))], _l("Match my level"))
    default = PERSON if index < 2 else (MATCH if index == 2 else "")
    label = _l("Seat %(number)s", number=index + 2)
    return LevelField(label, choices=select_choices(levels), default=default)


def _who_field(index: int) -> StringField:
    return StringField(
        _l("Name in seat %(number)s", number=index + 2),
        validators=[Optional(), Length(max=40)],
        render_kw={"autocomplete": "off", "autocapitalize": "words"},
    )


SEED_REFUSED = _l(
    "a table game's shuffle is drawn by the server: no seat chooses it, so leave out the seed"
)
"""The refusal of a ``seed`` posted for a table game."""


class NewTableForm(NewGameForm):
    """A table game: the host (seat 1), then seats 2 to 8, each ``seat_<i>`` a person
    (``who_<i>`` their name) or a bot level or nobody; the rules as :class:`NewGameForm`.
    ``seed_posted`` is whether the post carried a non-empty ``seed`` (refused)."""

    seed_posted = False

    def process(
        self,
        formdata: Any = None,
        obj: object | None = None,
        data: Mapping[str, object] | None = None,
        extra_filters: Mapping[str, Sequence[object]] | None = None,
        **kwargs: object,
    ) -> None:
        """Read the post as any form does, noting a non-empty ``seed`` in it (``formdata``
        as WTForms is given it: a multidict of any kind)."""
        formdata = self.meta.wrap_formdata(self, formdata)
        posted = formdata.get("seed") if formdata is not None else None
        self.seed_posted = posted not in (None, "")
        super().process(formdata, obj, data, extra_filters, **kwargs)

    def seat_rows(self) -> list[tuple[Field, Field]]:
        """``(kind field, name field)`` per seat after the host's, in order."""
        return [(self[f"seat_{i}"], self[f"who_{i}"]) for i in range(MAX_BOTS)]

    def level_fields(self) -> list[Any]:
        """Every select of a level: the seats'."""
        return [kind for kind, _ in self.seat_rows()]

    def seats(self) -> list[tuple[str, str | None]]:
        """The chosen seats as ``(name, level)``: level None for a person."""
        return [
            ((who.data or "").strip(), None if kind.data == PERSON else kind.data)
            for kind, who in self.seat_rows()
            if kind.data
        ]

    def validate(self, extra_validators: Mapping[str, Sequence[object]] | None = None) -> bool:
        """No seed posted, field checks, another seat taken, then the rule set as the
        engine sees it."""
        if self.seed_posted:
            self.form_errors.append(str(SEED_REFUSED))
            return False
        if not self.seats():
            self.seat_0.errors.append(_("choose who sits in at least one other seat"))
            return False
        self.bot_0.data = self.bot_0.data or MATCH
        return super().validate(extra_validators)

    def field_for(self, where: str | None) -> Any:
        """The field a problem about ``where`` goes next to (the seats for D1)."""
        return self.seat_0 if where == "seats" else super().field_for(where)


for _i in range(MAX_BOTS):
    setattr(NewTableForm, f"seat_{_i}", _seat_field(_i))
    setattr(NewTableForm, f"who_{_i}", _who_field(_i))
