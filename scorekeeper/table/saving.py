"""What saving a round from the game page reads, in one query: the game with its players
(:class:`.sheets.GameRow`) and its tail (:class:`.sheets.Tail`: how many rounds count,
the highest position, the last live round's summary), whatever the length of the game:
each part of the tail is one step down the index on (game, deleted, position), and the
count is the last round's number (:attr:`Round.summary`; counted only for a last round
stored without it)."""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import BindParameter, Select, String, bindparam, select

from ..extensions import db
from ..models import Game, Player
from .sheets import GAME_COLUMNS, GameRow, SeatRow, Tail, tail_columns, tail_of


@cache
def _query() -> Select[Any]:
    """The statement of :func:`read_for_save`, built once (parameter ``slug``): the game's
    columns, each player's name and side (one row per player, in seat order) and, the
    same on every row, the game's tail (:func:`.sheets.tail_columns`). The game's id
    there is found by its link on its own (not correlated with the outer row), so the
    database works each part out once."""
    games, players = Game.__table__, Player.__table__
    slug: BindParameter[str] = bindparam("slug", type_=String)
    found = (games.c.view_token == slug) & games.c.deleted_at.is_(None)
    inner = games.alias("found")
    game_id = select(inner.c.id).where(inner.c.view_token == slug).scalar_subquery()
    seats = players.join(games, players.c.game_id == games.c.id)
    columns = [games.c[name] for name in GAME_COLUMNS]
    query = select(*columns, players.c.name, players.c.side, *tail_columns(game_id))
    return query.select_from(seats).where(found).order_by(players.c.seat)


def read_for_save(view_token: str) -> tuple[GameRow, Tail] | None:
    """The game at ``view_token`` with its players, and its tail with the last live
    round's summary (``summaries`` holds that one, or none before the first round), in
    one query on the session's connection (no ORM objects, none of the ORM's work per
    statement); None when there is no such game (or it was deleted)."""
    rows = db.session.connection().execute(_query(), {"slug": view_token}).all()
    if not rows:
        return None
    width = len(GAME_COLUMNS)
    first = rows[0]
    seats = tuple(SeatRow(row[width], row[width + 1]) for row in rows)
    game = GameRow(**dict(zip(GAME_COLUMNS, first[:width], strict=True)), players=seats)
    return game, tail_of(game.id, first[width + 2 :])
