"""A move made and told, and the bots' moves until the person is asked: the steps the
play page shows (see :mod:`.services`' glossary: steps, scored, watch).

Every bot move is seeded by the game's seed and the move's place in the game, so any
worker process plays the same bot move.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

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
    say,
)
from ..languages.reader import reword, translate
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
        steps.append(_event(say("The discard pile is shuffled into a new stock."), rules=["O3"]))
    if len(state.scores) == ended:
        if watch is not None:
            watch(state, said)
        return False
    scored.append(with_said(state.scores[-1].to_json()))
    end = part_of(store.fresh_rounds(state)[-1], "end")
    steps.append(_event(round_over(number, end["went_out"], end["reason"]), "round"))
    if is_terminal(state):
        steps.append(_event(say("The game is over: %(name)s wins.", name=state.winner), "game"))
    return True


def round_over(number: int, went_out: object, reason: object) -> Message:
    """ "Round 3 is over: Ann went out." (or the reason the round ended): the move log's
    step and the round's end banner (:func:`.ending.ending`)."""
    if went_out:
        return say("Round %(number)s is over: %(name)s went out.", number=number, name=went_out)
    if reason == "stock exhausted":
        return say("Round %(number)s is over: the stock exhausted.", number=number)
    if not reason:
        return say("Round %(number)s is over.", number=number)
    return say("Round %(number)s is over: the %(reason)s.", number=number, reason=reason)


def with_said(data: Any) -> Any:
    """``data`` (the engine's JSON, a round's scoring) with each engine sentence in it kept
    as its message too, beside it (``why`` and ``why_said``, :meth:`engine.Message.to_json`),
    so that :func:`told` shows the saved scoring in each reader's language."""
    if isinstance(data, Mapping):
        kept: dict[str, Any] = {}
        for key, value in data.items():
            kept[key] = with_said(value)
            if isinstance(value, Message):
                kept[f"{key}_said"] = value.to_json()
        return kept
    if isinstance(data, list):
        return [with_said(value) for value in data]
    return data


def told(said: Mapping[str, Any], key: str = "text") -> object:
    """A step's ``key`` (``text`` or ``why``) in the request's language: from the message
    kept beside it (``text_said``, ``why_said``: :meth:`engine.Message.to_json`) when
    there is one, else the words as kept (looked up as their own message id: a sentence
    without figures saved before its message was kept). A template filter."""
    kept = said.get(f"{key}_said")
    if isinstance(kept, Mapping):
        try:
            return translate(Message.from_json(kept))
        except (KeyError, TypeError, ValueError):
            pass
    return reword(said.get(key, ""))


def _event(text: Message, kind: str = "event", rules: Sequence[str] = ()) -> Step:
    """An event of the game in words (``who`` empty), the ids of the ``rules`` it follows
    kept beside the words, never in them."""
    said = Step(who="", kind=kind, text=text, cards=[], groups=[], text_said=text.to_json())
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
