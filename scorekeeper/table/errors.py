"""Why a change to a scoresheet was refused, and :func:`saving`, which turns a database
failure into :class:`SaveFailed` (nothing stored, the same change may be sent again)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from flask_babel import gettext as _
from sqlalchemy.exc import DBAPIError, IntegrityError

from ..extensions import db
from ..languages.reader import translate
from ..models import Round


class ScoresheetError(ValueError):
    """A change refused; nothing was stored. ``problems`` lists ``(where, message)``, each
    message in the request's language (an engine sentence translated here)."""

    def __init__(self, problems: Sequence[tuple[str, str]]) -> None:
        self.problems = [(where, translate(message)) for where, message in problems]
        super().__init__("; ".join(message for _, message in self.problems))


class StaleVersion(ScoresheetError):
    """The game changed (another phone saved) since the form was opened."""

    def __init__(self) -> None:
        super().__init__(
            [
                (
                    "version",
                    _(
                        "someone else changed this game meanwhile: nothing was saved. "
                        "Check the latest scores and enter it again if it is still needed."
                    ),
                )
            ]
        )


class StaleRound(StaleVersion):
    """The round being corrected changed (corrected, deleted, undone on another phone)
    since the form was opened; other rounds saved meanwhile do not count."""

    def __init__(self) -> None:
        ScoresheetError.__init__(
            self,
            [
                (
                    "version",
                    _(
                        "someone else changed this round meanwhile: nothing was saved. "
                        "Check it and correct it again if it is still needed."
                    ),
                )
            ],
        )


class SaveFailed(ScoresheetError):
    """The database could not store the change (unreachable, read-only, full, busy):
    nothing was saved, and the same change may simply be sent again."""

    def __init__(self) -> None:
        super().__init__(
            [
                (
                    "database",
                    _(
                        "the scores could not be saved just now (the database did not "
                        "answer): nothing was lost, what you typed is still here. Try again "
                        "in a moment."
                    ),
                )
            ]
        )


@contextmanager
def saving() -> Iterator[None]:
    """Run a change; a database failure (not a refused duplicate) rolls it back and
    becomes :class:`SaveFailed`."""
    try:
        yield
    except IntegrityError:
        raise
    except DBAPIError as error:
        db.session.rollback()
        raise SaveFailed() from error


class AlreadySaved(ScoresheetError):
    """The same form was posted twice; ``round`` is the round the first post saved."""

    def __init__(self, round_: Round) -> None:
        self.round = round_
        super().__init__([("nonce", _("this round was already saved (the form was sent twice)"))])
