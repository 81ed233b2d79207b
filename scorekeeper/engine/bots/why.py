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

from ..cards import RANK_NAMES, Card, format_cards
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
)
from ..game.hand_melds import meld_points
from ..game.state import Observation
from ..game.taking import may_keep_top
from ..rules.dealers_joker import NOMINATION_MEANINGS
from ..scoring.score_round import card_points
from .hidden import unseen


def explain(view: Observation, action: Action, *, own: bool = False) -> str:
    """One sentence (no final full stop) saying what ``action`` does for ``view``'s seat
    and the figures behind it: said to the table (see the glossary: ``view``'s hand is
    left out before anything is said), or with ``own`` to the seat itself, its hand's
    figures added."""
    if not own:
        view = dataclasses.replace(view, hand=())
    if isinstance(action, Draw) and action.source == "discard":
        return _take(view, action.index or 0)
    if isinstance(action, Draw | DrawTwo):
        return _stock(view, action)
    if isinstance(action, LayDown):
        laid = " and ".join(format_cards(m) for m in action.melds)
        points = sum(meld_points(m, view.rules) for m in action.melds)
        return f"laid down {laid} (+{points})"
    if isinstance(action, LayOff):
        meld = view.melds_now[action.meld].cards if action.meld < len(view.melds_now) else ()
        points = card_points(action.card, view.rules)[0]
        return f"laid off {action.card.display} on {format_cards(meld)} (+{points})"
    if isinstance(action, Discard):
        return _discard(view, action.card)
    if isinstance(action, RummyCall) and action.index < len(view.pile):
        return f'called "Rummy!" on the {view.pile[action.index].display}'
    if isinstance(action, Pass):
        return "passed"
    if isinstance(action, EndRound):
        return "stopped drawing: the round ends"
    return _gambit(view, action)


def _take(view: Observation, index: int) -> str:
    taken = list(view.pile[index:])
    card = taken[0] if taken else None
    if card is None:
        return "took from the discard pile"
    many = f" ({len(taken)} cards)" if len(taken) > 1 else ""
    melds = candidate_melds(card, [*view.hand, *taken[1:]], view.rules)
    if melds:
        best = max(melds, key=lambda m: meld_points(m.cards, view.rules))
        points = meld_points(best.cards, view.rules)
        return f"took the {card.display}{many} to make {format_cards(best.cards)} (+{points})"
    for meld in view.melds_now:
        if card.rank and _fits(card, meld.cards):
            points = card_points(card, view.rules)[0]
            on = format_cards(meld.cards)
            return f"took the {card.display}{many} to lay it off on {on} (+{points})"
    if view.hand:
        return f"took the {card.display}{many} to keep it"
    if may_keep_top(view.rules, index, len(view.pile)):
        return f"took the {card.display}{many}, the top card, which it may keep (T3)"
    return f"took the {card.display}{many}, which it must use at once (T2)"


def _fits(card: Card, cards: tuple[Card, ...]) -> bool:
    naturals = [c.natural for c in cards if c.natural.rank]
    if naturals and all(c.rank == naturals[0].rank for c in naturals):
        return card.rank == naturals[0].rank
    return any(c.suit == card.suit and abs(c.rank - card.rank) == 1 for c in naturals)


def _stock(view: Observation, action: Action) -> str:
    what = "drew two from the stock" if isinstance(action, DrawTwo) else "drew from the stock"
    if not view.pile:
        return what
    top = view.pile[-1]
    if not view.hand:
        return f"{what}, leaving the {top.display} on the pile"
    if candidate_melds(top, view.hand, view.rules):
        return f"{what} rather than take the {top.display}"
    return f"{what}: the {top.display} on the pile makes no meld with its hand"


