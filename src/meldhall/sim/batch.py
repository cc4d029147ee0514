"""Batches of bot games, on local processes: what ``meldhall simulate`` runs.

Game ``i`` of a batch uses seed ``seed + i``; results are gathered in seed order, so a batch's
summary is identical whatever the number of workers (only ``seconds`` differs).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from meldhall.sim.match import GameResult, play_game, seat_bots

__all__ = ["BatchSummary", "run_batch", "summarize"]


@dataclass
class BatchSummary:
    """What a batch of games produced.

    Attributes:
        game: game name.
        players: seats per game.
        bots: bot name per seat.
        seed: seed of the first game (game ``i`` uses ``seed + i``).
        options: option values given (not the defaults).
        results: one :class:`~meldhall.sim.match.GameResult` per game, in seed order.
        seconds: wall-clock time of the batch.
        workers: processes used.
    """

    game: str
    players: int
    bots: list[str]
    seed: int
    options: dict[str, Any]
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0
    workers: int = 1

    @property
    def errors(self) -> list[GameResult]:
        """The games that raised (their ``error`` says what)."""
        return [r for r in self.results if r.error is not None]

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict (the ``meldhall simulate --json`` object).

        Sides are score columns (partnerships, or players where scores are personal).  Only
        games without error count towards wins and means.
        """
        ok = [r for r in self.results if r.error is None]
        nsides = max((len(r.scores) for r in ok), default=0)
        wins = [0] * nsides
        final = [0] * nsides
        hand_sum = [0] * nsides
        hands = sum(r.hands for r in self.results)
        ok_hands = 0
        for r in ok:
            for w in r.winners:
                wins[w] += 1
            for i, v in enumerate(r.scores):
                final[i] += v
            for hs in r.hand_scores:
                ok_hands += 1
                for i, v in enumerate(hs):
                    hand_sum[i] += v
        games_ok = len(ok)
        return {
            "game": self.game,
            "players": self.players,
            "bots": list(self.bots),
            "sides": nsides,
            "seed": self.seed,
            "options": dict(self.options),
            "games": len(self.results),
            "hands": hands,
            "actions": sum(r.actions for r in self.results),
            "seconds": round(self.seconds, 3),
            "workers": self.workers,
            "wins": wins,
            "win_rate": [round(w / games_ok, 4) if games_ok else 0.0 for w in wins],
            "mean_final_score": [round(f / games_ok, 1) if games_ok else 0.0 for f in final],
            "mean_hand_score": [round(h / ok_hands, 1) if ok_hands else 0.0 for h in hand_sum],
            "errors": len(self.errors),
            "error_messages": [f"seed {r.seed}: {r.error}" for r in self.errors[:10]],
        }


def _play_one(args: tuple) -> GameResult:
    game, players, bots, seed, options = args
    return play_game(game, players, bots, seed, options=options)


def summarize(game: str, players: int, bots: list[str], seed: int, options: dict[str, Any],
              results: list[GameResult], seconds: float, workers: int = 1) -> BatchSummary:
    """Wrap finished results in a :class:`BatchSummary`."""
    return BatchSummary(game, players, seat_bots(bots, players), seed, dict(options),
                        list(results), seconds, workers)


def run_batch(game: str, players: int, bots: list[str], games: int, seed: int = 0,
              options: dict[str, Any] | None = None, workers: int = 1,
              progress: Callable[[GameResult], None] | None = None) -> BatchSummary:
    """Play ``games`` complete games between bots and summarize them.

    Args:
        game: game name (``"classic-canasta"``).
        players: seats per game.
        bots: bot names, assigned to seats in order and cycled.
        games: number of games; game ``i`` uses seed ``seed + i``.
        options: option values passed to every game.
        workers: local processes (1 = in this process).
        progress: called with each finished game's result (in seed order).

    A game that raises is recorded with its ``error`` and counted in the summary's ``errors``.
    """
    options = dict(options or {})
    tasks = [(game, players, list(bots), seed + i, options) for i in range(games)]
    start = time.perf_counter()
    results: list[GameResult] = []
    if workers <= 1 or games <= 1:
        for t in tasks:
            r = _play_one(t)
            results.append(r)
            if progress:
                progress(r)
    else:
        chunk = max(1, min(16, games // (workers * 8)))
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for r in pool.map(_play_one, tasks, chunksize=chunk):
                results.append(r)
                if progress:
                    progress(r)
    seconds = time.perf_counter() - start
    return summarize(game, players, bots, seed, options, results, seconds, max(1, workers))
