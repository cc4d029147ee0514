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

A decision may be given a time budget (:meth:`BotPool.decide`'s ``timeout``): past it the
caller stops waiting (the server's watchdog then plays the heuristic's move).  A bot stuck on
the bot thread would hold up every cheap bot of the server behind it, so that thread is
replaced by a fresh one and the stuck one is left to finish on its own; a search stuck in a
worker process runs to its own time cap, its answer unused.

Bots added with ``meldhall serve --bots-from`` (:func:`load_bots`: developers trying their own
bot in the browser, the server tests' misbehaving bots) play on the bot thread.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import logging
import multiprocessing
import os
import random
import re
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

__all__ = ["EXTRA_BOTS", "BotPool", "advise", "decide", "default_workers", "is_search_bot",
           "load_bots", "make_server_bot"]

log = logging.getLogger("meldhall.server")


def default_workers() -> int:
    """Worker processes by default: one fewer than the CPUs (the event loop keeps one)."""
    return max(1, (os.cpu_count() or 2) - 1)


def is_search_bot(name: str) -> bool:
    """Whether a bot name is the search bot (slow: it runs in a worker process)."""
    return name.partition(":")[0] == "ismcts"


#: Bots added to this server process by :func:`load_bots`: name -> ``factory(game)``, which
#: returns a bot (``choose(observation, legal_actions, rng)``) or raises
#: :class:`~meldhall.errors.OptionsError` for a game it does not play.
EXTRA_BOTS: dict[str, Callable[[str], Any]] = {}

_EXTRA_NAME = re.compile(r"[a-z0-9][a-z0-9_.:-]{0,19}\Z")


def load_bots(spec: str) -> list[str]:
    """Add the bots of a module (``package.module``) or a Python file (``path/bots.py``) to
    :data:`EXTRA_BOTS`; returns their names.

    The module defines ``BOTS``, a mapping of names to factories: ``factory(game)`` returns a
    bot for that game or raises :class:`~meldhall.errors.OptionsError`.  A name has 1 to 20
    characters among ``a-z 0-9 _ . : -``, is not one of :data:`meldhall.bots.BOT_NAMES` and
    does not start with ``ismcts`` (which names the search bot).

    Raises:
        OptionsError: the module cannot be imported, has no ``BOTS`` mapping, or a name is
            not acceptable.
    """
    from meldhall.bots import BOT_NAMES
    from meldhall.errors import OptionsError

    try:
        if spec.endswith(".py") or os.sep in spec:
            path = Path(spec).expanduser().resolve()
            loader = importlib.util.spec_from_file_location(
                f"meldhall_extra_bots_{len(EXTRA_BOTS)}_{path.stem}", path)
            if loader is None or loader.loader is None:
                raise ImportError(f"cannot load {path}")
            module = importlib.util.module_from_spec(loader)
            loader.loader.exec_module(module)
        else:
            module = importlib.import_module(spec)
    except Exception as exc:
        raise OptionsError(f"--bots-from {spec!r}: {type(exc).__name__}: {exc}") from None
    table = getattr(module, "BOTS", None)
    if not isinstance(table, dict) or not all(callable(f) for f in table.values()):
        raise OptionsError(f"--bots-from {spec!r}: the module has no BOTS mapping of names to "
                           "factories")
    for name in table:
        if (not isinstance(name, str) or not _EXTRA_NAME.match(name) or name in BOT_NAMES
                or name.startswith("ismcts")):
            raise OptionsError(f"--bots-from {spec!r}: {name!r} is not an acceptable bot name "
                               "(1 to 20 of a-z 0-9 _ . : -, not a built-in bot's, not ismcts…)")
    EXTRA_BOTS.update(table)
    return list(table)


def make_server_bot(name: str, game: str) -> Any:
    """A bot this process knows by name: one of :data:`EXTRA_BOTS`, else
    :func:`meldhall.bots.make_bot`.

    Raises:
        OptionsError: unknown name, or a bot that does not play ``game``.
    """
    factory = EXTRA_BOTS.get(name)
    if factory is not None:
        return factory(game)
    from meldhall.bots import make_bot

    return make_bot(name, game)


# ---------------------------------------------------------------------- in the workers
def decide(game: str, bot: str, observation: Any, legal: Sequence[Any], seed: int) -> str:
    """The action ``bot`` chooses for the observing seat, in notation."""
    return str(make_server_bot(bot, game).choose(observation, list(legal),
                                                 random.Random(seed)))


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
        self.threads_replaced = 0   # bot threads abandoned to a decision past its budget

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

    async def run(self, bot: str, fn, *args: Any, timeout: float | None = None) -> Any:
        """``fn(*args)`` where ``bot`` thinks; a broken process pool is replaced for next time.

        ``timeout``: seconds to wait for the answer (``None``: no limit).  Past it the bot
        thread, if that is where ``fn`` runs, is replaced by a fresh one (the old one finishes
        ``fn`` on its own, unheeded), so the other tables' cheap bots do not wait behind it.

        Raises:
            whatever ``fn`` raised, ``BrokenProcessPool`` if a worker died, ``TimeoutError``
            past ``timeout``.
        """
        executor = self._executor(bot)
        search = executor is not self._thread
        if search:
            self.running += 1
        try:
            future = asyncio.get_running_loop().run_in_executor(executor, fn, *args)
            if timeout is None:
                return await future
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            if not search:
                self._replace_thread(executor)
            raise
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

    def _replace_thread(self, stuck: Executor) -> None:
        with self._lock:
            if self.closed or self._thread is not stuck:
                return
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="meldhall-bot")
            self.threads_replaced += 1
        # the decisions queued behind the stuck one still run there (each against its own
        # budget); cancelling them would cancel their tables' bot tasks
        stuck.shutdown(wait=False, cancel_futures=False)
        log.warning("a bot decision on the bot thread exceeded its budget: a fresh thread "
                    "takes the next decisions")

    async def decide(self, game: str, bot: str, observation: Any, legal: Sequence[Any],
                     seed: int, timeout: float | None = None) -> str:
        """The action ``bot`` chooses (see :func:`decide`), within ``timeout`` seconds.

        Raises:
            whatever the bot raised; ``TimeoutError`` past ``timeout`` (see :meth:`run`).
        """
        return await self.run(bot, decide, game, bot, observation, list(legal), seed,
                              timeout=timeout)

    async def advise(self, game: str, players: int, observation: Any, legal: Sequence[Any],
                     seed: int, bot: str = "ismcts") -> dict[str, Any]:
        """A hint for the observing seat (see :func:`advise`)."""
        return await self.run(bot, advise, game, players, observation, list(legal), seed, bot)

    def stats(self) -> dict[str, Any]:
        """For the health endpoint: worker processes, whether started, search tasks pending."""
        return {"workers": self.workers, "started": self._processes is not None,
                "search_tasks": self.running, "threads_replaced": self.threads_replaced}

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
