"""The state of a digital game of 500 Rum, and what each seat may see.

Glossary:
- seat: a player's place at the table, 0 to n-1; the player to a seat's left is the next
  seat (play passes to the left, seeds 000 to 004).
- stock: the face-down cards; the next card drawn is the LAST item of ``stock``.
- pile: the discard pile, spread; ``pile[0]`` the oldest card (the upcard), ``pile[-1]``
  the top card (T1 counts indices from the bottom).
- table: the melds laid down this round in order (table index 0, 1, ...), each with its
  owner and its cards as laid; ``table`` holds each as it stands after lay-offs (L3).
- opened: a seat has laid a first meld (M6's minimum met).
- opened in the game: a seat laid down a meld in a finished round (M6 once per game).
- known: cards a seat took from the discard pile that are still in its hand: everyone saw
  them taken, so every seat may see them.
- phase: what the current seat must do now (:class:`Phase`).

A :class:`GameState` is mutable: :func:`scorekeeper.engine.game.turns.apply_action` changes it
in place. ``state.to_json()`` gives a JSON-able dict and :meth:`GameState.from_json`
restores an equal state (the web game stores it after every move).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, parse_card
from ..melds import Meld, check_meld, extend
from ..messages import say
from ..rules.dealers_joker import DealersJoker, round_rules
from ..rules.ruleset import RuleSet, ruleset
from ..scoring.score_round import RoundScore
from .actions import Action, Discard, action_from_json

FORMAT = "500rum-state/1"

Logged = tuple[int, Action | dict[str, object]]
"""One entry of a round's log: ``(seat, action)`` for a move, ``(-1, event)`` for what
happened outside a move (``{"event": "reshuffle", "stock": [...]}``, ``"rummy"``,
``"deadwood"``, ``"split"``)."""


class Phase(enum.Enum):
    """What the current seat does next."""

    NOMINATE = "nominate"  # X2: the dealer nominates what the jokers do this hand
    START_PILE = "start_pile"  # D4: the seat dealt an extra card chooses the first discard
    DRAW = "draw"  # T1, T6, O3: draw (or pass / end the round with the stock gone)
    MUST_USE = "must_use"  # T2: use the card selected from the pile before anything else
    PLAY = "play"  # T4, T5: lay down, lay off, then discard (or go out, O1)
    RUMMY = "rummy"  # X1: a seat may call "Rummy!" on the pile, or pass
    OUT_OF_TURN = "out_of_turn"  # T7: a seat may meld on another's turn, or pass
    DEADWOOD = "deadwood"  # O4: after a player goes out, the other lays off deadwood
    GAME_OVER = "game_over"

    __hash__ = object.__hash__  # members are unique: hash by identity, not in Python by name


class GameSetupError(ValueError):
    """A game that cannot be set up: wrong number of players, too few cards, a house rule
    the digital game does not play. ``str(error)`` says why, with the rule id."""


@dataclass
class GameState:
    """A whole game: rules, players, running totals, finished rounds and the round in play.

    Round fields: ``hands`` (per seat, lists of cards), ``stock``, ``pile``, ``owners`` and
    ``laid`` (per table meld: its owner seat and cards as laid), ``table`` (each meld as it
    stands), ``layoffs`` ((seat, card, meld index) in order), ``opened``, ``known``.
    Turn fields: ``phase``, ``seat`` (whose decision), ``turn_seat`` (whose turn), ``must_use``
    (the selected card still to be used, T2; ``rummy`` when a "Rummy!" call took it, X1),
    ``no_discard`` (a card the seat may not discard,
    O2/T3), ``window`` (seats still to be asked in a RUMMY or OUT_OF_TURN window).
    Game fields: ``totals`` (points per seat), ``opened_game`` (the seats opened in the
    game, :func:`laid_down_in` of its finished rounds), ``rounds`` (finished rounds as
    game-record dicts, with scores; a store may load a state without the rounds it keeps
    elsewhere: the engine never reads them back), ``scores`` (the full scoring, card by
    card, of each round finished since this state was made or loaded: not saved, the
    record keeps the figures), ``log``
    (this round's moves as ``(seat, action)`` or ``(-1, event dict)``),
    ``deal`` (this round's deal as a record dict), ``gambit`` (the dealer's joker under
    X2, :class:`dealers_joker.DealersJoker`; ``rules`` are then the round's rules,
    :func:`dealers_joker.round_rules`).
    """

    rules: RuleSet
    rules_spec: dict[str, object]
    players: tuple[str, ...]
    seed: int
    teams: tuple[tuple[int, ...], ...] | None = None
    totals: list[int] = field(default_factory=list)
    deal_number: int = 0
    dealer: int = 0
    opened_game: frozenset[int] = frozenset()
    rounds: list[dict[str, Any]] = field(default_factory=list)
    deal: dict[str, Any] = field(default_factory=dict)
    log: list[Logged] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    pile: list[Card] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)
    laid: list[tuple[Card, ...]] = field(default_factory=list)
    table: list[Meld] = field(default_factory=list)
    layoffs: list[tuple[int, Card, int]] = field(default_factory=list)
    opened: list[bool] = field(default_factory=list)
    known: list[list[Card]] = field(default_factory=list)
    phase: Phase = Phase.DRAW
    seat: int = 0
    turn_seat: int = 0
    must_use: Card | None = None
    rummy: bool = False
    no_discard: Card | None = None
    window: list[int] = field(default_factory=list)
    resume_seat: int = 0
    turns: int = 0
    reshuffles: int = 0
    went_out: int | None = None
    winner: str | None = None
    gambit: DealersJoker | None = None
    scores: list[RoundScore] = field(default_factory=list, compare=False, repr=False)

    @property
    def n(self) -> int:
        """Number of players."""
        return len(self.players)

    def unit_of(self, seat: int) -> int:
        """The scoring unit of ``seat``: its side's index under partnership rules (P1),
        else the seat itself."""
        if self.teams is None:
            return seat
        return 0 if seat in self.teams[0] else 1

    def to_json(self) -> dict[str, object]:
        """The whole state as a JSON-able dict (cards as text); see :meth:`from_json`."""
        return {
            "format": FORMAT,
            "rules": self.rules_spec,
            "players": list(self.players),
            "seed": self.seed,
            "teams": [list(t) for t in self.teams] if self.teams else None,
            "totals": list(self.totals),
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "opened_game": sorted(self.opened_game),
            "rounds": self.rounds,
            "deal": self.deal,
            "log": [[s, logged_json(a)] for s, a in self.log],
            **self._round_json(),
            "phase": self.phase.value,
            "seat": self.seat,
            "turn_seat": self.turn_seat,
            "must_use": self.must_use.text if self.must_use else None,
            "rummy": self.rummy,
            "no_discard": self.no_discard.text if self.no_discard else None,
            "window": list(self.window),
            "resume_seat": self.resume_seat,
            "turns": self.turns,
            "reshuffles": self.reshuffles,
            "went_out": self.went_out,
            "winner": self.winner,
            "gambit": self.gambit.to_json() if self.gambit else None,
        }

    def _round_json(self) -> dict[str, object]:
        """The round's cards as text: hands, stock, pile, melds, lay-offs, known (what
        :func:`_round_fields` reads back)."""
        cards = _texts
        return {
            "hands": [cards(h) for h in self.hands],
            "stock": cards(self.stock),
            "pile": cards(self.pile),
            "owners": list(self.owners),
            "laid": [cards(m) for m in self.laid],
            "layoffs": [[s, c.text, m] for s, c, m in self.layoffs],
            "opened": list(self.opened),
            "known": [cards(k) for k in self.known],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        """Restore a state written by :meth:`to_json`. Raises ``ValueError`` (or
        :class:`GameSetupError`) when the dict is not such a state."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise GameSetupError(say("not a saved game state (format %(format)s)", format=FORMAT))
        spec = data["rules"]
        rules = ruleset(spec.get("preset", "standard"), spec.get("options") or {})
        state = cls(
            rules=rules,
            rules_spec=spec,
            players=tuple(data["players"]),
            seed=int(data["seed"]),
            teams=tuple(tuple(t) for t in data["teams"]) if data.get("teams") else None,
            totals=list(data["totals"]),
            deal_number=data["deal_number"],
            dealer=data["dealer"],
            opened_game=_opened_game(data),
            rounds=data["rounds"],
            deal=data["deal"],
            log=[(s, a if s < 0 else action_from_json(a)) for s, a in data["log"]],
            **_round_fields(data),
            phase=Phase(data["phase"]),
            seat=data["seat"],
            turn_seat=data["turn_seat"],
            must_use=parse_card(data["must_use"]) if data["must_use"] else None,
            rummy=bool(data.get("rummy")),
            no_discard=parse_card(data["no_discard"]) if data["no_discard"] else None,
            window=list(data["window"]),
            resume_seat=data["resume_seat"],
            turns=data["turns"],
            reshuffles=data["reshuffles"],
            went_out=data["went_out"],
            winner=data["winner"],
            gambit=DealersJoker.from_json(data["gambit"]) if data.get("gambit") else None,
        )
        if state.gambit is not None:
            state.rules = round_rules(rules, state.gambit.nomination)
        state.table = rebuild_table(state)
        return state


