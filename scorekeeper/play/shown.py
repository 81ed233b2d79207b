"""The shapes the play pages show, typed: the boards, their cards and players, a move in
words, a round's end, the expert's hint (see :mod:`.board`, :mod:`.ending`,
:mod:`.moves`, :mod:`.hints`).

Shapes only templates read are frozen dataclasses (a template reads ``b.players`` as it
reads a dict's key; :func:`.taps.render_once` keys its pieces by their fields as JSON).
Shapes kept as JSON or combined as dicts (a step kept with the game's moves, a round's
end with its review added, a hint answered as JSON) are TypedDicts: typed, and still
dicts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict


@dataclass(frozen=True)
class CardFace:
    """A card for a template: ``text`` (``7H``), ``display`` (``7♥``), ``name``, its face
    as ``rank`` and ``suit`` (``7``, ``♥``; a joker ``JK`` over ``★`` or the card it
    stands for) and ``colour`` (``red``, ``black`` or ``joker``)."""

    text: str
    display: str
    name: str
    rank: str
    suit: str
    colour: str


@dataclass(frozen=True)
class HandCard(CardFace):
    """A card of the person's hand: ``must`` (taken from the pile, to use now, T2),
    ``keep`` (may not be discarded now), ``slot`` (its place sorted by suit, the page's
    id), ``joker``, and its places ``by_suit`` and ``by_rank``."""

    must: bool
    keep: bool
    slot: int
    joker: bool
    by_suit: int
    by_rank: int


@dataclass(frozen=True)
class PileCard(CardFace):
    """A card of the discard pile at ``index`` (0 the bottom)."""

    index: int


@dataclass(frozen=True)
class MeldCard(CardFace):
    """A card of a meld as it stands, ``by`` the name of who laid it off (None: laid down
    with the meld)."""

    by: str | None


@dataclass(frozen=True)
class Player:
    """A player's line of a board: ``name``, ``seat`` (0-based), ``level`` (a bot's, None
    for a person), ``you`` (the viewer's seat), ``cards`` (in hand), ``known`` (the cards
    seen taken from the pile, still held), ``total`` (points), ``dealer``, ``current``."""

    name: str
    seat: int
    level: str | None
    you: bool
    cards: int
    known: tuple[CardFace, ...]
    total: int
    dealer: bool
    current: bool


@dataclass(frozen=True)
class LaidOff:
    """A lay-off on a meld: its ``owner`` (name) and the ``card``."""

    owner: str
    card: CardFace


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: ``index`` (0-based), ``number`` (from 1), ``owner`` (name),
    ``kind`` (set or run), ``cards`` as laid, ``layoffs`` in order and ``now``: the meld
    as it stands (:class:`MeldCard`)."""

    index: int
    number: int
    owner: str
    kind: str
    cards: tuple[CardFace, ...]
    layoffs: tuple[LaidOff, ...]
    now: tuple[MeldCard, ...]


@dataclass(frozen=True)
class DealersJoker:
    """X2: the dealer's joker as the table sees it: ``dealer`` (name), ``nomination``
    (None until made), ``where`` in words, ``out`` (cards out of the hand)."""

    dealer: str
    nomination: str | None
    where: str
    out: int


@dataclass(frozen=True)
class Shared:
    """What every seat sees but the round (:func:`shared`): the fields a
    :class:`PublicBoard` shares with the boards built on it."""

    players: tuple[Player, ...]
    pile: tuple[PileCard, ...]
    stock: int
    table: tuple[TableMeld, ...]
    owners: tuple[tuple[str, tuple[TableMeld, ...]], ...]
    target: int
    dealers_joker: DealersJoker | None


@dataclass(frozen=True)
class PublicBoard(Shared):
    """What every seat sees (:func:`public`): ``players``, the discard ``pile`` (bottom
    first), ``stock`` (cards left), the ``table``'s melds and the same grouped by owner
    (``owners``: ``(name, melds)``), the ``round`` (from 1), the ``target`` (points) and
    the ``dealers_joker`` (X2, else None)."""

    round: int


@dataclass(frozen=True)
class Seated:
    """What a board adds to the public board for one seat (:func:`_seated`)."""

    you: str
    hand: tuple[HandCard, ...]
    face_down: int
    phase: str
    mine: bool
    can: dict[str, bool]
    legal: dict[str, bool]
    takeable: tuple[int | None, ...]
    others: tuple[tuple[str, str], ...]
    hints: tuple[tuple[str, str], ...]
    prompt: str
    prompt_rules: tuple[str, ...]


