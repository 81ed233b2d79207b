"""What the game page shows: standings toward the target, the chart's running totals,
who deals next, the winner and the settlement, and the house rules in plain words.
Read-only: built from the latest rounds' stored summaries (the last round's full figures
only once the game is over), nothing is recomputed or committed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Any

from ..engine import OPTIONS, settle, wins
from ..languages.reader import translate
from ..models import Game, Round
from .sheets import ShownRound, latest_rounds, names_of, rules_of, teams_of


@dataclass
class Standing:
    """One scoring unit (a player, or a side under P1): ``total`` points, ``needed`` to
    reach the target (0 when reached), ``progress`` 0.0 to 1.0 toward it."""

    name: str
    total: int
    needed: int
    progress: float


@dataclass(frozen=True)
class Chart:
    """The running totals as an SVG line chart, ``width`` by ``height`` units: the
    heights of the target's line and of zero's (text, one decimal), and each unit's
    polyline points (``"x,y x,y "``), in the order of :attr:`Standings.series`."""

    width: int
    height: int
    target_y: str
    zero_y: str
    lines: list[str]


CHART_SIZE = (340, 170, 6)
"""The chart's width, height and padding, in SVG units."""


def chart_of(st: Standings) -> Chart:
    """The chart of ``st``'s series: rounds spread evenly across, points scaled between
    the highest and lowest total (the target and 0 always within, the target only when
    the game has one)."""
    w, h, pad = CHART_SIZE
    values = [t for totals in st.series.values() for t in totals]
    values += [0] if st.deals else [st.target, 0]
    hi, lo = max(values), min(values)
    span = (hi - lo) or 1
    n = len(next(iter(st.series.values()), []))
    step = (w - 2 * pad) / ((n - 1) or 1)
    height = h - 2 * pad

    def y(total: int) -> float:
        return pad + height * (hi - total) / span

    xs = [f"{pad + i * step:.1f}," for i in range(n)]
    lines = [
        "".join([f"{x}{y(t):.1f} " for x, t in zip(xs, totals, strict=True)])
        for totals in st.series.values()
    ]
    return Chart(w, h, f"{y(st.target):.1f}", f"{y(0):.1f}", lines)


@dataclass
class Standings:
    """What the game page shows: per unit standings (highest first), the running totals
    per round for the chart (``series``: unit -> totals, first 0), who deals next, the
    winner and the settlement (G3: payer, payee, points, money). ``deals`` is 2 in the
    two-deal game (P5: no target, the game ends after deal 2), else None; ``end_bonus``
    the P5 bonus per unit (the better side's 50) once the game is over, else empty."""

    units: list[Standing]
    series: dict[str, list[int]]
    dealer: str
    winner: str | None
    settlement: list[tuple[str, str, int, Decimal | None]]
    target: int
    deals: int | None = None
    end_bonus: dict[str, int] = field(default_factory=dict)

    @cached_property
    def chart(self) -> Chart:
        """The chart of :attr:`series` (:func:`chart_of`)."""
        return chart_of(self)

    @property
    def winner_line(self) -> str:
        """``"Ann wins"`` or ``"Ann & Cat win"`` (:func:`scorekeeper.engine.scoring.outcome.wins`),
        or ``""`` while nobody has won."""
        return wins(self.winner) if self.winner else ""

    @property
    def winner_said(self) -> str:
        """:attr:`winner_line` in the request's language (``""`` while nobody has won)."""
        return str(translate(self.winner_line))


def standings(game: Game, rounds: Sequence[Round | ShownRound] | None = None) -> Standings:
    """The standings after the game's live rounds, from the summaries of ``rounds`` (the
    latest live rounds, oldest first, the game's last among them; all when None): the
    chart's series run over these rounds, from the totals before the first of them."""
    rounds = latest_rounds(game, None) if rounds is None else rounds
    last = rounds[-1].figures if rounds and game.winner else None
    return from_summaries(game, [r.totals for r in rounds], last)


def from_summaries(
    game: Game, summaries: list[dict[str, Any]], last: dict[str, Any] | None = None
) -> Standings:
    """:func:`standings` from the rounds' summaries (:attr:`Round.summary`, oldest first)
    and, once the game is over, the last round's figures ``last`` (its P5 end bonus)."""
    rules, teams = rules_of(game), teams_of(game)
    units = [" & ".join(t) for t in teams] if teams else names_of(game)
    series = _series(units, summaries)
    totals = {u: values[-1] for u, values in series.items()}
    target = rules.target
    rows = [
        Standing(u, t, max(target - t, 0), min(max(t, 0) / target, 1.0))
        for u, t in sorted(totals.items(), key=lambda item: -item[1])
    ]
    seat = summaries[-1]["dealer"] if summaries else game.first_dealer
    return Standings(
        rows,
        series,
        names_of(game)[seat],
        game.winner,
        _settlement(game, totals),
        target,
        2 if rules.two_deal_game else None,
        _end_bonus(last, units, teams) if last is not None and game.winner else {},
    )


def _series(units: Sequence[str], summaries: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Each unit's running total in points before the first of ``summaries`` and after
    each of them (the chart's series)."""
    first = summaries[0] if summaries else None
    series = {u: [first["total"][u] - first["round"][u] if first else 0] for u in units}
    for summary in summaries:
        for u in units:
            series[u].append(summary["total"][u])
    return series


def _settlement(
    game: Game, totals: Mapping[str, int]
) -> list[tuple[str, str, int, Decimal | None]]:
    """Once the game is won, who pays whom (G3): ``(payer, payee, points, money at the
    game's stake or None)``; empty before."""
    if not game.winner:
        return []
    stake = Decimal(game.stake) if game.stake else None
    return [
        (pay.payer, pay.payee, pay.points, pay.points * stake if stake is not None else None)
        for pay in settle(totals, game.winner)
    ]


def sides_of(teams: Sequence[Sequence[str]] | None) -> dict[str, str]:
    """Each player's side as the standings name it under P1 (``"Ann & Cat"``); empty
    without sides (a player is then their own unit)."""
    return {name: " & ".join(team) for team in teams or () for name in team}


def _end_bonus(
    figures: dict[str, Any], units: list[str], teams: tuple[tuple[str, ...], ...] | None
) -> dict[str, int]:
    """The P5 bonus in a round's figures per unit (a note's owner is a player)."""
    side = sides_of(teams)
    bonus = dict.fromkeys(units, 0)
    for note in figures.get("notes") or []:
        if note.get("rule") == "P5":
            unit = side.get(note["owner"], note["owner"])
            bonus[unit] = bonus.get(unit, 0) + note["points"]
    return bonus if any(bonus.values()) else {}


def house_rules(game: Game) -> list[dict[str, str]]:
    """The game's house rules in plain words: each option changed from the preset, with
    its catalogue id, title, the chosen label and the preset's label."""
    rows = []
    for name, preset_value, value in rules_of(game).differences(game.preset):
        info = OPTIONS[name]
        rows.append(
            {
                "id": info.id,
                "title": translate(info.title),
                "value": translate(info.label(value)),
                "preset": translate(info.label(preset_value)),
            }
        )
    return rows
