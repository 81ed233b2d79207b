"""My games: the games this phone started or opened, as the home page lists them, and
deleting a game (with undo). The only page that lists games builds its list from this
phone's own signed session cookie, so no page shows another phone's games and no route
enumerates them.

Kept in Flask's session (signed, so a phone cannot forge another phone's list):
- ``mine``: view tokens of the games this phone opened, the most recent last;
- ``archived``: the view tokens this phone put away (listed apart, still reachable);
- ``deleted``: the view tokens this phone deleted, the most recent last, offered for undo.

Glossary: a game's *leader* is the player (or side, P1) with the highest total after its
last round; *last played* is when its last round was saved (when it started, before any).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from babel.lists import format_list
from flask import session
from flask_babel import gettext as _
from sqlalchemy import func
from sqlalchemy.orm import load_only

from ..extensions import db
from ..languages.reader import locale, number
from ..models import Game, Round
from . import services as sheet

KEEP_GAMES = 40
"""Games remembered per phone, the most recently opened kept."""
KEEP_DELETED = 5
"""Deleted games this phone can still bring back from the home page."""


@dataclass
class GameCard:
    """One line of the home page: the game, its live ``rounds`` count, who leads (in
    words, e.g. ``"Ann leads with 230"``) and when a round was last saved (UTC)."""

    game: Game
    rounds: int
    leader: str
    last_played: datetime


def _tokens(key: str) -> list[str]:
    return [t for t in session.get(key, []) if isinstance(t, str)]


def _keep(key: str, tokens: list[str], limit: int = KEEP_GAMES) -> None:
    session[key] = tokens[-limit:]
    session.permanent = True


def remember(game: Game) -> None:
    """Put ``game`` on this phone's list (or move it to the most recent place); the
    session is left untouched when it is already there."""
    mine = _tokens("mine")
    if mine and mine[-1] == game.view_token and session.permanent:
        return
    mine = [t for t in mine if t != game.view_token]
    _keep("mine", [*mine, game.view_token])


def archive(game: Game, archived: bool) -> None:
    """Put ``game`` away on this phone's list (``archived``), or bring it back."""
    rest = [t for t in _tokens("archived") if t != game.view_token]
    _keep("archived", [*rest, game.view_token] if archived else rest)
    remember(game)


def is_archived(view_token: str) -> bool:
    """True when this phone put the game away."""
    return view_token in _tokens("archived")


def leader_in_words(game: Game, last: Round | None) -> str:
    """Who leads after ``last`` (the game's last live round), grammatical for sides:
    ``"Ann leads with 230"``, ``"Ann & Cat lead with 120"``, ``"Ann and Bob lead with
    120"``, ``"Ann & Cat won"``, or ``"no round yet"``."""
    if game.winner:
        return str(_("%(winner)s won", winner=game.winner))
    if last is None:
        return str(_("no round yet"))
    totals: dict[str, int] = last.totals["total"]
    best = max(totals.values())
    leaders = [unit for unit, total in totals.items() if total == best]
    if len(leaders) > 1 or " & " in leaders[0]:
        together = format_list(leaders, locale=locale())
        return str(_("%(names)s lead with %(points)s", names=together, points=number(best)))
    return str(_("%(name)s leads with %(points)s", name=leaders[0], points=number(best)))


def my_games() -> list[GameCard]:
    """This phone's games that still exist, the most recently played first."""
    tokens = _tokens("mine")
    if not tokens:
        return []
    query = db.select(Game).where(Game.view_token.in_(tokens), Game.deleted_at.is_(None))
    games = {g.id: g for g in db.session.execute(query).scalars()}
    live = Round.game_id.in_(list(games)) & Round.deleted.is_(False)
    stats = db.session.execute(
        db.select(Round.game_id, func.count(), func.max(Round.position), func.max(Round.created_at))
        .where(live)
        .group_by(Round.game_id)
    ).all()
    counts = {gid: (n, position, when) for gid, n, position, when in stats}
    lasts = db.session.execute(
        db.select(Round)
        .where(live, Round.position.in_([position for _, position, _ in counts.values()]))
        .options(load_only(Round.game_id, Round.position, Round.summary))
    ).scalars()
    last_round = {r.game_id: r for r in lasts if counts[r.game_id][1] == r.position}
    cards = [
        GameCard(
            game,
            counts.get(gid, (0, 0, None))[0],
            leader_in_words(game, last_round.get(gid)),
            counts.get(gid, (0, 0, None))[2] or game.created_at,
        )
        for gid, game in games.items()
    ]
    return sorted(cards, key=lambda c: (c.last_played, c.game.id), reverse=True)


def delete_game(game: Game) -> None:
    """Delete ``game`` for everyone (its links answer 404), keeping it so that this phone
    can undo the delete from the home page. The caller checks the edit rights."""
    sheet.mark_deleted(game, True)
    deleted = [t for t in _tokens("deleted") if t != game.view_token]
    _keep("deleted", [*deleted, game.view_token], KEEP_DELETED)


def deleted_games() -> list[Game]:
    """The games this phone deleted and can still bring back, the most recent first."""
    tokens = _tokens("deleted")
    if not tokens:
        return []
    query = db.select(Game).where(Game.view_token.in_(tokens), Game.deleted_at.is_not(None))
    found = {g.view_token: g for g in db.session.execute(query).scalars()}
    return [found[t] for t in reversed(tokens) if t in found]


def deleted_game(view_token: str) -> Game | None:
    """The game at ``view_token`` when this phone deleted it and it is still deleted."""
    return next((g for g in deleted_games() if g.view_token == view_token), None)


def restore_game(game: Game) -> None:
    """Undo the delete of ``game`` (from :func:`deleted_game`) and put it back on this
    phone's list. The caller checks the edit rights."""
    sheet.mark_deleted(game, False)
    _keep("deleted", [t for t in _tokens("deleted") if t != game.view_token], KEEP_DELETED)
    remember(game)
