"""Reading a game at a real table: its rules, players and sides, and its rounds, either
all of them or, for the game page and for saving a round, only the latest few (a fixed
number of small queries, whatever the length of the game)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from sqlalchemy import (
    BindParameter,
    Integer,
    Select,
    String,
    Text,
    bindparam,
    cast,
    func,
    select,
)
from sqlalchemy.orm import joinedload, load_only, selectinload

from ..engine import RuleSet, ruleset
from ..extensions import db
from ..models import Game, Round


def rules_of(game: Game) -> RuleSet:
    """The game's :class:`RuleSet`: its preset with its house rules."""
    return ruleset(game.preset, game.options)


def names_of(game: Game) -> list[str]:
    """The players' names in seat order."""
    return [p.name for p in game.players]


def teams_of(game: Game) -> tuple[tuple[str, ...], ...] | None:
    """The two sides (P1) as tuples of names, or None without partnership rules."""
    if not any(p.side is not None for p in game.players):
        return None
    return tuple(tuple(p.name for p in game.players if p.side == s) for s in (0, 1))


def live_rounds(game: Game) -> list[Round]:
    """The rounds that count, in order (deleted rounds left out)."""
    return [r for r in game.rounds if not r.deleted]


@cache
def _game_query(rounds: bool) -> Select[Game]:
    """The statement of :func:`get_game`, built once (parameter ``slug``)."""
    options = [joinedload(Game.players)]
    if rounds:
        options.append(selectinload(Game.rounds))
    slug: BindParameter[str] = bindparam("slug", type_=String)
    found = (Game.view_token == slug) & Game.deleted_at.is_(None)
    return select(Game).where(found).options(*options)


def get_game(view_token: str, *, rounds: bool = True) -> Game | None:
    """The game whose view link carries ``view_token``, or None (also when deleted);
    players loaded with it, and its rounds unless ``rounds`` is False (the game page and
    saving a round read only the rounds they need, :func:`latest_rounds`)."""
    found = db.session.execute(_game_query(rounds), {"slug": view_token})
    return found.unique().scalar_one_or_none()


def game_version(view_token: str) -> int | None:
    """The version of the game at ``view_token`` (one small query), or None."""
    query = db.select(Game.version).where(Game.view_token == view_token, Game.deleted_at.is_(None))
    return db.session.execute(query).scalar_one_or_none()


def _live(game: Game) -> Select[Round]:
    return select(Round).where(Round.game_id == game.id, Round.deleted.is_(False))


def live_count(game: Game) -> int:
    """How many rounds count in ``game`` (one COUNT query)."""
    return count_live(game.id)


def latest_rounds(game: Game, limit: int | None) -> list[Round]:
    """The last ``limit`` rounds that count (all when None), oldest first, each loaded
    with its mode, version and summary only (input and figures load when used)."""
    query = (
        _live(game)
        .options(load_only(Round.id, Round.position, Round.mode, Round.version, Round.summary))
        .order_by(Round.position.desc())
    )
    if limit is not None:
        query = query.limit(limit)
    return list(reversed(db.session.execute(query).scalars().all()))


@dataclass(frozen=True)
class ShownRound:
    """A live round as the game page lists it, read without the ORM: its ``id``,
    ``position``, ``mode``, ``version`` and :attr:`Round.summary`; ``figures`` (the full
    figures) only for the last round of a game that is over (its outcome, P5's bonus),
    else None."""

    id: int
    position: int
    mode: str
    version: int
    summary: dict[str, Any]
    figures: dict[str, Any] | None = None

    @property
    def totals(self) -> dict[str, Any]:
        """The summary (as :attr:`Round.totals`)."""
        return self.summary


@cache
def _page_query(limited: bool) -> Select[Any]:
    """The statement of :func:`page_rounds`, built once (parameters ``game`` and, when
    ``limited``, ``limit``); the summaries come as their JSON text, read in one go."""
    rounds = Round.__table__
    game: BindParameter[int] = bindparam("game", type_=Integer)
    live = (rounds.c.game_id == game) & rounds.c.deleted.is_(False)
    summary = cast(rounds.c.summary, Text)
    columns = (rounds.c.id, rounds.c.position, rounds.c.mode, rounds.c.version, summary)
    query = select(*columns).where(live).order_by(rounds.c.position.desc())
    return query.limit(bindparam("limit")) if limited else query


def page_rounds(game: Game, limit: int | None) -> tuple[list[ShownRound], int]:
    """The last ``limit`` live rounds (all when None), oldest first, and how many rounds
    count in all, in one query down the index on (game, deleted, position), whatever
    the length of the game: the count is the last round's number in its summary
    (:attr:`Round.summary`; counted by a query only for a last round stored without
    it); once the game is over, the last round's figures too."""
    params = {"game": game.id} if limit is None else {"game": game.id, "limit": limit}
    found = db.session.connection().execute(_page_query(limit is not None), params).all()
    shown = _shown(list(reversed(found)))
    if shown and game.winner:
        shown[-1] = replace(shown[-1], figures=last_figures(game))
    if limit is None or len(shown) < limit:
        return shown, len(shown)
    return shown, _count(game, shown)


