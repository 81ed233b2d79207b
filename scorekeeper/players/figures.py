"""A group's figures, computed on every request from its stored games (never kept
anywhere, so they cannot drift): a player's profile, two players head to head, and a
season's league table. Plain Python over :class:`GameFacts`, which
:mod:`.history` builds from the games that count (not deleted, not archived).

Glossary (points are the game's points, money the stake's currency):
- played: a finished game (one with a result) the player sat in; a game still being
  played counts toward round figures only.
- round score: what a round added to the player's own total (S7, the contract's
  ``round``); points left in hand: the contract's ``in_hand``, counted over the rounds
  the player did not go out.
- unit: who scores: a player, or a side of two partners (P1); a side's win is a win for
  both partners.
- settlement: G3, each loser pays the winner the difference of final scores; a side's
  share is split evenly between its partners; money is that times the game's stake.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Literal

Kind = Literal["table", "digital"]


@dataclass(frozen=True)
class RoundFacts:
    """One live round, by member id: ``points`` (round score), ``in_hand``, and the member
    who went out (None when the stock ran out or a guest went out)."""

    points: Mapping[int, int]
    in_hand: Mapping[int, int]
    went_out: int | None


@dataclass(frozen=True)
class GameFacts:
    """One game that counts, by member id (guests and bots left out). ``unit`` names each
    member's unit; ``score`` is each member's unit total at the end, ``own`` the member's
    own total; ``settlement`` the G3 points each member gains (negative: pays), ``money``
    the same times the stake (empty without a stake). ``winners`` is empty until the game
    is over (or when it ended tied)."""

    key: str
    kind: Kind
    when: datetime
    title: str
    finished: bool
    unit: Mapping[int, str]
    score: Mapping[int, int]
    own: Mapping[int, int]
    winners: frozenset[int]
    settlement: Mapping[int, Decimal]
    money: Mapping[int, Decimal]
    rounds: Sequence[RoundFacts]

    @property
    def members(self) -> Sequence[int]:
        """The members who sat in this game."""
        return list(self.unit)

    def partners(self, member: int) -> list[int]:
        """The other members of ``member``'s side (none outside partnership play)."""
        side = self.unit[member]
        return [m for m, u in self.unit.items() if u == side and m != member]


@dataclass
class Profile:
    """A player's figures over some games (one kind: table or digital).

    ``win_rate`` won / played; ``average_round`` mean round score; ``best_round`` the
    highest round score; ``go_out_rate`` rounds gone out / rounds; ``average_left`` mean
    points left in hand over the rounds not gone out; ``streak`` the longest run of
    games won in a row; ``series`` the player's own final total per finished game,
    oldest first; ``partners`` (member id, games together, wins together), most first.
    Rates and averages are None with nothing to count."""

    played: int = 0
    in_play: int = 0
    won: int = 0
    rounds: int = 0
    went_out: int = 0
    win_rate: float | None = None
    average_round: float | None = None
    best_round: int | None = None
    go_out_rate: float | None = None
    average_left: float | None = None
    streak: int = 0
    series: list[tuple[datetime, int]] = field(default_factory=list)
    partners: list[tuple[int, int, int]] = field(default_factory=list)


def _ratio(part: float, whole: int) -> float | None:
    return part / whole if whole else None


def _longest_streak(results: Iterable[bool]) -> int:
    best = run = 0
    for won in results:
        run = run + 1 if won else 0
        best = max(best, run)
    return best


@dataclass(frozen=True)
class RoundTally:
    """A player's round figures summed over some rounds: ``rounds`` counted, ``went_out``
    of them gone out, ``points`` the round scores summed and ``best`` the highest (None
    with no round), ``left`` the points left in hand summed over the ``left_rounds``
    rounds not gone out."""

    rounds: int = 0
    went_out: int = 0
    points: int = 0
    best: int | None = None
    left: int = 0
    left_rounds: int = 0

    def __add__(self, other: RoundTally) -> RoundTally:
        bests = [b for b in (self.best, other.best) if b is not None]
        return RoundTally(
            self.rounds + other.rounds,
            self.went_out + other.went_out,
            self.points + other.points,
            max(bests) if bests else None,
            self.left + other.left,
            self.left_rounds + other.left_rounds,
        )


def tally(member: int, rounds: Iterable[RoundFacts]) -> RoundTally:
    """``member``'s :class:`RoundTally` over the ``rounds`` they scored in."""
    mine = [r for r in rounds if member in r.points]
    points = [r.points[member] for r in mine]
    left = [r.in_hand.get(member, 0) for r in mine if r.went_out != member]
    return RoundTally(
        rounds=len(mine),
        went_out=sum(r.went_out == member for r in mine),
        points=sum(points),
        best=max(points) if points else None,
        left=sum(left),
        left_rounds=len(left),
    )


