"""game_facts and seat_facts: each game of a group stored as facts (who won, the totals,
the settlement, each seat's round sums), written whenever the game changes, with each
member's running totals over them (player_totals, partner_totals), so the group's
figures read a row per player, flat in its games; groups.facts_version, counted up whenever they
change (the pages' ETag). The tables are made here, empty; the app fills them for every
existing game of a group once this revision is applied, with its one writer of facts
(the backfill of this revision, ``scorekeeper.app``: a migration imports nothing of the
app). The games themselves are not touched, so a downgrade drops the facts and keeps
every game.

Revision ID: b27e4f1a9c01
Revises: f3a6c8e1d205
Create Date: 2026-11-26 03:00:00.000000

"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "b27e4f1a9c01"
down_revision = "f3a6c8e1d205"
branch_labels = None
depends_on = None


def _create_tables() -> None:
    op.create_table(
        "game_facts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("digital_game_id", sa.Integer(), nullable=True),
        sa.Column("counts", sa.Boolean(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("winner", sa.String(length=90), nullable=True),
        sa.Column("stake", sa.String(length=20), nullable=True),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["digital_game_id"], ["digital_games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", name="uq_game_facts_game"),
        sa.UniqueConstraint("digital_game_id", name="uq_game_facts_digital_game"),
    )
    op.create_index("ix_game_facts_group_started", "game_facts", ["group_id", "started_at", "id"])
    op.create_index("ix_game_facts_group_finished", "game_facts", ["group_id", "finished_at"])
    seat_columns = [
        sa.Column(name, sa.Integer(), nullable=False)
        for name in ("own", "score", "settlement_halves", "rounds", "went_out", "points")
    ]
    seat_columns += [sa.Column(n, sa.Integer(), nullable=False) for n in ("left", "left_rounds")]
    op.create_table(
        "seat_facts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("fact_id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("counts", sa.Boolean(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=True),
        sa.Column("partner_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("unit", sa.String(length=90), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("money_half_cents", sa.Integer(), nullable=True),
        sa.Column("best", sa.Integer(), nullable=True),
        *seat_columns,
        sa.ForeignKeyConstraint(["fact_id"], ["game_facts.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["partner_id"], ["members.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    member = ["group_id", "member_id", "kind"]
    op.create_index("ix_seat_facts_member", "seat_facts", [*member, "started_at", "fact_id"])
    op.create_index("ix_seat_facts_best", "seat_facts", [*member, "counts", "best"])
    op.create_index("ix_seat_facts_fact", "seat_facts", ["fact_id"])
    _create_totals()


def _owned(*columns: sa.Column[int]) -> list[Any]:
    """A totals table's key (group, member, kind), then ``columns``."""
    return [
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        *columns,
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["member_id"], ["members.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    ]


def _create_totals() -> None:
    sums = ["games", "played", "won", "rounds", "went_out", "points", "left", "left_rounds"]
    sums += ["own_points", "settlement_halves", "money_half_cents", "money_games", "streak", "run"]
    op.create_table(
        "player_totals",
        *_owned(
            *(sa.Column(name, sa.Integer(), nullable=False) for name in sums),
            sa.Column("best", sa.Integer(), nullable=True),
        ),
        sa.UniqueConstraint("group_id", "member_id", "kind", name="uq_player_totals_member"),
    )
    op.create_table(
        "partner_totals",
        *_owned(
            sa.Column("partner_id", sa.Integer(), nullable=False),
            sa.Column("games", sa.Integer(), nullable=False),
            sa.Column("won", sa.Integer(), nullable=False),
        ),
        sa.ForeignKeyConstraint(["partner_id"], ["members.id"], ondelete="CASCADE"),
        sa.UniqueConstraint(
            "group_id", "member_id", "kind", "partner_id", name="uq_partner_totals_pair"
        ),
    )


def upgrade() -> None:
    """Create the tables and groups.facts_version (0); the app then stores the facts of
    every game of a group (its backfill of this revision)."""
    _create_tables()
    with op.batch_alter_table("groups", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("facts_version", sa.Integer(), nullable=False, server_default=sa.text("0"))
        )


def downgrade() -> None:
    """Drop the facts and groups.facts_version (the games stay as they are)."""
    with op.batch_alter_table("groups", schema=None) as batch_op:
        batch_op.drop_column("facts_version")
    op.drop_table("partner_totals")
    op.drop_table("player_totals")
    op.drop_index("ix_seat_facts_fact", table_name="seat_facts")
    op.drop_index("ix_seat_facts_best", table_name="seat_facts")
    op.drop_index("ix_seat_facts_member", table_name="seat_facts")
    op.drop_table("seat_facts")
    op.drop_index("ix_game_facts_group_finished", table_name="game_facts")
    op.drop_index("ix_game_facts_group_started", table_name="game_facts")
    op.drop_table("game_facts")
