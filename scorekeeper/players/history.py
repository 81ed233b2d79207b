"""A group's figures read from the stored facts of its games (written by
:func:`scorekeeper.groups.facts.store_facts` whenever a game changes): a profile and the
season since the group started from each member's running totals
(:class:`~scorekeeper.models.PlayerTotal`, :class:`~scorekeeper.models.PartnerTotal`:
a row each, flat in the number of games); a season between two dates and two players
head to head summed by the database over the seats of those games
(:class:`~scorekeeper.models.SeatFact`); a long list a page at a time. Only games that
count are read (in the group, not deleted, not archived: ``counts``); a guest (no
member) or a bot has no figures; nothing replays a game's rounds.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import ColumnElement, Row, and_, bindparam, case, func, select
from sqlalchemy.orm import aliased

from ..extensions import db
from ..groups.facts import Sums
from ..models import PartnerTotal, PlayerTotal, SeatFact
from .figures import (
    PAGE,
    SERIES,
    HeadToHead,
    LeagueRow,
    Profile,
    Together,
    ratio,
    round_figures,
)


def _won(seat: type[SeatFact] = SeatFact) -> ColumnElement[int]:
    return func.sum(case((seat.won.is_(True), 1), else_=0))


KINDS = ("table", "digital")
"""A profile's kinds of game, in the order the page shows them."""


TOTALS = select(*PlayerTotal.__table__.c).where(
    PlayerTotal.group_id == bindparam("group"), PlayerTotal.member_id == bindparam("member")
)
"""A member's running totals in a group, a row per kind. The profile's statements are
built once, with bound parameters: SQLAlchemy then reuses their compiled form instead of
building and keying a new statement each request."""

SERIES_OF = (
    select(SeatFact.started_at, SeatFact.own)
    .where(
        SeatFact.group_id == bindparam("group"),
        SeatFact.member_id == bindparam("member"),
        SeatFact.kind == bindparam("kind"),
        SeatFact.counts.is_(True),
        SeatFact.finished.is_(True),
    )
    .order_by(SeatFact.started_at.desc(), SeatFact.fact_id.desc())
    .limit(SERIES)
)
"""A member's own final total in their latest :data:`SERIES` counted finished games of
one kind, newest first (read backwards through the index of their games by start)."""

PARTNERS = (
    select(PartnerTotal.partner_id, PartnerTotal.games, PartnerTotal.won)
    .where(
        PartnerTotal.group_id == bindparam("group"),
        PartnerTotal.member_id == bindparam("member"),
        PartnerTotal.kind == bindparam("kind"),
        PartnerTotal.games > 0,
    )
    .order_by(PartnerTotal.games.desc(), PartnerTotal.partner_id)
)
"""A member's partners of one kind: (member id, finished games on the member's side,
won together), most first."""


def profiles(group_id: int, member: int) -> dict[str, Profile]:
    """``member``'s :class:`Profile` for each kind of game (:data:`KINDS`) over the
    group's counted games of that kind, from their running totals (one query, a row
    per kind) and their partners' (a row per partner): the round figures over every
    such game (in play too), the results over the finished ones; the chart's series
    from their latest finished games."""
    totals = db.session.execute(TOTALS, {"group": group_id, "member": member})
    found = {total.kind: total for total in totals}
    return {
        kind: _profile(found[kind], {"group": group_id, "member": member, "kind": kind})
        if kind in found
        else Profile()
        for kind in KINDS
    }


def _profile(total: Row[Any], whose: dict[str, object]) -> Profile:
    """A :class:`Profile` from the running totals row ``total`` of one kind; ``whose``
    the group, member and kind (the parameters of :data:`SERIES_OF` and
    :data:`PARTNERS`)."""
    if not total.games:
        return Profile()
    result = Profile(played=total.played, in_play=total.games - total.played, won=total.won)
    result.win_rate = ratio(total.won, total.played)
    result.streak = total.streak
    tally = Sums(
        total.rounds, total.went_out, total.points, total.best, total.left, total.left_rounds
    )
    round_figures(result, tally)
    if total.played:
        rows = db.session.execute(SERIES_OF, whose).all()
        result.series = [(when, own) for when, own in reversed(rows)]
        partners = db.session.execute(PARTNERS, whose)
        result.partners = [(partner, games, won) for partner, games, won in partners]
    return result


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
    started from ``start`` to before ``end`` (naive UTC, as stored): most wins first,
    then most points, then the settlement. Since the group started (no dates) it is
    read from the players' running totals; between dates it is summed over the
    season's games."""
    rows = [
        LeagueRow(
            member=member,
            played=played,
            won=won or 0,
            points=points or 0,
            settlement=Decimal(halves or 0) / 2,
            money=Decimal(money or 0) / 200 if stakes else None,
        )
        for member, played, won, points, halves, money, stakes in db.session.execute(
            SINCE_START if start is None and end is None else _between(start, end),
            {"group": group_id},
        )
        if played
    ]
    return sorted(rows, key=lambda r: (-r.won, -r.points, -r.settlement, r.member))


SINCE_START = (
    select(
        PlayerTotal.member_id,
        func.sum(PlayerTotal.played),
        func.sum(PlayerTotal.won),
        func.sum(PlayerTotal.own_points),
        func.sum(PlayerTotal.settlement_halves),
        func.sum(PlayerTotal.money_half_cents),
        func.sum(PlayerTotal.money_games),
    )
    .where(PlayerTotal.group_id == bindparam("group"))
    .group_by(PlayerTotal.member_id)
)
"""Each member's season since the group started: their running totals, both kinds
(built once, as the profile's statements)."""


def _between(start: datetime | None, end: datetime | None) -> Any:
    """Each member's season between two dates (either open), summed over its games (the
    group a bound parameter, as in :data:`SINCE_START`)."""
    query = select(
        SeatFact.member_id,
        func.count(SeatFact.id),
        _won(),
        func.sum(SeatFact.own),
        func.sum(SeatFact.settlement_halves),
        func.sum(SeatFact.money_half_cents),
        func.count(SeatFact.money_half_cents),
    ).where(
        SeatFact.group_id == bindparam("group"),
        SeatFact.member_id.is_not(None),
        SeatFact.counts.is_(True),
        SeatFact.finished.is_(True),
    )
    if start is not None:
        query = query.where(SeatFact.started_at >= start)
    if end is not None:
        query = query.where(SeatFact.started_at < end)
    return query.group_by(SeatFact.member_id)
