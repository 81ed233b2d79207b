"""The scoresheet services the pages call: start a game, record, correct, delete and undo
rounds. The only request-path module that commits. Reading a game is in
:mod:`.sheets`, scoring one round in :mod:`.round_scores`, the refusals in :mod:`.errors`;
their names are offered here too, so the pages use one module.

Glossary:
- input: what the table entered for a round. Net mode: ``{"went_out", "net"}`` (each
  player's round score as the table counted it, points either sign). Totals mode:
  ``{"went_out", "shown", "in_hand", "adjust", "seven_card_run"}`` (points per player).
  Cards mode: the scoring contract's request without rules, players, teams and totals:
  ``{"went_out", "melds", "layoffs", "hands"}`` (card texts).
- figures: the engine's answer for a round (a typed
  :class:`~scorekeeper.engine.scoring.score_round.RoundScore`), stored in the scoring contract's
  response shape; summary: the small part of it the game page shows (:class:`Round`).
- state of a round: ``{"mode", "input", "deleted"}``, what the history keeps before and
  after each change so that any change can be undone.

Every change runs as one transaction: it bumps the game's version only if the version
the form was based on is still current (:class:`StaleVersion` otherwise), stores the
round, its history entry and the recomputed figures of the rounds after it (saving a
new round reads only the last one), then commits; any problem rolls it all back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from functools import cache
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import Update, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from ..extensions import db
from ..groups.facts import refresh, store_facts
from ..live import bus
from ..live.keys import table_key
from ..models import Change, Game, Night, Round, new_room_code, new_token, now_utc
from .errors import AlreadySaved as AlreadySaved
from .errors import SaveFailed as SaveFailed
from .errors import ScoresheetError as ScoresheetError
from .errors import StaleRound as StaleRound
from .errors import StaleVersion as StaleVersion
from .errors import saving
from .games import ExportParts, imported_game, new_game, write_games
from .nights import is_live
from .round_scores import ENTRY_MODES as ENTRY_MODES
from .round_scores import MODES as MODES
from .round_scores import score_input as score_input
from .round_scores import summary_of
from .sheets import ShownRound, last_figures, previous_round, state_of, tail
from .sheets import game_version as game_version
from .sheets import get_game as get_game
from .sheets import latest_rounds as latest_rounds
from .sheets import live_count as live_count
from .sheets import live_rounds as live_rounds
from .sheets import names_of as names_of
from .sheets import page_rounds as page_rounds
from .sheets import round_number as round_number
from .sheets import rules_of as rules_of
from .sheets import teams_of as teams_of


def _totals_of(round_: Round | None) -> dict[str, int]:
    """Each player's running total after ``round_`` (none before the first round)."""
    players = round_.figures["players"] if round_ is not None else {}
    return {name: fig["total"] for name, fig in players.items()}


def preview_round(
    game: Game, mode: str, data: Mapping[str, object], replacing: Round | None = None
) -> dict[str, object]:
    """The figures the round would get if saved now (as new, or in place of
    ``replacing``), reading only the live round before it."""
    previous = previous_round(game, replacing.position if replacing is not None else None)
    number = round_number(previous) + 1 if previous is not None else 1
    return score_input(game, mode, data, _totals_of(previous), number).to_json()


def recompute(game: Game, since: int = 0) -> None:
    """Score the live rounds again, in order, chaining the running totals and the dealer,
    from the first placed at position ``since`` or later (earlier rounds keep their
    stored figures: a change never moves them). Set the game's winner and end from the
    first round that ends it (G1, G2, G4, P5); when the game had ended, every round is
    looked at again."""
    rounds = live_rounds(game)
    ended = game.finished_at
    first = next((i for i, r in enumerate(rounds) if r.position >= since), len(rounds))
    if ended is not None or (first and rounds[first - 1].summary is None):
        first = 0
    totals = _totals_of(rounds[first - 1] if first else None)
    dealer = rounds[first - 1].totals["dealer"] if first else game.first_dealer
    game.winner, game.finished_at = None, None
    for number, round_ in enumerate(rounds[first:], start=first + 1):
        totals, dealer = _rescore(game, round_, number, (totals, dealer), ended)


