"""Game records (shared/game-record.md): write a whole game as JSON, read one back.

Glossary:
- record: ``{"format": "500rum-record/1", "rules", "players", "teams", "seed", "rounds",
  "final"}``; each round has its ``dealer``, ``hands`` as dealt, ``upcard``, ``stock`` (next
  card first), ``turns``, ``end`` and ``scores``.
- turn: ``{"player", "draw", "melds", "layoffs", "discard"}``.

Fields this project adds (the format lets fields be added): per turn ``plays`` (the turn's
lay-downs and lay-offs in the order made: ``{"melds": [...]}`` or ``{"layoff": {...}}``),
``draw.count`` (2 under T6), ``pass`` (drew nothing, O3 "play on"), ``end_round`` (stopped
drawing, O3 "draw from the discard pile"), ``rummy`` (``{"index", "meld"}``, a "Rummy!"
call, X1), ``out_of_turn`` (T7), ``deadwood`` (O4), ``reshuffled_stock`` (O3 "reshuffle":
the new stock, next card first); per round ``upcard_from`` (D4: the player who chose the
first discard from an extra card); at the top ``bots`` (seat levels) and, in the
records of ``/play``, ``seed_chosen`` (true: the person chose the ``seed`` of a one-person
game, for practice; false: the server drew it, as for every table game; null: not known),
per round ``deal_number``. Dealer's gambit (X2) adds per round ``dealers_joker`` (the joker set
face up beside the pack, ``"JK"``), and per turn ``nominate`` (a turn of the dealer's
that only nominates: ``"wild"``, ``"double"`` or ``"split"``), ``split`` (in place of the
draw: ``{"index", "dealers_joker", "removed"}``, the cards under the chosen one that left
the hand), ``block`` (the player put a joker over the dealer's joker; also in ``plays``
as ``{"block": true}``, in order) and ``dealers_joker`` (true when the turn used the
dealer's joker; the play that did has ``"dealers_joker": true`` in ``plays``); a doubled
set is written with ``JK=double`` last. A reader meeting a round or turn field it does not
know says so (:class:`RecordError`). A round the simulator's guard stopped has ``end.reason``
``"simulation limit"`` and ``scores`` null, and the game's ``final.winner`` is null: the
game ended unfinished, not by a rule.

Reading (:func:`replay`) deals each round from the record and replays every move through
``apply_action``; a record that breaks a rule raises :class:`RecordError` saying where
(round, turn) and why. :func:`record_moves` is the same reading one move at a time (the
replay page steps through it, :mod:`..replay`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, CardError, make_pack, parse_card
from ..messages import Message, say
from ..rules.dealers_joker import NOMINATION_OPTION
from ..rules.ruleset import RulesError
from .actions import (
    Action,
    Discard,
    Pass,
)
from .deal import SIMULATION_LIMIT, deal_round, new_game, stop_game
from .plays import IllegalMove
from .state import GameSetupError, GameState, Phase
from .turn_shape import turn_actions, turns_of
from .turns import apply_action

FORMAT = "500rum-record/1"
TURN_FIELDS = frozenset(
    {
        "player",
        "draw",
        "melds",
        "layoffs",
        "discard",
        "plays",
        "pass",
        "end_round",
        "rummy",
        "out_of_turn",
        "deadwood",
        "reshuffled_stock",
        "nominate",
        "split",
        "block",
        "dealers_joker",
    }
)
ROUND_FIELDS = frozenset(
    {
        "dealer",
        "hands",
        "upcard",
        "stock",
        "turns",
        "end",
        "scores",
        "deal_number",
        "upcard_from",
        "dealers_joker",
    }
)


def _said(error: BaseException) -> str:
    """What ``error`` says: its engine sentence (a :class:`Message`) when raised with
    one, else its text."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, Message) else str(error)


