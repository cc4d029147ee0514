"""Paired (duplicate) tournaments between bots: what ``meldhall tournament`` runs.

A tournament plays ``deals`` deals.  Deal ``i`` is the game seeded with
:func:`deal_seed` ``(seed, i)`` (``seed * 1_000_003 + i``); it is replayed once per *rotation*
of the bots' seats (:func:`pairings`), so every bot plays every hand of it from every seat its
rotation gives it.  Luck of the cards cancels out between rotations, which makes the per-deal
score differences far less noisy than independent games.  A deal is the first
``hands_per_deal`` hands of its game (fewer when the game ends earlier).

Every seat's bot draws its randomness from its own ``random.Random`` seeded from
(deal seed, rotation, seat) by :func:`seat_seed`, so a deal's result never depends on where or
when it was played: results are gathered in deal order and are identical on one process, on
several local processes, or on a Ray cluster (only the ``timing`` part, ``seconds``,
``workers`` and ``backend`` differ).

Statistics (docs/tournaments.md explains them):

* scores are *oriented* so that higher is better (:attr:`meldhall.game.State.HIGH_SCORE_WINS`
  is False in Shanghai Rummy, whose hand scores are penalty points); a seat's hand score is
  that of its side (partnerships score per side);
* a hand (a game) is won by the side(s) with the best oriented hand (cumulative) score, or by
  the game's real winners when the game ended; ties split the win equally between the tied
  sides, and a side's share goes to the bots at its seats in proportion to their seats;
* the mean score difference of a bot is, per deal, the mean over the deal's rotations and hands
  of (mean oriented score of the bot's seats − mean oriented score of the other bots' seats),
  then the mean over deals with a Student t 95% confidence interval over the per-deal values;
* Elo: with two bots, from the second bot's hand win fraction ``p``
  (``400 * log10(p / (1 - p))``, ``p`` clipped to ``[0.5/n, 1 - 0.5/n]`` for ``n`` hands);
  with more, a Bradley–Terry fit of the pairwise hand results.  The **first bot is anchored
  at 1500**.

Ray is imported only when ``use_ray`` is true.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from meldhall import new_game
from meldhall.bots import make_bot
from meldhall.errors import OptionsError
from meldhall.sim.match import ACTION_CAP_PER_HAND, bot_move
from meldhall.sim.stages import stage_names, start_state

__all__ = [
    "BotResult",
    "DealResult",
    "GameRecord",
    "TournamentResult",
    "bradley_terry_elo",
    "confidence_interval",
    "deal_seed",
    "elo_from_win_fraction",
    "pairings",
    "run_tournament",
    "seat_seed",
    "student_t_quantile",
]

#: Deal ``i`` of a tournament with seed ``S`` plays the game seeded ``S * DEAL_SEED_STRIDE + i``.
DEAL_SEED_STRIDE = 1_000_003
#: Elo of the first bot of the list; the others are placed relative to it.
ELO_ANCHOR = 1500.0
#: Decision times are counted in buckets 1% wide (log scale) from this many seconds up, so the
#: reported median and 95th percentile are within 1% of the exact ones.
_TIME_FLOOR = 1e-7
_TIME_STEP = math.log(1.01)


# --------------------------------------------------------------------------- seeds, seats


def deal_seed(seed: int, deal: int) -> int:
    """The game seed of deal ``deal`` (0-based) of a tournament seeded ``seed``:
    ``seed * 1_000_003 + deal`` (never Python's ``hash()``, which varies between processes)."""
    return seed * DEAL_SEED_STRIDE + deal


def seat_seed(game_seed: int, rotation: int, seat: int) -> int:
    """The seed of the ``random.Random`` given to the bot at ``seat`` in ``rotation`` of the
    deal whose game seed is ``game_seed``: a 64-bit integer from BLAKE2b of the three numbers,
    the same on every machine and process."""
    digest = hashlib.blake2b(f"meldhall-tournament:{game_seed}:{rotation}:{seat}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _rotation_indices(nbots: int, players: int) -> list[list[int]]:
    return [[(s + r) % nbots for s in range(players)] for r in range(nbots)]


def pairings(bots: Sequence[str], players: int) -> list[list[str]]:
    """The seat assignment of every rotation: rotation ``r`` puts ``bots[(s + r) % k]`` on seat
    ``s`` (``k = len(bots)``), so over the ``k`` rotations every bot sits on every seat once.

    ``pairings(["A", "B"], 4)`` is ``[["A", "B", "A", "B"], ["B", "A", "B", "A"]]`` (in a
    partnership game A and B each hold a whole side); ``pairings(["A", "B"], 2)`` is
    ``[["A", "B"], ["B", "A"]]``.

    Raises:
        OptionsError: no bots, or fewer than one player.
    """
    if not bots:
        raise OptionsError("a tournament needs at least one bot")
    if players < 1:
        raise OptionsError(f"a tournament needs at least one player, not {players}")
    names = list(bots)
    return [[names[i] for i in row] for row in _rotation_indices(len(names), players)]


# --------------------------------------------------------------------------- statistics


def _t_cdf_two_sided(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with an integer ``df`` (Abramowitz & Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:  # odd
        if df == 1:
            return 2 * theta / math.pi
        term = math.cos(theta)
        total = term
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * total)
    term = 1.0
    total = term
    for k in range(1, df // 2):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


def student_t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t distribution with ``df`` degrees of freedom.

    Exact series for ``df <= 1000`` (solved by bisection to machine precision), the
    Cornish–Fisher expansion beyond (error below 1e-9).  ``student_t_quantile(0.975, 9)`` is
    2.2622.

    Raises:
        ValueError: ``p`` not strictly between 0 and 1, or ``df < 1``.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be strictly between 0 and 1, not {p}")
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -student_t_quantile(1.0 - p, df)
    target = 2.0 * p - 1.0  # P(|T| <= t)
    if df > 1000:
        z = statistics.NormalDist().inv_cdf(p)
        g1 = (z**3 + z) / 4
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
        return z + g1 / df + g2 / df**2 + g3 / df**3
    lo, hi = 0.0, 1.0
    while _t_cdf_two_sided(hi, df) < target:
        lo, hi = hi, hi * 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if _t_cdf_two_sided(mid, df) < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def confidence_interval(values: Sequence[float], level: float = 0.95
                        ) -> tuple[float, float] | None:
    """The Student t confidence interval of the mean of ``values``:
    ``mean ± t_{(1+level)/2, n-1} · s / sqrt(n)`` with ``s`` the sample standard deviation.

    Returns ``None`` for fewer than two values (no spread to measure).  ``[1, 2, 3, 4, 5]``
    gives about ``(1.0368, 4.9632)``.
    """
    n = len(values)
    if n < 2:
        return None
    mean = math.fsum(values) / n
    sd = statistics.stdev(values)
    half = student_t_quantile((1.0 + level) / 2.0, n - 1) * sd / math.sqrt(n)
    return (mean - half, mean + half)


def elo_from_win_fraction(p: float, n: int | None = None) -> float:
    """Elo difference implied by winning a fraction ``p`` of ``n`` encounters:
    ``400 * log10(p / (1 - p))``.

    ``p`` is clipped to ``[0.5 / n, 1 - 0.5 / n]`` (half an encounter away from a clean sweep)
    so that a bot that won or lost everything gets a large but finite difference; without
    ``n`` it is clipped to ``[0.001, 0.999]`` (about ±1200).

    Raises:
        ValueError: ``p`` outside ``[0, 1]`` or ``n < 1``.
    """
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"a win fraction lies between 0 and 1, not {p}")
    if n is not None and n < 1:
        raise ValueError(f"n must be at least 1, not {n}")
    eps = 0.5 / n if n is not None else 0.001
    eps = min(eps, 0.5)
    p = min(max(p, eps), 1.0 - eps)
    return 400.0 * math.log10(p / (1.0 - p))


def bradley_terry_elo(wins: Sequence[Sequence[float]], prior: float = 0.5,
                      anchor: int = 0, anchor_elo: float = ELO_ANCHOR) -> list[float | None]:
    """Elo ratings from a Bradley–Terry fit of pairwise results.

    Args:
        wins: ``wins[i][j]`` is how often ``i`` beat ``j`` (ties count half to each).
        prior: virtual wins added in both directions to every pair that met (keeps a clean
            sweep finite; 0 gives the plain maximum-likelihood fit).
        anchor: the player whose rating is fixed at ``anchor_elo``.
        anchor_elo: that rating.

    Returns:
        One rating per player (``400 * log10`` of its strength), ``None`` for a player that
        met nobody.  Fitted by the MM algorithm of Hunter (2004).
    """
    k = len(wins)
    w = [[float(wins[i][j]) for j in range(k)] for i in range(k)]
    met = [[i != j and (w[i][j] + w[j][i]) > 0 for j in range(k)] for i in range(k)]
    for i in range(k):
        for j in range(k):
            if met[i][j]:
                w[i][j] += prior
    n = [[w[i][j] + w[j][i] for j in range(k)] for i in range(k)]
    total = [sum(w[i]) for i in range(k)]
    active = [any(met[i]) for i in range(k)]
    pi = [1.0] * k
    for _ in range(100_000):
        new = list(pi)
        for i in range(k):
            if not active[i]:
                continue
            denom = sum(n[i][j] / (pi[i] + pi[j]) for j in range(k) if met[i][j])
            new[i] = max(total[i] / denom, 1e-300) if denom else pi[i]
        logs = [math.log(x) for i, x in enumerate(new) if active[i]]
        g = math.exp(sum(logs) / len(logs)) if logs else 1.0
        new = [x / g for x in new]
        change = max((abs(math.log(a) - math.log(b)) for a, b in zip(new, pi)), default=0.0)
        pi = new
        if change < 1e-12:
            break
    elo: list[float | None] = [400.0 * math.log10(x) if active[i] else None
                               for i, x in enumerate(pi)]
    ref = elo[anchor] if 0 <= anchor < k else None
    if ref is None:
        return elo
    return [None if e is None else e - ref + anchor_elo for e in elo]


# --------------------------------------------------------------------------- playing


@dataclass
class GameRecord:
    """One rotation of one deal (a "game" of the tournament).

    Attributes:
        rotation: rotation index (see :func:`pairings`).
        seats: bot index (into the tournament's bot list) per seat.
        hands: per hand played, per side: ``(seats of the side, hand score)`` as the game
            scored it (not oriented).
        game_over: True when the game itself ended within the hands played.
        winners: when ``game_over``, the positions (in a hand's side list) of the winning
            sides.
        actions: actions applied.
    """

    rotation: int
    seats: list[int]
    hands: list[list[tuple[tuple[int, ...], int]]] = field(default_factory=list)
    game_over: bool = False
    winners: list[int] = field(default_factory=list)
    actions: int = 0


@dataclass
class DealResult:
    """Everything one deal produced, on whichever process played it.

    Attributes:
        deal: deal index (0-based).
        seed: the game seed (:func:`deal_seed`).
        high_score_wins: the game's :attr:`~meldhall.game.State.HIGH_SCORE_WINS`.
        games: one :class:`GameRecord` per rotation.
        decision_times: per bot index, a histogram of ``choose`` times (log-scale bucket ->
            count); not part of the results' determinism.
        decision_seconds: per bot index, the total seconds spent in ``choose``.
        error: exception text if the deal raised (the deal is then left out of the
            statistics), else ``None``.
        stage: the stage the deal's hand was played at (:mod:`meldhall.sim.stages`), or
            ``None`` for the first hand of a game.
    """

    deal: int
    seed: int
    high_score_wins: bool = True
    games: list[GameRecord] = field(default_factory=list)
    decision_times: dict[int, dict[int, int]] = field(default_factory=dict)
    decision_seconds: dict[int, float] = field(default_factory=dict)
    error: str | None = None
    stage: str | None = None


@dataclass(frozen=True)
class _Spec:
    game: str
    players: int
    bots: tuple[str, ...]
    seed: int
    hands_per_deal: int
    options: dict[str, Any]
    first_deal: int = 0
    stages: tuple[str, ...] = ()

    def stage_of(self, deal: int) -> str | None:
        """The stage of deal ``deal`` (counted from this tournament's first deal): the
        stages in turn, by the deal's number."""
        if not self.stages:
            return None
        return self.stages[(self.first_deal + deal) % len(self.stages)]


def _bucket(seconds: float) -> int:
    if seconds <= _TIME_FLOOR:
        return 0
    return int(math.log(seconds / _TIME_FLOOR) / _TIME_STEP)


def _bucket_seconds(bucket: int) -> float:
    return _TIME_FLOOR * math.exp((bucket + 0.5) * _TIME_STEP)


def _play_rotation(spec: _Spec, game_seed: int, rotation: int, seats: list[int],
                   result: DealResult) -> GameRecord:
    rec = GameRecord(rotation=rotation, seats=list(seats))
    bots = [make_bot(spec.bots[b], spec.game) for b in seats]
    rngs = [random.Random(seat_seed(game_seed, rotation, s)) for s in range(spec.players)]
    state = start_state(spec.game, spec.players, game_seed, spec.options, result.stage)
    result.high_score_wins = bool(type(state).HIGH_SCORE_WINS)
    steps = 0
    while not state.is_terminal:
        seat = state.to_act[0]
        action, dt = bot_move(state, seat, bots[seat], rngs[seat])
        if dt is not None:
            b = seats[seat]
            hist = result.decision_times.setdefault(b, {})
            key = _bucket(dt)
            hist[key] = hist.get(key, 0) + 1
            result.decision_seconds[b] = result.decision_seconds.get(b, 0.0) + dt
        before = state.outcome
        state = state.apply(action, seat)
        rec.actions += 1
        steps += 1
        if steps > ACTION_CAP_PER_HAND:
            raise RuntimeError(f"rotation {rotation}: hand {len(rec.hands) + 1} exceeded "
                               f"{ACTION_CAP_PER_HAND} actions")
        oc = state.outcome
        if oc is not None and oc is not before:  # a hand has just been scored
            rec.hands.append([(tuple(r.seats), int(r.hand_score)) for r in oc.results])
            steps = 0
            if oc.game_over:
                rec.game_over = True
                won = set(oc.winners)
                rec.winners = [i for i, r in enumerate(oc.results) if r.side in won]
            if len(rec.hands) >= spec.hands_per_deal:
                break
    return rec


def _play_deal(spec: _Spec, deal: int) -> DealResult:
    game_seed = deal_seed(spec.seed, spec.first_deal + deal)
    result = DealResult(deal=deal, seed=game_seed, stage=spec.stage_of(deal))
    try:
        for rotation, seats in enumerate(_rotation_indices(len(spec.bots), spec.players)):
            result.games.append(_play_rotation(spec, game_seed, rotation, seats, result))
    except Exception as exc:  # noqa: BLE001  (reported; the deal is left out of the stats)
        result.error = f"{type(exc).__name__}: {exc}"
    return result


def _play_chunk(spec: _Spec, deals: list[int]) -> list[DealResult]:
    return [_play_deal(spec, d) for d in deals]


# --------------------------------------------------------------------------- results


@dataclass
class BotResult:
    """One bot's figures in a tournament (one entry of the bot list).

    Attributes:
        bot: the bot's name as given (``"heuristic"``, ``"ismcts:hard"`` …).
        label: a unique label (the name, or ``name#2`` … when a name is listed twice).
        hands: hands in which the bot held at least one seat.
        hands_won: hands won (fractional on ties and shared sides).
        games: games (deal rotations) played.
        games_won: games won (fractional likewise).
        mean_score: mean oriented hand score of the bot's seats (points per hand).
        mean_score_diff: mean over deals of the per-deal score difference (points per hand),
            ``None`` without any deal.
        ci95: its 95% Student t confidence interval over the deals, ``None`` with fewer than
            two deals.
        deals: deals counted (the errored ones are left out).
        elo: Elo estimate (first bot anchored at 1500), ``None`` without hands.
    """

    bot: str
    label: str
    hands: int = 0
    hands_won: float = 0.0
    games: int = 0
    games_won: float = 0.0
    mean_score: float | None = None
    mean_score_diff: float | None = None
    ci95: tuple[float, float] | None = None
    deals: int = 0
    elo: float | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (floats rounded for reading)."""
        return {
            "bot": self.bot,
            "label": self.label,
            "hands": self.hands,
            "hands_won": _r(self.hands_won, 3),
            "hand_win_rate": _r(self.hands_won / self.hands, 4) if self.hands else None,
            "games": self.games,
            "games_won": _r(self.games_won, 3),
            "game_win_rate": _r(self.games_won / self.games, 4) if self.games else None,
            "mean_score": _r(self.mean_score, 2),
            "mean_score_diff": _r(self.mean_score_diff, 3),
            "ci95": None if self.ci95 is None else [_r(self.ci95[0], 3), _r(self.ci95[1], 3)],
            "deals": self.deals,
            "elo": _r(self.elo, 1),
        }


def _r(x: float | None, digits: int) -> float | None:
    return None if x is None else round(float(x), digits)


@dataclass
class TournamentResult:
    """What a tournament produced.

    Attributes:
        game, players, bots, deals, hands_per_deal, seed, options: the tournament's inputs
            (``options`` as given).
        pairings: the seat assignment of each rotation (:func:`pairings`).
        results: one :class:`BotResult` per entry of ``bots``, in order.
        deal_results: the raw :class:`DealResult` of every deal, in deal order.
        timing: per bot label, ``decisions``, ``median_s``, ``p95_s``, ``mean_s`` (seconds
            per ``choose`` call; median and 95th percentile to within 1%).  Depends on the
            machine; not part of the determinism.
        seconds: wall-clock time of the tournament (seconds), start-up included.
        setup_seconds: of which starting or connecting to Ray (0 for local processes).
        workers: processes (local) or cluster CPUs (Ray) used.
        backend: ``"local"`` or ``"ray"``.
        first_deal: number of the first deal played (see :func:`run_tournament`).
        stages: the stages the deals were dealt at, in turn (empty: every deal is the first
            hand of a game).
        by_stage: per stage, one :class:`BotResult` per bot over that stage's deals.
    """

    game: str
    players: int
    bots: list[str]
    deals: int
    hands_per_deal: int
    seed: int
    options: dict[str, Any]
    pairings: list[list[str]]
    results: list[BotResult]
    deal_results: list[DealResult]
    timing: dict[str, dict[str, Any]]
    seconds: float = 0.0
    setup_seconds: float = 0.0
    workers: int = 1
    backend: str = "local"
    first_deal: int = 0
    stages: list[str] = field(default_factory=list)
    by_stage: dict[str, list[BotResult]] = field(default_factory=dict)

    @property
    def errors(self) -> list[DealResult]:
        """The deals that raised (their ``error`` says what); they are left out of the
        statistics."""
        return [d for d in self.deal_results if d.error is not None]

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON-ready dict (the ``meldhall tournament --json`` object).

        Everything but ``timing``, ``seconds``, ``setup_seconds``, ``workers`` and
        ``backend`` depends only on the inputs.
        """
        ok = [d for d in self.deal_results if d.error is None]
        high = ok[0].high_score_wins if ok else None
        return {
            "game": self.game,
            "players": self.players,
            "bots": list(self.bots),
            "deals": self.deals,
            "first_deal": self.first_deal,
            "hands_per_deal": self.hands_per_deal,
            "seed": self.seed,
            "options": dict(self.options),
            "pairings": [list(p) for p in self.pairings],
            "high_score_wins": high,
            "elo_anchor": {"bot": self.results[0].label if self.results else None,
                           "elo": ELO_ANCHOR},
            "results": [b.to_json() for b in self.results],
            "stages": list(self.stages),
            "by_stage": {st: [b.to_json() for b in rs] for st, rs in self.by_stage.items()},
            "hands": sum(len(g.hands) for d in ok for g in d.games),
            "games": sum(len(d.games) for d in ok),
            "actions": sum(g.actions for d in ok for g in d.games),
            "errors": len(self.errors),
            "error_messages": [f"deal {d.deal} (seed {d.seed}): {d.error}"
                               for d in self.errors[:10]],
            "timing": {k: dict(v) for k, v in self.timing.items()},
            "seconds": round(self.seconds, 3),
            "setup_seconds": round(self.setup_seconds, 3),
            "workers": self.workers,
            "backend": self.backend,
        }


def _labels(bots: Sequence[str]) -> list[str]:
    seen: dict[str, int] = {}
    labels = []
    for name in bots:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if bots.count(name) == 1 else f"{name}#{seen[name]}")
    return labels


def _credit(side_values: list[float], side_seats: list[tuple[int, ...]], seats: list[int],
            nbots: int, winners: list[int] | None = None) -> list[float]:
    """Win credit per bot: the best side(s) share 1, each side's share split over its seats."""
    if winners is None:
        best = max(side_values)
        winners = [i for i, v in enumerate(side_values) if v == best]
    credit = [0.0] * nbots
    if not winners:
        return credit
    share = 1.0 / len(winners)
    for i in winners:
        members = side_seats[i]
        if not members:
            continue
        for s in members:
            credit[seats[s]] += share / len(members)
    return credit


def _summarize(spec: _Spec, deal_results: list[DealResult]) -> tuple[list[BotResult],
                                                                       dict[str, dict]]:
    k = len(spec.bots)
    labels = _labels(spec.bots)
    out = [BotResult(bot=name, label=label) for name, label in zip(spec.bots, labels)]
    per_deal: list[list[float]] = [[] for _ in range(k)]
    score_sum = [0.0] * k
    score_n = [0] * k
    pair_wins = [[0.0] * k for _ in range(k)]
    for d in deal_results:
        if d.error is not None:
            continue
        sign = 1 if d.high_score_wins else -1
        diffs: list[list[float]] = [[] for _ in range(k)]
        for g in d.games:
            present = sorted(set(g.seats))
            cumulative: list[float] | None = None
            for hand in g.hands:
                side_seats = [seats for seats, _ in hand]
                side_values = [float(sign * score) for _, score in hand]
                cumulative = (list(side_values) if cumulative is None
                              else [a + b for a, b in zip(cumulative, side_values)])
                seat_value = [0.0] * spec.players
                for seats, v in zip(side_seats, side_values):
                    for s in seats:
                        seat_value[s] = v
                mine = {b: [seat_value[s] for s in range(spec.players) if g.seats[s] == b]
                        for b in present}
                means = {b: math.fsum(v) / len(v) for b, v in mine.items()}
                for b in present:
                    out[b].hands += 1
                    score_sum[b] += math.fsum(mine[b])
                    score_n[b] += len(mine[b])
                    others = [seat_value[s] for s in range(spec.players) if g.seats[s] != b]
                    if others:
                        diffs[b].append(means[b] - math.fsum(others) / len(others))
                for b, c in enumerate(_credit(side_values, side_seats, g.seats, k)):
                    out[b].hands_won += c
                for i, a in enumerate(present):
                    for b in present[i + 1:]:
                        if means[a] > means[b]:
                            pair_wins[a][b] += 1.0
                        elif means[a] < means[b]:
                            pair_wins[b][a] += 1.0
                        else:
                            pair_wins[a][b] += 0.5
                            pair_wins[b][a] += 0.5
            if cumulative is None:
                continue  # no hand scored (cannot happen: hands_per_deal >= 1)
            for b in present:
                out[b].games += 1
            side_seats = [seats for seats, _ in g.hands[-1]]
            winners = g.winners if g.game_over else None
            for b, c in enumerate(_credit(cumulative, side_seats, g.seats, k, winners)):
                out[b].games_won += c
        for b in range(k):
            if diffs[b]:
                per_deal[b].append(math.fsum(diffs[b]) / len(diffs[b]))
    for b in range(k):
        vals = per_deal[b]
        out[b].deals = len(vals)
        if vals:
            out[b].mean_score_diff = math.fsum(vals) / len(vals)
            out[b].ci95 = confidence_interval(vals)
        if score_n[b]:
            out[b].mean_score = score_sum[b] / score_n[b]
    if k == 2:
        n = out[1].hands
        if n:
            out[0].elo = ELO_ANCHOR
            out[1].elo = ELO_ANCHOR + elo_from_win_fraction(out[1].hands_won / n, n)
    elif k > 2:
        for b, e in enumerate(bradley_terry_elo(pair_wins)):
            out[b].elo = e
    else:
        out[0].elo = ELO_ANCHOR if out[0].hands else None
    timing = _timing(labels, deal_results)
    return out, timing


def _timing(labels: list[str], deal_results: list[DealResult]) -> dict[str, dict]:
    timing: dict[str, dict] = {}
    for b, label in enumerate(labels):
        hist: dict[int, int] = {}
        total = 0.0
        for d in deal_results:
            for key, count in d.decision_times.get(b, {}).items():
                hist[key] = hist.get(key, 0) + count
            total += d.decision_seconds.get(b, 0.0)
        n = sum(hist.values())
        timing[label] = {
            "decisions": n,
            "median_s": _sig(_hist_quantile(hist, n, 0.5)),
            "p95_s": _sig(_hist_quantile(hist, n, 0.95)),
            "mean_s": _sig(total / n) if n else None,
        }
    return timing


def _hist_quantile(hist: dict[int, int], n: int, q: float) -> float | None:
    """Nearest-rank quantile of a bucketed sample."""
    if n == 0:
        return None
    rank = max(1, math.ceil(q * n))
    seen = 0
    for key in sorted(hist):
        seen += hist[key]
        if seen >= rank:
            return _bucket_seconds(key)
    return _bucket_seconds(max(hist))


def _sig(x: float | None) -> float | None:
    return None if x is None else float(f"{x:.4g}")


# --------------------------------------------------------------------------- running


def _import_ray(local: bool):
    if local:
        # Started from `uv run`, Ray would rebuild the project in a fresh environment for its
        # workers; a local instance shares this interpreter and needs none of that.
        os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    try:
        import ray
    except ImportError:
        raise OptionsError(
            "--ray needs Ray, which is not installed: pip install 'meldhall[ray]' "
            "(or, in a clone, uv sync --extra ray)") from None
    return ray


def _chunks(deals: int, parallel: int) -> list[list[int]]:
    size = max(1, min(8, deals // max(1, parallel * 4)))
    return [list(range(i, min(deals, i + size))) for i in range(0, deals, size)]


def _run_local(spec: _Spec, deals: int, workers: int,
               progress: Callable[[DealResult], None] | None) -> list[DealResult]:
    if workers <= 1 or deals <= 1:
        played: list[DealResult] = []
        for i in range(deals):
            r = _play_deal(spec, i)
            played.append(r)
            if progress:
                progress(r)
        return played
    results: dict[int, DealResult] = {}  # deal -> result, as the chunks come back
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        pending: set[Future] = {pool.submit(_play_chunk, spec, c)
                                for c in _chunks(deals, workers)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                for r in fut.result():
                    results[r.deal] = r
                    if progress:
                        progress(r)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return [results[i] for i in range(deals)]


def _run_ray(spec: _Spec, deals: int, address: str | None, workers: int | None,
             progress: Callable[[DealResult], None] | None
             ) -> tuple[list[DealResult], int, float]:
    ray = _import_ray(local=address is None)
    started = False
    t0 = time.perf_counter()
    if not ray.is_initialized():
        if address:
            ray.init(address=address)
        else:
            ray.init(num_cpus=workers, include_dashboard=False)
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        setup = time.perf_counter() - t0
        remote = ray.remote(_play_chunk)
        pending = [remote.remote(spec, c) for c in _chunks(deals, cpus)]
        results: dict[int, DealResult] = {}  # deal -> result, as the chunks come back
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                for r in ray.get(ref):
                    results[r.deal] = r
                    if progress:
                        progress(r)
    finally:
        if started:
            ray.shutdown()
    return [results[i] for i in range(deals)], cpus, setup


def run_tournament(game: str, players: int, bots: Sequence[str], deals: int, seed: int, *,
                   hands_per_deal: int = 1, options: dict[str, Any] | None = None,
                   workers: int | None = None, ray_address: str | None = None,
                   use_ray: bool = False, first_deal: int = 0,
                   stages: Sequence[str] | None = None,
                   progress: Callable[[DealResult], None] | None = None) -> TournamentResult:
    """Play a paired (duplicate) tournament between bots and summarize it.

    Args:
        game: game name (``"classic-canasta"``, ``"railroad-canasta"``, ``"shanghai-rummy"``).
        players: seats per game.
        bots: bot names for :func:`meldhall.bots.make_bot` (``"heuristic"``, ``"random"``,
            ``"ismcts:hard"`` …), at least two entries; seats rotate as :func:`pairings` says.
            A name may be listed twice (an A/A test); its entries are then labelled
            ``name#1``, ``name#2``.
        deals: number of deals; deal ``i`` plays the game seeded :func:`deal_seed`
            ``(seed, i)`` once per rotation.
        seed: tournament seed (any integer).
        hands_per_deal: hands played per deal (the first ones of the game; fewer if the game
            ends earlier).
        options: game options (as ``meldhall simulate --option`` gives them); ``players``
            overrides their ``player_count``.
        workers: local processes (default ``os.cpu_count()``; 1 plays in this process).
            With ``use_ray`` and no address, the CPUs of the local Ray instance.
        ray_address: address of a running Ray cluster (``"auto"``, ``"ray://host:10001"``);
            ``None`` starts a local instance.  Used only with ``use_ray``.  An already
            initialized Ray is used as it is (and left running).
        use_ray: play the deals as Ray tasks instead of local processes.
        first_deal: number of the first deal: the deals played are ``first_deal`` to
            ``first_deal + deals - 1`` (to extend an earlier tournament with new deals).
        stages: deal the hands mid-game, at these stages in turn (deal ``i`` at
            ``stages[i % len(stages)]``; :func:`meldhall.sim.stages.stage_names` lists a
            game's stages, e.g. ``"contract 7"``, ``"minimum 90"``); the results are then
            reported per stage (``by_stage``) as well as pooled.  ``None``: every deal is
            the first hand of a game.
        progress: called with each finished :class:`DealResult` (in completion order).

    Returns:
        A :class:`TournamentResult`; its statistics are identical for the same inputs
        whatever ``workers`` and the backend.

    Raises:
        OptionsError: unknown game or bot, bad option, fewer than two bots, ``deals``,
            ``hands_per_deal`` or ``workers`` below 1, an unknown stage, or ``use_ray``
            without Ray installed (the message names ``meldhall[ray]``).
    """
    names = [str(b).strip() for b in bots]
    if len(names) < 2 or any(not n for n in names):
        raise OptionsError("a tournament needs at least two bot names (e.g. heuristic,random)")
    if deals < 1:
        raise OptionsError(f"deals must be at least 1, not {deals}")
    if hands_per_deal < 1:
        raise OptionsError(f"hands per deal must be at least 1, not {hands_per_deal}")
    if workers is not None and workers < 1:
        raise OptionsError(f"workers must be at least 1, not {workers}")
    for n in set(names):
        try:
            make_bot(n, game)
        except ImportError:
            raise OptionsError(f"the {n!r} bot is not available in this installation") from None
    opts = dict(options or {})
    opts["player_count"] = players
    new_game(game, players=players, seed=0, options=opts)  # validates game and options early
    if first_deal < 0:
        raise OptionsError(f"the first deal must be 0 or more, not {first_deal}")
    stage_list = tuple(stages or ())
    if stage_list:
        known = stage_names(game, players, opts)
        for st in stage_list:
            if st not in known:
                raise OptionsError(f"{game} has no stage {st!r}; its stages: "
                                   f"{', '.join(known)}")
    spec = _Spec(game, players, tuple(names), seed, hands_per_deal, opts, first_deal,
                 stage_list)
    start = time.perf_counter()
    if use_ray:
        deal_results, used, setup = _run_ray(spec, deals, ray_address, workers, progress)
        backend = "ray"
    else:
        setup = 0.0
        used = min(workers or os.cpu_count() or 1, deals)
        deal_results = _run_local(spec, deals, used, progress)
        backend = "local"
    seconds = time.perf_counter() - start
    results, timing = _summarize(spec, deal_results)
    by_stage = {st: _summarize(spec, [d for d in deal_results if d.stage == st])[0]
                for st in stage_list}
    return TournamentResult(
        game=game, players=players, bots=names, deals=deals, hands_per_deal=hands_per_deal,
        seed=seed, options=dict(options or {}), pairings=pairings(names, players),
        results=results, deal_results=deal_results, timing=timing, seconds=seconds,
        setup_seconds=setup, workers=used, backend=backend, first_deal=first_deal,
        stages=list(stage_list), by_stage=by_stage)
