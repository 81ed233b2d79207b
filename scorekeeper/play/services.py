"""The digital game's services: start a game against bots, make the person's move, let the
bots play until the person is asked again, and save it all. The only request-path module
of ``/play`` that commits.

Glossary:
- person: the one seat a person plays (``game.human_seat``); every other seat is a bot of
  the level in ``game.bots``.
- steps: the latest moves in words (:func:`.moves.describe`), plus the end of a
  round or of the game: the person's moves this turn after the bots' moves before it.
  Each carries ``v``, the version that made it; the page reveals the newest one after
  another.
- scored: per round finished by a request, its scoring in the scoring contract's response
  shape: every card's points, why, and the rule (the engine's own scoring of the round,
  kept with the round in the log, :mod:`.store`: every round is scored once).
- pause: after a round ends the bots stop and the game waits (``game.paused``) until the
  person taps "Next round" (:func:`next_round`); the next deal is made by the engine at
  once but shown only then.
- watch: an optional callback told of every move as it is made (the state just after
  it, and the step), for a page that shows the board move by move.
- version: bumped by every saved move. A move names the version it was made on; if the
  game has moved on meanwhile (another tab or phone), it is refused (:class:`StaleGame`)
  and nothing changes.

Every request reads the game from the database (:mod:`.store`); nothing is kept in
process memory.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import CursorResult, update
from sqlalchemy.orm.attributes import set_committed_value

from .. import wakeups
from ..engine import (
    BOTS,
    Action,
    GameSetupError,
    GameState,
    IllegalMove,
    RulesError,
    current_player,
    is_terminal,
    new_game,
)
from ..engine.game.records import seat_record
from ..extensions import db
from ..models import DigitalGame, now_utc
from . import store
from .hints import review_move
from .seats import BOT_NAMES, MAX_BOTS
from .steps import Watch, run_bots, step

SEED_BITS = 64
"""Bits of a shuffle seed drawn by the server (:func:`drawn_seed`): far too many to search
for from a finished round's deal. A seed chosen for a one-person game is kept as given."""
MAX_STEPS = 80
"""Steps kept for the page at most (a long turn of lay-offs after many bot moves)."""


class PlayError(ValueError):
    """A move or a new game refused; nothing was stored. ``message`` for the person,
    ``rule`` the catalogue id that says no (or None), ``where`` the form field it
    concerns (or None)."""

    def __init__(self, message: str, rule: str | None = None, where: str | None = None) -> None:
        self.message = message
        self.rule = rule
        self.where = where
        super().__init__(f"{message} ({rule})" if rule else message)


class StaleGame(PlayError):
    """The game moved on (another tab or phone made a move) since this page was loaded."""

    def __init__(self) -> None:
        super().__init__(
            "this game has moved on in another tab or on another phone, so this move was "
            "not made. Reload the page to see where the game stands."
        )


# ---- reading ---------------------------------------------------------------------------


def get_game(slug: str) -> DigitalGame | None:
    """The digital game at ``/play/<slug>``, or None."""
    query = db.select(DigitalGame).where(DigitalGame.slug == slug)
    return db.session.execute(query).scalar_one_or_none()


def games_by_slugs(slugs: Sequence[str]) -> list[DigitalGame]:
    """The games among ``slugs`` (those this phone played), newest first."""
    if not slugs:
        return []
    query = (
        db.select(DigitalGame)
        .where(DigitalGame.slug.in_(list(slugs)))
        .order_by(DigitalGame.updated_at.desc(), DigitalGame.id.desc())
    )
    return list(db.session.execute(query).scalars())


def load_state(game: DigitalGame) -> GameState:
    """The engine's state of ``game`` as last saved, without its finished rounds
    (:func:`.store.load_state`)."""
    return store.load_state(game)


def scored_rounds(game: DigitalGame) -> list[dict[str, Any]]:
    """Every finished round's scoring, card by card, oldest first."""
    return store.scored_rounds(game)


def last_round(game: DigitalGame) -> tuple[int, dict[str, Any], dict[str, Any] | None] | None:
    """The newest finished round as ``(number, engine record, scoring)``, or None."""
    row = store.last_round(game)
    return (row.number, row.record, row.scored) if row is not None else None


