"""What the play page shows, from the person's seat: the engine's view of the game and its
legal moves, shaped for the templates (no rules decided here).

Glossary:
- board: a :class:`Board` for ``templates/play/game.html``: ``players`` (name, level,
  cards in hand, cards seen taken, total, dealer, current, you), ``hand`` (sorted by
  suit, each card with its place ``by_suit`` and ``by_rank``), ``face_down`` (how many
  of the person's cards lie face down: all of them while the dealer nominates under X2,
  else 0), ``pile`` (bottom first), ``table`` (melds
  with owner and lay-offs), ``owners`` (the table's melds grouped by owner), ``can``
  (which buttons this phase offers), ``legal`` (which of Draw, Meld, Lay off, Discard the
  engine allows now), ``others`` (every other legal move as ``(action JSON, label)``:
  pass, end the round, "Rummy!" calls, and any move without a control of its own),
  ``hints`` (the lay-downs and lay-offs the engine lists), ``prompt`` (in words) and
  ``prompt_rules`` (the ids of its rules).
- public board: the part every seat sees (players, pile, stock, table), also drawn
  after each bot move (:func:`public`, a :class:`PublicBoard`).
- card face: a card as the templates draw it (:class:`CardFace`), with what its place
  adds: a hand's card (:class:`HandCard`), a pile's (:class:`PileCard`), a meld's as it
  stands (:class:`MeldCard`).

The boards and cards are the frozen dataclasses of :mod:`.shown`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from flask_babel import gettext as _

from ..engine import (
    N_,
    OPTIONS,
    PRESET_TITLES,
    Action,
    Card,
    Discard,
    Draw,
    DrawTwo,
    GameState,
    LayDown,
    LayOff,
    Observation,
    Phase,
    current_player,
    legal_actions,
    observation,
    sort_key,
    wins,
)
from ..models import DigitalGame
from .moves import button_label
from .shown import (
    Board,
    CardFace,
    DealersJoker,
    Ending,
    HandCard,
    LaidOff,
    MeldCard,
    PileCard,
    Player,
    PublicBoard,
    Seated,
    Shared,
    TableMeld,
)

PLAYS = (Phase.PLAY, Phase.MUST_USE, Phase.OUT_OF_TURN, Phase.DEADWOOD)
MAX_HINTS = 12


def face(card: Card) -> dict[str, str]:
    """``card``'s face as the keyword arguments of :class:`CardFace` (and of the cards
    built on it: a hand's, a pile's, a meld's), from :func:`card_face`."""
    return vars(card_face(card))


def card_face(card: Card) -> CardFace:
    """``card`` as a template draws it (:class:`CardFace`)."""
    if card.rank == 0:
        colour, rank = "joker", "JK"
        suit = card.stands_for.display if card.stands_for is not None else "★"
    else:
        colour = "red" if card.suit in "HD" else "black"
        rank, suit = card.display[:-1], card.display[-1]
    return CardFace(
        text=card.text, display=card.display, name=card.name, rank=rank, suit=suit, colour=colour
    )


def _players(game: DigitalGame, state: GameState, view: Observation) -> tuple[Player, ...]:
    seat = view.seat
    turn = current_player(state)
    return tuple(
        Player(
            name=name,
            seat=place,
            level=game.bots[place],
            you=place == seat,
            cards=view.hand_sizes[place] if view.hand_sizes else 0,
            known=tuple(card_face(c) for c in view.known[place]) if view.known else (),
            total=view.totals[place],
            dealer=place == view.dealer,
            current=place == turn,
        )
        for place, name in enumerate(state.players)
    )


def _table(view: Observation) -> tuple[TableMeld, ...]:
    return tuple(
        TableMeld(
            index=m.index,
            number=m.index + 1,
            owner=m.owner,
            kind=m.kind,
            cards=tuple(card_face(c) for c in m.cards),
            layoffs=tuple(LaidOff(o, card_face(c)) for o, c in m.layoffs),
            now=_as_it_stands(m.cards, m.layoffs, m.cards_now),
        )
        for m in view.table
    )


def _as_it_stands(
    laid: Sequence[Card], layoffs: Sequence[tuple[str, Card]], now: Sequence[Card]
) -> tuple[MeldCard, ...]:
    """The meld in its order now (a run from low to high), each laid-off card marked with
    who laid it off (``by``)."""
    left = Counter(c.text for c in laid)
    owners: dict[str, list[str]] = {}
    for owner, card in layoffs:
        owners.setdefault(card.text, []).append(owner)
    out = []
    for card in now:
        if left[card.text] > 0:
            left[card.text] -= 1
            out.append(MeldCard(**face(card), by=None))
        else:
            by = owners.get(card.text, ["?"])
            out.append(MeldCard(**face(card), by=by.pop(0) if by else "?"))
    return tuple(out)


def _rank_key(card: Card) -> tuple[int, int]:
    return (card.rank or 99, sort_key(card)[0])


