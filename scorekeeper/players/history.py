"""A group's figures summed by the database over the stored facts of its games
(:class:`~scorekeeper.models.SeatFact`, one row per seat, written by
:func:`scorekeeper.game_facts.store_facts` whenever a game changes): a profile, two
players head to head, a season's league table. Only games that count are read (in the
group, not deleted, not archived: ``counts``); a guest (no member) or a bot has no
figures. Each figure is one aggregate query over rows found through an index, never a
replay of a game's rounds; a long list comes a page at a time.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import aliased

from ..extensions import db
from ..models import SeatFact
from .figures import (
    PAGE,
    SERIES,
    HeadToHead,
    LeagueRow,
    Profile,
    RoundTally,
    Together,
    ratio,
    round_figures,
)


def _mine(group_id: int, member: int, kind: str) -> Any:
    """The condition of ``member``'s counted seats of ``kind`` in the group."""
    return and_(
        SeatFact.group_id == group_id,
        SeatFact.member_id == member,
        SeatFact.kind == kind,
        SeatFact.counts.is_(True),
    )


def _won(seat: Any = SeatFact) -> Any:
    return func.sum(case((seat.won.is_(True), 1), else_=0))


def profile(group_id: int, member: int, kind: str) -> Profile:
    """``member``'s :class:`Profile` over the group's counted games of ``kind`` ("table"
    or "digital"): the round figures over every such game (in play too), the results
    over the finished ones."""
    mine = _mine(group_id, member, kind)
    done = func.sum(case((SeatFact.finished.is_(True), 1), else_=0))
    row = db.session.execute(
        select(
            func.count(SeatFact.id),
            done,
            _won(),
            func.sum(SeatFact.rounds),
            func.sum(SeatFact.went_out),
            func.sum(SeatFact.points),
            func.max(SeatFact.best),
            func.sum(SeatFact.left),
            func.sum(SeatFact.left_rounds),
        ).where(mine)
    ).one()
    games, played, won, rounds, went_out, points, best, left, left_rounds = row
    result = Profile(played=played or 0, in_play=games - (played or 0), won=won or 0)
    result.win_rate = ratio(result.won, result.played)
    tally = RoundTally(rounds or 0, went_out or 0, points or 0, best, left or 0, left_rounds or 0)
    round_figures(result, tally)
    if result.played:
        result.streak = _streak(mine)
        result.series = _series(mine)
        result.partners = _partners(mine)
    return result


def _order() -> tuple[Any, Any]:
    """The order of a player's games: by start, then as stored."""
    return SeatFact.started_at, SeatFact.fact_id


def _streak(mine: Any) -> int:
    """The longest run of finished games won in a row (counted by the database: the games
    numbered in order, and again among the won ones; a run shares the difference)."""
    every = func.row_number().over(order_by=_order())
    among = func.row_number().over(partition_by=SeatFact.won, order_by=_order())
    numbered = (
        select(SeatFact.won, (every - among).label("run"))
        .where(mine, SeatFact.finished.is_(True))
        .subquery()
    )
    runs = (
        select(func.count().label("length"))
        .where(numbered.c.won.is_(True))
        .group_by(numbered.c.run)
        .subquery()
    )
    return int(db.session.execute(select(func.max(runs.c.length))).scalar_one() or 0)


def _series(mine: Any) -> list[tuple[datetime, int]]:
    """The player's own final total in their latest :data:`SERIES` finished games,
    oldest first."""
    started, fact = _order()
    rows = db.session.execute(
        select(SeatFact.started_at, SeatFact.own)
        .where(mine, SeatFact.finished.is_(True))
        .order_by(started.desc(), fact.desc())
        .limit(SERIES)
    ).all()
    return [(when, own) for when, own in reversed(rows)]


def _partners(mine: Any) -> list[tuple[int, int, int]]:
    """(member id, finished games on the player's side, won together), most first."""
    other = aliased(SeatFact)
    games = func.count(other.id)
    rows = db.session.execute(
        select(other.member_id, games, _won())
        .join(
            other,
            and_(
                other.fact_id == SeatFact.fact_id,
                other.unit == SeatFact.unit,
                other.id != SeatFact.id,
                other.member_id.is_not(None),
            ),
        )
        .where(mine, SeatFact.finished.is_(True))
        .group_by(other.member_id)
        .order_by(games.desc(), other.member_id)
    ).all()
    return [(member, count, won or 0) for member, count, won in rows]


def head_to_head(group_id: int, a: int, b: int, page: int = 0) -> HeadToHead:
    """Members ``a`` and ``b`` over the group's counted finished games both sat in (at
    the table and digital): the sums over all of them, and page ``page`` (from 0) of
    :data:`~.figures.PAGE` games, newest first."""
    me, them = aliased(SeatFact), aliased(SeatFact)
    opposed = me.unit != them.unit
    both = (
        select()
        .select_from(me)
        .join(them, and_(them.fact_id == me.fact_id, them.member_id == b))
        .where(me.group_id == group_id, me.member_id == a, me.counts.is_(True))
        .where(me.finished.is_(True))
    )
    margin = func.sum(case((opposed, me.score - them.score), else_=0))
    games, a_won, b_won, total, apart = db.session.execute(
        both.add_columns(
            func.count(me.id),
            _won(me),
            _won(them),
            margin,
            func.sum(case((opposed, 1), else_=0)),
        )
    ).one()
    listed = db.session.execute(
        both.add_columns(me.started_at, me.kind, me.score, them.score, me.won, them.won)
        .order_by(me.started_at.desc(), me.fact_id.desc())
        .offset(page * PAGE)
        .limit(PAGE + 1)
    ).all()
    together = [Together(r[0], r[1], (r[2], r[3]), (r[4], r[5])) for r in listed]
    return HeadToHead(
        games=games,
        wins=(a_won or 0, b_won or 0),
        margin=ratio(total or 0, apart or 0),
        together=together[:PAGE],
        older=len(together) > PAGE,
    )


def league(
    group_id: int, start: datetime | None = None, end: datetime | None = None
) -> list[LeagueRow]:
    """The league table of the group's counted finished games (at the table and digital)
    started from ``start`` to before ``end`` (either open; naive UTC, as stored): most
    wins first, then most points, then the settlement."""
    query = select(
        SeatFact.member_id,
        func.count(SeatFact.id),
        _won(),
        func.sum(SeatFact.own),
        func.sum(SeatFact.settlement_halves),
        func.sum(SeatFact.money_half_cents),
    ).where(
        SeatFact.group_id == group_id,
        SeatFact.member_id.is_not(None),
        SeatFact.counts.is_(True),
        SeatFact.finished.is_(True),
    )
    if start is not None:
        query = query.where(SeatFact.started_at >= start)
    if end is not None:
        query = query.where(SeatFact.started_at < end)
    rows = [
        LeagueRow(
            member=member,
            played=played,
            won=won or 0,
            points=points or 0,
            settlement=Decimal(halves or 0) / 2,
            money=None if money is None else Decimal(money) / 200,
        )
        for member, played, won, points, halves, money in db.session.execute(
            query.group_by(SeatFact.member_id)
        )
    ]
    return sorted(rows, key=lambda r: (-r.won, -r.points, -r.settlement, r.member))
