"""Between a person's taps and the engine's moves: which move a choice means, and moves
in words.

Glossary:
- choice: what the play page sends: ``do`` (``"stock"``, ``"take"``, ``"lay_down"``,
  ``"lay_off"``, ``"discard"`` or ``"action"``), the selected hand cards (card texts),
  the pile index or table meld index, or a whole action as JSON (``"action"``).
- selection: the hand cards tapped, as plain cards (a joker is ``JK``); the engine's legal
  moves say how a joker is declared (M5) and how a first meld splits in two (M6).
- step: one move described for people: ``{"who", "kind", "text", "cards", "groups"}``
  (``cards`` card texts; ``groups`` a list of card-text lists, one per meld laid).

Nothing here decides legality: a choice that matches no legal move is handed to
``apply_action`` as it stands, so the engine's refusal (message and rule id) is what the
person reads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine import (
    NOMINATION_MEANINGS,
    Action,
    ActionError,
    Block,
    Card,
    CardError,
    Discard,
    Draw,
    DrawTwo,
    EndRound,
    GameState,
    LayDown,
    LayOff,
    Nominate,
    Pass,
    Phase,
    RuleSet,
    RummyCall,
    Split,
    action_from_json,
    joker_namings,
    legal_actions,
    parse_card,
    quoted,
    sort_key,
)
from .shown import Step

CHOICES = ("stock", "take", "lay_down", "lay_off", "discard", "action")


class ChoiceError(ValueError):
    """A choice that names no move (unknown kind, bad card text, a missing index):
    ``message`` for the person, ``rule`` a catalogue id or None."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.message = message
        self.rule = rule
        super().__init__(message)


@dataclass
class Ambiguous(Exception):
    """The selection fits several legal moves (a joker that can stand for more than one
    card, M5): the person picks one of ``actions``."""

    actions: list[Action] = field(default_factory=list)


def parse_selection(texts: Sequence[str]) -> list[Card]:
    """Card texts as cards; raises :class:`ChoiceError` naming a bad one."""
    try:
        return [parse_card(t) for t in texts if str(t).strip()]
    except CardError as error:
        raise ChoiceError(str(error)) from None


def _physical(cards: Sequence[Card]) -> Counter[Card]:
    return Counter(c.physical for c in cards)


def action_for(
    state: GameState, kind: str, cards: Sequence[str], number: int | None, raw: object = None
) -> Action:
    """The move a choice means for the current seat of ``state``.

    ``kind`` one of :data:`CHOICES`; ``cards`` the selected card texts; ``number`` the pile
    index (``take``) or table meld index (``lay_off``); ``raw`` an action dict (``action``).
    Raises :class:`ChoiceError` (nothing names a move) or :class:`Ambiguous`.
    """
    if kind in ("action", "stock", "take"):
        return _drawn_or_given(state, kind, number, raw)
    selection = parse_selection(cards)
    if kind == "lay_down":
        return _lay_down(state, selection)
    if kind not in ("lay_off", "discard"):
        raise ChoiceError(f"there is no move called {quoted(kind)}")
    if len(selection) != 1:
        verb = "lay off" if kind == "lay_off" else "discard"
        raise ChoiceError(f"tap one card of your hand to {verb} (you chose {len(selection)})")
    if kind == "lay_off":
        return _lay_off(state, selection[0], number)
    return Discard(selection[0])


def _drawn_or_given(state: GameState, kind: str, number: int | None, raw: object) -> Action:
    """A draw from the stock, a take from the pile (``number`` its index), or a whole
    action as JSON (``raw``); raises :class:`ChoiceError`."""
    if kind == "action":
        try:
            return action_from_json(raw)
        except ActionError as error:
            raise ChoiceError(f"that is not a move: {error}") from None
    if kind == "stock":
        return DrawTwo() if state.rules.draw_two_from_stock else Draw("stock")
    if number is None:
        raise ChoiceError("choose a card of the discard pile")
    return Draw("discard", number)