def laid_down_in(rounds: Iterable[dict[str, Any]]) -> frozenset[int]:
    """The seats that laid down a meld in ``rounds`` (finished rounds as records, with
    their ``log``): the seats opened in the game for M6 "once-per-game" (002: "In order to
    begin scoring all players must lay no less than 30 points for their first score")."""
    return frozenset(
        seat for r in rounds for seat, a in r["log"] if seat >= 0 and a.get("type") == "lay_down"
    )


def _opened_game(data: dict[str, Any]) -> frozenset[int]:
    """The seats opened in the game of a saved state (older states: of its rounds)."""
    if "opened_game" in data:
        return frozenset(data["opened_game"])
    return laid_down_in(data["rounds"])


def _round_fields(data: dict[str, Any]) -> dict[str, Any]:
    """The round's cards of a saved state: hands, stock, pile, melds, lay-offs, known."""
    cards = _cards
    return {
        "hands": [cards(h) for h in data["hands"]],
        "stock": cards(data["stock"]),
        "pile": cards(data["pile"]),
        "owners": list(data["owners"]),
        "laid": [tuple(cards(m)) for m in data["laid"]],
        "layoffs": [(s, parse_card(c), m) for s, c, m in data["layoffs"]],
        "opened": list(data["opened"]),
        "known": [cards(k) for k in data["known"]],
    }


