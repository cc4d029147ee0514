"""Tables stored before the uniform copy choice keep the choice they were played with.

Which identical copy moves when an action names cards by kind is now uniformly random
(option ``copy_choice="uniform"``); a table stored before has no ``copy_choice`` in its options
and was played with the former choice, so it is marked ``"legacy"`` and replays unchanged.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""
import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_tables = sa.table("tables", sa.column("id", sa.String), sa.column("options", sa.Text))


def upgrade() -> None:
    conn = op.get_bind()
    for table_id, text in conn.execute(sa.select(_tables.c.id, _tables.c.options)).all():
        options = json.loads(text)
        if isinstance(options, dict) and "copy_choice" not in options:
            options["copy_choice"] = "legacy"
            conn.execute(_tables.update().where(_tables.c.id == table_id)
                         .values(options=json.dumps(options, sort_keys=True)))


def downgrade() -> None:
    # the former engine knows no copy_choice option: remove it again
    conn = op.get_bind()
    for table_id, text in conn.execute(sa.select(_tables.c.id, _tables.c.options)).all():
        options = json.loads(text)
        if isinstance(options, dict) and options.pop("copy_choice", None) is not None:
            conn.execute(_tables.update().where(_tables.c.id == table_id)
                         .values(options=json.dumps(options, sort_keys=True)))
