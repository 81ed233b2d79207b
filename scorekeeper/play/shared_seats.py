"""One digital game on several phones: a table of seats, each a person (with a phone) or
a bot. Commits (with :mod:`.services`, the only request-path modules of ``/play`` that do).

Glossary:
- table game: a digital game with a ``host_token`` (the host's secret, kept in the host
  phone's signed session); a one-person game has none and works as before (one person
  seat, ``human_seat``, and bots).
- seat token: each person's seat has a secret (:class:`~scorekeeper.models.DigitalSeat`),
  given as a link and QR code; the phone that opens it keeps it in its signed session, so
  reopening the game gives the same seat back. Tokens are compared in constant time
  (:func:`scorekeeper.web.same_token`).
- contact: any request from a seat's phone (page, stream, poll) stamps ``last_seen``.
- grace: ``PLAY_GRACE_SECONDS`` (60 unless configured). A person whose turn has waited
  that long with no contact from their phone is *away*: a stand-in bot
  (:data:`STANDIN`) plays their turns until the phone is back. Nothing runs in the
  background but each process's sweep of its open streams (:func:`sweep`, every 30 s):
  it, or whichever request comes next (any phone's page, poll or stream opened), makes
  the stand-in's moves (:func:`catch_up`), so a game never stalls on a missing phone.
- partners: under partnership rules (P1) seats 0 and 2 play 1 and 3, so partners sit
  opposite each other around the table.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from flask import current_app, session
from sqlalchemy import ColumnElement, and_, exists, func, tuple_, update
from sqlalchemy.orm import aliased

from .. import wakeups
from ..engine import BOTS, GameSetupError, GameState, RulesError, current_player, new_game
from ..extensions import db
from ..models import DigitalGame, DigitalSeat, new_token
from ..web import same_token
from . import services
from .seats import BOT_NAMES

STANDIN = "basic"
"""The level of the bot that plays for a person who is away."""
TOUCH_EVERY = 2.0
"""Seconds between two stamps of a seat's ``last_seen`` at most (fewer writes from polls;
a quarter of the grace period when that is shorter)."""
KEEP_SEATS = 12
"""Seats (and host rights) remembered per phone, newest kept."""


class SeatRow(Protocol):
    """What :func:`playing_bots` and :func:`seated` read of a person's seat: a
    :class:`DigitalSeat`, or its ``seat`` and ``away`` read alone."""

    @property
    def seat(self) -> int: ...

    @property
    def away(self) -> bool: ...


@dataclass(frozen=True)
class Sitting:
    """Who this phone is at a game: ``seat`` (None at a table game where it has no
    seat), ``bots`` who plays for a bot now (None: ``game.bots``, a one-person game),
    ``host`` True on the host's phone, ``table`` True for a table game, ``away`` the
    person seats a stand-in plays for (:func:`playing_bots`)."""

    seat: int | None
    bots: list[str | None] | None
    host: bool
    table: bool
    away: tuple[int, ...] = ()


@dataclass(frozen=True)
class SeatChoice:
    """A seat chosen for a new table: a person's ``name``, or a bot's ``level``."""

    name: str = ""
    level: str | None = None


def _now() -> float:
    return time.time()


def grace() -> float:
    """The grace period in seconds (``PLAY_GRACE_SECONDS``, 60 unless configured)."""
    return float(current_app.config.get("PLAY_GRACE_SECONDS", 60))


# ---- a new table -------------------------------------------------------------------


def _names(host: str, seats: Sequence[SeatChoice]) -> list[str]:
    """Every player's name: the host (``"Host"`` when blank), each person as typed (or
    ``"Player N"``), each bot a bot name nobody else has. Raises :class:`PlayError`."""
    people = [host.strip() or "Host"] + [
        s.name.strip() or f"Player {n}" for n, s in enumerate(seats, start=2) if s.level is None
    ]
    taken = {n.casefold() for n in people}
    spare = iter(n for n in BOT_NAMES if n.casefold() not in taken)
    names, people_left = [people[0]], iter(people[1:])
    for choice in seats:
        names.append(next(people_left) if choice.level is None else next(spare, ""))
    if len({n.casefold() for n in names}) != len(names) or "" in names:
        raise services.PlayError("each player needs a different name", "D1", "seats")
    return names


def start_table(
    host: str,
    preset: str,
    options: Mapping[str, Any],
    seats: Sequence[SeatChoice],
) -> DigitalGame:
    """A new table game: the host in seat 0, then ``seats`` in order (2 to 8 players in
    all, D1; partnership rules: 4, P1), dealt from a seed the server draws
    (:func:`services.drawn_seed`): no seat chooses or learns it before the game ends. Each
    person's seat gets a secret token; the host phone keeps the host token and seat 0's
    token. Raises :class:`PlayError`."""
    unknown = [s.level for s in seats if s.level is not None and s.level not in BOTS]
    if unknown:
        raise services.PlayError(f"there is no bot level {unknown[0]!r}", None, "seats")
    names = _names(host, seats)
    seed = services.drawn_seed()
    try:
        state = new_game(names, preset=preset, options=dict(options), seed=seed)
    except RulesError as error:
        where, message = error.problems[0]
        raise services.PlayError(message, None, where) from None
    except GameSetupError as error:
        raise services.PlayError(str(error), "D1", "seats") from None
    game = DigitalGame(
        preset=preset,
        options=dict(options),
        seed=str(seed),
        seed_chosen=False,
        human_seat=0,
        bots=[None, *(s.level for s in seats)],
        state={},
        version=1,
        host_token=new_token(),
    )
    services.first_moves(game, state)
    rows = _person_seats(game, seats)
    db.session.add_all(rows)
    services.check_share()
    db.session.commit()
    assert game.host_token is not None
    _keep("hosts", game.slug, game.host_token)
    _keep("seats", game.slug, rows[0].token)
    services.ask_bots(game, state, playing_bots(game, rows))
    return game


def _person_seats(game: DigitalGame, seats: Sequence[SeatChoice]) -> list[DigitalSeat]:
    """The seat rows of a new table: the host's seat 0 (joined now) and one, not yet
    joined, for each person's seat of ``seats`` (bots have none)."""
    now = _now()
    rows = [DigitalSeat(game_id=game.id, seat=0, joined_at=now, last_seen=now)]
    rows += [
        DigitalSeat(game_id=game.id, seat=n)
        for n, choice in enumerate(seats, start=1)
        if choice.level is None
    ]
    return rows


