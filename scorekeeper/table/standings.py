"""What the game page shows: standings toward the target, the chart's running totals,
who deals next, the winner and the settlement, and the house rules in plain words.
Read-only: built from the rounds' stored figures, nothing is recomputed or committed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ..engine.rules import OPTIONS
from ..engine.scoring import settle
from ..engine.tally import next_dealer
from ..models import Game
from .services import live_rounds, names_of, rules_of, teams_of


@dataclass
class Standing:
    """One scoring unit (a player, or a side under P1): ``total`` points, ``needed`` to
    reach the target (0 when reached), ``progress`` 0.0 to 1.0 toward it."""

    name: str
    total: int
    needed: int
    progress: float


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

    @property
    def winners_verb(self) -> str:
        """ "win" for a side (its players joined by " & "), "wins" for a player."""
        return "win" if self.winner and " & " in self.winner else "wins"


def standings(game: Game) -> Standings:
    """The standings after the game's live rounds (from the stored figures)."""
    rules, rounds = rules_of(game), live_rounds(game)
    teams = teams_of(game)
    units = [" & ".join(t) for t in teams] if teams else names_of(game)
    key = "sides" if teams else "players"
    series = {u: [0] for u in units}
    for r in rounds:
        for u in units:
            series[u].append(r.figures[key][u]["total"])
    totals = {u: values[-1] for u, values in series.items()}
    target = rules.target
    rows = [
        Standing(u, t, max(target - t, 0), min(max(t, 0) / target, 1.0))
        for u, t in sorted(totals.items(), key=lambda item: -item[1])
    ]
    seat = next_dealer(
        rules, names_of(game), game.first_dealer, [r.input.get("went_out") for r in rounds]
    )
    settlement: list[tuple[str, str, int, Decimal | None]] = []
    if game.winner:
        stake = Decimal(game.stake) if game.stake else None
        for pay in settle(totals, game.winner):
            money = pay.points * stake if stake is not None else None
            settlement.append((pay.payer, pay.payee, pay.points, money))
    deals = 2 if rules.two_deal_game else None
    return Standings(
        rows,
        series,
        names_of(game)[seat],
        game.winner,
        settlement,
        target,
        deals,
        _end_bonus(rounds[-1].figures, units, teams) if rounds and game.winner else {},
    )


def _end_bonus(
    figures: dict[str, Any], units: list[str], teams: tuple[tuple[str, ...], ...] | None
) -> dict[str, int]:
    """The P5 bonus in a round's figures per unit (a note's owner is a player)."""
    side = {name: " & ".join(team) for team in teams or () for name in team}
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
                "title": info.title,
                "value": info.label(value),
                "preset": info.label(preset_value),
            }
        )
    return rows
