"""What saving a round from the game page reads, in one query: the game with its players
(:class:`.reading.GameRow`) and its tail (:class:`.reading.Tail`: how many rounds count,
the highest position, the last live round's summary), whatever the length of the game."""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import BindParameter, Select, String, bindparam, func, select

from ..extensions import db
from ..models import Game, Player, Round
from .reading import GAME_COLUMNS, GameRow, SeatRow, Tail


@cache
def _query() -> Select[Any]:
    """The statement of :func:`read_for_save`, built once (parameter ``slug``): the game's
    columns, each player's name and side (one row per player, in seat order) and, the
    same on every row, the live rounds' count, the highest position of any round and the
    last live round's summary. The three subqueries find the game by its link on their
    own (not correlated with the outer row), so the database works each out once."""
    games, players, rounds = Game.__table__, Player.__table__, Round.__table__
    slug: BindParameter[str] = bindparam("slug", type_=String)
    found = (games.c.view_token == slug) & games.c.deleted_at.is_(None)
    inner = games.alias("found")
    game_id = select(inner.c.id).where(inner.c.view_token == slug).scalar_subquery()
    live = (rounds.c.game_id == game_id) & rounds.c.deleted.is_(False)
    count = select(func.count(rounds.c.id)).where(live).scalar_subquery()
    top = select(func.max(rounds.c.position)).where(rounds.c.game_id == game_id)
    last = select(rounds.c.summary).where(live).order_by(rounds.c.position.desc()).limit(1)
    seats = players.join(games, players.c.game_id == games.c.id)
    columns = [games.c[name] for name in GAME_COLUMNS]
    query = select(
        *columns,
        players.c.name,
        players.c.side,
        count,
        top.scalar_subquery(),
        last.scalar_subquery(),
    )
    return query.select_from(seats).where(found).order_by(players.c.seat)


def read_for_save(view_token: str) -> tuple[GameRow, Tail] | None:
    """The game at ``view_token`` with its players, and its tail with the last live
    round's summary (``summaries`` holds that one, or none before the first round), in
    one query and no ORM objects; None when there is no such game (or it was deleted)."""
    rows = db.session.execute(_query(), {"slug": view_token}).all()
    if not rows:
        return None
    width = len(GAME_COLUMNS)
    first = rows[0]
    seats = tuple(SeatRow(row[width], row[width + 1]) for row in rows)
    game = GameRow(**dict(zip(GAME_COLUMNS, first[:width], strict=True)), players=seats)
    count, top, last = first[width + 2 :]
    return game, Tail(int(count), int(top or 0), [last] if last is not None else [])
