"""A group's games as stored facts: one :class:`~scorekeeper.models.GameFact` row per game
of a group and one :class:`~scorekeeper.models.SeatFact` row per seat that counts, so a
group's figures (profile, head to head, season, tonight's tally) are sums over rows,
flat in the number of games, never a replay of every game's rounds.

One function writes them, :func:`store_facts`, from the game as it is stored (its live
rounds' figures at the table, its finished rounds' scores in a digital game): every
path that changes a game of a group calls it in the same transaction (a round
recorded, corrected, deleted or undone; a game deleted or restored; attached,
archived, brought back or detached; a group's file imported; a digital round
finished), and the migration that made the tables called it on every existing game.
It also counts the group's ``facts_version`` up (the pages' ETag).

Shared by the table and the players features (like :mod:`scorekeeper.groups.members`): it reads
the tables through the connection it is given (SQLAlchemy Core, no ORM), so the
migration can run it too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import ColumnElement, Connection, Table, and_, case, delete, insert, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ..engine import settle
from ..extensions import db
from ..models import (
    DigitalGame,
    DigitalRound,
    Game,
    GameFact,
    Group,
    PartnerTotal,
    Player,
    PlayerTotal,
    Round,
    SeatFact,
)

GAMES, DIGITAL, GROUPS = Game.__table__, DigitalGame.__table__, Group.__table__
FACTS, SEATS = GameFact.__table__, SeatFact.__table__
PLAYERS, PARTNERS = PlayerTotal.__table__, PartnerTotal.__table__
ROUND_SUMS = ("rounds", "went_out", "points", "left", "left_rounds")
"""A seat's round sums, added up in its member's :class:`~scorekeeper.models.PlayerTotal`."""


@dataclass
class Sums:
    """A player's round sums over some rounds (points): ``rounds`` counted, ``went_out``
    of them gone out, ``points`` the round scores summed and ``best`` the highest (None
    with no round), ``left`` the points left in hand summed over the ``left_rounds``
    rounds not gone out (whose hand was recorded). A seat's over a game's live rounds
    (:class:`~scorekeeper.models.SeatFact`, :meth:`add` counting each), or a member's
    over their games (:class:`~scorekeeper.models.PlayerTotal`, the figures' pages)."""

    rounds: int = 0
    went_out: int = 0
    points: int = 0
    best: int | None = None
    left: int = 0
    left_rounds: int = 0

    def add(self, figures: Mapping[str, Any], went_out: bool, hand_known: bool) -> None:
        """Count one round: the player's contract ``figures`` (``round``, ``in_hand``),
        whether they went out, whether their hand was recorded (not a net round)."""
        points = int(figures["round"])
        self.rounds += 1
        self.went_out += went_out
        self.points += points
        self.best = points if self.best is None else max(self.best, points)
        if not went_out and hand_known:
            self.left += int(figures["in_hand"])
            self.left_rounds += 1


@dataclass(frozen=True)
class Played:
    """A game as :func:`facts_rows` needs it: ``names`` in seat order, ``units`` (each
    seat's unit: its name, or its side's names joined by " & ", P1), ``members``
    (member id per name, None for a guest), the seats that get a row (``counted``:
    every seat at the table, the person of a digital game), the rounds as (players'
    contract figures by name, who went out, hand recorded), oldest first, and the
    result: ``finished``, ``winner``, ``stake`` (decimal text or None)."""

    names: Sequence[str]
    units: Sequence[str]
    members: Sequence[int | None]
    counted: Sequence[int]
    rounds: Sequence[tuple[Mapping[str, Any], Any, bool]]
    finished: bool
    winner: str | None
    stake: str | None


def units_of(names: Sequence[str], sides: Sequence[Sequence[str]] | None) -> list[str]:
    """Each seat's unit: its own name, or its side's names (``sides``, P1) joined by
    " & "."""
    if not sides:
        return list(names)
    joined = {name: " & ".join(side) for side in sides for name in side}
    return [joined[name] for name in names]


def _halves(played: Played, units: Sequence[str], own: Mapping[str, int]) -> dict[str, int]:
    """Each unit's G3 settlement in half points per player of the unit (a side's net is
    split between its two partners): empty until the game has a winner."""
    if not played.finished or not played.winner:
        return {}
    totals = Counter[str]()
    for name, unit in zip(played.names, units, strict=True):
        totals[unit] += own[name]
    if played.winner not in totals:
        return {}
    net = Counter[str]()
    for payer, payee, points in settle(totals, played.winner):
        net[payer] -= points
        net[payee] += points
    sizes = Counter(units)
    return {unit: 2 * net[unit] // sizes[unit] for unit in totals}


def facts_rows(played: Played) -> list[dict[str, object]]:
    """The seat rows of ``played`` (columns of :class:`~scorekeeper.models.SeatFact`
    that depend on the game's play, not on where it is stored)."""
    last = played.rounds[-1][0] if played.rounds else {}
    own = {name: int(last.get(name, {}).get("total", 0)) for name in played.names}
    units = played.units
    score = Counter[str]()
    for name, unit in zip(played.names, units, strict=True):
        score[unit] += own[name]
    halves = _halves(played, units, own)
    cents = int(Decimal(played.stake) * 100) if played.stake else None
    rows = []
    for seat in played.counted:
        name, unit = played.names[seat], units[seat]
        partner = _partner(played, seat)
        sums = _sums(played, name)
        share = halves.get(unit, 0)
        rows.append(
            {"seat": seat, "name": name, "member_id": played.members[seat], "unit": unit}
            | {"partner_id": partner}
            | {"own": own[name], "score": score[unit], "settlement_halves": share}
            | {"won": played.finished and played.winner == unit}
            | {"money_half_cents": share * cents if cents is not None else None}
            | asdict(sums)
        )
    return rows


def _partner(played: Played, seat: int) -> int | None:
    """The member id of ``seat``'s partner (the other member of its side, P1), or None."""
    units = played.units
    return next(
        (m for i, m in enumerate(played.members) if i != seat and units[i] == units[seat] and m),
        None,
    )


def _sums(played: Played, name: str) -> Sums:
    """The round sums of the player ``name`` over the rounds of ``played``."""
    sums = Sums()
    for figures, went_out, hand_known in played.rounds:
        if name in figures:
            sums.add(figures[name], went_out == name, hand_known)
    return sums


def _table_game(connection: Connection, game_id: int) -> tuple[dict[str, Any], Played] | None:
    """The stored facts' game row and :class:`Played` of a game at the table, or None
    when it is in no group or deleted."""
    game = connection.execute(select(GAMES).where(GAMES.c.id == game_id)).one_or_none()
    if game is None or game.group_id is None or game.deleted_at is not None:
        return None
    seats = Player.__table__
    players = connection.execute(
        select(seats.c.name, seats.c.side, seats.c.member_id)
        .where(seats.c.game_id == game_id)
        .order_by(seats.c.seat)
    ).all()
    names = [p.name for p in players]
    sides = None
    if any(p.side is not None for p in players):
        sides = [[p.name for p in players if p.side == side] for side in (0, 1)]
    rounds = Round.__table__
    live = connection.execute(
        select(rounds.c.mode, rounds.c.input, rounds.c.figures)
        .where(rounds.c.game_id == game_id, rounds.c.deleted.is_(False))
        .order_by(rounds.c.position)
    ).all()
    row = {"kind": "table", "game_id": game_id, "digital_game_id": None}
    row |= {"finished_at": game.finished_at, "winner": game.winner, "stake": game.stake}
    played = Played(
        names=names,
        units=units_of(names, sides),
        members=[p.member_id for p in players],
        counted=range(len(players)),
        rounds=[
            ((r.figures or {}).get("players", {}), (r.input or {}).get("went_out"), r.mode != "net")
            for r in live
        ],
        finished=game.finished_at is not None,
        winner=game.winner,
        stake=game.stake,
    )
    return _placed(row, game), played


def _placed(row: dict[str, Any], game: Any) -> dict[str, Any]:
    """``row`` with where the game is: its group, whether it counts, its start."""
    counts = game.archived_at is None
    return row | {"group_id": game.group_id, "counts": counts, "started_at": game.created_at}


def _digital_game(connection: Connection, game_id: int) -> tuple[dict[str, Any], Played] | None:
    """The stored facts' game row and :class:`Played` of a digital game (its person's
    seat only, never a bot, and none when the person is no player of the group), or
    None when it is in no group."""
    game = connection.execute(select(DIGITAL).where(DIGITAL.c.id == game_id)).one_or_none()
    if game is None or game.group_id is None:
        return None
    rounds = DigitalRound.__table__
    records = connection.execute(
        select(rounds.c.record).where(rounds.c.game_id == game_id).order_by(rounds.c.number)
    ).scalars()
    names = list(game.state["players"])
    played = Played(
        names=names,
        units=units_of(names, game.state.get("teams")),
        members=[game.member_id if seat == game.human_seat else None for seat in range(len(names))],
        counted=[game.human_seat] if game.member_id is not None else [],
        rounds=[
            (record["scores"], (record.get("end") or {}).get("went_out"), True)
            for record in records
            if record.get("scores")
        ],
        finished=bool(game.finished),
        winner=game.winner,
        stake=None,
    )
    row = {"kind": "digital", "game_id": None, "digital_game_id": game_id, "stake": None}
    row |= {"finished_at": game.updated_at if game.finished else None, "winner": game.winner}
    return _placed(row, game), played


def _remove(
    connection: Connection, kind: str, game_id: int
) -> tuple[set[int], list[dict[str, Any]]]:
    """Delete the stored facts of a game; the groups they were in and its seat rows."""
    column = FACTS.c.game_id if kind == "table" else FACTS.c.digital_game_id
    before = connection.execute(select(FACTS.c.id, FACTS.c.group_id).where(column == game_id)).all()
    if not before:
        return set(), []
    ids = [row.id for row in before]
    seats = connection.execute(select(SEATS).where(SEATS.c.fact_id.in_(ids)))
    old = [dict(row._mapping) for row in seats]
    connection.execute(delete(SEATS).where(SEATS.c.fact_id.in_(ids)))
    connection.execute(delete(FACTS).where(FACTS.c.id.in_(ids)))
    return {row.group_id for row in before}, old


def store_facts(connection: Connection, kind: str, game_id: int) -> None:
    """Write the stored facts of the game ``game_id`` of ``kind`` ("table" or "digital")
    again from the game as ``connection`` reads it now (in the caller's transaction):
    its rows replaced, or removed when it is in no group (detached) or deleted; the
    ``facts_version`` of its group before and after counts up. Not committed."""
    groups, old = _remove(connection, kind, game_id)
    seats: list[dict[str, object]] = []
    found = (_table_game if kind == "table" else _digital_game)(connection, game_id)
    if found is not None:
        row, played = found
        fact_id = connection.execute(insert(FACTS).returning(FACTS.c.id), row).scalar_one()
        shared = {"fact_id": fact_id, "group_id": row["group_id"], "kind": kind}
        shared |= {"counts": row["counts"], "started_at": row["started_at"]}
        shared |= {"finished": played.finished}
        seats = [shared | seat for seat in facts_rows(played)]
        if seats:
            connection.execute(insert(SEATS), seats)
        groups.add(row["group_id"])
    retotal(connection, old, seats)
    touch_groups(connection, groups)


def store_new_facts(connection: Connection, game_ids: Sequence[int]) -> None:
    """Write the stored facts of the games at the table ``game_ids``, none of which has
    facts yet (a group's import): each game read as :func:`store_facts` reads it, its
    fact rows written, then every member's running totals brought up to date ONCE for
    them all (:func:`retotal` over their seats together) and each group's
    ``facts_version`` counted up once: the same facts as :func:`store_facts` game by
    game, in a few statements a game instead of a few dozen. Not committed."""
    seats: list[dict[str, object]] = []
    groups: set[int] = set()
    for game_id in game_ids:
        found = _table_game(connection, game_id)
        if found is None:
            continue
        row, played = found
        fact_id = connection.execute(insert(FACTS).returning(FACTS.c.id), row).scalar_one()
        shared = {"fact_id": fact_id, "group_id": row["group_id"], "kind": "table"}
        shared |= {"counts": row["counts"], "started_at": row["started_at"]}
        shared |= {"finished": played.finished}
        seats.extend(shared | seat for seat in facts_rows(played))
        groups.add(row["group_id"])
    if seats:
        connection.execute(insert(SEATS), seats)
    retotal(connection, [], seats)
    touch_groups(connection, groups)


Key = tuple[int, int, str]
"""A member's totals: (group id, member id, kind)."""


def _counted(seats: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [s for s in seats if s["counts"] and s["member_id"] is not None]


def _adds(seat: Mapping[str, Any]) -> dict[str, int]:
    """What one counted seat adds to its member's :class:`~scorekeeper.models.PlayerTotal`."""
    adds = {"games": 1} | {name: int(seat[name]) for name in ROUND_SUMS}
    if seat["finished"]:
        money = seat["money_half_cents"]
        adds |= {"played": 1, "won": int(seat["won"]), "own_points": seat["own"]}
        adds |= {"settlement_halves": seat["settlement_halves"], "money_half_cents": money or 0}
        adds |= {"money_games": int(money is not None)}
    return adds


def _changes(
    old: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]]
) -> tuple[dict[Key, Counter[str]], dict[tuple[Key, int], Counter[str]]]:
    """What a game's ``new`` seat rows add to each member's totals less what its ``old``
    ones had: by member, and by member and partner (finished games only)."""
    players: dict[Key, Counter[str]] = {}
    partners: dict[tuple[Key, int], Counter[str]] = {}
    for sign, seats in ((-1, old), (1, new)):
        for seat in _counted(seats):
            key = (seat["group_id"], seat["member_id"], seat["kind"])
            total = players.setdefault(key, Counter())
            for name, value in _adds(seat).items():
                total[name] += sign * value
            if seat["finished"] and seat["partner_id"] is not None:
                pair = partners.setdefault((key, seat["partner_id"]), Counter())
                pair["games"] += sign
                pair["won"] += sign * int(seat["won"])
    return players, partners


def _results(seats: Iterable[Mapping[str, object]], key: Key) -> list[tuple[datetime, bool, int]]:
    """The finished results of ``key``'s member among ``seats``: (start, won, fact)."""
    return sorted(
        (s["started_at"], s["won"], s["fact_id"])
        for s in _counted(seats)
        if (s["group_id"], s["member_id"], s["kind"]) == key and s["finished"]
    )


def _finished(key: Key) -> ColumnElement[bool]:
    """The condition of the counted finished seats of ``key``'s member."""
    group, member, kind = key
    return and_(
        SEATS.c.group_id == group,
        SEATS.c.member_id == member,
        SEATS.c.kind == kind,
        SEATS.c.counts.is_(True),
        SEATS.c.finished.is_(True),
    )


def _runs(connection: Connection, key: Key, old: Any, new: Any) -> dict[str, Any]:
    """The new ``streak`` and ``run`` of ``key``'s member when a result changed (none
    when none did). A game that newly finished after every other one counts on from
    the run so far (found through the index of the member's games by start); any
    other change (or a game started at the same moment) counts every finished game
    again, in order."""
    before, after = _results(old, key), _results(new, key)
    if [r[:2] for r in before] == [r[:2] for r in after]:
        return {}
    if not before and len(after) == 1:
        started, won, fact = after[0]
        later = and_(SEATS.c.started_at >= started, SEATS.c.fact_id != fact)
        if connection.execute(select(SEATS.c.id).where(_finished(key), later).limit(1)).first():
            return _counted_again(connection, key)
        if not won:
            return {"run": 0}
        run = PLAYERS.c.run + 1
        return {"run": run, "streak": case((run > PLAYERS.c.streak, run), else_=PLAYERS.c.streak)}
    return _counted_again(connection, key)


def _counted_again(connection: Connection, key: Key) -> dict[str, int]:
    """``streak`` and ``run`` of ``key``'s member over all their finished games."""
    results = connection.execute(
        select(SEATS.c.won).where(_finished(key)).order_by(SEATS.c.started_at, SEATS.c.fact_id)
    ).scalars()
    streak = run = 0
    for won in results:
        run = run + 1 if won else 0
        streak = max(streak, run)
    return {"streak": streak, "run": run}


def retotal(
    connection: Connection, old: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]]
) -> None:
    """Bring the running totals of the members of a game whose seat rows went from
    ``old`` to ``new`` up to date: the sums by what changed, the best round looked up
    again (an index), the winning streak as :func:`_runs` finds it."""
    players, partners = _changes(old, new)
    for key, adds in players.items():
        group, member, kind = key
        mine = and_(PLAYERS.c.group_id == group, PLAYERS.c.member_id == member)
        _add_to(connection, PLAYERS, {"group_id": group, "member_id": member, "kind": kind}, adds)
        values = {"best": _best(key)} | _runs(connection, key, old, new)
        connection.execute(update(PLAYERS).where(mine, PLAYERS.c.kind == kind).values(values))
    for ((group, member, kind), partner), adds in partners.items():
        row = {"group_id": group, "member_id": member, "kind": kind, "partner_id": partner}
        _add_to(connection, PARTNERS, row, adds)


