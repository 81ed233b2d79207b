"""The digital game's public interface, in one import.

A game in six calls::

    from scorekeeper.engine.game import (
        new_game, legal_actions, apply_action, observation, current_player, is_terminal,
        GameState, IllegalMove, make_bot, bot_move, action_from_json,
    )

    state = new_game(["Ann", "Bot 1", "Bot 2"], preset="standard", options={}, seed=42)
    while not is_terminal(state):
        seat = current_player(state)              # whose decision (0-based seat)
        view = observation(state, seat)           # what that seat may see (.to_json())
        legal = legal_actions(state)              # every legal move of that seat
        move = legal[0]                           # or a person's choice, or a bot's:
        move = bot_move(state, make_bot("basic"), rng, legal)
        move, why = bot_move_why(state, make_bot("expert"), rng, legal)  # and why
        move = rng.choice(legal)                  # or one uniformly random legal move
        apply_action(state, move)                 # IllegalMove(message, rule) if not legal
    saved = state.to_json()                       # JSON-able dict: store it
    state = GameState.from_json(saved)            # and restore it, equal
    hint = advise(state, rng)                     # the expert's move and why, not made

Moves are the frozen values of :mod:`actions` (``Draw("stock")``, ``Draw("discard", 3)``,
``LayDown(cards)``, ``LayOff(card, meld)``, ``Discard(card)``, ``Pass()``, ``EndRound()``,
``DrawTwo()``, ``RummyCall(index, meld)``); ``action.to_json()`` and
:func:`action_from_json` convert them for a form or an API. ``state.phase`` says what the
current seat must do (:class:`Phase`); ``state.rounds`` holds every finished round with
its scores (the scoring contract's figures, scored by the scorekeeper's own code);
``state.totals`` the running points per seat; ``state.winner`` the winner's name (or side,
"Ann & Cat") once the game is over. :func:`records.game_record` writes a game record
(shared/game-record.md); :func:`records.replay` reads one back.
"""

from __future__ import annotations

from .actions import (
    Action,
    ActionError,
    Block,
    Discard,
    Draw,
    DrawTwo,
    EndRound,
    Gambit,
    LayDown,
    LayOff,
    Nominate,
    Pass,
    RummyCall,
    Split,
    action_from_json,
)
from .bots import BOTS, Bot, bot_move, bot_move_why, make_bot
from .expert import Decision, advise, cost
from .plays import IllegalMove
from .rounds import new_game, round_play
from .state import GameSetupError, GameState, Observation, Phase, observation
from .turns import apply_action, current_player, is_terminal, legal_actions
from .why import to_person

__all__ = [
    "BOTS",
    "Action",
    "ActionError",
    "Bot",
    "Discard",
    "Draw",
    "DrawTwo",
    "EndRound",
    "GameSetupError",
    "GameState",
    "IllegalMove",
    "LayDown",
    "LayOff",
    "Observation",
    "Pass",
    "Phase",
    "RummyCall",
    "Block",
    "Decision",
    "advise",
    "cost",
    "Gambit",
    "Nominate",
    "Split",
    "action_from_json",
    "apply_action",
    "bot_move",
    "bot_move_why",
    "current_player",
    "is_terminal",
    "legal_actions",
    "make_bot",
    "new_game",
    "observation",
    "round_play",
    "to_person",
]
