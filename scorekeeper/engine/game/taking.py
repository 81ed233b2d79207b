"""Taking from the discard pile: what the card taken may or must do (T2, T3, X1) and which
card taken may not be that turn's discard (O2, T3), decided
once for the digital game (:mod:`.draws`, :mod:`.plays`, :mod:`.turns`) and the
checker's advice (:mod:`.advice`).

Glossary:
- selected card: the card of the discard pile a player draws (every card above it comes
  too, T1); it must be used at once unless T3 lets the top card be kept.
- "Rummy!" call: another player takes a discard out of turn (X1), and may then lay it off
  whatever T2 says.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from functools import lru_cache

from ..cards import Card, make_pack, natural_card
from ..melds import Meld, extend
from ..rules.ruleset import RuleSet
from .hand_melds import TABLES_KEPT, meld_accepts


def may_keep_top(rules: RuleSet, index: int, pile_size: int) -> bool:
    """T3: True when the card at ``index`` of a pile of ``pile_size`` cards is the top
    card and the rules let it be kept without using it ("may-keep", seeds 000, 002)."""
    return rules.top_discard == "may-keep" and index == pile_size - 1


def may_lay_off_taken(rules: RuleSet, rummy: bool = False) -> bool:
    """T2: True when the selected card may be used by laying it off, not only in a new
    meld: "meld-or-lay-off" (seeds 000, 001, 003, 004), or after a "Rummy!" call (X1);
    never under "new-meld-only" (002: "no picking up to hit")."""
    return rummy or rules.discard_use == "meld-or-lay-off"


def pair_partners(
    meld: Meld, card: Card, others: Iterable[Card], rules: RuleSet
) -> list[tuple[Card, Meld]]:
    """Seed 002's pair with T2: the partners that let the selected ``card`` be laid off on
    ``meld`` when alone it does not fit ("A player may also lay down a pair of cards in
    sequence of the same suit on a run", 002; "a player may pick up from the discard pile
    to play a single card or pair of cards on a meld", 002).

    Returns ``[(partner, the meld with both)]``: each distinct natural card of ``others``
    that fits ``meld`` alone and after which ``card`` fits (L1, M3, M4;
    :func:`meld_pairs`); empty when ``card`` fits alone or is a joker (a wild joker is
    laid off alone, M5). The digital game lays the partner off first, then the card
    (:func:`plays.pair_layoffs`); the checker's advice offers the same pairs."""
    partners = {p for p, c in meld_pairs(meld, rules) if c is card}
    if not partners:
        return []
    return [
        (partner, extend(extend(meld, partner, rules), card, rules))
        for partner in dict.fromkeys(c for c in others if c in partners)
    ]


@lru_cache(maxsize=16384)
def meld_pairs(meld: Meld, rules: RuleSet) -> tuple[tuple[Card, Card], ...]:
    """Seed 002's pair on ``meld``: every ``(partner, card)`` of natural cards where
    ``card`` does not fit ``meld`` alone but fits once ``partner`` is laid off on it (the
    natural cards a meld takes are :func:`hand_melds.meld_accepts`')."""
    alone = meld_accepts(meld, rules)
    return tuple(
        (partner, card)
        for partner in alone
        for card in meld_accepts(extend(meld, partner, rules), rules)
        if card not in alone
    )


NEIGHBOURS: dict[Card, tuple[tuple[Card, int], ...]] = {
    card: tuple(
        (natural_card(r, card.suit), 1 << r)
        for r in sorted({card.rank % 13 + 1, (card.rank - 2) % 13 + 1})  # K and A both ways
    )
    for card in make_pack()
}
"""Per natural card, the cards next to it in its suit, each with its rank bit (bit r for
rank r): in seed 002's pair (:func:`meld_pairs`) the partner is always one of the card's,
since only a run takes a second card after a first, one place further on."""


def partner_in(card: Card, cards: Container[Card], takes: Container[Card]) -> bool:
    """True when one of ``cards`` (the hand) next to ``card`` in its suit is taken by the
    table (``takes``, :func:`hand_melds.accepts`): only then may ``card`` follow a partner
    laid off (:func:`table_pairs` need not be looked at otherwise)."""
    for near, _ in NEIGHBOURS.get(card, ()):
        if near in takes and near in cards:
            return True
    return False


def table_pairs(table: Sequence[Meld], rules: RuleSet) -> Mapping[Card, Sequence[tuple[Card, int]]]:
    """Seed 002's pair (:func:`meld_pairs`) for every card at once: for each natural card
    that a meld of ``table`` takes only after a partner, the ``(partner, meld index)``
    pairs, in table order. Read only (cached by the melds, which compare by identity;
    :data:`hand_melds.TABLES_KEPT` tables)."""
    return _table_pairs(tuple(table), rules)


@lru_cache(maxsize=TABLES_KEPT)
def _table_pairs(table: tuple[Meld, ...], rules: RuleSet) -> dict[Card, list[tuple[Card, int]]]:
    out: dict[Card, list[tuple[Card, int]]] = {}
    for index, meld in enumerate(table):
        for partner, card in meld_pairs(meld, rules):
            found = out.get(card)
            if found is None:
                out[card] = [(partner, index)]
            else:
                found.append((partner, index))
    return out


def barred_discard(rules: RuleSet, taken: Sequence[Card], keep: bool) -> Card | None:
    """O2, T3: the card of ``taken`` (a stack taken from the pile, bottom first) that may
    not be this turn's discard, or None. Under O2 it is the top card of the stack (002:
    "the last card in a set picked up from the discard pile cannot be used as the discard
    in that round"); under T3 the top card kept without using it (000, 002)."""
    if keep or rules.discard_to_go_out:
        return taken[-1]
    return None


def may_discard(hand: Sequence[Card], card: Card, barred: Card | None) -> bool:
    """O2, T3: ``card`` may be discarded from ``hand`` unless it is the ``barred`` card
    (:func:`barred_discard`); with two packs, a second copy of it may go."""
    return card is not barred or hand.count(card) > 1  # cards compare by identity


def keeps_any_discard(rules: RuleSet, barred: Card | None) -> bool:
    """O2, T3: True when :func:`keeps_a_discard` holds whatever the rest of the hand: no
    final discard is needed to go out and no card is barred. Then no play is refused for
    the discard it leaves, and the plays' listers skip the check."""
    return barred is None and not rules.discard_to_go_out


def keeps_a_discard(rules: RuleSet, rest: Sequence[Card], barred: Card | None) -> bool:
    """O2, T3: False when ``rest`` (a hand after a play) has no card it may discard: empty
    where a final discard is needed to go out (O2, 000, 002), or holding only the
    ``barred`` card. A pick-up whose every use fails this is refused."""
    if not rest:
        return not rules.discard_to_go_out
    return barred is None or any(may_discard(rest, c, barred) for c in rest)
