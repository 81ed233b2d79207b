"""nights: the games of one game night linked (``games.night_id``), each night with a
short room code; every existing game keeps its rows and belongs to no night (one is
given to it when its TV or share page is first shown, or at "Play again").

Revision ID: a4c7e9f2d613
Revises: c9d4e2a7f318
Create Date: 2026-11-29 10:40:00.000000

"""

import sqlalchemy as sa
from alembic import op

revision = "a4c7e9f2d613"
down_revision = "c9d4e2a7f318"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create nights; add games.night_id (NULL for every existing game)."""
    op.create_table(
        "nights",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=8), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code", name="uq_nights_code"),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("night_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            "fk_games_night_id", "nights", ["night_id"], ["id"], ondelete="SET NULL"
        )
        batch_op.create_index("ix_games_night_id", ["night_id"])


def downgrade() -> None:
    """Drop games.night_id and nights (the games stay, no longer linked)."""
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_night_id")
        batch_op.drop_constraint("fk_games_night_id", type_="foreignkey")
        batch_op.drop_column("night_id")
    op.drop_table("nights")