def _texts(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [c.text for c in cards]


def _cards(texts: list[str]) -> list[Card]:
    return [parse_card(t) for t in texts]


def rebuild_table(state: GameState) -> list[Meld]:
    """Every table meld as it stands: as laid, then each lay-off in order (L3)."""
    table = [check_meld(cards, state.rules) for cards in state.laid]
    for _seat, card, index in state.layoffs:
        table[index] = extend(table[index], card, state.rules)
    return table


@dataclass(frozen=True)
class MeldView:
    """One meld on the table as everyone sees it: ``index``, ``owner`` (name), ``cards``
    as laid, ``layoffs`` ((name, card) in order) and ``cards_now`` as it stands."""

    index: int
    owner: str
    cards: tuple[Card, ...]
    layoffs: tuple[tuple[str, Card], ...]
    cards_now: tuple[Card, ...]
    kind: str


@dataclass(frozen=True)
class Observation:
    """What one seat may see (a bot sees nothing else).

    ``hand`` its own cards (none while the dealer nominates, X2); ``hand_sizes`` every
    seat's card count; ``known`` per seat the cards it took from the pile and still
    holds (public); ``pile`` bottom to top;
    ``stock_size``; ``melds_now`` each table meld as it stands, ``owners`` their owner
    seats, ``laid`` their cards as laid, ``layoffs`` ((seat, card, meld index) in order);
    ``table`` the same as :class:`MeldView` rows; ``totals`` running points per seat;
    ``phase``/``current`` whose decision; ``must_use`` the card this seat must use now;
    ``no_discard`` a card it may not discard; ``opened`` per seat (M6); ``moves`` this
    round's moves as ``(seat, action)`` (a stock draw shows no card); ``discarded`` every
    card discarded this round in order (including those since taken); ``gambit`` the
    dealer's joker under X2 (public: it lies face up beside the pack).
    """

    seat: int
    players: tuple[str, ...]
    rules: RuleSet
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[Card, ...], ...]
    pile: tuple[Card, ...]
    stock_size: int
    melds_now: tuple[Meld, ...]
    owners: tuple[int, ...]
    laid: tuple[tuple[Card, ...], ...]
    layoffs: tuple[tuple[int, Card, int], ...]
    totals: tuple[int, ...]
    phase: Phase
    current: int
    dealer: int
    deal_number: int
    must_use: Card | None
    no_discard: Card | None
    opened: tuple[bool, ...]
    teams: tuple[tuple[int, ...], ...] | None
    moves: tuple[tuple[int, Action], ...] = ()
    gambit: DealersJoker | None = None

    @property
    def table(self) -> tuple[MeldView, ...]:
        """The table melds as :class:`MeldView` rows (names, cards as laid, lay-offs)."""
        names = self.players
        by_meld: dict[int, list[tuple[str, Card]]] = {}
        for owner, card, index in self.layoffs:
            by_meld.setdefault(index, []).append((names[owner], card))
        return tuple(
            MeldView(i, names[o], cards, tuple(by_meld.get(i, ())), now.cards, now.kind)
            for i, (o, cards, now) in enumerate(
                zip(self.owners, self.laid, self.melds_now, strict=True)
            )
        )

    @property
    def discarded(self) -> tuple[Card, ...]:
        """Every card discarded this round, in order (public: the pile was seen)."""
        return tuple(a.card for _, a in self.moves if isinstance(a, Discard))

    def to_json(self) -> dict[str, object]:
        """The view as a JSON-able dict (cards as text, names for seats)."""
        return {
            "seat": self.seat,
            "players": list(self.players),
            "hand": _texts(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "known": [_texts(k) for k in self.known],
            "pile": _texts(self.pile),
            "stock_size": self.stock_size,
            "table": [
                {
                    "index": m.index,
                    "owner": m.owner,
                    "kind": m.kind,
                    "cards": _texts(m.cards),
                    "layoffs": [{"owner": o, "card": c.text} for o, c in m.layoffs],
                    "cards_now": _texts(m.cards_now),
                }
                for m in self.table
            ],
            "totals": list(self.totals),
            "phase": self.phase.value,
            "current": self.current,
            "dealer": self.dealer,
            "deal_number": self.deal_number,
            "must_use": self.must_use.text if self.must_use else None,
            "no_discard": self.no_discard.text if self.no_discard else None,
            "opened": list(self.opened),
            "discarded": _texts(self.discarded),
            "gambit": self.gambit.to_json() if self.gambit else None,
        }


def observation(state: GameState, seat: int) -> Observation:
    """What ``seat`` may see of ``state``: its own hand, everyone's hand sizes and the cards
    they were seen taking, the pile, the stock's size, the table, the totals, this round's
    public moves (draws from the stock show no card). While the dealer nominates under
    dealer's gambit (X2, seed 002: "After dealing but before any of the players look at
    their cards the dealer must nominate") no seat sees its hand, only its size."""
    mine = state.seat == seat
    looked = bool(state.hands) and state.phase is not Phase.NOMINATE
    return Observation(
        seat=seat,
        players=state.players,
        rules=state.rules,
        hand=tuple(state.hands[seat]) if looked else (),
        hand_sizes=tuple(map(len, state.hands)),
        known=tuple(map(tuple, state.known)),
        pile=tuple(state.pile),
        stock_size=len(state.stock),
        melds_now=tuple(state.table),
        owners=tuple(state.owners),
        laid=tuple(state.laid),
        layoffs=tuple(state.layoffs),
        totals=tuple(state.totals),
        phase=state.phase,
        current=state.seat,
        dealer=state.dealer,
        deal_number=state.deal_number,
        must_use=state.must_use if mine else None,
        no_discard=state.no_discard if mine else None,
        opened=tuple(state.opened),
        teams=state.teams,
        moves=tuple((s, a) for s, a in state.log if not isinstance(a, dict)),
        gambit=state.gambit,
    )


def logged_json(logged: Action | dict[str, object]) -> dict[str, object]:
    """A log entry's move or event as JSON (a move by its ``to_json``)."""
    return logged if isinstance(logged, dict) else logged.to_json()
