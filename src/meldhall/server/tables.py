"""Live tables: a game's state as the replay of its action log, seats, bots, connections.

One :class:`LiveTable` per table in memory, owned by the :class:`TableManager`.  An action is
parsed and checked by the engine, appended to the log with a version bump in one database
transaction (:meth:`~meldhall.server.storage.Storage.append`), and only then becomes the
table's state; every connection of the table is then told to send its seat's new view.  An
action made against another version than the table's is refused, so a double click or two
tabs never apply a move twice.

Bots play their seats here, on the server, after a short pause so that people can follow;
they think off the event loop (:class:`~meldhall.server.workers.BotPool`: the search bot in
worker processes), from their seat's observation only.  Hints are computed there too.

No table stalls:

- **Turn clock** (a table option, seconds a decision; off unless asked for): a person's
  decision that takes longer, or a seat to act that has been away (no connection) longer than
  the table's disconnect timeout, is handed to the table's stand-in bot (``takeover_bot``),
  which plays for the seat, from its observation only like any bot, until the person takes
  the seat back (:meth:`TableManager.take_back`: at once; a decision the bot is still working
  out is dropped).  The takeover is stored with the seat, so a restart keeps it.
- **Bot watchdog**: a bot decision that raises, exceeds the server's time budget
  (:attr:`~meldhall.server.config.Settings.bot_time_budget`) or is refused by the rules is
  replaced by the heuristic's move for the same observation.

Each takeover, each seat taken back and each replaced decision is a public notice
(``common.events``, stored in ``table_events``) naming the players, never a hidden card.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import hmac
import json
import logging
import random
import secrets
import sys
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypedDict

from meldhall import GAMES, new_game
from meldhall.bots import BOT_NAMES
from meldhall.errors import IllegalActionError, MeldhallError, NotationError, OptionsError
from meldhall.game import State
from meldhall.record import Record
from meldhall.server import views
from meldhall.server.config import Settings
from meldhall.server.storage import EventRow, SeatRow, StaleVersion, Storage, TableRow
from meldhall.server.workers import (
    EXTRA_BOTS,
    BotPool,
    decide,
    default_workers,
    is_search_bot,
    make_server_bot,
)

__all__ = ["CLOCK_CHOICES", "MAX_CLOCK", "SEED_BITS", "LiveTable", "Refusal", "TableManager",
           "bot_level", "hash_token", "new_token"]

log = logging.getLogger("meldhall.server")

#: Bits of a new table's seed.  53, not more: the record (which holds the seed) is read by the
#: browser's JavaScript, whose numbers are doubles, exact only up to 2**53; a larger seed
#: would be rounded by any page that parses the record, and the rounded record no longer
#: replays.  (The web pages also keep a record's text as it is, for records made elsewhere
#: with larger seeds.)
SEED_BITS = 53

#: Seconds between full garbage collections (the automatic ones are limited to the young
#: generations, whose collections are short).
FULL_GC_EVERY = 60.0

#: The turn clocks the lobby offers (seconds a decision; the API takes any value from the
#: server's ``min_clock`` to :data:`MAX_CLOCK`).
CLOCK_CHOICES = (30, 60, 120, 300)
#: The longest turn clock or disconnect timeout a table may ask for (seconds).
MAX_CLOCK = 3600.0
#: After a restart no decision's clock runs out sooner than this (seconds, or the whole clock
#: if shorter): the clock counts from the last stored action, and the players' pages need a
#: moment to reconnect.
RESTART_GRACE = 15.0
#: Public notices each message carries (the newest).
EVENTS_SENT = 20
#: The stand-in bot of a table that names none: the search bot at its normal level.
DEFAULT_TAKEOVER_BOT = "ismcts"

#: How a bot is named in the public notices: its level.
_LEVELS = {"ismcts:easy": "easy", "ismcts": "normal", "ismcts:normal": "normal",
           "ismcts:hard": "hard"}


def bot_level(bot: str) -> str:
    """A bot's name in the notices: the search bot's level (``ismcts`` -> ``"normal"``), else
    the bot's own name (``"heuristic"``)."""
    return _LEVELS.get(bot, bot)


def new_token() -> str:
    """A fresh secret for a seat, a spectator link or a table's creator."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """Tokens are stored hashed: the database never holds one that could be replayed."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class LagSummary(TypedDict):
    """:meth:`TableManager.lag_summary`: event-loop lag in milliseconds (``None`` before the
    first measurement), and the longest collection per garbage-collector generation
    (``"0"``, ``"1"``, ``"2"``), in milliseconds."""

    p50: float | None
    p99: float | None
    max: float | None
    gc_max: dict[str, float]


class Refusal(Exception):
    """An action or request the server refuses; nothing was changed.

    Attributes:
        code: ``"illegal"`` (the rules refuse it: ``rule_id`` and ``reason`` are set),
            ``"notation"``, ``"stale_version"``, ``"not_your_seat"``, ``"seat_is_bot"``,
            ``"game_over"``, ``"forbidden"``, ``"not_found"``, ``"invalid"``, ``"storage"``.
        message: a sentence for people.
    """

    def __init__(self, code: str, message: str, rule_id: str | None = None,
                 reason: str | None = None, status: int = 409):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule_id = rule_id
        self.reason = reason
        self.status = status

    def to_json(self) -> dict[str, Any]:
        """The refusal as sent to the client."""
        d: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.rule_id is not None:
            d["rule_id"] = self.rule_id
            d["reason"] = self.reason
        return d


@dataclass(eq=False)
class Connection:
    """One WebSocket watching a table, as one seat or as a spectator."""

    send: Callable[[str], Any]             # async: send a text frame
    seat: int | None                       # None: spectator
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sent_version: int = -1
    closed: bool = False


#: The phases between a hand's score and the next deal.
END_PHASES = ("hand_end", "deal_end")