def _rescore(
    game: Game,
    round_: Round,
    number: int,
    chain: tuple[dict[str, int], int],
    ended: datetime | None,
) -> tuple[dict[str, int], int]:
    """Score ``round_`` (the ``number``-th live round) again after ``chain`` (each
    player's running total, the seat dealing it), storing its figures and summary only
    when they changed; the first round that ends the game sets its winner and end (kept
    as ``ended`` when it had ended before). The chain after it."""
    totals, dealer = chain
    result = score_input(game, round_.mode, round_.input, totals, number)
    figures = result.to_json()
    if figures != round_.figures:
        round_.figures = figures
    summary = summary_of(game, round_.input, figures, dealer, number)
    if summary != round_.summary:
        round_.summary = summary
    if result.game_over and game.finished_at is None:
        game.winner, game.finished_at = result.winner or "", ended or now_utc()
    return _totals_of(round_), summary["dealer"]


# ---- changing a game ------------------------------------------------------------------


def _bump(game: Game, version: int) -> None:
    """Take the game's next version, or raise :class:`StaleVersion` (atomic in SQL)."""
    result = db.session.execute(
        update(Game)
        .where(Game.id == game.id, Game.version == version)
        .values(version=version + 1, updated_at=now_utc())
    )
    if getattr(result, "rowcount", 0) != 1:
        db.session.rollback()
        raise StaleVersion()
    bus.moved(table_key(game.id))
    game.version = version + 1


def _commit_change(
    game: Game,
    round_: Round,
    action: str,
    before: Mapping[str, object] | None,
    summary: str,
    version: int,
    undoes: Change | None = None,
) -> Change:
    """Recompute, log the change (marking ``undoes`` as undone by it), take the game's
    next version, store its facts when it is in a group
    (:func:`scorekeeper.groups.facts.refresh`) and commit, all in one transaction; on any
    problem roll everything back. The database is written only at the end, so the
    write lock is held briefly."""
    try:
        with saving():
            return _commit_now(game, round_, action, before, summary, version, undoes)
    except ScoresheetError:
        db.session.rollback()
        raise


def _commit_now(
    game: Game,
    round_: Round,
    action: str,
    before: Mapping[str, object] | None,
    summary: str,
    version: int | None,
    undoes: Change | None,
) -> Change:
    """The body of :func:`_commit_change` (``version`` None: the game row is already
    locked and bumped, as a correction does)."""
    if action != "record":
        round_.version = (round_.version or 1) + 1
        recompute(game, since=round_.position)
    change = Change(
        game_id=game.id,
        round=round_,
        action=action,
        summary=summary[:200],
        before=before,
        after=state_of(round_),
    )
    db.session.add(change)
    if version is not None:
        _bump(game, version)
    if undoes is not None:
        db.session.flush()
        undoes.undone_by = change.id
    if game.group_id is not None:
        refresh(game)
    db.session.commit()
    return change


def _existing(game: Game, nonce: str) -> Round | None:
    query = db.select(Round).where(Round.game_id == game.id, Round.nonce == nonce)
    return db.session.execute(query).scalar_one_or_none()


@dataclass(frozen=True)
class Saved:
    """A round just stored: its ``id``, its ``number`` among the live rounds, its
    ``mode``, the id of its ``change`` in the history (for Undo), its ``summary``
    (:attr:`Round.summary`); the game's new ``version``, whether this round ended the
    game (``over``) and the ``latest`` live rounds as the game page lists them, this one
    last (as many as :func:`record_round` was asked to show)."""

    id: int
    number: int
    mode: str
    change: int
    summary: dict[str, Any]
    version: int
    over: bool
    latest: tuple[ShownRound, ...]


