"""A move made and told, and the bots' moves until the person is asked: the steps the
play page shows (see :mod:`.services`' glossary: steps, scored, watch).

Every bot move is seeded by the game's seed and the move's place in the game, so any
worker process plays the same bot move.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from flask import current_app, has_app_context

from ..engine import (
    Action,
    GameState,
    Message,
    apply_action,
    bot_move_why,
    current_player,
    is_terminal,
    legal_actions,
    make_bot,
)
from . import store
from .moves import describe
from .shown import Step
from .store import Records, part_of

Watch = Callable[[GameState, Step], None]
"""Told of every move as it is made: the state just after it, and the step."""


def step(
    state: GameState,
    action: Action,
    steps: list[Step],
    scored: Records,
    watch: Watch | None = None,
    why: str = "",
) -> bool:
    """Make ``action`` for the current seat (raises ``IllegalMove``, state unchanged),
    describe it into ``steps`` (with ``why``, a bot's reason, when given) and tell
    ``watch``; when it ends a round add the round's scoring to ``scored`` and the round's
    (and the game's) end to ``steps``, and return True."""
    said = describe(state, state.seat, action)
    if why:
        said["why"] = why
        if isinstance(why, Message):
            said["why_said"] = why.to_json()
    number, ended, reshuffles = state.deal_number, len(state.scores), state.reshuffles
    apply_action(state, action)
    steps.append(said)
    if state.reshuffles > reshuffles:
        steps.append(_event("The discard pile is shuffled into a new stock.", rules=["O3"]))
    if len(state.scores) == ended:
        if watch is not None:
            watch(state, said)
        return False
    scored.append(state.scores[-1].to_json())
    end = part_of(store.fresh_rounds(state)[-1], "end")
    how = f"{end['went_out']} went out" if end["went_out"] else f"the {end['reason']}"
    steps.append(_event(f"Round {number} is over: {how}.", "round"))
    if is_terminal(state):
        steps.append(_event(f"The game is over: {state.winner} wins.", "game"))
    return True


def _event(text: str, kind: str = "event", rules: Sequence[str] = ()) -> Step:
    """An event of the game in words (``who`` empty), the ids of the ``rules`` it follows
    kept beside the words, never in them."""
    said = Step(who="", kind=kind, text=text, cards=[], groups=[])
    if rules:
        said["rules"] = list(rules)
    return said


def run_bot(
    state: GameState,
    bots: Sequence[str | None],
    steps: list[Step],
    scored: Records,
) -> bool:
    """The bot whose turn it is in ``state`` (``bots[seat]`` its level) makes one move,
    described into ``steps`` with why (``step["why"]``), its round's scoring into
    ``scored`` when it ends one; True when it ended a round. Seeded by the game's seed
    and the move's place in the game, so any worker process plays the same move (for
    the same samples). An expert level weighs its own samples (``Level.samples``), or
    ``PLAY_EXPERT_SAMPLES`` when set (:func:`expert_samples`), within
    ``PLAY_THINK_SECONDS`` of CPU time per decision (the app's config)."""
    seat = current_player(state)
    level = bots[seat] if seat is not None else None
    if seat is None or level is None:
        raise ValueError("no bot is to move")
    rng = random.Random(f"{state.seed}/{state.deal_number}/{len(state.log)}/0")
    bot = make_bot(level, expert_samples(), _think_seconds())
    action, why = bot_move_why(state, bot, rng, legal_actions(state))
    return step(state, action, steps, scored, why=why)


def expert_samples() -> int | None:
    """The sampled deals every expert level weighs per decision: ``PLAY_EXPERT_SAMPLES``
    (the app's config: the setting's meaning before the ladder, kept for the machines
    that set it) or None, each level its own (:attr:`engine.Level.samples`, the ones
    its ladder figures hold for); None outside an app. The heuristic levels sample
    nothing: the setting changes nothing for them."""
    samples = current_app.config.get("PLAY_EXPERT_SAMPLES") if has_app_context() else None
    return int(samples) if samples else None


def _think_seconds() -> float | None:
    """``PLAY_THINK_SECONDS`` of the app's config: an expert's CPU budget per decision
    (None outside an app: no budget)."""
    if not has_app_context():
        return None
    value = current_app.config.get("PLAY_THINK_SECONDS")
    return float(value) if value else None
