"""A person's level from this phone's finished games against bots, and "Match my level".

Glossary:
- result: one per bot seat of a finished game this phone had a seat in (a one-person
  game, or a table game where it sat): 1 when the person finished ahead of that bot (the
  winner is ahead of everyone; then by final totals), 0 behind it, 0.5 level; under
  partnership rules (P1) by side (:func:`engine.results_against` decides).
- estimate: :func:`engine.estimate_rating` of the results: a rating on the ladder's
  scale and the nearest level.

Cheap by design: each finished game's saved state is read from its row, without its
rounds (one query for the seats of this phone's table games); no game is replayed, and
nothing is cached in process memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask import session
from flask_babel import gettext as _
from flask_babel import ngettext

from ..engine import BOTS, Estimate, GameState, estimate_rating, middle_level, results_against
from ..extensions import db
from ..languages.reader import number, translate
from ..models import DigitalGame, DigitalSeat
from ..web import same_token
from .seats import MATCH

Result = tuple[str, float]
"""``(bot level, score)``: 1 the person finished ahead of the bot, 0 behind, 0.5 level."""


@dataclass(frozen=True)
class Reading:
    """This phone's estimate (:class:`engine.Estimate`, None with no result yet) and the
    number of finished ``games`` against bots it rests on."""

    estimate: Estimate | None
    games: int

    @property
    def level_name(self) -> str:
        """The level "Match my level" seats: the nearest to the estimate, else the
        middle level of the ladder."""
        return (self.estimate.level if self.estimate else middle_level()).name

    def chosen(self, level: str | None) -> str | None:
        """The level a select's ``level`` seats: :attr:`level_name` for
        :data:`.seats.MATCH`, else ``level`` itself (None: a person)."""
        return self.level_name if level == MATCH else level

    @property
    def match_label(self) -> str:
        """The forms' label of :data:`.seats.MATCH` (short: a closed select at 360 px
        shows about 24 characters): the level it seats."""
        return str(_("Match my level: %(level)s", level=translate(BOTS[self.level_name].title)))

    @property
    def text(self) -> str:
        """The line for /play: the level, rating and what it rests on, or when none."""
        if self.estimate is None:
            return str(
                _(
                    "Your level appears here after you finish a game against bots; until then "
                    "Match my level seats the middle of the ladder, %(level)s.",
                    level=translate(middle_level().title),
                )
            )
        e = self.estimate
        results = ngettext("%(num)s result", "%(num)s results", e.results)
        games = ngettext("%(num)s game", "%(num)s games", self.games)
        return str(
            _(
                "Your level: about %(level)s, %(rating)s (from %(results)s in %(games)s "
                "against bots)",
                level=translate(e.level.title),
                rating=number(e.rating),
                results=results,
                games=games,
            )
        )


def results_of(game: DigitalGame, seat: int) -> list[Result]:
    """The person at ``seat``'s results against each bot of the finished ``game``
    (:func:`engine.results_against`; none before it is finished). Raises nothing for a
    row of any age."""
    if not game.finished or not game.state.get("totals"):
        return []
    state = GameState.from_json({**game.state, "rounds": []})
    return results_against(state, seat, game.bots)


def phone_seats(games: Sequence[DigitalGame]) -> dict[int, int]:
    """This phone's seat (from its signed session) in each of ``games`` it sat at:
    the person's seat of a one-person game, its token's seat at a table game (one
    query for all the table games)."""
    seats = {g.id: g.human_seat for g in games if g.host_token is None}
    tables = {g.id: g.slug for g in games if g.host_token is not None}
    if not tables:
        return seats
    tokens = dict(session.get("seats") or {})
    query = db.select(DigitalSeat.game_id, DigitalSeat.seat, DigitalSeat.token).where(
        DigitalSeat.game_id.in_(list(tables))
    )
    for game_id, seat, token in db.session.execute(query):
        if same_token(tokens.get(tables[game_id]), token):
            seats[game_id] = seat
    return seats


def phone_reading(games: Sequence[DigitalGame]) -> Reading:
    """This phone's :class:`Reading` from ``games`` (those of its session)."""
    finished = [g for g in games if g.finished]
    seats = phone_seats(finished)
    results: list[Result] = []
    counted = 0
    for game in finished:
        found = results_of(game, seats[game.id]) if game.id in seats else []
        counted += bool(found)
        results += found
    return Reading(estimate_rating(results), counted)


def chosen_levels(chosen: Sequence[str | None], reading: Reading) -> list[str | None]:
    """``chosen`` (levels, None for a person) with each :data:`.seats.MATCH` replaced
    by the level nearest this phone's estimate (:attr:`Reading.level_name`)."""
    return [reading.chosen(c) for c in chosen]
