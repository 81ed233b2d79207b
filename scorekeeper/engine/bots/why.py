"""Why a move was made: one plain sentence from the figures behind it.

Glossary:
- said to the table: the sentence every seat is shown with a bot's move (the moves list and
  the frames on every phone at a table). It is built only from what every seat may know:
  the move, the discard pile, the table, the cards each seat was seen taking (``known``),
  how many cards each hand holds, the totals and the rules; never from the mover's hand
  nor from a figure computed from it (what its hand melds with, how many cards of a rank
  its seat has not seen). So it reads the same whatever cards the mover holds.
- said to the seat itself: a hint, or the review of the person's own moves: the figures of
  its own hand are added (a loose card or a broken pair, the meld a card taken makes with
  the hand, how many cards of a discard's rank its seat has not seen, :func:`hidden.unseen`).
- in sight: the cards of a rank on the table, in the discard pile or seen taken.
- expected difference: the expert's figure (:mod:`expert`): the points its side is
  expected to score this round less the others', averaged over sampled deals; it comes
  from the hand, so it is said to the seat itself only.

:func:`explain` gives the sentence (said to the table: ``"took the 7♦ (3 cards) to make
7♦ 8♦ 9♦ (+24)"``, ``"discarded K♠: 10 points in hand; no one collects kings, 1 other king
in sight"``; to the seat itself: ``"discarded K♠: a loose card, 10 points in hand; no one
collects kings, 2 left unseen"``); :func:`with_expectation` adds the expert's figures.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Final

from ..cards import RANK_NAMES, Card, format_cards, rank_name
from ..checker.candidates import candidate_melds
from ..game.actions import (
    Action,
    Block,
    Discard,
    Draw,
    DrawTwo,
    EndRound,
    LayDown,
    LayOff,
    Nominate,
    Pass,
    RummyCall,
    Split,
    and_list,
)
from ..game.hand_melds import meld_points
from ..game.state import Observation
from ..game.taking import may_keep_top
from ..messages import N_, Message, say, say_plural
from ..rules.dealers_joker import NOMINATION_MEANINGS
from ..scoring.score_round import card_points
from .hidden import unseen


def explain(view: Observation, action: Action, *, own: bool = False) -> Message:
    """One sentence (no final full stop, a :class:`Message`) saying what ``action`` does
    for ``view``'s seat and the figures behind it: said to the table (see the glossary:
    ``view``'s hand is left out before anything is said), or with ``own`` to the seat
    itself, its hand's figures added."""
    if not own:
        view = dataclasses.replace(view, hand=())
    if isinstance(action, Draw) and action.source == "discard":
        return _take(view, action.index or 0)
    if isinstance(action, Draw | DrawTwo):
        return _stock(view, action)
    if isinstance(action, LayDown):
        laid = and_list([format_cards(m) for m in action.melds])
        points = sum(meld_points(m, view.rules) for m in action.melds)
        return say("laid down %(melds)s (+%(points)s)", melds=laid, points=points)
    if isinstance(action, LayOff):
        meld = view.melds_now[action.meld].cards if action.meld < len(view.melds_now) else ()
        points = card_points(action.card, view.rules)[0]
        return say(
            "laid off %(card)s on %(meld)s (+%(points)s)",
            card=action.card.display,
            meld=format_cards(meld),
            points=points,
        )
    if isinstance(action, Discard):
        return _discard(view, action.card)
    if isinstance(action, RummyCall) and action.index < len(view.pile):
        return say('called "Rummy!" on the %(card)s', card=view.pile[action.index].display)
    if isinstance(action, Pass):
        return say("passed")
    if isinstance(action, EndRound):
        return say("stopped drawing: the round ends")
    return _gambit(view, action)


def _take(view: Observation, index: int) -> Message:
    taken = list(view.pile[index:])
    card = taken[0] if taken else None
    if card is None:
        return say("took from the discard pile")
    n, shown = len(taken), card.display
    used = _take_to_use(view, card, taken)
    if used is not None:
        return used
    if view.hand:
        return say_plural(
            "took the %(card)s to keep it",
            "took the %(card)s (%(count)s cards) to keep it",
            n,
            card=shown,
        )
    if may_keep_top(view.rules, index, len(view.pile)):
        return say_plural(
            "took the %(card)s, the top card, which it may keep (T3)",
            "took the %(card)s (%(count)s cards), the top card, which it may keep (T3)",
            n,
            card=shown,
        )
    return say_plural(
        "took the %(card)s, which it must use at once (T2)",
        "took the %(card)s (%(count)s cards), which it must use at once (T2)",
        n,
        card=shown,
    )


