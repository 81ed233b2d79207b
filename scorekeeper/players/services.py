"""Changing groups (the only code of this feature that commits): a new group, a new
player, a game attached afterwards (its seats matched to the players by name, as the
person confirmed), a game archived in the group (kept, left out of every figure) or
brought back, a game detached from the group. Every refusal is a :class:`GroupError` and
changes nothing.

Attaching a game needs the right to change it, shown by the link pasted: a game at the
table's edit link (never its view link, which the table shows as a QR code to anyone), or
a one-person digital game's address (whoever has it plays the game). A player added
with a game passes the same name rules as one added by the group's form
(:func:`new_member_name`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from ..engine import N_, RulesError, ruleset, say
from ..extensions import db
from ..groups.facts import refresh, touch_groups
from ..groups.members import link_players, member_by_name
from ..inputs import NAME_MAX, clean_name, name_problems
from ..models import DigitalGame, Game, GameFact, Group, Member, SeatFact, now_utc
from ..web import same_token
from .figures import PAGE

MAX_MEMBERS = 60
"""Players a group may have at most."""
LINK = re.compile(r"/(games|play)/([A-Za-z0-9_-]{6,40})(?:/edit/([A-Za-z0-9_-]{1,80}))?[/?#]")
"""A game's link: ``/games/<view token>`` (any of its pages; ``/edit/<edit token>`` after
it for the edit link) or ``/play/<slug>``."""
NO_GAME = N_("no game opens at that link (paste a game's edit link, or a digital game's address)")


class GroupError(ValueError):
    """A change refused, with the reason in words: a sentence (an engine
    :class:`~scorekeeper.engine.Message`, English as text) that
    :func:`scorekeeper.languages.error_text` gives in the reader's language."""


def _reason(error: GroupError) -> object:
    """The sentence ``error`` was raised with (a Message stays one, to be translated)."""
    return error.args[0] if error.args else str(error)


def create_group(name: str, preset: str) -> Group:
    """A new group named ``name`` (already cleaned) whose usual rules are ``preset``."""
    try:
        ruleset(preset)
    except RulesError as error:
        raise GroupError(error.problems[0][1]) from None
    group = Group(name=name, preset=preset, options={})
    db.session.add(group)
    db.session.commit()
    return group


def new_member_name(raw: str, taken: Sequence[str]) -> str:
    """``raw`` as a new player's name beside the players ``taken``, cleaned
    (:func:`scorekeeper.inputs.clean_name`): the one name rule of a player added by the
    group's form or with an attached game. Raises :class:`GroupError` when nothing
    visible is left, it is too long, or it is taken but for case
    (:func:`scorekeeper.inputs.name_problems`)."""
    problems = name_problems(raw, taken)
    if problems:
        raise GroupError(problems[0])
    return clean_name(raw)


def add_member(group: Group, name: str) -> Member:
    """A new player of ``group`` (:func:`new_member_name`); refused when the group is
    full. A form posted twice adds the player once. The group's pages change (its
    ``facts_version`` counts up)."""
    cleaned = new_member_name(name, [m.name for m in group.members])
    if len(group.members) >= MAX_MEMBERS:
        raise GroupError(say("a group has at most %(count)s players", count=MAX_MEMBERS))
    member = Member(name=cleaned)
    group.members.append(member)
    touch_groups(db.session.connection(), [group.id])
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise GroupError(say("two players cannot have the same name")) from None
    return member


def game_to_attach(link: str) -> Game | DigitalGame:
    """The game a pasted ``link`` opens, when the link carries the right to change it: a
    game at the table's edit link (``/games/<view>/edit/<edit token>``, the game's current
    token), or a one-person digital game's address (``/play/<slug>``). Raises
    :class:`GroupError`: no game there (a deleted one neither), a view link or another
    page of the game, an edit link a newer one replaced, a digital table of several
    phones (its address is every seat's)."""
    found = LINK.search(link.strip() + "/")
    if found is None:
        raise GroupError(say(NO_GAME))
    kind, token, edit = found.groups()
    if kind == "play":
        return _digital_to_attach(token)
    query = (
        select(Game)
        .where(Game.view_token == token, Game.deleted_at.is_(None))
        .options(selectinload(Game.players))
    )
    game = db.session.execute(query).scalar_one_or_none()
    if game is None:
        raise GroupError(say(NO_GAME))
    if edit is None:
        raise GroupError(
            say(
                "that is the game's view link, which anyone at the table may have: paste its "
                "edit link (on the game's share page, from a phone that keeps the score)"
            )
        )
    if not same_token(edit, game.edit_token):
        raise GroupError(say("that edit link is no longer the game's: paste its current edit link"))
    return game


