"""languages of games and groups: a table game, a digital game and a group each keep the
language of their TV and shared result (a code of ``scorekeeper.languages.LANGUAGES``);
every existing row keeps its data and gets NULL, "the reader's language".

Revision ID: c1a8e4d7f902
Revises: b7d2e5f1c804
Create Date: 2026-11-29 15:30:00.000000

"""

import sqlalchemy as sa
from alembic import op

revision = "c1a8e4d7f902"
down_revision = "b7d2e5f1c804"
branch_labels = None
depends_on = None

TABLES = ("games", "digital_games", "groups")
"""The tables given a ``language`` column."""


def upgrade() -> None:
    """Add the nullable ``language`` column to each of :data:`TABLES`."""
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("language", sa.String(length=10), nullable=True))


def downgrade() -> None:
    """Drop the ``language`` columns."""
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("language")
