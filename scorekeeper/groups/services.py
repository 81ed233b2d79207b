"""The group's writes shared by the features: a game started from the group's new-game
form joining the group. The only module of :mod:`scorekeeper.groups` that commits."""

from __future__ import annotations

from ..extensions import db
from ..models import Game, Group
from .members import link_players


def start_in_group(game: Game, group: Group) -> None:
    """A game just started from the group's new-game form joins the group; its rules
    become the group's usual ones. Commits."""
    link_players(game, group)
    group.preset, group.options = game.preset, dict(game.options)
    db.session.commit()
