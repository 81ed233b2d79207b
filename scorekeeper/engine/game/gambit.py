"""Dealer's gambit in play (catalogue X2, seed 002): the nomination, the jokers used as
nominated, and the block. :mod:`turns` asks :func:`gambit_legal` for the X2 moves of the
current seat and lets :func:`apply_gambit` make them.

Readings of seed 002 ("Dealer's gambit") where it is loose, as the digital game plays it:
- "the dealer must nominate the effect of the jokers for that hand": the nomination
  (:class:`Nominate`) is the dealer's move right after the deal, before the first turn.
  It is the effect of every joker of the hand: "The second joker is shuffled and dealt
  with the rest of the cards", and its holder uses it as nominated.
- "may be used at any time in the game by the dealer": in the dealer's own turns, after
  the draw (wild, double) or instead of it (split); never in another player's turn.
- "1. Wild card. The joker may be used as a wild card in any set or sequence": the
  dealer lays it down or lays it off as a wild card (``JK=7C``, ``dealers_joker``).
- "2. Double ... placed face up over any meld, whilst it is being melded": over a set as
  it is laid down (``JK=double``, :func:`melds.check_meld`).
- "3. ... 'split' the discard pile from either side of the card selected. Those cards on
  the inside of the split are then removed from the game for the remainder of that hand.
  Those cards on the outside of the split are added to the players hand. As per normal
  the selected card must be used immediately": instead of a draw the player chooses a
  pile card; the cards under it (inside, towards the upcard) leave the hand, the card and
  those above it (outside, the open end of the pile) go to the player, who must use the
  card at once (T2; the top card too, T3 does not apply). The joker stays out with them.
- "The dealer's joker can be 'blocked' at any time in the game by placing another joker
  face down over it": by another player, with a joker from the hand, in that player's
  own turn after the draw, keeping a card to discard; both jokers leave the hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..cards import DOUBLE, JOKER, Card
from ..messages import Message, say
from ..rules.dealers_joker import NOMINATIONS, DealersJoker, round_rules
from .actions import Action, Block, LayDown, LayOff, Nominate, Split
from .hand_melds import hand_melds, remove_cards
from .plays import (
    IllegalMove,
    check_laydown,
    keeps_discard,
    laydown_options,
    layoff_options,
    play_cards,
    use_options,
)
from .state import GameState, Phase
from .taking import barred_discard

_OWN_TURN = (Phase.DRAW, Phase.MUST_USE, Phase.PLAY)


def gambit_legal(state: GameState) -> list[Action]:
    """The X2 moves of the current seat: the nomination (NOMINATE), splits (DRAW), plays
    with the dealer's joker and doubled sets (MUST_USE, PLAY), a block (PLAY)."""
    g = state.gambit
    if g is None:
        return []
    if state.phase is Phase.NOMINATE:
        return [Nominate(effect) for effect in NOMINATIONS]
    if state.phase not in _OWN_TURN or state.seat != state.turn_seat:
        return []
    if state.phase is Phase.DRAW:
        return list(_splits(state, g)) if g.nomination == "split" else []
    out: list[Action] = []
    if g.nomination == "wild" and _dealer_may(state, g):
        out.extend(_wild_plays(state))
    if g.nomination == "double":
        out.extend(_doubles(state, g))
    if state.phase is Phase.PLAY and _may_block(state, g):
        out.append(Block())
    return out


def _dealer_may(state: GameState, g: DealersJoker) -> bool:
    return state.seat == g.dealer and g.usable


def _holds_joker(state: GameState, seat: int) -> bool:
    return any(c is JOKER for c in state.hands[seat])


@contextmanager
def _with_dealers_joker(state: GameState) -> Iterator[list[Card]]:
    """The dealer's hand with the dealer's joker in it for the time of a check."""
    hand = state.hands[state.seat]
    hand.append(JOKER)
    try:
        yield hand
    finally:
        hand.pop()


def _wild_plays(state: GameState) -> list[Action]:
    """Lay-downs and lay-offs holding the dealer's joker as a wild card."""
    seat, must = state.seat, state.must_use
    out: list[Action] = []
    with _with_dealers_joker(state) as hand:
        for down in laydown_options(state, seat, hand, must):
            if any(c.is_joker for m in down.melds for c in m):
                out.append(LayDown(down.cards, down.more, dealers_joker=True))
        if must is None:
            out.extend(
                LayOff(off.card, off.meld, dealers_joker=True)
                for off in layoff_options(state, seat, hand, only=JOKER)
            )
    return out


