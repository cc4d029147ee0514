"""Storage: tables, seats and the append-only action log (SQLAlchemy 2, Core).

The action log is the truth; a table's state is the replay of its log.  Next to it are the
table's timing options (turn clock, disconnect timeout, stand-in bot), each seat's takeover
(a bot playing for a person: why) and the table's public notices (``table_events``: bot
takeovers, seats taken back, bot decisions replaced by the watchdog), so that a restart
during a takeover loses nothing.

:meth:`Storage.append` inserts an action and bumps the table's version in ONE transaction,
guarded by the version the caller saw (``UPDATE … WHERE version = :seen``), so an action can
never be applied twice, even by two server processes sharing a database.

SQLite (the default, a file in the user's data directory) runs in WAL mode with
``synchronous=NORMAL``: a committed action survives the server process being killed.
PostgreSQL is used through psycopg 3.  The schema is created and upgraded by Alembic
(``meldhall/server/migrations``), run by :meth:`Storage.migrate` at startup.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine

__all__ = ["EventRow", "SeatRow", "StaleVersion", "Storage", "TableRow", "metadata"]

log = logging.getLogger("meldhall.server")

metadata = MetaData()

tables_t = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("dealer", Integer, nullable=False),
    Column("options", Text, nullable=False),          # JSON
    Column("version", Integer, nullable=False, default=0),
    Column("finished", Boolean, nullable=False, default=False),
    Column("bot_pause", Float, nullable=False, default=0.8),
    Column("creator_token_hash", String(64), nullable=False),
    Column("spectator_token_hash", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    # migration 0003: the turn clock (seconds a decision; NULL: off), the disconnect timeout
    # (seconds away before a bot plays for a seat to act; NULL: never) and the stand-in bot
    Column("turn_clock", Float, nullable=True),
    Column("disconnect_timeout", Float, nullable=True),
    Column("takeover_bot", String(20), nullable=True),
)
Index("ix_tables_finished", tables_t.c.finished)

seats_t = Table(
    "seats", metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(60), nullable=False),
    Column("kind", String(10), nullable=False),        # "human" | "bot"
    Column("bot", String(20), nullable=True),          # bot name when kind == "bot"
    Column("token_hash", String(64), nullable=False),
    # migration 0003: why a bot plays for this person ("clock" | "disconnected"); NULL: no
    # takeover (kind says who plays)
    Column("takeover", String(20), nullable=True),
)

actions_t = Table(
    "actions", metadata,
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seq", Integer, primary_key=True),          # 1, 2, … (== version after it)
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),            # canonical notation
    Column("created_at", Float, nullable=False),
)

events_t = Table(
    "table_events", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id", ondelete="CASCADE"),
           nullable=False),
    Column("version", Integer, nullable=False),        # the table's version when it happened
    Column("kind", String(20), nullable=False),        # "takeover" | "take_back" | "watchdog"
    Column("seat", Integer, nullable=True),
    Column("text", Text, nullable=False),              # public, with the players' names
    Column("created_at", Float, nullable=False),
)
Index("ix_table_events_table", events_t.c.table_id, events_t.c.id)

#: Notices loaded with a table (the newest; older ones stay in the database).
EVENTS_LOADED = 50


#: The hot path's statements, built once.
_BUMP = (update(tables_t)
         .where(tables_t.c.id == bindparam("tid"), tables_t.c.version == bindparam("seen"))
         .values(version=bindparam("new"), updated_at=bindparam("now"),
                 finished=bindparam("fin")))
_APPEND = insert(actions_t)


class StaleVersion(Exception):
    """The table's version in the database is not the one the action was made against."""


@dataclass
class SeatRow:
    """One seat of a table as stored.

    ``takeover`` is set while a bot (``kind == "bot"``, ``bot`` its name) plays for the
    seat's person: ``"clock"`` (the turn clock ran out) or ``"disconnected"`` (away longer
    than the disconnect timeout); ``None`` otherwise.
    """

    seat: int
    name: str
    kind: str
    bot: str | None
    token_hash: str
    takeover: str | None = None


