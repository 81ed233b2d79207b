"""Changing groups (the only code of this feature that commits): a new group, a new
player, a game attached afterwards (its seats matched to the players by name, as the
person confirmed), a game archived in the group (kept, left out of every figure) or
brought back. Every refusal is a :class:`GroupError` and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from ..engine.rules import RulesError, ruleset
from ..extensions import db
from ..groups import link_players, member_by_name
from ..models import DigitalGame, Game, Group, Member, now_utc
from ..requests import name_problems

MAX_MEMBERS = 60
"""Players a group may have at most."""
LINK = re.compile(r"/(games|play)/([A-Za-z0-9_-]{6,40})(?:/|$|\?)")
"""A game's link: ``/games/<view token>`` (any of its pages) or ``/play/<slug>``."""


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


def add_member(group: Group, name: str) -> Member:
    """A new player of ``group``; refused when the name is taken (but for case), empty,
    too long, or the group is full. A form posted twice adds the player once."""
    problems = name_problems(name, [m.name for m in group.members])
    if problems:
        raise GroupError(problems[0])
    if len(group.members) >= MAX_MEMBERS:
        raise GroupError(f"a group has at most {MAX_MEMBERS} players")
    member = Member(name=name)
    group.members.append(member)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise GroupError("two players cannot have the same name") from None
    return member


def find_game(link: str) -> Game | DigitalGame | None:
    """The game a link (pasted from the game's page, share page or the play page) opens,
    or None; a deleted game is not found."""
    found = LINK.search(link.strip() + "/")
    if found is None:
        return None
    kind, token = found.groups()
    if kind == "play":
        query = select(DigitalGame).where(DigitalGame.slug == token)
        return db.session.execute(query).scalar_one_or_none()
    table = (
        select(Game)
        .where(Game.view_token == token, Game.deleted_at.is_(None))
        .options(selectinload(Game.players))
    )
    return db.session.execute(table).scalar_one_or_none()


@dataclass(frozen=True)
class Match:
    """A seat of a game to attach: its ``name`` and the group's player of that name (None:
    not in the group yet, kept as a guest unless the person adds them)."""

    name: str
    member: Member | None


def seats_of(game: Game | DigitalGame) -> list[str]:
    """The names that may be matched: every seat at the table, the person of a digital
    game (never a bot)."""
    if isinstance(game, DigitalGame):
        return [game.state["players"][game.human_seat]]
    return [p.name for p in game.players]


def matches(group: Group, game: Game | DigitalGame) -> list[Match]:
    """Each seat of ``game`` with the group's player of the same name."""
    return [Match(name, member_by_name(group, name)) for name in seats_of(game)]


def attach(group: Group, game: Game | DigitalGame, add: Sequence[str]) -> None:
    """Put ``game`` in ``group``: seats matched by name, the names in ``add`` (seats of
    the game not yet in the group) added as players first. Refused when the game is
    already in this group or another one."""
    if game.group_id == group.id:
        raise GroupError("this game is already in the group (nothing changed)")
    if game.group_id is not None:
        raise GroupError("this game belongs to another group")
    seats = {name for name in seats_of(game)}
    unknown = [name for name in add if name not in seats]
    if unknown:
        raise GroupError("only players of that game can be added with it")
    if len(group.members) + len(add) > MAX_MEMBERS:
        raise GroupError(f"a group has at most {MAX_MEMBERS} players")
    link_players(game, group, add)
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