def _take_to_use(view: Observation, card: Card, taken: list[Card]) -> Message | None:
    """A take that makes a meld with the hand and the cards above it, or lays the card off
    (said with the points), else None."""
    n, shown = len(taken), card.display
    melds = candidate_melds(card, [*view.hand, *taken[1:]], view.rules)
    if melds:
        best = max(melds, key=lambda m: meld_points(m.cards, view.rules))
        return say_plural(
            "took the %(card)s to make %(meld)s (+%(points)s)",
            "took the %(card)s (%(count)s cards) to make %(meld)s (+%(points)s)",
            n,
            card=shown,
            meld=format_cards(best.cards),
            points=meld_points(best.cards, view.rules),
        )
    for meld in view.melds_now:
        if card.rank and _fits(card, meld.cards):
            return say_plural(
                "took the %(card)s to lay it off on %(meld)s (+%(points)s)",
                "took the %(card)s (%(count)s cards) to lay it off on %(meld)s (+%(points)s)",
                n,
                card=shown,
                meld=format_cards(meld.cards),
                points=card_points(card, view.rules)[0],
            )
    return None


def _fits(card: Card, cards: tuple[Card, ...]) -> bool:
    naturals = [c.natural for c in cards if c.natural.rank]
    if naturals and all(c.rank == naturals[0].rank for c in naturals):
        return card.rank == naturals[0].rank
    return any(c.suit == card.suit and abs(c.rank - card.rank) == 1 for c in naturals)


_STOCK: Final = {
    False: (
        N_("drew from the stock"),
        N_("drew from the stock, leaving the %(card)s on the pile"),
        N_("drew from the stock rather than take the %(card)s"),
        N_("drew from the stock: the %(card)s on the pile makes no meld with its hand"),
    ),
    True: (
        N_("drew two from the stock"),
        N_("drew two from the stock, leaving the %(card)s on the pile"),
        N_("drew two from the stock rather than take the %(card)s"),
        N_("drew two from the stock: the %(card)s on the pile makes no meld with its hand"),
    ),
}
"""A draw from the stock, by one card or two: alone, leaving the top card (said to the
table), rather than take it (it melds with the hand), or as it makes no meld."""


def _stock(view: Observation, action: Action) -> Message:
    said = _STOCK[isinstance(action, DrawTwo)]
    if not view.pile:
        return say(said[0])
    top = view.pile[-1].display
    if not view.hand:
        return say(said[1], card=top)
    if candidate_melds(view.pile[-1], view.hand, view.rules):
        return say(said[2], card=top)
    return say(said[3], card=top)


def _discard(view: Observation, card: Card) -> Message:
    points = card_points(card, view.rules)[0]
    if card.rank == 0:
        return say("discarded a joker (%(points)s points in hand)", points=points)
    collectors = _collectors(view, card)
    who = (
        say("an opponent collects %(what)s", what=collectors)
        if collectors
        else say("no one collects %(ranks)s", ranks=_plural(card.rank))
    )
    if not view.hand:
        return say(
            "discarded %(card)s: %(points)s points in hand; %(who)s, %(sight)s",
            card=card.display,
            points=points,
            who=who,
            sight=_in_sight(view, card),
        )
    rest = [c for c in view.hand if c is not card]
    loose = not any(_partners(card, c) for c in rest)
    left = sum(1 for c in unseen(view) if c.rank == card.rank)
    shape = say("a loose card") if loose else say("it breaks up a pair or a near run")
    return say(
        "discarded %(card)s: %(shape)s, %(points)s points in hand; %(who)s, %(left)s left unseen",
        card=card.display,
        shape=shape,
        points=points,
        who=who,
        left=left,
    )


def _in_sight(view: Observation, card: Card) -> Message:
    """How many other cards of ``card``'s rank are in sight (see the glossary), in words."""
    cards = [*view.pile, *(c.physical for m in view.melds_now for c in m.cards)]
    cards += [c for k in view.known for c in k]
    if card in view.known[view.seat]:
        cards.remove(card)
    count = sum(1 for c in cards if c.rank == card.rank)
    name = rank_name(card.rank)
    if not count:
        return say("no other %(rank)s in sight", rank=name)
    return say_plural(
        "%(count)s other %(rank)s in sight",
        "%(count)s other %(ranks)s in sight",
        count,
        rank=name,
        ranks=_plural(card.rank),
    )


