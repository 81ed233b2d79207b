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

from scorekeeper.engine import RulesError, ruleset
from scorekeeper.engine.scoring.tally import next_dealer

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


def _fill(connection: sa.Connection, game: sa.Row[Any]) -> None:
    """Write the summary of each live round of ``game``, chaining the dealer (D5)."""
    players = connection.execute(
        sa.select(PLAYERS.c.name, PLAYERS.c.side)
        .where(PLAYERS.c.game_id == game.id)
        .order_by(PLAYERS.c.seat)
    ).all()
    names = [p.name for p in players]
    try:
        rules = ruleset(game.preset, game.options or {})
    except RulesError:
        return
    key = "sides" if any(p.side is not None for p in players) else "players"
    seat = game.first_dealer
    rounds = connection.execute(
        sa.select(ROUNDS.c.id, ROUNDS.c.input, ROUNDS.c.figures)
        .where(ROUNDS.c.game_id == game.id, ROUNDS.c.deleted.is_(False))
        .order_by(ROUNDS.c.position)
    ).all()
    for r in rounds:
        seat = next_dealer(rules, names, seat, [(r.input or {}).get("went_out")])
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
