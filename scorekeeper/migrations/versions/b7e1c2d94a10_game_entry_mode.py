"""games.entry_mode: how the game page asks for a round (net or shown / in hand)

Revision ID: b7e1c2d94a10
Revises: 70bea3900ee3
Create Date: 2026-11-23 07:30:00.000000

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b7e1c2d94a10"
down_revision = "70bea3900ee3"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(
            sa.Column("entry_mode", sa.String(length=10), nullable=False, server_default="net")
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_column("entry_mode")
