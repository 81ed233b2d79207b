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
    Message,
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
    say,
    say_plural,
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
        raise ChoiceError(_said(error)) from None


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
        raise ChoiceError(say("there is no move called %(name)s", name=quoted(kind)))
    if len(selection) != 1:
        raise ChoiceError(_one_card(kind, len(selection)))
    if kind == "lay_off":
        return _lay_off(state, selection[0], number)
    return Discard(selection[0])


def _one_card(kind: str, chosen: int) -> Message:
    """The refusal of a lay-off or discard of ``chosen`` cards (not one)."""
    if kind == "lay_off":
        return say("tap one card of your hand to lay off (you chose %(count)s)", count=chosen)
    return say("tap one card of your hand to discard (you chose %(count)s)", count=chosen)


def _drawn_or_given(state: GameState, kind: str, number: int | None, raw: object) -> Action:
    """A draw from the stock, a take from the pile (``number`` its index), or a whole
    action as JSON (``raw``); raises :class:`ChoiceError`."""
    if kind == "action":
        try:
            return action_from_json(raw)
        except ActionError as error:
            raise ChoiceError(
                say("that is not a move: %(problem)s", problem=_said(error))
            ) from None
    if kind == "stock":
        return DrawTwo() if state.rules.draw_two_from_stock else Draw("stock")
    if number is None:
        raise ChoiceError(say("choose a card of the discard pile"))
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
        raise ChoiceError(say("tap the three or more cards of a meld in your hand"), "M1")
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
        raise ChoiceError(say("%(card)s lays off on no meld on the table", card=card.display), "L1")
    return LayOff(card, meld)


# ---- moves in words --------------------------------------------------------------------


def _texts(cards: Sequence[Card]) -> list[str]:
    return [c.text for c in cards]