class LiveTable:
    """A table in memory: its stored description, its current state and who is watching."""

    def __init__(self, row: TableRow, rebuilt: bool = True):
        """``rebuilt``: the table comes from the database (a restart, a reload), not from
        :meth:`TableManager.create`: the seat to act gets the restart's grace on its clock."""
        self.row = row
        self.id = row.id
        self.game = row.game
        self.seats: list[SeatRow] = row.seats
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.bot_task: asyncio.Task | None = None
        self.bots: dict[int, tuple[str, random.Random]] = {}   # seat -> (bot, rng)
        self._cache: dict[Any, Any] = {}
        self._cache_version = -1
        self.initial: State = new_game(row.game, players=row.players, seed=row.seed,
                                       options=row.options, dealer=row.dealer)
        self.state: State = self.initial
        self.version = 0
        # what other seats see moves only with public actions: staging and withdrawing melds
        # (CC-6.9, RR-6.11, SH-8.1) bump ``version`` (the stored log) but not this
        self.public_version = 0
        self.private_seat: int | None = None   # the seat whose last action was private
        self.outcomes: list[dict[str, Any]] = []
        self.recent: deque[dict[str, Any]] = deque(maxlen=views.RECENT)
        self.error: str | None = None
        self.thinking: int | None = None      # the seat whose search bot is thinking
        self.hinting: set[int] = set()        # seats whose hint is being computed
        self.hints: dict[int, tuple[int, dict[str, Any]]] = {}   # seat -> (version, hint)
        # seats whose player closed the score of the hand just over (the bot dealing the
        # next hand waits for them: Settings.hand_end_wait)
        self.ready: set[int] = set()
        self.options_json = self.initial.options.to_json()
        for seat, text in row.actions:
            action = self.state.parse_action(text)
            self._advance(self.state.apply(action, seat), seat, str(action), action.PRIVATE)
        # the turn clock and takeovers (see the module's docstring); times in seconds since
        # the epoch, so that they mean the same after a restart
        self.turn_clock: float | None = row.turn_clock
        self.disconnect_timeout: float | None = row.disconnect_timeout
        self.takeover_bot: str = row.takeover_bot or DEFAULT_TAKEOVER_BOT
        self.events: deque[dict[str, Any]] = deque((e.to_json() for e in row.events),
                                                   maxlen=EVENTS_SENT)
        now = time.time()
        # the current decision began with the last stored (public) action
        self.decision_since: float = row.last_action_at or row.created_at
        # no clock runs out before this: a restart's grace
        self.clock_floor = (now + min(self.turn_clock, RESTART_GRACE)
                            if rebuilt and self.turn_clock is not None else 0.0)
        self.clock_from: dict[int, float] = {}     # seat -> when its person took it back
        # seats whose person has opened the table since the server started: a seat's clock
        # runs only from then (a tester lost the first turn while copying the invite links);
        # a seat nobody opens is covered by the disconnect timeout
        self.opened: set[int] = set()
        self.away_since: dict[int, float] = {s.seat: now for s in self.seats}
        self.takeover_retry = 0.0                  # after a failed write: not before this
        self.clock_handle: asyncio.TimerHandle | None = None
        self.watch_task: asyncio.Task | None = None

    # ------------------------------------------------------------------ state
    def _advance(self, new: State, seat: int, text: str, private: bool = False) -> None:
        before = self.state.outcome
        self.state = new
        self.version += 1
        self.ready.clear()  # who has read a hand's score: of the state it was read in
        if private:
            self.private_seat = seat
            return
        self.private_seat = None
        self.public_version += 1
        # a commit is public as the melding it makes (its log entry), never as "meld done"
        public = next((a for _, a in reversed(new.history()) if a), text)
        self.recent.append({"seat": seat, "action": public})
        oc = new.outcome
        if oc is not None and (before is None or before.hand != oc.hand
                               or before.game_over != oc.game_over):
            self.outcomes.append(oc.to_json())

    @property
    def finished(self) -> bool:
        return self.state.is_terminal

    # ------------------------------------------------------------------ turn clock
    def clock_deadline(self, seat: int) -> float | None:
        """When ``seat``'s decision clock runs out (seconds since the epoch), ``None``
        without a clock, or while the seat's person has not opened the table since the server
        started (:meth:`TableManager.opened`).  The clock counts from the table's last public
        action (or the seat's first opening or taking back, if later), never running out
        before a restart's grace."""
        if self.turn_clock is None or seat not in self.opened:
            return None
        start = max(self.decision_since, self.clock_from.get(seat, 0.0))
        return max(start + self.turn_clock, self.clock_floor)

    def away_deadline(self, seat: int) -> float | None:
        """When ``seat``, away (no connection), has been away for the disconnect timeout;
        ``None`` if it is connected or the table has no timeout."""
        since = self.away_since.get(seat)
        if self.disconnect_timeout is None or since is None:
            return None
        return since + self.disconnect_timeout

    def watched_seats(self) -> list[int]:
        """The seats to act that their person plays (the ones a clock can run out for)."""
        if self.state.is_terminal:
            return []
        return [s for s in self.state.to_act if self.seats[s].kind == "human"]

    def takeover_due(self, seat: int, now: float) -> str | None:
        """Why a bot should play for ``seat`` now: ``"clock"``, ``"disconnected"`` or
        ``None``."""
        clock = self.clock_deadline(seat)
        # the clock stands still while the seat's own hint is worked out (see hint())
        if clock is not None and now >= clock and seat not in self.hinting:
            return "clock"
        away = self.away_deadline(seat)
        if away is not None and now >= away:
            return "disconnected"
        return None

    def next_deadline(self) -> float | None:
        """The earliest moment a takeover may be due (``None``: none can be)."""
        times = [d for s in self.watched_seats()
                 for d in ((None if s in self.hinting else self.clock_deadline(s)),
                           self.away_deadline(s)) if d is not None]
        if not times:
            return None
        return max(min(times), self.takeover_retry)

    def clock_json(self) -> dict[str, Any]:
        """The table's timing options, public: ``turn_clock`` and ``disconnect_timeout``
        (seconds, ``None``: off) and the stand-in bot (``takeover_bot``, its ``level``)."""
        return {"turn_clock": self.turn_clock, "disconnect_timeout": self.disconnect_timeout,
                "takeover_bot": self.takeover_bot,
                "takeover_level": bot_level(self.takeover_bot)}

    def new_event(self, kind: str, seat: int | None, text: str) -> EventRow:
        """A public notice at the table's current (public) version."""
        return EventRow(kind, seat, text, self.public_version, time.time())

    def add_event(self, event: EventRow) -> None:
        """Show a notice in the next messages (``common.events``)."""
        self.events.append(event.to_json())
        self._cache.pop("common", None)

    def role_of(self, token: str) -> tuple[str, int | None] | None:
        """``("seat", n)``, ``("spectator", None)``, ``("creator", None)`` or ``None``."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        h = hash_token(token)
        found: tuple[str, int | None] | None = None
        for s in self.seats:                       # compare every hash: no early exit
            if hmac.compare_digest(h, s.token_hash):
                found = ("seat", s.seat)
        if hmac.compare_digest(h, self.row.spectator_token_hash):
            found = ("spectator", None)
        if hmac.compare_digest(h, self.row.creator_token_hash):
            found = ("creator", None)
        return found

    # ------------------------------------------------------------------ views
    def _fresh_cache(self) -> None:
        if self._cache_version != self.version:
            self._cache = {}
            self._cache_version = self.version

    def observation_json(self, seat: int) -> dict[str, Any]:
        """``observation(seat).to_json()`` at this version, cached (treat as read-only)."""
        self._fresh_cache()
        key = ("obs", seat)
        obs = self._cache.get(key)
        if obs is None:
            obs = self.state.observation(seat).to_json()
            self._cache[key] = obs
        return obs

    def view_json(self, seat: int | None) -> str:
        """The game part of the message for ``seat`` (``None``: a spectator), cached."""
        self._fresh_cache()
        key = ("view", seat)
        text = self._cache.get(key)
        if text is None:
            view: dict[str, Any]
            if seat is None:
                observations = [self.observation_json(s) for s in range(self.state.players)]
                view = {"observation": views.public_view(self.state, observations),
                        "legal": [], "prompt": None}
            else:
                view = views.seat_view(self.state, seat, self.observation_json(seat))
                if seat in self.state.to_act:
                    # the seat to act sends its moves at the table's full version (its own
                    # staging counts); other seats see only the public one
                    view["version"] = self.version
            text = json.dumps(view, separators=(",", ":"))
            self._cache[key] = text
        return text

    def common_json(self) -> str:
        """The public part of every message at this version, cached."""
        self._fresh_cache()
        text = self._cache.get("common")
        if text is None:
            st = self.state
            text = json.dumps({
                "table": self.id,
                "game": self.game,
                "players": st.players,
                "version": self.public_version,
                "phase": st.phase,
                "to_act": list(st.to_act),
                "finished": st.is_terminal,
                "recent": list(self.recent),
                "outcomes": self.outcomes,
                "options": self.options_json,
                "error": self.error,
                "clock": self.clock_json(),
                "events": list(self.events),
            }, separators=(",", ":"))
            self._cache["common"] = text
        return text

    def seats_json(self) -> list[dict[str, Any]]:
        """Seat names, who plays them, who is connected, which search bot is thinking, why a
        bot plays for a person (``takeover``: ``"clock"``, ``"disconnected"`` or ``None``)
        and the seconds left on the clock of a person's decision (``clock_left``; ``None``
        without a clock or a decision) (public)."""
        online = {c.seat for c in self.connections if not c.closed}
        now = time.time()
        watched = set(self.watched_seats()) if self.turn_clock is not None else set()
        out = []
        for s in self.seats:
            deadline = self.clock_deadline(s.seat) if s.seat in watched else None
            out.append({
                "seat": s.seat, "name": s.name, "kind": s.kind, "bot": s.bot,
                # a seat a bot plays for its person: whether that person is here
                "connected": (s.kind == "bot" and s.takeover is None) or s.seat in online,
                "thinking": self.thinking == s.seat,
                "takeover": s.takeover,
                "clock_left": None if deadline is None else round(max(0.0, deadline - now), 1),
            })
        return out

    def message(self, seat: int | None) -> str:
        """The whole ``state`` message for a seat or a spectator."""
        head = json.dumps({"type": "state", "role": "spectator" if seat is None else "seat",
                           "seat": seat, "seats": self.seats_json()},
                          separators=(",", ":"))
        return (head[:-1] + ',"common":' + self.common_json() + ',"view":'
                + self.view_json(seat) + "}")

    def notify(self, everyone: bool = False) -> None:
        """Wake every connection's sender: it sends its seat's newest view.  After a private
        action only the acting seat's connections are woken (nobody else's view changed),
        unless ``everyone`` (a public notice)."""
        for c in self.connections:
            if everyone or self.private_seat is None or c.seat == self.private_seat:
                c.wake.set()

    def record(self) -> Record:
        """The game record (with the seed: only handed out once the game is over)."""
        names = [f"{s.name} ({s.bot})" if s.kind == "bot" and s.takeover is None else s.name
                 for s in self.seats]
        return Record.from_state(self.state, self.row.dealer, names)

    def summary(self) -> dict[str, Any]:
        """Public facts about the table, for the lobby."""
        st = self.state
        scores = getattr(st, "scores", None)
        return {
            "table": self.id, "game": self.game, "players": st.players,
            "version": self.public_version, "phase": st.phase, "to_act": list(st.to_act),
            "finished": st.is_terminal, "seats": self.seats_json(),
            "scores": list(scores) if scores is not None else None,
            "hands_scored": len(self.outcomes), "created_at": self.row.created_at,
            "clock": self.clock_json(),
        }


class TableManager:
    """Every live table, the storage and the bots' scheduling."""

    def __init__(self, settings: Settings, storage: Storage):
        self.settings = settings
        self.storage = storage
        # one writer thread for SQLite (no lock contention); a few for PostgreSQL
        self.db = ThreadPoolExecutor(max_workers=1 if storage.is_sqlite else 4,
                                     thread_name_prefix="meldhall-db")
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future] = {}
        self.closing = False
        self.lags: deque[float] = deque(maxlen=2400)     # event-loop lag samples (seconds)
        self._lag_task: asyncio.Task | None = None
        self._checkpoint_task: asyncio.Task | None = None
        # bot decisions and hints: off the event loop (the search bot in worker processes)
        self.pool = BotPool(settings.bot_workers or default_workers())
        self.hints_running = 0

    async def _db(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.db, fn, *args)

    async def _write(self, fn, *args):
        """A short write: inline for SQLite (a local file: ~1 ms, and no thread hand-over),
        on a worker thread for PostgreSQL (a network round trip)."""
        if self.storage.is_sqlite:
            return fn(*args)
        return await self._db(fn, *args)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Migrate the schema, rebuild every unfinished table from its log, resume bots."""
        # hand the GIL over quickly to the database threads (PostgreSQL round trips)
        sys.setswitchinterval(0.0005)
        await self._db(self.storage.migrate)
        ids = await self._db(self.storage.unfinished_ids)
        for table_id in ids:
            try:
                await self.get(table_id)
            except Exception:   # a table that cannot be rebuilt must not stop the others
                log.exception("table %s could not be rebuilt from its log", table_id)
        log.info("rebuilt %d unfinished table(s)", len(ids))
        # shorter garbage-collector pauses: the rebuilt tables are long-lived (frozen out of
        # the collector's scans); the young generations stay small (default thresholds), so
        # each collection is short
        gc.collect()
        gc.freeze()
        # a full collection walks every live object of every table (tens of milliseconds with
        # a hundred tables): not in the middle of play, but once a minute (see _watch_lag)
        gc.set_threshold(700, 10, 1_000_000)
        gc.callbacks.append(self._gc_timer)
        for t in list(self.tables.values()):
            self.kick(t)
        self._lag_task = asyncio.get_running_loop().create_task(self._watch_lag())
        if self.storage.is_sqlite:
            self._checkpoint_task = asyncio.get_running_loop().create_task(self._checkpoints())

    async def _checkpoints(self) -> None:
        while not self.closing:
            await asyncio.sleep(1.0)
            try:
                await self._db(self.storage.checkpoint)
            except Exception:  # noqa: BLE001 - a missed checkpoint is retried next time
                log.exception("SQLite checkpoint failed")

    _gc_started = 0.0
    gc_pauses: deque = deque(maxlen=5000)

    def _gc_timer(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.gc_pauses.append((info.get("generation"), time.perf_counter() - self._gc_started))

    async def _watch_lag(self) -> None:
        """Sample how late the event loop wakes up (health figure: a busy or blocked loop
        delays every table)."""
        last_full = time.monotonic()
        while not self.closing:
            t0 = time.monotonic()
            await asyncio.sleep(0.05)
            now = time.monotonic()
            self.lags.append(now - t0 - 0.05)
            if now - last_full >= FULL_GC_EVERY:
                gc.collect()
                last_full = time.monotonic()

    def lag_summary(self) -> LagSummary:
        """Event-loop lag over the last ~2 minutes: p50, p99 and max, in milliseconds."""
        v = sorted(self.lags)
        gcs = list(self.gc_pauses)
        gc_max = {str(g): round(max((d for gen, d in gcs if gen == g), default=0.0) * 1000, 2)
                  for g in (0, 1, 2)}
        if not v:
            return {"p50": None, "p99": None, "max": None, "gc_max": gc_max}
        return {"p50": round(v[len(v) // 2] * 1000, 2),
                "p99": round(v[min(len(v) - 1, int(len(v) * 0.99))] * 1000, 2),
                "max": round(v[-1] * 1000, 2), "gc_max": gc_max}

    async def stop(self) -> None:
        """Stop the bots and the checkpoints, wait for them, then close the storage.

        Lossless: every task that could write is cancelled AND awaited, the database threads
        are joined (a write or checkpoint already running finishes), and only then does
        :meth:`Storage.close` run its final checkpoint and close every connection.  A search
        bot still thinking in a worker process is abandoned (the worker is stopped): its
        table's task was cancelled, so its move would not have been stored anyway.
        """
        self.closing = True
        if self._gc_timer in gc.callbacks:
            gc.callbacks.remove(self._gc_timer)
        gc.set_threshold(700, 10, 10)
        tasks = [task for task in (self._lag_task, self._checkpoint_task) if task is not None]
        tasks += [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        tasks += [t.watch_task for t in self.tables.values() if t.watch_task is not None]
        for t in self.tables.values():
            if t.clock_handle is not None:
                t.clock_handle.cancel()
        for task in tasks:
            task.cancel()
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=10)
            if pending:
                log.warning("%d task(s) did not stop within 10 s", len(pending))
        self.close()

    def close(self) -> None:
        """Join the database threads and close the storage (synchronous, idempotent).

        :meth:`stop` ends with it; ``meldhall serve`` calls it again after the server has
        returned, which matters when a second Ctrl-C made uvicorn skip the application's
        shutdown (its "force quit").
        """
        self.closing = True
        self.pool.shutdown()
        self.db.shutdown(wait=True)
        self.storage.close()

    # ------------------------------------------------------------------ tables
    async def get(self, table_id: str) -> LiveTable:
        """The live table (loaded and replayed from the database on first use).

        Raises:
            Refusal: ``not_found``.
        """
        t = self.tables.get(table_id)
        if t is not None:
            return t
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 32:
            raise Refusal("not_found", "no such table", status=404)
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            row = await self._db(self.storage.load, table_id)
            if row is None:
                raise Refusal("not_found", "no such table", status=404)
            t = LiveTable(row)
            self.tables[table_id] = t
            self._evict()
            fut.set_result(t)
            return t
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()            # mark retrieved
            raise
        finally:
            self._loading.pop(table_id, None)

    def _evict(self) -> None:
        limit = self.settings.max_tables_loaded
        if len(self.tables) <= limit:
            return
        for tid, t in list(self.tables.items()):
            if len(self.tables) <= limit:
                break
            if t.finished and not t.connections:
                del self.tables[tid]

    async def create(self, game: str, players: int | None, options: dict[str, Any],
                     seats: list[dict[str, Any]], bot_pause: float | None,
                     seed: int | None, turn_clock: float | None = None,
                     disconnect_timeout: float | None = None,
                     takeover_bot: str | None = None) -> tuple[LiveTable, dict[str, Any]]:
        """Create a table; returns it and its secrets (every seat's token, the spectator's
        and the creator's), which are shown once and stored only hashed.

        ``turn_clock``: seconds a person has for each decision (``None`` or 0: no clock).
        ``disconnect_timeout``: seconds a seat to act may be away before a bot plays for it
        (0: never; ``None``: the server's default at a table with a clock, else never).
        ``takeover_bot``: the bot that plays for a person then (default
        :data:`DEFAULT_TAKEOVER_BOT`, else the heuristic where the game lacks it).

        Raises:
            Refusal: ``invalid`` with a sentence (unknown game, bad options, seats, bots,
                a clock or timeout out of range).
        """
        if game not in GAMES:
            raise Refusal("invalid", f"unknown game {game!r}; known games: {', '.join(GAMES)}",
                          status=422)
        if seed is not None and not self.settings.allow_seeds:
            raise Refusal("invalid", "this server does not accept seeds (whoever knows a seed "
                          "knows the deal); start it with --allow-seeds for tests", status=422)
        if isinstance(options, dict) and options.get("copy_choice", "uniform") != "uniform":
            # the former choice showed the others which copies a hand held: only old records
            # replay with it, never a new table
            raise Refusal("invalid", "options: copy_choice must be 'uniform' at a new table "
                          "('legacy' only replays records written before it)", status=422)
        if players is None and seats:
            players = len(seats)
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        try:
            initial = new_game(game, players=players, seed=seed, options=options or None)
        except MeldhallError as exc:
            raise Refusal("invalid", str(exc), status=422) from None
        except (TypeError, ValueError) as exc:
            raise Refusal("invalid", f"options: {exc}", status=422) from None
        n = initial.players
        if not seats:
            seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * (n - 1)
        if len(seats) != n:
            raise Refusal("invalid", f"{game} with these options has {n} seats; "
                          f"{len(seats)} seat descriptions were given", status=422)
        pause = self.settings.bot_pause if bot_pause is None else float(bot_pause)
        pause = min(max(pause, 0.0), self.settings.max_bot_pause)
        clock = self._seconds("turn_clock", turn_clock)
        if disconnect_timeout is None:
            away = self.settings.disconnect_timeout if clock is not None else None
        else:
            away = self._seconds("disconnect_timeout", disconnect_timeout)
        if takeover_bot is None:
            try:
                _check_bot(DEFAULT_TAKEOVER_BOT, game)
                takeover_bot = DEFAULT_TAKEOVER_BOT
            except OptionsError:
                takeover_bot = "heuristic"
        try:
            _check_bot(takeover_bot, game)
        except OptionsError as exc:
            raise Refusal("invalid", f"takeover_bot: {exc}", status=422) from None
        tokens = [new_token() for _ in range(n)]
        spectator, creator = new_token(), new_token()
        seat_rows = []
        for i, s in enumerate(seats):
            kind = s.get("kind", "human")
            bot = s.get("bot") if kind == "bot" else None
            if kind == "bot":
                try:
                    _check_bot(bot or "", game)
                except OptionsError as exc:
                    raise Refusal("invalid", f"seat {i}: {exc}", status=422) from None
            name = (s.get("name") or "").strip() or (f"Bot {i}" if kind == "bot"
                                                     else f"Player {i}")
            seat_rows.append(SeatRow(i, name[:40], kind, bot, hash_token(tokens[i])))
        now = time.time()
        dealer = int(initial.dealer)  # type: ignore[attr-defined]  # a slot of every game's state
        row = TableRow(
            id=secrets.token_urlsafe(9), game=game, players=n, seed=seed, dealer=dealer,
            options=initial.options.to_json(),
            version=0, finished=False, bot_pause=pause,
            creator_token_hash=hash_token(creator), spectator_token_hash=hash_token(spectator),
            created_at=now, updated_at=now, seats=seat_rows, turn_clock=clock,
            disconnect_timeout=away, takeover_bot=takeover_bot)
        await self._write(self.storage.create_table, row)
        t = LiveTable(row, rebuilt=False)
        self.tables[row.id] = t
        self.kick(t)
        secrets_ = {"seat_tokens": tokens, "spectator_token": spectator,
                    "creator_token": creator}
        return t, secrets_

    def _seconds(self, name: str, value: float | None) -> float | None:
        """A turn clock or disconnect timeout as asked for: ``None`` or 0 is off, else from
        the server's ``min_clock`` to :data:`MAX_CLOCK` seconds.

        Raises:
            Refusal: ``invalid``, out of range.
        """
        if value is None or value == 0:
            return None
        low = self.settings.min_clock
        if not low <= value <= MAX_CLOCK:
            raise Refusal("invalid", f"{name}: {value:g} s is out of range: from {low:g} to "
                          f"{MAX_CLOCK:g} seconds on this server (0 or null: off)", status=422)
        return float(value)

    # ------------------------------------------------------------------ actions
    async def act(self, t: LiveTable, seat: int, text: str, version: int | None,
                  by_bot: bool = False) -> int:
        """Apply ``text`` for ``seat`` if the table is at ``version``; returns the new version.

        Raises:
            Refusal: nothing was applied (stale version, illegal, notation, storage …).
        """
        async with t.lock:
            # a seat's own staging (private actions) does not make its public version stale
            if version is not None and version != t.version and not (
                    version == t.public_version and t.private_seat in (None, seat)):
                raise Refusal("stale_version",
                              f"the table has moved on (version {t.public_version}, your "
                              f"action was made at version {version}); nothing was applied",
                              status=409)
            if not by_bot and t.seats[seat].kind == "bot":
                raise Refusal("seat_is_bot", f"seat {seat} is played by a bot now", status=403)
            if by_bot and t.seats[seat].kind != "bot":
                raise Refusal("stale_version", f"seat {seat} was handed back to its player",
                              status=409)
            state = t.state
            if state.is_terminal:
                raise Refusal("game_over", "the game is over", status=409)
            try:
                action = state.parse_action(text)
                new = state.apply(action, seat)
            except IllegalActionError as exc:
                raise Refusal("illegal", f"{exc.rule_id}: {exc.reason}", rule_id=exc.rule_id,
                              reason=exc.reason, status=422) from None
            except NotationError as exc:
                raise Refusal("notation", str(exc), status=422) from None
            except MeldhallError as exc:
                raise Refusal("invalid", str(exc), status=422) from None
            canonical = str(action)
            try:
                await self._write(self.storage.append, t.id, t.version, seat, canonical,
                                  new.is_terminal)
            except StaleVersion:
                # another process wrote to this table: reload it from the log
                self.tables.pop(t.id, None)
                raise Refusal("stale_version", "the table was changed elsewhere; reload",
                              status=409) from None
            except Exception as exc:
                log.exception("storing an action of table %s failed", t.id)
                raise Refusal("storage", f"the action could not be stored ({type(exc).__name__})"
                              "; nothing was applied", status=503) from None
            t._advance(new, seat, canonical, action.PRIVATE)
            version = t.version
            if t.private_seat is None:
                # a new decision; staging (private) is part of the decision it began in
                t.decision_since = time.time()
        t.notify()
        self.kick(t)
        return version

    async def set_seat(self, t: LiveTable, seat: int, kind: str, bot: str | None) -> None:
        """Hand ``seat`` to a bot, or back to its human (the creator decides; this ends a
        takeover too, without a notice)."""
        if not 0 <= seat < len(t.seats):
            raise Refusal("invalid", f"no seat {seat} at this table", status=422)
        if kind == "bot":
            try:
                _check_bot(bot or "", t.game)
            except OptionsError as exc:
                raise Refusal("invalid", str(exc), status=422) from None
        else:
            bot = None
        async with t.lock:
            await self._write(self.storage.set_seat, t.id, seat, kind, bot)
            s = t.seats[seat]
            t.seats[seat] = SeatRow(s.seat, s.name, kind, bot, s.token_hash)
            t.bots.pop(seat, None)
            t.hints.pop(seat, None)
            if kind == "human":
                self._restart_clock(t, seat)
        t.notify(everyone=True)  # who plays a seat is public, even mid-staging
        self.kick(t)

    # ------------------------------------------------------------------ turn clock
    def opened(self, t: LiveTable, seat: int) -> None:
        """The seat's person opened the table (a connection, or a request with the seat's
        key): the first time since the server started, its clock starts, whole, for the
        decision at hand."""
        if seat in t.opened:
            return
        t.opened.add(seat)
        t.clock_from[seat] = max(t.clock_from.get(seat, 0.0), time.time())
        self._arm(t)

    def attach(self, t: LiveTable, conn: Connection) -> None:
        """A connection opened: its seat is no longer away; everyone sees it."""
        t.connections.add(conn)
        if conn.seat is not None:
            t.away_since.pop(conn.seat, None)
            if conn.seat not in t.opened:
                t.opened.add(conn.seat)
                t.clock_from[conn.seat] = max(t.clock_from.get(conn.seat, 0.0), time.time())
        t.notify(everyone=True)  # who is connected is public
        self._arm(t)

    def detach(self, t: LiveTable, conn: Connection) -> None:
        """A connection closed: its seat is away from now on if it was the seat's last."""
        conn.closed = True
        t.connections.discard(conn)
        if conn.seat is not None and not any(c.seat == conn.seat and not c.closed
                                             for c in t.connections):
            t.away_since.setdefault(conn.seat, time.time())
        t.notify(everyone=True)
        self._arm(t)
        if not self.closing:
            self.kick(t)  # a bot waiting for this seat to read the score need not wait

    def ready(self, t: LiveTable, seat: int, version: int) -> None:
        """``seat``'s player closed the score of the hand just over (at ``version``): a bot
        waiting to deal the next hand for it deals once every connected person has."""
        # the version the seat's page knows: the full one for the seat to act, else the
        # public one (at a hand's end both name the same state)
        if version in (t.version, t.public_version) and t.state.phase in END_PHASES:
            t.ready.add(seat)
            self.kick(t)

    def hand_end_wait(self, t: LiveTable) -> float:
        """Seconds a bot dealing the next hand still waits for the table's people to close
        the hand's score (:attr:`Settings.hand_end_wait` from the hand's end; 0 when every
        connected person has, or nobody is connected)."""
        if t.state.phase not in END_PHASES or self.settings.hand_end_wait <= 0:
            return 0.0
        reading = {c.seat for c in t.connections
                   if c.seat is not None and not c.closed and t.seats[c.seat].kind == "human"}
        if not reading - t.ready:
            return 0.0
        return max(0.0, t.decision_since + self.settings.hand_end_wait - time.time())

    @staticmethod
    def _restart_clock(t: LiveTable, seat: int) -> None:
        """The seat is its person's again: a whole clock for the decision at hand, and the
        disconnect timeout counts from now if nobody has the seat open."""
        now = time.time()
        t.clock_from[seat] = now
        if seat in t.away_since:
            t.away_since[seat] = now

    def _arm(self, t: LiveTable) -> None:
        """Schedule the check for the table's next takeover (replacing the previous one)."""
        if t.clock_handle is not None:
            t.clock_handle.cancel()
            t.clock_handle = None
        if self.closing or t.finished:
            return
        due = t.next_deadline()
        if due is None:
            return
        loop = asyncio.get_running_loop()
        # a hundredth of a second late: the check then finds the deadline passed
        t.clock_handle = loop.call_later(max(0.0, due - time.time()) + 0.01,
                                         self._deadline, t)

    def _deadline(self, t: LiveTable) -> None:
        t.clock_handle = None
        if self.closing:
            return
        if t.watch_task is None or t.watch_task.done():   # else it arms the next one itself
            t.watch_task = asyncio.get_running_loop().create_task(self._take_overs(t))

    async def _take_overs(self, t: LiveTable) -> None:
        try:
            now = time.time()
            for seat in t.watched_seats():
                reason = t.takeover_due(seat, now)
                if reason is not None:
                    await self._take_over(t, seat, reason)
        finally:
            if not self.closing:
                self._arm(t)

    async def _take_over(self, t: LiveTable, seat: int, reason: str) -> None:
        """The table's stand-in bot plays for ``seat`` from now on (``reason``: ``"clock"``
        or ``"disconnected"``): stored with the seat, with its public notice."""
        async with t.lock:
            s = t.seats[seat]
            if s.kind != "human" or seat not in t.state.to_act or t.finished:
                return          # the seat moved, or was handed over, meanwhile
            bot = t.takeover_bot
            if reason == "clock":
                why = f"the clock ran out ({t.turn_clock:g} s)"
            else:
                why = f"disconnected for over {t.disconnect_timeout:g} s"
            event = t.new_event("takeover", seat, f"Bot ({bot_level(bot)}) plays for {s.name}: "
                                f"{why}")
            try:
                await self._write(self.storage.set_seat, t.id, seat, "bot", bot, reason, event)
            except Exception:
                log.exception("storing the takeover of seat %d at table %s failed", seat, t.id)
                t.takeover_retry = time.time() + 1.0
                return
            t.seats[seat] = SeatRow(s.seat, s.name, "bot", bot, s.token_hash, reason)
            t.bots.pop(seat, None)
            t.hints.pop(seat, None)
            t.add_event(event)
        log.info("table %s: %s", t.id, event.text)
        t.notify(everyone=True)
        self.kick(t)

    async def take_back(self, t: LiveTable, seat: int) -> None:
        """``seat``'s person takes it back from the stand-in bot, at once: a decision the bot
        is still working out is dropped (a move it made already stays), and the decision at
        hand gets a whole clock.  Stored, with a public notice.

        Raises:
            Refusal: ``not_taken_over`` (409: no takeover; a seat the creator handed to a
                bot is the creator's to hand back), ``storage`` (503).
        """
        async with t.lock:
            s = t.seats[seat]
            if s.takeover is None:
                raise Refusal("not_taken_over", "no bot is playing for this seat" if
                              s.kind == "human" else "the table's creator handed this seat "
                              "to a bot: only the creator can hand it back", status=409)
            event = t.new_event("take_back", seat, f"{s.name} takes the seat back")
            try:
                await self._write(self.storage.set_seat, t.id, seat, "human", None, None, event)
            except Exception as exc:
                log.exception("storing the take-back of seat %d at table %s failed", seat, t.id)
                raise Refusal("storage", f"the seat could not be taken back "
                              f"({type(exc).__name__}); try again", status=503) from None
            t.seats[seat] = SeatRow(s.seat, s.name, "human", None, s.token_hash)
            t.bots.pop(seat, None)      # the bot loop drops a decision it is working out
            t.hints.pop(seat, None)
            self._restart_clock(t, seat)
            t.add_event(event)
        log.info("table %s: %s", t.id, event.text)
        t.notify(everyone=True)
        self.kick(t)

    async def _notice(self, t: LiveTable, kind: str, seat: int, text: str) -> None:
        """Store and show a public notice (the watchdog's)."""
        event = t.new_event(kind, seat, text)
        t.add_event(event)
        log.warning("table %s: %s", t.id, text)
        try:
            await self._write(self.storage.add_event, t.id, event)
        except Exception:  # noqa: BLE001 - the notice is shown; only its copy is missing
            log.exception("storing a notice of table %s failed", t.id)
        t.notify(everyone=True)

    # ------------------------------------------------------------------ bots
    def kick(self, t: LiveTable) -> None:
        """Make sure a bot plays if a bot's decision is awaited, and that the clock of a
        person's decision is watched."""
        self._arm(t)
        if self.closing or t.finished:
            return
        if not any(t.seats[s].kind == "bot" for s in t.state.to_act):
            return
        if t.bot_task is None or t.bot_task.done():
            t.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(t))

    async def _bot_loop(self, t: LiveTable) -> None:
        failures = 0
        while not self.closing:
            state, version = t.state, t.version
            if state.is_terminal:
                return
            seats = [s for s in state.to_act if t.seats[s].kind == "bot"]
            if not seats:
                return
            seat = seats[0]
            wait = self.hand_end_wait(t)
            if wait > 0:
                # the next deal waits for the people reading the score (ready() or their
                # leaving wakes it sooner)
                asyncio.get_running_loop().call_later(wait + 0.01, self.kick, t)
                return
            pause = t.row.bot_pause
            if pause > 0:
                if state.phase in END_PHASES:
                    pause *= 4          # time to read the score
                await asyncio.sleep(pause)
                if t.version != version or t.seats[seat].kind != "bot":
                    continue
            entry = self._bot_entry(t, seat)
            # the watchdog: a decision that raises, runs past the budget or is refused by the
            # rules is replaced by the heuristic's move for the same observation
            problem: str | None = None
            text = ""
            try:
                text = await self._bot_choice(t, state, seat, entry)
            except TimeoutError:
                problem = f"took too long (over {self.settings.bot_time_budget:g} s)"
                log.warning("bot %r of seat %d at table %s: no decision within %g s", entry[0],
                            seat, t.id, self.settings.bot_time_budget)
            except Exception as exc:
                if self.closing:
                    return
                problem = f"failed ({type(exc).__name__})"
                log.warning("bot %r of seat %d at table %s raised", entry[0], seat, t.id,
                            exc_info=True)
            if t.bots.get(seat) is not entry:
                continue        # handed to another bot or to its person while thinking
            try:
                if problem is None:
                    try:
                        await self.act(t, seat, text, version, by_bot=True)
                    except Refusal as exc:
                        if exc.code not in ("illegal", "notation", "invalid"):
                            raise
                        # (the refused move may name cards of the bot's hand: the server's
                        # log has it, the public notice not)
                        log.warning("bot %r of seat %d at table %s chose %r, refused: %s",
                                    entry[0], seat, t.id, text, exc.message)
                        problem = "was illegal"
                if problem is not None:
                    await self._replace_decision(t, state, version, seat, entry, problem)
                failures = 0
            except Refusal as exc:
                if exc.code == "stale_version":
                    continue
                failures += 1
                log.error("bot move at table %s refused: %s", t.id, exc.message)
                if failures >= 3:
                    t.error = f"a bot could not move: {exc.message}"
                    t.notify()
                    return
                await asyncio.sleep(0.05)
            if pause <= 0:
                await asyncio.sleep(0)      # let connections send between bot moves

    async def _replace_decision(self, t: LiveTable, state: State, version: int, seat: int,
                                entry: tuple[str, random.Random], problem: str) -> None:
        """Play the heuristic's move for ``seat`` at ``version`` instead of its bot's (which
        ``problem``: ``"was illegal"``, ``"took too long (…)"``, ``"failed (…)"``) and say so
        in a public notice.  The heuristic decides from the seat's observation, off the event
        loop and off the bot thread (which may be the one stuck); should it fail too, a random
        legal move is played.

        Raises:
            Refusal: from :meth:`act` (``stale_version``: the table moved on meanwhile).
        """
        legal = state.legal_actions(seat)
        seed = entry[1].getrandbits(64)
        try:
            text = await asyncio.wait_for(asyncio.to_thread(
                decide, t.game, "heuristic", state.observation(seat), legal, seed),
                self.settings.bot_time_budget)
        except Exception:  # noqa: BLE001 - the last resort below still moves the table on
            log.exception("the heuristic's replacement move at table %s failed; playing a "
                          "random move", t.id)
            text = str(random.Random(seed).choice(legal))
        if t.bots.get(seat) is not entry:
            return              # handed to another bot or to its person meanwhile
        public_before = t.public_version
        await self.act(t, seat, text, version, by_bot=True)
        s = t.seats[seat]
        subject = (f"The move of the bot playing for {s.name}" if s.takeover is not None
                   else f"{s.name}'s move")
        # a private action (staging) is not named: only its seat may know it
        played = (f"the heuristic played {t.recent[-1]['action']}"
                  if t.public_version != public_before and t.recent
                  else "the heuristic's move was played instead")
        await self._notice(t, "watchdog", seat, f"{subject} {problem}; {played}")

    @staticmethod
    def _bot_entry(t: LiveTable, seat: int) -> tuple[str, random.Random]:
        """The seat's bot name and its random source (the seeds of its decisions)."""
        entry = t.bots.get(seat)
        if entry is None:
            entry = (t.seats[seat].bot or "random", random.Random(secrets.randbits(64)))
            t.bots[seat] = entry
        return entry

    async def _bot_choice(self, t: LiveTable, state: State, seat: int,
                          entry: tuple[str, random.Random]) -> str:
        """The bot's move, decided off the event loop from the seat's observation, its legal
        actions and a seed (never the state)."""
        name, rng = entry
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return str(legal[0])            # a forced move: no bot needed
        seed = rng.getrandbits(64)
        search = is_search_bot(name)
        if search:                          # seconds: the seats show that it is thinking
            t.thinking = seat
            t.notify()
        try:
            return await self.pool.decide(t.game, name, state.observation(seat), legal, seed,
                                          timeout=self.settings.bot_time_budget)
        finally:
            if search:
                t.thinking = None
                t.notify()

    # ------------------------------------------------------------------ hints
    def max_hints_running(self) -> int:
        return self.settings.max_hints_running or 2 * self.pool.workers

    async def hint(self, t: LiveTable, seat: int) -> dict[str, Any]:
        """The search bot's (``ismcts``, normal level) advice for ``seat``, computed in the
        worker pool from the seat's observation; ``Hint.to_json()`` plus the ``version`` it
        was computed at.  Cached per seat until the table moves on; one computation per seat
        at a time.  With a turn clock, the seat's clock stands still while its hint is
        worked out (its decision's deadline moves on by the time the hint took).

        Raises:
            Refusal: ``game_over``, ``seat_is_bot``, ``not_your_turn`` (nothing to decide
                now), ``busy`` (this seat's hint is being computed, or too many on the
                server), ``unavailable``.
        """
        if t.finished:
            raise Refusal("game_over", "the game is over", status=409)
        if t.seats[seat].kind == "bot":
            raise Refusal("seat_is_bot", f"seat {seat} is played by a bot now", status=403)
        state, version = t.state, t.version
        if seat not in state.to_act:
            raise Refusal("not_your_turn", f"seat {seat} has no decision to make now: no hint",
                          status=409)
        cached = t.hints.get(seat)
        if cached is not None and cached[0] == version:
            return cached[1]
        if seat in t.hinting:
            raise Refusal("busy", "a hint for this seat is being worked out; wait for it",
                          status=429)
        if self.closing:
            raise Refusal("unavailable", "the server is shutting down", status=503)
        if self.hints_running >= self.max_hints_running():
            raise Refusal("busy", "the server is working out too many hints; try again in a "
                          "moment", status=429)
        t.hinting.add(seat)
        self.hints_running += 1
        started = time.time()
        try:
            data = await self.pool.advise(t.game, state.players, state.observation(seat),
                                          state.legal_actions(seat),
                                          hint_seed(t.id, seat, len(state.history())))
        except Exception as exc:
            log.exception("hint for seat %d at table %s failed", seat, t.id)
            raise Refusal("unavailable", f"the hint could not be worked out "
                          f"({type(exc).__name__})", status=503) from None
        finally:
            t.hinting.discard(seat)
            self.hints_running -= 1
            if t.version == version and t.turn_clock is not None:
                # the time the hint took is not the player's: their clock resumes where it
                # stood (a tester's own seat was taken over, a 10 s clock, while a hint that
                # took 6 s was worked out); once per decision, as the hint is then cached
                t.clock_from[seat] = (max(t.decision_since, t.clock_from.get(seat, 0.0))
                                      + (time.time() - started))
                t.notify(everyone=True)  # the seat's clock is public
                self._arm(t)
        out = {"version": version, **data}
        t.hints[seat] = (version, out)
        return out


