"""A finished game's record stepped move by move, for people: every step's hands, melds,
discard pile and scores, each move in words with the rules that allowed it.

Glossary:
- step: one picture of the game (:class:`Step`): a round's deal, one move, or a round's
  end; ``hands`` every seat's cards (a replay is of a game that is over, so all are
  shown), ``melds`` the table as it stands, ``pile`` the discard pile (bottom first),
  ``stock`` how many cards are left to draw, ``totals`` the running points (after the
  round at its end step), ``scores`` the round's figures at its end step (the scoring
  contract's fields, shared/score-contract.md).
- rule: a catalogue row (``{"id": "L1", "why": "..."}``, shared/rules-catalogue.md) that
  allowed the move: the checker's explanations of melds and lay-offs
  (:mod:`.checker.explain`), the turn's rules (T1 to T7), going out (O1) and the rest.

The record is read by the engine's own reader (:func:`.game.records.record_moves`): every
move is checked by ``apply_action`` as it is replayed, so a step never shows a move the
rules refuse, and a record that breaks a rule raises :class:`.game.records.RecordError`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypedDict

from .cards import Card, format_cards, parse_card, sort_key
from .checker.explain import layoff_reasons, meld_reasons
from .game.actions import (
    Action,
    Discard,
    Draw,
    DrawTwo,
    EndRound,
    LayDown,
    LayOff,
    Pass,
    RummyCall,
    Split,
    and_list,
)
from .game.records import FORMAT, RecordError, RecordMove, record_moves
from .game.state import GameState, Phase
from .melds import IllegalMeld, Meld, check_meld, extend
from .messages import N_, say, say_plural


class Rule(TypedDict):
    """A catalogue row behind a move: ``id`` (``"L1"``) and ``why`` in words."""

    id: str
    why: str


class TableMeld(TypedDict):
    """A meld on the table as it stands: ``owner`` (who laid it down), ``cards`` (card
    texts in the order they lie) and ``laid_off`` (``{"card", "by"}`` for each card laid
    off onto it, in order)."""

    owner: str
    cards: list[str]
    laid_off: list[dict[str, str]]


class Step(TypedDict):
    """One step of a replay (see the module's glossary): ``kind`` ``"deal"``, ``"move"``
    or ``"end"``; ``round`` (1-based); ``player`` who moved (None for a deal or an end);
    ``text`` in words; ``rules`` behind it; ``hands`` (name -> card texts, sorted by suit);
    ``melds``; ``pile`` (card texts, bottom first); ``stock`` (cards left);
    ``totals`` (name -> points); ``scores`` (name -> the round's figures, at an end)."""

    kind: str
    round: int
    player: str | None
    text: str
    rules: list[Rule]
    hands: dict[str, list[str]]
    melds: list[TableMeld]
    pile: list[str]
    stock: int
    totals: dict[str, int]
    scores: dict[str, dict[str, int]] | None


Reasons = list[tuple[str, str]]
"""A move's rules: ``(rule id, why)`` pairs."""


class ReplayRefused(ValueError):
    """A record that cannot be replayed for people: an unfinished game (its hidden cards
    stay hidden, ``final`` null), or one the reader refuses (:class:`RecordError`'s
    words, round and turn). ``str(error)`` is one sentence."""


@dataclass
class _Table:
    """The table as the steps show it: each meld as it stands (a :class:`Meld`), its
    owner and the cards laid off onto it (card, by whom)."""

    melds: list[Meld]
    owners: list[str]
    laid_off: list[list[dict[str, str]]]


@dataclass
class _Made:
    """A move the reader yielded, as it found the game: the ``move`` (whose ``state`` the
    reader goes on changing), the ``table``, ``pile`` and ``stock`` count before it, and
    its ``words`` and ``rules`` (said before it is made)."""

    move: RecordMove
    table: _Table
    pile: list[str]
    stock: int
    totals: dict[str, int]
    words: str
    rules: Reasons


def replay_steps(record: object) -> list[Step]:
    """Every step of ``record``'s game (shared/game-record.md): each round's deal, each
    move (the picture AFTER it, captioned with it), the round's end (whose ``scores`` are
    the record's). Raises :class:`ReplayRefused` for a record of a game not finished
    (``final`` without a winner, a round without scores) or one the engine's reader
    refuses (a rule broken, a figure that differs), in one sentence."""
    _check_finished(record)
    steps: list[Step] = []
    made: _Made | None = None
    try:
        for move in record_moves(record):
            if made is not None:
                steps.extend(_after(made))
            if made is None or move.round != made.move.round:
                steps.append(_deal_step(move.state, move.round))
            made = _before(move)
    except RecordError as error:
        raise ReplayRefused(
            say("the record cannot be replayed: %(error)s", error=error.args[0])
        ) from None
    if made is not None:
        steps.extend(_after(made))
    return steps


def _check_finished(record: object) -> None:
    """:class:`ReplayRefused` unless ``record`` is of a finished game: ``final`` with a
    winner, every round scored."""
    if not isinstance(record, Mapping) or record.get("format") != FORMAT:
        raise ReplayRefused(
            say("this is not a game record: its format must be %(format)s", format=repr(FORMAT))
        )
    final = record.get("final")
    rounds = record.get("rounds")
    if not isinstance(final, Mapping) or not final.get("winner") or not isinstance(rounds, list):
        raise ReplayRefused(
            say(
                "only a finished game can be replayed: until it is over, the other hands "
                "stay hidden"
            )
        )
    if any(not isinstance(r, Mapping) or r.get("scores") is None for r in rounds):
        raise ReplayRefused("only a finished game can be replayed: a round has no scores")


# ---- pictures of the game -----------------------------------------------------------------


def _texts(cards: Sequence[Card]) -> list[str]:
    return [c.text for c in cards]


def _sorted(cards: Sequence[Card]) -> list[str]:
    return _texts(sorted(cards, key=sort_key))


def _table_of(state: GameState) -> _Table:
    """The table of ``state`` (its melds as they stand, who laid each, the lay-offs)."""
    laid_off: list[list[dict[str, str]]] = [[] for _ in state.table]
    for seat, card, meld in state.layoffs:
        laid_off[meld].append({"card": card.text, "by": state.players[seat]})
    owners = [state.players[o] for o in state.owners]
    return _Table(list(state.table), owners, laid_off)


def _melds(table: _Table) -> list[TableMeld]:
    return [
        {"owner": owner, "cards": _texts(meld.cards), "laid_off": [dict(x) for x in off]}
        for meld, owner, off in zip(table.melds, table.owners, table.laid_off, strict=True)
    ]


def _totals(state: GameState) -> dict[str, int]:
    return dict(zip(state.players, state.totals, strict=True))


def _picture(state: GameState, table: _Table, kind: str, number: int) -> Step:
    """A step of round ``number`` showing ``state``'s hands, pile, stock and totals and
    ``table``; no words yet."""
    return {
        "kind": kind,
        "round": number,
        "player": None,
        "text": "",
        "rules": [],
        "hands": {n: _sorted(h) for n, h in zip(state.players, state.hands, strict=True)},
        "melds": _melds(table),
        "pile": _texts(state.pile),
        "stock": len(state.stock),
        "totals": _totals(state),
        "scores": None,
    }


def _deal_step(state: GameState, number: int) -> Step:
    """The round ``number`` as dealt: every hand, the upcard (or none yet, D4), the stock."""
    dealer = state.players[state.dealer]
    size = state.rules.hand_size(state.n)
    step = _picture(state, _table_of(state), "deal", number)
    step["text"] = say(
        "Round %(number)s: %(dealer)s deals %(size)s cards each",
        number=number,
        dealer=dealer,
        size=size,
    )
    why = say("%(size)s cards each with %(players)s players", size=size, players=state.n)
    step["rules"] = [{"id": "D3", "why": why}]
    return step


def _before(move: RecordMove) -> _Made:
    """``move`` as the reader yields it, before it is made: the table, pile and stock it
    finds, and the move in words."""
    state = move.state
    table = _table_of(state)
    words, rules = _words(state, move.seat, move.action, table)
    pile, stock = _texts(state.pile), len(state.stock)
    return _Made(move, table, pile, stock, _totals(state), words, rules)


def _after(made: _Made) -> list[Step]:
    """The step of ``made``'s move, once made (the reader's state has gone on to the next
    move), and its round's end step when the move ended the round."""
    move = made.move
    state = move.state
    name = state.players[move.seat]
    rules = made.rules + _taking_rules(state, move.action)
    ended = len(state.rounds) >= move.round
    step = _ending(made) if ended else _picture(state, _table_of(state), "move", move.round)
    step["kind"], step["player"], step["text"] = "move", name, made.words
    step["rules"] = [{"id": i, "why": why} for i, why in _unique(rules)]
    if not ended:
        return [step]
    step["totals"] = made.totals
    end = _ending(made)
    end["scores"] = state.rounds[move.round - 1]["scores"]
    return [step, end]


def _taking_rules(state: GameState, action: Action) -> Reasons:
    """A take from the discard pile, once made: T2 when the card must be used at once
    (the engine says so), else T3 (the top card alone kept)."""
    if not isinstance(action, Draw) or action.source != "discard":
        return []
    if state.must_use is not None:
        return [("T2", say("the card taken must be used at once, in a meld or a lay-off"))]
    return [("T3", say("the top card alone may be kept"))]


def _ending(made: _Made) -> Step:
    """Round ``made.move.round``'s end after its last move (the engine has dealt the next
    round by then): the hands left and the round's totals as the engine scored them
    (equal to the record's: the reader checks), the table and pile the move left."""
    move = made.move
    state = move.state
    stored: dict[str, Any] = state.rounds[move.round - 1]
    end: dict[str, Any] = stored["end"]
    table = _Table(list(made.table.melds), list(made.table.owners), list(made.table.laid_off))
    pile = list(made.pile)
    _made_on(move, table, pile)
    goer = end.get("went_out")
    step = _picture(state, table, "end", move.round)
    if goer:
        step["text"] = say(
            "Round %(number)s is over: %(player)s went out", number=move.round, player=goer
        )
    else:
        step["text"] = say(
            "Round %(number)s is over: the %(reason)s", number=move.round, reason=end.get("reason")
        )
    why = say("cards shown on the table, less the cards left in hand")
    step["rules"] = [{"id": "S7", "why": why}]
    step["hands"] = {p: _sorted([parse_card(t) for t in h]) for p, h in end["hands_left"].items()}
    step["pile"] = pile
    step["stock"] = made.stock - _drawn(move.action)
    step["totals"] = {p: figures["total"] for p, figures in stored["scores"].items()}
    return step


def _drawn(action: Action) -> int:
    if isinstance(action, DrawTwo):
        return 2
    return 1 if isinstance(action, Draw) and action.source == "stock" else 0


def _made_on(move: RecordMove, table: _Table, pile: list[str]) -> None:
    """What a round's last move did to ``table`` and ``pile`` (copies of those it found):
    melds laid, a card laid off, a discard."""
    state, action = move.state, move.action
    name = state.players[move.seat]
    if isinstance(action, LayDown):
        for cards in action.melds:
            table.melds.append(check_meld(cards, state.rules))
            table.owners.append(name)
            table.laid_off.append([])
    elif isinstance(action, LayOff | RummyCall) and action.meld is not None:
        card = action.card if isinstance(action, LayOff) else parse_card(pile.pop(action.index))
        table.melds[action.meld] = extend(table.melds[action.meld], card, state.rules)
        laid = {"card": card.text, "by": name}
        table.laid_off[action.meld] = [*table.laid_off[action.meld], laid]
    elif isinstance(action, Discard):
        pile.append(action.card.text)


# ---- moves in words, with their rules -----------------------------------------------------


def _words(state: GameState, seat: int, action: Action, table: _Table) -> tuple[str, Reasons]:
    """``action`` by ``seat`` in words, a whole sentence naming the player (as /play's log
    says it), and the rules that allowed it, said BEFORE it is made."""
    name = state.players[seat]
    if isinstance(action, Draw | DrawTwo):
        return _drawing(state, name, action)
    if isinstance(action, LayDown):
        return _laying_down(state, seat, action)
    if isinstance(action, LayOff):
        return _laying_off(state, seat, action.card, action.meld, table)
    if isinstance(action, Discard):
        return _discarding(state, seat, action)
    if isinstance(action, RummyCall):
        return _calling(state, seat, action, table)
    if isinstance(action, Pass | EndRound):
        return _stopping(state, name, action)
    if isinstance(action, Split) and 0 <= action.index < len(state.pile):
        whose = say("the dealer's joker") if action.dealers_joker else say("a joker")
        card = state.pile[action.index].display
        said = say(
            "%(player)s splits the discard pile at %(card)s with %(whose)s",
            player=name,
            card=card,
            whose=whose,
        )
        return said, [("X2", say("dealer's gambit"))]
    said = say("%(player)s %(move)s", player=name, move=action.describe())
    return said, [("X2", say("dealer's gambit: the jokers nominated each deal"))]


def _drawing(state: GameState, name: str, action: Draw | DrawTwo) -> tuple[str, Reasons]:
    """A draw from the stock (T1, two under T6) or a take from the discard pile (T1,
    the card and every card above it; T2 when it must be used at once)."""
    if isinstance(action, DrawTwo):
        said = say("%(player)s draws two from the stock", player=name)
        return said, [("T6", say("two cards from the stock, Boathouse Rum"))]
    if action.source == "stock":
        said = say("%(player)s draws from the stock", player=name)
        return said, [("T1", say("the top card of the stock"))]
    index = action.index if action.index is not None else len(state.pile) - 1
    taken = state.pile[index:] if 0 <= index < len(state.pile) else []
    above = len(taken) - 1
    card = taken[0].display if taken else say("a card")
    rules: Reasons = [("T1", say("any card of the discard pile, with every card above it"))]
    if above > 0:
        said = say_plural(
            "%(player)s takes %(card)s from the discard pile and the %(count)s card above it",
            "%(player)s takes %(card)s from the discard pile and the %(count)s cards above it",
            above,
            player=name,
            card=card,
        )
        return said, rules
    return say("%(player)s takes %(card)s from the discard pile", player=name, card=card), rules


def _goes_out(state: GameState, seat: int, cards: int) -> tuple[bool, Reasons]:
    """Whether playing ``cards`` cards empties ``seat``'s hand (O1), and the rule."""
    if len(state.hands[seat]) == cards:
        return True, [("O1", say("the last card of the hand played: the round ends"))]
    return False, []


def _laying_down(state: GameState, seat: int, action: LayDown) -> tuple[str, Reasons]:
    """Melds laid down (T4), each with the checker's reasons (M1 to M6, P2, X2)."""
    rules: Reasons = [("T4", say("after drawing, any melds may be laid down"))]
    for cards in action.melds:
        try:
            rules.extend(meld_reasons(check_meld(cards, state.rules), state.rules))
        except IllegalMeld:  # the reader's apply_action refuses it next
            pass
    minimum = state.rules.first_meld_minimum
    if minimum and not state.opened[seat]:
        rules.append(("M6", say("a first meld of at least %(minimum)s points", minimum=minimum)))
    count = sum(len(m) for m in action.melds)
    out, more = _goes_out(state, seat, count)
    melds = and_list([format_cards(m) for m in action.melds])
    name = state.players[seat]
    if out:
        said = say("%(player)s lays down %(melds)s and goes out", player=name, melds=melds)
    else:
        said = say("%(player)s lays down %(melds)s", player=name, melds=melds)
    return said, _unique(rules + more)


_LAID_OFF: Final = {
    (False, False): N_("%(player)s lays off %(card)s on %(owner)s's meld %(meld)s (%(cards)s)"),
    (False, True): N_(
        "%(player)s lays off %(card)s on %(owner)s's meld %(meld)s (%(cards)s) and goes out"
    ),
    (True, False): N_(
        '%(player)s calls "Rummy!" on %(card)s, and lays off %(card)s on %(owner)s\'s meld '
        "%(meld)s (%(cards)s)"
    ),
    (True, True): N_(
        '%(player)s calls "Rummy!" on %(card)s, and lays off %(card)s on %(owner)s\'s meld '
        "%(meld)s (%(cards)s) and goes out"
    ),
}
"""A lay-off in words, by (after a "Rummy!" call, going out)."""

_LAID_OFF_ANYWHERE: Final = {
    False: N_("%(player)s lays off %(card)s on meld %(meld)s"),
    True: N_('%(player)s calls "Rummy!" on %(card)s, and lays off %(card)s on meld %(meld)s'),
}
"""A lay-off onto a meld the table does not show, by (after a "Rummy!" call)."""


def _laying_off(
    state: GameState, seat: int, card: Card, meld: int, table: _Table, called: bool = False
) -> tuple[str, Reasons]:
    """A card laid off (L1, L3 and what the grown meld is), on whose meld; ``called``
    after a "Rummy!" call (X1), said in the same sentence."""
    figures: dict[str, object] = {"player": state.players[seat], "card": card.display}
    if not 0 <= meld < len(table.melds):
        said = say(_LAID_OFF_ANYWHERE[called], meld=meld + 1, **figures)
        return said, [("L1", say("onto a table meld"))]
    onto = table.melds[meld]
    try:
        rules = layoff_reasons(extend(onto, card, state.rules), [card], state.rules)
    except IllegalMeld:  # the reader's apply_action refuses it next
        rules = []
    out, more = _goes_out(state, seat, 1)
    figures |= {"owner": table.owners[meld], "meld": meld + 1, "cards": format_cards(onto.cards)}
    return say(_LAID_OFF[called, out], **figures), _unique(rules + more)


def _discarding(state: GameState, seat: int, action: Discard) -> tuple[str, Reasons]:
    """A discard ending the turn (T5), or the first discard chosen (D4)."""
    name, card = state.players[seat], action.card.display
    if state.phase is Phase.START_PILE:
        why = say("the player dealt an extra card chooses the first discard")
        said = say("%(player)s starts the discard pile with %(card)s", player=name, card=card)
        return said, [("D4", why)]
    out, more = _goes_out(state, seat, 1)
    if out:
        said = say("%(player)s discards %(card)s and goes out", player=name, card=card)
    else:
        said = say("%(player)s discards %(card)s", player=name, card=card)
    return said, [("T5", say("a turn ends with a discard")), *more]


def _calling(state: GameState, seat: int, call: RummyCall, table: _Table) -> tuple[str, Reasons]:
    """A "Rummy!" call (X1): the card called and where it goes (L1, L3 for its lay-off)."""
    card = state.pile[call.index] if 0 <= call.index < len(state.pile) else None
    name = state.players[seat]
    shown = card.display if card else say("a card")
    said = say('%(player)s calls "Rummy!" on %(card)s', player=name, card=shown)
    rules: Reasons = [("X1", say("a discard that fits a table meld may be called"))]
    if call.meld is None or card is None:
        return said, rules
    laid, more = _laying_off(state, seat, card, call.meld, table, called=True)
    return laid, rules + more


def _stopping(state: GameState, name: str, action: Pass | EndRound) -> tuple[str, Reasons]:
    """A pass in a window (X1, T7), no draw with the stock gone (O3), the round stopped
    (O3) or deadwood laid off no more (O4)."""
    if isinstance(action, EndRound):
        if state.phase is Phase.DEADWOOD:
            said = say("%(player)s stops laying off", player=name)
            return said, [("O4", say("deadwood laid off after the other went out"))]
        said = say("%(player)s stops drawing: the round ends", player=name)
        return said, [("O3", say("the stock is used up"))]
    if state.phase is Phase.RUMMY:
        said = say('%(player)s does not call "Rummy!"', player=name)
        return said, [("X1", say('anyone may call "Rummy!", or not'))]
    if state.phase is Phase.OUT_OF_TURN:
        said = say("%(player)s does not meld out of turn", player=name)
        return said, [("T7", say("melding out of turn is allowed, or not"))]
    said = say("%(player)s draws nothing (the stock is used up)", player=name)
    return said, [("O3", say("the stock is used up: play on"))]


def _unique(rules: Reasons) -> Reasons:
    """``rules`` with each id once (the first reason given for it)."""
    seen: set[str] = set()
    out: Reasons = []
    for rule, why in rules:
        if rule not in seen:
            seen.add(rule)
            out.append((rule, why))
    return out
