"""A game night: the games of one table played one after another ("Play again"), and
its short room code (:class:`scorekeeper.models.Night`). Reading only; the night is
written by :mod:`.services` (:func:`.services.night_of`, :func:`.services.play_again`).

- current game: the night's newest game not deleted; the TV and the watching phones of
  an earlier game of the night move to it (the page's refresh brings a ``data-next-game``
  link, static/night.js follows it): the TV to its TV view, a phone to its view link,
  never an edit link.
- live night: one whose games changed within :data:`LIVE_FOR` (12 hours, as tonight's
  tally); a room code is looked up among live nights only.
- room code: typed on the home page, case-insensitive, spaces and dashes ignored
  (:func:`clean_code`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from flask import Blueprint, url_for
from flask_babel import gettext as _
from sqlalchemy import func, select

from ..extensions import db
from ..models import ROOM_CODE_LETTERS, Game, Group, Night, now_utc

LIVE_FOR = timedelta(hours=12)
"""How long a night stays live after any of its games last changed."""
CODE_LENGTHS = range(4, 7)
"""The lengths a typed room code may have (the codes given are 5 long)."""


class BadCode(ValueError):
    """A typed room code that is not one: its message is one sentence for the person."""


def clean_code(typed: str | None) -> str:
    """The room code in ``typed``, upper case, without spaces or dashes ("hk4 tp" gives
    "HK4TP"). Raises :class:`BadCode` when nothing is typed or it cannot be a code (a
    length outside 4 to 6, a character no code has)."""
    code = "".join((typed or "").split()).replace("-", "").upper()
    if not code:
        raise BadCode(_("Type the room code shown on the TV or on the game's Share page."))
    if len(code) not in CODE_LENGTHS or any(c not in ROOM_CODE_LETTERS for c in code):
        raise BadCode(
            _(
                "A room code is 5 letters and digits, as shown on the TV "
                "(it has no 0, O, 1, I, L, 2, Z, 5, S, 8 or B)."
            )
        )
    return code


def current_game(night_id: int) -> Game | None:
    """The night's newest game that is not deleted, or None."""
    query = (
        select(Game)
        .where(Game.night_id == night_id, Game.deleted_at.is_(None))
        .order_by(Game.id.desc())
        .limit(1)
    )
    return db.session.execute(query).scalar_one_or_none()


def is_live(night_id: int) -> bool:
    """Whether any game of the night changed within :data:`LIVE_FOR` of now."""
    since = (now_utc() - LIVE_FOR).replace(tzinfo=None)
    newest = db.session.execute(
        select(func.max(Game.updated_at)).where(Game.night_id == night_id)
    ).scalar_one_or_none()
    return newest is not None and newest.replace(tzinfo=None) >= since


def game_of_code(code: str) -> Game | None:
    """The current game of the live night whose room code is ``code`` (cleaned by
    :func:`clean_code`), or None when no live night has it."""
    night = db.session.execute(select(Night).where(Night.code == code)).scalar_one_or_none()
    if night is None or not is_live(night.id):
        return None
    return current_game(night.id)


@dataclass(frozen=True)
class Following:
    """What a game's pages show of its night: ``code`` the room code (None when the game
    is in no night or its night has none); ``next_view`` and ``next_tv`` the URLs of the
    night's current game when it is a later game than this one (None otherwise: the
    view link, and its TV view); ``group`` the game's group once the game is won and no
    next game exists yet (None otherwise, or outside a group): the TV shows its tonight's
    tally (the template global ``tonight_of``, offered by the players feature)."""

    code: str | None
    next_view: str | None
    next_tv: str | None
    group: Group | None


def following(game: Game) -> Following:
    """The :class:`Following` of ``game`` (a template global, ``night_of``)."""
    code, later = None, None
    if game.night_id is not None:
        night = db.session.get(Night, game.night_id)
        code = night.code if night is not None else None
        current = current_game(game.night_id)
        later = current if current is not None and current.id > game.id else None
    if later is not None:
        view = url_for("table.show", slug=later.view_token)
        return Following(code, view, url_for("table.show_tv", slug=later.view_token), None)
    group = db.session.get(Group, game.group_id) if game.winner and game.group_id else None
    return Following(code, None, None, group)


def register(bp: Blueprint) -> None:
    """Offer :func:`following` to the templates as ``night_of(game)``."""
    bp.add_app_template_global(following, "night_of")
