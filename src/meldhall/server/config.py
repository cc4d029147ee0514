"""Server settings: where the database is, how fast bots play, the turn clock's limits, the
bot watchdog's budget, message limits."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Settings", "default_database_url", "normalize_database_url"]

#: Largest WebSocket message or JSON request body a client may send (bytes).
MAX_MESSAGE_BYTES = 16 * 1024
#: Largest record a client may upload to the replay endpoint (bytes).
MAX_RECORD_BYTES = 4 * 1024 * 1024


def default_database_url() -> str:
    """A SQLite file in the user's data directory (created if needed)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("meldhall", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'meldhall.db'}"


def normalize_database_url(url: str) -> str:
    """Accept ``postgres://`` and ``postgresql://`` URLs and use psycopg 3 for them."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


@dataclass(frozen=True)
class Settings:
    """How the server runs.

    Attributes:
        database_url: SQLAlchemy URL; ``None`` means ``MELDHALL_DATABASE_URL`` or else the
            default SQLite file.
        bot_pause: seconds a bot waits before acting, so that people can follow (tables may ask
            for another pause, up to ``max_bot_pause``).
        allow_seeds: accept a ``seed`` when creating a table.  Off by default: whoever knows a
            seed knows the deal.  Tests and demonstrations switch it on.
        max_tables_loaded: finished tables kept in memory (unfinished ones always are).
        bot_workers: worker processes for the search bot's decisions and for hints (started
            on first use); ``None``: one fewer than the CPUs, at least one
            (``MELDHALL_BOT_WORKERS``).
        max_hints_running: hints computed at once on the whole server (more are refused,
            ``busy``); ``None``: twice the worker processes.
        disconnect_timeout: seconds a seat to act may be away (no connection) before the
            table's stand-in bot plays for it, at tables with a turn clock that do not ask for
            another timeout (``MELDHALL_DISCONNECT_TIMEOUT``); stored with each table when it
            is created.
        min_clock: the shortest turn clock or disconnect timeout a table may ask for, in
            seconds (``MELDHALL_MIN_CLOCK``).  Tests and demonstrations lower it to 1.
        bot_time_budget: seconds (wall time, from the request to the answer) a bot's
            decision may take; past it the watchdog plays the heuristic's move instead
            (``MELDHALL_BOT_TIME_BUDGET``).
        hand_end_wait: at the end of a hand whose next deal is a bot's, seconds the bot waits
            for every person at the table (a connected seat) to close the hand's score before
            dealing; 0: it deals after its pause (``MELDHALL_HAND_END_WAIT``).  A tester found
            the bots playing the next hand under the score it was reading.
        bots_from: modules (``package.module``) or Python files (``path/bots.py``) whose
            ``BOTS`` table adds bots to this server (developers trying their own bot, the
            server tests' misbehaving bots); see :func:`meldhall.server.workers.load_bots`.
    """

    database_url: str | None = None
    bot_pause: float = 0.8
    max_bot_pause: float = 5.0
    allow_seeds: bool = False
    max_tables_loaded: int = 2000
    bot_workers: int | None = None
    max_hints_running: int | None = None
    disconnect_timeout: float = 60.0
    min_clock: float = 10.0
    bot_time_budget: float = 30.0
    hand_end_wait: float = 60.0
    bots_from: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("disconnect_timeout", "min_clock", "bot_time_budget"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be a positive number of seconds")
        if self.hand_end_wait < 0:
            raise ValueError("hand_end_wait must be 0 or a positive number of seconds")

    def resolved_database_url(self) -> str:
        """The database URL to use, after the environment and the default."""
        url = self.database_url or os.environ.get("MELDHALL_DATABASE_URL") or ""
        return normalize_database_url(url or default_database_url())

    @classmethod
    def from_env(cls, **overrides) -> Settings:
        """Settings from ``MELDHALL_*`` environment variables, then ``overrides``."""
        env = os.environ
        values: dict = {}
        if env.get("MELDHALL_BOT_PAUSE"):
            values["bot_pause"] = float(env["MELDHALL_BOT_PAUSE"])
        if env.get("MELDHALL_ALLOW_SEEDS"):
            values["allow_seeds"] = env["MELDHALL_ALLOW_SEEDS"].lower() in ("1", "true", "yes")
        if env.get("MELDHALL_BOT_WORKERS"):
            values["bot_workers"] = int(env["MELDHALL_BOT_WORKERS"])
        for name in ("disconnect_timeout", "min_clock", "bot_time_budget", "hand_end_wait"):
            if env.get("MELDHALL_" + name.upper()):
                values[name] = float(env["MELDHALL_" + name.upper()])
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)
