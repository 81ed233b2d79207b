"""The seats of a digital game: how many bots, their names and their levels in words.

Shared by the new-game form and the services (which check a new game's seats again).
"""

from __future__ import annotations

from ..engine import BOTS

MAX_BOTS = 7
BOT_NAMES = ("Ada", "Bea", "Cy", "Dot", "Eli", "Fay", "Gus")
LEVEL_WORDS = {
    "random": "any legal move, picked at random: easy to beat",
    "basic": "melds greedily: takes the top discard when it can use it, lays down and "
    "lays off all it can, discards its highest loose card",
    "strong": "plays to win: remembers the pile and what each player took, weighs what "
    "its discards give away",
    "expert": "plays as strong players do: deals out the cards it cannot see many times "
    "over, plays each a few turns ahead and picks the move that scores best (slower)",
}
"""The bot levels in words for the new-game page (the engine's docstrings for others)."""


def bot_levels() -> dict[str, str]:
    """The engine's bot levels (:data:`engine.BOTS`), each with a description."""
    return {
        name: LEVEL_WORDS.get(name) or (cls.__doc__ or name).strip().split(".")[0]
        for name, cls in BOTS.items()
    }