def _discard(view: Observation, card: Card) -> str:
    points = card_points(card, view.rules)[0]
    if card.rank == 0:
        return f"discarded a joker ({points} points in hand)"
    collectors = _collectors(view, card)
    who = (
        f"an opponent collects {collectors}"
        if collectors
        else f"no one collects {_plural(card.rank)}"
    )
    if not view.hand:
        return f"discarded {card.display}: {points} points in hand; {who}, {_in_sight(view, card)}"
    rest = [c for c in view.hand if c is not card]
    loose = not any(_partners(card, c) for c in rest)
    left = sum(1 for c in unseen(view) if c.rank == card.rank)
    shape = "a loose card" if loose else "it breaks up a pair or a near run"
    return f"discarded {card.display}: {shape}, {points} points in hand; {who}, {left} left unseen"


def _in_sight(view: Observation, card: Card) -> str:
    """How many other cards of ``card``'s rank are in sight (see the glossary), in words."""
    cards = [*view.pile, *(c.physical for m in view.melds_now for c in m.cards)]
    cards += [c for k in view.known for c in k]
    if card in view.known[view.seat]:
        cards.remove(card)
    count = sum(1 for c in cards if c.rank == card.rank)
    name = RANK_NAMES[card.rank]
    if not count:
        return f"no other {name} in sight"
    return f"{count} other {name if count == 1 else _plural(card.rank)} in sight"


def _gambit(view: Observation, action: Action) -> str:
    """Dealer's gambit's moves (X2) from what the table sees: the nomination, a split of
    the discard pile, a block."""
    if isinstance(action, Nominate) and action.effect in NOMINATION_MEANINGS:
        meaning = NOMINATION_MEANINGS[action.effect]
        return (
            f"nominated the jokers {action.effect} ({meaning}), before anyone looked at their cards"
        )
    if isinstance(action, Split) and action.index < len(view.pile):
        out, taken = action.index, len(view.pile) - action.index
        whose = "the dealer's joker" if action.dealers_joker else "a joker"
        return (
            f"split the discard pile at the {view.pile[action.index].display} with {whose}: "
            f"{out} card{'' if out == 1 else 's'} out of the hand, {taken} taken"
        )
    if isinstance(action, Block) and view.gambit is not None:
        ahead = view.totals[view.gambit.dealer] >= view.totals[view.seat]
        why = ": the dealer's total is level with or above its own" if ahead else ""
        return f"blocked the dealer's joker{why}"
    return action.describe()


def _partners(card: Card, other: Card) -> bool:
    if other.rank == 0:
        return False
    return other.rank == card.rank or (other.suit == card.suit and abs(other.rank - card.rank) <= 2)


def _plural(rank: int) -> str:
    name = RANK_NAMES[rank]
    return name + "es" if name.endswith("x") else name + "s"


def _collectors(view: Observation, card: Card) -> str:
    """What opponents were seen taking that ``card`` would help: its rank, or its suit."""
    for seat, cards in enumerate(view.known):
        if seat == view.seat or _partner_seat(view, seat):
            continue
        if any(c.rank == card.rank for c in cards):
            return _plural(card.rank)
        if any(c.suit == card.suit and abs(c.rank - card.rank) <= 2 for c in cards if c.rank):
            return f"{card.display[-1]} near {card.display}"
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


def to_person(sentence: str) -> str:
    """:func:`explain`'s ``sentence`` about a bot's move said to the person a hint is for:
    ``"drew from the stock: ... no meld with its hand"`` becomes ``"Draw from the stock:
    ... no meld with your hand"`` (capitalised)."""
    for done, advised in _TO_PERSON:
        if sentence.startswith(done):
            sentence = advised + sentence[len(done) :]
            break
    sentence = sentence.replace(" its hand", " your hand").replace(" its own", " your own")
    return sentence[:1].upper() + sentence[1:]


def with_expectation(sentence: str, best: float, runner_up: float | None) -> str:
    """``sentence`` and the expert's expected difference for it (points), against the next
    best move's when there was one (the sampled deals behind them are the
    :class:`expert.Decision`'s ``samples``, not said in the sentence)."""
    if runner_up is None:
        return f"{sentence} (expected {best:+.0f})"
    return f"{sentence} (expected {best:+.0f} against {runner_up:+.0f} for the next best move)"
