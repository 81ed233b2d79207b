"""House rules shared by every feature: carried in a link (the query-string format the
checker and the rules reference accept, so a game page can open them with its own house
rules in one tap) and offered as form fields (one field per engine option).

Format (either form; both may be combined, ``opt_`` values win)::

    /check?preset=modern&opt_ace_in_run=round-the-corner&opt_first_meld_minimum=0
    /check?rules={"preset": "modern", "options": {"ace_in_run": "round-the-corner"}}

``preset`` is a preset name (default ``standard``); ``opt_NAME`` sets the option ``NAME``
of :data:`scorekeeper.engine.OPTIONS`: text choices as written, numbers as digits,
yes/no options as ``true``/``false`` (``yes``/``no``, ``on``/``off``, ``1``/``0`` also
read). ``rules`` is the scoring contract's rules object as JSON. :func:`query_for` builds
the ``preset`` + ``opt_`` form for a house's rules.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from urllib.parse import urlencode

from flask_babel import LazyString
from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape
from wtforms import IntegerField, SelectField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # (stubs lag)
from wtforms.validators import NumberRange, Optional

from .engine import OPTIONS, PRESETS, Message, OptionValue, RulesError, RuleSet, ruleset, say
from .inputs import BadNumber, parse_int
from .languages.reader import translate

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class HouseRules:
    """Rules read from a query: ``preset``, the ``options`` changed from it (name ->
    value), the built ``rules``, and ``problems`` [(where, message)] for anything that
    could not be read (then ``rules`` is the preset's, or standard's, unchanged); each
    message is a :class:`~scorekeeper.engine.Message` (English as text, translated where
    a page prints it) or the engine's own text."""

    preset: str
    options: dict[str, object]
    rules: RuleSet
    problems: list[tuple[str, str]] = field(default_factory=list)

    @property
    def query(self) -> dict[str, str]:
        """The ``preset`` + ``opt_`` query for these rules."""
        return query_for(self.preset, self.options)

    def changed(self) -> list[tuple[str, OptionValue, OptionValue]]:
        """Options differing from the preset: ``[(name, preset value, value)]``."""
        return self.rules.differences(self.preset)


def option_text(value: object) -> str:
    """An option value as query text: ``True`` -> ``"true"``, ``30`` -> ``"30"``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _parse_value(name: str, text: str) -> str | int | bool:
    """The option value ``text`` stands for, by the option's type; raises ValueError."""
    info = OPTIONS[name]
    lowered = text.strip().lower()
    if isinstance(info.default, bool):
        if lowered in _TRUE | _FALSE:
            return lowered in _TRUE
        raise ValueError(
            say("%(name)s is yes or no (true/false), not %(text)s", name=name, text=repr(text))
        )
    if isinstance(info.default, int):
        try:
            return parse_int(lowered, -(10**9), 10**9, name)
        except BadNumber:
            raise ValueError(
                say("%(name)s is a whole number, not %(text)s", name=name, text=repr(text))
            ) from None
    return text.strip()


def option_problems(options: Mapping[str, object]) -> list[tuple[str, str]]:
    """``[(name, message)]`` for every unknown option or value of the wrong kind, checked
    one by one with :meth:`OptionInfo.check` (so ``0`` is never read as ``false``)."""
    problems = []
    for name, value in options.items():
        info = OPTIONS.get(name)
        if info is None:
            message: str | None = _no_rule(name)
        elif not isinstance(value, (str, int, bool)):
            message = say("%(name)s must be a plain value (text, number, true or false)", name=name)
        else:
            message = info.check(value)
        if message:
            problems.append((name, message))
    return problems


def _no_rule(name: str) -> Message:
    return say("there is no house rule called %(name)s", name=repr(name))