class RecordError(ValueError):
    """A record that cannot be read or breaks a rule: ``round`` and ``turn`` (1-based, None
    where the problem is not in one) and ``message``."""

    def __init__(
        self, message: Message | str, round_no: int | None = None, turn: int | None = None
    ):
        self.message = message
        self.round = round_no
        self.turn = turn
        if round_no is None:
            super().__init__(message)
        elif turn is None:
            super().__init__(say("round %(round)s: %(problem)s", round=round_no, problem=message))
        else:
            super().__init__(
                say(
                    "round %(round)s, turn %(turn)s: %(problem)s",
                    round=round_no,
                    turn=turn,
                    problem=message,
                )
            )


# ---- writing ---------------------------------------------------------------------------


def game_record(state: GameState, bots: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of ``state``'s game so far: every finished round (and ``final`` once
    the game is over). ``bots`` optionally names each seat's bot level."""
    names = state.players
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": state.rules_spec,
        "players": list(names),
        "teams": [[names[s] for s in t] for t in state.teams] if state.teams else None,
        "seed": state.seed,
        "rounds": [_round(r, names, i + 1) for i, r in enumerate(state.rounds)],
        "final": None,
    }
    if bots is not None:
        record["bots"] = list(bots)
    if state.phase is Phase.GAME_OVER:
        record["final"] = {
            "totals": dict(zip(names, state.totals, strict=True)),
            "winner": state.winner,
        }
    return record