def _keep(key: str, slug: str, token: str) -> None:
    kept = {k: v for k, v in dict(session.get(key) or {}).items() if k != slug}
    kept[slug] = token
    session[key] = dict(list(kept.items())[-KEEP_SEATS:])
    session.permanent = True


# ---- who is this phone -------------------------------------------------------------


def seat_rows(game: DigitalGame) -> list[DigitalSeat]:
    """The person seats of a table game, in seat order."""
    query = db.select(DigitalSeat).where(DigitalSeat.game_id == game.id).order_by(DigitalSeat.seat)
    return list(db.session.execute(query).scalars())


def playing_bots(game: DigitalGame, rows: Sequence[SeatRow]) -> list[str | None]:
    """Who a bot plays for now: the bot seats' levels, and :data:`STANDIN` for each person
    who is away; None for a person at the table."""
    away = {r.seat for r in rows if r.away}
    return [STANDIN if seat in away else level for seat, level in enumerate(game.bots)]


def _token_seat(rows: Sequence[Any], given: object) -> int | None:
    """The seat whose token is ``given`` among ``rows`` (seat rows, or rows of a query
    with their ``seat`` and ``token``; every row compared, in constant time each)."""
    found = None
    for row in rows:
        if same_token(given, row.token):
            found = row.seat
    return found


def sitting(game: DigitalGame) -> Sitting:
    """Who this phone is at ``game`` (from its signed session), stamping the contact of
    its seat (:func:`touch`)."""
    if game.host_token is None:
        return Sitting(game.human_seat, None, False, False)
    rows = seat_rows(game)
    seat = _token_seat(rows, dict(session.get("seats") or {}).get(game.slug))
    host = same_token(dict(session.get("hosts") or {}).get(game.slug), game.host_token)
    if seat is not None:
        row = next(r for r in rows if r.seat == seat)
        every = min(TOUCH_EVERY, grace() / 4)
        if row.away or row.last_seen is None or _now() - row.last_seen >= every:
            touch(game, seat)
            row.away = False
    return seated(game, rows, seat, host)


