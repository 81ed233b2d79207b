"""Melds: sets and runs, jokers, and laying off, each legal or not and why.

Glossary:
- meld: cards laid face up together: a set or a run.
- set: 3 or 4 cards of one rank (catalogue M1); with two packs, two of one suit only where
  the house allows it (M2).
- run: 3 or more cards of one suit in sequence (M3; 4 or more in seed 000's reading); the
  ace high (Q-K-A) or low (A-2-3), round the corner (K-A-2) only where allowed (M4).
- joker set: three or four Persian jokers, never wild (P2).
- lay off: add a card to a meld on the table, naming the meld (L1, L3).

Every refusal raises :class:`IllegalMeld` carrying the message a player reads and the ids
of the rules that say no.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

from .cards import DOUBLE, Card, format_cards
from .messages import Message, say
from .rules.ruleset import RuleSet


class IllegalMeld(ValueError):
    """A meld or lay-off the rules do not allow.

    ``message`` is a sentence for players; ``rules`` the catalogue ids behind it, e.g.
    ``("M4",)``.
    """

    def __init__(self, message: Message | str, rules: Sequence[str]) -> None:
        self.message = message
        self.rules = tuple(rules)
        super().__init__(message)


@dataclass(frozen=True, slots=True, eq=False)
class Meld:
    """A legal meld as it lies on the table.

    ``kind`` is ``"set"``, ``"run"`` or ``"jokers"`` (a Persian joker set). ``cards`` are in
    the order they lie, runs low to high. For a run, ``suit`` is its suit and ``low`` the
    position of its first card, where an ace is 1 when low and 14 when high; a run that
    goes round the corner (M4) continues past 14 (K-A-2 is 13, 14, 15). For a set, ``rank``
    is its rank (0 for jokers). Melds compare by identity (the checks are cached, so the
    same cards give the same meld object); compare ``cards`` to compare contents.
    """

    kind: str
    cards: tuple[Card, ...]
    suit: str = ""
    rank: int = 0
    low: int = 0

    @property
    def high(self) -> int:
        """Position of a run's last card."""
        return self.low + len(self.cards) - 1

    def ace_is_low(self, index: int) -> bool:
        """True when the card at ``index`` is an ace played low in a run (A-2-3, S1)."""
        return self.kind == "run" and (self.low + index) == 1

    def ace_is_high(self, index: int) -> bool:
        """True when the card at ``index`` is an ace played high in a run (Q-K-A, S1)."""
        return self.kind == "run" and (self.low + index) % 13 == 1 and self.low + index > 1

    def describe(self) -> Message:
        """Words for people: ``run of 9♦ 10♦ J♦`` (a :class:`Message`)."""
        if self.kind == "run":
            return say("run of %(cards)s", cards=format_cards(self.cards))
        return say("set of %(cards)s", cards=format_cards(self.cards))


def _rank_at(position: int) -> int:
    return (position - 1) % 13 + 1


def _check_jokers(cards: Sequence[Card], rules: RuleSet) -> Meld | None:
    """Joker rules (M5, P2). Returns the meld when it is a Persian joker set."""
    jokers = [c for c in cards if c.is_joker]
    if not jokers:
        return None
    if rules.joker_use == "none":
        raise IllegalMeld(
            say("%(cards)s: these rules play without jokers", cards=format_cards(cards)),
            ("M5", "D2"),
        )
    if rules.joker_use == "sets-of-jokers":
        return _joker_set(cards, jokers)
    if any(c.stands_for is None for c in jokers):
        raise IllegalMeld(
            say(
                "%(cards)s: a wild joker must name the card it stands for when melded, as in JK=7C",
                cards=format_cards(cards),
            ),
            ("M5",),
        )
    return None


def _joker_set(cards: Sequence[Card], jokers: list[Card]) -> Meld:
    """P2: Persian jokers meld only as a set of three or four jokers, never wild."""
    if any(c.stands_for is not None for c in jokers):
        raise IllegalMeld(
            say(
                "%(cards)s: jokers are never wild under these rules; write a joker as JK",
                cards=format_cards(cards),
            ),
            ("P2",),
        )
    if len(jokers) != len(cards):
        raise IllegalMeld(
            say(
                "%(cards)s: jokers meld only in sets of three or four jokers, never in runs "
                "or as wild cards",
                cards=format_cards(cards),
            ),
            ("P2",),
        )
    if len(cards) > 4:
        raise IllegalMeld(
            say("%(cards)s: a set of jokers has 3 or 4 jokers", cards=format_cards(cards)),
            ("P2", "M1"),
        )
    return Meld("jokers", tuple(cards))


def suits_must_differ(rules: RuleSet) -> bool:
    """M2: True when the cards of a set must all be of different suits, so that with two
    packs 5♣ 5♣ 5♥ is no set ("forbidden", seed 003)."""
    return rules.same_suit_in_set == "forbidden"