@dataclass(frozen=True)
class Board(PublicBoard, Seated):
    """Everything the play page shows from one seat (see the module glossary): the public
    board, then ``you`` (the seat's name), ``hand``, ``face_down``, ``phase`` (the
    engine's value), ``mine`` (its decision now), ``can``, ``legal``, ``takeable`` (pile
    indexes), ``others``, ``hints``, ``prompt``, ``prompt_rules``, ``preset`` (its
    title), ``options`` (``(id, title, label)`` of each house rule changed), ``names``
    (the players'), ``ending`` (the last round's, :func:`.ending.ending`, or None),
    ``paused``, ``over``, ``winner`` and ``winner_line``."""

    preset: str
    options: tuple[tuple[str, str, str], ...]
    names: tuple[str, ...]
    ending: Ending | None
    paused: bool
    over: bool
    winner: str | None
    winner_line: str


@dataclass(frozen=True)
class SpectatorBoard(PublicBoard):
    """The spectator board (:func:`.tables.watch.spectator_board`): the public board with
    no seat's view in it, and ``turn`` (whose turn, a name, or None), ``moves`` (the
    latest in words, each a step without a bot's reason), ``over``, ``paused``,
    ``winner_line`` and ``ending``: the round just played while the game pauses after
    it (:class:`Ending`, no review; ``round`` is then that round's number), else None."""

    turn: str | None
    moves: tuple[Mapping[str, object], ...]
    over: bool
    paused: bool
    winner_line: str
    ending: Ending | None = None


class Step(TypedDict):
    """A move described for people (:func:`.moves.describe`), or an event of the game
    (a reshuffle, a round's or the game's end, ``who`` empty): ``who``, ``kind``
    (``move``, ``event``, ``round``, ``game``), ``text``, ``cards`` (card texts) and
    ``groups`` (a list of card-text lists, one per meld laid); a bot's reason ``why``,
    ``rules`` (catalogue ids an event follows, shown beside its words, never in them),
    ``bot`` True for a bot's move and ``v`` the version that made it, once known;
    ``text_said`` and ``why_said`` the words as message ids with figures
    (:meth:`engine.Message.to_json`), put into the reader's language when shown."""

    who: str
    kind: str
    cards: list[str]
    groups: list[list[str]]
    text: str
    text_said: NotRequired[dict[str, Any]]
    why: NotRequired[str]
    why_said: NotRequired[dict[str, Any]]
    rules: NotRequired[list[str]]
    bot: NotRequired[bool]
    v: NotRequired[int]


@dataclass(frozen=True)
class ScoredCard(CardFace):
    """A card of a finished round with its ``points``, ``why`` and ``rule`` (a catalogue
    id) as the engine scored it, and for a lay-off the meld it went ``onto`` (from 1)."""

    points: object
    why: object
    rule: object
    onto: int | None = None


@dataclass(frozen=True)
class EndedPlayer:
    """One player at a round's end: ``name``, ``melds`` (each its cards), ``layoffs``,
    ``hand`` (the cards left) and ``figures`` (shown, in hand, bonus, round, total: the
    scoring's, passed on)."""

    name: str
    melds: tuple[tuple[ScoredCard, ...], ...]
    layoffs: tuple[ScoredCard, ...]
    hand: tuple[ScoredCard, ...]
    figures: Mapping[str, object]


class Review(TypedDict):
    """A move of the person's that differed from the expert's (:func:`.hints.reviews`):
    ``played`` and ``expert`` in words, ``why`` the expert's reason, ``cost`` the
    expected points given up."""

    played: str
    expert: str
    why: str
    cost: float


class Ending(TypedDict):
    """A round's end (:func:`.ending.ending`): ``number`` (from 1), ``went_out``,
    ``reason``, ``over`` (the round's end in words, :func:`.steps.round_over`), ``players``
    (:class:`EndedPlayer` in seat order), ``notes`` (bonuses explained), ``outcome`` (in
    words) and ``sides`` (partnership figures, or None), the scoring's values passed on;
    ``review`` the person's moves reviewed, once added."""

    number: int
    went_out: object
    reason: object
    over: object
    players: list[EndedPlayer]
    notes: object
    outcome: object
    sides: object
    review: NotRequired[list[Review]]


class Hint(TypedDict):
    """The expert's hint (:func:`.hints.hint`), answered as JSON by ``hint.json``:
    ``move`` and ``why`` in words, ``rules`` (catalogue ids), ``action`` (the move as
    JSON), ``cards``, ``groups`` (as a step's), ``expected`` (points, or None) and
    ``samples`` (sampled deals)."""

    move: str
    move_said: dict[str, Any]
    why: str
    rules: list[str]
    action: dict[str, object]
    cards: list[str]
    groups: list[list[str]]
    expected: float | None
    samples: int


class NoHint(TypedDict):
    """No hint: ``error`` says why."""

    error: str