def _shown(rows: Sequence[Sequence[Any]]) -> list[ShownRound]:
    """The rounds of ``rows`` (``id, position, mode, version`` and the summary's JSON
    text, oldest first), their summaries read in one go."""
    summaries = json.loads(f"[{','.join(row[4] or 'null' for row in rows)}]")
    return [
        ShownRound(row[0], row[1], row[2], row[3], summary)
        for row, summary in zip(rows, summaries, strict=True)
    ]


def _count(game: Game, latest: Sequence[ShownRound]) -> int:
    """How many rounds count, given the ``latest`` live rounds (oldest first): the last
    one's number in its summary (counted by a query for a round stored before summaries
    held it); 0 when none."""
    if not latest:
        return 0
    last = latest[-1].summary or {}
    return int(last["number"]) if "number" in last else count_live(game.id)


def count_live(game_id: int) -> int:
    """How many rounds count in the game ``game_id`` (one COUNT query)."""
    live = (Round.game_id == game_id) & Round.deleted.is_(False)
    return int(db.session.execute(select(func.count(Round.id)).where(live)).scalar_one())


def round_number(round_: Round) -> int:
    """The number of a live round as the page shows it (deleted rounds not counted)."""
    query = db.select(func.count(Round.id)).where(
        Round.game_id == round_.game_id,
        Round.deleted.is_(False),
        Round.position <= round_.position,
    )
    return int(db.session.execute(query).scalar_one())


def previous_round(game: Game, position: int | None) -> Round | None:
    """The last live round placed before ``position`` (before the end when None), or
    None when there is none."""
    query = _live(game)
    if position is not None:
        query = query.where(Round.position < position)
    query = query.order_by(Round.position.desc()).limit(1)
    return db.session.execute(query).scalar_one_or_none()


def state_of(round_: Round | None) -> dict[str, object] | None:
    """A round's state as the history keeps it: ``{"mode", "input", "deleted"}``."""
    if round_ is None:
        return None
    return {"mode": round_.mode, "input": round_.input, "deleted": round_.deleted}


@dataclass(frozen=True)
class Tail:
    """What saving a round reads of a game: ``count``, the rounds that count; ``top``,
    the highest position of any round (deleted ones too, 0 when none); ``latest``, the
    last live rounds as the game page lists them (oldest first, at most as many as
    asked; none before the first round)."""

    count: int
    top: int
    latest: list[ShownRound]

    @property
    def last(self) -> dict[str, Any] | None:
        """The :attr:`Round.summary` of the last live round (None before the first)."""
        return self.latest[-1].summary if self.latest else None


@cache
def _tail_query(latest: bool) -> Select[Any]:
    """The statements of :func:`tail`, built once (parameter ``game``): the last deleted
    round's position beside each of the latest live rounds as :func:`page_rounds` reads
    them (parameter ``limit``) or, when ``latest`` is False, alone; each down the index on
    (game, deleted, position), whatever the length of the game."""
    rounds = Round.__table__
    game: BindParameter[int] = bindparam("game", type_=Integer)
    deleted = (rounds.c.game_id == game) & rounds.c.deleted.is_(True)
    deleted_top = (
        select(rounds.c.position).where(deleted).order_by(rounds.c.position.desc()).limit(1)
    ).scalar_subquery()
    if not latest:
        return select(deleted_top)
    page = _page_query(True)
    return page.with_only_columns(deleted_top, *page.selected_columns)


def tail(game: Game, shown: int = 1) -> Tail:
    """The game's :class:`Tail` with its ``shown`` latest live rounds (at least the last
    one), in one query (:func:`_tail_query`; a second, one step down the index, only
    when no round counts): the count is the last round's number (:attr:`Round.summary`;
    counted by a query only for a last round stored before summaries held it)."""
    connection = db.session.connection()
    params = {"game": game.id, "limit": max(shown, 1)}
    found = connection.execute(_tail_query(True), params).all()
    if not found:
        deleted_top = connection.execute(_tail_query(False), {"game": game.id}).scalar()
        return Tail(0, deleted_top or 0, [])
    latest = _shown([row[1:] for row in reversed(found)])
    return Tail(_count(game, latest), max(found[0][0] or 0, latest[-1].position), latest)


def last_figures(game: Game) -> dict[str, Any]:
    """The figures of the game's last live round (``{}`` when none)."""
    query = select(Round.figures).where(Round.game_id == game.id, Round.deleted.is_(False))
    found = db.session.execute(query.order_by(Round.position.desc()).limit(1)).scalar()
    return found or {}
