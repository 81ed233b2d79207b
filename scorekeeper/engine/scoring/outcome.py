"""The game after a round: the figures, the sides, the target and its tie-breaks, the
settlement.

Glossary:
- figures: shown, in hand, bonus, round and total, in points (S7).
- unit: who scores: each player, or each side of two partners (P1), keyed ``"Ann & Cat"``.
- settlement: what each loser pays the winner, the difference of final scores (G3).
- hand left: the cards a player still holds when the round ends; where their points go is
  decided once, by :func:`hand_rule` (S7, S8, O3), whether the round was scored card by
  card or from the table's counted figures.
- going out: the player who went out may earn a bonus (P4) and the seven-card straight
  (S10): :func:`going_out_notes`.
- next dealer: :func:`deals_next` (D5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, NamedTuple

from ..cards import Card
from ..melds import Meld
from ..messages import N_, say
from ..rules.ruleset import RuleSet
from ..values import card_values, divisor
from .checks import RoundPlay, unit_of

SIDE_BONUSES = ("P4", "P5")
"""The rule ids of the bonuses a game of sides credits to the side of the note's owner,
not to the owner alone: P4's going-out bonus and P5's two-deal bonus (seed 002,
Persian: "the side" goes out and wins the deals). Points, as every note's."""
TABLE_COUNT = frozenset({"S7"})
"""The rule ids of notes that are the table's own count of a round or its adjustment
(S7: a net score entered, an adjustment entered by the table), not a bonus: a round's
bonuses are its notes of any other rule."""


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


HandRule = Literal["S7", "S8", "O3"]
"""Where a hand left at the end of a round goes: against its holder (S7), to an opponent
(S8), or nowhere (O3, "nobody deducts")."""

S8_WHY = "opponents' hands left (add opponents' hands)"
S10_WHY = "a seven-card run laid down, then the last card discarded (Rummy Master's Hand)"


def seven_card_straight(play: RoundPlay, laid: Sequence[Meld]) -> bool:
    """S10 (002: "If a player lays down a 7-card straight and then discards his last card,
    he is awarded 500 points"): True when the player who went out did so by discarding
    (``went_out_by`` "discard") after laying down, in that same turn (``final_turn``), a
    run of seven cards as one meld. ``laid`` are the melds as laid, in ``play``'s order."""
    goer = play.went_out
    if goer is None or play.went_out_by != "discard":
        return False
    return any(
        m.owner == goer and m.final_turn and meld.kind == "run" and len(meld.cards) == 7
        for m, meld in zip(play.melds, laid, strict=True)
    )


def hand_rule(rules: RuleSet, went_out: str | None) -> HandRule:
    """The rule deciding every hand left at the end of a round (``went_out`` None when the
    stock ran out): S8 under "add opponents' hands" (seeds 000, 002); O3 "nobody deducts"
    when the stock ran out (002); else S7, the hand counts against its holder (all)."""
    if rules.add_opponents_hand:
        return "S8"
    if went_out is None and rules.stock_exhausted == "nobody-deducts":
        return "O3"
    return "S7"


def s8_taker(play: RoundPlay, unit: dict[str, str], units: list[str], holder: str) -> str | None:
    """Who gains ``holder``'s hand under S8 (seeds 000, 002), or None when nobody does:
    the player who went out takes every opponent's hand; with nobody out, two players or
    two sides each take the other's (credited to the side's first player); with more,
    no hand counts. ``unit`` is :func:`unit_of`, ``units`` its distinct values in order."""
    goer = play.went_out
    if goer is not None:
        return goer if unit[holder] != unit[goer] else None
    if len(units) != 2:
        return None
    other = units[1] if unit[holder] == units[0] else units[0]
    return next(p for p in play.players if unit[p] == other)


CardRow = tuple[Card, int, str, str]
"""One card counted: ``(card, points, why, rule id)``."""


@lru_cache(maxsize=4096)
def hand_rows(
    rule: HandRule, taker: str | None, holder: str, rules: RuleSet
) -> tuple[tuple[int, str, str, int], ...]:
    """By rank (index 0 the joker, 1 to 13), how a card left in ``holder``'s hand counts
    when its points go as ``rule`` says (S7, S8, O3; ``taker`` who gains it under S8,
    :func:`hand_takers`): ``(points shown, why, rule id, points before the hand's rule)``
    (S1 to S5, S9)."""
    words = hand_words(rule, holder, taker)
    if not words:
        not_counted = say(_NOT_COUNTED[rule])
        return tuple((0, not_counted, rule, p) for p, _, _ in card_values(rules).rank)
    return tuple(
        (p, say("%(why)s, %(hand)s", why=why, hand=words), f"{card_rule}, {rule}", p)
        for p, why, card_rule in card_values(rules).rank
    )


_NOT_COUNTED = {
    "O3": N_("not counted: nobody deducts when the stock runs out"),
    "S8": N_("not counted (add opponents' hands)"),
}


def hand_words(rule: HandRule, holder: str, taker: str | None) -> str:
    """How ``holder``'s hand counts under ``rule``, in words (empty when it does not)."""
    if rule == "S8":
        return say("left in hand: added to %(taker)s's score", taker=taker) if taker else ""
    if rule == "O3":
        return ""
    return say("left in hand: counts against %(holder)s", holder=holder)


def hand_takers(play: RoundPlay) -> dict[str, str | None]:
    """Under S8, who gains each player's hand (:func:`s8_taker`)."""
    unit = unit_of(play)
    units = list(dict.fromkeys(unit.values()))
    return {p: s8_taker(play, unit, units, p) for p in play.players}


