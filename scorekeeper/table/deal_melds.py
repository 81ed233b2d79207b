"""The melds a round by cards is being tapped into, answered by the engine under the game's
own rules (its preset and house rules): ``GET /games/<view token>/melds``, asked by the
deal-by-cards grid (static/dealgrid.js) at each tap. The table blueprint
(:data:`scorekeeper.table.views.bp`) takes the route through :func:`register`.

The grid decides no rule: whether a card continues the meld being filled (a set, M1 and
M2; a run, M3 and M4, an ace high or low or round the corner; jokers, M5 and P2), which
cards fill a run between two tapped cards, and which cards complete a set ("All four") are
each :func:`scorekeeper.engine.check_meld`'s answer here. A GET that changes nothing, on
the view link's right (the rules are on the game page for all to see).

Query: ``meld``, the cards of the meld row being filled (card notation, spaces between),
and ``card``, the card tapped (none: the row's answer only). Answer, JSON:

- ``meld``: the row after the tap (the card added; the run filled between two cards of one
  suit), or null when the card continues no meld holding the row's cards: it starts the
  next meld;
- ``complete``: the cards of the set's rank that would complete the row (the suits it
  lacks, as many as a legal set holds), empty when the row is no set being filled.

Refused, 400 ``{"message"}``: a text that is not a card, or too many cards.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from flask import Blueprint, Response, abort, request

from ..engine import JOKER, Card, CardError, IllegalMeld, Meld, RuleSet, check_meld, parse_cards
from . import entry
from . import services as sheet

MOST = 26
"""The most cards a meld row is asked about (a run of 13 cards, twice over)."""
SUITS = "SHDC"
_PACK = {
    (c.rank, c.suit): c
    for c in parse_cards(r + s for s in SUITS for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split())
}


def _natural(position: int, suit: str) -> Card:
    """The natural card at run ``position`` (1 the ace low, 14 the ace high, past 14 round
    the corner) of ``suit``."""
    return _PACK[((position - 1) % 13 + 1, suit)]


def _set_fillings(cards: list[Card], naturals: list[Card]) -> Iterator[list[Card]]:
    """``cards``, naturals of one rank, with the suits they lack, one more at a time."""
    suits = {c.suit for c in naturals}
    lacking = [_PACK[(naturals[0].rank, s)] for s in SUITS if s not in suits]
    yield from (cards + lacking[:k] for k in range(1, len(lacking) + 1))


def _run_fillings(cards: list[Card], naturals: list[Card]) -> Iterator[list[Card]]:
    """``cards``, naturals of one suit, with the ranks of each window of run positions
    holding theirs (every length, every first position; round the corner too)."""
    ranks, suit = {c.rank for c in naturals}, naturals[0].suit
    for length in range(max(len(ranks), 2), 14):
        for low in range(1, 14):
            window = [_natural(p, suit) for p in range(low, low + length)]
            if ranks <= {c.rank for c in window}:
                yield cards + [c for c in window if c.rank not in ranks]


def _fillings(cards: Sequence[Card]) -> Iterator[list[Card]]:
    """Every way of adding cards to ``cards`` that might make a meld (unchecked): plain
    jokers more jokers, naturals of one rank the suits they lack, naturals of one suit of
    distinct ranks the ranks of a run holding theirs."""
    yield list(cards)
    if all(c is JOKER for c in cards):
        yield from (list(cards) + [JOKER] * k for k in range(1, 4))
        return
    naturals = [c.natural for c in cards if c.natural.rank]
    if len(naturals) < len(cards):  # a plain joker among naturals, or one doubling a set
        return
    if len({c.rank for c in naturals}) == 1:
        yield from _set_fillings(list(cards), naturals)
    if len({c.suit for c in naturals}) == 1 and len({c.rank for c in naturals}) == len(cards):
        yield from _run_fillings(list(cards), naturals)


def smallest_meld(cards: Sequence[Card], rules: RuleSet) -> Meld | None:
    """The smallest legal meld under ``rules`` holding every one of ``cards`` (the cards
    themselves when they are one; padded with the cards a set or run of theirs lacks), or
    None when no legal meld holds them all. Every verdict is :func:`check_meld`'s (M1 to
    M5, P2); of two melds of one size, a set before a run, runs by their first position."""
    for candidate in sorted(_fillings(cards), key=len):
        try:
            return check_meld(candidate, rules)
        except IllegalMeld:
            continue
    return None


def placed(meld: Sequence[Card], card: Card, rules: RuleSet) -> list[Card] | None:
    """The meld row ``meld`` after ``card`` is tapped into it: the card added at the end,
    or, after one natural card of its suit, the run between the two (the cards of the
    smallest legal run holding both, from one to the other: 5♥ then 8♥ gives 5♥ 6♥ 7♥ 8♥;
    an ace at the nearer end; round the corner only where M4 allows it). None when no
    legal meld holds the row's cards and ``card``, or none holds them side by side in a
    run (5♥ 6♥ 7♥ then 10♥): it starts the next meld."""
    grown = smallest_meld([*meld, card], rules)
    if grown is None or grown.kind != "run":
        return None if grown is None else [*meld, card]
    at = sorted(grown.cards.index(c) for c in (*meld, card))
    if len(meld) == 1 and not (meld[0].is_joker or card.is_joker):
        return list(grown.cards[at[0] : at[-1] + 1])
    return [*meld, card] if at[-1] - at[0] + 1 == len(at) else None


def completing(meld: Sequence[Card], rules: RuleSet) -> list[Card]:
    """The natural cards of the rank of ``meld`` (naturals of one rank) that complete it as
    a set ("All four"): the suits it lacks, while a legal set (M1, M2) holds them. Empty
    for an empty row, a run, jokers, or cards no set holds."""
    if not meld or any(c.is_joker for c in meld) or len({c.rank for c in meld}) > 1:
        return []
    found = smallest_meld(meld, rules)
    if found is None or found.kind != "set":
        return []
    added: list[Card] = []
    for suit in SUITS:
        card = _PACK[(meld[0].rank, suit)]
        if card not in meld and smallest_meld([*meld, *added, card], rules) is not None:
            added.append(card)
    return added


def _cards(name: str, most: int) -> list[Card]:
    """The cards of the query's ``name``; 400 when one is not a card or there are too many."""
    text = request.args.get(name, "")
    try:
        cards = parse_cards(text) if len(text) <= most * 8 else None
    except CardError as problem:
        abort(400, description=str(problem))
    if cards is None or len(cards) > most:
        abort(400, description=f"Ask about {most} cards at most.")
    return cards


def melds(slug: str) -> Response:
    """The meld row's answer for a tap (module docstring): JSON ``{"meld", "complete"}``
    under the game's rules; 404 for no such game; 400 for a text that is not a card."""
    game = sheet.get_game(slug, rounds=False)
    if game is None:
        abort(404, description="There is no game at this link.")
    rules = sheet.rules_of(game)
    row, tapped = _cards("meld", MOST), _cards("card", 1)
    now = placed(row, tapped[0], rules) if tapped else row
    return entry.answer(
        200,
        meld=None if now is None else [c.text for c in now],
        complete=[c.text for c in completing(now or [], rules)],
    )


def register(bp: Blueprint) -> None:
    """Add the route to the table blueprint."""
    bp.add_url_rule("/games/<slug>/melds", view_func=melds, methods=["GET"])
