"""digital_seats: a digital game played on several phones (one per person, bots in the
other seats). ``digital_games.host_token`` is the host's secret (NULL for a one-person
game, which keeps working unchanged: one person seat, ``human_seat``, and bots) and
``moved_at`` when the game last moved (seconds since the epoch: the turn in play began
then); each person's seat of a shared table has a row with its own secret token, when
the person last reached the server and whether a bot is playing for them.

Revision ID: e7a4b2c9d310
Revises: d5e9a3c7b214
Create Date: 2026-11-23 17:05:00.000000

"""

import sqlalchemy as sa
from alembic import op

revision = "e7a4b2c9d310"
down_revision = "d5e9a3c7b214"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("digital_games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("host_token", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("moved_at", sa.Float(), nullable=True))
    op.create_table(
        "digital_seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=40), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=True),
        sa.Column("last_seen", sa.Float(), nullable=True),
        sa.Column("away", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.ForeignKeyConstraint(["game_id"], ["digital_games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat", name="uq_digital_seats_seat"),
    )


def downgrade() -> None:
    op.drop_table("digital_seats")
    with op.batch_alter_table("digital_games", schema=None) as batch_op:
        batch_op.drop_column("moved_at")
        batch_op.drop_column("host_token")
