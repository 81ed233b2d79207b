"""Advice on the discard pile: which of its cards a player may take, and what they must
then do (why a meld is legal is :mod:`.explain`'s).

Glossary:
- pile: the discard pile, bottom first, so its last card is the top card.
- selected card: the card of the pile a player draws; every card above it comes too (T1).
- taken cards: the selected card and the cards above it; they join the hand.
- use: a way to play the selected card at once: in a new meld with cards of the hand or
  other taken cards, or laid off (alone or with one more card) onto a meld on the table
  (T2, L1).
- table: the melds already on the table, anyone's, numbered from 0 as in the scoring
  contract.

Rules consulted, with the seeds that state them: T1 take every card above the selected
card (all seeds); T2 the selected card must be used at once, in a meld or a lay-off (000,
001, 003, 004), or only in a new meld of 3 or more under "new-meld-only" (002: "no picking
up to hit"); T3 under "may-keep" the top card alone may be kept without using it (000,
002); M6 a player's first melds must reach the minimum (002); O2 Boathouse: a final
discard is needed to go out, and the last card picked up (the pile's top card) cannot be
it (000, 002). Whether a meld or lay-off is legal is always :mod:`.melds`' answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..cards import JOKER, SUITS, Card, declare, format_cards, natural_card
from ..game.taking import (
    barred_discard,
    keeps_a_discard,
    may_keep_top,
    may_lay_off_taken,
    pair_partners,
)
from ..melds import IllegalMeld, Meld, extend
from ..messages import Message, say, say_plural
from ..rules.ruleset import RuleSet
from .candidates import candidate_melds
from .explain import meld_points

MAX_USES = 8
"""Most uses listed for one card of the pile: further candidates are counted (``more``),
not weighed against M6 and O2."""
MELD_BUDGET = 300
"""Most candidate melds weighed when looking for a first meld's other melds (M6)."""


@dataclass(frozen=True)
class Use:
    """One way to play the selected card at once.

    ``kind`` is ``"meld"`` (``cards`` the new meld as laid, jokers declared) or
    ``"lay-off"`` (``cards`` the one or two cards laid off onto table meld ``onto``);
    ``meld`` the meld as it then stands; ``points`` the points of ``cards`` there;
    ``note`` a condition that comes with it (M6, O2), or "".
    """

    kind: str
    cards: tuple[Card, ...]
    meld: Meld
    points: int
    onto: int | None = None
    note: Message | str = ""

    def describe(self) -> Message:
        """Words for people: ``meld 9♦ 10♦ J♦`` or ``lay off 9♦ onto meld 2``."""
        if self.kind == "meld":
            return say("meld %(cards)s", cards=format_cards(self.cards))
        return say(
            "lay off %(cards)s onto meld %(meld)s", cards=format_cards(self.cards), meld=self.onto
        )


@dataclass(frozen=True)
class PileChoice:
    """The answer for one card of the pile.

    ``index`` its place (0 = bottom), ``card``, ``taken`` (the card and every card above
    it, T1), ``allowed`` whether it may be taken, ``may_keep`` when T3 lets it be kept
    unused, ``uses`` up to :data:`MAX_USES` legal uses and ``more`` how many more there
    are, ``refused`` uses the rules turn down with the reason, ``must`` what the player
    must do (or why not), ``rules`` the ids consulted.
    """

    index: int
    card: Card
    taken: tuple[Card, ...]
    allowed: bool
    may_keep: bool
    uses: tuple[Use, ...]
    more: int
    refused: tuple[tuple[Use, str], ...]
    must: str
    rules: tuple[str, ...]


def _joker_declarations(meld: Meld) -> list[Card]:
    """The declared jokers that could extend ``meld`` (a set's missing suits, a run's
    neighbours)."""
    if meld.kind == "set":
        return [declare(JOKER, natural_card(meld.rank, s)) for s in SUITS]
    if meld.kind == "run":
        ranks = {(meld.low - 2) % 13 + 1, meld.high % 13 + 1}
        return [declare(JOKER, natural_card(r, meld.suit)) for r in sorted(ranks)]
    return [JOKER]


