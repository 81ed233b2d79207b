"""digital_rounds: each finished round of a digital game in its own row, written once (the
game's append-only log); digital_games.state keeps only the round in play (the engine's
state without its ``rounds``), so a move reads and writes a bounded amount; ``paused``
for the pause at a round's end. Existing games are split here, game by game (and joined
back on downgrade).

Revision ID: d5e9a3c7b214
Revises: d5e9a3c7b210
Create Date: 2026-11-23 09:55:00.000000

"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "d5e9a3c7b214"
down_revision = "d5e9a3c7b210"
branch_labels = None
depends_on = None

GAMES = sa.table(
    "digital_games",
    sa.column("id", sa.Integer),
    sa.column("state", sa.JSON),
    sa.column("scored", sa.JSON),
)
ROUNDS = sa.table(
    "digital_rounds",
    sa.column("game_id", sa.Integer),
    sa.column("number", sa.Integer),
    sa.column("record", sa.JSON),
    sa.column("scored", sa.JSON),
)


def _split(connection: sa.Connection, game: sa.Row[Any]) -> None:
    """Move ``game``'s finished rounds (and their scoring) into rows of digital_rounds."""
    state = dict(game.state or {})
    records = state.pop("rounds", None) or []
    scored = list(game.scored or [])
    rows = [
        {
            "game_id": game.id,
            "number": number,
            "record": record,
            "scored": scored[number - 1] if number <= len(scored) else None,
        }
        for number, record in enumerate(records, start=1)
    ]
    if rows:
        connection.execute(ROUNDS.insert(), rows)
    connection.execute(GAMES.update().where(GAMES.c.id == game.id).values(state=state))


def _join(connection: sa.Connection, game: sa.Row[Any]) -> None:
    """Put ``game``'s rounds back into its state and its scoring into ``scored``."""
    rows = connection.execute(
        sa.select(ROUNDS.c.record, ROUNDS.c.scored)
        .where(ROUNDS.c.game_id == game.id)
        .order_by(ROUNDS.c.number)
    ).all()
    state = dict(game.state or {}) | {"rounds": [r.record for r in rows]}
    scored = [r.scored for r in rows if r.scored is not None]
    connection.execute(
        GAMES.update().where(GAMES.c.id == game.id).values(state=state, scored=scored)
    )


def upgrade() -> None:
    op.create_table(
        "digital_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("scored", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["digital_games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "number", name="uq_digital_rounds_number"),
    )
    connection = op.get_bind()
    for game in connection.execute(sa.select(GAMES)).all():
        _split(connection, game)
    with op.batch_alter_table("digital_games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("paused", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.drop_column("scored")


def downgrade() -> None:
    with op.batch_alter_table("digital_games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("scored", sa.JSON(), nullable=True))
        batch_op.drop_column("paused")
    connection = op.get_bind()
    for game in connection.execute(sa.select(GAMES)).all():
        _join(connection, game)
    with op.batch_alter_table("digital_games", schema=None) as batch_op:
        batch_op.alter_column("scored", existing_type=sa.JSON(), nullable=False)
    op.drop_table("digital_rounds")