def seated(
    game: DigitalGame, rows: Sequence[SeatRow], seat: int | None, host: bool = False
) -> Sitting:
    """The phone at ``seat`` (None: no seat) of the table game ``game`` whose person
    seats are ``rows`` (:func:`seat_rows`), the host's phone when ``host``: who a bot
    plays for and who is away as ``rows`` say."""
    away = tuple(r.seat for r in rows if r.away)
    return Sitting(seat, playing_bots(game, rows), host, True, away)


def _contact(now: float) -> dict[str, Any]:
    """The values of a seat row that a contact at ``now`` stamps: ``last_seen``, the
    person back (no longer away), ``joined_at`` the first time."""
    return {"last_seen": now, "away": False, "joined_at": func.coalesce(DigitalSeat.joined_at, now)}


def touch(game: DigitalGame, seat: int) -> None:
    """Stamp a contact from ``seat``'s phone: ``last_seen`` now, the person back (no
    longer away), and ``joined_at`` the first time. One UPDATE, committed."""
    now = _now()
    db.session.execute(
        update(DigitalSeat)
        .where(DigitalSeat.game_id == game.id, DigitalSeat.seat == seat)
        .values(**_contact(now))
        .execution_options(synchronize_session=False)
    )
    db.session.commit()


@dataclass(frozen=True)
class Opening:
    """What a phone opening its seat's event stream needs of a game, read in one query
    (:func:`opening`): ``game_id``; ``table`` (False: a game of one person); the phone's
    ``seat`` (None: no seat here; the person's at a game of one person) and that seat's
    ``token`` (empty at a game of one person); ``due`` True when a stand-in
    may have a move to make (:func:`due_games`' test, :func:`_due`)."""

    game_id: int
    table: bool
    seat: int | None
    token: str
    due: bool


def _opening_seat(human: int, table: bool, people: Sequence[Any], slug: str) -> int | None:
    """The phone's seat as its stream opens: the person's at a one-person game (anyone
    with the link plays it), else the seat its signed session holds a token of."""
    if not table:
        return human
    return _token_seat(people, dict(session.get("seats") or {}).get(slug))


def opening(slug: str) -> Opening | None:
    """The game at ``slug`` as a phone opening its seat's stream sees it (None: no such
    game), in ONE query of the few columns it needs (no state, no board): the game's
    id, whether it is a table game and a stand-in may be due, and its person seats'
    tokens, the phone's seat found from its signed session (constant-time compares)."""
    cutoff = _now() - grace()
    query = (
        db.select(
            DigitalGame.id,
            DigitalGame.host_token,
            DigitalGame.human_seat,
            _due(cutoff).label("due"),
            DigitalSeat.seat,
            DigitalSeat.token,
        )
        .outerjoin(DigitalSeat, DigitalSeat.game_id == DigitalGame.id)
        .where(DigitalGame.slug == slug)
    )
    rows = db.session.execute(query).all()
    if not rows:
        return None
    people = [r for r in rows if r.token is not None]
    first = rows[0]
    table = first.host_token is not None
    seat = _opening_seat(first.human_seat, table, people, slug)
    token = next((r.token for r in people if r.seat == seat), "")
    return Opening(first.id, table, seat, token, bool(first.due))


def new_stream(found: Opening) -> int | None:
    """Count a new event stream of ``found``'s seat and stamp its contact (as
    :func:`touch`) in ONE ``UPDATE ... RETURNING``, committed with the seat's notice (so
    any older stream of the seat, in whichever process, ends: ``replaced``); then, only
    when a stand-in may be due (``found.due``), :func:`catch_up`. The stream's number
    (the seat's newest); None, nothing written, when the seat is no longer ``found``'s
    (given to a bot or a new link meanwhile). Ends the transaction."""
    assert found.seat is not None
    now = _now()
    numbered = db.session.execute(
        update(DigitalSeat)
        .where(
            DigitalSeat.game_id == found.game_id,
            DigitalSeat.seat == found.seat,
            DigitalSeat.token == found.token,
        )
        .values(stream=DigitalSeat.stream + 1, **_contact(now))
        .returning(DigitalSeat.stream)
        .execution_options(synchronize_session=False)
    ).scalar_one_or_none()
    if numbered is not None:
        wakeups.moved(wakeups.seat_key(found.game_id, found.seat))
        db.session.commit()
        game = db.session.get(DigitalGame, found.game_id) if found.due else None
        if game is not None:
            catch_up(game)
    db.session.rollback()
    return numbered


