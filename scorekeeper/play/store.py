"""Where a digital game lives in the database: the round in play on the game's row, each
finished round in a row of its own, written once.

Glossary:
- current state: the engine's saved state (:meth:`GameState.to_json`, kept as the engine
  writes it, so new fields flow through) without ``rounds``; its size depends on the
  round in play, never on how long the game has lasted.
- log: the finished rounds (:class:`~scorekeeper.models.DigitalRound`), each the engine's
  round record and its scoring card by card, appended when the round ends.

A move reads the game's row and writes it back, plus one row per round it finished;
the log is read only when the engine looks at earlier rounds (:class:`StoredRounds`), for
the record download and for the scores page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, SupportsIndex, overload

from sqlalchemy import func

from ..engine.game import GameState
from ..extensions import db
from ..models import DigitalGame, DigitalRound

Records = list[dict[str, Any]]


class StoredRounds(list[dict[str, Any]]):
    """``GameState.rounds`` read from the log only when something reads it: appending (as
    the engine does when a round ends) needs no read. ``fresh()`` gives the rounds
    appended since the state was loaded, to be written to the log."""

    def __init__(self, fetch: Callable[[], Records]) -> None:
        super().__init__()
        self._fetch: Callable[[], Records] | None = fetch
        self._stored = 0

    def _load(self) -> None:
        if self._fetch is not None:
            fetch, self._fetch = self._fetch, None
            stored = fetch()
            self._stored = len(stored)
            super().__setitem__(slice(0, 0), stored)

    def fresh(self) -> Records:
        """The rounds appended since loading, oldest first."""
        return list(super().__getitem__(slice(self._stored, None)))

    def __len__(self) -> int:
        self._load()
        return super().__len__()

    def __iter__(self) -> Iterator[dict[str, Any]]:
        self._load()
        return super().__iter__()

    def __reversed__(self) -> Iterator[dict[str, Any]]:
        self._load()
        return super().__reversed__()

    def __contains__(self, item: object) -> bool:
        self._load()
        return super().__contains__(item)

    def __eq__(self, other: object) -> bool:
        self._load()
        return list(super().__iter__()) == other

    @overload
    def __getitem__(self, index: SupportsIndex) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> Records: ...

    def __getitem__(self, index: SupportsIndex | slice) -> dict[str, Any] | Records:
        self._load()
        return super().__getitem__(index)

    def __repr__(self) -> str:
        self._load()
        return super().__repr__()


def _records(game_id: int) -> Records:
    query = (
        db.select(DigitalRound.record)
        .where(DigitalRound.game_id == game_id)
        .order_by(DigitalRound.number)
    )
    return list(db.session.execute(query).scalars())


def load_state(game: DigitalGame) -> GameState:
    """The engine's state of ``game``: the round in play from the game's row, the finished
    rounds read from the log only if the engine looks at them."""
    game_id = game.id
    rounds = StoredRounds(lambda: _records(game_id))
    return GameState.from_json({**game.state, "rounds": rounds})


def full_state(game: DigitalGame) -> GameState:
    """The engine's state of ``game`` with every finished round read at once."""
    return GameState.from_json({**game.state, "rounds": _records(game.id)})


def current_json(state: GameState) -> dict[str, Any]:
    """What the game's row keeps: the state as the engine writes it, but its rounds."""
    data = state.to_json()
    del data["rounds"]
    return data


def fresh_rounds(state: GameState) -> Records:
    """The rounds ``state`` finished since it was loaded (all of them for a new state)."""
    rounds = state.rounds
    return rounds.fresh() if isinstance(rounds, StoredRounds) else list(rounds)


def rounds_finished(game: DigitalGame) -> int:
    """How many rounds of ``game`` are in the log."""
    query = db.select(func.count()).where(DigitalRound.game_id == game.id)
    return int(db.session.execute(query).scalar_one())


def append_rounds(game: DigitalGame, records: Records, scored: Records) -> None:
    """Add the finished ``records`` (with their ``scored``, in step) to ``game``'s log,
    numbered after the rounds already there (the session is not committed here)."""
    if not records:
        return
    start = rounds_finished(game) + 1
    for offset, record in enumerate(records):
        figures = scored[offset] if offset < len(scored) else None
        db.session.add(
            DigitalRound(game_id=game.id, number=start + offset, record=record, scored=figures)
        )


def scored_rounds(game: DigitalGame) -> Records:
    """Every finished round's scoring card by card, oldest first."""
    query = (
        db.select(DigitalRound.scored)
        .where(DigitalRound.game_id == game.id)
        .order_by(DigitalRound.number)
    )
    return [s for s in db.session.execute(query).scalars() if s is not None]


def last_round(game: DigitalGame) -> DigitalRound | None:
    """The newest finished round of ``game`` (one row), or None."""
    query = (
        db.select(DigitalRound)
        .where(DigitalRound.game_id == game.id)
        .order_by(DigitalRound.number.desc())
        .limit(1)
    )
    return db.session.execute(query).scalar_one_or_none()
