"""The keys that name what a live stream waits on, and a notice's payload read back.

- key: a game's kind and id as text, ``play:12`` (a digital game: a table's phones, the
  spectator board) or ``table:7`` (a scoresheet game: the TV view); a seat's key,
  ``seat:12.3`` (:func:`seat_key`), wakes only the streams of that seat of a digital
  game. A notice on the bus (:mod:`.bus`) carries one key as its payload.
"""

from __future__ import annotations

KINDS = ("play", "table")
"""The kinds of games streams wait on: digital games (a table's phones, the spectator
board) and scoresheet games (the TV view)."""


def play_key(game_id: int) -> str:
    """The key of a digital game's streams (``play:12``), also a notice's payload."""
    return f"play:{game_id}"


def seat_key(game_id: int, seat: int) -> str:
    """The key of the streams of seat ``seat`` (0-based) of a digital game
    (``seat:12.3``), also a notice's payload: a newer stream of the seat wakes only the
    seat's older one."""
    return f"seat:{game_id}.{seat}"


def game_of(key: str) -> str:
    """The key of the game a key names: a seat's key (``seat:12.3``) names its digital
    game's (``play:12``); a game's key names itself."""
    kind, _, number = key.partition(":")
    return play_key(int(number.split(".")[0])) if kind == "seat" else key


def table_key(game_id: int) -> str:
    """The key of a scoresheet game's streams (``table:7``: the TV view)."""
    return f"table:{game_id}"


def keys_in(payload: bytes | str) -> list[str]:
    """The key a notice carries (a game's or a seat's); none for a payload that is not
    one."""
    given = payload.decode() if isinstance(payload, bytes) else str(payload)
    kind, _, number = given.partition(":")
    parts = number.split(".")
    if len(parts) != (2 if kind == "seat" else 1) or kind not in (*KINDS, "seat"):
        return []
    return [given] if all(p.isdecimal() and len(p) < 19 for p in parts) else []