def record_round(
    game: Game, mode: str, data: Mapping[str, object], nonce: str, version: int, shown: int = 1
) -> Saved:
    """Store a new round at the end of the game, scored by the engine after the last live
    round, in one transaction; a net or totals round makes its mode the game's
    ``entry_mode``. Reads one query (:func:`.sheets.tail`: the ``shown`` latest live
    rounds' summaries, flat in rounds), then writes the round, its history entry and the
    game's next version; ``game`` is kept current. The saved answer's ``latest`` rounds
    are those read with this one added: the game page's, as no other change can have
    come between (it would have taken the version first).

    Raises :class:`AlreadySaved` when ``nonce`` was used before, :class:`StaleVersion`
    when ``version`` is not current, :class:`ScoresheetError` for bad input."""
    if game.finished_at is not None:
        earlier = _existing(game, nonce)
        if earlier is not None:
            raise AlreadySaved(earlier)
        raise ScoresheetError([("game", _("the game is over: correct a round or play again"))])
    before = tail(game, shown)
    number, last = before.count + 1, before.last
    figures = score_input(game, mode, data, _totals_before(game, last), number).to_json()
    dealer = last["dealer"] if last is not None else game.first_dealer
    summary = summary_of(game, data, figures, dealer, number)
    position = before.top + 1
    row = {"position": position, "mode": mode, "input": dict(data), "nonce": nonce}
    row |= {"figures": figures, "summary": summary}
    try:
        with saving():
            round_id, change_id = _store(game, row, f"round {number} entered ({mode})", version)
    except (StaleVersion, IntegrityError):
        db.session.rollback()
        earlier = _existing(game, nonce)  # saved by another request since this one read
        if earlier is not None:
            raise AlreadySaved(earlier) from None
        raise StaleVersion() from None
    latest = (*before.latest, ShownRound(round_id, position, mode, 1, summary))[-shown:]
    return Saved(
        round_id, number, mode, change_id, summary, version + 1, figures["game_over"], latest
    )


def _totals_before(game: Game, last: dict[str, Any] | None) -> dict[str, int]:
    """Each player's running total before a new round: the last live round's summary,
    or its full figures when the units are sides (P1)."""
    if last is None:
        return {}
    if teams_of(game) is None:
        return dict(last["total"])
    return {name: fig["total"] for name, fig in last_figures(game)["players"].items()}


@cache
def _inserts() -> tuple[Any, Any]:
    """The statements inserting a round and a change, each returning its id (built once)."""
    rounds, changes = Round.__table__, Change.__table__
    return insert(rounds).returning(rounds.c.id), insert(changes).returning(changes.c.id)


@cache
def _bump_statement(columns: tuple[str, ...]) -> Update:
    """The UPDATE taking a game's next version and setting ``columns`` (built once per
    set of columns; parameters ``game``, ``seen`` and one per column)."""
    games = Game.__table__
    found = (games.c.id == bindparam("game")) & (games.c.version == bindparam("seen"))
    return update(games).where(found).values({c: bindparam(f"new_{c}") for c in columns})


def _store(game: Game, row: dict[str, Any], summary: str, version: int) -> tuple[int, int]:
    """Insert a new round (``row``: its columns) and its history entry, take the game's
    next version (:class:`StaleVersion` when ``version`` is not current), store the
    game's facts when it is in a group, and commit: three statements in SQL (and the
    facts'), the ORM's unit of work left out; ``game`` gets the new values.
    Returns the round's and the change's ids."""
    connection = db.session.connection()
    when = now_utc()
    add_round, add_change = _inserts()
    round_id = connection.execute(
        add_round,
        row | {"game_id": game.id, "deleted": False, "version": 1, "created_at": when},
    ).scalar_one()
    after = {"mode": row["mode"], "input": row["input"], "deleted": False}
    change_id = connection.execute(
        add_change,
        {"game_id": game.id, "round_id": round_id, "action": "record", "summary": summary[:200]}
        | {"before": None, "after": after, "undone_by": None, "created_at": when},
    ).scalar_one()
    values: dict[str, object] = {"version": version + 1, "updated_at": when}
    if row["mode"] in ENTRY_MODES:
        values["entry_mode"] = row["mode"]
    if row["figures"]["game_over"]:
        values |= {"winner": row["figures"]["winner"] or "", "finished_at": when}
    params = {"game": game.id, "seen": version} | {f"new_{k}": v for k, v in values.items()}
    bumped = connection.execute(_bump_statement(tuple(values)), params)
    if bumped.rowcount != 1:
        raise StaleVersion()
    if game.group_id is not None:
        store_facts(connection, "table", game.id)
    bus.moved(table_key(game.id))
    db.session.commit()
    for key, value in values.items():
        set_committed_value(game, key, value)
    return int(round_id), int(change_id)