@dataclass
class EventRow:
    """A public notice of a table: ``kind`` is ``"takeover"``, ``"take_back"`` or
    ``"watchdog"``; ``text`` is the sentence shown (players' names, never a hidden card);
    ``version`` the table's version when it happened; ``created_at`` seconds since the
    epoch."""

    kind: str
    seat: int | None
    text: str
    version: int
    created_at: float

    def to_json(self) -> dict[str, Any]:
        """As sent in ``common.events``."""
        return {"kind": self.kind, "seat": self.seat, "text": self.text,
                "version": self.version, "at": round(self.created_at, 3)}


@dataclass
class TableRow:
    """A table as stored: its game, seats and log."""

    id: str
    game: str
    players: int
    seed: int
    dealer: int
    options: dict[str, Any]
    version: int
    finished: bool
    bot_pause: float
    creator_token_hash: str
    spectator_token_hash: str
    created_at: float
    updated_at: float
    seats: list[SeatRow] = field(default_factory=list)
    actions: list[tuple[int, str]] = field(default_factory=list)   # (seat, action)
    turn_clock: float | None = None            # seconds a decision; None: no clock
    disconnect_timeout: float | None = None    # seconds away; None: never taken over
    takeover_bot: str | None = None            # the bot that plays for a person
    last_action_at: float | None = None        # when the last action was stored
    events: list[EventRow] = field(default_factory=list)   # the newest, oldest first


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    # checkpoints (which fsync) run on a worker thread (Storage.checkpoint), not inside the
    # commits of the server's event loop
    cur.execute("PRAGMA wal_autocheckpoint=0")
    cur.close()