def _hand(view: Observation) -> tuple[HandCard, ...]:
    by_suit = sorted(view.hand, key=sort_key)
    by_rank = sorted(range(len(by_suit)), key=lambda i: _rank_key(by_suit[i]))
    rank_place = {slot: place for place, slot in enumerate(by_rank)}
    return tuple(
        HandCard(
            **face(c),
            must=c is view.must_use,
            keep=c is view.no_discard,
            slot=i,
            joker=c.rank == 0,
            by_suit=i,
            by_rank=rank_place[i],
        )
        for i, c in enumerate(by_suit)
    )


def _face_down(view: Observation) -> int:
    """How many of ``seat``'s cards it may not look at yet (X2, seed 002: "before any of
    the players look at their cards the dealer must nominate"): the cards in its hand that
    its view leaves out."""
    return view.hand_sizes[view.seat] - len(view.hand) if view.hand_sizes else 0


def _controlled(action: Action, can: dict[str, bool]) -> bool:
    """True when the page has a control of its own for ``action`` (draw, the pile's cards,
    discard); lay-downs and lay-offs are listed among the hints."""
    if isinstance(action, Draw):
        return can["stock"] if action.source == "stock" else can["draw"]
    if isinstance(action, DrawTwo):
        return can["stock"]
    if isinstance(action, Discard):
        return can["discard"]
    return isinstance(action, LayDown | LayOff)


