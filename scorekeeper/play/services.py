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

import json
import secrets
import time
from collections.abc import Mapping, Sequence

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import CursorResult, update
from sqlalchemy.orm.attributes import set_committed_value

from .. import jobs
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
    seat_record,
)
from ..extensions import db
from ..hosting.settings import is_on
from ..inputs import client_key
from ..languages.reader import error_text, translate
from ..live import bus
from ..live.keys import play_key
from ..models import DigitalGame, DigitalReview, now_utc
from . import store
from .moves import Ambiguous, ChoiceError, action_for, button_label
from .per_version import shared_state
from .refusals import (
    Choice,
    Choose,
    Pick,
    PlayError,
    StaleGame,
)
from .seats import BOT_NAMES, MAX_BOTS
from .shown import Step
from .steps import run_bot, step
from .store import Records

SEED_BITS = 64
"""Bits of a shuffle seed drawn by the server (:func:`drawn_seed`): far too many to search
for from a finished round's deal. A seed chosen for a one-person game is kept as given."""
MAX_STEPS = 80
"""Steps kept for the page at most (a long turn of lay-offs after many bot moves)."""


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


def scored_rounds(game: DigitalGame) -> Records:
    """Every finished round's scoring, card by card, oldest first."""
    return store.scored_rounds(game)


def last_round(
    game: DigitalGame,
) -> tuple[int, dict[str, object], dict[str, object] | None] | None:
    """The newest finished round as ``(number, engine record, scoring)``, or None."""
    row = store.last_round(game)
    return (row.number, row.record, row.scored) if row is not None else None


def record_of(game: DigitalGame, seat: int | None = None) -> dict[str, object]:
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
        raise PlayError(_("choose 1 to %(most)s bots", most=MAX_BOTS), "D1", "bots")
    unknown = [level for level in bots if level not in BOTS]
    if unknown:
        raise PlayError(_("there is no bot level %(level)s", level=repr(unknown[0])), None, "bots")
    person = name.strip() or _("You")
    others = [n for n in BOT_NAMES if n.casefold() != person.casefold()]
    return [person, *others[: len(bots)]]