def _digital_to_attach(slug: str) -> DigitalGame:
    game = db.session.execute(
        select(DigitalGame).where(DigitalGame.slug == slug)
    ).scalar_one_or_none()
    if game is None:
        raise GroupError(say(NO_GAME))
    if game.host_token is not None:
        raise GroupError(
            say(
                "a digital table of several phones cannot be attached: its address is every "
                "seat's, so it does not show who may change the game"
            )
        )
    return game


@dataclass(frozen=True)
class Match:
    """A seat of a game to attach: its ``name`` and the group's player of that name (None:
    not in the group yet, kept as a guest unless the person adds them); ``problem`` why
    the seat cannot be added as a player (its name breaks a name rule), else None."""

    name: str
    member: Member | None
    problem: str | None = None


def seats_of(game: Game | DigitalGame) -> list[str]:
    """The names that may be matched: every seat at the table, the person of a digital
    game (never a bot)."""
    if isinstance(game, DigitalGame):
        return [game.state["players"][game.human_seat]]
    return [p.name for p in game.players]


def matches(group: Group, game: Game | DigitalGame) -> list[Match]:
    """Each seat of ``game`` with the group's player of the same name, and for a seat
    that matches none, why it could not join (:func:`new_member_name`), if it could not."""
    found = []
    for name in seats_of(game):
        member = member_by_name(group, name)
        problems = [] if member else name_problems(name)
        found.append(Match(name, member, problems[0] if problems else None))
    return found


def attach(group: Group, game: Game | DigitalGame, add: Sequence[str]) -> None:
    """Put ``game`` in ``group``: seats matched by name, the seats named in ``add`` (not
    yet in the group) added as players first, under the group's name rules
    (:func:`new_member_name`). Refused when the game is already in this group or another
    one, when ``add`` names no seat of the game or a name that cannot be a player's."""
    if game.group_id == group.id:
        raise GroupError(say("this game is already in the group (nothing changed)"))
    if game.group_id is not None:
        raise GroupError(
            say("this game belongs to another group: that group's edit link can detach it")
        )
    seats = set(seats_of(game))
    if any(name not in seats for name in add):
        raise GroupError(say("only players of that game can be added with it"))
    names: list[str] = []
    for raw in add:
        try:
            names.append(new_member_name(raw, [*(m.name for m in group.members), *names]))
        except GroupError as error:
            seat = clean_name(raw)[:NAME_MAX] or say("a seat")
            raise GroupError(
                say(
                    "%(seat)s cannot join the group: %(reason)s; leave it unticked to keep it "
                    "a guest",
                    seat=seat,
                    reason=_reason(error),
                )
            ) from None
    if len(group.members) + len(names) > MAX_MEMBERS:
        raise GroupError(say("a group has at most %(count)s players", count=MAX_MEMBERS))
    link_players(game, group, names)
    db.session.commit()


def detach(game: Game | DigitalGame) -> None:
    """Take ``game`` out of its group: no seat points at a player any more and it is no
    longer archived there; the players added with it stay in the group. It may then be
    attached to another group (with its edit link)."""
    game.group_id = None
    game.archived_at = None
    if isinstance(game, DigitalGame):
        game.member_id = None
    else:
        for player in game.players:
            player.member_id = None
    refresh(game)
    db.session.commit()


def game_of(group: Group, kind: str, game_id: int) -> Game | DigitalGame | None:
    """The group's game ``game_id`` of ``kind`` ("table" or "digital"), or None."""
    found: Game | DigitalGame | None = (
        db.session.get(DigitalGame, game_id) if kind == "digital" else db.session.get(Game, game_id)
    )
    return found if found is not None and found.group_id == group.id else None


