"""The meldhall web server: tables for friends and bots, played in the browser.

``meldhall serve`` runs :func:`meldhall.server.app.create_app` on uvicorn.

- :mod:`meldhall.server.storage` — SQLAlchemy tables (SQLite by default, PostgreSQL by URL),
  Alembic migrations run at startup, the append-only action log.
- :mod:`meldhall.server.tables` — live tables: the state is the replay of the log, actions are
  checked by the engine, appended with a version bump, pushed to every seat; bots play their
  seats on the server.
- :mod:`meldhall.server.views` — what each seat (or a spectator) is sent: only observations,
  legal actions and public logs, never the state, the stock or the seed.
- :mod:`meldhall.server.app` — the FastAPI application: JSON API, one WebSocket per seat, the
  static front end (:mod:`meldhall.web`).
"""

from __future__ import annotations

__all__ = ["Settings", "create_app"]


def __getattr__(name: str):  # lazy: importing meldhall.server must not import fastapi
    if name == "create_app":
        from meldhall.server.app import create_app

        return create_app
    if name == "Settings":
        from meldhall.server.config import Settings

        return Settings
    raise AttributeError(name)
