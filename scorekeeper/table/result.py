"""A finished game's result to share in a group chat: a short text (the game, the winner,
the final totals, the rounds, the last round's full change with its bonuses, who pays
whom, the date) and a picture of the same, an SVG made here. Both read the game's
standings (:mod:`.standings`); Persian rummy and partnership games (P1) are told by
sides, the two-deal game (P5) counts deals. The TV (:mod:`.tv`) shows the last round
and the settlement with the same helpers (:func:`last_change`, :func:`payment_line`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from flask_babel import format_decimal, ngettext
from flask_babel import gettext as _
from markupsafe import escape

from ..engine import N_, PRESET_TITLES, TABLE_COUNT
from ..languages.reader import number, translate
from ..models import Game
from .standings import Standings, sides_of

ROW = 56
"""The height of one unit's row in the picture, in SVG units."""


@dataclass(frozen=True)
class Bonus:
    """A bonus in a round as the engine explains it (its note): the ``unit`` (player, or
    side under P1) credited, ``points``, ``why`` in words (the request's language) and the
    catalogue ``rule``."""

    unit: str
    points: int
    why: str
    rule: str

    @property
    def line(self) -> str:
        """``"Ann & Cat +50: the better score after two deals (P5)"``."""
        return str(
            _(
                "%(name)s %(points)s: %(why)s (%(rule)s)",
                name=self.unit,
                points=f"{self.points:+d}",
                why=self.why,
                rule=self.rule,
            )
        )


@dataclass(frozen=True)
class Change:
    """The last round's full change: ``label`` ("Round 7", "Deal 2"), each unit's rise
    in points bonuses included (``changes``, in the order of the standings' series) and
    the ``bonuses`` in it (:class:`Bonus`)."""

    label: str
    changes: list[tuple[str, int]]
    bonuses: list[Bonus]

    @property
    def line(self) -> str:
        """``"Deal 2: Ann & Cat +100 · Bob & Dan +125 (Ann & Cat +50: ...)"``."""
        rises = " · ".join(
            _("%(name)s %(points)s", name=unit, points=f"{points:+d}")
            for unit, points in self.changes
        )
        said = "; ".join(b.line for b in self.bonuses)
        if said:
            return str(
                _(
                    "%(round)s: %(changes)s (%(bonuses)s)",
                    round=self.label,
                    changes=rises,
                    bonuses=said,
                )
            )
        return str(_("%(round)s: %(changes)s", round=self.label, changes=rises))


def last_change(
    st: Standings,
    number: int,
    figures: Mapping[str, Any] | None,
    teams: Sequence[Sequence[str]] | None = None,
) -> Change | None:
    """The :class:`Change` of round ``number``, the last of ``st``'s series (None before
    the first round): each unit's total after it less the total before (so P5's end
    bonus counts), and the bonuses of its ``figures``' notes (the engine's; the table's
    own count, the engine's ``TABLE_COUNT``, left out). ``teams`` the sides, in the order of
    the units, under P1."""
    units = list(st.series)
    if number < 1 or not units or len(st.series[units[0]]) < 2:
        return None
    changes = [(u, st.series[u][-1] - st.series[u][-2]) for u in units]
    side = sides_of(teams)
    bonuses = [
        Bonus(side.get(n["owner"], n["owner"]), n["points"], str(translate(n["why"])), n["rule"])
        for n in (figures or {}).get("notes") or []
        if n.get("rule") not in TABLE_COUNT and n.get("points")
    ]
    label = (
        _("Deal %(number)s", number=number) if st.deals else _("Round %(number)s", number=number)
    )
    return Change(label, changes, bonuses)


def payment_line(payer: str, payee: str, points: int, money: Any = None) -> str:
    """G3's payment in words: ``"Bob pays Ann 120"``, a side ``"Bob & Dan pay Ann & Cat
    110"``, with the money at the game's stake when there is one (``" (1.20)"``)."""
    said = PAYS[" & " in payer, money is not None]
    return str(_(said, payer=payer, payee=payee, points=number(points), money=money_text(money)))


def money_text(money: Any) -> str:
    """An amount at the game's stake with two decimals, as the request's language writes
    it (``"1.20"``); ``""`` for none."""
    return "" if money is None else str(format_decimal(money, format="#,##0.00"))


