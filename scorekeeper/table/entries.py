"""The rules every way into a game shares: the new-game form and an imported file pass
the very same checks on names, title and stake (one set of rules, used by both).

Names follow :func:`scorekeeper.inputs.clean_name` (NFC, invisible characters removed,
duplicates that differ only by case refused); the stake is money per point, a finite
number from 0 to :data:`STAKE_MAX` with at most two decimals.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from flask_babel import gettext as _

from ..inputs import clean_name, name_problems

MIN_PLAYERS, MAX_PLAYERS = 2, 8
TITLE_MAX = 80
STAKE_MAX = Decimal(1000)
CENT = Decimal("0.01")


def names_problems(raw: Sequence[str]) -> list[tuple[int, str]]:
    """``(seat, message)`` for every name that cannot be stored beside the others (see
    :func:`scorekeeper.inputs.name_problems`); seat -1 for the count of players."""
    problems = [
        (seat, message)
        for seat, name in enumerate(raw)
        for message in name_problems(name, [*raw[:seat], *raw[seat + 1 :]])
    ]
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        problems.append(
            (-1, _("enter %(least)s to %(most)s players", least=MIN_PLAYERS, most=MAX_PLAYERS))
        )
    return problems


def clean_title(text: object) -> str:
    """A game's title as stored: visible characters only, at most :data:`TITLE_MAX`."""
    return clean_name(str(text or ""))[:TITLE_MAX]


def stake_problem(value: Decimal | None) -> str | None:
    """Why ``value`` cannot be a stake (not finite, below 0, above the most), or None."""
    if value is None:
        return None
    if not value.is_finite():
        return str(_("the stake must be a number"))
    if not 0 <= value <= STAKE_MAX:
        return str(_("the stake is from 0 to %(most)s", most=STAKE_MAX))
    if value != value.quantize(CENT):
        return str(_("the stake has at most two decimals (cents)"))
    return None


def parse_stake(raw: object) -> tuple[Decimal | None, str | None]:
    """A stake from a file (text or number) as ``(Decimal, problem)``."""
    if raw in (None, ""):
        return None, None
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        return None, _("the stake must be a number")
    try:
        value = Decimal(str(raw).strip())
    except InvalidOperation:
        return None, _("the stake must be a number")
    problem = stake_problem(value)
    return (None, problem) if problem else (value, None)
