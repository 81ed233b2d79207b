"""The JSON API's answers: a request's rules and cards read (every problem a 422 with
where it is), the meld and lay-off checks, the rule options and the presets as JSON.

The views (:mod:`scorekeeper.api.views`) read the body and send these answers; the rules
themselves are the engine's (melds M1 to M5, lay-offs L1 to L4, explained by
:mod:`scorekeeper.engine.checker.explain`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from flask_babel import gettext as _
from werkzeug.exceptions import UnprocessableEntity

from ..engine import (
    OPTIONS,
    PRESET_TITLES,
    PRESETS,
    Card,
    CardError,
    IllegalMeld,
    Meld,
    RuleSet,
    ScoreRequestError,
    check_meld,
    extend_with,
    layoff_reasons,
    meld_points,
    meld_reasons,
    parse_card,
    rules_from_request,
    ruleset,
    score,
)
from ..house_rules import option_problems
from ..languages.reader import error_text, translate

MAX_MELD_CARDS = 26
"""Most cards in one meld-check request (a run holds 13; two packs double that)."""


class Unprocessable(UnprocessableEntity):
    """A 422 whose body lists ``errors``: ``[{"where": ..., "message": ...}]``, each
    message in the request's language (English unless ``?lang=``, see
    :func:`translated`)."""

    def __init__(self, errors: list[dict[str, str]]) -> None:
        super().__init__()
        self.errors = translated(errors)


def translated(errors: object) -> list[dict[str, str]]:
    """``errors`` (``[{"where", "message", ...}]``) with each ``message`` (an engine
    sentence or text) in the request's language; other fields as they are."""
    if not isinstance(errors, list):
        return []
    return [
        {**e, "message": translate(e["message"])} if isinstance(e, dict) and "message" in e else e
        for e in errors
    ]


def check_rules_shape(data: Mapping[str, object]) -> None:
    """422 unless ``rules`` is absent, null or an object whose options are null or an
    object (the Python contract reads any falsy value as "no options"; the API is strict)."""
    value = data.get("rules")
    if value is not None and not isinstance(value, dict):
        raise Unprocessable(
            [{"where": "rules", "message": _('rules is {"preset": ..., "options": {...}}')}]
        )
    options = (value or {}).get("options")
    if options is not None and not isinstance(options, dict):
        raise Unprocessable(
            [
                {
                    "where": "rules.options",
                    "message": _("options is an object of option names and values"),
                }
            ]
        )
    problems = option_problems(options or {})
    if problems:
        raise Unprocessable([{"where": f"rules.options.{n}", "message": m} for n, m in problems])


def check_teams_shape(data: Mapping[str, object]) -> None:
    """422 unless ``teams`` is null or lists of player names (checked before the contract,
    whose round check expects names there)."""
    teams = data.get("teams")
    if teams is None:
        return
    if not isinstance(teams, list) or not all(
        isinstance(team, list) and all(isinstance(n, str) for n in team) for team in teams
    ):
        raise Unprocessable(
            [
                {
                    "where": "teams",
                    "message": _('teams are lists of names: [["Ann", "Cat"], ["Bob", "Dee"]]'),
                }
            ]
        )


def _rules(data: Mapping[str, object]) -> RuleSet:
    check_rules_shape(data)
    try:
        rules = rules_from_request(data.get("rules"))
    except ScoreRequestError as error:
        raise Unprocessable(error.errors) from None
    assert rules is not None
    return rules


def _cards(value: object, where: str, most: int) -> list[Card]:
    if not isinstance(value, list) or not 1 <= len(value) <= most:
        raise Unprocessable(
            [
                {
                    "where": where,
                    "message": _(
                        'a list of 1 to %(most)s cards, such as ["7H", "JK=7C"]', most=most
                    ),
                }
            ]
        )
    problems, cards = [], []
    for i, text in enumerate(value):
        try:
            cards.append(parse_card(text))
        except CardError as error:
            problems.append({"where": f"{where}[{i}]", "message": error_text(error)})
    if problems:
        raise Unprocessable(problems)
    return cards


def _meld_json(meld: Meld, rules: RuleSet) -> dict[str, object]:
    return {
        "kind": meld.kind,
        "cards": [c.text for c in meld.cards],
        "suit": meld.suit or None,
        "points": meld_points(meld, rules),
        "describe": translate(meld.describe()),
    }


