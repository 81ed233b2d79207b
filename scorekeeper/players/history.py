"""A group's games as :class:`~.figures.GameFacts`, read from the stored games on every
request: games at the table from their live rounds' figures (the scoring contract's
``players``) and who went out, digital games from their finished rounds' rows (each
round's ``scores`` and who went out, :func:`digital_rounds`). Only games that count are
read: in the group, not deleted, not archived; in a digital game only the person counts,
never a bot.

At the table the database does the counting: two queries give the games and each
player's total in their last live round, and one more sums a player's round figures
(:func:`table_tally`); the rounds' JSON is read inside the database (SQLite's
json_each and json_extract, PostgreSQL's json_each and json_extract_path_text), never
decoded in Python, and a round's card list is never read. A player's figures are found
by comparing their name with the keys of the round's ``players`` (:func:`_seats`), never
through a JSON path spelled from the name, so every name counts (Zoë, Al "Ace").
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from functools import cache
from typing import Any

from sqlalchemy import JSON, Integer, and_, bindparam, case, cast, func, or_, select
from sqlalchemy.orm import aliased

from ..engine.scoring.outcome import settle
from ..extensions import db
from ..models import DigitalGame, DigitalRound, Game, Player, Round
from .figures import GameFacts, RoundFacts, RoundTally, settlement_shares


def group_facts(group_id: int) -> list[GameFacts]:
    """Every game of the group that counts, at the table and digital, oldest first."""
    facts = table_facts(group_id) + digital_facts(group_id)
    return sorted(facts, key=lambda g: g.when)


def _counted_games(group_id: Any) -> Any:
    return select(Game.id).where(
        Game.group_id == group_id, Game.deleted_at.is_(None), Game.archived_at.is_(None)
    )


def _rows(query: Any, **values: int) -> Any:
    """The rows of a plain ``query`` (columns only) with its bound ``values``, run on the
    session's connection without the ORM's result processing."""
    return db.session.connection().execute(query, values)


def _dialect() -> str:
    """The name of the session's database dialect ("sqlite", "postgresql")."""
    return str(db.session.get_bind().dialect.name)


def _json_text(dialect: str, column: Any, *keys: str) -> Any:
    """The value at ``keys`` inside a JSON ``column``, computed by the database (SQLite's
    json_extract, PostgreSQL's json_extract_path_text: text there, cast it for numbers).
    The keys are words of the stored shape ("went_out", "total"), never a name: a JSON path
    cannot spell every name (Zoë, Al "Ace"), see :func:`_seats`."""
    if dialect == "postgresql":
        return func.json_extract_path_text(column, *keys)
    return func.json_extract(column, "$." + ".".join(keys))


def _seats(dialect: str) -> Any:
    """Each player's figures in the joined round (the scoring contract's ``players``) as
    rows of ``key`` (the player's name) and ``value`` (their figures), unpacked by the
    database (SQLite's json_each, PostgreSQL's lateral json_each). A query joins it to a
    player on the name, so a name is compared as a value, never put in a JSON path."""
    if dialect == "postgresql":
        rows = func.json_each(func.json_extract_path(Round.figures, "players"))
        return rows.table_valued("key", "value").lateral("seat")
    return func.json_each(Round.figures, "$.players").table_valued("key", "value").alias("seat")


def _figure(dialect: str, seats: Any, key: str) -> Any:
    """The contract figure ``key`` of a player's row of :func:`_seats`, as an integer."""
    return cast(_json_text(dialect, seats.c.value, key), Integer)


def _last_round(player: Any) -> Any:
    """The join condition of a ``player``'s game and its last live round."""
    live = and_(Round.game_id == player.game_id, Round.deleted.is_(False))
    last = select(func.max(Round.position)).where(live).correlate(player).scalar_subquery()
    return and_(live, Round.position == last)


def table_facts(group_id: int) -> list[GameFacts]:
    """The group's games at the table that count, without their rounds (see
    :func:`table_tally`): each player's own total is their figure in the game's last live
    round. Plain rows, no ORM objects, no JSON decoded in Python: a group may hold a
    thousand games."""
    counted = _counted_games(group_id)
    columns = (Game.id, Game.created_at, Game.title, Game.stake, Game.winner, Game.finished_at)
    games = _rows(select(*columns).where(Game.id.in_(counted))).all()
    seats: dict[int, list[tuple[str, int | None, int | None, int | None]]] = defaultdict(list)
    dialect = _dialect()
    figures = _seats(dialect)
    query = (
        select(
            Player.game_id,
            Player.name,
            Player.side,
            Player.member_id,
            _figure(dialect, figures, "total"),
        )
        .outerjoin(Round, _last_round(Player))
        .outerjoin(figures, figures.c.key == Player.name)
        .where(Player.game_id.in_(counted))
        .order_by(Player.game_id, Player.seat)
    )
    for game_id, name, side, member, total in _rows(query):
        seats[game_id].append((name, side, member, total))
    return [_table_game(row, seats[row.id]) for row in games]