def layoff_uses(
    card: Card, others: Sequence[Card], table: Sequence[Meld], rules: RuleSet
) -> list[Use]:
    """Lay-offs of ``card`` onto each table meld (L1, L3): alone, or with one card of
    ``others`` when alone it does not fit (seed 002's pair, :func:`taking.pair_partners`,
    as the digital game allows it). A joker is tried as each
    card it could stand for (M5). Returns ``[Use]``."""
    uses: list[Use] = []
    for index, meld in enumerate(table):
        tries = _joker_declarations(meld) if card.is_joker and rules.joker_use == "wild" else [card]
        for laid in tries:
            try:
                grown = extend(meld, laid, rules)
                uses.append(
                    Use("lay-off", (laid,), grown, meld_points(grown, rules, [laid]), index)
                )
                continue
            except IllegalMeld:
                pass
            for partner, grown in pair_partners(meld, laid, others, rules):
                pair = (laid, partner)
                uses.append(Use("lay-off", pair, grown, meld_points(grown, rules, pair), index))
    return uses


def _minus(cards: Sequence[Card], used: Iterable[Card]) -> list[Card]:
    left = list(cards)
    for c in used:
        left.remove(c.physical)
    return left


def best_melds_points(
    cards: Sequence[Card],
    rules: RuleSet,
    depth: int = 3,
    enough: int | None = None,
    budget: int = MELD_BUDGET,
) -> int:
    """The most points (S1-S5) that up to ``depth`` separate melds from ``cards`` make:
    what a player could lay down this turn besides one use (for M6).

    Stops as soon as ``enough`` points are found, and after weighing ``budget`` candidate
    melds (a bound for very large hands: the best found so far is returned)."""
    left = [budget]
    return _best(tuple(cards), rules, depth, enough, left)


def _best(
    cards: tuple[Card, ...], rules: RuleSet, depth: int, enough: int | None, left: list[int]
) -> int:
    if depth == 0 or len(cards) < 3:
        return 0
    best = 0
    for i, anchor in enumerate(cards):
        for meld in candidate_melds(anchor, cards[i + 1 :], rules):
            left[0] -= 1
            if left[0] < 0:
                return best
            points = meld_points(meld, rules)
            wanted = None if enough is None else enough - points
            rest = tuple(_minus(cards, meld.cards))
            best = max(best, points + _best(rest, rules, depth - 1, wanted, left))
            if enough is not None and best >= enough:
                return best
    return best


def _conditions(
    use: Use, left: list[Card], top: Card, rules: RuleSet, has_melded: bool
) -> tuple[Message | None, Message | str]:
    """``(refusal, note)`` for ``use`` leaving ``left`` in hand: O2 then M6; ``top`` is the
    last card picked up (:func:`taking.barred_discard`)."""
    note: Message | str = ""
    if rules.discard_to_go_out and not keeps_a_discard(rules, left, top):
        return (
            say(
                "you would have no card to discard except %(card)s, the last card "
                "you picked up, and a final discard is needed (O2)",
                card=top.display,
            ),
            note,
        )
    minimum = rules.first_meld_minimum
    if minimum and not has_melded and use.kind == "lay-off":
        return say(
            "lay a first meld of %(minimum)s points before laying off (M6)", minimum=minimum
        ), note
    if minimum and not has_melded:
        short = minimum - use.points
        extra = best_melds_points(left, rules, enough=short) if short > 0 else 0
        if use.points + extra < minimum:
            return (
                say(
                    "your first melds must reach %(minimum)s points (M6): this makes "
                    "%(points)s with the best other melds you could add",
                    minimum=minimum,
                    points=use.points + extra,
                ),
                note,
            )
        if use.points < minimum:
            note = say(
                "lay down other melds too, to reach the %(minimum)s points of a first meld (M6)",
                minimum=minimum,
            )
    return None, note


def _uses_for(
    selected: Card, others: list[Card], table: Sequence[Meld], rules: RuleSet
) -> list[Use]:
    uses = [
        Use("meld", m.cards, m, meld_points(m, rules))
        for m in candidate_melds(selected, others, rules)
    ]
    if may_lay_off_taken(rules):
        uses += layoff_uses(selected, others, table, rules)
    uses.sort(key=lambda u: (u.kind != "meld", len(u.cards), -u.points))
    return uses


def _take(choice_card: Card, taken: Sequence[Card]) -> Message:
    """``Take 7♦`` and the cards above it (T1)."""
    above = taken[1:]
    if not above:
        return say("Take %(card)s", card=choice_card.display)
    return say_plural(
        "Take %(card)s and the card above it (%(above)s) (T1)",
        "Take %(card)s and the %(count)s cards above it (%(above)s) (T1)",
        len(above),
        card=choice_card.display,
        above=format_cards(above),
    )


