"""A move made and told, and the bots' moves until the person is asked: the steps the
play page shows (see :mod:`.services`' glossary: steps, scored, watch).

Every bot move is seeded by the game's seed and the move's place in the game, so any
worker process plays the same bot move.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from flask import current_app, has_app_context

from ..engine import (
    Action,
    GameState,
    apply_action,
    bot_move_why,
    current_player,
    is_terminal,
    legal_actions,
    make_bot,
)
from . import store
from .moves import describe

MAX_BOT_STEPS = 20_000
"""The most bot moves one request makes before the person is asked (a guard: a whole
game of bots ends far sooner)."""

Watch = Callable[[GameState, dict[str, Any]], None]
"""Told of every move as it is made: the state just after it, and the step."""


def step(
    state: GameState,
    action: Action,
    steps: list[dict[str, Any]],
    scored: list[dict[str, Any]],
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
    number, ended, reshuffles = state.deal_number, len(state.scores), state.reshuffles
    apply_action(state, action)
    steps.append(said)
    if state.reshuffles > reshuffles:
        steps.append(_event("The discard pile is shuffled into a new stock (O3)."))
    if len(state.scores) == ended:
        if watch is not None:
            watch(state, said)
        return False
    scored.append(state.scores[-1].to_json())
    end = store.fresh_rounds(state)[-1]["end"]
    how = f"{end['went_out']} went out" if end["went_out"] else f"the {end['reason']}"
    steps.append(_event(f"Round {number} is over: {how}.", "round"))
    if is_terminal(state):
        steps.append(_event(f"The game is over: {state.winner} wins.", "game"))
    return True


def _event(text: str, kind: str = "event") -> dict[str, Any]:
    return {"who": "", "kind": kind, "text": text, "cards": [], "groups": []}


def run_bots(
    state: GameState,
    bots: Sequence[str | None],
    steps: list[dict[str, Any]],
    scored: list[dict[str, Any]],
    watch: Watch | None = None,
) -> bool:
    """Let the bots move until the person is asked, a round ends or the game is over;
    True when they stopped at a round's end with the game going on (the pause). Each bot
    move is seeded by the game's seed and the move's place in the game, so a replay bot
    plays the same move in any worker process; each says why (``step["why"]``). An expert
    bot samples ``PLAY_EXPERT_SAMPLES`` deals per decision (the app's config)."""
    for count in range(MAX_BOT_STEPS):
        seat = current_player(state)
        if seat is None or bots[seat] is None:
            return False
        level = bots[seat]
        assert level is not None
        rng = random.Random(f"{state.seed}/{state.deal_number}/{len(state.log)}/{count}")
        bot = make_bot(level, _expert_samples())
        action, why = bot_move_why(state, bot, rng, legal_actions(state))
        if step(state, action, steps, scored, watch, why):
            return not is_terminal(state)
    raise RuntimeError(f"the bots made {MAX_BOT_STEPS} moves without the person being asked")


def _expert_samples() -> int | None:
    """``PLAY_EXPERT_SAMPLES`` of the app's config (None outside an app: the default)."""
    return current_app.config.get("PLAY_EXPERT_SAMPLES") if has_app_context() else None