def _extras(
    state: GameState, legal: Sequence[Action], can: dict[str, bool]
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The other legal moves without a control of their own and the hints (lay-downs
    and lay-offs), each as ``(action JSON, label)``: a move any rule adds is always
    offered."""
    others: list[tuple[str, str]] = []
    hints: list[tuple[str, str]] = []
    for action in legal:
        pair = (json.dumps(action.to_json()), button_label(state, action))
        if isinstance(action, LayDown | LayOff):
            if pair not in hints:
                hints.append(pair)
        elif not _controlled(action, can) and pair not in others:
            others.append(pair)
    return tuple(others), tuple(hints[:MAX_HINTS])


def dealers_joker(state: GameState) -> DealersJoker | None:
    """X2: the dealer's joker as the table sees it (:class:`DealersJoker`): ``where`` in
    words (beside the pack, used, blocked by a player), ``out`` how many cards are out of
    the hand (blocked jokers, split cards); None without dealer's gambit."""
    g = state.gambit
    if g is None or state.phase is Phase.GAME_OVER:
        return None
    if g.blocked_by is not None:
        where = _("blocked by %(name)s", name=state.players[g.blocked_by])
    elif g.beside is not None:
        where = _("face up beside the pack")
    else:
        where = _("used (%(how)s)", how=g.used)
    return DealersJoker(state.players[g.dealer], g.nomination, where, len(g.aside))


def _legal(legal: Sequence[Action]) -> dict[str, bool]:
    """Which of the action bar's moves the engine allows now (highlighted)."""
    return {
        "draw": any(isinstance(a, Draw | DrawTwo) for a in legal),
        "meld": any(isinstance(a, LayDown) for a in legal),
        "lay_off": any(isinstance(a, LayOff) for a in legal),
        "discard": any(isinstance(a, Discard) for a in legal),
    }


PROMPTS: dict[Phase, tuple[str, tuple[str, ...]]] = {
    Phase.NOMINATE: (
        N_(
            "You deal: before anyone looks at their cards, nominate what the jokers do this "
            "hand: wild, double or split."
        ),
        ("X2",),
    ),
    Phase.START_PILE: (
        N_("You were dealt an extra card: choose a card of your hand to start the discard pile."),
        ("D4",),
    ),
    Phase.DRAW: (
        N_(
            "Your turn: draw from the stock, or take a card of the discard pile with every "
            "card above it, if you use it at once."
        ),
        ("T1", "T2"),
    ),
    Phase.MUST_USE: (
        N_(
            "Use the %(must)s you took at once: tap it with cards of a meld and lay them down, "
            "or lay it off on a meld."
        ),
        ("T2",),
    ),
    Phase.PLAY: (
        N_("Lay down melds and lay off cards if you like, then discard one card to end your turn."),
        ("T4", "T5"),
    ),
    Phase.RUMMY: (N_('%(pile_top)s was discarded: you may call "Rummy!".'), ("X1",)),
    Phase.OUT_OF_TURN: (N_("You may lay down or lay off now, on another player's turn."), ("T7",)),
    Phase.DEADWOOD: (
        N_("%(went_out)s went out: you may first lay off your cards on their melds."),
        ("O4",),
    ),
}
"""What the person is asked in each phase of their own, in words, and the ids of the
rules it follows; ``%(must)s``, ``%(pile_top)s`` and ``%(went_out)s`` are filled in
(message ids, translated where asked)."""


def prompt(state: GameState, seat: int) -> tuple[str, tuple[str, ...]]:
    """What the person is asked to do now, in words, and the ids of the rules it follows
    (shown as small links beside the words): :data:`PROMPTS` on their turn."""
    phase = state.phase
    if phase is Phase.GAME_OVER:
        return _game_over(state.winner), ()
    if current_player(state) != seat:
        return _("Waiting for %(name)s.", name=state.players[state.seat]), ()
    view = observation(state, seat)
    said, rules = PROMPTS[phase]
    went_out = state.players[state.went_out] if state.went_out is not None else _("A player")
    return _(
        said,
        must=view.must_use.display if view.must_use else _("card"),
        pile_top=state.pile[-1].display if state.pile else _("a card"),
        went_out=went_out,
    ), rules


def _game_over(winner: str | None) -> str:
    """ "The game is over: Ann wins." (a side: "Ann & Cat win"; nobody: "nobody wins")."""
    if not winner:
        return str(_("The game is over: nobody wins."))
    if " & " in winner:
        return str(_("The game is over: %(names)s win.", names=winner))
    return str(_("The game is over: %(name)s wins.", name=winner))


def _buttons(state: GameState, mine: bool, legal: Sequence[Action]) -> dict[str, bool]:
    """Which of the page's buttons the person may use now (their turn, its phase)."""
    phase = state.phase
    return {
        "draw": mine and phase is Phase.DRAW,
        "draw_two": any(isinstance(a, DrawTwo) for a in legal),
        "stock": mine and phase is Phase.DRAW and bool(state.stock),
        "lay_down": mine and phase in (Phase.PLAY, Phase.MUST_USE, Phase.OUT_OF_TURN),
        "lay_off": mine and phase in PLAYS and bool(state.table),
        "discard": mine and phase in (Phase.PLAY, Phase.START_PILE),
    }


def public(game: DigitalGame, state: GameState, seat: int | None = None) -> PublicBoard:
    """What every seat sees (:class:`PublicBoard`): players, the discard pile, the stock,
    the table (grouped by owner too), the round, and the dealer's joker under X2;
    ``seat`` the viewer's (``game.human_seat`` unless given)."""
    return PublicBoard(**vars(shared(game, state, seat)), round=state.deal_number)


def shared(game: DigitalGame, state: GameState, seat: int | None = None) -> Shared:
    """:func:`public`'s fields but the round, from ``seat`` (``game.human_seat`` unless
    given), for a board built on them (:class:`Shared`)."""
    return _shared(game, state, observation(state, game.human_seat if seat is None else seat))


def _shared(game: DigitalGame, state: GameState, view: Observation) -> Shared:
    """:func:`shared` from the seat whose ``view`` it is (its observation, made once for
    a whole board)."""
    table = _table(view)
    return Shared(
        players=_players(game, state, view),
        pile=tuple(PileCard(**face(c), index=i) for i, c in enumerate(state.pile)),
        stock=len(state.stock),
        table=table,
        owners=tuple(
            (name, tuple(m for m in table if m.owner == name))
            for name in state.players
            if any(m.owner == name for m in table)
        ),
        target=state.rules.target,
        dealers_joker=dealers_joker(state),
    )


def _seated(state: GameState, seat: int, mine: bool, view: Observation) -> Seated:
    """What the board of ``seat`` (its ``view``) shows beyond the public board: its hand,
    its buttons (``mine``: its decision now) and moves, the prompt."""
    legal = legal_actions(state) if mine else []
    can = _buttons(state, mine, legal)
    others, hints = _extras(state, legal, can)
    said, rules = prompt(state, seat)
    return Seated(
        you=state.players[seat],
        hand=_hand(view),
        face_down=_face_down(view),
        phase=state.phase.value,
        mine=mine,
        can=can,
        legal=_legal(legal),
        takeable=tuple(a.index for a in legal if isinstance(a, Draw) and a.source == "discard"),
        others=others,
        hints=hints,
        prompt=said,
        prompt_rules=rules,
    )


def board(
    game: DigitalGame,
    state: GameState,
    ending: Ending | None = None,
    seat: int | None = None,
) -> Board:
    """Everything the play page shows (a :class:`Board`, see the module glossary) from
    ``seat`` (the person's, ``game.human_seat`` unless given: one phone of a shared
    table); ``ending`` the last round's end (:func:`.ending.ending`) while the game
    pauses after it or is over (``round`` is then that round's number, not the next
    deal's)."""
    seat = game.human_seat if seat is None else seat
    mine = current_player(state) == seat and not game.paused
    view = observation(state, seat)
    return Board(
        **vars(_shared(game, state, view)),
        round=ending["number"] if ending else state.deal_number,
        **vars(_seated(state, seat, mine, view)),
        preset=PRESET_TITLES.get(game.preset, game.preset),
        options=tuple(
            (OPTIONS[name].id, OPTIONS[name].title, OPTIONS[name].label(value))
            for name, _old, value in state.rules.differences(game.preset)
        ),
        names=tuple(state.players),
        ending=ending,
        paused=game.paused,
        over=state.phase is Phase.GAME_OVER,
        winner=state.winner,
        winner_line=wins(state.winner) if state.winner else "",
    )
