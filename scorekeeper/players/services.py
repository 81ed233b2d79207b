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
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from ..engine import RulesError, ruleset
from ..extensions import db
from ..groups import link_players, member_by_name
from ..models import DigitalGame, Game, Group, Member, now_utc
from ..requests import NAME_MAX, clean_name, name_problems
from ..web import same_token

MAX_MEMBERS = 60
"""Players a group may have at most."""
LINK = re.compile(r"/(games|play)/([A-Za-z0-9_-]{6,40})(?:/edit/([A-Za-z0-9_-]{1,80}))?[/?#]")
"""A game's link: ``/games/<view token>`` (any of its pages; ``/edit/<edit token>`` after
it for the edit link) or ``/play/<slug>``."""
NO_GAME = "no game opens at that link (paste a game's edit link, or a digital game's address)"


class GroupError(ValueError):
    """A change refused, with the reason in words."""


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
    (:func:`scorekeeper.requests.clean_name`): the one name rule of a player added by the
    group's form or with an attached game. Raises :class:`GroupError` when nothing
    visible is left, it is too long, or it is taken but for case
    (:func:`scorekeeper.requests.name_problems`)."""
    problems = name_problems(raw, taken)
    if problems:
        raise GroupError(problems[0])
    return clean_name(raw)


def add_member(group: Group, name: str) -> Member:
    """A new player of ``group`` (:func:`new_member_name`); refused when the group is
    full. A form posted twice adds the player once."""
    cleaned = new_member_name(name, [m.name for m in group.members])
    if len(group.members) >= MAX_MEMBERS:
        raise GroupError(f"a group has at most {MAX_MEMBERS} players")
    member = Member(name=cleaned)
    group.members.append(member)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise GroupError("two players cannot have the same name") from None
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
        raise GroupError(NO_GAME)
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
        raise GroupError(NO_GAME)
    if edit is None:
        raise GroupError(
            "that is the game's view link, which anyone at the table may have: paste its "
            "edit link (on the game's share page, from a phone that keeps the score)"
        )
    if not same_token(edit, game.edit_token):
        raise GroupError("that edit link is no longer the game's: paste its current edit link")
    return game


def _digital_to_attach(slug: str) -> DigitalGame:
    game = db.session.execute(
        select(DigitalGame).where(DigitalGame.slug == slug)
    ).scalar_one_or_none()
    if game is None:
        raise GroupError(NO_GAME)
    if game.host_token is not None:
        raise GroupError(
            "a digital table of several phones cannot be attached: its address is every "
            "seat's, so it does not show who may change the game"
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
        raise GroupError("this game is already in the group (nothing changed)")
    if game.group_id is not None:
        raise GroupError("this game belongs to another group: that group's edit link can detach it")
    seats = set(seats_of(game))
    if any(name not in seats for name in add):
        raise GroupError("only players of that game can be added with it")
    names: list[str] = []
    for raw in add:
        try:
            names.append(new_member_name(raw, [*(m.name for m in group.members), *names]))
        except GroupError as error:
            seat = clean_name(raw)[:NAME_MAX] or "a seat"
            raise GroupError(
                f"{seat} cannot join the group: {error}; leave it unticked to keep it a guest"
            ) from None
    if len(group.members) + len(names) > MAX_MEMBERS:
        raise GroupError(f"a group has at most {MAX_MEMBERS} players")
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


def recent_games(group: Group, limit: int = 30) -> list[Listed]:
    """The group's latest games, at the table and digital, newest first."""
    table = (
        select(Game)
        .where(Game.group_id == group.id, Game.deleted_at.is_(None))
        .order_by(Game.created_at.desc())
        .limit(limit)
    )
    digital = (
        select(DigitalGame)
        .where(DigitalGame.group_id == group.id)
        .order_by(DigitalGame.created_at.desc())
        .limit(limit)
    )
    listed = [Listed("table", g) for g in db.session.execute(table).scalars()]
    listed += [Listed("digital", g) for g in db.session.execute(digital).scalars()]
    listed.sort(key=lambda item: item.game.created_at, reverse=True)
    return listed[:limit]


TONIGHT = timedelta(hours=12)
"""How far back tonight's tally looks: the games finished in the last 12 hours (an
evening that runs past midnight stays one night)."""


@dataclass(frozen=True)
class Tally:
    """Tonight's tally of a group: ``games`` the table games finished tonight (newest
    first), ``wins`` (player name, games won) for everyone who played in them, most wins
    first; a side's win (P1) is a win for both partners."""

    games: list[Game]
    wins: list[tuple[str, int]]


def _winners(game: Game) -> set[str]:
    """The names of ``game``'s players whose unit (their own name, or their side's names
    joined by " & ", P1) is the winner."""
    seats = sorted(game.players, key=lambda p: p.seat)
    sides = {p.side: " & ".join(q.name for q in seats if q.side == p.side) for p in seats}
    return {p.name for p in seats if game.winner in (p.name, sides[p.side])}


def tonight(group: Group, limit: int = 50) -> Tally:
    """The group's :class:`Tally` of the table games (not deleted nor archived) that
    ended within :data:`TONIGHT` of now."""
    since = now_utc() - TONIGHT
    query = (
        select(Game)
        .where(Game.group_id == group.id, Game.deleted_at.is_(None), Game.archived_at.is_(None))
        .where(Game.winner.is_not(None), Game.finished_at.is_not(None))
        .options(selectinload(Game.players))
        .order_by(Game.finished_at.desc())
        .limit(limit)
    )
    games = [g for g in db.session.execute(query).scalars() if _aware(g.finished_at) >= since]
    wins: dict[str, int] = {}
    for game in games:
        won = _winners(game)
        for player in game.players:
            wins[player.name] = wins.get(player.name, 0) + (player.name in won)
    return Tally(games, sorted(wins.items(), key=lambda item: -item[1]))


def _aware(moment: datetime | None) -> datetime:
    """``moment`` as UTC (SQLite gives it back without its zone); None as long ago."""
    if moment is None:
        return datetime.min.replace(tzinfo=UTC)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