def record_of(game: DigitalGame, seat: int | None = None) -> dict[str, Any]:
    """The game record (shared/game-record.md) of ``game`` so far, bot levels included,
    as the person's seat (``seat``, else ``game.human_seat``) has seen it: before the game
    is over, no seed, no stock order and no other seat's hand (:func:`records.seat_record`).
    ``seed_chosen`` says whether the person chose the seed (a one-person game, for
    practice) or the server drew it; null for a game started before that was kept."""
    bots = [level or "person" for level in game.bots]
    viewer = game.human_seat if seat is None else seat
    record = seat_record(store.full_state(game), viewer, bots=bots)
    record["seed_chosen"] = game.seed_chosen
    return record


# ---- starting --------------------------------------------------------------------------


def drawn_seed() -> int:
    """A shuffle seed of :data:`SEED_BITS` random bits from the operating system
    (``secrets``): the only seed a table game of several phones is dealt from."""
    return secrets.randbits(SEED_BITS)


def _seats(name: str, bots: Sequence[str]) -> list[str]:
    """The players' names: the person (``"You"`` when blank), then a bot name per level.
    Raises :class:`PlayError` for no bots, too many (D1) or an unknown level."""
    if not 1 <= len(bots) <= MAX_BOTS:
        raise PlayError(f"choose 1 to {MAX_BOTS} bots", "D1", "bots")
    unknown = [level for level in bots if level not in BOTS]
    if unknown:
        raise PlayError(f"there is no bot level {unknown[0]!r}", None, "bots")
    person = name.strip() or "You"
    others = [n for n in BOT_NAMES if n.casefold() != person.casefold()]
    return [person, *others[: len(bots)]]


def start_game(
    name: str,
    preset: str,
    options: Mapping[str, Any],
    bots: Sequence[str],
    seed: int | None = None,
) -> DigitalGame:
    """A new game: the person ``name`` in seat 0, then one bot per level in ``bots`` (1 to
    7 of :data:`engine.BOTS`); the rules are ``preset`` with ``options`` changed.
    Bots that play before the person do so now. Raises :class:`PlayError` (with ``where``
    ``"bots"``, ``"preset"`` or an option's name) for a game that cannot be set up.
    ``seed`` chooses the shuffle, for practice (kept with ``seed_chosen`` True for the
    record); without it the server draws one (:func:`drawn_seed`)."""
    players = _seats(name, bots)
    chosen = seed is not None
    seed = drawn_seed() if seed is None else seed
    try:
        state = new_game(players, preset=preset, options=dict(options), seed=seed)
    except RulesError as error:
        where, message = error.problems[0]
        raise PlayError(message, None, where) from None
    except GameSetupError as error:
        raise PlayError(str(error), None, "bots") from None
    game = DigitalGame(
        preset=preset,
        options=dict(options),
        seed=str(seed),
        seed_chosen=chosen,
        human_seat=0,
        bots=[None, *bots],
        state={},
        version=1,
    )
    first_moves(game, state)
    db.session.commit()
    return game


def first_moves(game: DigitalGame, state: GameState) -> None:
    """The bots that play before the person move; the new game is added to the session
    with its round in play and any round they finished."""
    steps: list[dict[str, Any]] = []
    scored: list[dict[str, Any]] = []
    game.paused = run_bots(state, game.bots, steps, scored)
    for said in steps:
        said["v"] = 1
    game.state = store.current_json(state)
    game.moves = steps
    game.finished = is_terminal(state)
    game.winner = state.winner
    db.session.add(game)
    db.session.flush()
    store.append_rounds(game, store.fresh_rounds(state), scored)


# ---- moving ----------------------------------------------------------------------------


def _ready(game: DigitalGame, version: int) -> GameState:
    """The game's state for a move at ``version``; raises :class:`StaleGame` or
    :class:`PlayError` when no move may be made now."""
    if version != game.version:
        raise StaleGame()
    if game.paused:
        raise PlayError('the round is over: tap "Next round" to deal the next one', "D5")
    state = load_state(game)
    if is_terminal(state):
        raise PlayError("the game is over: start a new one to play again", "G1")
    return state