def _doubles(state: GameState, g: DealersJoker) -> list[Action]:
    """Sets laid down with a joker over them (``JK=double``): from the hand, or the
    dealer's joker from beside the pack."""
    seat = state.seat
    sets = [m for m in hand_melds(state.hands[seat], state.rules) if _is_set(m)]
    out: list[Action] = []
    for flag, ok in ((False, _holds_joker(state, seat)), (True, _dealer_may(state, g))):
        if not ok:
            continue
        for meld in sets:
            down = LayDown((*meld, DOUBLE), dealers_joker=flag)
            if _laydown_ok(state, down):
                out.append(down)
    return out


def _is_set(meld: tuple[Card, ...]) -> bool:
    return len({c.natural.rank for c in meld}) == 1


def _laydown_ok(state: GameState, down: LayDown) -> bool:
    try:
        if down.dealers_joker:
            with _with_dealers_joker(state):
                check_laydown(state, state.seat, down, state.must_use)
        else:
            check_laydown(state, state.seat, down, state.must_use)
    except IllegalMove:
        return False
    return True


def _may_block(state: GameState, g: DealersJoker) -> bool:
    """Another player holding a joker, the dealer's joker still beside the pack, and a card
    left to discard after the block."""
    seat = state.seat
    if seat == g.dealer or g.beside is None or not _holds_joker(state, seat):
        return False
    rest = remove_cards(state.hands[seat], (JOKER,))
    return rest is not None and bool(rest) and keeps_discard(rest, state)


def _splits(state: GameState, g: DealersJoker) -> Iterator[Split]:
    seat = state.seat
    sources = [flag for flag, ok in ((True, _dealer_may(state, g)), (False, True)) if ok]
    for flag in sources if _holds_joker(state, seat) else [s for s in sources if s]:
        for index in range(len(state.pile)):
            if may_split(state, seat, index, from_hand=not flag):
                yield Split(index, flag)


def may_split(state: GameState, seat: int, index: int, *, from_hand: bool) -> bool:
    """X2 split: True when ``seat`` can use the pile card at ``index`` at once with the
    cards it would then hold (its hand, less the joker used when ``from_hand``, and the
    pile from ``index`` up): in a new meld or, where T2 allows, a lay-off."""
    hand = state.hands[seat]
    if from_hand:
        hand = remove_cards(hand, (JOKER,)) or []
    taken = state.pile[index:]
    saved = state.no_discard
    state.no_discard = barred_discard(state.rules, taken, False)
    try:
        return bool(use_options(state, seat, taken[0], hand + taken, first=True))
    finally:
        state.no_discard = saved


def apply_gambit(state: GameState, action: Action) -> bool:
    """Make ``action`` if it is an X2 move (True), after X2's own checks; False for an
    ordinary move, left to its phase. Raises :class:`IllegalMove` (rule X2, or the rule a
    play breaks) and leaves the state unchanged."""
    g = state.gambit
    assert g is not None
    if state.phase is Phase.NOMINATE or isinstance(action, Nominate):
        _nominate(state, g, action)
        return True
    if isinstance(action, Split):
        _split(state, g, action)
        return True
    if isinstance(action, Block):
        _block(state, g)
        return True
    if isinstance(action, LayDown | LayOff):
        return _joker_play(state, g, action)
    return False


def _nominate(state: GameState, g: DealersJoker, action: Action) -> None:
    if state.phase is not Phase.NOMINATE:
        raise IllegalMove(say("the dealer nominates once, right after the deal"), "X2")
    if not isinstance(action, Nominate) or action.effect not in NOMINATIONS:
        raise IllegalMove(
            say("first the dealer nominates what the jokers do this hand: wild, double or split"),
            "X2",
        )
    g.nomination = action.effect
    state.rules = round_rules(state.rules, action.effect)
    state.log.append((state.seat, action))
    extra = state.rules.first_discard == "extra-card-to-left" and not state.pile
    state.phase = Phase.START_PILE if extra else Phase.DRAW
    state.seat = state.turn_seat = (g.dealer + 1) % state.n


def _own_turn(state: GameState, phases: tuple[Phase, ...], refusal: Message) -> None:
    if state.phase not in phases or state.seat != state.turn_seat:
        raise IllegalMove(refusal, "X2")


def _refuse_dealers(state: GameState, g: DealersJoker) -> None:
    """Why the current seat may not use the dealer's joker now, if it may not."""
    if state.seat != g.dealer:
        raise IllegalMove(say("only the dealer uses the dealer's joker"), "X2")
    if g.blocked_by is not None:
        raise IllegalMove(
            say(
                "%(player)s blocked the dealer's joker this hand",
                player=state.players[g.blocked_by],
            ),
            "X2",
        )
    if g.beside is None:
        raise IllegalMove(say("the dealer's joker is already used this hand"), "X2")