def _said(error: BaseException) -> str:
    """What an error says: its engine sentence (a :class:`Message`, translated where it is
    shown) or its text."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, Message) else str(error)


def meld_label(state: GameState, index: int) -> Message:
    """``"Bot 1's meld 2"``: a table meld as people count them (from 1)."""
    if 0 <= index < len(state.owners):
        owner = state.players[state.owners[index]]
        return say("%(name)s's meld %(number)s", name=owner, number=index + 1)
    return say("meld %(number)s", number=index + 1)


Words = tuple[Message, list[str], list[list[str]]]
"""A move in words: its ``text``, the ``cards`` it shows and the ``groups`` it lays."""


def describe(state: GameState, seat: int, action: Action) -> Step:
    """``action`` by ``seat`` in words, described BEFORE it is made (the pile and table
    as the move finds them): a step (:class:`.shown.Step`, ``{"who", "kind", "text",
    "cards", "groups"}``). Only what every seat may see is said."""
    text, cards, groups = _words(state, action)
    return Step(
        who=state.players[seat],
        kind="move",
        cards=cards,
        groups=groups,
        text=text,
        text_said=text.to_json(),
    )


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
    return _described(action), [], []


def _described(action: Action) -> Message:
    """The engine's own words for ``action`` (a :class:`Message` once the engine says
    its moves with message ids; its English text until then)."""
    said = action.describe()
    return said if isinstance(said, Message) else Message(said.replace("%", "%%"))


def _taking(state: GameState, action: Draw) -> Words:
    """A take from the discard pile: the card taken and every card above it."""
    index = action.index if action.index is not None else len(state.pile) - 1
    taken = state.pile[index:] if 0 <= index < len(state.pile) else []
    above = len(taken) - 1
    name = taken[0].display if taken else say("a card")
    if above > 0:
        said = say_plural(
            "takes %(card)s from the discard pile and the %(count)s card above it",
            "takes %(card)s from the discard pile and the %(count)s cards above it",
            above,
            card=name,
        )
    else:
        said = say("takes %(card)s from the discard pile", card=name)
    return said, _texts(taken), []


def _laying(state: GameState, action: LayDown | LayOff) -> Words:
    """A lay-down (its melds) or a lay-off (the card, the meld it goes on)."""
    if isinstance(action, LayDown):
        count = len(action.melds)
        said = say_plural("lays down a meld", "lays down %(count)s melds", count)
        return said, [], [_texts(m) for m in action.melds]
    onto = meld_label(state, action.meld)
    return (
        say("lays off %(card)s on %(meld)s", card=action.card.display, meld=onto),
        [action.card.text],
        [],
    )


def _discarding(state: GameState, action: Discard) -> Message:
    if state.phase is Phase.START_PILE:
        return say("starts the discard pile with %(card)s", card=action.card.display)
    return say("discards %(card)s", card=action.card.display)


def _splitting(state: GameState, action: Split) -> Words:
    card = state.pile[action.index].display
    if action.dealers_joker:
        said = say("splits the discard pile at %(card)s with the dealer's joker", card=card)
    else:
        said = say("splits the discard pile at %(card)s with a joker", card=card)
    return said, _texts(state.pile[action.index :]), []


def rummy_words(state: GameState, call: RummyCall, button: bool = False) -> Message:
    """A "Rummy!" call (X1) in words: the card called and where it goes (as a button
    says it when ``button``: "Call …")."""
    ok = 0 <= call.index < len(state.pile)
    card: object = state.pile[call.index].display if ok else say("a card")
    if call.meld is not None:
        onto = meld_label(state, call.meld)
        if button:
            return say('Call "Rummy!" on %(card)s, laying it off on %(meld)s', card=card, meld=onto)
        return say('calls "Rummy!" on %(card)s, laying it off on %(meld)s', card=card, meld=onto)
    if button:
        return say('Call "Rummy!" on %(card)s', card=card)
    return say('calls "Rummy!" on %(card)s', card=card)


def _pass_words(state: GameState) -> Message:
    if state.phase is Phase.RUMMY:
        return say('does not call "Rummy!"')
    if state.phase is Phase.OUT_OF_TURN:
        return say("does not meld out of turn")
    return say("draws nothing (the stock is used up)")


def button_label(state: GameState, action: Action) -> Message:
    """A short label for a button that makes ``action`` (the person's own choices), an
    engine-style sentence (:class:`Message`) put into words where it is shown."""
    if isinstance(action, Pass | EndRound):
        return _stop_label(state, action)
    if isinstance(action, LayDown | LayOff):
        return _laying_label(state, action)
    if isinstance(action, RummyCall):
        return rummy_words(state, action, button=True)
    if isinstance(action, Nominate):
        meaning = NOMINATION_MEANINGS[action.effect]
        return say(
            "Nominate the jokers %(effect)s (%(meaning)s)", effect=action.effect, meaning=meaning
        )
    if isinstance(action, Split):
        card = state.pile[action.index].display
        if action.dealers_joker:
            return say("Split the pile at %(card)s with the dealer's joker", card=card)
        return say("Split the pile at %(card)s with your joker", card=card)
    if isinstance(action, Block):
        return say("Block the dealer's joker with your joker")
    if isinstance(action, DrawTwo):
        return say("Draw two from the stock")
    said = str(action.describe())
    return Message((said[:1].upper() + said[1:].lower()).replace("%", "%%"))


def _stop_label(state: GameState, action: Pass | EndRound) -> Message:
    """A pass, or the end of a round, as its button says it in this phase."""
    if isinstance(action, EndRound):
        if state.phase is Phase.DEADWOOD:
            return say("Stop laying off")
        return say("Stop drawing: end the round")
    if state.phase is Phase.RUMMY:
        return say('Do not call "Rummy!"')
    if state.phase is Phase.OUT_OF_TURN:
        return say("Do not meld now")
    return say("Draw nothing")


def _laying_label(state: GameState, action: LayDown | LayOff) -> Message:
    """A lay-down or a lay-off as its button says it, the dealer's joker named."""
    if isinstance(action, LayDown):
        melds = [" ".join(c.display for c in m) for m in action.melds]
        shown: object = melds[0] if melds else ""
        for meld in melds[1:]:
            shown = say("%(melds)s and %(meld)s", melds=shown, meld=meld)
        if action.dealers_joker:
            return say("Lay down %(melds)s with the dealer's joker", melds=shown)
        return say("Lay down %(melds)s", melds=shown)
    card, onto = action.card.display, meld_label(state, action.meld)
    if action.dealers_joker:
        return say("Lay off the dealer's joker as %(card)s on %(meld)s", card=card, meld=onto)
    return say("Lay off %(card)s on %(meld)s", card=card, meld=onto)