def correct_round(
    game: Game, round_: Round, mode: str, data: Mapping[str, object], round_version: int
) -> Round:
    """Replace a round's input (and mode); every total after it is recomputed.

    ``round_version`` is the round's version the form was opened on: the correction is
    refused (:class:`StaleRound`) only when this round changed since, never because
    another round was saved meanwhile. The game's row is locked first (its version
    bumped), then the rounds are read again, so totals chain from what is stored now."""
    try:
        with saving():
            _lock(game)
            if round_.deleted or round_.version != round_version:
                raise StaleRound()
            preview_round(game, mode, data, replacing=round_)
            before = state_of(round_)
            number = live_rounds(game).index(round_) + 1
            round_.mode, round_.input = mode, dict(data)
            summary = f"round {number} corrected ({mode})"
            _commit_now(game, round_, "correct", before, summary, None, None)
    except ScoresheetError:
        db.session.rollback()
        raise
    return round_


def _lock(game: Game) -> None:
    """Take the game's next version unconditionally (the row lock serialises writers),
    then forget what this session read, so the game and its rounds load afresh."""
    db.session.execute(
        update(Game)
        .where(Game.id == game.id)
        .values(version=Game.version + 1, updated_at=now_utc())
        .execution_options(synchronize_session=False)
    )
    db.session.expire_all()


def delete_round(game: Game, round_: Round, version: int) -> None:
    """Delete a round (kept in the history, so it can be undone)."""
    if round_.deleted:
        raise ScoresheetError([("round", _("that round is already deleted"))])
    before = state_of(round_)
    number = live_rounds(game).index(round_) + 1
    round_.deleted = True
    _commit_change(game, round_, "delete", before, f"round {number} deleted", version)


def undo_change(game: Game, change: Change, version: int) -> Change:
    """Put the round ``change`` touched back as it was before it. Refused when the round
    changed again since (undo the later change first) or the change was already undone."""
    round_ = change.round
    if change.undone_by is not None:
        raise ScoresheetError([("change", _("that change was already undone"))])
    if state_of(round_) != change.after:
        raise ScoresheetError(
            [("change", _("that round changed again since: undo the later change first"))]
        )
    before = change.before
    if before is None:
        round_.deleted = True
    else:
        round_.mode, round_.input, round_.deleted = (
            before["mode"],
            before["input"],
            before["deleted"],
        )
    summary = f"undo: {change.summary}"
    return _commit_change(game, round_, "undo", change.after, summary, version, undoes=change)


def start_game(
    names: Sequence[str],
    preset: str,
    options: Mapping[str, object],
    *,
    first_dealer: int = 0,
    stake: Decimal | None = None,
    sides: Sequence[int] | None = None,
    title: str = "",
) -> Game:
    """Create and commit a game: players in seat order, ``sides`` 0/1 per seat for
    partnership rules (P1; partners sit opposite, so seats 0 and 2 against 1 and 3 when
    not given). Raises :class:`ScoresheetError` for players or rules the engine refuses."""
    if sides is None and len(names) == 4:
        sides = [0, 1, 0, 1]
    with saving():
        game = new_game(names, preset, options, first_dealer, stake, sides, title)
        db.session.add(game)
        db.session.commit()
    return game


def renew_edit_token(game: Game) -> None:
    """Give ``game`` a new edit token: its old edit link, and every phone that held it,
    can only watch from now on."""
    with saving():
        game.edit_token = new_token()
        db.session.commit()


CODE_DRAWS = 8
"""How many room codes a new night draws before giving up (each one taken by a live
night is drawn again; with few live nights the first is almost always free)."""


