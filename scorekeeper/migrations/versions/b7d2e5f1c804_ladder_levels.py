"""ladder levels: the bot levels stored with each digital game take the ladder's names
("random" becomes "beginner", "basic" becomes "casual"; "strong" and "expert" keep
theirs); every game keeps its rows, its seats and its moves.

Revision ID: b7d2e5f1c804
Revises: a4c7e9f2d613
Create Date: 2026-11-29 12:50:00.000000

"""

from collections.abc import Mapping

import sqlalchemy as sa
from alembic import op

revision = "b7d2e5f1c804"
down_revision = "a4c7e9f2d613"
branch_labels = None
depends_on = None

RENAMED = {"random": "beginner", "basic": "casual"}
"""Each level's name before the ladder -> its name on the ladder."""
BACK = {"beginner": "random", "casual": "basic", "steady": "strong", "master": "expert"}
"""For a downgrade: each ladder level -> the nearest level the older code knows."""

GAMES = sa.table("digital_games", sa.column("id", sa.Integer()), sa.column("bots", sa.JSON()))


def _rename(names: Mapping[str, str]) -> None:
    """Rewrite every game's ``bots`` whose levels ``names`` renames (the others are
    left as they are)."""
    bind = op.get_bind()
    for game_id, bots in bind.execute(sa.select(GAMES.c.id, GAMES.c.bots)).all():
        if not isinstance(bots, list):
            continue
        new = [names.get(b, b) if isinstance(b, str) else b for b in bots]
        if new != bots:
            bind.execute(GAMES.update().where(GAMES.c.id == game_id).values(bots=new))


def upgrade() -> None:
    """Rename the stored bot levels to the ladder's names."""
    _rename(RENAMED)


def downgrade() -> None:
    """Give each stored ladder level the nearest name the older code knows."""
    _rename(BACK)