def _make_set(cards: Sequence[Card], rules: RuleSet) -> Meld:
    if len(cards) > 4:
        raise IllegalMeld(
            say("%(cards)s: a set has 3 or 4 cards of one rank", cards=format_cards(cards)), ("M1",)
        )
    suits = [c.natural.suit for c in cards]
    if len(set(suits)) != len(suits) and suits_must_differ(rules):
        raise IllegalMeld(
            say(
                "%(cards)s has two cards of the same suit, which a set may not have",
                cards=format_cards(cards),
            ),
            ("M2",),
        )
    return Meld("set", tuple(cards), rank=cards[0].natural.rank)


def _run_low(ranks: set[int], corner: bool) -> tuple[int | None, bool]:
    """The position of a run's first card, and whether it needs round the corner."""
    n = len(ranks)
    low_pos = sorted(ranks)
    if low_pos[-1] - low_pos[0] + 1 == n:
        return low_pos[0], False
    high_pos = sorted(14 if r == 1 else r for r in ranks)
    if high_pos[-1] - high_pos[0] + 1 == n:
        return high_pos[0], False
    for start in ranks:
        if {_rank_at(start + i) for i in range(n)} == ranks:
            return start, True
    return None, corner


def run_refusal(low: int, length: int, rules: RuleSet) -> str | None:
    """The one home of M3 and M4: the catalogue id refusing a run of ``length`` cards of one
    suit in sequence whose first card lies at position ``low`` (1 for an ace played low,
    14 for an ace played high, past 14 round the corner), or None when the rules allow it.

    M4: a run may not go round the corner (K-A-2, past position 14) unless the rules say
    "round-the-corner" (seed 002); M3: a run has at least ``min_run`` cards (3 in seeds
    001 to 004, 4 in 000). Every other answer about runs (:func:`run_shape`, the digital
    game's and the checker's candidates) is derived from this one.
    """
    if low + length - 1 > 14 and rules.ace_in_run != "round-the-corner":
        return "M4"
    if length < rules.min_run:
        return "M3"
    return None


@dataclass(frozen=True, slots=True)
class RunShape:
    """What :func:`run_refusal` allows, worked out once per rule set for fast paths:
    ``shortest`` run (cards), ``last`` position a run's card may reach (14, or 25 round
    the corner), ``windows`` every allowed run as its ranks in order (shortest first, then
    by first position), ``through[rank]`` the rank bitmasks (bit r for rank r, the ace
    bit 1) of every shortest allowed run holding ``rank`` (index 0, the joker, is empty),
    and ``holds_run[bits]`` 1 when the rank bitmask ``bits`` of one suit holds a shortest
    allowed run (every run holds one), else 0."""

    shortest: int
    last: int
    windows: tuple[tuple[int, ...], ...]
    through: tuple[tuple[int, ...], ...]
    holds_run: bytes

    @property
    def corner(self) -> bool:
        """True when a run may go round the corner (K-A-2, M4)."""
        return self.last > 14


@lru_cache(maxsize=256)
def run_shape(rules: RuleSet) -> RunShape:
    """:class:`RunShape` of ``rules``, derived from :func:`run_refusal` (cached)."""
    allowed = [
        (low, length)
        for length in range(3, 14)
        for low in range(1, 14)
        if run_refusal(low, length, rules) is None
    ]
    windows = tuple(tuple(_rank_at(p) for p in range(low, low + n)) for low, n in allowed)
    shortest = min(length for _, length in allowed)
    through: list[list[int]] = [[] for _ in range(14)]
    for ranks in windows:
        if len(ranks) == shortest:
            mask = sum(1 << rank for rank in ranks)
            for rank in ranks:
                if mask not in through[rank]:
                    through[rank].append(mask)
    last = max(low + length - 1 for low, length in allowed)
    marks = bytearray(1 << 14)
    every = (1 << 14) - 2
    for mask in {mask for masks in through for mask in masks}:
        free = extra = every & ~mask
        while True:  # mask with every subset of the other ranks
            marks[mask | extra] = 1
            if not extra:
                break
            extra = (extra - 1) & free
    masks = tuple(tuple(masks) for masks in through)
    return RunShape(shortest, last, windows, masks, bytes(marks))


