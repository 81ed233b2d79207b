"""The scoring contract (shared/score-contract.md): one round in, a scored round out.

:func:`score` takes the decoded JSON request and returns the decoded response; a request
that breaks a rule or the notation raises :class:`ScoreRequestError`, whose ``body`` is
the contract's 422 body listing every problem. The HTTP route and ``python -m scorekeeper
score`` are thin wrappers over it.

Fields added beyond the contract's examples (the contract lets fields be added):
request ``deal_number`` (1-based, for P5's two-deal game); response ``cards[].rule`` (the
catalogue id behind the figure), ``notes`` (bonuses explained), ``settlement`` (G3) and
``outcome`` (the game's state in words).
"""

from __future__ import annotations

from typing import Any

from .cards import Card, CardError, known_cards, parse_card
from .rules import RulesError, RuleSet, ruleset
from .scoring import (
    LayoffPlay,
    MeldPlay,
    RoundError,
    RoundPlay,
    RoundScore,
    check_round,
    fitting_order,
    score_round,
)

MAX_TOTAL = 1_000_000
"""Largest running total accepted (points, either sign): anything larger is a typo."""


class ScoreRequestError(ValueError):
    """A request the contract refuses. ``errors`` is the list of
    ``{"where": ..., "message": ...}``; ``body`` the whole 422 body."""

    def __init__(self, errors: list[dict[str, str]]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{e['where']}: {e['message']}" for e in errors))

    @property
    def body(self) -> dict[str, list[dict[str, str]]]:
        """``{"errors": [...]}``, the contract's error response."""
        return {"errors": self.errors}


class _Problems(list[dict[str, str]]):
    def add(self, where: str, message: str) -> None:
        self.append({"where": where, "message": message})


def rules_from_request(value: Any, problems: _Problems | None = None) -> RuleSet | None:
    """The :class:`RuleSet` named by a contract ``rules`` object
    (``{"preset": "standard", "options": {...}}``); absent means ``standard``.

    Problems go into ``problems`` (where given) and None is returned; without
    ``problems`` a :class:`ScoreRequestError` is raised.
    """
    sink = problems if problems is not None else _Problems()
    rules = _parse_rules(value, sink)
    if problems is None and sink:
        raise ScoreRequestError(list(sink))
    return rules


def _parse_rules(value: Any, problems: _Problems) -> RuleSet | None:
    if value is None:
        value = {}
    if not isinstance(value, dict):
        problems.add("rules", 'rules must be an object such as {"preset": "standard"}')
        return None
    preset = value.get("preset", "standard")
    options = value.get("options")
    if options is None:
        options = {}
    if not isinstance(preset, str):
        problems.add("rules.preset", 'the preset must be a name such as "standard"')
        return None
    if not isinstance(options, dict):
        problems.add("rules.options", "options must be an object of option names and values")
        return None
    try:
        return ruleset(preset, options)
    except RulesError as error:
        for where, message in error.problems:
            problems.add("rules.preset" if where == "preset" else f"rules.options.{where}", message)
        return None


def _name_list(value: Any, where: str, problems: _Problems) -> list[str] | None:
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        problems.add(where, "must be a list of player names")
        return None
    for i, name in enumerate(value):
        if not name.strip() or len(name) > 40:
            problems.add(f"{where}[{i}]", "a player's name has 1 to 40 characters")
    return value


def _cards(value: Any, where: str, problems: _Problems) -> tuple[Card, ...] | None:
    if not isinstance(value, list):
        problems.add(where, 'must be a list of cards such as ["7H", "7S", "7D"]')
        return None
    known = known_cards(value)
    if known is not None:
        return known
    cards: list[Card] = []
    ok = True
    for j, text in enumerate(value):
        try:
            cards.append(parse_card(text))
        except CardError as error:
            problems.add(f"{where}[{j}]", str(error))
            ok = False
    return tuple(cards) if ok else None


def _player(value: Any, where: str, players: list[str], problems: _Problems) -> str | None:
    if value not in players:
        problems.add(where, f"{value!r} is not one of the players")
        return None
    return str(value)


def _parse_melds(
    value: Any, players: list[str], problems: _Problems
) -> tuple[list[MeldPlay], set[int]]:
    melds: list[MeldPlay] = []
    broken: set[int] = set()
    if value is None:
        return melds, broken
    if not isinstance(value, list):
        problems.add("melds", "must be a list of melds")
        return melds, broken
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            problems.add(f"melds[{i}]", 'a meld is {"owner": name, "cards": [...]}')
            melds.append(MeldPlay("", ()))
            broken.add(i)
            continue
        owner = item.get("owner")
        if owner not in players:
            owner = _player(owner, f"melds[{i}].owner", players, problems)
        texts = item.get("cards")
        cards = known_cards(texts) if isinstance(texts, list) else None
        if cards is None:
            cards = _cards(texts, f"melds[{i}].cards", problems)
        if cards is None:
            broken.add(i)
        melds.append(MeldPlay(owner or "", cards or ()))
    return melds, broken


def _parse_layoffs(
    value: Any, players: list[str], n_melds: int, broken: set[int], problems: _Problems
) -> list[LayoffPlay] | None:
    layoffs: list[LayoffPlay] = []
    if value is None:
        return layoffs
    if not isinstance(value, list):
        problems.add("layoffs", "must be a list of lay-offs")
        return None
    ok = True
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            problems.add(f"layoffs[{i}]", 'a lay-off is {"owner": name, "card": "8D", "meld": 0}')
            ok = False
            continue
        owner = item.get("owner")
        if owner not in players:
            owner = _player(owner, f"layoffs[{i}].owner", players, problems)
        card: Card | None = None
        try:
            card = parse_card(item.get("card"))
        except CardError as error:
            problems.add(f"layoffs[{i}].card", str(error))
        meld = item.get("meld")
        if meld.__class__ is not int or not 0 <= meld < n_melds:
            problems.add(
                f"layoffs[{i}].meld",
                f"there is no meld {meld!r} on the table "
                f"(melds are numbered from 0 to {n_melds - 1})",
            )
            ok = False
            continue
        if owner is None or card is None:
            ok = False
            continue
        if meld in broken:
            continue
        layoffs.append(LayoffPlay(owner, card, meld))
    return layoffs if ok else None


def _parse_hands(
    value: Any, players: list[str], problems: _Problems
) -> dict[str, tuple[Card, ...]]:
    """Hands by player; a hand with a bad card keeps its good cards (the bad one is
    reported), and hands that are not an object count as empty once reported."""
    if not isinstance(value, dict):
        problems.add("hands", 'must be an object of hands, e.g. {"Ann": [], "Bob": ["KD"]}')
        return {p: () for p in players}
    hands: dict[str, tuple[Card, ...]] = {}
    for name, cards in value.items():
        if name not in players:
            problems.add(f"hands.{name}", f"{name!r} is not one of the players")
            continue
        if not isinstance(cards, list):
            problems.add(f"hands.{name}", 'a hand is a list of cards, e.g. ["KD", "2S"]')
            hands[name] = ()
            continue
        known = known_cards(cards)
        if known is not None:
            hands[name] = known
            continue
        good = []
        for j, text in enumerate(cards):
            try:
                good.append(parse_card(text))
            except CardError as error:
                problems.add(f"hands.{name}[{j}]", str(error))
        hands[name] = tuple(good)
    return hands


def _parse_totals(value: Any, players: list[str], problems: _Problems) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        problems.add("totals_before", "must be an object of running totals by player")
        return {}
    totals: dict[str, int] = {}
    for name, total in value.items():
        where = f"totals_before.{name}"
        if name not in players:
            problems.add(where, f"{name!r} is not one of the players")
        elif isinstance(total, bool) or not isinstance(total, int):
            problems.add(where, "a running total is a whole number of points")
        elif abs(total) > MAX_TOTAL:
            problems.add(
                where, f"a running total must be between -{MAX_TOTAL:,} and {MAX_TOTAL:,} points"
            )
        else:
            totals[name] = total
    return totals


def _parse_teams(
    value: Any, players: list[str], problems: _Problems
) -> tuple[tuple[str, ...], ...] | None:
    """The sides (P1) as tuples of names; None when absent or not readable (reported)."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(t, list) for t in value):
        problems.add(
            "teams", 'teams are lists of player names, e.g. [["Ann", "Cat"], ["Bob", "Dee"]]'
        )
        return None
    known = [
        _player(name, f"teams[{i}][{j}]", players, problems) is not None
        for i, team in enumerate(value)
        for j, name in enumerate(team)
    ]
    if not all(known) or not value:
        return None
    return tuple(tuple(t) for t in value)


def parse_request(request: Any) -> tuple[RuleSet, RoundPlay, dict[str, int]]:
    """Decode a contract request into ``(rules, play, totals_before)``.

    Raises :class:`ScoreRequestError` listing every problem of notation, and with them
    every rule the round breaks (:func:`scorekeeper.engine.scoring.check_round`). A request
    whose notation is sound is checked against the rules when it is scored.
    """
    problems = _Problems()
    if not isinstance(request, dict):
        message = "the request must be a JSON object with rules, players, melds, layoffs and hands"
        raise ScoreRequestError([{"where": "request", "message": message}])
    rules = _parse_rules(request.get("rules"), problems)
    players = _name_list(request.get("players"), "players", problems)
    if rules is None or players is None or problems:
        raise ScoreRequestError(list(problems))
    teams = _parse_teams(request.get("teams"), players, problems)
    went_out = request.get("went_out")
    if went_out is not None:
        went_out = _player(went_out, "went_out", players, problems)
    melds, broken = _parse_melds(request.get("melds"), players, problems)
    layoffs = _parse_layoffs(request.get("layoffs"), players, len(melds), broken, problems)
    hands = _parse_hands(request.get("hands"), players, problems)
    totals = _parse_totals(request.get("totals_before"), players, problems)
    deal = request.get("deal_number", 1)
    if deal.__class__ is not int or not 1 <= deal <= 1000:
        problems.add("deal_number", "deal_number is the deal's number in the game, from 1")
        deal = 1
    play = RoundPlay(
        players=tuple(players),
        melds=tuple(melds),
        layoffs=tuple(layoffs or ()),
        hands=hands,
        went_out=went_out,
        teams=teams,
        deal_number=deal,
    )
    if problems:
        for where, message in check_round(rules, play, frozenset(broken)):
            problems.add(where, message)
        raise ScoreRequestError(_dedupe(problems))
    return rules, play, totals


_ORDER = (
    "request",
    "rules",
    "players",
    "teams",
    "went_out",
    "melds",
    "layoffs",
    "hands",
    "totals_before",
    "deal_number",
)


def _section(where: str) -> int:
    head = where.split(".")[0].split("[")[0]
    return _ORDER.index(head) if head in _ORDER else len(_ORDER)


def _dedupe(problems: _Problems) -> list[dict[str, str]]:
    """The problems once each, in the order of the request's fields."""
    unique = {(p["where"], p["message"]): p for p in problems}
    return sorted(unique.values(), key=lambda p: _section(p["where"]))


def layoff_order(request: Any) -> list[int]:
    """The indexes of ``request["layoffs"]`` in an order in which every lay-off fits
    (:func:`scorekeeper.engine.scoring.fitting_order`), for clients that collect
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


def response(result: RoundScore, play: RoundPlay) -> dict[str, Any]:
    """The contract's 200 body for a scored round."""
    return {
        "players": {p: f.as_dict() for p, f in result.players.items()},
        "sides": {s: f.as_dict() for s, f in result.sides.items()} if result.sides else None,
        "cards": [
            {
                "card": r.card.text,
                "owner": r.owner,
                "where": r.where,
                "points": r.points,
                "why": r.why,
                "rule": r.rule,
            }
            for r in result.cards
        ],
        "notes": [
            {"owner": n.owner, "points": n.points, "why": n.why, "rule": n.rule}
            for n in result.notes
        ],
        "winner": result.winner,
        "game_over": result.game_over,
        "outcome": result.outcome,
        "settlement": [
            {"payer": s.payer, "payee": s.payee, "points": s.points} for s in result.settlement
        ],
    }


def score(request: Any) -> dict[str, Any]:
    """Score one round as ``shared/score-contract.md`` says: the decoded request in, the
    decoded 200 response out.

    Raises :class:`ScoreRequestError` (the 422 case) listing every problem found, each
    with where it is and a message a player understands; nothing else happens.
    """
    rules, play, totals = parse_request(request)
    try:
        result = score_round(rules, play, totals)
    except RoundError as error:
        problems = _Problems()
        for where, message in error.problems:
            problems.add(where, message)
        raise ScoreRequestError(_dedupe(problems)) from None
    return response(result, play)