def _distinct(actions: list[Action]) -> list[Action]:
    out: list[Action] = []
    for a in actions:
        if a not in out:
            out.append(a)
    return out


def declarations(selection: Sequence[Card], rules: RuleSet) -> list[LayDown]:
    """Every way the wild jokers (M5) among ``selection`` can be named so that it makes
    one meld, as lay-downs (:func:`scorekeeper.engine.game.hand_melds.joker_namings`)."""
    return [LayDown(cards) for cards in joker_namings(selection, rules)]


def _one_of(actions: Sequence[Action]) -> Action | None:
    """The one move of ``actions``, None when there is none; raises :class:`Ambiguous`
    when several fit (the person picks one)."""
    if len(actions) == 1:
        return actions[0]
    if actions:
        raise Ambiguous(list(actions))
    return None


def _lay_down(state: GameState, selection: list[Card]) -> Action:
    """The lay-down of ``selection``: its jokers named the one way they can be (M5), else
    the one legal lay-down of the same cards (a first meld split in two, M6), else the
    cards as they stand (for the engine to refuse)."""
    if len(selection) < 3:
        raise ChoiceError("tap the three or more cards of a meld in your hand", "M1")
    named = _one_of(declarations(selection, state.rules))
    if named is not None:
        return named
    laid = _one_of(_lay_downs_of(state, selection))
    return laid if laid is not None else LayDown(tuple(sorted(selection, key=sort_key)))


def _lay_downs_of(state: GameState, selection: Sequence[Card]) -> list[Action]:
    """The legal lay-downs of exactly the cards of ``selection``, each once."""
    wanted = _physical(selection)
    return _distinct(
        [
            a
            for a in legal_actions(state)
            if isinstance(a, LayDown) and _physical([c for m in a.melds for c in m]) == wanted
        ]
    )


def _lay_off(state: GameState, card: Card, meld: int | None) -> Action:
    """The lay-off of ``card`` on table meld ``meld`` (any meld that takes it when None:
    the person picks when several do)."""
    matches = _distinct(
        [
            a
            for a in legal_actions(state)
            if isinstance(a, LayOff) and meld in (None, a.meld) and a.card.physical is card.physical
        ]
    )
    found = _one_of(matches)
    if found is not None:
        return found
    if meld is None:
        raise ChoiceError(f"{card.display} lays off on no meld on the table", "L1")
    return LayOff(card, meld)


# ---- moves in words --------------------------------------------------------------------


def _texts(cards: Sequence[Card]) -> list[str]:
    return [c.text for c in cards]


def meld_label(state: GameState, index: int) -> str:
    """``"Bot 1's meld 2"``: a table meld as people count them (from 1)."""
    if 0 <= index < len(state.owners):
        return f"{state.players[state.owners[index]]}'s meld {index + 1}"
    return f"meld {index + 1}"


Words = tuple[str, list[str], list[list[str]]]
"""A move in words: its ``text``, the ``cards`` it shows and the ``groups`` it lays."""


def describe(state: GameState, seat: int, action: Action) -> Step:
    """``action`` by ``seat`` in words, described BEFORE it is made (the pile and table
    as the move finds them): a step (:class:`.shown.Step`, ``{"who", "kind", "text",
    "cards", "groups"}``). Only what every seat may see is said."""
    text, cards, groups = _words(state, action)
    return Step(who=state.players[seat], kind="move", cards=cards, groups=groups, text=text)


def _words(state: GameState, action: Action) -> Words:
    """:func:`describe`'s words, by the kind of move."""
    if isinstance(action, Draw) and action.source == "discard":
        return _taking(state, action)
    if isinstance(action, LayDown | LayOff):
        return _laying(state, action)
    if isinstance(action, Discard):
        return _discarding(state, action), [action.card.text], []
    if isinstance(action, RummyCall):
        return rummy_words(state, action), _texts(state.pile[action.index : action.index + 1]), []
    if isinstance(action, Pass):
        return _pass_words(state), [], []
    if isinstance(action, Split) and 0 <= action.index < len(state.pile):
        return _splitting(state, action)
    return action.describe(), [], []


