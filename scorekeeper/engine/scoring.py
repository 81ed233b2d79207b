"""Scoring: each card's points in its place, a round, the game, the settlement.

Glossary:
- shown: the points of the cards a player has on the table, melds and lay-offs (S7, L2).
- in hand / deadwood: cards left in a hand when the round ends; they count against their
  holder (S7), or go to the player who went out (S8), or do not count (O3).
- bonus: points not from cards shown: going out in Persian (P4), the seven-card straight
  (S10), the opponents' hands under S8, the two-deal game's 50 (P5).
- round: shown - in hand + bonus, added to the running total (S7; S11's worked example:
  shown 87, hand 90, 3 points off).
- side: two partners scoring as a unit (P1); its figures are the sums of its players'.

Every figure comes with its explanation: one :class:`CardScore` per card and one
:class:`Note` per bonus, each naming the catalogue rule behind it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from .cards import Card
from .melds import IllegalMeld, Meld, check_meld, extend
from .rules import RuleSet


class RoundError(ValueError):
    """A round that cannot be scored: ``problems`` lists ``(where, message)`` pairs, every
    problem found, ``where`` in the scoring contract's terms (``"melds[2]"``)."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{w}: {m}" for w, m in problems))


class MeldPlay(NamedTuple):
    """A meld laid down by ``owner``: its cards as laid, all at once."""

    owner: str
    cards: tuple[Card, ...]


class LayoffPlay(NamedTuple):
    """``card`` laid off by ``owner`` onto the meld at table index ``meld`` (L1, L3)."""

    owner: str
    card: Card
    meld: int


@dataclass(frozen=True)
class RoundPlay:
    """What happened in one round, as the scoring contract's request states it.

    ``melds`` in the order laid down (table index = position), ``layoffs`` in the order
    made, ``hands`` every player's cards left, ``went_out`` the player who went out or None
    (stock ran out), ``teams`` the sides for partnership rules (P1), ``deal_number`` the
    1-based deal of the game (P5's two-deal game).
    """

    players: tuple[str, ...]
    melds: tuple[MeldPlay, ...] = ()
    layoffs: tuple[LayoffPlay, ...] = ()
    hands: Mapping[str, Sequence[Card]] = field(default_factory=dict)
    went_out: str | None = None
    teams: tuple[tuple[str, ...], ...] | None = None
    deal_number: int = 1


class CardScore(NamedTuple):
    """One card's part in the round: ``points`` it was counted at (positive, for the
    direction see ``why``), ``where`` (``"meld 0"``, ``"layoff 2 onto meld 1"``,
    ``"hand"``), and the rule id behind the figure."""

    card: Card
    owner: str
    where: str
    points: int
    why: str
    rule: str


class Note(NamedTuple):
    """A bonus credited to ``owner``: ``points``, why, and the rule id."""

    owner: str
    points: int
    why: str
    rule: str


@dataclass(slots=True)
class Figures:
    """A player's or side's round: ``shown``, ``in_hand``, ``bonus``, ``round``, ``total``,
    all in points; ``round == shown - in_hand + bonus``."""

    shown: int = 0
    in_hand: int = 0
    bonus: int = 0
    round: int = 0
    total: int = 0

    def as_dict(self) -> dict[str, int]:
        """The scoring contract's shape."""
        return {
            "shown": self.shown,
            "in_hand": self.in_hand,
            "bonus": self.bonus,
            "round": self.round,
            "total": self.total,
        }


class Payment(NamedTuple):
    """G3: ``payer`` owes ``payee`` ``points`` (the difference of final scores)."""

    payer: str
    payee: str
    points: int


@dataclass
class RoundScore:
    """A scored round: figures per player (and per side), every card explained, bonus
    notes, and the game's state after it (winner, game over, settlement)."""

    players: dict[str, Figures]
    sides: dict[str, Figures] | None
    cards: list[CardScore]
    notes: list[Note]
    winner: str | None
    game_over: bool
    settlement: list[Payment]
    outcome: str


# ---- card values ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Values:
    rank: tuple[tuple[int, str, str], ...]  # index 0 joker, 1..13 natural
    ace_low: tuple[int, str, str]
    ace_high: tuple[int, str, str]
    divisor: int