def hint_seed(table_id: str, seat: int, public_actions: int) -> int:
    """The seed of a hint at ``table_id`` for ``seat`` after ``public_actions`` public actions
    (``len(state.history())``, which staging, CC-6.9, RR-6.11, SH-8.1, leaves unchanged).

    The same position therefore gets the same hint, before and after the seat stages the
    melds it recommends, so following a hint step by step does not make it change its mind
    by sampling noise alone.  Only public facts go in: the hint reads the seat's observation,
    and its seed tells nothing of the hidden cards.
    """
    digest = hashlib.blake2b(f"hint:{table_id}:{seat}:{public_actions}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _check_bot(name: str, game: str) -> None:
    """A bot this server plays: one of :data:`~meldhall.bots.BOT_NAMES` (or of the bots added
    with ``--bots-from``, :data:`~meldhall.server.workers.EXTRA_BOTS`) that exists for
    ``game``.  (``make_bot`` also takes custom search budgets such as ``ismcts:100000``: on a
    server anyone could tie up the worker processes with one.)

    Raises:
        OptionsError: with a sentence.
    """
    if name not in BOT_NAMES and name not in EXTRA_BOTS:
        known = ", ".join((*BOT_NAMES, *EXTRA_BOTS))
        raise OptionsError(f"unknown bot {name!r}; this server's bots: {known}")
    make_server_bot(name, game)