class Storage:
    """The database of tables.

    Every method is synchronous (the server calls them from a worker thread).
    """

    def __init__(self, url: str):
        self.url = url
        self._closed = False
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            self._ensure_sqlite_folder(url)
            self.engine: Engine = create_engine(
                url, connect_args={"check_same_thread": False, "timeout": 30})
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True)

    @staticmethod
    def _ensure_sqlite_folder(url: str) -> None:
        from pathlib import Path

        from sqlalchemy.engine import make_url

        db = make_url(url).database
        if db and db != ":memory:":
            Path(db).expanduser().parent.mkdir(parents=True, exist_ok=True)

    # ------------------------------------------------------------------ schema
    def migrate(self) -> None:
        """Create or upgrade the schema to the newest migration (Alembic ``upgrade head``)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", "meldhall.server:migrations")
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def checkpoint(self) -> None:
        """Copy the SQLite write-ahead log into the database file (PASSIVE: writers go on).

        The server calls it every second or so from a worker thread.
        """
        if self.is_sqlite:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        """Shut the storage down losslessly; safe to call more than once.

        SQLite: a final ``wal_checkpoint(TRUNCATE)`` copies every committed transaction from
        the write-ahead log into the database file and empties the log, then every pooled
        connection is closed (the last close removes the ``-wal`` and ``-shm`` files).  After
        a graceful shutdown the database file alone holds everything: copying it, or opening
        it read-only or ``immutable``, shows every table and action.  (Without this step the
        committed data is still safe in the ``-wal`` file, which SQLite replays when the
        database is opened next, but only while the two files stay together.)

        Call it once no write is in flight (the server's bots are stopped, its database
        threads joined).
        """
        if self._closed:
            return
        self._closed = True
        if self.is_sqlite:
            try:
                with self.engine.connect() as conn:
                    busy, _log, _done = conn.exec_driver_sql(
                        "PRAGMA wal_checkpoint(TRUNCATE)").one()
                if busy:
                    log.warning("final SQLite checkpoint was blocked by another connection: "
                                "committed data stays in the -wal file until it can run")
            except Exception:  # noqa: BLE001 - the data is safe in the WAL; still close
                log.exception("final SQLite checkpoint failed (the data is safe in the WAL)")
        self.engine.dispose()

    def dispose(self) -> None:
        """Close the storage (see :meth:`close`)."""
        self.close()

    # ------------------------------------------------------------------ writes
    def create_table(self, row: TableRow) -> None:
        """Store a new table and its seats (version 0, empty log)."""
        with self.engine.begin() as conn:
            conn.execute(insert(tables_t).values(
                id=row.id, game=row.game, players=row.players, seed=row.seed, dealer=row.dealer,
                options=json.dumps(row.options, sort_keys=True), version=0, finished=False,
                bot_pause=row.bot_pause, creator_token_hash=row.creator_token_hash,
                spectator_token_hash=row.spectator_token_hash, created_at=row.created_at,
                updated_at=row.updated_at, turn_clock=row.turn_clock,
                disconnect_timeout=row.disconnect_timeout, takeover_bot=row.takeover_bot))
            conn.execute(insert(seats_t), [
                {"table_id": row.id, "seat": s.seat, "name": s.name, "kind": s.kind,
                 "bot": s.bot, "token_hash": s.token_hash, "takeover": s.takeover}
                for s in row.seats
            ])

    def append(self, table_id: str, seen_version: int, seat: int, action: str,
               finished: bool) -> int:
        """Append ``action`` as entry ``seen_version + 1`` and bump the version, atomically.

        Raises:
            StaleVersion: the stored version is not ``seen_version`` (nothing is written).
        """
        now = time.time()
        with self.engine.begin() as conn:
            res = conn.execute(_BUMP, {"tid": table_id, "seen": seen_version,
                                       "new": seen_version + 1, "now": now, "fin": finished})
            if res.rowcount != 1:
                raise StaleVersion(table_id)
            conn.execute(_APPEND, {"table_id": table_id, "seq": seen_version + 1, "seat": seat,
                                   "action": action, "created_at": now})
        return seen_version + 1

    def set_seat(self, table_id: str, seat: int, kind: str, bot: str | None,
                 takeover: str | None = None, event: EventRow | None = None) -> None:
        """Hand a seat to a bot (``kind="bot"``) or back to its human; ``takeover`` says why a
        bot plays for the person (``None``: the creator's choice, or no bot).  The seat and
        its notice ``event`` are stored in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(update(seats_t)
                         .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                         .values(kind=kind, bot=bot, takeover=takeover))
            conn.execute(update(tables_t).where(tables_t.c.id == table_id)
                         .values(updated_at=time.time()))
            if event is not None:
                conn.execute(insert(events_t).values(self._event_values(table_id, event)))

    def add_event(self, table_id: str, event: EventRow) -> None:
        """Store a public notice of the table (a bot decision replaced by the watchdog)."""
        with self.engine.begin() as conn:
            conn.execute(insert(events_t).values(self._event_values(table_id, event)))

    @staticmethod
    def _event_values(table_id: str, event: EventRow) -> dict[str, Any]:
        return {"table_id": table_id, "version": event.version, "kind": event.kind,
                "seat": event.seat, "text": event.text, "created_at": event.created_at}

    # ------------------------------------------------------------------ reads
    def load(self, table_id: str) -> TableRow | None:
        """A table with its seats and its whole log, or ``None``."""
        with self.engine.connect() as conn:
            r = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
            if r is None:
                return None
            return self._full_row(conn, r)

    def unfinished_ids(self) -> list[str]:
        """Ids of every table whose game is not over."""
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(
                select(tables_t.c.id).where(tables_t.c.finished.is_(False))
                .order_by(tables_t.c.created_at))]

    def _full_row(self, conn, r) -> TableRow:
        row = TableRow(
            id=r.id, game=r.game, players=r.players, seed=int(r.seed), dealer=r.dealer,
            options=json.loads(r.options), version=r.version, finished=bool(r.finished),
            bot_pause=float(r.bot_pause), creator_token_hash=r.creator_token_hash,
            spectator_token_hash=r.spectator_token_hash, created_at=r.created_at,
            updated_at=r.updated_at, turn_clock=r.turn_clock,
            disconnect_timeout=r.disconnect_timeout, takeover_bot=r.takeover_bot)
        row.seats = [SeatRow(s.seat, s.name, s.kind, s.bot, s.token_hash, s.takeover)
                     for s in conn.execute(select(seats_t).where(seats_t.c.table_id == r.id)
                                           .order_by(seats_t.c.seat))]
        last_at = None
        for a in conn.execute(
                select(actions_t.c.seat, actions_t.c.action, actions_t.c.created_at)
                .where(actions_t.c.table_id == r.id).order_by(actions_t.c.seq)):
            row.actions.append((a.seat, a.action))
            last_at = a.created_at
        row.last_action_at = last_at
        events = conn.execute(
            select(events_t).where(events_t.c.table_id == r.id)
            .order_by(events_t.c.id.desc()).limit(EVENTS_LOADED)).all()
        row.events = [EventRow(e.kind, e.seat, e.text, e.version, e.created_at)
                      for e in reversed(events)]
        return row