def sit_down(game: DigitalGame, seat: int, token: str) -> bool:
    """The phone that opened seat ``seat``'s link sits there (the token kept in its
    session, the contact stamped); False when the token is not that seat's."""
    rows = [r for r in seat_rows(game) if r.seat == seat]
    if not rows or _token_seat(rows, token) != seat:
        return False
    _keep("seats", game.slug, rows[0].token)
    touch(game, seat)
    return True


# ---- the stand-in ------------------------------------------------------------------


def _since(game: DigitalGame) -> float:
    """When the game last moved (the turn in play began), in seconds since the epoch."""
    return game.moved_at or _now()


def catch_up(game: DigitalGame) -> bool:
    """What any request does first at a game: at a table game, a person whose turn has
    waited the grace period with no contact is marked away; at any game, the move due
    from a bot (a stand-in, a bot seat) is asked of the queue when it has no job yet
    (the same job asked twice is one: this finds a move whose job was never asked).
    True when a bot is due."""
    if game.paused or game.finished:
        return False
    if game.host_token is None:
        return services.let_bots_play(game, game.bots)
    rows = seat_rows(game)
    now, waited = _now(), _now() - _since(game)
    late = [
        r for r in rows if not r.away and waited >= grace() and now - (r.last_seen or 0) >= grace()
    ]
    if not late and not any(r.away for r in rows):
        return False
    turn = current_player(services.load_state(game))
    for row in late:
        if row.seat == turn:
            row.away = True
            db.session.commit()
    return services.let_bots_play(game, playing_bots(game, rows))


def _due(cutoff: float) -> ColumnElement[bool]:
    """The SQL test of a game where :func:`catch_up` may have a move to make (see
    :func:`due_games`), ``cutoff`` the grace period's start (seconds since the epoch):
    a table game in play, not moved since ``cutoff``, with a person's seat away or with
    no contact since ``cutoff`` (one lookup of its own seats)."""
    late = aliased(DigitalSeat)
    return and_(
        DigitalGame.host_token.is_not(None),
        DigitalGame.paused.is_(False),
        DigitalGame.finished.is_(False),
        DigitalGame.moved_at <= cutoff,
        exists().where(
            late.game_id == DigitalGame.id,
            late.away | (func.coalesce(late.last_seen, 0) <= cutoff),
        ),
    )


def due_games(game_ids: Sequence[int]) -> list[DigitalGame]:
    """The games among ``game_ids`` where :func:`catch_up` may have a move to make, in
    one query: a table game in play that has not moved for the grace period, with a
    person's seat away (a stand-in's turn left unmade) or with no contact for the grace
    period (a person who may be taken for away). A game that moved within the grace
    period has nothing due: every move lets the stand-ins due after it play at once."""
    if not game_ids:
        return []
    query = db.select(DigitalGame).where(
        DigitalGame.id.in_(sorted(set(game_ids))), _due(_now() - grace())
    )
    return list(db.session.execute(query).scalars())


def sweep(contacts: Sequence[wakeups.Contact], keys: Sequence[str], due: float) -> list[int]:
    """A process's sweep of its open streams (:class:`scorekeeper.wakeups.Wakeups`, every
    :func:`~scorekeeper.wakeups.check_every`): the contact of every seat in ``contacts``
    (game id, seat, stream number: a replaced stream's seat is not stamped) stamped in
    one UPDATE, committed, so a phone in touch is never taken for away; then
    :func:`catch_up` for the games of ``keys`` (the streams' games) where
    :func:`due_games` finds something due, until ``due`` (``time.monotonic``: the next
    sweep's time; the games left catch up then, or at their phones' next request). The
    ids of the games that moved."""
    if contacts:
        now = _now()
        held = tuple_(DigitalSeat.game_id, DigitalSeat.seat, DigitalSeat.stream)
        db.session.execute(
            update(DigitalSeat)
            .where(held.in_(sorted(set(contacts))))
            .values(**_contact(now))
            .execution_options(synchronize_session=False)
        )
        db.session.commit()
    ids = [int(k.split(":")[1]) for k in keys if k.startswith("play:")]
    moved = []
    for game in due_games(ids):
        if time.monotonic() >= due:
            break
        if catch_up(game):
            moved.append(game.id)
    db.session.rollback()
    return moved


# ---- the host ----------------------------------------------------------------------