def member_facts(group_id: int, member: int) -> list[GameFacts]:
    """The group's table games that count in which ``member`` sat, as far as a profile
    needs them: only ``member`` and their partner (P1) in ``unit``, ``member``'s own
    total, the winners; no settlement, no rounds (see :func:`table_tally`)."""
    query, mates, _ = _profile_queries(_dialect())
    partner = {row.game_id: row for row in _rows(mates, group_id=group_id, member=member)}
    rows = _rows(query, group_id=group_id, member=member)
    return [_member_game(member, row, partner.get(row.id)) for row in rows]


@cache
def _profile_queries(dialect: str) -> tuple[Any, Any, Any]:
    """A profile's statements for ``dialect``, built once (the SQL, never any figure; the
    group and the member are bound at each run): the member's games with their own
    total, their partners in those games, and their round tally."""
    me, mate = aliased(Player), aliased(Player)
    counted = _counted_games(bindparam("group_id"))
    member: Any = bindparam("member")
    figures = _seats(dialect)
    games = (
        select(Game.id, Game.created_at, Game.title, Game.winner, Game.finished_at)
        .add_columns(me.name, me.seat, _figure(dialect, figures, "total").label("total"))
        .join(me, me.game_id == Game.id)
        .outerjoin(Round, _last_round(me))
        .outerjoin(figures, figures.c.key == me.name)
        .where(me.member_id == member, Game.id.in_(counted))
    )
    mates = (
        select(mate.game_id, mate.name, mate.seat, mate.member_id)
        .join(me, and_(me.game_id == mate.game_id, me.side == mate.side, me.id != mate.id))
        .where(me.member_id == member, me.game_id.in_(counted))
    )
    return games, mates, _tally_query(dialect, member, counted)


def _member_game(member: int, row: Any, mate: Any) -> GameFacts:
    seats = [(row.seat, row.name, member)]
    if mate is not None:
        seats = sorted([*seats, (mate.seat, mate.name, mate.member_id)])
    side = " & ".join(name for _, name, _ in seats)
    unit = {m: side for _, _, m in seats if m is not None}
    finished = row.finished_at is not None
    return GameFacts(
        key=f"t{row.id}",
        kind="table",
        when=row.created_at,
        title=row.title or "",
        finished=finished,
        unit=unit,
        score={},
        own={member: row.total or 0},
        winners=frozenset(m for m in unit if finished and row.winner == side),
        settlement={},
        money={},
        rounds=[],
    )


def table_tally(group_id: int, member: int) -> RoundTally:
    """``member``'s round figures over the live rounds of the group's table games that
    count, summed by the database (one query, one row). Points left in hand count only
    the rounds entered with a hand (not by net, where the hand is not recorded)."""
    query = _profile_queries(_dialect())[2]
    rounds, gone, total, best, left, left_rounds = _rows(
        query, group_id=group_id, member=member
    ).one()
    return RoundTally(rounds, gone or 0, total or 0, best, left or 0, left_rounds or 0)


def _tally_query(dialect: str, member: Any, counted: Any) -> Any:
    went_out = _json_text(dialect, Round.input, "went_out") == Player.name
    figures = _seats(dialect)
    points, in_hand = _figure(dialect, figures, "round"), _figure(dialect, figures, "in_hand")
    unknown = or_(went_out, Round.mode == "net")  # a round entered by net leaves no hand
    return (
        select(
            func.count(points),
            func.sum(case((went_out, 1), else_=0)),
            func.sum(points),
            func.max(points),
            func.sum(case((unknown, 0), else_=in_hand)),
            func.sum(case((unknown, 0), else_=1)),
        )
        .select_from(Round)
        .join(Player, Player.game_id == Round.game_id)
        .join(figures, figures.c.key == Player.name)
        .where(
            Player.member_id == member,
            Round.game_id.in_(counted),
            Round.deleted.is_(False),
            points.is_not(None),
        )
    )


def _units(seats: Sequence[str], sides: Sequence[Sequence[str]] | None) -> dict[str, str]:
    """Each player's unit: their own name, or their side's names joined by " & " (P1)."""
    if not sides:
        return {name: name for name in seats}
    return {name: " & ".join(side) for side in sides for name in side}


