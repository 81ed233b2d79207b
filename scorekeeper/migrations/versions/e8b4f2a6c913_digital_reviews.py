"""digital_reviews: the person's moves in a digital game that differed from the expert
bot's, with the expected points the difference cost, kept by round for the review at
each round's end.

Revision ID: e8b4f2a6c913
Revises: e7a4b2c9d310
Create Date: 2026-11-23 17:05:00.000000

"""

import sqlalchemy as sa
from alembic import op

revision = "e8b4f2a6c913"
down_revision = "e7a4b2c9d310"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create digital_reviews."""
    op.create_table(
        "digital_reviews",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("played", sa.String(length=200), nullable=False),
        sa.Column("expert", sa.String(length=200), nullable=False),
        sa.Column("why", sa.String(length=400), nullable=False),
        sa.Column("cost", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["digital_games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_digital_reviews_game_id", "digital_reviews", ["game_id"])


def downgrade() -> None:
    """Drop digital_reviews."""
    op.drop_index("ix_digital_reviews_game_id", table_name="digital_reviews")
    op.drop_table("digital_reviews")