@lru_cache(maxsize=64)
def _values(rules: RuleSet) -> _Values:
    div = 5 if rules.divide_by_five else 1
    suffix = ", divided by five" if div == 5 else ""

    def v(points: int, why: str, rule: str) -> tuple[int, str, str]:
        return (points // div, why + suffix, rule if div == 1 else f"{rule}, S9")

    def low(rank: int) -> tuple[int, str, str]:
        if rules.low_card_points == "pip":
            return v(rank, "pip value", "S4")
        return v(5, "5 for each card 2 to 9", "S4")

    ace = {
        "15-low-1": v(15, "ace", "S1"),
        "15": v(15, "ace, 15 always", "S1"),
        "25": v(25, "ace, 25 always", "S1"),
        "15-high-else-5": v(5, "ace not played high", "S1"),
    }[rules.ace_points]
    ace_low = {
        "15-low-1": v(1, "ace low in A-2-3", "S1"),
        "15-high-else-5": v(5, "ace played low", "S1"),
    }.get(rules.ace_points, ace)
    ace_high = v(15, "ace played high", "S1") if rules.ace_points == "15-high-else-5" else ace
    joker = v(rules.joker_points, "joker", "S5")
    table = [joker, ace] + [low(r) for r in range(2, 10)]
    table += [v(rules.ten_points, "ten", "S3")]
    table += [v(rules.face_points, "face card", "S2")] * 3
    return _Values(tuple(table), ace_low, ace_high, div)


def card_points(card: Card, rules: RuleSet, meld: Meld | None = None) -> tuple[int, str, str]:
    """A card's points in its place: ``(points, why, rule id)``.

    ``meld`` is the meld the card lies in as it stands at the end of the round, or None for
    a card in hand. The ace counts by S1 (1 when low in A-2-3 under the standard count,
    15 when played high under "15-high-else-5"), K Q J by S2, the 10 by S3, 2 to 9 by S4,
    a joker by S5 whatever it stands for, all divided by five under S9. Doubling (P3) and
    four aces (S6) belong to whole melds: see :func:`score_round`.
    """
    return _points(_values(rules), card, meld)


def _points(values: _Values, card: Card, meld: Meld | None) -> tuple[int, str, str]:
    if card.rank == 1 and meld is not None and meld.kind == "run":
        position = meld.low + (1 - _rank_at(meld.low)) % 13
        return values.ace_low if position == 1 else values.ace_high
    return values.rank[card.rank]


def _rank_at(position: int) -> int:
    return (position - 1) % 13 + 1


def hand_points(cards: Sequence[Card], rules: RuleSet) -> int:
    """The points of cards left in a hand (S1 to S5, S9): what counts against the holder."""
    table = _values(rules).rank
    return sum(table[c.rank][0] for c in cards)


# ---- checking a round ----------------------------------------------------------------


def unit_of(play: RoundPlay) -> dict[str, str]:
    """Each player's scoring unit: their own name, or their side's (P1) ``"Ann & Cat"``."""
    if not play.teams:
        return {p: p for p in play.players}
    return {p: " & ".join(team) for team in play.teams for p in team}


def _check_players(rules: RuleSet, play: RoundPlay) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    n = len(play.players)
    if not 2 <= n <= rules.max_players:
        problems.append(("players", f"a game has 2 to {rules.max_players} players, not {n}"))
    if len(set(play.players)) != n:
        problems.append(("players", "each player needs a different name"))
    if rules.partnership:
        if n != 4:
            problems.append(("players", "partnership play is for 4 players in two sides (P1)"))
        teams = play.teams or ()
        members = sorted(p for team in teams for p in team)
        if len(teams) != 2 or any(len(t) != 2 for t in teams):
            problems.append(("teams", "partnership rules need two sides of two players (P1)"))
        elif members != sorted(play.players):
            problems.append(("teams", "each player must be in exactly one side (P1)"))
    elif play.teams:
        problems.append(("teams", "sides are only for partnership rules (P1)"))
    return problems


def _check_cards(rules: RuleSet, play: RoundPlay) -> list[tuple[str, str]]:
    packs = rules.packs_for(len(play.players))
    limit_jokers = rules.jokers * packs
    problems: list[tuple[str, str]] = []
    everything = [c for meld in play.melds for c in meld.cards]
    everything += [layoff.card for layoff in play.layoffs]
    everything += [c for hand in play.hands.values() for c in hand]
    counts = Counter(everything)
    jokers = sum(n for card, n in counts.items() if card.rank == 0)
    declared_in_hand = any(c.stands_for for hand in play.hands.values() for c in hand)
    if (
        jokers <= limit_jokers
        and max(counts.values(), default=0) <= packs
        and not (declared_in_hand)
    ):
        return problems
    seen: Counter[Card] = Counter()

    def count(card: Card, where: str) -> None:
        physical = card.physical
        seen[physical] += 1
        limit = limit_jokers if physical.is_joker else packs
        if seen[physical] > limit:
            if physical.is_joker:
                message = (
                    f"there are only {limit} jokers in the pack"
                    if limit
                    else ("these rules play without jokers (D2)")
                )
            else:
                copies = "a single pack has one" if packs == 1 else f"{packs} packs have {packs}"
                message = f"{physical.display} appears more often than the pack allows: {copies}"
            problems.append((where, message))

    for i, meld in enumerate(play.melds):
        for j, card in enumerate(meld.cards):
            count(card, f"melds[{i}].cards[{j}]")
    for i, layoff in enumerate(play.layoffs):
        count(layoff.card, f"layoffs[{i}].card")
    for player in play.players:
        for j, card in enumerate(play.hands.get(player, ())):
            if card.stands_for is not None:
                problems.append((f"hands.{player}[{j}]", "in a hand a joker is just JK"))
            count(card, f"hands.{player}[{j}]")
    return problems


def build_table(
    rules: RuleSet, play: RoundPlay, broken: frozenset[int] = frozenset()
) -> tuple[list[Meld | None], list[Meld | None], list[tuple[str, str]]]:
    """The melds as laid and as they end the round, after every lay-off in order.

    Returns ``(as laid, as they stand, problems)``; a meld that is not legal, or listed in
    ``broken``, is None and the lay-offs onto it are not checked. Applies M1 to M5, P2, L1,
    L3 and L4 (partners laying off on each other's melds).
    """
    problems: list[tuple[str, str]] = []
    laid: list[Meld | None] = []
    unit = unit_of(play)
    for i, meld_play in enumerate(play.melds):
        meld: Meld | None = None
        if meld_play.owner not in unit:
            problems.append((f"melds[{i}].owner", f"{meld_play.owner!r} is not a player"))
        if i not in broken:
            try:
                meld = check_meld(meld_play.cards, rules)
            except IllegalMeld as problem:
                problems.append((f"melds[{i}]", problem.message))
        laid.append(meld)
    table = list(laid)
    for i, layoff in enumerate(play.layoffs):
        where = f"layoffs[{i}]"
        if layoff.owner not in unit:
            problems.append((f"{where}.owner", f"{layoff.owner!r} is not a player"))
        if not 0 <= layoff.meld < len(table):
            problems.append((f"{where}.meld", f"there is no meld {layoff.meld} on the table"))
            continue
        target = table[layoff.meld]
        if target is None:
            continue
        owner = play.melds[layoff.meld].owner
        if (
            play.teams
            and not rules.partners_lay_off
            and owner != layoff.owner
            and unit.get(owner) == unit.get(layoff.owner)
        ):
            problems.append((where, "partners may not lay off on each other's melds here (L4)"))
            continue
        try:
            table[layoff.meld] = extend(target, layoff.card, rules)
        except IllegalMeld as problem:
            problems.append((where, problem.message))
    return laid, table, problems


def fitting_order(rules: RuleSet, play: RoundPlay) -> tuple[int, ...]:
    """An order of ``play.layoffs`` (their indexes) in which each card fits the meld it
    names as that meld then stands (L1, L3). A table at game night does not note the
    order of lay-offs, so Cat's 6♣ onto 3♣ 4♣ 5♣ may need to come before Bob's 7♣: the
    lay-offs are placed in passes, each as soon as it fits, keeping their given order
    where it works. Lay-offs that never fit (or name an illegal meld) come last, in their
    order, for :func:`check_round` to report."""
    table: list[Meld | None] = []
    for meld_play in play.melds:
        try:
            table.append(check_meld(meld_play.cards, rules))
        except IllegalMeld:
            table.append(None)
    pending = list(range(len(play.layoffs)))
    order: list[int] = []
    placed = True
    while pending and placed:
        placed = False
        for index in list(pending):
            layoff = play.layoffs[index]
            target = table[layoff.meld] if 0 <= layoff.meld < len(table) else None
            if target is None:
                continue
            try:
                table[layoff.meld] = extend(target, layoff.card, rules)
            except IllegalMeld:
                continue
            order.append(index)
            pending.remove(index)
            placed = True
    return tuple(order + pending)


def check_round(
    rules: RuleSet, play: RoundPlay, broken: frozenset[int] = frozenset()
) -> list[tuple[str, str]]:
    """Every problem with ``play`` under ``rules``: players and sides (D1, P1), cards the
    pack cannot hold (D2), illegal melds and lay-offs (M1 to M5, L1 to L4, P2), the hands
    and who went out (O1, O3). An empty list means the round can be scored. ``broken``
    lists meld indexes already known to be unreadable (not checked again)."""
    return _check(rules, play, broken)[0]


def _check(
    rules: RuleSet, play: RoundPlay, broken: frozenset[int]
) -> tuple[list[tuple[str, str]], list[Meld | None], list[Meld | None]]:
    problems = _check_players(rules, play)
    problems += _check_cards(rules, play)
    laid, table, meld_problems = build_table(rules, play, broken)
    problems += meld_problems
    for name in play.hands:
        if name not in play.players:
            problems.append((f"hands.{name}", f"{name!r} is not a player"))
    for player in play.players:
        if player not in play.hands:
            problems.append(("hands", f"no hand is given for {player} (use [] for none)"))
    if play.went_out is not None:
        if play.went_out not in play.players:
            problems.append(("went_out", f"{play.went_out!r} is not a player"))
        elif play.hands.get(play.went_out):
            problems.append(
                ("went_out", f"{play.went_out} went out, so their hand must be empty (O1)")
            )
    elif rules.stock_exhausted in ("reshuffle", "play-on"):
        problems.append(
            ("went_out", "under these rules a round ends only when someone goes out (O3)")
        )
    return problems, laid, table


# ---- scoring a round -----------------------------------------------------------------


_row = tuple.__new__  # builds a NamedTuple row without its Python-level constructor


@lru_cache(maxsize=4096)
def _meld_points(
    cards: tuple[Card, ...], as_laid: Meld, final: Meld, rules: RuleSet
) -> tuple[tuple[int, str, str], ...]:
    """``(points, why, rule)`` for each of ``cards`` (a meld as listed), given the meld as
    laid and as it ends the round: S1 to S5 and S9 per card, S6 four aces, P3 a meld of
    four laid at once."""
    values = _values(rules)
    four = len(cards) == 4
    if rules.four_aces_100 and four and as_laid.kind == "set" and as_laid.rank == 1:
        return ((25 // values.divisor, "four aces melded at once: 100", "S6"),) * 4
    points = [_points(values, card, final) for card in cards]
    if rules.meld_of_four_doubles and four:
        points = [
            (2 * p, f"{why}, doubled: meld of four laid at once", f"{rule}, P3")
            for p, why, rule in points
        ]
    return tuple(points)


def _meld_cards(
    rules: RuleSet, play: RoundPlay, laid: list[Meld], table: list[Meld]
) -> list[CardScore]:
    rows: list[CardScore] = []
    values = _values(rules)
    for i, (meld_play, as_laid, final) in enumerate(zip(play.melds, laid, table, strict=True)):
        owner, where, cards = meld_play.owner, f"meld {i}", meld_play.cards
        counted = _meld_points(cards, as_laid, final, rules)
        for card, (p, why, rule) in zip(cards, counted, strict=True):
            rows.append(_row(CardScore, (card, owner, where, p, why, rule)))
    for i, layoff in enumerate(play.layoffs):
        points, why, rule = _points(values, layoff.card, table[layoff.meld])
        where = f"layoff {i} onto meld {layoff.meld}"
        rows.append(_row(CardScore, (layoff.card, layoff.owner, where, points, why, rule)))
    return rows


def _hand_cards(
    rules: RuleSet, play: RoundPlay, figures: dict[str, Figures], notes: list[Note]
) -> list[CardScore]:
    unit = unit_of(play)
    table = _values(rules).rank
    rows: list[CardScore] = []
    credited: dict[str, int] = {}
    units = list(dict.fromkeys(unit.values()))
    nobody_deducts = play.went_out is None and rules.stock_exhausted == "nobody-deducts"
    for player in play.players:
        taker = s8_taker(play, unit, units, player) if rules.add_opponents_hand else None
        for card in play.hands.get(player, ()):
            points, why, rule = table[card.rank]
            if not rules.add_opponents_hand and nobody_deducts:
                rows.append(
                    CardScore(
                        card,
                        player,
                        "hand",
                        0,
                        "not counted: nobody deducts when the stock runs out",
                        "O3",
                    )
                )
            elif not rules.add_opponents_hand:
                figures[player].in_hand += points
                rows.append(
                    CardScore(
                        card,
                        player,
                        "hand",
                        points,
                        f"{why}, left in hand: counts against {player}",
                        f"{rule}, S7",
                    )
                )
            elif taker is None:
                rows.append(
                    CardScore(card, player, "hand", 0, "not counted (add opponents' hands)", "S8")
                )
            else:
                credited[taker] = credited.get(taker, 0) + points
                rows.append(
                    CardScore(
                        card,
                        player,
                        "hand",
                        points,
                        f"{why}, left in hand: added to {taker}'s score",
                        f"{rule}, S8",
                    )
                )
    for taker, points in credited.items():
        notes.append(Note(taker, points, "opponents' hands left (add opponents' hands)", "S8"))
    return rows


def s8_taker(play: RoundPlay, unit: dict[str, str], units: list[str], holder: str) -> str | None:
    """Who gains ``holder``'s hand under S8 (seeds 000, 002), or None when nobody does:
    the player who went out takes every opponent's hand; with nobody out, two players or
    two sides each take the other's (credited to the side's first player); with more,
    no hand counts. ``unit`` is :func:`unit_of`, ``units`` its distinct values in order."""
    goer = play.went_out
    if goer is not None:
        return goer if unit[holder] != unit[goer] else None
    if len(units) != 2:
        return None
    other = units[1] if unit[holder] == units[0] else units[0]
    return next(p for p in play.players if unit[p] == other)


def _bonuses(rules: RuleSet, play: RoundPlay, laid: list[Meld], notes: list[Note]) -> None:
    goer = play.went_out
    div = _values(rules).divisor
    if goer is None:
        return
    if rules.going_out_bonus:
        notes.append(Note(goer, rules.going_out_bonus // div, "going out", "P4"))
    if rules.seven_card_straight and any(
        m.owner == goer and meld.kind == "run" and len(meld.cards) == 7
        for m, meld in zip(play.melds, laid, strict=True)
    ):
        notes.append(
            Note(
                goer,
                500 // div,
                "a seven-card run laid down and went out (Rummy Master's Hand)",
                "S10",
            )
        )


def score_round(
    rules: RuleSet, play: RoundPlay, totals_before: Mapping[str, int] | None = None
) -> RoundScore:
    """Score one round under ``rules``; ``totals_before`` are the running totals (points)
    per player before it (0 when absent).

    Checks the round first (:func:`check_round`) and raises :class:`RoundError` listing
    every problem. Then: shown per S1 to S6, P3; in hand per S7, S8, O3; bonuses per P4,
    S10, S8, P5; totals; sides summed (P1); winner by G1, G2, G4, P5; settlement G3.
    """
    problems, laid_or_none, table_or_none = _check(rules, play, frozenset())
    if problems:
        raise RoundError(problems)
    laid = [m for m in laid_or_none if m is not None]
    table = [m for m in table_or_none if m is not None]
    figures = {p: Figures() for p in play.players}
    notes: list[Note] = []
    cards = _meld_cards(rules, play, laid, table)
    for row in cards:
        figures[row.owner].shown += row.points
    cards += _hand_cards(rules, play, figures, notes)
    _bonuses(rules, play, laid, notes)
    return close_round(rules, play, figures, notes, totals_before, cards)


def close_round(
    rules: RuleSet,
    play: RoundPlay,
    figures: dict[str, Figures],
    notes: list[Note],
    totals_before: Mapping[str, int] | None,
    cards: list[CardScore],
) -> RoundScore:
    """Finish a round whose ``shown`` and ``in_hand`` are counted: credit each note's
    bonus, ``round = shown - in_hand + bonus`` (S7), the new totals, the sides (P1), and
    the game's state after it (:func:`decide_game`)."""
    for note in notes:
        figures[note.owner].bonus += note.points
    before = totals_before or {}
    for player, fig in figures.items():
        fig.round = fig.shown - fig.in_hand + fig.bonus
        fig.total = before.get(player, 0) + fig.round
    result = decide_game(rules, play, figures, notes)
    return RoundScore(figures, side_figures(play, figures), cards, notes, *result)


def side_figures(play: RoundPlay, figures: dict[str, Figures]) -> dict[str, Figures] | None:
    """Per side (P1), the sums of its players' figures, keyed ``"Ann & Cat"``; None
    without sides."""
    if not play.teams:
        return None
    sides: dict[str, Figures] = {}
    for team in play.teams:
        side = Figures()
        for p in team:
            f = figures[p]
            side.shown += f.shown
            side.in_hand += f.in_hand
            side.bonus += f.bonus
            side.round += f.round
            side.total += f.total
        sides[" & ".join(team)] = side
    return sides


# ---- the game ------------------------------------------------------------------------


def unit_totals(play: RoundPlay, totals: Mapping[str, int]) -> dict[str, int]:
    """Running totals per scoring unit: each player, or each side (P1) as the sum of its
    players' totals, keyed ``"Ann & Cat"``."""
    if not play.teams:
        return {p: totals.get(p, 0) for p in play.players}
    return {" & ".join(t): sum(totals.get(p, 0) for p in t) for t in play.teams}


def decide_game(
    rules: RuleSet, play: RoundPlay, figures: dict[str, Figures], notes: list[Note]
) -> tuple[str | None, bool, list[Payment], str]:
    """After a round: ``(winner, game over, settlement, outcome in words)``.

    G1 the target; G2 two or more reach it on the same round: highest, or the player who
    went out; G4 for sides: first to the target (then G2), or highest over it; P5 the
    two-deal game ends after deal 2 and the better side gets 50 (credited to its first
    player, so that sides stay the sums of their players). A tie at the top with nobody
    to break it plays on. Mutates ``figures`` and ``notes`` for P5's bonus.
    """
    unit = unit_of(play)
    totals = unit_totals(play, {p: f.total for p, f in figures.items()})
    goer_unit = unit.get(play.went_out) if play.went_out else None
    if rules.two_deal_game:
        if play.deal_number < 2:
            return None, False, [], f"deal {play.deal_number} of 2"
        best = max(totals.values())
        leaders = [u for u, t in totals.items() if t == best]
        if len(leaders) > 1:
            return None, True, [], "the game ends after two deals, tied: nobody wins"
        winner = leaders[0]
        bonus = 50 // _values(rules).divisor
        first = next(p for p in play.players if unit[p] == winner)
        notes.append(Note(first, bonus, "the better score after two deals", "P5"))
        fig = figures[first]
        fig.bonus += bonus
        fig.round += bonus
        fig.total += bonus
        totals[winner] += bonus
        return winner, True, settle(totals, winner), f"{winner} wins after two deals"
    reached = {u: t for u, t in totals.items() if t >= rules.target}
    if not reached:
        return None, False, [], "no one has reached the target"
    went_out_wins = rules.tie_break == "went-out"
    if play.teams:
        went_out_wins = rules.partnership_winner == "first-to-target" and went_out_wins
    if went_out_wins and goer_unit in reached:
        winner = goer_unit
        why = "went out" if len(reached) > 1 else "reached the target"
    else:
        best = max(reached.values())
        leaders = [u for u, t in reached.items() if t == best]
        if len(leaders) > 1:
            if goer_unit in leaders:
                leaders = [goer_unit]
            else:
                return None, False, [], "tied at the top: play another round"
        winner = leaders[0]
        why = "highest score" if len(reached) > 1 else "reached the target"
    return winner, True, settle(totals, winner), f"{winner} wins ({why})"


def settle(totals: Mapping[str, int], winner: str, stake: int = 1) -> list[Payment]:
    """G3: each loser pays the winner the difference of their final scores, times
    ``stake`` (points, or money per point). ``totals`` per player or side."""
    return [
        Payment(unit, winner, (totals[winner] - total) * stake)
        for unit, total in totals.items()
        if unit != winner
    ]
