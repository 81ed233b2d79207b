"""round versions (a correction conflicts only with a change to the same round); a
digital game's seed as text (64 random bits do not fit an INTEGER)

Revision ID: b3c1d9e7a512
Revises: b7c1d2e3f4a5
Create Date: 2026-11-23 07:40:00.000000

"""

import sqlalchemy as sa
from alembic import op

revision = "b3c1d9e7a512"
down_revision = "b7c1d2e3f4a5"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), server_default="1", nullable=False))
    with op.batch_alter_table("digital_games", schema=None) as batch_op:
        batch_op.alter_column(
            "seed",
            existing_type=sa.Integer(),
            type_=sa.String(length=40),
            existing_nullable=False,
            postgresql_using="seed::varchar",
        )


def downgrade() -> None:
    with op.batch_alter_table("digital_games", schema=None) as batch_op:
        batch_op.alter_column(
            "seed",
            existing_type=sa.String(length=40),
            type_=sa.Integer(),
            existing_nullable=False,
            postgresql_using="seed::integer",
        )
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_column("version")
