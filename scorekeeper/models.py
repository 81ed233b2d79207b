"""The tables of the scorekeeper: games, their players, rounds and the change history.

Glossary:
- game: one game of 500 Rum kept at a real table; its rules are a preset plus the house
  rules changed from it (``options``, by the engine's option names).
- version: a counter bumped by every change to a game; forms carry it, so a save based
  on an older version is refused instead of silently overwriting (optimistic concurrency).
- view token / edit token: the secrets in the view link (watch only) and the edit link
  (carries the right to change the game).
- round: what the table entered (``input``, mode "net", "totals" or "cards") and what the
  engine computed from it (``figures``); ``nonce`` is the one-time key of the form that
  saved it; its own ``version`` is bumped by every change to it, so a correction conflicts
  only with another change to the same round.
- change: one entry of the history: a round's state before and after, so it can be undone.
- group: the people who play together across game nights, with its own view and edit
  links; a member is one of its players, kept from game to game. A game (at the table
  or digital) in a group may be archived there: kept, but left out of every figure.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db

# Seconds since the epoch and other floats are ``Float`` as the migrations made them
# (PostgreSQL's FLOAT is double precision, SQLite's REAL 8 bytes): a bare ``float``
# maps to ``Double`` in SQLAlchemy 2.1, which ``flask db check`` would take for a change.


def now_utc() -> datetime:
    """The current time, timezone-aware UTC (a callable default)."""
    return datetime.now(UTC)


def new_token() -> str:
    """A fresh unguessable token for a link (about 128 bits)."""
    return secrets.token_urlsafe(16)


def creator_language() -> str | None:
    """The language of the request that creates a game or a group (its creator's choice,
    :func:`scorekeeper.languages.chosen_language`), kept as the language of its TV and
    shared result; None outside a request (the CLI, a job): "the reader's language"."""
    from flask import has_request_context

    if not has_request_context():
        return None
    from .languages.reader import chosen_language

    return chosen_language()


def new_slug() -> str:
    """A short token for a view link (about 64 bits)."""
    return secrets.token_urlsafe(8)


ROOM_CODE_LETTERS = "ACDEFGHJKMNPQRTUVWXY34679"
"""The characters of a room code: none that can be misread for another (no 0/O, 1/I/L,
5/S, 2/Z, 8/B)."""
ROOM_CODE_LENGTH = 5
"""The length of a room code given to a night (25 ** 5: about 9.8 million codes)."""


def new_room_code() -> str:
    """A fresh random room code (:data:`ROOM_CODE_LENGTH` characters of
    :data:`ROOM_CODE_LETTERS`, drawn by :mod:`secrets`)."""
    return "".join(secrets.choice(ROOM_CODE_LETTERS) for _ in range(ROOM_CODE_LENGTH))


class Game(db.Model):  # type: ignore[name-defined,misc]
    """A game at a real table. ``options`` are the house rules changed from ``preset``
    ({option name: value}); ``stake`` is money per point as decimal text, or None;
    ``first_dealer`` the seat (0-based) that dealt first; ``entry_mode`` how the game page
    asks for a round ("net": one figure per player, or "totals": shown and in hand), the
    way its last round was entered; ``deleted_at`` is set when a phone with edit rights
    deleted it (hidden everywhere, kept so the delete can be undone); ``language`` the
    language of its TV and shared result (a code of ``scorekeeper.languages.LANGUAGES``,
    its creator's choice; None: each reader's own)."""

    __tablename__ = "games"
    __table_args__ = (
        UniqueConstraint("view_token", name="uq_games_view_token"),
        UniqueConstraint("edit_token", name="uq_games_edit_token"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(80), default="")
    preset: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    stake: Mapped[str | None] = mapped_column(String(20), default=None)
    first_dealer: Mapped[int] = mapped_column(default=0)
    entry_mode: Mapped[str] = mapped_column(String(10), default="net", server_default="net")
    view_token: Mapped[str] = mapped_column(String(40), default=new_slug)
    edit_token: Mapped[str] = mapped_column(String(40), default=new_token)
    version: Mapped[int] = mapped_column(default=1)
    winner: Mapped[str | None] = mapped_column(String(90), default=None)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    deleted_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=now_utc, index=True)
    updated_at: Mapped[datetime] = mapped_column(default=now_utc, onupdate=now_utc)
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("groups.id", ondelete="SET NULL"), default=None, index=True
    )
    archived_at: Mapped[datetime | None] = mapped_column(default=None)
    night_id: Mapped[int | None] = mapped_column(
        ForeignKey("nights.id", ondelete="SET NULL"), default=None, index=True
    )
    language: Mapped[str | None] = mapped_column(String(10), default=creator_language)

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.position", cascade="all, delete-orphan"
    )
    changes: Mapped[list[Change]] = relationship(
        back_populates="game", order_by="Change.id", cascade="all, delete-orphan"
    )


class Night(db.Model):  # type: ignore[name-defined,misc]
    """A game night at one table: the games played one after another ("Play again"),
    each pointing at it (``games.night_id``); its current game is its newest one not
    deleted. ``code`` is its short room code (:func:`new_room_code`), typed on the home
    page to watch the current game; unique among the nights that hold one, and taken
    from a night no longer live (none of its games changed for 12 hours) when a new
    night draws it, so that night's code is None."""

    __tablename__ = "nights"
    __table_args__ = (UniqueConstraint("code", name="uq_nights_code"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str | None] = mapped_column(String(8), default=new_room_code)
    created_at: Mapped[datetime] = mapped_column(default=now_utc)


class Player(db.Model):  # type: ignore[name-defined,misc]
    """A player at ``seat`` (0-based, in dealing order); ``side`` 0 or 1 in partnership
    play (P1), else None."""

    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_players_seat"),
        UniqueConstraint("game_id", "name", name="uq_players_name"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(40))
    side: Mapped[int | None] = mapped_column(default=None)
    member_id: Mapped[int | None] = mapped_column(
        ForeignKey("members.id", ondelete="SET NULL"), default=None, index=True
    )

    game: Mapped[Game] = relationship(back_populates="players")


class Round(db.Model):  # type: ignore[name-defined,misc]
    """One round as entered (``mode``, ``input``) and as scored (``figures``: the engine's
    contract-shaped response). Deleted rounds stay, with ``deleted`` set, so nothing a
    player entered is lost. ``position`` orders rounds; ``nonce`` is the saving form's
    one-time key, unique per game. ``summary`` is what the game page shows of a live
    round, kept beside the full figures so the page never decodes them:
    ``{"round": {unit: points}, "total": {unit: points}, "dealer": seat, "number": n}``
    (units are the players, or the sides under P1; ``dealer`` the seat that deals the
    next round; ``number`` the round's number among the live rounds, missing in rounds
    stored before it was kept)."""

    __tablename__ = "rounds"
    __table_args__ = (
        UniqueConstraint("game_id", "nonce", name="uq_rounds_nonce"),
        Index("ix_rounds_game_live_position", "game_id", "deleted", "position"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    mode: Mapped[str] = mapped_column(String(10))
    input: Mapped[dict[str, Any]] = mapped_column(JSON)
    figures: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    nonce: Mapped[str] = mapped_column(String(64))
    deleted: Mapped[bool] = mapped_column(default=False)
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    created_at: Mapped[datetime] = mapped_column(default=now_utc)

    game: Mapped[Game] = relationship(back_populates="rounds")

    @property
    def totals(self) -> dict[str, Any]:
        """The summary of a live round (written whenever the round counts): ``round``
        and ``total`` points per player or side, and ``dealer``, the seat dealing next.
        Raises ValueError for a deleted round, which has none."""
        if self.summary is None:
            raise ValueError(f"round {self.position} has no summary (it does not count)")
        return self.summary


class Change(db.Model):  # type: ignore[name-defined,misc]
    """An entry of a game's history: ``action`` ("record", "correct", "delete", "undo"),
    the round it touched, and that round's state ``before`` and ``after`` (each
    ``{"mode", "input", "deleted"}``, None for a round that did not exist yet).
    ``undone_by`` is the id of the change that undid it."""

    __tablename__ = "changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"))
    action: Mapped[str] = mapped_column(String(10))
    summary: Mapped[str] = mapped_column(String(200), default="")
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    undone_by: Mapped[int | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=now_utc)

    game: Mapped[Game] = relationship(back_populates="changes")
    round: Mapped[Round] = relationship()


class DigitalGame(db.Model):  # type: ignore[name-defined,misc]
    """A digital game of 500 Rum: one person against bots, played at ``/play/<slug>``.

    ``seed`` is the shuffle seed as decimal text, never shown before the game is over:
    64 random bits drawn by the server, or (a one-person game only, for practice) a number
    the person chose, then ``seed_chosen`` is True (None for a game started before it was
    kept); no seat of a table game ever chooses its shuffle. ``state`` is the engine's
    saved game (:meth:`GameState.to_json`) WITHOUT its finished rounds (``rounds``): the round in
    play, bounded in size, rewritten after every move together with ``version`` (bumped
    each time: a move based on an older version is refused). Each finished round is a
    :class:`DigitalRound` row, written once (the game's append-only log). ``human_seat``
    is the person's seat; ``bots`` holds each seat's bot level in seat order (None for
    the person). ``moves`` are the moves made since the person's previous decision,
    described for people (``{"who", "text", "cards", "kind"}``). ``paused`` is True from
    the end of a round until the person taps "Next round" (the next deal is already in
    ``state``, not shown until then). A table of several phones has a ``host_token``
    (the host's secret) and a :class:`DigitalSeat` per person; ``moved_at`` is when the
    game last moved (seconds since the epoch), the start of the grace period of a person
    whose turn it is. ``language`` is the language of its spectators' board (its
    creator's choice; None: each reader's own).
    """

    __tablename__ = "digital_games"
    __table_args__ = (UniqueConstraint("slug", name="uq_digital_games_slug"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(40), default=new_token)
    preset: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[str] = mapped_column(String(40), default="")
    seed_chosen: Mapped[bool | None] = mapped_column(default=False)
    human_seat: Mapped[int] = mapped_column(default=0)
    bots: Mapped[list[str | None]] = mapped_column(JSON, default=list)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    moves: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    version: Mapped[int] = mapped_column(default=1)
    paused: Mapped[bool] = mapped_column(default=False)
    finished: Mapped[bool] = mapped_column(default=False)
    winner: Mapped[str | None] = mapped_column(String(90), default=None)
    created_at: Mapped[datetime] = mapped_column(default=now_utc, index=True)
    updated_at: Mapped[datetime] = mapped_column(default=now_utc, onupdate=now_utc)
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("groups.id", ondelete="SET NULL"), default=None, index=True
    )
    member_id: Mapped[int | None] = mapped_column(
        ForeignKey("members.id", ondelete="SET NULL"), default=None
    )
    archived_at: Mapped[datetime | None] = mapped_column(default=None)
    host_token: Mapped[str | None] = mapped_column(String(40), default=None)
    moved_at: Mapped[float | None] = mapped_column(Float, default=time.time)
    language: Mapped[str | None] = mapped_column(String(10), default=creator_language)


class DigitalSeat(db.Model):  # type: ignore[name-defined,misc]
    """A person's seat at a digital game shared by several phones (a game with a
    ``host_token``): ``token`` is the seat's secret (its link and QR code), ``joined_at``
    and ``last_seen`` when a phone first and last reached the server from the seat
    (seconds since the epoch, None before anyone sat down), ``away`` True while a bot
    plays for the person (after the grace period at their turn, until they return),
    ``stream`` the number of the seat's newest event stream (each stream opened counts
    one up; an older stream of the seat, in any process, ends when it sees a newer
    number). Bot seats have no row: their levels are in ``DigitalGame.bots``."""

    __tablename__ = "digital_seats"
    __table_args__ = (UniqueConstraint("game_id", "seat", name="uq_digital_seats_seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("digital_games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column()
    token: Mapped[str] = mapped_column(String(40), default=new_token)
    joined_at: Mapped[float | None] = mapped_column(Float, default=None)
    last_seen: Mapped[float | None] = mapped_column(Float, default=None)
    away: Mapped[bool] = mapped_column(default=False)
    stream: Mapped[int] = mapped_column(default=0)


class Group(db.Model):  # type: ignore[name-defined,misc]
    """The people who play together across game nights (a family, a club). Reached by
    its view link (``/groups/<view token>``, read only); its edit link carries the right
    to add players, start and attach games. ``preset`` and ``options`` are its usual
    rules (those of its latest game), offered to its next game. ``facts_version`` counts
    up whenever anything its figures pages show changes (a game's stored facts, a new
    player): the pages' ETag. ``language`` is the language of its shared season page (its
    creator's choice; None: each reader's own)."""

    __tablename__ = "groups"
    __table_args__ = (
        UniqueConstraint("view_token", name="uq_groups_view_token"),
        UniqueConstraint("edit_token", name="uq_groups_edit_token"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    preset: Mapped[str] = mapped_column(String(40), default="standard")
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    view_token: Mapped[str] = mapped_column(String(40), default=new_slug)
    edit_token: Mapped[str] = mapped_column(String(40), default=new_token)
    created_at: Mapped[datetime] = mapped_column(default=now_utc)
    facts_version: Mapped[int] = mapped_column(default=0, server_default="0")
    language: Mapped[str | None] = mapped_column(String(10), default=creator_language)

    members: Mapped[list[Member]] = relationship(
        back_populates="group", order_by="Member.id", cascade="all, delete-orphan"
    )


class Member(db.Model):  # type: ignore[name-defined,misc]
    """A player of a group, kept from game to game; a game's seats point at members
    (``players.member_id``, ``digital_games.member_id``); a guest points at none."""

    __tablename__ = "members"
    __table_args__ = (UniqueConstraint("group_id", "name", name="uq_members_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(default=now_utc)

    group: Mapped[Group] = relationship(back_populates="members")


class DigitalRound(db.Model):  # type: ignore[name-defined,misc]
    """A finished round of a digital game (``number`` from 1), written once when it ends:
    ``record`` is the engine's record of the round (an item of ``GameState.rounds``: the
    deal, the moves, the end and the scores, shared/game-record.md), ``scored`` its
    scoring card by card (the scoring contract's response shape; None for a round the
    simulator stopped unscored)."""

    __tablename__ = "digital_rounds"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_digital_rounds_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("digital_games.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column()
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    scored: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)


class DigitalReview(db.Model):  # type: ignore[name-defined,misc]
    """One of the person's moves in a digital game that differed from the expert bot's,
    kept with its round (``number``, as :class:`DigitalRound`) for the review shown at the
    round's end: ``played`` and ``expert`` the two moves in words, ``why`` the expert's
    reason, ``cost`` the expected points the difference gave up (the expert's Monte Carlo
    estimate, never negative)."""

    __tablename__ = "digital_reviews"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(
        ForeignKey("digital_games.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column()
    played: Mapped[str] = mapped_column(String(200))
    expert: Mapped[str] = mapped_column(String(200))
    why: Mapped[str] = mapped_column(String(400))
    cost: Mapped[float] = mapped_column(Float)


class GameFact(db.Model):  # type: ignore[name-defined,misc]
    """The stored facts of one game of a group (at the table: ``game_id``; digital:
    ``digital_game_id``), written by :func:`scorekeeper.groups.facts.store_facts` whenever
    the game changes and never otherwise, so the group's figures are sums over these
    rows, flat in the number of games. A deleted game has no row; an archived one keeps
    its row with ``counts`` False (listed, left out of every figure). ``started_at`` is
    the game's start (a season's dates and the order of the group's games),
    ``finished_at`` its end (None in play), ``winner`` the winning unit (a name, or a
    side's names joined by " & "; "" for a tie), ``stake`` money per point as decimal
    text or None."""

    __tablename__ = "game_facts"
    __table_args__ = (
        UniqueConstraint("game_id", name="uq_game_facts_game"),
        UniqueConstraint("digital_game_id", name="uq_game_facts_digital_game"),
        Index("ix_game_facts_group_started", "group_id", "started_at", "id"),
        Index("ix_game_facts_group_finished", "group_id", "finished_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(10))
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), default=None
    )
    digital_game_id: Mapped[int | None] = mapped_column(
        ForeignKey("digital_games.id", ondelete="CASCADE"), default=None
    )
    counts: Mapped[bool] = mapped_column(default=True)
    started_at: Mapped[datetime]
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    winner: Mapped[str | None] = mapped_column(String(90), default=None)
    stake: Mapped[str | None] = mapped_column(String(20), default=None)


class SeatFact(db.Model):  # type: ignore[name-defined,misc]
    """One seat of a :class:`GameFact` (every seat of a game at the table, guests too;
    only the person of a digital game, never a bot), with the game's ``group_id``,
    ``kind``, ``counts``, ``started_at`` and ``finished`` repeated so the figures are
    read from this table alone. ``unit`` is who scores (the player's name, or their
    side's names joined by " & ", P1); ``own`` the player's own final total and
    ``score`` their unit's (points); ``won`` whether their unit won (a finished game);
    ``settlement_halves`` twice the G3 points the player gains (negative: pays; a side's
    share is split between two partners, hence halves), ``money_half_cents`` the same
    times the stake in cents (None without a stake). The round sums over the game's
    live rounds: ``rounds`` scored, ``went_out`` of them gone out, ``points`` the round
    scores summed and ``best`` the highest (None with no round), ``left`` points left in
    hand over the ``left_rounds`` rounds not gone out whose hand was recorded (a round
    entered by net records none). ``partner_id`` is the member who shares the player's
    side (P1; None without one, or with a guest)."""

    __tablename__ = "seat_facts"
    __table_args__ = (
        Index("ix_seat_facts_member", "group_id", "member_id", "kind", "started_at", "fact_id"),
        Index("ix_seat_facts_best", "group_id", "member_id", "kind", "counts", "best"),
        Index("ix_seat_facts_fact", "fact_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    fact_id: Mapped[int] = mapped_column(ForeignKey("game_facts.id", ondelete="CASCADE"))
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(10))
    counts: Mapped[bool] = mapped_column(default=True)
    started_at: Mapped[datetime]
    finished: Mapped[bool] = mapped_column(default=False)
    member_id: Mapped[int | None] = mapped_column(
        ForeignKey("members.id", ondelete="SET NULL"), default=None
    )
    partner_id: Mapped[int | None] = mapped_column(
        ForeignKey("members.id", ondelete="SET NULL"), default=None
    )
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(40))
    unit: Mapped[str] = mapped_column(String(90))
    own: Mapped[int] = mapped_column(default=0)
    score: Mapped[int] = mapped_column(default=0)
    won: Mapped[bool] = mapped_column(default=False)
    settlement_halves: Mapped[int] = mapped_column(default=0)
    money_half_cents: Mapped[int | None] = mapped_column(default=None)
    rounds: Mapped[int] = mapped_column(default=0)
    went_out: Mapped[int] = mapped_column(default=0)
    points: Mapped[int] = mapped_column(default=0)
    best: Mapped[int | None] = mapped_column(default=None)
    left: Mapped[int] = mapped_column(default=0)
    left_rounds: Mapped[int] = mapped_column(default=0)


class PlayerTotal(db.Model):  # type: ignore[name-defined,misc]
    """A member's figures over every counted game of one ``kind`` in their group, kept
    as running sums of their :class:`SeatFact` rows (counted: ``counts``) by
    :func:`scorekeeper.groups.facts.store_facts` (what a game's new rows add, less what
    its old ones had), so a profile and the season since the group started read one
    row: ``games`` (in play too) and, over them, the round sums (``rounds``,
    ``went_out``, ``points``, ``left``, ``left_rounds``; ``best`` the highest round,
    looked up again through an index); over the finished ones, ``played``, ``won``,
    ``own_points`` (own final totals), ``settlement_halves``, ``money_half_cents``
    (over the ``money_games`` with a stake), ``streak``, the longest run of games won
    in a row, and ``run``, the run of wins up to their latest finished game (a game
    finished after every other one counts on from it; any other change of a result
    counts them again)."""

    __tablename__ = "player_totals"
    __table_args__ = (
        UniqueConstraint("group_id", "member_id", "kind", name="uq_player_totals_member"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(10))
    games: Mapped[int] = mapped_column(default=0)
    played: Mapped[int] = mapped_column(default=0)
    won: Mapped[int] = mapped_column(default=0)
    rounds: Mapped[int] = mapped_column(default=0)
    went_out: Mapped[int] = mapped_column(default=0)
    points: Mapped[int] = mapped_column(default=0)
    best: Mapped[int | None] = mapped_column(default=None)
    left: Mapped[int] = mapped_column(default=0)
    left_rounds: Mapped[int] = mapped_column(default=0)
    own_points: Mapped[int] = mapped_column(default=0)
    settlement_halves: Mapped[int] = mapped_column(default=0)
    money_half_cents: Mapped[int] = mapped_column(default=0)
    money_games: Mapped[int] = mapped_column(default=0)
    streak: Mapped[int] = mapped_column(default=0)
    run: Mapped[int] = mapped_column(default=0)


class PartnerTotal(db.Model):  # type: ignore[name-defined,misc]
    """Two members of a group as partners (P1) over the counted finished games of one
    ``kind``: ``games`` together on one side and ``won`` of them, running sums kept as
    :class:`PlayerTotal`'s are."""

    __tablename__ = "partner_totals"
    __table_args__ = (
        UniqueConstraint(
            "group_id", "member_id", "kind", "partner_id", name="uq_partner_totals_pair"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(10))
    partner_id: Mapped[int] = mapped_column(ForeignKey("members.id", ondelete="CASCADE"))
    games: Mapped[int] = mapped_column(default=0)
    won: Mapped[int] = mapped_column(default=0)


class Job(db.Model):  # type: ignore[name-defined,misc]
    """A piece of work that computes (a bot's move, the expert's hint, the review of a
    person's move, an import), done by a worker process of the queue
    (:mod:`scorekeeper.jobs`), never inside a web request.

    ``kind`` names its handler; ``game_id``, ``version`` and ``seat`` tie it to the
    position it is about (one job per kind, game, version and seat: the same job asked
    twice is the same row, and a job for a version that has passed does nothing);
    ``args`` what the handler needs beyond them (JSON); ``client`` and ``address`` who
    asked (a session's key and a network address: the per-client bounds);
    ``created_at``, ``started_at`` and ``finished_at`` in seconds since the epoch
    (``started_at`` stamped by each attempt, ``attempts`` counted, so a job whose
    worker died is found and run again); ``result`` what it found (a hint), ``error``
    why it failed, in words."""

    __tablename__ = "jobs"
    __table_args__ = (
        UniqueConstraint("kind", "game_id", "version", "seat", name="uq_jobs_position"),
        Index("ix_jobs_waiting", "finished_at", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("digital_games.id", ondelete="CASCADE"), default=None, index=True
    )
    version: Mapped[int] = mapped_column(default=0)
    seat: Mapped[int] = mapped_column(default=0)
    args: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    client: Mapped[str] = mapped_column(String(64), default="", index=True)
    address: Mapped[str] = mapped_column(String(64), default="", index=True)
    created_at: Mapped[float] = mapped_column(Float, default=time.time)
    started_at: Mapped[float | None] = mapped_column(Float, default=None)
    finished_at: Mapped[float | None] = mapped_column(Float, default=None)
    attempts: Mapped[int] = mapped_column(default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    error: Mapped[str | None] = mapped_column(String(400), default=None)
