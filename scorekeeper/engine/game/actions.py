"""The moves of the digital game, as small frozen values.

Glossary:
- draw: the start of a turn: the top card of the stock, or any card of the discard pile
  together with every card above it (T1). ``index`` counts from the bottom of the pile:
  0 is the oldest card (the upcard), ``len(pile) - 1`` the top card.
- selected card: the card at ``index``; it must be used at once (T2), except the top card
  alone where the house lets it be kept (T3).
- lay down: put one or more new melds on the table (T4); several at once only matter for a
  first meld that must reach a minimum (M6).
- lay off: add one card to a meld on the table, naming the meld by its table index (L1, L3).
- pass: decline a choice: a "Rummy!" call (X1), melding out of turn (T7), or, with the stock
  gone under O3 "play on", drawing nothing.
- end round: with the stock gone under O3 "draw from the discard pile", the player will not
  (or cannot) draw, and the round ends.

Every action converts to and from a JSON-able dict (``to_json`` / :func:`action_from_json`),
``{"type": "draw", "from": "discard", "index": 3}``; cards in the scoring contract's
notation, a joker in a meld naming its card (``JK=7C``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Self

from ..cards import JOKERS, Card, CardError, format_cards, make_pack, parse_card, quoted
from ..messages import Message, say


def and_list(items: list[str]) -> Message | str:
    """``a``, ``a and b``, ``a and b and c``: ``items`` (one or more) joined with "and",
    a :class:`Message` when more than one."""
    if len(items) == 1:
        return items[0]
    return say("%(first)s and %(rest)s", first=items[0], rest=and_list(items[1:]))


class ActionError(ValueError):
    """A dict that is not an action: unknown type, missing field, bad card text."""


class _Move:
    """What every move shares: ``Draw.from_json(data)`` reads a move of that class."""

    __slots__ = ()

    @classmethod
    def from_json(cls, data: object) -> Self:
        """The move ``data`` describes, which must be of this class; raises
        :class:`ActionError` otherwise (see :func:`action_from_json`)."""
        action = action_from_json(data)
        if not isinstance(action, cls):
            raise ActionError(
                say("%(data)s is not a %(kind)s move", data=quoted(data), kind=cls.__name__)
            )
        return action


@dataclass(frozen=True, slots=True)
class Draw(_Move):
    """Draw from the stock (``source="stock"``) or the discard pile (``"discard"``,
    taking the card at ``index`` from the bottom and every card above it; T1)."""

    source: str = "stock"
    index: int | None = None

    def to_json(self) -> dict[str, object]:
        """``{"type": "draw", "from": "stock"}`` or with ``"index"`` for the pile."""
        if self.source == "stock":
            return {"type": "draw", "from": "stock"}
        return {"type": "draw", "from": "discard", "index": self.index}

    def describe(self) -> Message:
        """Words for people."""
        if self.source == "stock":
            return say("draws from the stock")
        return say("takes the discard pile from card %(index)s up", index=self.index)


@dataclass(frozen=True, slots=True)
class DrawTwo(_Move):
    """Draw two cards from the stock ("Boathouse Rum", T6; seed 002)."""

    def to_json(self) -> dict[str, object]:
        """``{"type": "draw_two"}``."""
        return {"type": "draw_two"}

    def describe(self) -> Message:
        """Words for people."""
        return say("draws two from the stock")


@dataclass(frozen=True, slots=True)
class LayDown(_Move):
    """Lay down the meld ``cards`` (T4), and the further melds ``more`` at the same time
    (a first meld that must reach M6's minimum may take two melds). Wild jokers are
    written declared: ``JK=7C`` (M5)."""

    cards: tuple[Card, ...]
    more: tuple[tuple[Card, ...], ...] = ()
    dealers_joker: bool = False
    """X2: one joker of these melds is the dealer's joker from beside the pack."""

    @property
    def melds(self) -> tuple[tuple[Card, ...], ...]:
        """Every meld laid down by this action, in order."""
        return (self.cards, *self.more)

    def to_json(self) -> dict[str, object]:
        """``{"type": "lay_down", "melds": [["7H", "7S", "7D"]]}``, with
        ``"dealers_joker": true`` when the dealer's joker is in them (X2)."""
        out: dict[str, object] = {
            "type": "lay_down",
            "melds": [[c.text for c in m] for m in self.melds],
        }
        return out | {"dealers_joker": True} if self.dealers_joker else out

    def describe(self) -> Message:
        """Words for people."""
        melds = and_list([format_cards(m) for m in self.melds])
        if self.dealers_joker:
            return say("lays down %(melds)s with the dealer's joker", melds=melds)
        return say("lays down %(melds)s", melds=melds)


@dataclass(frozen=True, slots=True)
class LayOff(_Move):
    """Lay off ``card`` onto the meld at table index ``meld`` (L1, L3); a wild joker is
    written declared (``JK=8D``)."""

    card: Card
    meld: int
    dealers_joker: bool = False
    """X2: the card is the dealer's joker from beside the pack, nominated wild."""

    def to_json(self) -> dict[str, object]:
        """``{"type": "lay_off", "card": "8D", "meld": 0}`` (``"dealers_joker": true``
        for the dealer's joker, X2)."""
        out = {"type": "lay_off", "card": self.card.text, "meld": self.meld}
        return out | {"dealers_joker": True} if self.dealers_joker else out

    def describe(self) -> Message:
        """Words for people."""
        if self.dealers_joker:
            return say(
                "lays off the dealer's joker as %(card)s on meld %(meld)s",
                card=self.card.display,
                meld=self.meld,
            )
        return say("lays off %(card)s on meld %(meld)s", card=self.card.display, meld=self.meld)


@dataclass(frozen=True, slots=True)
class Discard(_Move):
    """Discard ``card`` face up on the pile, ending the turn (T5); also the choice of the
    first discard by the player dealt an extra card (D4)."""

    card: Card

    def to_json(self) -> dict[str, object]:
        """``{"type": "discard", "card": "KD"}``."""
        return {"type": "discard", "card": self.card.text}

    def describe(self) -> Message:
        """Words for people."""
        return say("discards %(card)s", card=self.card.display)


_DISCARDS: dict[Card, Discard] = {card: Discard(card) for card in (*make_pack(), *JOKERS)}
_TAKES: dict[int, Draw] = {}

discard_of: Callable[[Card], Discard] = _DISCARDS.__getitem__
"""``Discard(card)``, one value kept per card of the pack, jokers declared or not (moves
are frozen values, so one serves every turn that discards ``card``: random play makes one
a turn, and lists one per card held)."""


@lru_cache(maxsize=4096)
def lay_off(card: Card, meld: int) -> LayOff:
    """``LayOff(card, meld)``, one value kept per card and meld index (moves are frozen
    values, as :func:`discard_of`: the play listers offer the same lay-off turn after
    turn, and a frozen value's own constructor costs four times the lookup)."""
    return LayOff(card, meld)


@lru_cache(maxsize=1024)
def lay_down(cards: tuple[Card, ...], more: tuple[tuple[Card, ...], ...] = ()) -> LayDown:
    """``LayDown(cards, more)``, one value kept per meld or melds (as :func:`lay_off`)."""
    return LayDown(cards, more)


def take_from(index: int) -> Draw:
    """``Draw("discard", index)``, one value kept per pile index (as :func:`discard_of`)."""
    move = _TAKES.get(index)
    if move is None:
        move = _TAKES[index] = Draw("discard", index)
    return move


@dataclass(frozen=True, slots=True)
class Pass(_Move):
    """Decline: no "Rummy!" call (X1), no melding out of turn (T7), or no draw with the
    stock gone under O3 "play on"."""

    def to_json(self) -> dict[str, object]:
        """``{"type": "pass"}``."""
        return {"type": "pass"}

    def describe(self) -> Message:
        """Words for people."""
        return say("passes")


@dataclass(frozen=True, slots=True)
class EndRound(_Move):
    """With the stock gone under O3 "draw from the discard pile", stop: the round ends."""

    def to_json(self) -> dict[str, object]:
        """``{"type": "end_round"}``."""
        return {"type": "end_round"}

    def describe(self) -> Message:
        """Words for people."""
        return say("stops drawing: the round ends")


@dataclass(frozen=True, slots=True)
class RummyCall(_Move):
    """Call "Rummy!" (X1) on the pile card at ``index``. Under "lay-off-only" (seed 002)
    the caller takes only the top card and lays it off at once onto ``meld``; under
    "play-then-turn" (seed 003) ``meld`` is None: the caller takes the card and every card
    above, must use it, then plays a normal turn."""

    index: int
    meld: int | None = None

    def to_json(self) -> dict[str, object]:
        """``{"type": "rummy", "index": 4, "meld": 1}`` (``meld`` may be null)."""
        return {"type": "rummy", "index": self.index, "meld": self.meld}

    def describe(self) -> Message:
        """Words for people."""
        return say('calls "Rummy!"')


@dataclass(frozen=True, slots=True)
class Nominate(_Move):
    """X2: the dealer nominates what the jokers do this hand, ``effect`` "wild", "double"
    or "split" (seed 002: "the dealer must nominate the effect of the jokers")."""

    effect: str

    def to_json(self) -> dict[str, object]:
        """``{"type": "nominate", "effect": "double"}``."""
        return {"type": "nominate", "effect": self.effect}

    def describe(self) -> Message:
        """Words for people."""
        return say("nominates the jokers %(effect)s", effect=self.effect)


@dataclass(frozen=True, slots=True)
class Split(_Move):
    """X2, jokers nominated "split": instead of a draw, split the discard pile at the card
    at ``index`` (from the bottom) with a joker: the dealer's joker (``dealers_joker``)
    or one from the hand. The cards below it are out of the hand, the card and those above
    it go to the player, who must use the card at once (T2)."""

    index: int
    dealers_joker: bool = False

    def to_json(self) -> dict[str, object]:
        """``{"type": "split", "index": 2, "dealers_joker": true}``."""
        return {"type": "split", "index": self.index, "dealers_joker": self.dealers_joker}

    def describe(self) -> Message:
        """Words for people."""
        whose = say("the dealer's joker") if self.dealers_joker else say("a joker")
        return say(
            "splits the discard pile at card %(index)s with %(whose)s",
            index=self.index,
            whose=whose,
        )


@dataclass(frozen=True, slots=True)
class Block(_Move):
    """X2: place a joker from the hand face down over the dealer's joker; the dealer may
    not use it for the rest of the hand."""

    def to_json(self) -> dict[str, object]:
        """``{"type": "block"}``."""
        return {"type": "block"}

    def describe(self) -> Message:
        """Words for people."""
        return say("blocks the dealer's joker with a joker")


Gambit = Nominate | Split | Block
"""The moves dealer's gambit adds (X2)."""

Action = Draw | DrawTwo | LayDown | LayOff | Discard | Pass | EndRound | RummyCall | Gambit
"""Any move of the game."""


def _card(value: object) -> Card:
    try:
        return parse_card(value)
    except CardError as error:
        raise ActionError(*error.args) from None


def _int(data: Mapping[str, object], key: str, *, optional: bool = False) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError(say("%(key)s must be a whole number", key=repr(key)))
    return value


def _melds(data: Mapping[str, object]) -> LayDown:
    melds = data.get("melds")
    if not isinstance(melds, list) or not melds or not all(isinstance(m, list) for m in melds):
        raise ActionError(say('a lay-down needs "melds": a list of lists of cards'))
    parsed = [tuple(_card(c) for c in m) for m in melds]
    return LayDown(parsed[0], tuple(parsed[1:]), _flag(data))


def _flag(data: Mapping[str, object]) -> bool:
    value = data.get("dealers_joker", False)
    if not isinstance(value, bool):
        raise ActionError(say('"dealers_joker" is true or false'))
    return value


def _draw(data: Mapping[str, object]) -> Draw:
    """T1: a draw from the stock, or from the discard pile at ``index`` up."""
    source = data.get("from", "stock")
    if source == "stock":
        return Draw("stock")
    if source == "discard":
        return Draw("discard", _int(data, "index"))
    raise ActionError(say('a draw is "from" the "stock" or the "discard" pile'))


def _gambit(kind: str, data: Mapping[str, object]) -> Action:
    """The X2 moves: nominate, split, block."""
    if kind == "nominate":
        effect = data.get("effect")
        if effect not in ("wild", "double", "split"):
            raise ActionError(say('a nomination\'s "effect" is "wild", "double" or "split"'))
        return Nominate(effect)
    if kind == "split":
        index = _int(data, "index")
        assert index is not None
        return Split(index, _flag(data))
    if kind == "block":
        return Block()
    raise ActionError(say("there is no action of type %(kind)s", kind=quoted(kind)))


def action_from_json(data: object) -> Action:
    """The action a dict describes (the shapes of each class's ``to_json``).

    Raises :class:`ActionError` naming what is wrong.
    """
    if not isinstance(data, Mapping):
        raise ActionError(say("an action is a JSON object with a type"))
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ActionError(say('an action\'s "type" names it in text, such as "draw" or "discard"'))
    if kind == "draw":
        return _draw(data)
    if kind == "lay_down":
        return _melds(data)
    if kind == "lay_off":
        meld = _int(data, "meld")
        assert meld is not None
        return LayOff(_card(data.get("card")), meld, _flag(data))
    if kind == "discard":
        return Discard(_card(data.get("card")))
    if kind == "rummy":
        index = _int(data, "index")
        assert index is not None
        return RummyCall(index, _int(data, "meld", optional=True))
    simple: dict[str, Action] = {"draw_two": DrawTwo(), "pass": Pass(), "end_round": EndRound()}
    if kind in simple:
        return simple[kind]
    return _gambit(kind, data)