def _table_game(
    game: Any, players: list[tuple[str, int | None, int | None, int | None]]
) -> GameFacts:
    names = [name for name, _, _, _ in players]
    sides = None
    if any(side is not None for _, side, _, _ in players):
        sides = [[name for name, side, _, _ in players if side == s] for s in (0, 1)]
    members = {name: member for name, _, member, _ in players}
    own = {name: total or 0 for name, _, _, total in players}
    stake = Decimal(game.stake) if game.stake else None
    return _facts(
        f"t{game.id}",
        "table",
        (game.created_at, game.title or ""),
        (names, sides, members),
        (own, []),
        (game.finished_at is not None, game.winner, stake),
    )


def digital_facts(group_id: int) -> list[GameFacts]:
    """The group's digital games that count: the person's seat only, with the game's
    finished rounds as they are stored (:func:`digital_rounds`)."""
    query = select(DigitalGame).where(
        DigitalGame.group_id == group_id,
        DigitalGame.archived_at.is_(None),
        DigitalGame.member_id.is_not(None),
    )
    games = list(db.session.execute(query).scalars())
    rounds = digital_rounds([game.id for game in games])
    found = []
    for game in games:
        state = game.state
        person = state["players"][game.human_seat]
        seats = (state["players"], state.get("teams"), {person: game.member_id})
        played = rounds.get(game.id, [])
        last = played[-1][0] if played else {}
        own = {name: int(last.get(name, {}).get("total", 0)) for name in state["players"]}
        found.append(
            _facts(
                f"d{game.id}",
                "digital",
                (game.created_at, ""),
                seats,
                (own, played),
                (game.finished, game.winner, None),
            )
        )
    return found


def digital_rounds(game_ids: Sequence[int]) -> dict[int, list[tuple[dict[str, Any], Any]]]:
    """The finished rounds of the digital games ``game_ids``, oldest first, by game:
    each round's ``scores`` (the engine's figures by name: ``round``, ``in_hand``,
    ``total``) and who went out (a name, or None), read from the rounds' rows
    (:class:`~scorekeeper.models.DigitalRound`: the engine's record of each round, of
    which only these two are taken out, by the database). A round stored unscored is
    left out."""
    if not game_ids:
        return {}
    dialect = _dialect()
    record = DigitalRound.record
    scores = (
        func.json_extract_path(record, "scores", type_=JSON)
        if dialect == "postgresql"
        else func.json_extract(record, "$.scores", type_=JSON)
    )
    query = (
        select(DigitalRound.game_id, scores, _json_text(dialect, record, "end", "went_out"))
        .where(DigitalRound.game_id.in_(game_ids))
        .order_by(DigitalRound.game_id, DigitalRound.number)
    )
    found: dict[int, list[tuple[dict[str, Any], Any]]] = defaultdict(list)
    for game_id, figures, went_out in _rows(query):
        if figures:
            found[game_id].append((figures, went_out))
    return found


def _facts(
    key: str,
    kind: Any,
    when: tuple[datetime, str],
    seats: tuple[Sequence[str], Sequence[Sequence[str]] | None, Mapping[str, int | None]],
    play: tuple[Mapping[str, int], list[tuple[dict[str, Any], Any]]],
    result: tuple[bool, str | None, Decimal | None],
) -> GameFacts:
    """The facts of one game: ``seats`` (names in seat order, sides or None, member id
    per name), its ``play``: each player's own total by name and its live rounds
    (contract ``players`` figures, who went out; may be left empty), and its
    ``result`` (finished, winner unit, stake); ``when`` is (started, title)."""
    names, sides, ids = seats
    own, rounds = play
    finished, winner, stake = result
    members = {name: m for name, m in ids.items() if m is not None}
    units = _units(names, sides)
    unit_totals = Counter[str]()
    for name in names:
        unit_totals[units[name]] += own[name]
    unit = {m: units[name] for name, m in members.items()}
    shares: dict[int, Decimal] = {}
    if finished and winner:
        shares = settlement_shares(unit, Counter(units.values()), settle(unit_totals, winner))
    return GameFacts(
        key=key,
        kind=kind,
        when=when[0],
        title=when[1],
        finished=finished,
        unit=unit,
        score={m: unit_totals[unit[m]] for m in unit},
        own={m: own[name] for name, m in members.items()},
        winners=frozenset(m for m in unit if finished and winner == unit[m]),
        settlement=shares,
        money={m: v * stake for m, v in shares.items()} if stake is not None else {},
        rounds=[_round(players, went_out, members) for players, went_out in rounds],
    )


def _round(players: Mapping[str, Any], went_out: Any, members: Mapping[str, int]) -> RoundFacts:
    return RoundFacts(
        points={m: int(players[n]["round"]) for n, m in members.items() if n in players},
        in_hand={m: int(players[n]["in_hand"]) for n, m in members.items() if n in players},
        went_out=members.get(went_out) if isinstance(went_out, str) else None,
    )