def _gambit(view: Observation, action: Action) -> Message:
    """Dealer's gambit's moves (X2) from what the table sees: the nomination, a split of
    the discard pile, a block."""
    if isinstance(action, Nominate) and action.effect in NOMINATION_MEANINGS:
        return say(
            "nominated the jokers %(effect)s (%(meaning)s), before anyone looked at their cards",
            effect=action.effect,
            meaning=NOMINATION_MEANINGS[action.effect],
        )
    if isinstance(action, Split) and action.index < len(view.pile):
        out, taken = action.index, len(view.pile) - action.index
        whose = say("the dealer's joker") if action.dealers_joker else say("a joker")
        return say_plural(
            "split the discard pile at the %(card)s with %(whose)s: "
            "%(count)s card out of the hand, %(taken)s taken",
            "split the discard pile at the %(card)s with %(whose)s: "
            "%(count)s cards out of the hand, %(taken)s taken",
            out,
            card=view.pile[action.index].display,
            whose=whose,
            taken=taken,
        )
    if isinstance(action, Block) and view.gambit is not None:
        if view.totals[view.gambit.dealer] >= view.totals[view.seat]:
            return say(
                "blocked the dealer's joker: the dealer's total is level with or above its own"
            )
        return say("blocked the dealer's joker")
    return action.describe()


def _partners(card: Card, other: Card) -> bool:
    if other.rank == 0:
        return False
    return other.rank == card.rank or (other.suit == card.suit and abs(other.rank - card.rank) <= 2)


RANK_PLURALS: Final = {1: N_("aces"), 11: N_("jacks"), 12: N_("queens"), 13: N_("kings")}
"""The named ranks in the plural (a number rank's plural is its figure and "s": ``7s``)."""


def _plural(rank: int) -> Message | str:
    if rank in RANK_PLURALS:
        return say(RANK_PLURALS[rank])
    return RANK_NAMES[rank] + "s"


def _collectors(view: Observation, card: Card) -> Message | str:
    """What opponents were seen taking that ``card`` would help: its rank, or its suit."""
    for seat, cards in enumerate(view.known):
        if seat == view.seat or _partner_seat(view, seat):
            continue
        if any(c.rank == card.rank for c in cards):
            return _plural(card.rank)
        if any(c.suit == card.suit and abs(c.rank - card.rank) <= 2 for c in cards if c.rank):
            return say("%(suit)s near %(card)s", suit=card.display[-1], card=card.display)
    return ""


def _partner_seat(view: Observation, seat: int) -> bool:
    if view.teams is None:
        return False
    return any(view.seat in team and seat in team for team in view.teams)


_TO_PERSON = (
    ("took ", "take "),
    ("drew ", "draw "),
    ("laid down ", "lay down "),
    ("laid off ", "lay off "),
    ("discarded ", "discard "),
    ("called ", "call "),
    ("passed", "pass"),
    ("stopped drawing", "stop drawing"),
    ("nominated ", "nominate "),
    ("blocked ", "block "),
)
"""The opening verbs of :func:`explain`'s sentences, as a bot did it and as a hint
advises the person to do it."""


def _person_text(text: str) -> str:
    """A sentence's words about a bot's move turned to the person a hint is for."""
    for done, advised in _TO_PERSON:
        if text.startswith(done):
            text = advised + text[len(done) :]
            break
    return text.replace(" its hand", " your hand").replace(" its own", " your own")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def to_person(sentence: str) -> str:
    """:func:`explain`'s ``sentence`` about a bot's move said to the person a hint is for:
    ``"drew from the stock: ... no meld with its hand"`` becomes ``"Draw from the stock:
    ... no meld with your hand"`` (capitalised). A :class:`Message` gives a
    :class:`Message` whose id is the person's form (:data:`PERSON_FORMS`), the same
    figures; a sentence that starts with a figure (:func:`with_expectation`) turns that
    figure."""
    if not isinstance(sentence, Message):
        return _capital(_person_text(sentence))
    return _message_to_person(sentence)


def _message_to_person(message: Message) -> Message:
    figures = dict(message.figures)
    lead = PLACEHOLDER.match(message.template)
    if lead is not None and isinstance(figures.get(lead.group(1)), Message):
        figures[lead.group(1)] = _message_to_person(figures[lead.group(1)])
    if message.plural_template is not None and message.number is not None:
        figures.pop("count", None)
        return say_plural(
            _person_id(message.template),
            _person_id(message.plural_template),
            message.number,
            **figures,
        )
    return say(_person_id(message.template), **figures)


