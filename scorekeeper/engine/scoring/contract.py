"""The scoring contract (shared/score-contract.md): one round in, a scored round out.

:func:`score` takes the decoded JSON request and returns the decoded response; a request
that breaks a rule or the notation raises :class:`ScoreRequestError`, whose ``body`` is
the contract's 422 body listing every problem. The HTTP route and ``python -m scorekeeper
score`` are thin wrappers over it.

Fields added beyond the contract's examples (the contract lets fields be added):
request ``deal_number`` (1-based, for P5's two-deal game); response ``cards[].rule`` (the
catalogue id behind the figure), ``notes`` (bonuses explained), ``settlement`` (G3) and
``outcome`` (the game's state in words). Under dealer's gambit (X2) ``rules.options``
may name the round's nomination, ``"dealers_joker": "wild" | "double" | "split"`` (a fact
of the round, not a house rule); ``JK=double`` in a set is the joker nominated double.
"""

from __future__ import annotations

from typing import Any

from ..messages import say
from ..rules.dealers_joker import NOMINATION_OPTION, round_rules_stated
from ..rules.ruleset import RulesError, RuleSet, ruleset
from .checks import located
from .notation import MAX_TOTAL, Problems, add_rule_problems, dedupe, read_play, read_player
from .score_round import (
    RoundError,
    RoundPlay,
    fitting_order,
    score_round,
)


class ScoreRequestError(ValueError):
    """A request the contract refuses. ``errors`` is the list of
    ``{"where": ..., "message": ...}``; ``body`` the whole 422 body."""

    def __init__(self, errors: list[dict[str, str]]) -> None:
        self.errors = errors
        super().__init__(located([(e["where"], e["message"]) for e in errors]))

    @property
    def body(self) -> dict[str, list[dict[str, str]]]:
        """``{"errors": [...]}``, the contract's error response."""
        return {"errors": self.errors}


def rules_from_request(value: object, problems: Problems | None = None) -> RuleSet | None:
    """The :class:`RuleSet` named by a contract ``rules`` object
    (``{"preset": "standard", "options": {...}}``); absent means ``standard``.

    Problems go into ``problems`` (where given) and None is returned; without
    ``problems`` a :class:`ScoreRequestError` is raised.
    """
    sink = problems if problems is not None else Problems()
    rules = _parse_rules(value, sink)
    if problems is None and sink:
        raise ScoreRequestError(list(sink))
    return rules


def _parse_rules(value: object, problems: Problems) -> RuleSet | None:
    if value is None:
        value = {}
    if not isinstance(value, dict):
        problems.add("rules", say('rules must be an object such as {"preset": "standard"}'))
        return None
    preset = value.get("preset", "standard")
    options = value.get("options")
    if options is None:
        options = {}
    if not isinstance(preset, str):
        problems.add("rules.preset", say('the preset must be a name such as "standard"'))
        return None
    if not isinstance(options, dict):
        problems.add("rules.options", say("options must be an object of option names and values"))
        return None
    return _house_rules(preset, options, problems)


def _house_rules(preset: str, options: dict[str, object], problems: Problems) -> RuleSet | None:
    """The rule set of ``preset`` and ``options`` (the round's nomination, a fact of the
    round under X2, left out); None with each problem noted at ``rules.preset`` or
    ``rules.options.<name>``."""
    if NOMINATION_OPTION in options:
        options = {k: v for k, v in options.items() if k != NOMINATION_OPTION}
    try:
        return ruleset(preset, options)
    except RulesError as error:
        for where, message in error.problems:
            problems.add("rules.preset" if where == "preset" else f"rules.options.{where}", message)
        return None


def _name_list(value: object, where: str, problems: Problems) -> list[str] | None:
    if not isinstance(value, list):
        problems.add(where, say("must be a list of player names"))
        return None
    unsound = []
    for i, name in enumerate(value):
        if not isinstance(name, str):
            problems.add(where, say("must be a list of player names"))
            return None
        if len(name) > 40 or not name.strip():
            unsound.append(i)
    for i in unsound:
        problems.add(f"{where}[{i}]", say("a player's name has 1 to 40 characters"))
    return value


