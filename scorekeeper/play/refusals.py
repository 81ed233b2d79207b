"""What a person's request at ``/play`` may be refused with, and the choice it carries:
exceptions raised by the services (:mod:`.services`), never returned, each with the
HTTP status it answers; :mod:`.views` maps them to answers in one place (the play
blueprint's error handlers)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext as _

from ..engine import Action
from ..languages.reader import translate


class PlayError(ValueError):
    """A move or a new game refused; nothing was stored. ``message`` for the person,
    ``rule`` the catalogue id that says no (or None), ``where`` the form field it
    concerns (or None); ``status`` the HTTP status it answers (422; the subclasses say
    theirs), ``description`` its words on a page of its own."""

    status = 422

    def __init__(self, message: str, rule: str | None = None, where: str | None = None) -> None:
        self.message = message
        self.rule = rule
        self.where = where
        super().__init__(f"{message} ({rule})" if rule else message)

    @property
    def code(self) -> int:
        """:attr:`status`, as a page of its own reads it (``play/refused.html``)."""
        return self.status

    @property
    def description(self) -> str:
        """The refusal in words on a page of its own: the message (in the request's
        language), capitalised."""
        said = str(translate(self.message))
        return said[:1].upper() + said[1:]


class StaleGame(PlayError):
    """The game moved on (another tab or phone made a move) since this page was loaded
    (409)."""

    status = 409

    def __init__(self) -> None:
        super().__init__(
            _(
                "this game has moved on in another tab or on another phone, so this move was "
                "not made. Reload the page to see where the game stands."
            )
        )


class Malformed(PlayError):
    """A request that names no move: a form or JSON body that cannot be read (400, or
    ``status``: 413 too large, 415 not JSON). Nothing was read of the game."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class NotAllowed(PlayError):
    """This phone may not do this here (403): ``message`` for a JSON answer, ``page``
    the sentence of the page that says so."""

    status = 403

    def __init__(self, message: str, page: str = "") -> None:
        super().__init__(message)
        self.page = page or message

    @property
    def description(self) -> str:
        return self.page


class NotSeated(NotAllowed):
    """A table game of several phones where this phone has no seat (403): it is shown
    nothing of it. ``doing`` what it tried (``"play at"``, ``"see"``)."""

    def __init__(self, doing: str = "play at") -> None:
        if doing == "see":
            message = _("open your seat's link to see this table")
        else:
            message = _("open your seat's link to play at this table")
        super().__init__(message, _("This is a table of several phones: open your seat's link."))


class NoGame(PlayError):
    """No game at this link (404); ``page`` the sentence of the page that says so."""

    status = 404

    def __init__(self, page: str = "") -> None:
        super().__init__(_("there is no game at this link"))
        self.page = page or _("There is no game at this link.")

    @property
    def description(self) -> str:
        return self.page


@dataclass(frozen=True)
class Pick:
    """One of the moves a tap may mean: ``value`` (the action as JSON text, what the
    page sends back) and ``label`` (the button's words)."""

    value: str
    label: str

    def to_json(self) -> dict[str, str]:
        """``{"value", "label"}``."""
        return {"value": self.value, "label": self.label}


class Choose(Exception):
    """The choice fits several moves (a joker that stands for more than one card, M5; a
    card that lays off on several melds): the person picks one of ``picks``; nothing
    was made."""

    def __init__(self, picks: Sequence[Pick]) -> None:
        super().__init__(_("choose one of the moves"))
        self.picks = tuple(picks)


@dataclass(frozen=True)
class Choice:
    """A move as the person chose it, read from a form or a tap (:mod:`.forms`): the
    game's ``version`` it was made on, ``kind`` (:data:`.moves.CHOICES` or
    ``"next_round"``), the hand ``cards`` tapped (card texts), ``number`` (a pile or
    meld index) and ``raw`` (an action as JSON), or the whole ``action`` already read."""

    version: int
    kind: str
    cards: tuple[str, ...] = ()
    number: int | None = None
    raw: object = None
    action: Action | None = None
