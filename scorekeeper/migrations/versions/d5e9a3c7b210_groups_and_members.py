"""groups and members: players kept across game nights; games (table and digital) join a
group, their seats point at its members, and a game may be archived in its group

Revision ID: d5e9a3c7b210
Revises: c4d2e8f1a907
Create Date: 2026-11-23 10:00:00.000000

Every existing game is kept as it is: the new columns are nullable and empty (a game in
no group, its players guests of none).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d5e9a3c7b210"
down_revision = "c4d2e8f1a907"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "groups",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("preset", sa.String(length=40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("view_token", sa.String(length=40), nullable=False),
        sa.Column("edit_token", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("view_token", name="uq_groups_view_token"),
        sa.UniqueConstraint("edit_token", name="uq_groups_edit_token"),
    )
    op.create_table(
        "members",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("group_id", "name", name="uq_members_name"),
    )
    op.create_index("ix_members_group_id", "members", ["group_id"])
    for table in ("games", "digital_games"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("group_id", sa.Integer(), nullable=True))
            batch_op.add_column(sa.Column("archived_at", sa.DateTime(), nullable=True))
            batch_op.create_foreign_key(
                f"fk_{table}_group_id", "groups", ["group_id"], ["id"], ondelete="SET NULL"
            )
            batch_op.create_index(f"ix_{table}_group_id", ["group_id"])
    for table in ("players", "digital_games"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("member_id", sa.Integer(), nullable=True))
            batch_op.create_foreign_key(
                f"fk_{table}_member_id", "members", ["member_id"], ["id"], ondelete="SET NULL"
            )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.create_index("ix_players_member_id", ["member_id"])


def downgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index("ix_players_member_id")
    for table in ("players", "digital_games"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(f"fk_{table}_member_id", type_="foreignkey")
            batch_op.drop_column("member_id")
    for table in ("games", "digital_games"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_index(f"ix_{table}_group_id")
            batch_op.drop_constraint(f"fk_{table}_group_id", type_="foreignkey")
            batch_op.drop_column("archived_at")
            batch_op.drop_column("group_id")
    op.drop_index("ix_members_group_id", table_name="members")
    op.drop_table("members")
    op.drop_table("groups")
