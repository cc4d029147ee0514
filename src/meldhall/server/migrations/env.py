"""Alembic environment for meldhall's server database.

The server runs the migrations itself (:meth:`meldhall.server.storage.Storage.migrate`) and
hands its connection in ``config.attributes["connection"]``; run by hand, the URL comes from
``MELDHALL_DATABASE_URL`` (or the default SQLite file).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from meldhall.server.storage import metadata

config = context.config


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    from meldhall.server.config import Settings

    engine = create_engine(Settings.from_env().resolved_database_url())
    with engine.begin() as conn:
        _run(conn)
