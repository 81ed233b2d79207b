"""The group's writes shared by the features: a game started from the group's new-game
form joining the group, and a group's file written as a new group. The only modules of
:mod:`scorekeeper.groups` that commit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from ..extensions import db
from ..models import Game, Group, Member
from ..table.games import ExportParts, write_games
from .facts import store_new_facts
from .members import link_players, point_seats


class GroupParts(TypedDict):
    """A group's file as :func:`~scorekeeper.groups.archive.read_group` checked it: its
    ``name``, usual rules (``preset``, ``options``), its ``players``' names and its
    ``games``, each as ``(archived, the game's export parts)``."""

    name: str
    preset: str
    options: dict[str, object]
    players: list[str]
    games: list[tuple[bool, ExportParts]]


def start_in_group(game: Game, group: Group) -> None:
    """A game just started from the group's new-game form joins the group; its rules
    become the group's usual ones. Commits."""
    link_players(game, group)
    group.preset, group.options = game.preset, dict(game.options)
    db.session.commit()


def write_group(parts: GroupParts, games: Sequence[Game]) -> Group:
    """A new group from :func:`~scorekeeper.groups.archive.read_group`'s ``parts`` and its
    ``games`` already checked and scored in memory
    (:func:`~scorekeeper.groups.archive.checked_games`): the group, its players and every
    game written in one short transaction, in bulk (a multi-row INSERT a table,
    :func:`~scorekeeper.table.games.write_games`; its seats pointed at the players by
    name, :func:`~scorekeeper.groups.members.point_seats`), and the games' stored facts
    computed in bulk (:func:`~scorekeeper.groups.facts.store_new_facts`). Commits; rolls
    everything back on any error."""
    try:
        group = Group(name=parts["name"], preset=parts["preset"], options=parts["options"])
        group.members.extend(Member(name=n) for n in parts["players"])
        db.session.add(group)
        db.session.flush()
        for game in games:
            game.group_id = group.id
            point_seats(game, group)
        ids = write_games(games)
        store_new_facts(db.session.connection(), ids)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return group
