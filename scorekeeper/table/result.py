"""A finished game's result to share in a group chat: a short text (the game, the winner,
the final totals, the rounds, the date) and a picture of the final standings, an SVG made
here. Both read the game's standings (:mod:`.standings`); Persian rummy and partnership
games (P1) are told by sides, the two-deal game (P5) counts deals."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from markupsafe import escape

from ..engine import PRESET_TITLES
from ..models import Game
from .standings import Standings

ROW = 56
"""The height of one unit's row in the picture, in SVG units."""


@dataclass(frozen=True)
class Result:
    """A finished game as shared: ``title`` (the game's name, or the players' or sides'
    names), ``winner_line`` ("Ann wins"), ``totals`` (unit, points) highest first,
    ``rounds`` the rounds (deals in the two-deal game) played, ``day`` the date the game
    ended (``YYYY-MM-DD``) and ``rules`` the preset's title."""

    title: str
    winner_line: str
    totals: list[tuple[str, int]]
    rounds: int
    deals: bool
    day: str
    rules: str

    @property
    def played(self) -> str:
        """``"7 rounds"``, ``"2 deals"`` or ``"1 round"``."""
        word = "deal" if self.deals else "round"
        return f"{self.rounds} {word}{'' if self.rounds == 1 else 's'}"

    @property
    def text(self) -> str:
        """The short text to share: two lines, e.g. ``"500 Rum · Friday: Ann wins!"``
        then ``"Ann 510 · Bob 380 · Cat 220 · 7 rounds · 2026-11-26"``."""
        totals = " · ".join(f"{name} {points}" for name, points in self.totals)
        return (
            f"500 Rum ({self.rules}) · {self.title}: {self.winner_line}!\n"
            f"{totals} · {self.played} · {self.day}"
        )


def result_of(game: Game, st: Standings, rounds: int) -> Result | None:
    """The :class:`Result` of ``game`` with standings ``st`` after ``rounds`` live
    rounds; None while nobody has won."""
    if not st.winner:
        return None
    ended = game.finished_at or datetime.now(UTC)
    units = [u.name for u in st.units]
    return Result(
        title=game.title or " · ".join(units),
        winner_line=st.winner_line,
        totals=[(u.name, u.total) for u in st.units],
        rounds=rounds,
        deals=bool(st.deals),
        day=ended.strftime("%Y-%m-%d"),
        rules=PRESET_TITLES.get(game.preset, game.preset),
    )


def picture(result: Result) -> str:
    """The final standings as an SVG picture (600 units wide, light card, dark text):
    the title, the winner, each unit's total as a bar against the best, the rounds and
    the date. Every name is escaped."""
    top = max((p for _, p in result.totals), default=0) or 1
    height = 150 + ROW * len(result.totals)
    rows = []
    for i, (name, points) in enumerate(result.totals):
        y = 118 + i * ROW
        bar = max(0, round(360 * points / top)) if points > 0 else 0
        fill = "#a35f00" if i == 0 else "#5b6b7d"
        rows.append(
            f'<text x="24" y="{y + 20}" class="n">{escape(name)}</text>'
            f'<rect x="24" y="{y + 28}" width="{bar}" height="10" rx="5" fill="{fill}"/>'
            f'<text x="576" y="{y + 20}" class="p">{points}</text>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 {height}" '
        f'width="600" height="{height}" role="img" aria-label="{escape(result.winner_line)}">'
        "<style>text{font-family:system-ui,sans-serif;fill:#141a22}"
        ".t{font-size:18px;fill:#4d5967}.w{font-size:30px;font-weight:800}"
        ".n{font-size:22px;font-weight:600}.p{font-size:24px;font-weight:800;text-anchor:end}"
        ".f{font-size:16px;fill:#4d5967}</style>"
        f'<rect width="600" height="{height}" rx="18" fill="#fbf8f1"/>'
        f'<text x="24" y="40" class="t">500 Rum · {escape(result.rules)} · '
        f"{escape(result.title)}</text>"
        f'<text x="24" y="84" class="w">{escape(result.winner_line)}!</text>'
        + "".join(rows)
        + f'<text x="24" y="{height - 22}" class="f">{result.played} · {result.day}</text>'
        "</svg>"
    )