PAYS = {
    (False, False): N_("%(payer)s pays %(payee)s %(points)s"),
    (False, True): N_("%(payer)s pays %(payee)s %(points)s (%(money)s)"),
    (True, False): N_("%(payer)s pay %(payee)s %(points)s"),
    (True, True): N_("%(payer)s pay %(payee)s %(points)s (%(money)s)"),
}
"""G3's payment sentences by (a side pays, with money): whole sentences, so that a
language puts the names and figures where it says them."""


@dataclass(frozen=True)
class Result:
    """A finished game as shared: ``title`` (the game's name, or the players' or sides'
    names), ``winner_line`` ("Ann wins"), ``totals`` (unit, points) highest first,
    ``rounds`` the rounds (deals in the two-deal game) played, ``day`` the date the game
    ended (``YYYY-MM-DD``), ``rules`` the preset's title, ``last`` the last round's
    full change (:class:`Change`) and ``settlement`` who pays whom, in words."""

    title: str
    winner_line: str
    totals: list[tuple[str, int]]
    rounds: int
    deals: bool
    day: str
    rules: str
    last: Change | None = None
    settlement: tuple[str, ...] = ()

    @property
    def played(self) -> str:
        """``"7 rounds"``, ``"2 deals"`` or ``"1 round"``."""
        if self.deals:
            return str(ngettext("%(num)d deal", "%(num)d deals", self.rounds))
        return str(ngettext("%(num)d round", "%(num)d rounds", self.rounds))

    @property
    def text(self) -> str:
        """The short text to share, e.g. ``"500 Rum (Standard) · Friday: Ann wins!"``,
        ``"Ann 510 · Bob 380 · Cat 220 · 7 rounds · 2026-11-26"``, then the last round
        (``"Round 7: Ann +120 · Bob +15 · Cat -20"``) and the settlement
        (``"Bob pays Ann 130 · Cat pays Ann 290"``), each on a line."""
        totals = " · ".join(
            _("%(name)s %(points)s", name=name, points=number(points))
            for name, points in self.totals
        )
        lines = [
            _(
                "500 Rum (%(rules)s) · %(title)s: %(winner)s!",
                rules=self.rules,
                title=self.title,
                winner=self.winner_line,
            ),
            f"{totals} · {self.played} · {self.day}",
        ]
        if self.last is not None:
            lines.append(self.last.line)
        if self.settlement:
            lines.append(" · ".join(self.settlement))
        return "\n".join(lines)


def result_of(
    game: Game,
    st: Standings,
    rounds: int,
    figures: Mapping[str, Any] | None = None,
    teams: Sequence[Sequence[str]] | None = None,
) -> Result | None:
    """The :class:`Result` of ``game`` with standings ``st`` after ``rounds`` live
    rounds, the last of them with ``figures`` (its bonuses) and the sides ``teams``
    (P1); None while nobody has won."""
    if not st.winner:
        return None
    ended = game.finished_at or datetime.now(UTC)
    units = [u.name for u in st.units]
    return Result(
        title=game.title or " · ".join(units),
        winner_line=st.winner_said,
        totals=[(u.name, u.total) for u in st.units],
        rounds=rounds,
        deals=bool(st.deals),
        day=ended.strftime("%Y-%m-%d"),
        rules=str(translate(PRESET_TITLES.get(game.preset, game.preset))),
        last=last_change(st, rounds, figures, teams),
        settlement=tuple(payment_line(*pay) for pay in st.settlement),
    )


WIDTH, MARGIN = 600, 24
"""The picture's width and side margin, in SVG units."""
NARROW, WIDE = frozenset(" .,:;·'!|iIljtf()[]-"), frozenset("MWmw@%&")


def text_width(text: str, size: float) -> float:
    """A generous estimate of ``text``'s width in a sans-serif face at font ``size``
    (SVG units): narrow marks 0.34 em, wide letters 0.95, other capitals and digits 0.7,
    other letters 0.6, anything past Latin (CJK, emoji) a full em."""

    def em(char: str) -> float:
        if ord(char) > 0x2E7F:
            return 1.0
        if char in NARROW:
            return 0.34
        if char in WIDE:
            return 0.95
        return 0.7 if char.isupper() or char.isdigit() else 0.6

    return size * sum(em(c) for c in text)


