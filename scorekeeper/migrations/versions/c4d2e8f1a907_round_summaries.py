"""rounds.summary: each round's scores, running totals and next dealer, small, for the
game page (filled here for every existing live round, game by game, in order); an index
on (game, deleted, position) for the latest live rounds

Revision ID: c4d2e8f1a907
Revises: b3c1d9e7a512
Create Date: 2026-11-23 08:40:00.000000

"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "c4d2e8f1a907"
down_revision = "b3c1d9e7a512"
branch_labels = None
depends_on = None

GAMES = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("preset", sa.String),
    sa.column("options", sa.JSON),
    sa.column("first_dealer", sa.Integer),
)
PLAYERS = sa.table(
    "players",
    sa.column("game_id", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("name", sa.String),
    sa.column("side", sa.Integer),
)
ROUNDS = sa.table(
    "rounds",
    sa.column("id", sa.Integer),
    sa.column("game_id", sa.Integer),
    sa.column("position", sa.Integer),
    sa.column("input", sa.JSON),
    sa.column("figures", sa.JSON),
    sa.column("deleted", sa.Boolean),
    sa.column("summary", sa.JSON),
)


PRESETS = frozenset(
    "standard classic modern jokers-wild add-opponents-hand partnership persian quick".split()
)
"""The presets when this migration was written: none of them changed who deals next."""


def _rotation(preset: str, options: dict[str, Any]) -> tuple[str, bool] | None:
    """D5 and X2 as they stood when this migration was written (a frozen copy: a
    migration imports nothing of the app): the game's ``next_dealer`` ("left" unless its
    options say "round-winner") and whether it plays the dealer's gambit; None for a game
    whose rules cannot be read (its rounds keep no summary, as before)."""
    turn, gambit = options.get("next_dealer", "left"), options.get("dealers_gambit", False)
    if preset not in PRESETS or turn not in ("left", "round-winner"):
        return None
    return (turn, gambit) if isinstance(gambit, bool) else None


def _deals_next(rotation: tuple[str, bool], players: int, dealer: int, goer: int | None) -> int:
    """D5: the player to the left deals next (seeds 000, 002); under "round-winner" the
    one who went out (002); under the dealer's gambit (X2) the deal passes right."""
    turn, gambit = rotation
    if turn == "round-winner" and goer is not None:
        return goer
    return (dealer - 1) % players if gambit else (dealer + 1) % players


def _fill(connection: sa.Connection, game: sa.Row[Any]) -> None:
    """Write the summary of each live round of ``game``, chaining the dealer (D5)."""
    players = connection.execute(
        sa.select(PLAYERS.c.name, PLAYERS.c.side)
        .where(PLAYERS.c.game_id == game.id)
        .order_by(PLAYERS.c.seat)
    ).all()
    names = [p.name for p in players]
    rotation = _rotation(game.preset, game.options or {})
    if rotation is None or not names:
        return
    key = "sides" if any(p.side is not None for p in players) else "players"
    seat = game.first_dealer % len(names)
    rounds = connection.execute(
        sa.select(ROUNDS.c.id, ROUNDS.c.input, ROUNDS.c.figures)
        .where(ROUNDS.c.game_id == game.id, ROUNDS.c.deleted.is_(False))
        .order_by(ROUNDS.c.position)
    ).all()
    for r in rounds:
        goer = (r.input or {}).get("went_out")
        seat = _deals_next(rotation, len(names), seat, names.index(goer) if goer in names else None)
        units = (r.figures or {}).get(key) or {}
        summary = {
            "round": {u: f["round"] for u, f in units.items()},
            "total": {u: f["total"] for u, f in units.items()},
            "dealer": seat,
        }
        connection.execute(ROUNDS.update().where(ROUNDS.c.id == r.id).values(summary=summary))


def upgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("summary", sa.JSON(), nullable=True))
        batch_op.create_index(
            "ix_rounds_game_live_position", ["game_id", "deleted", "position"], unique=False
        )
    connection = op.get_bind()
    for game in connection.execute(sa.select(GAMES)).all():
        _fill(connection, game)


def downgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_index("ix_rounds_game_live_position")
        batch_op.drop_column("summary")
