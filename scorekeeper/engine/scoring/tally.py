"""A round scored from the figures players count at the table, without the cards.

Glossary:
- totals round: the table says who went out (or that the stock ran out) and, for each
  player, the points shown on the table and the points left in hand, counted by the
  players themselves under the game's card values (S1 to S6, S9 already applied).
- adjustment: a figure the table adds or takes off by hand (a penalty, a correction),
  points either sign, explained as such.

:func:`tally_round` turns those figures into a :class:`~.score_round.RoundScore` through the
very functions that score a round card by card: where a hand goes, against its holder
(S7), to the player who went out (S8) or nowhere (O3), is :func:`.outcome.count_hands`;
the going-out bonus (P4) and the seven-card straight (S10) :func:`.outcome.going_out_notes`;
sides (P1), the two-deal game (P5), the target and tie-break (G1, G2, G4) and the
settlement (G3) :func:`.score_round.close_round`. Who deals next (D5) is
:func:`.outcome.deals_next`, round after round (:func:`next_dealer`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..messages import say
from ..rules.ruleset import RuleSet
from .outcome import count_hands, deals_next, going_out_notes
from .score_round import Figures, Note, RoundError, RoundPlay, RoundScore, check_round, close_round

MAX_POINTS = 2000
"""Largest figure (points) accepted for shown or in hand: more is a typo."""

MAX_ADJUSTMENT = 1000
"""Largest adjustment (points, either sign) accepted for one player in one round."""


@dataclass(frozen=True)
class TableCount:
    """What the table counted in one round, per player name (points, as the rules count
    cards): ``shown`` on the table, ``in_hand`` left in hand, optional ``adjust``
    (either sign). ``went_out`` is the player who went out, None when the stock ran out;
    ``seven_card_run`` the player who laid a seven-card run and went out (S10)."""

    players: tuple[str, ...]
    shown: Mapping[str, int]
    in_hand: Mapping[str, int]
    went_out: str | None = None
    adjust: Mapping[str, int] = field(default_factory=dict)
    teams: tuple[tuple[str, ...], ...] | None = None
    deal_number: int = 1
    seven_card_run: str | None = None

    def play(self) -> RoundPlay:
        """The round as a :class:`RoundPlay` without cards (for the engine's checks)."""
        return RoundPlay(
            players=self.players,
            hands={p: () for p in self.players},
            went_out=self.went_out,
            teams=self.teams,
            deal_number=self.deal_number,
        )


def check_count(rules: RuleSet, count: TableCount) -> list[tuple[str, str]]:
    """Every problem with ``count``: players and sides (D1, P1), who went out (O1, O3),
    figures out of range, and the going-out player's hand, which must be 0 (O1).
    ``where`` is ``"shown.Ann"``, ``"in_hand.Ann"``, ``"adjust.Ann"`` or the contract's."""
    problems = check_round(rules, count.play())
    for name, values, low, high in (
        ("shown", count.shown, 0, MAX_POINTS),
        ("in_hand", count.in_hand, 0, MAX_POINTS),
        ("adjust", count.adjust, -MAX_ADJUSTMENT, MAX_ADJUSTMENT),
    ):
        for player, value in values.items():
            if player not in count.players:
                problems.append(
                    (f"{name}.{player}", say("%(player)s is not a player", player=repr(player)))
                )
            elif isinstance(value, bool) or not isinstance(value, int):
                problems.append((f"{name}.{player}", say("must be a whole number of points")))
            elif not low <= value <= high:
                problems.append(
                    (
                        f"{name}.{player}",
                        say("must be from %(low)s to %(high)s points", low=low, high=high),
                    )
                )
    if count.went_out in count.players and count.in_hand.get(count.went_out, 0):
        problems.append(
            (
                f"in_hand.{count.went_out}",
                say("%(player)s went out: nothing is left in hand (O1)", player=count.went_out),
            )
        )
    if count.seven_card_run is not None and count.seven_card_run != count.went_out:
        problems.append(("seven_card_run", say("only the player who went out can score S10")))
    return problems


def tally_round(
    rules: RuleSet, count: TableCount, totals_before: Mapping[str, int] | None = None
) -> RoundScore:
    """Score a round from the table's figures; ``totals_before`` are the running totals
    (points) per player before it.

    Raises :class:`~.score_round.RoundError` listing every problem (:func:`check_count`).
    The result has no card rows (``cards == []``); every bonus, every hand added to
    another player (S8) and every adjustment is a :class:`~.score_round.Note`.
    """
    problems = check_count(rules, count)
    if problems:
        raise RoundError(problems)
    play = count.play()
    figures = {p: Figures(shown=count.shown.get(p, 0)) for p in count.players}
    left = {p: v for p, v in count.in_hand.items() if v and p in figures}
    notes = count_hands(rules, play, left, figures)
    notes += _bonus_notes(rules, count)
    return close_round(rules, play, figures, notes, totals_before, [])


def tally_net(
    rules: RuleSet,
    count: TableCount,
    net: Mapping[str, int],
    totals_before: Mapping[str, int] | None = None,
) -> RoundScore:
    """Score a round the table counted itself: ``net`` is each player's round score in
    points (either sign, shown less in hand with every bonus already in it, S7), so
    nothing is added or moved (no S8, P4 or S10 here); ``count`` gives the players, who
    went out, the sides and the deal (its ``shown`` and ``in_hand`` are not used).
    Sides (P1), the target and tie-break (G1, G2, G4) and the two-deal game (P5) apply.

    Raises :class:`~.score_round.RoundError` listing every problem: those of
    :func:`check_count`, a name that is not a player, a figure that is not a whole
    number or is beyond ``MAX_POINTS`` either way."""
    problems = check_count(rules, replace(count, shown={}, in_hand={}, seven_card_run=None))
    for player, value in net.items():
        if player not in count.players:
            problems.append(
                (f"net.{player}", say("%(player)s is not a player", player=repr(player)))
            )
        elif isinstance(value, bool) or not isinstance(value, int):
            problems.append((f"net.{player}", say("must be a whole number of points")))
        elif not -MAX_POINTS <= value <= MAX_POINTS:
            problems.append(
                (
                    f"net.{player}",
                    say(
                        "must be from %(low)s to %(high)s points", low=-MAX_POINTS, high=MAX_POINTS
                    ),
                )
            )
    if problems:
        raise RoundError(problems)
    figures = {p: Figures() for p in count.players}
    why = "round score as the table counted it"
    notes = [Note(p, net[p], why, "S7") for p in count.players if net.get(p)]
    return close_round(rules, count.play(), figures, notes, totals_before, [])


def _bonus_notes(rules: RuleSet, count: TableCount) -> list[Note]:
    """P4 going out and S10 the seven-card straight (:func:`outcome.going_out_notes`),
    then the table's adjustments."""
    goer = count.went_out
    notes = going_out_notes(rules, goer, goer is not None and count.seven_card_run == goer)
    for player in count.players:
        value = count.adjust.get(player, 0)
        if value:
            notes.append(Note(player, value, "adjustment entered by the table", "S7"))
    return notes


def next_dealer(
    rules: RuleSet, players: Sequence[str], first_dealer: int, went_out: Sequence[str | None]
) -> int:
    """The seat (0-based) of the next dealer after the rounds whose goers are ``went_out``
    (None where the stock ran out, or a name that is not a player's), the first round
    dealt by seat ``first_dealer``: :func:`outcome.deals_next` (D5) round after round."""
    names = list(players)
    seat = first_dealer % len(names)
    for goer in went_out:
        seat = deals_next(rules, len(names), seat, names.index(goer) if goer in names else None)
    return seat
