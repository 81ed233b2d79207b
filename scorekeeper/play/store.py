"""Where a digital game lives in the database: the round in play on the game's row, each
finished round in a row of its own, written once.

Glossary:
- current state: the engine's saved state (:meth:`GameState.to_json`, kept as the engine
  writes it, so new fields flow through) without ``rounds``; its size depends on the
  round in play, never on how long the game has lasted.
- log: the finished rounds (:class:`~scorekeeper.models.DigitalRound`), each the engine's
  round record and its scoring card by card, appended when the round ends.

A move reads the game's row and writes it back, plus one row per round it finished: the
engine keeps in the state what it needs of earlier rounds (who has opened in the game,
M6), so a state is loaded without them and its ``rounds`` are the rounds finished since.
The log is read for the record download and for the scores page.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import func

from ..engine import GameState, laid_down_in
from ..extensions import db
from ..groups.facts import refresh
from ..models import DigitalGame, DigitalRound

Records = list[dict[str, object]]
"""Rounds as JSON objects: the engine's round records, or their scorings."""


def part_of(record: Mapping[str, object], key: str) -> Mapping[str, object]:
    """The JSON object at ``key`` of ``record`` (a round's ``end``, a scoring's
    ``players``), empty when it is missing or null."""
    part = record.get(key)
    return part if isinstance(part, Mapping) else {}


def items_of(record: Mapping[str, object], key: str) -> list[Mapping[str, object]]:
    """The JSON objects listed at ``key`` of ``record`` (a scoring's ``cards``), none when
    it is missing or null."""
    items = record.get(key)
    return [i for i in items if isinstance(i, Mapping)] if isinstance(items, list) else []


def _records(game_id: int) -> Records:
    query = (
        db.select(DigitalRound.record)
        .where(DigitalRound.game_id == game_id)
        .order_by(DigitalRound.number)
    )
    return list(db.session.execute(query).scalars())


def load_state(game: DigitalGame) -> GameState:
    """The engine's state of ``game`` from the game's row, without its finished rounds
    (its ``rounds`` then hold those it finishes, :func:`fresh_rounds`). A state saved
    before the state kept who has opened in the game (M6) gets them from the log, read
    once (:func:`.engine.game.state.laid_down_in`); the next move saves them."""
    data = {**game.state, "rounds": []}
    if "opened_game" not in data:
        data["opened_game"] = sorted(laid_down_in(_records(game.id)))
    return GameState.from_json(data)


def full_state(game: DigitalGame) -> GameState:
    """The engine's state of ``game`` with every finished round read at once."""
    return GameState.from_json({**game.state, "rounds": _records(game.id)})


def current_json(state: GameState) -> dict[str, object]:
    """What the game's row keeps: the state as the engine writes it, but its rounds."""
    data = state.to_json()
    del data["rounds"]
    return data


def fresh_rounds(state: GameState) -> Records:
    """The rounds ``state`` finished since it was loaded (:func:`load_state`; all of them
    for a new state)."""
    return list(state.rounds)


def rounds_finished(game: DigitalGame) -> int:
    """How many rounds of ``game`` are in the log."""
    query = db.select(func.count()).where(DigitalRound.game_id == game.id)
    return int(db.session.execute(query).scalar_one())


def append_rounds(game: DigitalGame, records: Records, scored: Records) -> None:
    """Add the finished ``records`` (with their ``scored``, in step) to ``game``'s log,
    numbered after the rounds already there, and store the game's facts when it is in
    a group (:func:`scorekeeper.groups.facts.refresh`; the session is not committed here)."""
    if not records:
        return
    start = rounds_finished(game) + 1
    for offset, record in enumerate(records):
        figures = scored[offset] if offset < len(scored) else None
        db.session.add(
            DigitalRound(game_id=game.id, number=start + offset, record=record, scored=figures)
        )
    if game.group_id is not None:
        refresh(game)


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