def seat_record(state: GameState, seat: int, bots: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of ``state``'s game as ``seat`` has seen it. Once the game is over it is
    the whole :func:`game_record`; before, the fields a seat never sees are null (none is
    removed, so the shape stays that of shared/game-record.md): ``seed``, every round's
    ``stock`` and each ``reshuffled_stock`` (O3), and the other seats' dealt ``hands``.
    ``seen_by`` names the seat."""
    record = game_record(state, bots)
    if state.phase is Phase.GAME_OVER:
        return record
    me = state.players[seat]
    record["seed"] = None
    record["seen_by"] = me
    for stored in record["rounds"]:
        stored["stock"] = None
        stored["hands"] = {name: (h if name == me else None) for name, h in stored["hands"].items()}
        for turn in stored["turns"]:
            if "reshuffled_stock" in turn:
                turn["reshuffled_stock"] = None
    return record


def _round(stored: dict[str, Any], names: tuple[str, ...], number: int) -> dict[str, Any]:
    out = {k: v for k, v in stored.items() if k != "log"}
    out["deal_number"] = number
    out["turns"] = turns_of(stored["log"], names)
    return out


def round_request(record: Mapping[str, Any], number: int) -> dict[str, object]:
    """The scoring contract's request (shared/score-contract.md) for round ``number``
    (1-based) of ``record``: its melds and lay-offs in order, the hands left, who went out
    and the totals before it. ``scorekeeper.score`` of it gives the round's ``scores``."""
    players = record["players"]
    totals = dict.fromkeys(players, 0)
    for earlier in record["rounds"][: number - 1]:
        totals = {p: earlier["scores"][p]["total"] for p in players}
    stored = record["rounds"][number - 1]
    goer = stored["end"]["went_out"]
    last = next((t for t in reversed(stored["turns"]) if t["player"] == goer), None)
    melds: list[dict[str, object]] = []
    layoffs: list[dict[str, object]] = []
    for turn in stored["turns"]:
        final = {"final_turn": True} if turn is last else {}
        melds.extend({"owner": turn["player"], "cards": m, **final} for m in turn["melds"])
        layoffs.extend({"owner": turn["player"], **x} for x in turn["layoffs"])
    return {
        "rules": _round_rules(record["rules"], stored["turns"]),
        "players": players,
        "teams": record.get("teams"),
        "went_out": goer,
        "went_out_by": "discard" if last is None or last.get("discard") else "play",
        "melds": melds,
        "layoffs": layoffs,
        "hands": stored["end"]["hands_left"],
        "totals_before": totals,
        "deal_number": number,
    }


def _round_rules(
    rules: Mapping[str, object], turns: Sequence[Mapping[str, object]]
) -> Mapping[str, object]:
    """The record's ``rules``, with the round's nomination under X2 in ``options`` as the
    scoring contract names it (:data:`dealers_joker.NOMINATION_OPTION`)."""
    nominated = next((t["nominate"] for t in turns if t.get("nominate")), None)
    if nominated is None:
        return rules
    options = rules.get("options")
    written = dict(options) if isinstance(options, Mapping) else {}
    return {**rules, "options": written | {NOMINATION_OPTION: nominated}}


# ---- reading ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordMove:
    """One move of a record as the reader is about to make it: ``state`` the game BEFORE
    the move (the reader's own state, changed in place once the reader goes on: copy what
    must be kept), ``seat`` who makes it, ``action`` the move, ``round`` (1-based) and
    ``turn`` (1-based; None for a pass the reader adds for a window, X1, T7)."""

    state: GameState
    seat: int
    action: Action
    round: int
    turn: int | None


Moves = Generator[RecordMove, None, None]
"""The moves of a part of a record, each yielded before it is made."""


def replay(record: object) -> GameState:
    """Replay ``record`` move by move; returns the final state. Raises
    :class:`RecordError` for a record that is malformed or breaks a rule (saying the
    round, the turn and why), or whose scores differ from the replay's."""
    moves = record_moves(record)
    while True:
        try:
            next(moves)
        except StopIteration as done:
            final: GameState = done.value
            return final


def record_moves(record: object) -> Generator[RecordMove, None, GameState]:
    """:func:`replay` one move at a time: yields each move (:class:`RecordMove`) before
    it is made, and returns the final state. Raises :class:`RecordError` as :func:`replay`
    does, at the move where the record goes wrong (the moves before it were yielded)."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(
            say("not a game record: the format must be %(format)s", format=repr(FORMAT))
        )
    state, rounds = _game_of(record)
    for number, stored in enumerate(rounds, start=1):
        yield from _replay_round(state, stored, number)
    final = record.get("final")
    if final is not None:
        totals = dict(zip(state.players, state.totals, strict=True))
        if final.get("totals") != totals or final.get("winner") != state.winner:
            raise RecordError(
                say(
                    "the final totals and winner differ from the replay's: %(totals)s, %(winner)s",
                    totals=totals,
                    winner=state.winner,
                )
            )
    return state


def _game_of(record: dict[str, Any]) -> tuple[GameState, list[object]]:
    """A new game of the record's rules, players and seed, and its rounds to replay;
    :class:`RecordError` when they cannot be read or set up a game (D1, P1, X2)."""
    try:
        spec = record["rules"]
        state = new_game(
            record["players"],
            preset=spec.get("preset", "standard"),
            options=spec.get("options") or {},
            seed=int(record.get("seed") or 0),
        )
        rounds = list(record["rounds"])
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        if isinstance(error, GameSetupError | RulesError):
            raise RecordError(_said(error)) from None
        raise RecordError(
            say("the record is missing or garbles %(error)s", error=_said(error))
        ) from None
    return state, rounds


def _deal_pack(state: GameState, stored: Mapping[str, object], number: int) -> list[Card]:
    """The pack in dealing order that gives the record's deal; checks D2, D3, D5."""
    names = state.players
    n = state.n
    rules = state.rules
    dealer, hands, stock, upcard = _read_deal(stored, names, number)
    if number > 1 and dealer != state.dealer:
        raise RecordError(
            say(
                "%(player)s deals, but the rules say %(dealer)s deals (D5)",
                player=names[dealer],
                dealer=names[state.dealer],
            ),
            number,
        )
    state.dealer = dealer
    size = rules.hand_size(n)
    left = (dealer + 1) % n
    extra = "upcard_from" in stored
    _check_hand_sizes(hands, size, left if extra else None, names, number)
    pack = [hands[(dealer + 1 + i) % n][i // n] for i in range(size * n)]
    if extra:
        pack.append(hands[left][-1])
    else:
        pack.append(upcard)
    pack.extend(stock)
    if rules.dealers_gambit:
        pack.insert(0, _dealers_joker(stored, number))
    full = make_pack(rules.jokers, rules.packs_for(n))
    if Counter(c.text for c in pack) != Counter(c.text for c in full):
        raise RecordError(
            say("the deal is not the %(count)s-card pack these rules use (D2)", count=len(full)),
            number,
        )
    return pack


def _read_deal(
    stored: Mapping[str, Any], names: tuple[str, ...], number: int
) -> tuple[int, list[list[Card]], list[Card], Card]:
    """The round's dealer seat, hands by seat, stock (next card first) and upcard, as
    the record writes them; :class:`RecordError` when they cannot be read."""
    try:
        dealer = names.index(stored["dealer"])
        hands = [[parse_card(t) for t in stored["hands"][p]] for p in names]
        stock = [parse_card(t) for t in stored["stock"]]
        upcard = parse_card(stored["upcard"])
    except (KeyError, ValueError, TypeError, CardError) as error:
        raise RecordError(
            say("the deal cannot be read: %(error)s", error=_said(error)), number
        ) from None
    return dealer, hands, stock, upcard


def _check_hand_sizes(
    hands: list[list[Card]], size: int, extra: int | None, names: tuple[str, ...], number: int
) -> None:
    """D3: each hand dealt ``size`` cards, the seat ``extra`` one more (D4's extra card,
    when the record has ``upcard_from``)."""
    for seat, hand in enumerate(hands):
        want = size + (1 if seat == extra else 0)
        if len(hand) != want:
            raise RecordError(
                say(
                    "%(player)s is dealt %(count)s cards, not %(want)s (D3)",
                    player=names[seat],
                    count=len(hand),
                    want=want,
                ),
                number,
            )


def _dealers_joker(stored: Mapping[str, object], number: int) -> Card:
    """X2: the joker the record sets beside the pack (dealt first in the pack, where
    :func:`deal.deal_round` takes it out)."""
    try:
        joker = parse_card(stored["dealers_joker"])
    except (KeyError, CardError):
        joker = None
    if joker is None or not joker.is_joker:
        raise RecordError(say("under dealer's gambit a round names its dealers_joker (X2)"), number)
    return joker


def _replay_round(state: GameState, record: object, number: int) -> Moves:
    stored = _round_checked(state, record, number)
    pack = _deal_pack(state, stored, number)
    state.deal_number = number - 1
    deal_round(state, pack)
    yield from _replay_turns(state, stored, number)
    if len(state.rounds) < number and _stopped(stored):
        stop_game(state, SIMULATION_LIMIT)
    if len(state.rounds) < number:
        raise RecordError(say("the record's turns end before the round does"), number)
    scores = state.rounds[number - 1]["scores"]
    if stored.get("scores") is not None and stored["scores"] != scores:
        raise RecordError(
            say("the scores differ from the replay's: %(scores)s", scores=scores), number
        )


def _replay_turns(state: GameState, stored: dict[str, Any], number: int) -> Moves:
    """Every turn of the round, each move through ``apply_action`` (the upcard first
    when a player chose it, D4); then a pass for each seat a window still waits on (X1,
    T7)."""
    for turn_no, turn in enumerate(stored.get("turns", []), start=1):
        if "upcard_from" in stored and state.phase is Phase.START_PILE:
            yield from _apply(state, Discard(parse_card(stored["upcard"])), number, 0)
        if len(state.rounds) >= number:
            raise RecordError(
                say("the round is already over, yet the record goes on"), number, turn_no
            )
        actions = yield from _turn_actions(state, turn, number, turn_no)
        for action in actions:
            yield from _apply(state, action, number, turn_no)
    while len(state.rounds) < number and state.phase in (Phase.RUMMY, Phase.OUT_OF_TURN):
        yield from _apply(state, Pass(), number, 0)


def _round_checked(state: GameState, record: object, number: int) -> dict[str, Any]:
    """The record's round ``number`` when it is an object of known fields that follows
    the round the replay ended; :class:`RecordError` otherwise."""
    if not isinstance(record, dict):
        raise RecordError(say("a round must be a JSON object"), number)
    unknown = sorted(set(record) - ROUND_FIELDS)
    if unknown:
        raise RecordError(
            say("this reader does not know the round field(s) %(unknown)s", unknown=unknown), number
        )
    if number > 1 and len(state.rounds) != number - 1:
        raise RecordError(say("the previous round did not end where the record says"), number)
    return record


def _stopped(stored: Mapping[str, object]) -> bool:
    """The record says the simulator's guard stopped this round (and the game)."""
    end = stored.get("end")
    return isinstance(end, dict) and end.get("reason") == SIMULATION_LIMIT


def _apply(state: GameState, action: Action, number: int, turn_no: int) -> Moves:
    yield RecordMove(state, state.seat, action, number, turn_no or None)
    try:
        apply_action(state, action)
    except IllegalMove as refused:
        where = turn_no if turn_no else None
        raise RecordError(
            say(
                "%(move)s: %(message)s (%(rule)s)",
                move=action.describe(),
                message=refused.message,
                rule=refused.rule,
            ),
            number,
            where,
        ) from None


def _turn_actions(
    state: GameState, turn: object, number: int, turn_no: int
) -> Generator[RecordMove, None, list[Action]]:
    if not isinstance(turn, dict):
        raise RecordError(say("a turn must be a JSON object"), number, turn_no)
    unknown = sorted(set(turn) - TURN_FIELDS)
    if unknown:
        raise RecordError(
            say("this reader does not know the turn field(s) %(unknown)s", unknown=unknown),
            number,
            turn_no,
        )
    try:
        seat = state.players.index(turn["player"])
    except (KeyError, ValueError):
        raise RecordError(
            say("%(player)s is not a player", player=repr(turn.get("player"))), number, turn_no
        ) from None
    yield from _skip_windows(state, seat, turn, number, turn_no)
    if "reshuffled_stock" in turn:
        _set_reshuffle(state, turn["reshuffled_stock"], number, turn_no)
    try:
        return turn_actions(turn)
    except (ValueError, KeyError, TypeError) as error:
        raise RecordError(
            say("the turn cannot be read: %(error)s", error=_said(error)), number, turn_no
        ) from None


def _skip_windows(
    state: GameState, seat: int, turn: Mapping[str, object], number: int, turn_no: int
) -> Moves:
    """Pass for the seats asked in a window (X1, T7) that the record shows not acting."""
    while state.phase in (Phase.RUMMY, Phase.OUT_OF_TURN):
        if state.seat == seat and (
            (state.phase is Phase.RUMMY and turn.get("rummy") is not None)
            or (state.phase is Phase.OUT_OF_TURN and turn.get("out_of_turn"))
        ):
            break
        yield from _apply(state, Pass(), number, turn_no)
    if state.seat != seat:
        who = state.players[state.seat]
        raise RecordError(
            say("it is %(who)s's turn, not %(player)s's", who=who, player=state.players[seat]),
            number,
            turn_no,
        )


def _set_reshuffle(state: GameState, texts: Iterable[object], number: int, turn_no: int) -> None:
    stock = [parse_card(t) for t in texts]
    if Counter(c.text for c in stock) != Counter(c.text for c in state.stock):
        raise RecordError(say("the reshuffled stock is not the pile's cards (O3)"), number, turn_no)
    state.stock = list(reversed(stock))