def _parse_totals(value: object, players: list[str], problems: Problems) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems.add("totals_before", say("must be an object of running totals by player"))
        return {}
    totals: dict[str, int] = {}
    for name, total in value.items():
        where = f"totals_before.{name}"
        if name not in players:
            problems.add(where, say("%(name)s is not one of the players", name=repr(name)))
        elif isinstance(total, bool) or not isinstance(total, int):
            problems.add(where, say("a running total is a whole number of points"))
        elif abs(total) > MAX_TOTAL:
            problems.add(
                where,
                say(
                    "a running total must be between -%(most)s and %(most)s points",
                    most=format(MAX_TOTAL, ","),
                ),
            )
        else:
            totals[name] = total
    return totals


def _parse_teams(
    value: object, players: list[str], problems: Problems
) -> tuple[tuple[str, ...], ...] | None:
    """The sides (P1) as tuples of names; None when absent or not readable (reported)."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(t, list) for t in value):
        problems.add(
            "teams", say('teams are lists of player names, e.g. [["Ann", "Cat"], ["Bob", "Dee"]]')
        )
        return None
    known = [
        read_player(name, f"teams[{i}][{j}]", players, problems) is not None
        for i, team in enumerate(value)
        for j, name in enumerate(team)
    ]
    if not all(known) or not value:
        return None
    return tuple(tuple(t) for t in value)


def parse_request(request: object) -> tuple[RuleSet, RoundPlay, dict[str, int]]:
    """Decode a contract request into ``(rules, play, totals_before)``.

    Raises :class:`ScoreRequestError` listing every problem of notation, and with them
    every rule the round breaks (:func:`.checks.check_round`). A request
    whose notation is sound is checked against the rules when it is scored.
    """
    problems = Problems()
    if not isinstance(request, dict):
        message = "the request must be a JSON object with rules, players, melds, layoffs and hands"
        raise ScoreRequestError([{"where": "request", "message": message}])
    rules = _parse_rules(request.get("rules"), problems)
    players = _name_list(request.get("players"), "players", problems)
    if rules is None or players is None or problems:
        raise ScoreRequestError(list(problems))
    teams = _parse_teams(request.get("teams"), players, problems)
    deal = request.get("deal_number", 1)
    if deal.__class__ is not int or not 1 <= deal <= 1000:
        problems.add("deal_number", say("deal_number is the deal's number in the game, from 1"))
        deal = 1
    play, broken = read_play(players, request, problems, teams, deal)
    rules = _nominated(rules, request.get("rules"), play, problems)
    totals = _parse_totals(request.get("totals_before"), players, problems)
    if problems:
        add_rule_problems(rules, play, broken, problems)
        raise ScoreRequestError(dedupe(problems))
    return rules, play, totals


def _nominated(rules: RuleSet, spec: object, play: RoundPlay, problems: Problems) -> RuleSet:
    """X2: the round's rules once the dealer's nomination is known, stated in
    ``rules.options.dealers_joker`` or shown by the melds
    (:func:`dealers_joker.round_rules_stated`)."""
    options = spec.get("options") if isinstance(spec, dict) else None
    stated = options.get(NOMINATION_OPTION) if isinstance(options, dict) else None
    if stated is None and not rules.dealers_gambit:
        return rules  # no nomination to read: the rules are the round's
    round_rules, found = round_rules_stated(rules, stated, [m.cards for m in play.melds])
    for where, message in found:
        problems.add(where, message)
    return round_rules


def layoff_order(request: object) -> list[int]:
    """The indexes of ``request["layoffs"]`` in an order in which every lay-off fits
    (:func:`scorekeeper.engine.scoring.score_round.fitting_order`), for clients that collect
    lay-offs without their order (a score sheet filled in seat by seat). A request
    that cannot be read keeps its order (scoring it then reports the problems)."""
    count = len(request.get("layoffs") or []) if isinstance(request, dict) else 0
    try:
        rules, play, _ = parse_request(request)
    except ScoreRequestError:
        return list(range(count))
    if len(play.layoffs) != count:
        return list(range(count))
    return list(fitting_order(rules, play))


def score(request: object) -> dict[str, Any]:
    """Score one round as ``shared/score-contract.md`` says: the decoded request in, the
    decoded 200 response out.

    Raises :class:`ScoreRequestError` (the 422 case) listing every problem found, each
    with where it is and a message a player understands; nothing else happens.
    """
    rules, play, totals = parse_request(request)
    try:
        result = score_round(rules, play, totals)
    except RoundError as error:
        problems = Problems()
        for where, message in error.problems:
            problems.add(where, message)
        raise ScoreRequestError(dedupe(problems)) from None
    return result.to_json()