def seat_as_bot(game: DigitalGame, seat: int, level: str) -> None:
    """The host gives seat ``seat`` (not the host's own) to a bot of ``level``: its token
    stops working; the bot moves at once if it is its turn. Raises :class:`PlayError`."""
    _check_seat(game, seat)
    if level not in BOTS:
        raise services.PlayError(f"there is no bot level {level!r}", None, "seats")
    bots = list(game.bots)
    bots[seat] = level
    _change_bots(game, bots)
    db.session.execute(
        db.delete(DigitalSeat).where(DigitalSeat.game_id == game.id, DigitalSeat.seat == seat)
    )
    db.session.commit()
    services.let_bots_play(game, playing_bots(game, seat_rows(game)))


def seat_for_person(game: DigitalGame, seat: int) -> None:
    """The host makes seat ``seat`` a person's seat with a new secret link (a bot's seat
    given back to a person, or a person removed: the old link and phone no longer sit
    there). Raises :class:`PlayError`."""
    _check_seat(game, seat)
    bots = list(game.bots)
    bots[seat] = None
    _change_bots(game, bots)
    db.session.execute(
        db.delete(DigitalSeat).where(DigitalSeat.game_id == game.id, DigitalSeat.seat == seat)
    )
    db.session.add(DigitalSeat(game_id=game.id, seat=seat))
    db.session.commit()


def _check_seat(game: DigitalGame, seat: int) -> None:
    if not 1 <= seat < len(game.bots):
        raise services.PlayError("choose another player's seat (the host keeps seat 1)")


def _change_bots(game: DigitalGame, bots: list[str | None]) -> None:
    """Write the seats' levels as a new version (other phones see the change)."""
    version = game.version
    done = db.session.execute(
        update(DigitalGame)
        .where(DigitalGame.id == game.id, DigitalGame.version == version)
        .values(bots=bots, version=version + 1, moved_at=_now())
        .execution_options(synchronize_session=False)
    )
    if getattr(done, "rowcount", 1) != 1:
        db.session.rollback()
        raise services.StaleGame()
    wakeups.moved(wakeups.play_key(game.id))
    game.bots, game.version = bots, version + 1


# ---- what the table shows ----------------------------------------------------------


def table_status(game: DigitalGame, state: GameState, sitting: Sitting) -> dict[str, Any]:
    """The table's line for the phone ``sitting`` at ``game`` (its ``state``): ``turn``
    (whose decision it is, or None), ``mine`` (this seat's), ``standins`` (the names a
    bot is playing for), ``text``."""
    seat = sitting.seat
    turn = None if game.paused or game.finished else current_player(state)
    standins = [state.players[s] for s in sitting.away]
    if game.finished:
        text = "The game is over."
    elif game.paused:
        text = 'The round is over: anyone may tap "Next round".'
    elif turn is None:
        text = ""
    elif turn == seat:
        text = "Your turn."
    elif not sitting.table and game.bots[turn] is not None:
        text = f"{state.players[turn]} is thinking…"  # a job of the queue makes its move
    else:
        text = f"{state.players[turn]}'s turn."
    text += "".join(f" A bot is playing for {name}." for name in standins)
    return {
        "turn": turn,
        "mine": turn is not None and turn == seat,
        "standins": standins,
        "text": text.strip(),
        "version": game.version,
    }


def seat_list(game: DigitalGame) -> list[dict[str, Any]]:
    """Each seat for the host's page: ``seat`` (0-based), ``name``, ``level`` (a bot's),
    ``row`` (a person's :class:`DigitalSeat`), ``side`` (0 or 1 under partnership rules,
    else None), ``seen`` (seconds since contact, or None)."""
    state = services.load_state(game)
    rows = {r.seat: r for r in seat_rows(game)}
    seen = {seat: round(_now() - r.last_seen) for seat, r in rows.items() if r.last_seen}
    return [
        {
            "seat": seat,
            "name": name,
            "level": game.bots[seat],
            "row": rows.get(seat),
            "side": state.unit_of(seat) if state.teams else None,
            "seen": seen.get(seat),
        }
        for seat, name in enumerate(state.players)
    ]


KEEP_GAMES = 12
"""Games remembered per phone (session cookie), newest kept, listed on /play."""


def remember(game: DigitalGame) -> None:
    """Keep ``game`` among this phone's games (its signed session), listed on /play."""
    played = [s for s in session.get("played", []) if s != game.slug]
    session["played"] = [*played, game.slug][-KEEP_GAMES:]
    session.permanent = True
