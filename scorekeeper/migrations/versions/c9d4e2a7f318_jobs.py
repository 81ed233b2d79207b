"""jobs: the work the queue's worker processes do (bots' moves, hints, reviews, imports),
one row per job, tied to the game's version it is about, with who asked (the per-client
bounds) and when it started and finished (a job whose worker died is run again).

Revision ID: c9d4e2a7f318
Revises: b27e4f1a9c01
Create Date: 2026-11-29 01:00:00.000000

"""

import sqlalchemy as sa
from alembic import op

revision = "c9d4e2a7f318"
down_revision = "b27e4f1a9c01"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create jobs."""
    op.create_table(
        "jobs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("args", sa.JSON(), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("error", sa.String(length=400), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["digital_games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("kind", "game_id", "version", "seat", name="uq_jobs_position"),
    )
    op.create_index("ix_jobs_game_id", "jobs", ["game_id"])
    op.create_index("ix_jobs_client", "jobs", ["client"])
    op.create_index("ix_jobs_address", "jobs", ["address"])
    op.create_index("ix_jobs_waiting", "jobs", ["finished_at", "created_at"])


def downgrade() -> None:
    """Drop jobs (work not yet done is lost: each game's due bot move is asked again)."""
    op.drop_index("ix_jobs_waiting", table_name="jobs")
    op.drop_index("ix_jobs_address", table_name="jobs")
    op.drop_index("ix_jobs_client", table_name="jobs")
    op.drop_index("ix_jobs_game_id", table_name="jobs")
    op.drop_table("jobs")
