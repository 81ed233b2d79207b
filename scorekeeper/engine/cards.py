"""Cards, their text notation, and packs.

Glossary:
- card: a rank and a suit, written ``7H``, ``10D``, ``AS``; ``T`` is accepted for ten and
  the suit may be written ``♠ ♥ ♦ ♣`` (score-contract.md, "Card notation").
- joker: written ``JK``. Inside a meld a wild joker names the card it stands for,
  ``JK=7C`` (catalogue M5; seeds 002, 003). A Persian joker is never wild and stays ``JK``
  (catalogue P2; seeds 000, 002).
- pack: 52 cards, plus 0, 1, 2 or 4 jokers (catalogue D2); two packs for larger tables.

Cards are small frozen values, interned: ``parse_card("7h") is parse_card("7H")``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from itertools import product
from typing import Final

from .messages import N_, Message, say

SUITS: Final = ("S", "H", "D", "C")
SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES: Final = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
RANKS: Final = tuple(range(1, 14))
RANK_TEXT: Final = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K"} | {r: str(r) for r in range(2, 10)}
RANK_NAMES: Final = {1: N_("ace"), 11: N_("jack"), 12: N_("queen"), 13: N_("king")} | {
    r: str(r) for r in range(2, 11)
}
JOKER_TEXT: Final = "JK"

_SUIT_INPUT: Final = {"S": "S", "H": "H", "D": "D", "C": "C"} | {
    sym: s for s, sym in SUIT_SYMBOLS.items()
}
_RANK_INPUT: Final = {text: rank for rank, text in RANK_TEXT.items()} | {"T": 10, "1": 1}


def rank_name(rank: int) -> Message | str:
    """A rank in words for people: ``ace``, ``queen`` as messages, ``7`` as its figure."""
    return RANK_NAMES[rank] if 2 <= rank <= 10 else say(RANK_NAMES[rank])


class CardError(ValueError):
    """A card text that is not a card: ``CardError("'1X' is not a card ...")``."""


class Card:
    """One card: ``rank`` 1 (ace) to 13 (king) and ``suit`` S/H/D/C, or a joker.

    A joker has ``rank == 0`` and ``suit == ""``; a wild joker laid in a meld carries
    ``stands_for``, the natural card it was declared to be (catalogue M5). Cards are
    immutable and interned, one object per card, so equality and hashing are identity
    (fast in sets and dicts): get cards from :func:`parse_card`, :func:`natural_card`,
    :func:`declare` and :func:`make_pack`, never by calling the class.
    """

    __slots__ = ("rank", "suit", "stands_for", "text", "order")
    rank: int
    suit: str
    stands_for: Card | None
    text: str
    """Contract notation: ``7H``, ``10D``, ``JK``, ``JK=7C``."""
    order: int
    """A number unique to the card, for stable sorting and compact storage."""

    def __init__(self, rank: int, suit: str, stands_for: Card | None = None) -> None:
        set_ = object.__setattr__
        set_(self, "rank", rank)
        set_(self, "suit", suit)
        set_(self, "stands_for", stands_for)
        if rank == 0:
            set_(self, "text", JOKER_TEXT if stands_for is None else f"JK={stands_for.text}")
        else:
            set_(self, "text", RANK_TEXT[rank] + suit)
        own = rank * 5 + ("SHDC".index(suit) + 1 if suit else 0)
        set_(self, "order", own + (stands_for.order + 1) * 100 if stands_for else own)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a card cannot be changed")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (self.text,))

    @property
    def is_joker(self) -> bool:
        """True for a joker, declared or not."""
        return self.rank == 0

    @property
    def natural(self) -> Card:
        """The card this one plays as: the declared card for a wild joker, else itself."""
        return self.stands_for if self.stands_for is not None else self

    @property
    def physical(self) -> Card:
        """The card as it is in the pack: a declared joker is a plain ``JK``."""
        return JOKER if self.rank == 0 else self

    @property
    def display(self) -> str:
        """Text for people, with suit symbols: ``7♥``, ``10♦``, ``JK``, ``JK(7♣)``,
        ``JK(double)`` (X2)."""
        if self.rank == 0 and self.text == "JK=double":
            return "JK(double)"
        if self.rank == 0:
            return "JK" if self.stands_for is None else f"JK({self.stands_for.display})"
        return RANK_TEXT[self.rank] + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> Message:
        """Words, as a :class:`Message`: ``7 of hearts``, ``queen of spades``, ``joker``,
        ``joker as 7 of clubs``, ``joker doubling the set`` (X2)."""
        if self.rank == 0 and self.text == "JK=double":
            return say("joker doubling the set")
        if self.rank == 0:
            if self.stands_for is None:
                return say("joker")
            return say("joker as %(card)s", card=self.stands_for.name)
        return say(
            "%(rank)s of %(suit)s", rank=rank_name(self.rank), suit=say(SUIT_NAMES[self.suit])
        )

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"


JOKER: Final = Card(0, "")
DOUBLE: Final = Card(0, "")
"""A joker nominated "double" under dealer's gambit (X2; seed 002: "The joker doubles the
value of any set. The joker is placed face up over any meld, whilst it is being melded"):
written ``JK=double`` in a meld, like ``JK=7C`` for a wild joker (score-contract.md)."""
object.__setattr__(DOUBLE, "text", "JK=double")
object.__setattr__(DOUBLE, "order", 99)
_NATURALS: Final = {(r, s): Card(r, s) for s in SUITS for r in RANKS}
_DECLARED: Final = {c: Card(0, "", c) for c in _NATURALS.values()}
JOKERS: Final = frozenset([JOKER, DOUBLE, *_DECLARED.values()])
"""Every joker card: plain, the dealer's joker nominated double (X2), and declared as each
natural card (M5)."""


def _casings(text: str) -> set[str]:
    """``text`` in every mix of upper and lower case: ``jk``, ``jK``, ``Jk``, ``JK``."""
    return {"".join(chars) for chars in product(*({c.upper(), c.lower()} for c in text))}


def _spellings() -> dict[object, Card]:
    """Every card text, in any case, as its card: ``7H``, ``th``, ``7♥``, ``Jk``, ``JK=7c``,
    ``JK=double`` (the one table :func:`parse_card` reads; 1,460 texts)."""
    naturals = {
        rank_text + suit_text: _NATURALS[(rank, suit)]
        for rank_text, rank in _RANK_INPUT.items()
        for suit_text, suit in _SUIT_INPUT.items()
    }
    declared = {f"{JOKER_TEXT}={text}": _DECLARED[card] for text, card in naturals.items()}
    upper = naturals | declared | {JOKER_TEXT: JOKER, "JK=DOUBLE": DOUBLE}
    return {text: card for key, card in upper.items() for text in _casings(key)}


_CARD_OF_TEXT: Final = _spellings()


def quoted(value: object, most: int = 24) -> str:
    """``value`` as a refusal quotes it: its ``repr``, cut to ``most`` characters with
    "..." (a 200 KB text sent as a card is not echoed back to the sender)."""
    text = repr(value)
    return text if len(text) <= most else f"{text[: most - 3]}..."


def parse_card(text: object) -> Card:
    """Parse one card in the contract notation, case-insensitive.

    ``"AS"``, ``"10h"``, ``"TD"``, ``"q♣"``, ``"JK"``, ``"JK=7C"`` (a joker standing for
    the seven of clubs). Returns the interned :class:`Card`.

    Raises :class:`CardError` with a message a player understands when the text is not a
    card (unknown rank or suit, a joker standing for a joker, not a string).
    """
    try:
        return _CARD_OF_TEXT[text]
    except (KeyError, TypeError):
        return _parse_spelled(text)


def _parse_spelled(text: object) -> Card:
    """``text`` with spaces around it, else :class:`CardError`."""
    if not isinstance(text, str):
        raise CardError(
            say(
                "%(text)s is not a card: write cards as text such as 7H, 10D, AS, JK",
                text=quoted(text),
            )
        )
    key = text.strip().upper()
    card = _CARD_OF_TEXT.get(key)
    if card is not None:
        return card
    if key.startswith("JK="):
        raise CardError(
            say(
                "%(text)s is not a card: a joker in a meld names a real card, as in JK=7C",
                text=quoted(text),
            )
        )
    raise CardError(
        say(
            "%(text)s is not a card: write a rank (A, 2-10, J, Q, K) then a suit "
            "(S, H, D, C), as in 7H, 10D, AS, or JK for a joker",
            text=quoted(text),
        )
    )


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse several cards: ``"7H 7S 7D"`` (spaces or commas) or a list of card texts.

    Raises :class:`CardError` for the first text that is not a card.
    """
    items = text.replace(",", " ").split() if isinstance(text, str) else text
    return [parse_card(t) for t in items]