def _add_to(
    connection: Connection, table: Table, key: dict[str, object], adds: Counter[str]
) -> None:
    """Add ``adds`` to the columns of ``table``'s row ``key`` (made first, all zeros,
    when there is none: an insert that does nothing when another made it meanwhile)."""
    maker = postgresql_insert if connection.dialect.name == "postgresql" else sqlite_insert
    connection.execute(maker(table).values(key).on_conflict_do_nothing())
    found = and_(*(table.c[name] == value for name, value in key.items()))
    values = {name: table.c[name] + value for name, value in adds.items() if value}
    if values:
        connection.execute(update(table).where(found).values(values))


def _best(key: Key) -> Any:
    """The highest round of ``key``'s member over their counted games (read through the
    index on the best rounds)."""
    group, member, kind = key
    return (
        select(SEATS.c.best)
        .where(SEATS.c.group_id == group, SEATS.c.member_id == member, SEATS.c.kind == kind)
        .where(SEATS.c.counts.is_(True), SEATS.c.best.is_not(None))
        .order_by(SEATS.c.best.desc())
        .limit(1)
        .scalar_subquery()
    )


def touch_groups(connection: Connection, groups: Iterable[int]) -> None:
    """Count the ``facts_version`` of ``groups`` up (what their pages show changed)."""
    ids = sorted(set(groups))
    if ids:
        connection.execute(
            update(GROUPS)
            .where(GROUPS.c.id.in_(ids))
            .values(facts_version=GROUPS.c.facts_version + 1)
        )


def refresh(game: Game | DigitalGame) -> None:
    """:func:`store_facts` of ``game`` in the request's session (its pending changes
    flushed first), not committed."""
    db.session.flush()
    kind = "digital" if isinstance(game, DigitalGame) else "table"
    store_facts(db.session.connection(), kind, game.id)