def _split(state: GameState, g: DealersJoker, action: Split) -> None:
    _own_turn(state, (Phase.DRAW,), say("a split replaces the draw, only in your own turn"))
    if g.nomination != "split":
        raise IllegalMove(
            say(
                "the jokers are nominated %(nomination)s this hand, not split",
                nomination=g.nomination,
            ),
            "X2",
        )
    seat = state.seat
    if action.dealers_joker:
        _refuse_dealers(state, g)
    elif not _holds_joker(state, seat):
        raise IllegalMove(say("you hold no joker to split the pile with"), "X2")
    if not 0 <= action.index < len(state.pile):
        raise IllegalMove(say("the discard pile has no card %(index)s", index=action.index), "T1")
    if not may_split(state, seat, action.index, from_hand=not action.dealers_joker):
        card = state.pile[action.index]
        raise IllegalMove(
            say("the %(card)s must be used at once, and you cannot use it", card=card.name), "T2"
        )
    _spend_joker(state, g, seat, action.dealers_joker, "split")
    index = action.index
    g.aside.extend(state.pile[:index])
    taken = state.pile[index:]
    state.pile = []
    state.hands[seat].extend(taken)
    state.known[seat].extend(taken)
    state.must_use = taken[0]
    state.rummy = False
    state.no_discard = barred_discard(state.rules, taken, False)
    state.log.append((seat, action))
    removed = [c.text for c in g.aside[len(g.aside) - index :]] if index else []
    state.log.append((-1, {"event": "split", "removed": removed}))
    state.phase = Phase.MUST_USE


def _spend_joker(state: GameState, g: DealersJoker, seat: int, dealers: bool, use: str) -> None:
    """Put the joker used out of the hand: the dealer's from beside the pack, or one from
    ``seat``'s hand."""
    if dealers:
        g.beside = None
        g.used = use
    else:
        state.hands[seat].remove(JOKER)
        known = state.known[seat]
        if JOKER in known:
            known.remove(JOKER)
    g.aside.append(JOKER)


def _block(state: GameState, g: DealersJoker) -> None:
    _own_turn(state, (Phase.PLAY,), say("a block is made only in your own turn"))
    if state.seat == g.dealer:
        raise IllegalMove(say("the dealer cannot block the dealer's own joker"), "X2")
    if g.beside is None:
        raise IllegalMove(say("the dealer's joker is no longer beside the pack"), "X2")
    if not _may_block(state, g):
        raise IllegalMove(
            say("a block takes a joker from your hand and leaves a card to discard"), "X2"
        )
    _spend_joker(state, g, state.seat, False, "block")
    g.aside.append(JOKER)
    g.beside = None
    g.blocked_by = state.seat
    state.log.append((state.seat, Block()))


def _joker_play(state: GameState, g: DealersJoker, action: LayDown | LayOff) -> bool:
    """A doubled set from the hand (checked, then played as usual: False), or a play with
    the dealer's joker (made here: True)."""
    cards = action.melds if isinstance(action, LayDown) else ((action.card,),)
    doubled = any(c is DOUBLE for m in cards for c in m)
    if doubled and g.nomination != "double":
        raise IllegalMove(
            say(
                "the jokers are nominated %(nomination)s this hand, not double",
                nomination=g.nomination,
            ),
            "X2",
        )
    if not action.dealers_joker:
        return False
    _own_turn(
        state, (Phase.MUST_USE, Phase.PLAY), say("the dealer's joker is used only in your own turn")
    )
    _refuse_dealers(state, g)
    wanted = DOUBLE if g.nomination == "double" else None
    if g.nomination == "split" or not any(
        c is wanted if wanted else c.stands_for is not None for m in cards for c in m
    ):
        if g.nomination == "split":
            refusal = say("the dealer's joker is nominated split: it splits the pile")
        else:
            refusal = say(
                "the dealer's joker is nominated %(nomination)s: that play does not hold it",
                nomination=g.nomination,
            )
        raise IllegalMove(refusal, "X2")
    if isinstance(action, LayOff) and state.must_use is not None:
        raise IllegalMove(f"first use the {state.must_use.name} you took from the pile", "T2")
    _play_dealers(state, g, action)
    return True


def _play_dealers(state: GameState, g: DealersJoker, action: LayDown | LayOff) -> None:
    """Play ``action`` with the dealer's joker put into the dealer's hand first; on a
    refusal the joker goes back beside the pack."""
    beside, used = g.beside, g.used
    g.beside, g.used = None, g.nomination
    hand = state.hands[state.seat]
    hand.append(JOKER)
    try:
        play_cards(state, action, state.must_use)
    except IllegalMove:
        hand.pop()
        g.beside, g.used = beside, used
        raise
