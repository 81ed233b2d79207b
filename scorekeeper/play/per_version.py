"""What every seat of a game shares at one version, made once per process
(:class:`.caches.BoundedCache`, keyed by the game's slug and version: a new version is
never served an older one's): the engine's state decoded from the database, and the
pieces of markup the same on every seat's board. Only read by whoever gets them; a move
loads its own state."""

from __future__ import annotations

from markupsafe import Markup

from ..engine import GameState
from ..models import DigitalGame
from . import store
from .caches import BoundedCache

SHARED_PARTS = 1024
"""Parts of games at one version (a decoded state, a piece of markup, a round's end) one
process keeps of each kind."""

Version = tuple[str, int]
"""A game's slug and version."""

states: BoundedCache[Version, GameState] = BoundedCache(SHARED_PARTS)
"""This process's decoded states, by game and version."""
markup: BoundedCache[tuple[str, int, str], Markup] = BoundedCache(SHARED_PARTS)
"""This process's shared markup, by game, version and the part's name."""


def version_of(game: DigitalGame) -> Version:
    """The key of ``game`` at its version."""
    return game.slug, game.version


def shared_state(game: DigitalGame) -> GameState:
    """The engine's state of ``game`` at its version (:func:`.store.load_state`), decoded
    once per process for every board rendered from it (each phone's board.json, each
    seat's stream) and for reading which move a tap means: read only, so never given to
    a move (a move loads its own)."""
    return states.get(version_of(game), lambda: store.load_state(game))
