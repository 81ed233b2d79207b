"""games.deleted_at: a game deleted from a phone is kept, hidden, so the delete can be undone

Revision ID: b7c1d2e3f4a5
Revises: b7e1c2d94a10
Create Date: 2026-11-23 07:20:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b7c1d2e3f4a5"
down_revision = "b7e1c2d94a10"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deleted_at", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("deleted_at")
