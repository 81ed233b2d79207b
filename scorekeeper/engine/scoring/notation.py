"""A round written in the card notation (shared/score-contract.md) read into the engine's
:class:`~.checks.RoundPlay`, every problem located.

Glossary:
- written round: who went out, the melds (``{"owner", "cards"}``), the lay-offs
  (``{"owner", "card", "meld"}``) and the hands left (``{name: [card texts]}``), as the
  scoring contract's request and a table's stored round write them.
- problem: ``{"where": ..., "message": ...}``, ``where`` in the contract's terms
  (``"melds[2].cards[1]"``, ``"hands.Bob[0]"``).

Both edges read through here: the contract (:mod:`.contract`) and a table's round entered
card by card (:func:`read_round`). The rules are then checked by :mod:`.checks`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..cards import Card, CardError, parse_card, parse_card_texts
from ..messages import say
from ..rules.dealers_joker import round_rules_stated
from ..rules.ruleset import RuleSet
from .checks import LayoffPlay, MeldPlay, RoundError, RoundPlay, check_round, fitting_order
from .score_round import RoundScore, score_round

_row = tuple.__new__  # builds a NamedTuple without its Python-level constructor

MAX_TOTAL = 1_000_000
"""Largest running total accepted (points, either sign): anything larger is a typo."""


class Problems(list[dict[str, str]]):
    """Problems found so far, each ``{"where": ..., "message": ...}``."""

    def add(self, where: str, message: str) -> None:
        """Note one problem."""
        self.append({"where": where, "message": message})


def _cards(value: object, where: str, problems: Problems) -> tuple[Card, ...] | None:
    if not isinstance(value, list):
        problems.add(where, say('must be a list of cards such as ["7H", "7S", "7D"]'))
        return None
    try:
        return parse_card_texts(value)
    except CardError:
        pass  # each bad card is located below
    cards: list[Card] = []
    ok = True
    for j, text in enumerate(value):
        try:
            cards.append(parse_card(text))
        except CardError as error:
            problems.add(f"{where}[{j}]", error.args[0])
            ok = False
    return tuple(cards) if ok else None


def read_player(
    value: object, where: str, players: Sequence[str], problems: Problems
) -> str | None:
    """``value`` when it is one of ``players``, else None with the problem noted."""
    if value not in players:
        problems.add(where, say("%(value)s is not one of the players", value=repr(value)))
        return None
    return str(value)


def _parse_melds(
    value: object, players: Sequence[str], problems: Problems
) -> tuple[list[MeldPlay], set[int]]:
    melds: list[MeldPlay] = []
    broken: set[int] = set()
    if value is None:
        return melds, broken
    if not isinstance(value, list):
        problems.add("melds", say("must be a list of melds"))
        return melds, broken
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            problems.add(f"melds[{i}]", say('a meld is {"owner": name, "cards": [...]}'))
            melds.append(MeldPlay("", ()))
            broken.add(i)
            continue
        owner = item.get("owner")
        if owner not in players:
            owner = read_player(owner, f"melds[{i}].owner", players, problems)
        cards = _cards(item.get("cards"), f"melds[{i}].cards", problems)
        if cards is None:
            broken.add(i)
        final = item.get("final_turn", False)
        if not isinstance(final, bool):
            problems.add(f"melds[{i}].final_turn", say("must be true or false"))
        melds.append(_row(MeldPlay, (owner or "", cards or (), final is True)))
    return melds, broken


def _parse_layoffs(
    value: object, players: Sequence[str], n_melds: int, broken: set[int], problems: Problems
) -> list[LayoffPlay] | None:
    layoffs: list[LayoffPlay] = []
    if value is None:
        return layoffs
    if not isinstance(value, list):
        problems.add("layoffs", say("must be a list of lay-offs"))
        return None
    ok = True
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            problems.add(
                f"layoffs[{i}]", say('a lay-off is {"owner": name, "card": "8D", "meld": 0}')
            )
            ok = False
            continue
        owner = item.get("owner")
        if owner not in players:
            owner = read_player(owner, f"layoffs[{i}].owner", players, problems)
        card: Card | None = None
        try:
            card = parse_card(item.get("card"))
        except CardError as error:
            problems.add(f"layoffs[{i}].card", error.args[0])
        meld = _meld_index(item.get("meld"), n_melds, f"layoffs[{i}].meld", problems)
        if meld is None:
            ok = False
            continue
        if owner is None or card is None:
            ok = False
            continue
        if meld in broken:
            continue
        layoffs.append(_row(LayoffPlay, (owner, card, meld)))
    return layoffs if ok else None


def _meld_index(value: object, n_melds: int, where: str, problems: Problems) -> int | None:
    """The meld a lay-off names (L1), numbered from 0 among the round's ``n_melds``
    melds; None with the problem noted when there is no such meld."""
    if value.__class__ is not int or not 0 <= value < n_melds:
        problems.add(
            where,
            say(
                "there is no meld %(value)s on the table (melds are numbered from 0 "
                "to %(n_melds)s)",
                value=repr(value),
                n_melds=n_melds - 1,
            ),
        )
        return None
    return value


def _parse_hands(
    value: object, players: Sequence[str], problems: Problems
) -> dict[str, tuple[Card, ...]]:
    """Hands by player; a hand with a bad card keeps its good cards (the bad one is
    reported), and hands that are not an object count as empty once reported."""
    if not isinstance(value, dict):
        problems.add("hands", say('must be an object of hands, e.g. {"Ann": [], "Bob": ["KD"]}'))
        return {p: () for p in players}
    hands: dict[str, tuple[Card, ...]] = {}
    for name, cards in value.items():
        if name not in players:
            problems.add(
                f"hands.{name}", say("%(name)s is not one of the players", name=repr(name))
            )
            continue
        if not isinstance(cards, list):
            problems.add(f"hands.{name}", say('a hand is a list of cards, e.g. ["KD", "2S"]'))
            hands[name] = ()
            continue
        try:
            hands[name] = parse_card_texts(cards)
            continue
        except CardError:
            pass  # the hand keeps its good cards, each bad one located below
        good = []
        for j, text in enumerate(cards):
            try:
                good.append(parse_card(text))
            except CardError as error:
                problems.add(f"hands.{name}[{j}]", error.args[0])
        hands[name] = tuple(good)
    return hands


_ORDER = (
    "request",
    "rules",
    "players",
    "teams",
    "went_out",
    "went_out_by",
    "melds",
    "layoffs",
    "hands",
    "totals_before",
    "deal_number",
)


def _section(where: str) -> int:
    head = where.split(".")[0].split("[")[0]
    return _ORDER.index(head) if head in _ORDER else len(_ORDER)


def in_order(problems: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """``(where, message)`` problems once each, in the order of the round's fields."""
    return sorted(dict.fromkeys(problems), key=lambda p: _section(p[0]))