def _free_code() -> str:
    """A room code no live night holds, taken (not committed) from the stale night that
    holds it, if one does. Raises :class:`SaveFailed` after :data:`CODE_DRAWS` draws."""
    for _draw in range(CODE_DRAWS):
        code = new_room_code()
        holder = db.session.execute(select(Night).where(Night.code == code)).scalar_one_or_none()
        if holder is None:
            return code
        if not is_live(holder.id):
            holder.code = None
            db.session.flush()
            return code
    raise SaveFailed()


def night_of(game: Game) -> Night:
    """The night of ``game``, with a room code: a new night (a fresh code, unique among
    live nights) when the game is in none, a new code when its night's was given to
    another night; committed. A night given to the game meanwhile by another request
    is the one returned. Raises :class:`SaveFailed` when the database fails."""
    night = db.session.get(Night, game.night_id) if game.night_id is not None else None
    if night is not None and night.code is not None:
        return night
    for _draw in range(CODE_DRAWS):
        try:
            with saving():
                return _coded(game, night)
        except IntegrityError:  # the code drawn was taken meanwhile: draw again
            db.session.rollback()
            db.session.refresh(game)
            night = db.session.get(Night, game.night_id) if game.night_id else None
    raise SaveFailed()


def _coded(game: Game, night: Night | None) -> Night:
    """The body of :func:`night_of`: ``night`` given a fresh code, or a new night linked
    to ``game`` unless another request linked one first; committed."""
    code = _free_code()
    if night is not None:
        night.code = code
        db.session.commit()
        return night
    night = Night(code=code)
    db.session.add(night)
    db.session.flush()
    linked = db.session.execute(
        update(Game)
        .where(Game.id == game.id, Game.night_id.is_(None))
        .values(night_id=night.id, updated_at=Game.updated_at)
    )
    if getattr(linked, "rowcount", 0) != 1:  # another request gave it a night first
        db.session.rollback()
        db.session.refresh(game)
        return night_of(game)
    db.session.commit()
    game.night_id = night.id
    return night


def play_again(game: Game) -> Game:
    """A new game with the same players, sides, rules and stake, the next dealer dealing,
    in the night of ``game`` (given one first if it has none), so the night's current
    game is the new one; ``game`` takes its next version in the same transaction, so
    its TV and its watching phones refresh and find the next game
    (:func:`.nights.following`). Committed; the caller puts it in the group of ``game``.
    Raises :class:`ScoresheetError` as :func:`start_game`, :class:`SaveFailed` when the
    database fails."""
    night = night_of(game)
    sides = [p.side or 0 for p in game.players] if teams_of(game) else None
    last = previous_round(game, None)
    seat = last.totals["dealer"] if last is not None and last.summary else game.first_dealer
    stake = Decimal(game.stake) if game.stake else None
    with saving():
        new = new_game(names_of(game), game.preset, game.options, seat, stake, sides, game.title)
        new.night_id = night.id
        db.session.add(new)
        db.session.execute(update(Game).where(Game.id == game.id).values(version=Game.version + 1))
        bus.moved(table_key(game.id))
        db.session.commit()
    return new


def import_game(parts: ExportParts) -> Game:
    """Create a game from an export read by :func:`scorekeeper.table.exchange.read_export`:
    every round checked and scored first (:func:`imported_game`, no transaction open:
    a refused round stores nothing; problems name the round), then the game written in
    one short transaction."""
    game = imported_game(parts)
    with saving():
        (game_id,) = write_games([game])
        db.session.commit()
    stored = db.session.get(Game, game_id)
    assert stored is not None
    return stored


def mark_deleted(game: Game, deleted: bool) -> None:
    """Delete ``game`` for everyone (``deleted``: its links answer 404, the game kept for
    an undo) or bring it back: set ``deleted_at`` and take the game's next version in one
    UPDATE, so a form opened before (a round, an undo) is refused as out of date; store
    the game's facts (none while deleted) when it is in a group; then commit. The caller
    checks the edit rights."""
    db.session.execute(
        update(Game)
        .where(Game.id == game.id)
        .values(
            deleted_at=now_utc() if deleted else None,
            version=Game.version + 1,
            updated_at=now_utc(),
        )
    )
    if game.group_id is not None:
        refresh(game)
    bus.moved(table_key(game.id))
    db.session.commit()
    db.session.refresh(game)
