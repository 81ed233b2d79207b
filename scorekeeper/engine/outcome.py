"""The game after a round: the figures, the sides, the target and its tie-breaks, the
settlement.

Glossary:
- figures: shown, in hand, bonus, round and total, in points (S7).
- unit: who scores: each player, or each side of two partners (P1), keyed ``"Ann & Cat"``.
- settlement: what each loser pays the winner, the difference of final scores (G3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from .checks import RoundPlay, unit_of
from .rules import RuleSet
from .values import divisor


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


def unit_totals(play: RoundPlay, totals: Mapping[str, int]) -> dict[str, int]:
    """Running totals per scoring unit: each player, or each side (P1) as the sum of its
    players' totals, keyed ``"Ann & Cat"``."""
    if not play.teams:
        return {p: totals.get(p, 0) for p in play.players}
    return {" & ".join(t): sum(totals.get(p, 0) for p in t) for t in play.teams}


def wins(unit: str) -> str:
    """``"Ann wins"``, or for a side (P1, its players joined by " & ") ``"Ann & Cat win"``."""
    return f"{unit} {'win' if ' & ' in unit else 'wins'}"


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
    if rules.two_deal_game:
        return _after_two_deals(rules, play, figures, notes, totals)
    reached = {u: t for u, t in totals.items() if t >= rules.target}
    if not reached:
        return None, False, [], "no one has reached the target"
    goer_unit = unit.get(play.went_out) if play.went_out else None
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
            if goer_unit not in leaders:
                return None, False, [], "tied at the top: play another round"
            leaders = [goer_unit]
        winner = leaders[0]
        why = "highest score" if len(reached) > 1 else "reached the target"
    return winner, True, settle(totals, winner), f"{wins(winner)} ({why})"


def _after_two_deals(
    rules: RuleSet,
    play: RoundPlay,
    figures: dict[str, Figures],
    notes: list[Note],
    totals: dict[str, int],
) -> tuple[str | None, bool, list[Payment], str]:
    """P5: the game ends after deal 2; the better side gets 50 (S9 divides it)."""
    if play.deal_number < 2:
        return None, False, [], f"deal {play.deal_number} of 2"
    best = max(totals.values())
    leaders = [u for u, t in totals.items() if t == best]
    if len(leaders) > 1:
        return None, True, [], "the game ends after two deals, tied: nobody wins"
    winner = leaders[0]
    bonus = 50 // divisor(rules)
    unit = unit_of(play)
    first = next(p for p in play.players if unit[p] == winner)
    notes.append(Note(first, bonus, "the better score after two deals", "P5"))
    fig = figures[first]
    fig.bonus += bonus
    fig.round += bonus
    fig.total += bonus
    totals[winner] += bonus
    return winner, True, settle(totals, winner), f"{wins(winner)} after two deals"


def settle(totals: Mapping[str, int], winner: str, stake: int = 1) -> list[Payment]:
    """G3: each loser pays the winner the difference of their final scores, times
    ``stake`` (points, or money per point). ``totals`` per player or side."""
    return [
        Payment(unit, winner, (totals[winner] - total) * stake)
        for unit, total in totals.items()
        if unit != winner
    ]
