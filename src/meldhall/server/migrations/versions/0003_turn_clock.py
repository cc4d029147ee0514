"""The turn clock, seat takeovers and the tables' public notices.

A table may have a turn clock (seconds a decision) and a disconnect timeout (seconds a seat
may be away while it is to act); when either runs out, the table's stand-in bot plays for the
seat until its person takes it back.  Stored with the table, so that a restart during a
takeover loses nothing:

- ``tables.turn_clock``, ``tables.disconnect_timeout`` (seconds; NULL: off) and
  ``tables.takeover_bot`` (the stand-in bot's name); tables stored before have neither.
- ``seats.takeover``: why a bot plays for the seat's person (``clock``, ``disconnected``);
  NULL for every seat stored before.
- ``table_events``: the public notices (a takeover, a seat taken back, a bot decision the
  watchdog replaced with the heuristic's).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-08
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("turn_clock", sa.Float, nullable=True))
        batch.add_column(sa.Column("disconnect_timeout", sa.Float, nullable=True))
        batch.add_column(sa.Column("takeover_bot", sa.String(20), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("takeover", sa.String(20), nullable=True))
    op.create_table(
        "table_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_table_events_table", "table_events", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_table_events_table", table_name="table_events")
    op.drop_table("table_events")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("takeover")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("takeover_bot")
        batch.drop_column("disconnect_timeout")
        batch.drop_column("turn_clock")
