"""Bot decisions and hints off the event loop: a process pool for the search bot, a thread
for the cheap bots.

A search bot (``ismcts`` at any level) thinks for 0.05 to 5 seconds of CPU; run on the event
loop it would freeze every table and connection of the server meanwhile.  :class:`BotPool`
runs it in a :class:`~concurrent.futures.ProcessPoolExecutor` (created on first use, sized by
:attr:`~meldhall.server.config.Settings.bot_workers`).  The cheap bots (``random``,
``heuristic``: well under a millisecond a decision, a few milliseconds at worst) run on one
thread: a trip to another process would cost more than their decision.

A worker is sent only what the seat may see: its observation, its legal actions and a seed
(drawn by the caller from the table's random source for that bot) — never the state, so a
bot cannot see the hidden cards even by accident.  The functions run in the workers
(:func:`decide`, :func:`advise`) import only the engine, not the web server.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

__all__ = ["BotPool", "advise", "decide", "default_workers", "is_search_bot"]

log = logging.getLogger("meldhall.server")


def default_workers() -> int:
    """Worker processes by default: one fewer than the CPUs (the event loop keeps one)."""
    return max(1, (os.cpu_count() or 2) - 1)


def is_search_bot(name: str) -> bool:
    """Whether a bot name is the search bot (slow: it runs in a worker process)."""
    return name.partition(":")[0] == "ismcts"


# ---------------------------------------------------------------------- in the workers
def decide(game: str, bot: str, observation: Any, legal: Sequence[Any], seed: int) -> str:
    """The action ``bot`` chooses for the observing seat, in notation."""
    from meldhall.bots import make_bot

    return str(make_bot(bot, game).choose(observation, list(legal), random.Random(seed)))


def advise(game: str, players: int, observation: Any, legal: Sequence[Any], seed: int,
           bot: str = "ismcts", alternatives: int = 3) -> dict[str, Any]:
    """:func:`meldhall.hints.hint_for_observation` for the observing seat, as
    ``Hint.to_json()`` (the worker has no state: it must not see the hidden cards)."""
    from meldhall.hints import hint_for_observation

    return hint_for_observation(game, observation, legal, bot=bot, seed=seed,
                                alternatives=alternatives).to_json()


def _worker_init(server_pid: int) -> None:
    # Ctrl-C in a terminal (SIGINT) and a service manager's SIGTERM reach the whole process
    # group: a worker must not die of them in the middle of a decision (the server would see
    # a broken pool and play random moves while it shuts down).  The server stops its
    # workers itself (BotPool.shutdown) …
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # … unless it is killed (SIGKILL, a crash): then the worker leaves too, rather than wait
    # forever for work (it holds its queue's write end, so it never sees an end of file)
    threading.Thread(target=_watch_server, args=(server_pid,), daemon=True,
                     name="meldhall-watch-server").start()


def _watch_server(server_pid: int) -> None:
    while os.getppid() == server_pid:
        time.sleep(1.0)
    os._exit(0)


# ---------------------------------------------------------------------- in the server
class BotPool:
    """Where bots think: worker processes for the search bot, a thread for the others.

    Args:
        workers: worker processes (the most search decisions and hints computed at once).
    """

    def __init__(self, workers: int):
        self.workers = max(1, int(workers))
        self._processes: ProcessPoolExecutor | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="meldhall-bot")
        self._lock = threading.Lock()
        self.closed = False
        self.running = 0            # search tasks submitted and not yet answered

    def _process_pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self.closed:
                raise RuntimeError("the bot pool is shut down")
            if self._processes is None:
                # spawn: fresh interpreters, not forks of this process (which runs threads:
                # the database's, uvicorn's).  Not forkserver either: a SIGTERM to the process
                # group would kill the fork server, and with it the pool (its workers' exit
                # reports go through the fork server).
                ctx = multiprocessing.get_context("spawn")
                self._processes = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx,
                                                      initializer=_worker_init,
                                                      initargs=(os.getpid(),))
            return self._processes

    def _executor(self, bot: str) -> Executor:
        return self._process_pool() if is_search_bot(bot) else self._thread

    async def run(self, bot: str, fn, *args: Any) -> Any:
        """``fn(*args)`` where ``bot`` thinks; a broken process pool is replaced for next time.

        Raises:
            whatever ``fn`` raised, or ``BrokenProcessPool`` if a worker died.
        """
        executor = self._executor(bot)
        search = executor is not self._thread
        if search:
            self.running += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)
        except Exception as exc:
            from concurrent.futures.process import BrokenProcessPool

            if isinstance(exc, BrokenProcessPool):
                with self._lock:
                    if self._processes is executor:
                        self._processes = None       # a fresh pool on the next decision
                executor.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            if search:
                self.running -= 1

    async def decide(self, game: str, bot: str, observation: Any, legal: Sequence[Any],
                     seed: int) -> str:
        """The action ``bot`` chooses (see :func:`decide`)."""
        return await self.run(bot, decide, game, bot, observation, list(legal), seed)

    async def advise(self, game: str, players: int, observation: Any, legal: Sequence[Any],
                     seed: int, bot: str = "ismcts") -> dict[str, Any]:
        """A hint for the observing seat (see :func:`advise`)."""
        return await self.run(bot, advise, game, players, observation, list(legal), seed, bot)

    def stats(self) -> dict[str, Any]:
        """For the health endpoint: worker processes, whether started, search tasks pending."""
        return {"workers": self.workers, "started": self._processes is not None,
                "search_tasks": self.running}

    def shutdown(self) -> None:
        """Stop the workers now (idempotent).  A decision being computed is abandoned: the
        bots' tasks have been cancelled, nothing waits for it, and a worker holds nothing
        that needs saving."""
        with self._lock:
            self.closed = True
            pool, self._processes = self._processes, None
        self._thread.shutdown(wait=False, cancel_futures=True)
        if pool is None:
            return
        procs = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:             # they ignore SIGTERM (see _worker_init)
            try:
                p.kill()
            except (OSError, ValueError):
                pass
        for p in procs:
            p.join(timeout=5)