def _make_run(cards: Sequence[Card], rules: RuleSet) -> Meld:
    naturals = [c.natural for c in cards]
    ranks = {c.rank for c in naturals}
    if len(ranks) != len(cards):
        raise IllegalMeld(
            say("%(cards)s: a run cannot hold the same rank twice", cards=format_cards(cards)),
            ("M3",),
        )
    low, _ = _run_low(ranks, False)
    if low is None:
        raise IllegalMeld(
            say(
                "%(cards)s is not a sequence: a run is cards of one suit in order",
                cards=format_cards(cards),
            ),
            ("M3",),
        )
    refusal = run_refusal(low, len(cards), rules)
    if refusal == "M4":
        raise IllegalMeld(
            say(
                "%(cards)s goes round the corner, which these rules do not allow",
                cards=format_cards(cards),
            ),
            ("M4",),
        )
    if refusal == "M3":
        raise IllegalMeld(
            say(
                "%(cards)s: a run needs at least %(least)s cards under these rules",
                cards=format_cards(cards),
                least=rules.min_run,
            ),
            ("M3",),
        )
    by_rank = {c.natural.rank: c for c in cards}
    ordered = tuple(by_rank[_rank_at(low + i)] for i in range(len(cards)))
    return Meld("run", ordered, suit=naturals[0].suit, low=low)


def check_meld(cards: Sequence[Card], rules: RuleSet) -> Meld:
    """The meld ``cards`` make under ``rules``, cards put in the order they lie.

    Sets (M1, M2), runs (M3, M4), wild jokers that name their card (M5) and Persian joker
    sets (P2). Raises :class:`IllegalMeld` with the reason and rule ids when the cards make
    no legal meld, e.g. ``"K♠ A♠ 2♠ goes round the corner, which these rules do not
    allow"`` (M4).
    """
    return _check_meld(tuple(cards), rules)


@lru_cache(maxsize=16384)
def _check_meld(cards: tuple[Card, ...], rules: RuleSet) -> Meld:
    """:func:`check_meld` of ``cards`` as a tuple, cached: the same cards give the same
    :class:`Meld` object (melds compare by identity)."""
    if len(cards) < 3:
        raise IllegalMeld(
            say(
                "%(cards)s: a meld needs at least three cards",
                cards=format_cards(cards) or say("no cards"),
            ),
            ("M1", "M3"),
        )
    if DOUBLE in cards:
        return _doubled_set(cards, rules)
    jokers = _check_jokers(cards, rules)
    if jokers is not None:
        return jokers
    naturals = [c.natural for c in cards]
    if len({c.rank for c in naturals}) == 1:
        return _make_set(cards, rules)
    if len({c.suit for c in naturals}) == 1:
        return _make_run(cards, rules)
    raise IllegalMeld(
        say(
            "%(cards)s is neither a set (one rank) nor a run (one suit in sequence)",
            cards=format_cards(cards),
        ),
        ("M1", "M3"),
    )


def _doubled_set(cards: tuple[Card, ...], rules: RuleSet) -> Meld:
    """X2, a joker nominated "double" (``JK=double``, last in the meld): seed 002, "The
    joker doubles the value of any set. The joker is placed face up over any meld, whilst
    it is being melded. Once the joker has been added to the meld, that set is 'sealed'".
    Read as a set (M1) of naturals laid with one joker over it: the seed's first and last
    sentences say "set", and the contract writes ``JK=double`` inside a set. Only where
    the round's jokers are not wild (:func:`dealers_joker.round_rules`)."""
    if not rules.dealers_gambit or rules.joker_use == "wild":
        raise IllegalMeld(
            say(
                "%(cards)s: a joker doubles a set only under dealer's gambit, nominated double",
                cards=format_cards(cards),
            ),
            ("X2",),
        )
    rest = tuple(c for c in cards if c is not DOUBLE)
    if len(rest) != len(cards) - 1:
        raise IllegalMeld(
            say("%(cards)s: one joker doubles a set, not two", cards=format_cards(cards)), ("X2",)
        )
    meld = check_meld(rest, rules)
    if meld.kind != "set":
        raise IllegalMeld(
            say(
                "%(cards)s: the doubling joker goes over a set, not a run",
                cards=format_cards(cards),
            ),
            ("X2",),
        )
    return Meld("set", (*meld.cards, DOUBLE), rank=meld.rank)


def meld_problem(cards: Sequence[Card], rules: RuleSet) -> IllegalMeld | None:
    """None when ``cards`` are a legal meld, else the :class:`IllegalMeld` saying why."""
    try:
        check_meld(cards, rules)
    except IllegalMeld as problem:
        return problem
    return None


def _misfit(card: Card, meld: Meld) -> Message:
    """``9♦ does not fit run of 5♠ 6♠ 7♠``: the start of a refused lay-off's reason."""
    return say("%(card)s does not fit %(meld)s", card=card.display, meld=meld.describe())


