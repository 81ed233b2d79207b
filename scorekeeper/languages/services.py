"""The language kept with a game or a group (its TV and shared result are shown in it):
the one place that writes it."""

from __future__ import annotations

from ..extensions import db
from ..models import DigitalGame, Game, Group
from . import LANGUAGES, PSEUDO


class UnknownLanguage(ValueError):
    """A language that is not offered: nothing was changed."""


def keep_language(place: Game | DigitalGame | Group, code: str | None) -> None:
    """Show ``place``'s TV and shared result in ``code`` (a key of
    :data:`~scorekeeper.languages.LANGUAGES`, or a pseudo-language's), or in each reader's
    own language when ``code`` is None or empty; commits. A table game's version (a
    group's ``facts_version``) counts up, so that its TV and pages are fetched again.
    Raises :class:`UnknownLanguage` for any other code (nothing changed)."""
    if code and code not in LANGUAGES and code not in PSEUDO:
        raise UnknownLanguage(code)
    place.language = code or None
    if isinstance(place, Game):
        place.version += 1
    elif isinstance(place, Group):
        place.facts_version += 1
    db.session.commit()
