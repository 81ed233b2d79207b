"""digital_seats.stream: the number of each seat's newest event stream. A phone opening
a seat's stream counts it one up; an older stream of the same seat (the phone
reconnecting, or the seat's link opened on another phone), served by any process, ends
when it sees a newer number. Existing seats start at 0.

Revision ID: f3a6c8e1d205
Revises: f3a7c1e9b524
Create Date: 2026-11-24 10:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

revision = "f3a6c8e1d205"
down_revision = "f3a7c1e9b524"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add digital_seats.stream (0 for every existing seat)."""
    with op.batch_alter_table("digital_seats", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("stream", sa.Integer(), nullable=False, server_default=sa.text("0"))
        )


def downgrade() -> None:
    """Drop digital_seats.stream."""
    with op.batch_alter_table("digital_seats", schema=None) as batch_op:
        batch_op.drop_column("stream")
