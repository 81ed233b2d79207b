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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from flask import current_app, session
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import ColumnElement, and_, exists, func
from sqlalchemy.orm import aliased

from ...engine import GameState, current_player, middle_level
from ...extensions import db
from ...languages.reader import translate
from ...models import DigitalGame, DigitalSeat
from ...web import same_token
from .. import services

STANDIN = middle_level().name
"""The level of the bot that plays for a person who is away: the middle of the ladder
(:func:`engine.middle_level`)."""
STANDIN_TITLE = middle_level().title
"""The stand-in's level as people read it ("a Strong bot is playing for Ann")."""
TOUCH_EVERY = 2.0
"""Seconds between two stamps of a seat's ``last_seen`` at most (fewer writes from polls;
a quarter of the grace period when that is shorter)."""


class SeatRow(Protocol):
    """What :func:`playing_bots` and :func:`seated` read of a person's seat: a
    :class:`DigitalSeat`, or its ``seat`` and ``away`` read alone."""

    @property
    def seat(self) -> int: ...

    @property
    def away(self) -> bool: ...


class TokenRow(Protocol):
    """What :func:`token_seat` reads of a person's seat: a :class:`DigitalSeat`, or a
    row of a query with its ``seat`` and ``token``."""

    @property
    def seat(self) -> int: ...

    @property
    def token(self) -> str: ...


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


def seconds_now() -> float:
    return time.time()


def grace() -> float:
    """The grace period in seconds (``PLAY_GRACE_SECONDS``, 60 unless configured)."""
    return float(current_app.config.get("PLAY_GRACE_SECONDS", 60))


# ---- a new table -------------------------------------------------------------------


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


def token_seat(rows: Sequence[TokenRow], given: object) -> int | None:
    """The seat whose token is ``given`` among ``rows`` (seat rows, or rows of a query
    with their ``seat`` and ``token``; every row compared, in constant time each)."""
    found = None
    for row in rows:
        if same_token(given, row.token):
            found = row.seat
    return found


def seated(
    game: DigitalGame, rows: Sequence[SeatRow], seat: int | None, host: bool = False
) -> Sitting:
    """The phone at ``seat`` (None: no seat) of the table game ``game`` whose person
    seats are ``rows`` (:func:`seat_rows`), the host's phone when ``host``: who a bot
    plays for and who is away as ``rows`` say."""
    away = tuple(r.seat for r in rows if r.away)
    return Sitting(seat, playing_bots(game, rows), host, True, away)


def contact_values(now: float) -> dict[str, object]:
    """The values of a seat row that a contact at ``now`` stamps: ``last_seen``, the
    person back (no longer away), ``joined_at`` the first time."""
    return {"last_seen": now, "away": False, "joined_at": func.coalesce(DigitalSeat.joined_at, now)}


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


def _opening_seat(human: int, table: bool, people: Sequence[TokenRow], slug: str) -> int | None:
    """The phone's seat as its stream opens: the person's at a one-person game (anyone
    with the link plays it), else the seat its signed session holds a token of."""
    if not table:
        return human
    return token_seat(people, dict(session.get("seats") or {}).get(slug))


def opening(slug: str) -> Opening | None:
    """The game at ``slug`` as a phone opening its seat's stream sees it (None: no such
    game), in ONE query of the few columns it needs (no state, no board): the game's
    id, whether it is a table game and a stand-in may be due, and its person seats'
    tokens, the phone's seat found from its signed session (constant-time compares)."""
    cutoff = seconds_now() - grace()
    query = (
        db.select(
            DigitalGame.id,
            DigitalGame.host_token,
            DigitalGame.human_seat,
            stand_in_due(cutoff).label("due"),
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


# ---- the stand-in ------------------------------------------------------------------


def stand_in_due(cutoff: float) -> ColumnElement[bool]:
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
        DigitalGame.id.in_(sorted(set(game_ids))), stand_in_due(seconds_now() - grace())
    )
    return list(db.session.execute(query).scalars())


# ---- the host ----------------------------------------------------------------------


# ---- what the table shows ----------------------------------------------------------


@dataclass(frozen=True)
class TableStatus:
    """The table's line for one phone: ``turn`` (whose decision it is, a seat, or None),
    ``mine`` (this phone's seat's), ``standins`` (the names a bot is playing for),
    ``text`` (in words) and the game's ``version``."""

    turn: int | None
    mine: bool
    standins: tuple[str, ...]
    text: str
    version: int

    def to_json(self) -> dict[str, object]:
        """``{"turn", "mine", "standins", "text", "version"}`` (``standins`` a list)."""
        return {
            "turn": self.turn,
            "mine": self.mine,
            "standins": list(self.standins),
            "text": self.text,
            "version": self.version,
        }


def table_status(game: DigitalGame, state: GameState, sitting: Sitting) -> TableStatus:
    """The table's line (:class:`TableStatus`) for the phone ``sitting`` at ``game`` (its
    ``state``)."""
    seat = sitting.seat
    turn = None if game.paused or game.finished else current_player(state)
    standins = [state.players[s] for s in sitting.away]
    text = _status_text(game, state, sitting, turn)
    title = translate(STANDIN_TITLE)
    for name in standins:
        text += " " + _("A %(level)s bot is playing for %(name)s.", level=title, name=name)
    mine = turn is not None and turn == seat
    return TableStatus(turn, mine, tuple(standins), text.strip(), game.version)


def _status_text(game: DigitalGame, state: GameState, sitting: Sitting, turn: int | None) -> str:
    """Where the game stands for the phone ``sitting``, in words (``turn``: whose
    decision it is, or None)."""
    if game.finished:
        return str(_("The game is over."))
    if game.paused:
        return str(_('The round is over: anyone may tap "Next round".'))
    if turn is None:
        return ""
    if turn == sitting.seat:
        return str(_("Your turn."))
    if not sitting.table and game.bots[turn] is not None:
        # a job of the queue makes its move
        return str(_("%(name)s is thinking…", name=state.players[turn]))
    return str(_("%(name)s's turn.", name=state.players[turn]))


@dataclass(frozen=True)
class SeatLine:
    """A seat on the host's page (:func:`seat_list`): ``seat`` (0-based), ``name``,
    ``level`` (a bot's, None for a person), ``row`` (a person's :class:`DigitalSeat`),
    ``side`` (0 or 1 under partnership rules, else None), ``seen`` (seconds since
    contact, or None); on the host's phone a person's seat ``link`` and its ``qr`` code
    (SVG markup), else None."""

    seat: int
    name: str
    level: str | None
    row: DigitalSeat | None
    side: int | None
    seen: int | None
    link: str | None = None
    qr: Markup | None = None


def seat_list(game: DigitalGame) -> list[SeatLine]:
    """Each seat for the host's page (:class:`SeatLine`, no link yet)."""
    state = services.load_state(game)
    rows = {r.seat: r for r in seat_rows(game)}
    seen = {seat: round(seconds_now() - r.last_seen) for seat, r in rows.items() if r.last_seen}
    return [
        SeatLine(
            seat=seat,
            name=name,
            level=game.bots[seat],
            row=rows.get(seat),
            side=state.unit_of(seat) if state.teams else None,
            seen=seen.get(seat),
        )
        for seat, name in enumerate(state.players)
    ]
