"""What the group's pages show beside the figures: players' names by id, a profile's
points per game as a small inline SVG chart (drawn on the server, no script), and a
season as CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from markupsafe import Markup

from ..models import Group
from ..web import spreadsheet_cell
from .figures import LeagueRow

WIDTH, HEIGHT, PAD = 320, 120, 8
"""What a spreadsheet cell may not start with, lest it run as a formula (as the table's
CSV guards its cells)."""


def names(group: Group) -> dict[int, str]:
    """The group's players' names by member id."""
    return {m.id: m.name for m in group.members}


@dataclass(frozen=True)
class Chart:
    """A line chart of points per game: ``points`` the polyline ("x,y x,y"), ``marks``
    each game's dot as SVG (a circle titled with its date and points), ``values`` each
    game's points, oldest first, ``zero`` the y of 0 points (None when off the chart),
    ``high`` and ``low`` the extreme values shown on the axis."""

    points: str
    marks: Markup
    values: list[int]
    zero: float | None
    high: int
    low: int
    width: int = WIDTH
    height: int = HEIGHT


def chart(series: Sequence[tuple[datetime, int]]) -> Chart | None:
    """The chart of ``series`` (when, points), oldest first; None with fewer than two.
    Drawn here in one pass (numbers and dates only, nothing to escape), not by a loop
    in the template."""
    if len(series) < 2:
        return None
    values = [v for _, v in series]
    high, low = max(values), min(values)
    span = (high - low) or 1
    step = (WIDTH - 2 * PAD) / (len(series) - 1)

    def y(value: int) -> float:
        return round(HEIGHT - PAD - (value - low) * (HEIGHT - 2 * PAD) / span, 1)

    heights = {v: str(y(v)) for v in set(values)}
    spots = [(str(round(PAD + i * step, 1)), heights[v]) for i, v in enumerate(values)]
    marks = "".join(
        f'<circle cx="{x}" cy="{yy}" r="3" class="dot"><title>{when.date().isoformat()}: '
        f"{v}</title></circle>"
        for (x, yy), (when, v) in zip(spots, series, strict=True)
    )
    zero = y(0) if low <= 0 <= high else None
    polyline = " ".join(f"{x},{yy}" for x, yy in spots)
    return Chart(polyline, Markup(marks), values, zero, high, low)


def season_csv(rows: Sequence[LeagueRow], names: Mapping[int, str]) -> str:
    """The league table as CSV: place, player, played, won, points, settlement (points)
    and money (empty without a stake)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["place", "player", "played", "won", "points", "settlement", "money"])
    for place, row in enumerate(rows, start=1):
        money = "" if row.money is None else f"{row.money:.2f}"
        writer.writerow(
            [
                place,
                spreadsheet_cell(names.get(row.member, "?")),
                row.played,
                row.won,
                row.points,
                f"{row.settlement.normalize():f}",
                money,
            ]
        )
    return out.getvalue()
