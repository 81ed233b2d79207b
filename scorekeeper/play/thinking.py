"""The digital game's work that computes, as jobs of the queue (:mod:`scorekeeper.jobs`),
done by its worker processes, never in a web request:

- ``bot``: the bots' moves due after a person's (:func:`bot_move`), one job a bots'
  turn, tied to the game's version: each move is the next version, which reaches every
  phone through the wake-ups and streams as it is made, until a person is asked. A job
  for a version that has passed makes no move.
- ``hint``: the expert's hint for one seat at one version (:func:`hint`), kept as the
  job's result; ``hint.json`` answers 202 (thinking) until it is there
  (:func:`hint_for`).
- ``review``: the review of one of the person's moves against the expert's
  (:func:`review`), from the state before it kept with the job; the row is shown at the
  round's end.

Each reads the game from the database and writes it back; nothing of a game lives in a
worker's memory.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask_babel import gettext as _

from .. import jobs
from ..engine import N_, GameState, Message, action_from_json, current_player
from ..extensions import db
from ..languages.reader import translate
from ..models import DigitalGame, Job
from . import hints, services
from .tables import seating


def _game(job: Job) -> DigitalGame | None:
    """The job's game read afresh, or None when it is gone."""
    if job.game_id is None:
        return None
    return db.session.get(DigitalGame, job.game_id, populate_existing=True)


def bots_now(game: DigitalGame) -> list[str | None]:
    """Who a bot plays now at ``game``: its bot seats, and at a table of several phones
    the stand-ins for people away (:func:`scorekeeper.play.tables.seating.playing_bots`)."""
    if game.host_token is None:
        return list(game.bots)
    return seating.playing_bots(game, seating.seat_rows(game))


@jobs.handler("bot")
def bot_move(job: Job) -> dict[str, object] | None:
    """A ``bot`` job: while the game is still at the version the job has got to (the
    job's own at first) and a bot is due, that bot's one move as the next version
    (:func:`.services.bot_move`, written only if the stored version is still the one
    the job got to, else the job stops), so each move reaches every phone as it is
    made, until the person is asked, a round ends or the game is over. The state is
    read once and carried from move to move (each save writes it); who a bot plays is
    read afresh before each move (a phone may have changed the seats meanwhile).
    ``{"version", "moves"}`` written, or None when nothing was due. A job whose version
    has passed makes no move; if a bot is still due at the game's version (its worker
    died after some moves), it asks for that version's job (the same job asked twice is
    one), so no game waits for a page to be reloaded."""
    game = _game(job)
    if game is None:
        return None
    if game.version != job.version:
        services.ask_bots(game, services.load_state(game), bots_now(game), who=_who(job))
        return None
    made = 0
    state = services.load_state(game)
    while services.bot_move(game, state, bots_now(game)):  # seats read afresh each move
        made += 1  # ``game`` and ``state`` now hold the version just written
    return {"version": job.version + made, "moves": made} if made else None


def _who(job: Job) -> tuple[str, str]:
    return job.client, job.address


@jobs.handler("hint")
def hint(job: Job) -> dict[str, object] | None:
    """A ``hint`` job: the expert's hint for the job's seat at its version
    (:func:`.hints.hint`), or ``{"error"}`` when the game has moved on."""
    game = _game(job)
    if game is None or game.version != job.version:
        return {"error": MOVED_ON}
    return dict(hints.hint(game, services.load_state(game), job.seat))


@jobs.handler("review")
def review(job: Job) -> dict[str, object] | None:
    """A ``review`` job: the person's move (``args["action"]``) weighed against the
    expert's in the state before it (``args["state"]``); the review row added when the
    move gave up at least :data:`.hints.MIN_COST` expected points. ``{"cost"}`` or
    None."""
    game = _game(job)
    if game is None:
        return None
    state = GameState.from_json({**job.args["state"], "rounds": []})
    action = action_from_json(job.args["action"])
    noted = hints.review_move(game, state, action)
    if noted is None:
        return None
    services.keep_review(noted)
    return {"cost": noted.cost}


def hint_for(game: DigitalGame, seat: int) -> Mapping[str, object] | None:
    """The hint for ``seat`` at ``game``'s version: the hint (as :func:`.hints.hint`) or
    ``{"error"}`` when there is nothing to decide, or None while the expert thinks (its
    job asked for now when it was not). Raises :class:`scorekeeper.jobs.Refused` when
    this client has too many jobs waiting (``PLAY_JOBS_PER_CLIENT``)."""
    state = services.load_state(game)
    if game.finished or game.paused or current_player(state) != seat:
        return {"error": _(hints.NOTHING_TO_DECIDE)}
    job = jobs.find("hint", game.id, game.version, seat)
    if job is None:
        services.check_share()
        job = jobs.submit("hint", game.id, game.version, seat)
        job = db.session.get(Job, job.id, populate_existing=True)  # done when inline
    if job is None or job.finished_at is None:
        return None
    if job.result is None:
        return {"error": _("the expert could not find a hint: ask again")}
    return spoken_hint(job.result)


MOVED_ON = N_("the game has moved on: ask again")
"""A hint job's answer for a version that has passed (kept in English, said in the
reader's language by :func:`spoken_hint`)."""


def spoken_hint(result: Mapping[str, object]) -> dict[str, object]:
    """A hint job's result in the request's language: its ``error`` (a message id of
    this module or :mod:`.hints`) and its ``move`` (from ``move_said``, capitalised)."""
    said = dict(result)
    if isinstance(said.get("error"), str):
        said["error"] = _(str(said["error"]))
    kept = said.pop("move_said", None)
    if isinstance(kept, Mapping) and kept:
        try:
            move = str(translate(Message.from_json(kept)))
        except (KeyError, TypeError, ValueError):
            return said
        said["move"] = move[:1].upper() + move[1:]
    return said
