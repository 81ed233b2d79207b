"""The rules reference as the pages show it: every catalogue row with its options, their
choices, the presets that use each choice and the seed quotes that state it.

Built from the engine (:data:`~scorekeeper.engine.OPTIONS`,
:data:`~scorekeeper.engine.PRESETS`) and the words of :mod:`scorekeeper.rules.quotes`;
nothing here decides a rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from flask_babel import gettext as _
from markupsafe import Markup, escape

from ..engine import (
    OPTIONS,
    PRESET_TITLES,
    PRESETS,
    OptionInfo,
    RuleSet,
    ruleset,
    say,
    say_plural,
)
from ..house_rules import option_text
from ..languages.reader import translate
from .quotes import GROUPS, QUOTES, ROWS, quotes_for

RULE_ID = re.compile(r"\b([DMTLOSGPX]\d{1,2})\b")
"""A catalogue id inside a sentence (checked against :data:`ROWS` before linking)."""

_UNITS = frozenset({"max_players", "first_meld_minimum", "target"})
"""The number options whose values the pages show with their unit (:func:`_with_unit`)."""


@dataclass(frozen=True)
class Choice:
    """One choice of an option: ``value``, ``key`` (its query text), ``label``,
    ``sources`` (seed ids), whether it is the ``default``, the ``presets`` using it and
    the seed ``quotes`` [(seed, text)] that state it."""

    value: str | int | bool
    key: str
    label: str
    sources: str
    default: bool
    presets: tuple[str, ...]
    quotes: tuple[tuple[str, str], ...]

    @property
    def presets_line(self) -> Markup:
        """``Presets: …`` in the request's language, the presets' names (ids, as the
        address and the matrix name them) marked ``translate="no"``: ``every preset``,
        ``every preset but <modern>``, or the list."""
        missing = [p for p in PRESETS if p not in self.presets]

        def ids(names: list[str] | tuple[str, ...]) -> Markup:
            return Markup('<span translate="no">%s</span>') % ", ".join(names)

        line = Markup(escape(_("Presets: %(presets)s")))
        if not missing:
            return line % {"presets": _("every preset")}
        if len(missing) <= 2 and len(self.presets) > len(missing):
            but = Markup(escape(_("every preset but %(presets)s")))
            return line % {"presets": but % {"presets": ids(missing)}}
        return line % {"presets": ids(self.presets)}


@dataclass(frozen=True)
class OptionView:
    """An option as shown in one row: ``name``, ``title``, all its catalogue ``ids``,
    its ``choices`` and, for a number, its ``range`` in words."""

    name: str
    title: str
    ids: tuple[str, ...]
    choices: tuple[Choice, ...]
    range: str


@dataclass(frozen=True)
class Row:
    """A catalogue row: ``id``, ``group`` title, ``title``, ``plain`` words, its options,
    and ``text``, everything in it lower-cased for the filter."""

    id: str
    group: str
    title: str
    plain: str
    options: tuple[OptionView, ...]
    text: str


def _values(info: OptionInfo, row: str) -> list[str | int | bool]:
    """The values worth showing: every choice, or for a number the default, the presets'
    values and the quoted ones."""
    if info.choices:
        return list(info.choices)
    seen = {info.default} | {getattr(ruleset(p), info.name) for p in PRESETS}
    seen |= {int(k) for k in _quoted_keys(row, info.name)}
    return sorted(seen)


def _quoted_keys(row: str, option: str) -> list[str]:
    return list(QUOTES.get(row, {}).get(option, {}))


def _label(info: OptionInfo, value: str | int | bool) -> str:
    if info.name in _UNITS and not info.choices and isinstance(value, int):
        return _with_unit(info.name, value)
    return info.label(value)


def _with_unit(name: str, value: int) -> str:
    """``30 points``, ``8 players``: a number option's value with its unit (a message)."""
    if name == "max_players":
        return say_plural("%(count)s player", "%(count)s players", value)
    return say_plural("%(count)s point", "%(count)s points", value)


def _option(info: OptionInfo, row: str) -> OptionView:
    choices = []
    for value in _values(info, row):
        key = option_text(value)
        choices.append(
            Choice(
                value=value,
                key=key,
                label=_label(info, value),
                sources=str(info.sources.get(value, "")),
                default=value == info.default and type(value) is type(info.default),
                presets=tuple(p for p in PRESETS if _same(getattr(ruleset(p), info.name), value)),
                quotes=tuple(quotes_for(row, info.name, key)),
            )
        )
    span = (
        say("from %(low)s to %(high)s", low=info.minimum, high=info.maximum)
        if info.minimum is not None
        else ""
    )
    return OptionView(info.name, info.title, info.ids, tuple(choices), span)


def _same(a: object, b: object) -> bool:
    return a == b and isinstance(a, bool) == isinstance(b, bool)


@lru_cache(maxsize=1)
def reference_rows() -> tuple[Row, ...]:
    """Every catalogue row, D1 to X2, in the catalogue's order."""
    rows = []
    for rid, (title, plain) in ROWS.items():
        options = tuple(_option(info, rid) for info in OPTIONS.values() if rid in info.ids)
        words = [rid, title, plain, GROUPS[rid[0]]]
        for opt in options:
            words += [opt.title, opt.name] + [c.label for c in opt.choices]
            words += [q for c in opt.choices for _, q in c.quotes]
        rows.append(Row(rid, GROUPS[rid[0]], title, plain, options, " ".join(words).lower()))
    return tuple(rows)


def find_row(rule_id: str) -> Row | None:
    """The row with id ``rule_id`` (case-insensitive), or None."""
    wanted = rule_id.upper()
    return next((r for r in reference_rows() if r.id == wanted), None)


def filter_rows(query: str) -> list[Row]:
    """The rows whose words, in English or in the request's language, contain every word
    of ``query`` (case-insensitive)."""
    words = query.lower().split()
    return [r for r in reference_rows() if all(w in _search_text(r) for w in words)]


def _search_text(row: Row) -> str:
    """Everything in ``row``, lower-cased: its English (:attr:`Row.text`) and the same
    words in the request's language."""
    said = [row.title, row.plain, row.group]
    for opt in row.options:
        said += [opt.title] + [c.label for c in opt.choices]
    return row.text + " " + " ".join(str(translate(s)) for s in said).lower()


def preset_matrix() -> list[tuple[OptionInfo, list[str]]]:
    """The options on which presets differ, each with its value per preset as query text
    (``yes``/``no`` for yes-or-no options), presets in :data:`PRESETS` order."""
    sets = [ruleset(p) for p in PRESETS]
    out = []
    for name, info in OPTIONS.items():
        values = [getattr(r, name) for r in sets]
        if len({option_text(v) for v in values}) > 1:
            out.append((info, [_short(v) for v in values]))
    return out


def _short(value: object) -> str:
    if isinstance(value, bool):
        return say("yes") if value else say("no")
    return str(value)


def active_keys(rules: RuleSet) -> dict[str, str]:
    """``{option name: value as query text}`` for a house's rules (to mark its choices)."""
    return {name: option_text(value) for name, value in rules.options().items()}


def preset_titles() -> dict[str, str]:
    """Preset name -> title."""
    return {p: PRESET_TITLES.get(p, p) for p in PRESETS}


def known_id(text: str) -> bool:
    """True when ``text`` is a catalogue row id (``"M4"``)."""
    return text in ROWS