def profile(member: int, games: Iterable[GameFacts], counted: RoundTally | None = None) -> Profile:
    """``member``'s figures over ``games`` (in any order; taken oldest first). The round
    figures come from the games' rounds, plus ``counted``: rounds already tallied (by
    the database) that the games do not carry."""
    mine = sorted((g for g in games if member in g.unit), key=lambda g: g.when)
    done = [g for g in mine if g.finished]
    result = Profile(played=len(done), in_play=len(mine) - len(done))
    result.won = sum(member in g.winners for g in done)
    result.win_rate = _ratio(result.won, result.played)
    result.streak = _longest_streak(member in g.winners for g in done)
    result.series = [(g.when, g.own[member]) for g in done]
    _round_figures(
        result, tally(member, [r for g in mine for r in g.rounds]) + (counted or RoundTally())
    )
    partners: Counter[int] = Counter()
    shared_wins: Counter[int] = Counter()
    for game in done:
        for other in game.partners(member):
            partners[other] += 1
            shared_wins[other] += member in game.winners
    result.partners = [(m, n, shared_wins[m]) for m, n in partners.most_common()]
    return result


def _round_figures(result: Profile, rounds: RoundTally) -> None:
    """Fill the round figures of ``result`` from a player's tallied ``rounds``."""
    result.rounds = rounds.rounds
    result.went_out = rounds.went_out
    result.average_round = _ratio(rounds.points, rounds.rounds)
    result.best_round = rounds.best
    result.go_out_rate = _ratio(rounds.went_out, rounds.rounds)
    result.average_left = _ratio(rounds.left, rounds.left_rounds)


@dataclass
class HeadToHead:
    """Two players' finished games together: ``games``, ``wins`` of each, and ``margin``,
    the mean of A's unit total minus B's over the games they played on different sides
    (None when there were none); ``together`` lists the games, newest first."""

    games: int
    wins: tuple[int, int]
    margin: float | None
    together: list[GameFacts]


def head_to_head(a: int, b: int, games: Iterable[GameFacts]) -> HeadToHead:
    """Members ``a`` and ``b`` over the finished ``games`` both sat in."""
    both = [g for g in games if g.finished and a in g.unit and b in g.unit]
    both.sort(key=lambda g: g.when, reverse=True)
    opposed = [g.score[a] - g.score[b] for g in both if g.unit[a] != g.unit[b]]
    return HeadToHead(
        games=len(both),
        wins=(sum(a in g.winners for g in both), sum(b in g.winners for g in both)),
        margin=_ratio(sum(opposed), len(opposed)),
        together=both,
    )


@dataclass
class LeagueRow:
    """One player's season: finished games ``played`` and ``won``, ``points`` (own final
    totals summed), ``settlement`` (G3 points gained, negative when paid) and ``money``
    (the settlement at each game's stake, None when no game had a stake)."""

    member: int
    played: int = 0
    won: int = 0
    points: int = 0
    settlement: Decimal = Decimal(0)
    money: Decimal | None = None


def league(
    games: Iterable[GameFacts], start: datetime | None = None, end: datetime | None = None
) -> list[LeagueRow]:
    """The league table of the finished games played from ``start`` to before ``end``
    (either open): most wins first, then most points, then the settlement."""
    rows: dict[int, LeagueRow] = {}
    for game in games:
        if not game.finished or (start and game.when < start) or (end and game.when >= end):
            continue
        for member in game.unit:
            row = rows.setdefault(member, LeagueRow(member))
            row.played += 1
            row.won += member in game.winners
            row.points += game.own[member]
            row.settlement += game.settlement.get(member, Decimal(0))
            if member in game.money:
                row.money = (row.money or Decimal(0)) + game.money[member]
    return sorted(rows.values(), key=lambda r: (-r.won, -r.points, -r.settlement, r.member))


def settlement_shares(
    unit: Mapping[int, str], sizes: Mapping[str, int], payments: Iterable[tuple[str, str, int]]
) -> dict[int, Decimal]:
    """Each member's share of G3 ``payments`` (payer unit, payee unit, points): a unit's
    net split evenly among its ``sizes[unit]`` players (guests keep their own shares)."""
    net: Counter[str] = Counter()
    for payer, payee, points in payments:
        net[payer] -= points
        net[payee] += points
    return {m: Decimal(net[u]) / sizes[u] for m, u in unit.items()}