def _person_id(template: str) -> str:
    """The person's form of message id ``template``: capitalised unless it starts with a
    figure."""
    turned = _person_text(template)
    return turned if PLACEHOLDER.match(turned) else _capital(turned)


PLACEHOLDER: Final = re.compile(r"%\((\w+)\)s")
"""A message id's placeholder, ``%(card)s``."""

PERSON_FORMS: Final = (
    N_("Take the %(card)s, which it must use at once (T2)"),
    N_("Take the %(card)s (%(count)s cards), which it must use at once (T2)"),
    N_("Discard %(card)s: %(shape)s, %(points)s points in hand; %(who)s, %(left)s left unseen"),
    N_("Lay down %(melds)s (+%(points)s)"),
    N_("Lay off %(card)s on %(meld)s (+%(points)s)"),
    N_('Call "Rummy!" on the %(card)s'),
    N_("Pass"),
    N_("Stop drawing: the round ends"),
    N_("Take from the discard pile"),
    N_("Take the %(card)s to make %(meld)s (+%(points)s)"),
    N_("Take the %(card)s (%(count)s cards) to make %(meld)s (+%(points)s)"),
    N_("Take the %(card)s to keep it"),
    N_("Take the %(card)s (%(count)s cards) to keep it"),
    N_("Take the %(card)s, the top card, which it may keep (T3)"),
    N_("Take the %(card)s (%(count)s cards), the top card, which it may keep (T3)"),
    N_("Draw from the stock"),
    N_("Draw from the stock, leaving the %(card)s on the pile"),
    N_("Draw from the stock rather than take the %(card)s"),
    N_("Draw from the stock: the %(card)s on the pile makes no meld with your hand"),
    N_("Draw two from the stock"),
    N_("Draw two from the stock, leaving the %(card)s on the pile"),
    N_("Draw two from the stock rather than take the %(card)s"),
    N_("Draw two from the stock: the %(card)s on the pile makes no meld with your hand"),
    N_("Discard a joker (%(points)s points in hand)"),
    N_("Discard %(card)s: %(points)s points in hand; %(who)s, %(sight)s"),
    N_("Nominate the jokers %(effect)s (%(meaning)s), before anyone looked at their cards"),
    N_(
        "Split the discard pile at the %(card)s with %(whose)s: %(count)s card "
        "out of the hand, %(taken)s taken"
    ),
    N_(
        "Split the discard pile at the %(card)s with %(whose)s: %(count)s cards "
        "out of the hand, %(taken)s taken"
    ),
    N_("Block the dealer's joker"),
    N_("Take the %(card)s to lay it off on %(meld)s (+%(points)s)"),
    N_("Take the %(card)s (%(count)s cards) to lay it off on %(meld)s (+%(points)s)"),
    N_("Block the dealer's joker: the dealer's total is level with or above your own"),
    N_("Takes the discard pile from card %(index)s up"),
    N_("Draws two from the stock"),
    N_("Lays down %(melds)s"),
    N_("Lays off %(card)s on meld %(meld)s"),
    N_("Discards %(card)s"),
    N_("Passes"),
    N_("Stops drawing: the round ends"),
    N_('Calls "Rummy!"'),
    N_("Nominates the jokers %(effect)s"),
    N_("Splits the discard pile at card %(index)s with %(whose)s"),
    N_("Blocks the dealer's joker with a joker"),
    N_("Draws from the stock"),
    N_("Lays down %(melds)s with the dealer's joker"),
    N_("Lays off the dealer's joker as %(card)s on meld %(meld)s"),
)
"""Every message id :func:`to_person` makes, marked for the catalogues (tests check that
it holds every one :func:`explain` can lead to)."""


def with_expectation(sentence: str, best: float, runner_up: float | None) -> Message:
    """``sentence`` and the expert's expected difference for it (points), against the next
    best move's when there was one (the sampled deals behind them are the
    :class:`expert.Decision`'s ``samples``, not said in the sentence)."""
    if runner_up is None:
        return say("%(sentence)s (expected %(best)s)", sentence=sentence, best=f"{best:+.0f}")
    return say(
        "%(sentence)s (expected %(best)s against %(runner_up)s for the next best move)",
        sentence=sentence,
        best=f"{best:+.0f}",
        runner_up=f"{runner_up:+.0f}",
    )
