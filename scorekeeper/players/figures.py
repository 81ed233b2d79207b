"""A group's figures as the pages show them: a player's profile, two players head to
head, a season's league table. Summed by the database over the stored facts of the
group's games (:mod:`scorekeeper.groups.facts`, read by :mod:`.history`); the shapes here
and the rates derived from the sums.

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

from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from ..groups.facts import Sums

PAGE = 50
"""Games listed per page (a group's games, two players' games)."""


@dataclass
class Profile:
    """A player's figures over some games (one kind: table or digital).

    ``win_rate`` won / played; ``average_round`` mean round score; ``best_round`` the
    highest round score; ``go_out_rate`` rounds gone out / rounds; ``average_left`` mean
    points left in hand over the rounds not gone out; ``streak`` the longest run of
    games won in a row; ``series`` the player's own final total per finished game,
    oldest first (the latest :data:`SERIES` games); ``partners`` (member id, games
    together, wins together), most first. Rates and averages are None with nothing to
    count."""

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


SERIES = 50
"""Finished games a profile's chart shows at most (the latest)."""


def ratio(part: float, whole: int) -> float | None:
    """``part / whole``, or None when there is nothing to count."""
    return part / whole if whole else None


def round_figures(result: Profile, rounds: Sums) -> None:
    """Fill the round figures of ``result`` from a player's summed ``rounds``
    (:class:`~scorekeeper.groups.facts.Sums`)."""
    result.rounds = rounds.rounds
    result.went_out = rounds.went_out
    result.average_round = ratio(rounds.points, rounds.rounds)
    result.best_round = rounds.best
    result.go_out_rate = ratio(rounds.went_out, rounds.rounds)
    result.average_left = ratio(rounds.left, rounds.left_rounds)


@dataclass(frozen=True)
class Together:
    """One finished game of two players: when it started, its ``kind``, each one's unit
    total (``scores``, points) and who won (``won``: A's, B's)."""

    when: datetime
    kind: str
    scores: tuple[int, int]
    won: tuple[bool, bool]


@dataclass
class HeadToHead:
    """Two players' finished games together: ``games``, ``wins`` of each, and ``margin``,
    the mean of A's unit total minus B's over the games they played on different sides
    (None when there were none); ``together`` one page of the games, newest first, and
    ``older`` whether older games follow."""

    games: int
    wins: tuple[int, int]
    margin: float | None
    together: list[Together]
    older: bool = False


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