def start_game(
    name: str,
    preset: str,
    options: Mapping[str, object],
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
        raise PlayError(error_text(error), None, "bots") from None
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
    check_share()
    db.session.commit()
    ask_bots(game, state)
    return game


def first_moves(game: DigitalGame, state: GameState) -> None:
    """Add the new ``game`` to the session at its first deal (version 1, no move made);
    the caller commits, then asks for the bots that play before the person
    (:func:`ask_bots`)."""
    game.paused = False
    game.state = store.current_json(state)
    game.moves = []
    game.finished = is_terminal(state)
    game.winner = state.winner
    db.session.add(game)
    db.session.flush()


def ask_bots(
    game: DigitalGame,
    state: GameState,
    bots: Sequence[str | None] | None = None,
    who: tuple[str, str] | None = None,
) -> bool:
    """Ask for the moves due now in ``game`` (its ``state``) when a bot makes the first
    (``bots``: who a bot plays now, else ``game.bots``): a job of the queue at the
    game's version (:mod:`scorekeeper.jobs`; :func:`.thinking.bot_move` makes the bots'
    moves, each a version, until a person is asked), for ``who`` (default the request's
    client). True when a bot is due. The same job asked twice is one job. Commits the
    session."""
    if game.paused or game.finished:
        return False
    seat = current_player(state)
    players = game.bots if bots is None else bots
    if seat is None or players[seat] is None:
        return False
    jobs.submit("bot", game.id, game.version, seat, who=who)
    return True


def check_share(who: tuple[str, str] | None = None) -> None:
    """Raise :class:`scorekeeper.jobs.Refused` when this client (``who``, default the
    request's) has as many jobs waiting as its bounds allow (``PLAY_JOBS_PER_CLIENT``
    for its session, ``PLAY_JOBS_PER_ADDRESS`` for its address,
    :func:`scorekeeper.jobs.over_bound`): a move, a new game, a hint is refused (429)
    until some are done, so one client's games cannot fill the queue."""
    client, address = who if who is not None else client_key()
    if jobs.over_bound(client, address):
        raise jobs.Refused(
            _("your games are still thinking: wait for the bots to move, then play on"), 2
        )


# ---- moving ----------------------------------------------------------------------------


def _ready(game: DigitalGame, version: int) -> GameState:
    """The game's state for a move at ``version``; raises :class:`StaleGame` or
    :class:`PlayError` when no move may be made now."""
    if version != game.version:
        raise StaleGame()
    if game.paused:
        raise PlayError(_('the round is over: tap "Next round" to deal the next one'), "D5")
    state = load_state(game)
    if is_terminal(state):
        raise PlayError(_("the game is over: start a new one to play again"), "G1")
    return state


def _not_your_turn(state: GameState, turn: int | None) -> str:
    """The refusal of a move out of turn, naming whose turn it is."""
    if turn is None:
        return str(_("it is not your turn: nobody's turn"))
    return str(_("it is not your turn: it is %(name)s's turn", name=state.players[turn]))


def play_move(
    game: DigitalGame,
    version: int,
    action: Action,
    seat: int | None = None,
    bots: Sequence[str | None] | None = None,
) -> DigitalGame:
    """Make the person's ``action`` on ``game`` as it was at ``version`` and save it as the
    next version; then ask for the bots' move when one is due (:func:`ask_bots`: a job,
    never made in this request). ``seat``: the person's (else ``game.human_seat``),
    ``bots``: who a bot plays now (else ``game.bots``). Raises :class:`StaleGame` (the
    game moved on), :class:`PlayError` (game over, a round's end waiting for "Next
    round", not the person's turn, or the engine's refusal with its message and rule
    id), :class:`scorekeeper.jobs.Refused` (this client's jobs waiting are at their
    bound, :func:`check_share`); nothing is saved then. A move of a one-person game is
    reviewed against the expert's by a job (:func:`.thinking.review`)."""
    state = _ready(game, version)
    turn = current_player(state)
    if turn != (game.human_seat if seat is None else seat):
        raise PlayError(_not_your_turn(state, turn), "T1")
    check_share()
    steps: list[Step] = []
    scored: Records = []
    before = _reviewed(game, state)
    try:
        ended = step(state, action, steps, scored)
    except IllegalMove as refused:
        raise PlayError(refused.message, refused.rule) from None
    paused = ended and not is_terminal(state)
    _save(game, state, version, _shown(game, steps, version), scored, paused)
    if before is not None:
        jobs.submit("review", game.id, version, turn, {"state": before, "action": action.to_json()})
    ask_bots(game, state, bots)
    return game


def _reviewed(game: DigitalGame, state: GameState) -> dict[str, object] | None:
    """The state before the person's move, kept for its review (a job), or None when the
    move is not reviewed: reviews off (``PLAY_REVIEW``), a table game of several phones
    (its review would tell every phone what one hand held), a phase the expert does not
    weigh."""
    from .hints import WEIGHED

    reviewing = is_on(current_app.config.get("PLAY_REVIEW", True))
    if game.host_token is not None or not reviewing or state.phase not in WEIGHED:
        return None
    return store.current_json(state)


def move(
    game: DigitalGame,
    choice: Choice,
    seat: int | None = None,
    bots: Sequence[str | None] | None = None,
) -> DigitalGame:
    """THE move of a person on ``game`` from any route (form, tap, JSON): "Next round"
    (:func:`next_round`), or the move ``choice`` means (:func:`.moves.action_for`, read
    from the state decoded once per version, :func:`.per_version.shared_state`) made
    (:func:`play_move`; ``seat``, ``bots`` as there). Raises :class:`Choose` (several
    moves fit), :class:`PlayError` (no move fits, with the rule, or the engine's
    refusal), :class:`StaleGame`, :class:`scorekeeper.jobs.Refused`; nothing is saved
    then."""
    if choice.kind == "next_round":
        return next_round(game, choice.version, bots)
    action = choice.action or _meant(game, choice)
    return play_move(game, choice.version, action, seat, bots)


def _meant(game: DigitalGame, choice: Choice) -> Action:
    """The move ``choice`` means at ``game``'s version; raises :class:`PlayError` or
    :class:`Choose`."""
    state = shared_state(game)  # only read: play_move loads its own
    try:
        return action_for(state, choice.kind, choice.cards, choice.number, choice.raw)
    except ChoiceError as bad:
        raise PlayError(bad.message, bad.rule) from None
    except Ambiguous as many:
        picks = [
            Pick(json.dumps(a.to_json()), str(translate(button_label(state, a))))
            for a in many.actions
        ]
        raise Choose(picks) from None


def keep_review(noted: DigitalReview) -> None:
    """Add the review row ``noted`` (:func:`.hints.review_move`, a job's) and commit."""
    db.session.add(noted)
    db.session.commit()


def next_round(
    game: DigitalGame,
    version: int,
    bots: Sequence[str | None] | None = None,
) -> DigitalGame:
    """End the pause after a round (the person tapped "Next round"): the next deal, already
    made, is shown as the next version, and the bots that play before the person are
    asked for (``bots`` as in :func:`play_move`). Raises :class:`StaleGame` or
    :class:`PlayError` (no round is waiting)."""
    if version == game.version and not game.paused:
        raise PlayError(_("there is no finished round waiting: play on"), "D5")
    if version != game.version:
        raise StaleGame()
    game.paused = False
    state = _ready(game, version)
    _save(game, state, version, [], [], False)
    ask_bots(game, state, bots)
    return game


def bot_move(game: DigitalGame, state: GameState, bots: Sequence[str | None]) -> bool:
    """The bot whose turn it is in ``game`` (its ``state``; ``bots``: who a bot plays now)
    makes its one move, saved as the next version (the queue's job for the version,
    :func:`.thinking.bot_move`): seeded by the game's seed and the move's place in the
    game, so any worker process plays the same move; it says why (``step["why"]``). An
    expert level weighs its own samples (at most ``PLAY_EXPERT_SAMPLES`` when set),
    within ``PLAY_THINK_SECONDS`` of CPU time per decision. False, nothing written, when
    no bot is due or the game moved on meanwhile."""
    version = game.version
    seat = current_player(state)
    if game.paused or game.finished or seat is None or bots[seat] is None:
        return False
    steps: list[Step] = []
    scored: Records = []
    ended = run_bot(state, bots, steps, scored)
    for said in steps:
        said["bot"] = True
    kept = game.moves if game.moves and game.moves[-1].get("bot") else game.moves[-1:]
    paused = ended and not is_terminal(state)
    try:
        _save(game, state, version, _shown(game, steps, version, kept), scored, paused)
    except StaleGame:
        return False
    return True


def let_bots_play(game: DigitalGame, bots: Sequence[str | None]) -> bool:
    """Ask for the move due now from ``bots`` (stand-ins for people away, seats given to
    bots), a job (:func:`ask_bots`); False when none is due."""
    if game.paused or game.finished:
        return False
    return ask_bots(game, load_state(game), bots)


def _shown(
    game: DigitalGame,
    steps: list[Step],
    version: int,
    kept: Sequence[Mapping[str, object]] | None = None,
) -> list[Mapping[str, object]]:
    """The steps the page shows after this move: ``kept`` (default the game's steps so
    far) then those made now (at ``version + 1``), the newest :data:`MAX_STEPS`. A
    bot's move after a person's starts the list afresh from the person's last move, the
    one that passed the turn (:func:`bot_move`)."""
    for said in steps:
        said["v"] = version + 1
    earlier = game.moves if kept is None else kept
    return [*earlier, *steps][-MAX_STEPS:]


def _save(
    game: DigitalGame,
    state: GameState,
    version: int,
    steps: Sequence[Mapping[str, object]],
    scored: Records,
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
    result = db.session.execute(
        update(DigitalGame)
        .where(DigitalGame.id == game.id, DigitalGame.version == version)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if not isinstance(result, CursorResult) or result.rowcount != 1:
        db.session.rollback()
        raise StaleGame()
    store.append_rounds(game, store.fresh_rounds(state), scored)
    bus.moved(play_key(game.id))
    db.session.commit()
    for key, value in values.items():  # the row as written: no second read of it
        set_committed_value(game, key, value)