def parse_card_texts(texts: Sequence[object]) -> tuple[Card, ...]:
    """The cards of a list of card texts, as :func:`parse_card` reads each: ``["7H",
    "jk=7c"]`` -> ``(7H, JK=7C)``, the table looked up for them all at once (the contract's
    melds and hands are read this way). Raises :class:`CardError` for the first text that
    is not a card."""
    try:
        return tuple(map(_CARD_OF_TEXT.__getitem__, texts))
    except (KeyError, TypeError):  # padded, or not a card: parse_card says which
        return tuple(map(parse_card, texts))


def format_cards(cards: Iterable[Card], *, symbols: bool = True) -> str:
    """Cards as one line for people (``7♥ 7♠ 7♦``) or in notation (``7H 7S 7D``)."""
    return " ".join(c.display if symbols else c.text for c in cards)


class Later:
    """Words worked out only when put into a message: ``f"{Later(make)}"`` formats
    ``make()``. A check that raises nothing then pays nothing for its message's words."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], str]) -> None:
        self.make = make

    def __format__(self, spec: str) -> str:
        return format(self.make(), spec)


def declare(joker: Card, stands_for: Card) -> Card:
    """A joker declared as ``stands_for`` (catalogue M5): ``declare(JOKER, 7C) -> JK=7C``."""
    if not joker.is_joker or stands_for.is_joker:
        raise CardError(say("only a joker can stand for a card, and only for a real card"))
    return _DECLARED[stands_for]


def natural_card(rank: int, suit: str) -> Card:
    """The interned natural card of ``rank`` 1-13 and ``suit`` S/H/D/C."""
    return _NATURALS[(rank, suit)]


def make_pack(jokers: int = 0, packs: int = 1) -> list[Card]:
    """A fresh, ordered pack: ``packs`` times 52 natural cards and ``jokers`` jokers each.

    ``make_pack(0)`` has 52 cards, ``make_pack(2)`` 54, ``make_pack(4)`` 56 (Persian) and
    ``make_pack(2, packs=2)`` 108 (catalogue D2; seeds 000, 002, 003).
    """
    one = [_NATURALS[(r, s)] for s in SUITS for r in RANKS] + [JOKER] * jokers
    return one * packs


def shuffled(cards: Sequence[Card], seed: int | random.Random) -> list[Card]:
    """A shuffled copy of ``cards``; the same seed always gives the same order."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    out = list(cards)
    rng.shuffle(out)
    return out


def sort_key(card: Card) -> tuple[int, int]:
    """Sort a hand by suit (spades, hearts, clubs, diamonds: colours alternate), then rank;
    jokers last."""
    if card.rank == 0:
        return (9, 0)
    return ("SHCD".index(card.suit), card.rank)