def _taking(state: GameState, action: Draw) -> Words:
    """A take from the discard pile: the card taken and every card above it."""
    index = action.index if action.index is not None else len(state.pile) - 1
    taken = state.pile[index:] if 0 <= index < len(state.pile) else []
    above = len(taken) - 1
    more = f" and the {above} card{'s' if above > 1 else ''} above it" if above > 0 else ""
    name = taken[0].display if taken else "a card"
    return f"takes {name} from the discard pile{more}", _texts(taken), []


def _laying(state: GameState, action: LayDown | LayOff) -> Words:
    """A lay-down (its melds) or a lay-off (the card, the meld it goes on)."""
    if isinstance(action, LayDown):
        count = len(action.melds)
        said = "lays down a meld" if count == 1 else f"lays down {count} melds"
        return said, [], [_texts(m) for m in action.melds]
    said = f"lays off {action.card.display} on {meld_label(state, action.meld)}"
    return said, [action.card.text], []


def _discarding(state: GameState, action: Discard) -> str:
    if state.phase is Phase.START_PILE:
        return f"starts the discard pile with {action.card.display}"
    return f"discards {action.card.display}"


def _splitting(state: GameState, action: Split) -> Words:
    whose = "the dealer's joker" if action.dealers_joker else "a joker"
    said = f"splits the discard pile at {state.pile[action.index].display} with {whose}"
    return said, _texts(state.pile[action.index :]), []


def rummy_words(state: GameState, call: RummyCall) -> str:
    """A "Rummy!" call (X1) in words: the card called and where it goes."""
    card = state.pile[call.index].display if 0 <= call.index < len(state.pile) else "a card"
    where = f", laying it off on {meld_label(state, call.meld)}" if call.meld is not None else ""
    return f'calls "Rummy!" on {card}{where}'


def _pass_words(state: GameState) -> str:
    if state.phase is Phase.RUMMY:
        return 'does not call "Rummy!"'
    if state.phase is Phase.OUT_OF_TURN:
        return "does not meld out of turn"
    return "draws nothing (the stock is used up)"


def button_label(state: GameState, action: Action) -> str:
    """A short label for a button that makes ``action`` (the person's own choices)."""
    if isinstance(action, Pass | EndRound):
        return _stop_label(state, action)
    if isinstance(action, LayDown | LayOff):
        return _laying_label(state, action)
    if isinstance(action, RummyCall):
        return rummy_words(state, action).replace("calls", "Call", 1)
    if isinstance(action, Nominate):
        return f"Nominate the jokers {action.effect} ({NOMINATION_MEANINGS[action.effect]})"
    if isinstance(action, Split):
        whose = "the dealer's joker" if action.dealers_joker else "your joker"
        return f"Split the pile at {state.pile[action.index].display} with {whose}"
    if isinstance(action, Block):
        return "Block the dealer's joker with your joker"
    if isinstance(action, DrawTwo):
        return "Draw two from the stock"
    return action.describe().capitalize()


def _stop_label(state: GameState, action: Pass | EndRound) -> str:
    """A pass, or the end of a round, as its button says it in this phase."""
    if isinstance(action, EndRound):
        return "Stop laying off" if state.phase is Phase.DEADWOOD else "Stop drawing: end the round"
    return {
        Phase.RUMMY: 'Do not call "Rummy!"',
        Phase.OUT_OF_TURN: "Do not meld now",
    }.get(state.phase, "Draw nothing")


def _laying_label(state: GameState, action: LayDown | LayOff) -> str:
    """A lay-down or a lay-off as its button says it, the dealer's joker named."""
    if isinstance(action, LayDown):
        shown = "Lay down " + " and ".join(" ".join(c.display for c in m) for m in action.melds)
        return shown + " with the dealer's joker" if action.dealers_joker else shown
    whose = "the dealer's joker as " if action.dealers_joker else ""
    return f"Lay off {whose}{action.card.display} on {meld_label(state, action.meld)}"