def _words(text: str) -> list[str]:
    """``text``'s words, a separator ("·", "&") kept with the word before it."""
    words: list[str] = []
    for word in text.split(" "):
        if words and word in {"·", "&"}:
            words[-1] += f" {word}"
        else:
            words.append(word)
    return words


def wrap(text: str, size: float, width: float = WIDTH - 2 * MARGIN) -> list[str]:
    """``text`` broken into lines that fit ``width`` at font ``size`` (by
    :func:`text_width`): between words (never before a "·" or "&"), and inside a word
    too long for a line."""
    lines: list[str] = []
    line = ""
    for word in _words(text):
        joined = f"{line} {word}" if line else word
        if text_width(joined, size) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        line = word
        while text_width(line, size) > width and len(line) > 1:
            fits = (i for i in range(1, len(line) + 1) if text_width(line[:i], size) <= width)
            cut = max(fits, default=1)
            lines.append(line[:cut])
            line = line[cut:]
    return [*lines, line] if line or not lines else lines


def fit(text: str, size: float, width: float) -> str:
    """``text`` cut with "…" to fit ``width`` at font ``size`` (a name beside its total)."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def _lines(texts: Sequence[str], size: float, css: str, y: int, step: int) -> tuple[str, int]:
    """Each of ``texts`` wrapped (:func:`wrap`) as ``<text>`` lines of class ``css`` from
    baseline ``y``, ``step`` apart: the SVG and the baseline after the last line."""
    out = []
    for line in (part for text in texts for part in wrap(text, size)):
        out.append(f'<text x="{MARGIN}" y="{y}" class="{css}">{escape(line)}</text>')
        y += step
    return "".join(out), y


def _rows(totals: Sequence[tuple[str, int]], y: int) -> str:
    """Each unit's name, total and bar against the best, from ``y`` down."""
    top = max((p for _, p in totals), default=0) or 1
    rows = []
    for i, (name, points) in enumerate(totals):
        at = y + i * ROW
        bar = max(0, round(360 * points / top)) if points > 0 else 0
        fill = "#a35f00" if i == 0 else "#5b6b7d"
        room = WIDTH - 2 * MARGIN - text_width(str(points), 24) - 16
        rows.append(
            f'<text x="{MARGIN}" y="{at + 20}" class="n">{escape(fit(name, 22, room))}</text>'
            f'<rect x="{MARGIN}" y="{at + 28}" width="{bar}" height="10" rx="5" fill="{fill}"/>'
            f'<text x="{WIDTH - MARGIN}" y="{at + 20}" class="p">{points}</text>'
        )
    return "".join(rows)


STYLE = (
    "<style>text{font-family:system-ui,sans-serif;fill:#141a22}"
    ".t{font-size:18px;fill:#4d5967}.w{font-size:30px;font-weight:800}"
    ".n{font-size:22px;font-weight:600}.p{font-size:24px;font-weight:800;text-anchor:end}"
    ".f{font-size:16px;fill:#4d5967}.s{font-size:16px;font-weight:700}</style>"
)
"""The picture's type: title, winner, names, totals, footer and settlement."""


def picture(result: Result) -> str:
    """The final standings as an SVG picture (600 units wide, light card, dark text):
    the title and the winner (each wrapped to the width, :func:`wrap`), each unit's
    total as a bar against the best, the last round's full change with its bonuses,
    who pays whom, the rounds and the date. Every name is escaped."""
    heading = _("500 Rum · %(rules)s · %(title)s", rules=result.rules, title=result.title)
    title, y = _lines([heading], 18, "t", 40, 24)
    winner, y = _lines([_("%(winner)s!", winner=result.winner_line)], 30, "w", y + 20, 38)
    rows = _rows(result.totals, y - 4)
    y += ROW * len(result.totals) + 10
    last, y = _lines([result.last.line] if result.last else [], 16, "f", y, 22)
    pays, y = _lines(result.settlement, 16, "s", y + 4, 22)
    height = y + 28
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-label="{escape(result.winner_line)}">'
        f'{STYLE}<rect width="{WIDTH}" height="{height}" rx="18" fill="#fbf8f1"/>'
        f"{title}{winner}{rows}{last}{pays}"
        f'<text x="{MARGIN}" y="{height - 22}" class="f">{result.played} · {result.day}</text>'
        "</svg>"
    )
