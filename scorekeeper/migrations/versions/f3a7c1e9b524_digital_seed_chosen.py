"""digital_games.seed_chosen: whether the person chose the shuffle seed of a one-person game
(for practice) or the server drew it; NULL for the games started before, unknown then.

Revision ID: f3a7c1e9b524
Revises: e8b4f2a6c913
Create Date: 2026-11-24 09:10:00.000000

"""

import sqlalchemy as sa
from alembic import op

revision = "f3a7c1e9b524"
down_revision = "e8b4f2a6c913"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add seed_chosen, NULL (not known) for every existing game."""
    with op.batch_alter_table("digital_games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("seed_chosen", sa.Boolean(), nullable=True))


def downgrade() -> None:
    """Drop seed_chosen."""
    with op.batch_alter_table("digital_games", schema=None) as batch_op:
        batch_op.drop_column("seed_chosen")