@lru_cache(maxsize=16384)
def extend(meld: Meld, card: Card, rules: RuleSet) -> Meld:
    """``meld`` with ``card`` laid off onto it (L1, L3): the meld as it then stands.

    A set takes a card of its rank up to four cards (M1, M2); a joker set takes a joker
    (P2); a run takes the next card of its suit at either end (M3), the ace only where it
    does not turn the corner unless the rules allow it (M4). A wild joker must name its
    card (M5). Raises :class:`IllegalMeld` saying why the card does not fit. Cached: the
    same lay-off onto the same meld gives the same :class:`Meld` object.
    """
    if DOUBLE in meld.cards:
        raise IllegalMeld(
            say("%(misfit)s: the joker doubling it has sealed the set", misfit=_misfit(card, meld)),
            ("X2",),
        )
    if card is DOUBLE:
        raise IllegalMeld(
            say(
                "%(misfit)s: a joker doubles a set only as it is melded", misfit=_misfit(card, meld)
            ),
            ("X2",),
        )
    if meld.kind == "jokers" or card.is_joker:
        grown = _extend_jokers(meld, card, rules)
        if grown is not None:
            return grown
    if meld.kind == "set":
        return _extend_set(meld, card, rules)
    return _extend_run(meld, card, rules)


def _extend_jokers(meld: Meld, card: Card, rules: RuleSet) -> Meld | None:
    """M5, P2 for a joker laid off, or a card laid off onto a joker set; None when the
    card goes on to the set or run checks (a wild joker naming its card)."""
    if card.is_joker:
        _check_jokers([card], rules)
        if rules.joker_use == "sets-of-jokers" and meld.kind != "jokers":
            raise IllegalMeld(
                say("%(misfit)s: jokers go only in sets of jokers", misfit=_misfit(card, meld)),
                ("P2",),
            )
    if meld.kind != "jokers":
        return None
    if not card.is_joker or card.stands_for is not None:
        raise IllegalMeld(
            say("%(misfit)s: only a joker joins a set of jokers", misfit=_misfit(card, meld)),
            ("P2",),
        )
    if len(meld.cards) >= 4:
        raise IllegalMeld(
            say("%(misfit)s: a set of jokers has at most 4", misfit=_misfit(card, meld)),
            ("P2", "M1"),
        )
    return Meld("jokers", (*meld.cards, card))


def _extend_set(meld: Meld, card: Card, rules: RuleSet) -> Meld:
    natural = card.natural
    if natural.rank != meld.rank:
        raise IllegalMeld(
            say("%(misfit)s: a set takes only cards of its rank", misfit=_misfit(card, meld)),
            ("M1", "L1"),
        )
    if len(meld.cards) >= 4:
        raise IllegalMeld(
            say("%(misfit)s: a set has at most 4 cards", misfit=_misfit(card, meld)), ("M1",)
        )
    if suits_must_differ(rules) and any(c.natural.suit == natural.suit for c in meld.cards):
        raise IllegalMeld(
            say("%(misfit)s: the set already has a card of that suit", misfit=_misfit(card, meld)),
            ("M2",),
        )
    return Meld("set", (*meld.cards, card), rank=meld.rank)


def _extend_run(meld: Meld, card: Card, rules: RuleSet) -> Meld:
    """A run grows at either end (M3), turning the corner only where M4 allows it
    (:func:`run_refusal`)."""
    natural = card.natural
    if natural.suit != meld.suit:
        raise IllegalMeld(
            say("%(misfit)s: a run takes only cards of its suit", misfit=_misfit(card, meld)),
            ("M3", "L1"),
        )
    size = len(meld.cards)
    if size >= 13:
        raise IllegalMeld(
            say("%(misfit)s: the run already holds every rank", misfit=_misfit(card, meld)), ("M3",)
        )
    below, above = meld.low - 1, meld.high + 1
    if natural.rank == _rank_at(above) and run_refusal(meld.low, size + 1, rules) is None:
        return Meld("run", (*meld.cards, card), suit=meld.suit, low=meld.low)
    low = below if below >= 1 else below + 13
    if natural.rank == _rank_at(below) and run_refusal(low, size + 1, rules) is None:
        return Meld("run", (card, *meld.cards), suit=meld.suit, low=low)
    if natural.rank in (_rank_at(above), _rank_at(below)):
        raise IllegalMeld(
            say(
                "%(misfit)s: it would go round the corner, which these rules do not allow",
                misfit=_misfit(card, meld),
            ),
            ("M4",),
        )
    raise IllegalMeld(
        say("%(misfit)s: a run grows only at its ends, in sequence", misfit=_misfit(card, meld)),
        ("M3", "L1"),
    )


def extend_with(meld: Meld, cards: Iterable[Card], rules: RuleSet) -> Meld:
    """``meld`` with one card or a pair laid off at once (seed 002: "a pair of cards in
    sequence"), in whichever order fits. Raises :class:`IllegalMeld` when none does."""
    cards = tuple(cards)
    first_error: IllegalMeld | None = None
    for order in permutations(cards):
        try:
            grown = meld
            for card in order:
                grown = extend(grown, card, rules)
            return grown
        except IllegalMeld as problem:
            first_error = first_error or problem
    assert first_error is not None
    raise first_error