def _reasons(pairs: list[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"id": rule, "why": translate(why), "link": f"/rules#{rule}"} for rule, why in pairs]


def score_answer(data: Mapping[str, object]) -> tuple[Mapping[str, object], int]:
    """``/score``: the scoring contract's answer to ``data`` and its status (200, or 422
    with the contract's error body). Raises :class:`Unprocessable` for a malformed
    ``rules`` or ``teams`` (the API is stricter than the Python contract there)."""
    check_rules_shape(data)
    check_teams_shape(data)
    try:
        return score(data), 200
    except ScoreRequestError as error:
        body = dict(error.body)
        if "errors" in body:
            body["errors"] = translated(body["errors"])
        return body, 422


def _verdict(
    key: str,
    word: str,
    build: Callable[[], Meld],
    reasons: Callable[[Meld], list[tuple[str, str]]],
    rules: RuleSet,
) -> dict[str, object]:
    """A meld or lay-off check's answer: ``{key: True, "message", "meld", "rules"}``
    (``word`` the translated sentence, its ``%(meld)s`` the meld described) with the
    meld ``build`` makes and the rules that allow it (``reasons``), or ``{key: False,
    "message", "meld": None, "rules"}`` with those that say no."""
    try:
        meld = build()
    except IllegalMeld as problem:
        why = [(rule, problem.message) for rule in problem.rules]
        message = translate(problem.message)
        return {key: False, "message": message, "meld": None, "rules": _reasons(why)}
    return {
        key: True,
        "message": word % {"meld": translate(meld.describe())},
        "meld": _meld_json(meld, rules),
        "rules": _reasons(reasons(meld)),
    }


def meld_answer(data: Mapping[str, object]) -> dict[str, object]:
    """``/meld-check``: is the meld ``data["cards"]`` legal under ``data["rules"]``, and
    which rules say so or say no (M1 to M5). Raises :class:`Unprocessable` for bad rules
    or cards."""
    rules = _rules(data)
    cards = _cards(data.get("cards"), "cards", MAX_MELD_CARDS)
    return _verdict(
        "legal",
        _("legal: %(meld)s"),
        lambda: check_meld(cards, rules),
        lambda m: meld_reasons(m, rules),
        rules,
    )


def layoff_answer(data: Mapping[str, object]) -> dict[str, object]:
    """``/layoff-check``: can ``data["cards"]`` (one card or a pair) be laid off onto the
    meld ``data["meld"]`` (L1 to L4), and why or why not. Raises :class:`Unprocessable`
    for bad rules or cards, or a meld that is not legal itself."""
    rules = _rules(data)
    cards = _cards(data.get("meld"), "meld", MAX_MELD_CARDS)
    laid = _cards(data.get("cards"), "cards", 2)
    try:
        meld = check_meld(cards, rules)
    except IllegalMeld as problem:
        raise Unprocessable([{"where": "meld", "message": problem.message}]) from None
    return _verdict(
        "fits",
        _("fits: %(meld)s"),
        lambda: extend_with(meld, laid, rules),
        lambda grown: layoff_reasons(grown, laid, rules),
        rules,
    )


def _option_json(name: str) -> dict[str, object]:
    info = OPTIONS[name]
    return {
        "name": name,
        "ids": list(info.ids),
        "title": translate(info.title),
        "default": info.default,
        "minimum": info.minimum,
        "maximum": info.maximum,
        "choices": [
            {"value": value, "label": translate(label), "sources": info.sources.get(value)}
            for value, label in info.choices.items()
        ],
    }


def options_answer() -> dict[str, object]:
    """``/rules``: every option of the rule set with its catalogue ids and choices."""
    return {"options": [_option_json(name) for name in OPTIONS]}


def presets_answer() -> dict[str, object]:
    """``/presets``: each preset's changes from the defaults and every option's value."""
    return {
        "presets": [
            {
                "name": name,
                "title": translate(PRESET_TITLES.get(name, name)),
                "changes": PRESETS[name],
                "options": ruleset(name).options(),
            }
            for name in PRESETS
        ]
    }