def _must(
    choice_card: Card,
    taken: Sequence[Card],
    rules: RuleSet,
    ok: bool,
    keep: bool,
    refusal: Message | None = None,
) -> Message:
    """What taking ``choice_card`` asks, or why it may not be taken (``refusal``: the
    first refused use's reason, if any)."""
    take = _take(choice_card, taken)
    where = (
        say("in a new meld of 3 or more that includes it, never only to lay it off (T2)")
        if not may_lay_off_taken(rules)
        else say("in a new meld or by laying it off on a meld on the table (T2)")
    )
    card = choice_card.display
    if keep:
        return say(
            "%(take)s; as the top card alone it may be kept without using it (T3).", take=take
        )
    if ok:
        return say(
            "%(take)s, then use %(card)s at once, %(where)s.", take=take, card=card, where=where
        )
    if refusal is not None:
        return say(
            "%(card)s may not be taken: it must be used at once, %(where)s, and %(refusal)s.",
            card=card,
            where=where,
            refusal=refusal,
        )
    return say(
        "%(card)s may not be taken: it must be used at once, %(where)s, and no meld or lay-off "
        "uses it with your hand, the cards above it and the melds on the table.",
        card=card,
        where=where,
    )


def _weigh(
    candidates: list[Use],
    hand: list[Card],
    taken: Sequence[Card],
    top: Card,
    rules: RuleSet,
    has_melded: bool,
) -> tuple[list[Use], list[tuple[Use, Message]], int]:
    """Split ``candidates`` into uses the rules allow (with their notes) and refused
    ones with the reason (O2, M6), stopping at :data:`MAX_USES` allowed; also how many
    candidates were weighed."""
    good: list[Use] = []
    refused: list[tuple[Use, Message]] = []
    weighed = 0
    for use in candidates:
        if len(good) == MAX_USES:
            break
        weighed += 1
        left = _minus(hand + list(taken), use.cards)
        refusal, note = _conditions(use, left, top, rules, has_melded)
        if refusal:
            refused.append((use, refusal))
        else:
            good.append(Use(use.kind, use.cards, use.meld, use.points, use.onto, note))
    return good, refused, weighed


def _choice(
    index: int,
    pile: list[Card],
    hand: list[Card],
    table: Sequence[Meld],
    rules: RuleSet,
    has_melded: bool,
) -> PileChoice:
    selected, taken = pile[index], tuple(pile[index:])
    keep = may_keep_top(rules, index, len(pile))
    candidates = _uses_for(selected, hand + list(taken[1:]), table, rules)
    barred = barred_discard(rules, taken, False) or pile[-1]
    good, refused, weighed = _weigh(candidates, hand, taken, barred, rules, has_melded)
    ok = bool(good) or keep
    must = _must(selected, taken, rules, ok, keep, refused[0][1] if refused else None)
    ids = ["T1", "T2"] + (["T3"] if rules.top_discard == "may-keep" else [])
    ids += [i for i in ("M6", "O2") if any(f"({i})" in r for _, r in refused)]
    ids += [i for i in ("M6",) if any("(M6)" in u.note for u in good) and i not in ids]
    return PileChoice(
        index,
        selected,
        taken,
        ok,
        keep,
        tuple(good),
        len(candidates) - weighed,
        tuple(refused[:MAX_USES]),
        must,
        tuple(ids),
    )


def advise(
    rules: RuleSet,
    pile: Sequence[Card],
    hand: Sequence[Card],
    table: Sequence[Meld] = (),
    *,
    has_melded: bool = True,
) -> list[PileChoice]:
    """For every card of ``pile`` (bottom first), whether the player holding ``hand`` may
    take it and what they must then do, with ``table`` the melds on the table and
    ``has_melded`` whether the player has laid down a meld before (M6).

    Returns one :class:`PileChoice` per card, bottom first. Applies T1, T2, T3, M6 and
    O2 (see the module's docstring); meld and lay-off legality come from :mod:`.melds`.
    """
    cards = [c.physical for c in pile]
    held = [c.physical for c in hand]
    return [_choice(i, cards, held, table, rules, has_melded) for i in range(len(cards))]
