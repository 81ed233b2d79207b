"""The expert's hint for the person, and the review of the person's moves after a round.

Glossary:
- advice: the expert bot's :class:`engine.Decision` for a position (:func:`advice`),
  seeded by the game's seed and the move's place in the round, over
  ``PLAY_HINT_SAMPLES`` sampled deals (default the expert's own): the one computation
  behind both the hint and the review, so the same position gets the same answer.
- hint: the advice in words, and why in one sentence; nothing is played.
- review: each move of the person's (a draw, a lay-down, a lay-off, a discard) that
  differed from the advice for that position, with the expected points the difference
  gave up (:func:`engine.cost`), kept as a :class:`models.DigitalReview` row of its
  round and shown at the round's end. A move the hint advised is never reviewed.
  The setting ``PLAY_REVIEW`` (on/off, default on;
  :meth:`scorekeeper.hosting.settings.Settings.reviewing`, which still reads the older
  ``PLAY_REVIEW_SAMPLES``, 0 for off) turns it off.

Reads only, and only in a job of the queue (:mod:`.thinking`), which writes what it
found.
"""

from __future__ import annotations

import random
import re

from flask import current_app

from ..engine import (
    N_,
    SAMPLES,
    Action,
    Decision,
    GameState,
    Phase,
    advise,
    cost,
    current_player,
    to_person,
)
from ..extensions import db
from ..languages.reader import translate
from ..models import DigitalGame, DigitalReview
from .moves import describe
from .shown import Hint, NoHint, Review

MIN_COST = 1.0
"""A move is reviewed only when the difference is expected to cost at least this (points)."""
WEIGHED = (Phase.DRAW, Phase.PLAY)
"""The phases whose decisions the expert weighs (the draw, then melds and the discard)."""


def advice(game: DigitalGame, state: GameState, played: Action | None = None) -> Decision:
    """The expert's :class:`engine.Decision` for the current seat of ``state`` (its view
    only) in ``game``; ``played`` (a legal move) is weighed too, on the same sampled deals,
    so the advised move and its figures do not change with it (common random numbers)."""
    samples = int(current_app.config.get("PLAY_HINT_SAMPLES") or 0) or SAMPLES
    budget = float(current_app.config.get("PLAY_THINK_SECONDS") or 0) or None
    rng = random.Random(f"expert/{game.seed}/{state.deal_number}/{len(state.log)}")
    return advise(state, rng, samples, played=played, budget=budget)


RULE_IDS = re.compile(r" ?\(([A-Z][0-9]+)\)")
"""A rule id in brackets in the expert's sentence, e.g. ``" (T2)"``: shown as a link."""


def _in_words(sentence: str) -> tuple[str, list[str]]:
    """``sentence`` without its bracketed rule ids, and those ids in order."""
    return RULE_IDS.sub("", sentence), RULE_IDS.findall(sentence)


NOTHING_TO_DECIDE = N_("there is nothing for you to decide now")


def hint(game: DigitalGame, state: GameState, seat: int | None = None) -> Hint | NoHint:
    """The expert's hint for the person in ``seat`` (default the one-person game's
    ``human_seat``) of ``game`` (see the glossary): a :class:`.shown.Hint`, ``{"move",
    "why", "rules", "action", "cards", "groups", "expected", "samples"}`` (``why`` in
    words, the ids of the rules it follows in ``rules``; ``expected``: the advised move's
    expected difference in points, None when nothing was weighed; ``samples``: the sampled deals
    behind it, 0 then), or ``{"error"}`` when that person has no decision to make now. It
    reads only that seat's view, as every bot does."""
    mine = game.human_seat if seat is None else seat
    if game.finished or game.paused or current_player(state) != mine:
        return NoHint(error=NOTHING_TO_DECIDE)
    decision = advice(game, state)
    said = describe(state, state.seat, decision.action)
    why, rules = _in_words(translate(to_person(decision.reason)))
    return Hint(
        move=said["text"][:1].upper() + said["text"][1:],
        move_said=said.get("text_said", {}),
        why=why + ".",
        rules=rules,
        action=decision.action.to_json(),
        cards=said["cards"],
        groups=said["groups"],
        expected=round(decision.values[decision.action], 1) if decision.values else None,
        samples=decision.samples,
    )


def review_move(game: DigitalGame, state: GameState, action: Action) -> DigitalReview | None:
    """The review row of the person's ``action`` made in ``state`` (the state before it)
    when it differs from the expert's move by at least :data:`MIN_COST` expected points,
    else None (and None when the phase is not weighed, or ``game`` is a table game of
    several phones: its review would tell every phone what one hand held). Computed by
    a job (:func:`.thinking.review`), never in a request."""
    if game.host_token is not None or state.phase not in WEIGHED:
        return None
    if state.seat != game.human_seat:
        return None
    decision = advice(game, state, played=action)
    lost = cost(decision, action)
    if lost is None or lost < MIN_COST:
        return None
    return DigitalReview(
        game_id=game.id,
        number=state.deal_number,
        played=describe(state, state.seat, action)["text"][:200],
        expert=describe(state, state.seat, decision.action)["text"][:200],
        why=decision.reason[:400],
        cost=round(lost, 1),
    )


def reviews(game: DigitalGame, number: int) -> list[Review]:
    """The review of round ``number`` of ``game``: each reviewed move as
    ``{"played", "expert", "why", "cost"}`` (:class:`.shown.Review`) in the order made."""
    query = (
        db.select(DigitalReview)
        .where(DigitalReview.game_id == game.id, DigitalReview.number == number)
        .order_by(DigitalReview.id)
    )
    return [
        Review(played=r.played, expert=r.expert, why=r.why, cost=r.cost)
        for r in db.session.execute(query).scalars()
    ]
