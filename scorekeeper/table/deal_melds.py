"""The melds a round by cards is being tapped into, answered by the engine under the game's
own rules (its preset and house rules): ``GET /games/<view token>/melds``, asked by the
deal-by-cards grid (static/dealgrid.js) at each tap. The table blueprint
(:data:`scorekeeper.table.views.bp`) takes the route through :func:`register`.

The grid decides no rule, and neither does this module: whether a card continues the meld
being filled (a set, M1 and M2; a run, M3 and M4, an ace high or low or round the corner;
jokers, M5 and P2), which cards fill a run between two tapped cards, and which cards
complete a set ("All four") are the engine's answers
(:mod:`scorekeeper.engine.checker.filling`: ``row_after_tap`` and ``set_completion``, every
verdict ``check_meld``'s). A GET that changes nothing, on the view link's right (the rules
are on the game page for all to see).

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

from flask import Blueprint, Response, abort, request
from flask_babel import gettext as _

from ..engine import Card, CardError, parse_cards, row_after_tap, set_completion
from . import entry
from . import services as sheet

MOST = 26
"""The most cards a meld row is asked about (a run of 13 cards, twice over)."""


def _cards(name: str, most: int) -> list[Card]:
    """The cards of the query's ``name``; 400 when one is not a card or there are too many."""
    text = request.args.get(name, "")
    try:
        cards = parse_cards(text) if len(text) <= most * 8 else None
    except CardError as problem:
        abort(400, description=str(problem))
    if cards is None or len(cards) > most:
        abort(400, description=_("Ask about %(most)s cards at most.", most=most))
    return cards


def melds(slug: str) -> Response:
    """The meld row's answer for a tap (module docstring): JSON ``{"meld", "complete"}``
    under the game's rules; 404 for no such game; 400 for a text that is not a card."""
    game = sheet.get_game(slug, rounds=False)
    if game is None:
        abort(404, description=_("There is no game at this link."))
    rules = sheet.rules_of(game)
    row, tapped = _cards("meld", MOST), _cards("card", 1)
    now = row_after_tap(row, tapped[0], rules) if tapped else row
    return entry.answer(
        200,
        meld=None if now is None else [c.text for c in now],
        complete=[c.text for c in set_completion(now or [], rules)],
    )


def register(bp: Blueprint) -> None:
    """Add the route to the table blueprint."""
    bp.add_url_rule("/games/<slug>/melds", view_func=melds, methods=["GET"])