def play_move(
    game: DigitalGame,
    version: int,
    action: Action,
    watch: Watch | None = None,
    seat: int | None = None,
    bots: Sequence[str | None] | None = None,
) -> DigitalGame:
    """Make the person's ``action`` on ``game`` as it was at ``version``, then the bots'
    moves (each told to ``watch``); save it all as the next version. ``seat``: the person's
    (else ``game.human_seat``), ``bots``: who a bot plays now (else ``game.bots``). Raises
    :class:`StaleGame` (the game moved on), :class:`PlayError` (game over, a round's end
    waiting for "Next round", not the person's turn, or the engine's refusal with its
    message and rule id); nothing is saved then. A move that differed from the expert's
    is kept for the round's review (:func:`.hints.review_move`)."""
    state = _ready(game, version)
    turn = current_player(state)
    if turn != (game.human_seat if seat is None else seat):
        whose = f"it is {state.players[turn]}'s turn" if turn is not None else "nobody's turn"
        raise PlayError(f"it is not your turn: {whose}", "T1")
    steps: list[dict[str, Any]] = []
    scored: list[dict[str, Any]] = []
    noted = review_move(game, state, action)
    try:
        ended = step(state, action, steps, scored, watch)
    except IllegalMove as refused:
        raise PlayError(refused.message, refused.rule) from None
    if noted is not None:
        db.session.add(noted)
    made = len(steps)
    players = game.bots if bots is None else bots
    paused = not is_terminal(state) if ended else run_bots(state, players, steps, scored, watch)
    _save(game, state, version, _shown(game, steps, made, version), scored, paused)
    return game


def next_round(
    game: DigitalGame,
    version: int,
    watch: Watch | None = None,
    bots: Sequence[str | None] | None = None,
) -> DigitalGame:
    """End the pause after a round (the person tapped "Next round"): the next deal, already
    made, is shown and the bots that play before the person move (``bots`` as in
    :func:`play_move`). Raises :class:`StaleGame` or :class:`PlayError` (no round is
    waiting)."""
    if version == game.version and not game.paused:
        raise PlayError("there is no finished round waiting: play on", "D5")
    if version != game.version:
        raise StaleGame()
    game.paused = False
    state = _ready(game, version)
    steps: list[dict[str, Any]] = []
    scored: list[dict[str, Any]] = []
    paused = run_bots(state, game.bots if bots is None else bots, steps, scored, watch)
    _save(game, state, version, _shown(game, steps, 0, version), scored, paused)
    return game


def let_bots_play(game: DigitalGame, bots: Sequence[str | None]) -> bool:
    """Let ``bots`` (stand-ins for people away, seats given to bots) make the moves due
    now, as the next version; False when none is due or another request made them."""
    if game.paused or game.finished:
        return False
    state, version = load_state(game), game.version
    seat = current_player(state)
    if seat is None or bots[seat] is None:
        return False
    steps: list[dict[str, Any]] = []
    scored: list[dict[str, Any]] = []
    paused = run_bots(state, bots, steps, scored)
    try:
        _save(game, state, version, _shown(game, steps, 0, version), scored, paused)
    except StaleGame:
        return False
    return True


def _shown(
    game: DigitalGame, steps: list[dict[str, Any]], made: int, version: int
) -> list[dict[str, Any]]:
    """The steps the page shows after this move: those made now (at ``version + 1``),
    after the earlier ones when the person's turn goes on (no bot moved)."""
    for said in steps:
        said["v"] = version + 1
    if made and len(steps) == made:
        return [*game.moves, *steps][-MAX_STEPS:]
    return steps


def _save(
    game: DigitalGame,
    state: GameState,
    version: int,
    steps: list[dict[str, Any]],
    scored: list[dict[str, Any]],
    paused: bool,
) -> None:
    """Write the round in play as ``version + 1`` only if the stored version is still
    ``version`` (one UPDATE, so two posts at once cannot both win), and append the rounds
    finished to the log; ``game`` then holds the values written (not read again)."""
    values = {
        "state": store.current_json(state),
        "moves": steps,
        "version": version + 1,
        "paused": paused,
        "finished": is_terminal(state),
        "winner": state.winner,
        "updated_at": now_utc(),
        "moved_at": time.time(),
    }
    result: CursorResult[Any] = db.session.execute(  # type: ignore[assignment]
        update(DigitalGame)
        .where(DigitalGame.id == game.id, DigitalGame.version == version)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:
        db.session.rollback()
        raise StaleGame()
    store.append_rounds(game, store.fresh_rounds(state), scored)
    wakeups.moved(wakeups.play_key(game.id))
    db.session.commit()
    for key, value in values.items():  # the row as written: no second read of it
        set_committed_value(game, key, value)