def dedupe(problems: Problems) -> list[dict[str, str]]:
    """The problems once each, in the order of the request's fields."""
    unique = {(p["where"], p["message"]): p for p in problems}
    return sorted(unique.values(), key=lambda p: _section(p["where"]))


def read_play(
    players: Sequence[str],
    written: Mapping[str, object],
    problems: Problems,
    teams: tuple[tuple[str, ...], ...] | None = None,
    deal_number: int = 1,
) -> tuple[RoundPlay, frozenset[int]]:
    """The round ``written`` (``went_out``, ``went_out_by``, ``melds``, ``layoffs``,
    ``hands``) among ``players``, and the indexes of melds too broken to read; every
    problem of notation goes into ``problems`` (the round then holds only what could be
    read)."""
    went_out = written.get("went_out")
    if went_out is not None:
        went_out = read_player(went_out, "went_out", players, problems)
    melds, broken = _parse_melds(written.get("melds"), players, problems)
    layoffs = _parse_layoffs(written.get("layoffs"), players, len(melds), broken, problems)
    hands = _parse_hands(written.get("hands"), players, problems)
    play = RoundPlay(
        players=tuple(players),
        melds=tuple(melds),
        layoffs=tuple(layoffs or ()),
        hands=hands,
        went_out=went_out,
        teams=teams,
        deal_number=deal_number,
        went_out_by=_how_out(written.get("went_out_by")),
    )
    return play, frozenset(broken)


def _how_out(value: object) -> str:
    """``went_out_by`` as written, "discard" when absent; a value that is not text is kept
    as its ``repr``, which :func:`.checks.check_round` then refuses (S10)."""
    if not value:
        return "discard"
    return value if isinstance(value, str) else repr(value)


def add_rule_problems(
    rules: RuleSet, play: RoundPlay, broken: frozenset[int], problems: Problems
) -> None:
    """Add to ``problems`` every rule ``play`` breaks (:func:`.checks.check_round`), so that
    a round with a problem of notation reports everything at once."""
    for where, message in check_round(rules, play, broken):
        problems.add(where, message)


def read_round(
    rules: RuleSet,
    players: Sequence[str],
    written: Mapping[str, object],
    teams: tuple[tuple[str, ...], ...] | None = None,
    deal_number: int = 1,
) -> RoundPlay:
    """The round ``written`` as a :class:`RoundPlay`, for scoring with
    :func:`.score_round.score_round`. Raises :class:`RoundError` listing every problem of
    notation and every rule the round breaks, once each, in the order of its fields."""
    problems = Problems()
    play, broken = read_play(players, written, problems, teams, deal_number)
    if problems:
        add_rule_problems(rules, play, broken, problems)
        raise RoundError([(p["where"], p["message"]) for p in dedupe(problems)])
    return play


def score_sheet(
    rules: RuleSet,
    players: Sequence[str],
    written: Mapping[str, object],
    totals_before: Mapping[str, int],
    teams: tuple[tuple[str, ...], ...] | None = None,
    deal_number: int = 1,
) -> RoundScore:
    """Score a round ``written`` on a score sheet, which does not note the order of the
    lay-offs: they are scored in an order that fits (:func:`.checks.fitting_order`).
    Raises :class:`RoundError` listing every problem in the order of the round's fields,
    a lay-off named by the index it was written at. Under dealer's gambit (X2) the
    round's nomination is the one its melds show (:func:`dealers_joker.round_rules_stated`)."""
    play = read_round(rules, players, written, teams, deal_number)
    rules, _ = round_rules_stated(rules, None, [m.cards for m in play.melds])
    order = fitting_order(rules, play)
    play = replace(play, layoffs=tuple(play.layoffs[i] for i in order))
    try:
        return score_round(rules, play, totals_before)
    except RoundError as error:
        problems = [(_as_written(where, order), message) for where, message in error.problems]
        raise RoundError(in_order(problems)) from None


def _as_written(where: str, order: Sequence[int]) -> str:
    """``layoffs[i]`` of the reordered round as the index the lay-off was written at."""
    found = re.match(r"layoffs\[(\d+)\]", where)
    if found is None or int(found.group(1)) >= len(order):
        return where
    return f"layoffs[{order[int(found.group(1))]}]" + where[found.end() :]