def _said(error: BaseException) -> str:
    """The message ``error`` was raised with (a :class:`Message` stays one), else its text."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, Message) else str(error)


def _json_rules(text: str, problems: list[tuple[str, str]]) -> tuple[str, dict[str, object]]:
    try:
        data = json.loads(text)
    except ValueError:
        problems.append(("rules", say("the rules parameter is not valid JSON")))
        return "standard", {}
    if not isinstance(data, Mapping) or not isinstance(data.get("options", {}), Mapping):
        problems.append(("rules", say('rules is {"preset": ..., "options": {...}}')))
        return "standard", {}
    preset = data.get("preset", "standard")
    return (preset if isinstance(preset, str) else "standard"), dict(data.get("options") or {})


def _opt_values(args: Mapping[str, str], problems: list[tuple[str, str]]) -> dict[str, object]:
    """The ``opt_NAME`` values of query ``args``, each read by its option's type; an
    unknown option or an unreadable value is a problem noted and left out."""
    options: dict[str, object] = {}
    for key, text in args.items():
        if not key.startswith("opt_"):
            continue
        name = key[4:]
        if name not in OPTIONS:
            problems.append((name, _no_rule(name)))
            continue
        try:
            options[name] = _parse_value(name, text)
        except ValueError as error:
            problems.append((name, _said(error)))
    return options


def rules_from_query(args: Mapping[str, str]) -> HouseRules:
    """Read house rules from query ``args`` (see the module's docstring). Never raises:
    problems are listed and the preset's own rules (or standard's) are used."""
    problems: list[tuple[str, str]] = []
    preset, options = "standard", dict[str, object]()
    if args.get("rules"):
        preset, options = _json_rules(args["rules"], problems)
    preset = args.get("preset") or preset
    if preset not in PRESETS:
        problems.append(("preset", say("there is no preset called %(name)s", name=repr(preset))))
        preset = "standard"
    options |= _opt_values(args, problems)
    bad = option_problems(options)
    try:
        if bad:
            raise RulesError(bad)
        rules = ruleset(preset, options)
    except RulesError as error:
        problems += error.problems
        options, rules = {}, ruleset(preset)
    base = ruleset(preset)
    options = {n: v for n, v in options.items() if getattr(base, n) != v}
    return HouseRules(preset, options, rules, problems)


def query_for(preset: str, options: Mapping[str, object] | None = None) -> dict[str, str]:
    """``{"preset": ..., "opt_NAME": "VALUE", ...}`` for a preset and the options a house
    changes from it (values as :func:`option_text` writes them)."""
    query = {"preset": preset}
    for name, value in (options or {}).items():
        query[f"opt_{name}"] = option_text(value)
    return query


def check_link(preset: str, options: Mapping[str, object] | None = None) -> str:
    """The checker's URL with these house rules loaded: ``/check?preset=...&opt_...``."""
    return "/check?" + urlencode(query_for(preset, options))


# ---- form fields ---------------------------------------------------------------------

NUMERIC = {"inputmode": "numeric", "pattern": "-?[0-9]*", "autocomplete": "off", "class": "num"}


def select_choices(pairs: Iterable[tuple[object, str]]) -> list[SelectChoice]:
    """``(value, label)`` pairs as a SelectField's choices (values as text)."""
    return [SelectChoice(str(value), label) for value, label in pairs]


def option_field_name(name: str) -> str:
    """The form field of a house rule: ``opt_<option name>``."""
    return f"opt_{name}"


class Lazily(LazyString):  # type: ignore[misc]  # (Flask-Babel has no types)
    """Text worked out each time a page prints it (so in that request's language), and
    escaped as HTML like any other string (Flask-Babel's lazy strings are not)."""

    def __html__(self) -> str:
        return str(escape(str(self)))


def said_lazily(text: object) -> Lazily:
    """``text`` (an engine :class:`Message`, or any text) translated when printed: for
    form labels and choices built once, at import."""
    return Lazily(lambda: str(translate(text)))


@cache
def preset_labels(name: str) -> dict[str, str]:
    """The label of option ``name``'s value in each preset (``{"standard": "3 or more
    cards in sequence", ...}``, messages): what "as the preset" means under each."""
    info = OPTIONS[name]
    return {preset: info.label(getattr(ruleset(preset), name)) for preset in PRESETS}


def preset_labels_json(name: str) -> Lazily:
    """:func:`preset_labels` as JSON in the request's language, worked out when printed:
    the ``data-as-preset`` attribute static/houserules.js reads."""
    return Lazily(
        lambda: json.dumps({p: str(translate(label)) for p, label in preset_labels(name).items()})
    )


def option_field(name: str) -> SelectField | IntegerField:
    """The form field of the engine option ``name``, labelled with its title (the
    catalogue id a small link to /rules below it): a number box for a numeric option,
    else a choice of its readings (JSON-encoded values), empty meaning "as the preset".
    ``data-as-preset`` holds :func:`preset_labels` as JSON, for static/houserules.js to
    show "as the preset: runs of 3 or more" under the chosen preset. Words (title,
    choices, "as the preset") are translated when the form is printed."""
    info = OPTIONS[name]
    link = Markup('<a class="rule-id" href="/rules#{0}">{0}</a>').format(info.id)
    shared = {"data-as-preset": preset_labels_json(name)}
    if info.minimum is not None:
        return IntegerField(
            said_lazily(info.title),
            validators=[Optional(), NumberRange(info.minimum, info.maximum)],
            description=link,
            render_kw=NUMERIC | shared | {"placeholder": _l("as the preset")},
        )
    choices = [("", _l("as the preset"))] + [
        (json.dumps(value), said_lazily(text)) for value, text in info.choices.items()
    ]
    return SelectField(
        said_lazily(info.title),
        choices=select_choices(choices),
        default="",
        description=link,
        render_kw=shared,
    )