def set_archived(game: Game | DigitalGame, archived: bool) -> None:
    """Archive ``game`` in its group (kept, left out of every figure) or bring it back."""
    if (game.archived_at is not None) != archived:
        game.archived_at = now_utc() if archived else None
        refresh(game)
        db.session.commit()


@dataclass(frozen=True)
class Listed:
    """A game on the group's page: ``kind``, the game, and whether it counts."""

    kind: str
    game: Game | DigitalGame

    @property
    def counts(self) -> bool:
        """False for an archived game (a deleted one is not listed)."""
        return self.game.archived_at is None


def recent_games(group: Group, page: int = 0) -> tuple[list[Listed], bool]:
    """Page ``page`` (from 0) of the group's games, at the table and digital, newest
    first (by start, then as stored: a stable order), :data:`~.figures.PAGE` a page,
    read from their stored facts (a deleted game has none); and whether older games
    follow."""
    rows = db.session.execute(
        select(GameFact.game_id, GameFact.digital_game_id)
        .where(GameFact.group_id == group.id)
        .order_by(GameFact.started_at.desc(), GameFact.id.desc())
        .offset(page * PAGE)
        .limit(PAGE + 1)
    ).all()
    shown = rows[:PAGE]
    table_ids = [r.game_id for r in shown if r.game_id is not None]
    digital_ids = [r.digital_game_id for r in shown if r.digital_game_id is not None]
    table = db.session.execute(
        select(Game).where(Game.id.in_(table_ids)).options(selectinload(Game.players))
    ).scalars()
    digital = db.session.execute(select(DigitalGame).where(DigitalGame.id.in_(digital_ids)))
    games: dict[tuple[str, int], Game | DigitalGame] = {("table", g.id): g for g in table}
    games |= {("digital", g.id): g for g in digital.scalars()}
    listed = [
        Listed("table", games["table", r.game_id])
        if r.game_id is not None
        else Listed("digital", games["digital", r.digital_game_id])
        for r in shown
    ]
    return listed, len(rows) > PAGE


TONIGHT = timedelta(hours=12)
"""How far back tonight's tally looks: the games finished in the last 12 hours (an
evening that runs past midnight stays one night)."""


@dataclass(frozen=True)
class Finished:
    """A game at the table finished tonight: its view link's token and its winner."""

    view_token: str
    winner: str


@dataclass(frozen=True)
class NightLine:
    """One player's line of tonight's tally: ``name``, ``games`` played tonight, ``wins``
    and ``points`` (their own final totals of those games, summed)."""

    name: str
    games: int
    wins: int
    points: int


@dataclass(frozen=True)
class Tally:
    """Tonight's tally of a group: ``games`` the table games finished tonight (newest
    first), ``players`` (:class:`NightLine`) for everyone who played in them, most wins
    first, then most points; a side's win (P1) is a win for both partners."""

    games: list[Finished]
    players: list[NightLine]


def tonight(group: Group, limit: int = 50) -> Tally:
    """The group's :class:`Tally` of the table games that count (not deleted nor
    archived) that ended within :data:`TONIGHT` of now (at most ``limit``), from their
    stored facts."""
    since = (now_utc() - TONIGHT).replace(tzinfo=None)
    games = db.session.execute(
        select(GameFact.id, Game.view_token, GameFact.winner)
        .join(Game, Game.id == GameFact.game_id)
        .where(GameFact.group_id == group.id, GameFact.counts.is_(True))
        .where(GameFact.winner.is_not(None), GameFact.finished_at >= since)
        .order_by(GameFact.finished_at.desc(), GameFact.id.desc())
        .limit(limit)
    ).all()
    seats = db.session.execute(
        select(SeatFact.name, SeatFact.won, SeatFact.own)
        .where(SeatFact.fact_id.in_([g.id for g in games]))
        .order_by(SeatFact.fact_id.desc(), SeatFact.seat)
    ).all()
    lines: dict[str, NightLine] = {}
    for seat in seats:
        had = lines.get(seat.name, NightLine(seat.name, 0, 0, 0))
        lines[seat.name] = NightLine(
            seat.name, had.games + 1, had.wins + seat.won, had.points + seat.own
        )
    finished = [Finished(g.view_token, g.winner) for g in games]
    return Tally(finished, sorted(lines.values(), key=lambda line: (-line.wins, -line.points)))
