"""The seats of a digital game: how many bots, their names, and the ladder's levels as
people see them (each level's title, rating and words, from the engine: one source).

Shared by the new-game forms, the pages and the services (which check a new game's
seats again). ``"match"`` (:data:`MATCH`) is a choice of the forms, never a stored
level: the view turns it into the level nearest the person's estimate
(:func:`.estimate.chosen_levels`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import BOTS, LEVELS, ladder_ratings
from ..languages.reader import translate

MAX_BOTS = 7
BOT_NAMES = ("Ada", "Bea", "Cy", "Dot", "Eli", "Fay", "Gus")
MATCH = "match"
"""The forms' "Match my level" choice: the level nearest this phone's estimate."""
FORMER_TITLES = {"random": "Beginner", "basic": "Casual"}
"""Titles for the levels of games stored before the ladder and not yet migrated."""


@dataclass(frozen=True)
class ShownLevel:
    """A level of the ladder for people: ``name`` (the form's value, stored with a game),
    ``title``, ``rating`` (Elo, :func:`engine.ladder_ratings`) and ``words`` (how it
    plays, one sentence)."""

    name: str
    title: str
    rating: int
    words: str

    @property
    def label(self) -> str:
        """The select's label: ``"Steady · 1347"`` (the title in the request's language)."""
        return f"{translate(self.title)} · {self.rating}"


def shown_levels() -> list[ShownLevel]:
    """Every level of the ladder, weakest first (:data:`engine.LEVELS`)."""
    ratings = ladder_ratings()
    return [ShownLevel(lv.name, lv.title, ratings[lv.name], lv.words) for lv in LEVELS]


def level_title(name: str | None) -> str:
    """The title of the level ``name`` (a stored level; a former name is read as
    today's); the name itself for one the ladder does not know, "" for None."""
    if name is None:
        return ""
    level = BOTS.get(name)
    return level.title if level is not None else FORMER_TITLES.get(name, name.title())