def count_hands(
    rules: RuleSet, play: RoundPlay, left: Mapping[str, int], figures: dict[str, Figures]
) -> list[Note]:
    """Apply :func:`hand_rule` to ``left``, the points (S1 to S5, S9) of each hand that
    still holds cards: S7 adds them to the holder's ``in_hand`` in ``figures``; S8 credits
    them to :func:`s8_taker`, returned as one :class:`Note` per taker; O3 counts nothing."""
    rule = hand_rule(rules, play.went_out)
    if rule == "S7":
        for player, points in left.items():
            figures[player].in_hand += points
    if rule != "S8":
        return []
    unit = unit_of(play)
    units = list(dict.fromkeys(unit.values()))
    credited: dict[str, int] = {}
    for player in play.players:
        taker = s8_taker(play, unit, units, player) if player in left else None
        if taker is not None:
            credited[taker] = credited.get(taker, 0) + left[player]
    return [Note(taker, points, S8_WHY, "S8") for taker, points in credited.items()]


def going_out_notes(rules: RuleSet, goer: str | None, seven_card_run: bool) -> list[Note]:
    """The bonuses of the player who went out (none when ``goer`` is None): P4's going-out
    bonus (25 in Persian, seeds 000, 002) and S10's 500 when ``seven_card_run`` (decided
    by :func:`seven_card_straight`, or stated by the table; seed 002), each divided by
    five under S9."""
    if goer is None:
        return []
    notes: list[Note] = []
    div = divisor(rules)
    if rules.going_out_bonus:
        notes.append(Note(goer, rules.going_out_bonus // div, say("going out"), "P4"))
    if rules.seven_card_straight and seven_card_run:
        notes.append(Note(goer, 500 // div, S10_WHY, "S10"))
    return notes


def deals_next(rules: RuleSet, players: int, dealer: int, went_out: int | None) -> int:
    """D5: the seat (0-based) that deals the round after one dealt by ``dealer`` among
    ``players`` seats, ``went_out`` the seat that went out (None when the stock ran out):
    the player to the left (seeds 000, 002), or under "round-winner" the player who went
    out (002), the deal passing left when nobody did. Under dealer's gambit (X2, 002:
    "Unlike ordinary rummy, dealing is always rotated anti-clockwise") the deal passes to
    the dealer's right, seat ``dealer - 1``; play still passes left."""
    if rules.next_dealer == "round-winner" and went_out is not None:
        return went_out
    if rules.dealers_gambit:
        return (dealer - 1) % players
    return (dealer + 1) % players


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
    if " & " in unit:
        return say("%(side)s win", side=unit)
    return say("%(player)s wins", player=unit)


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
    totals = {p: f.total for p, f in figures.items()}
    if play.teams:
        totals = unit_totals(play, totals)
    if rules.two_deal_game:
        return _after_two_deals(rules, play, figures, notes, totals)
    target = rules.target
    if not totals or max(totals.values()) < target:
        return None, False, [], say("no one has reached the target")
    reached = {u: t for u, t in totals.items() if t >= target}
    unit = unit_of(play)
    goer_unit = unit.get(play.went_out) if play.went_out else None
    went_out_wins = rules.tie_break == "went-out"
    if play.teams:
        went_out_wins = rules.partnership_winner == "first-to-target" and went_out_wins
    if went_out_wins and goer_unit in reached:
        winner = goer_unit
        why = say("went out") if len(reached) > 1 else say("reached the target")
    else:
        best = max(reached.values())
        leaders = [u for u, t in reached.items() if t == best]
        if len(leaders) > 1:
            if goer_unit not in leaders:
                return None, False, [], say("tied at the top: play another round")
            leaders = [goer_unit]
        winner = leaders[0]
        why = say("highest score") if len(reached) > 1 else say("reached the target")
    return (
        winner,
        True,
        settle(totals, winner),
        say("%(wins)s (%(why)s)", wins=wins(winner), why=why),
    )


def _after_two_deals(
    rules: RuleSet,
    play: RoundPlay,
    figures: dict[str, Figures],
    notes: list[Note],
    totals: dict[str, int],
) -> tuple[str | None, bool, list[Payment], str]:
    """P5: the game ends after deal 2; the better side gets 50 (S9 divides it)."""
    if play.deal_number < 2:
        return None, False, [], say("deal %(number)s of 2", number=play.deal_number)
    best = max(totals.values())
    leaders = [u for u, t in totals.items() if t == best]
    if len(leaders) > 1:
        return None, True, [], say("the game ends after two deals, tied: nobody wins")
    winner = leaders[0]
    bonus = 50 // divisor(rules)
    unit = unit_of(play)
    first = next(p for p in play.players if unit[p] == winner)
    notes.append(Note(first, bonus, say("the better score after two deals"), "P5"))
    fig = figures[first]
    fig.bonus += bonus
    fig.round += bonus
    fig.total += bonus
    totals[winner] += bonus
    return winner, True, settle(totals, winner), say("%(wins)s after two deals", wins=wins(winner))


def settle(totals: Mapping[str, int], winner: str, stake: int = 1) -> list[Payment]:
    """G3: each loser pays the winner the difference of their final scores, times
    ``stake`` (points, or money per point). ``totals`` per player or side."""
    return [
        Payment(unit, winner, (totals[winner] - total) * stake)
        for unit, total in totals.items()
        if unit != winner
    ]
