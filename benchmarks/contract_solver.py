"""Contract solver speed: median and worst time per contract over random hands.

For each of the ten contracts (SH-5.2), draws N random hands of 11 to 15 cards and times

* ``find``: :func:`~meldhall.games.shanghai.solver.find_contract` — can the hand make the
  contract, and one way how (what hints and the bot ask);
* ``enumerate``: :func:`~meldhall.games.shanghai.solver.contract_options` — every legal way
  (what legal-action generation asks).

Two hand distributions: ``random`` (a uniform sample of the 105-card pack, two decks and a
joker, SH-2.1; or of the 158-card pack with ``--pack 158``) and ``rich`` (the same sizes drawn
from two suits and eight consecutive ranks plus every joker of the pack, so that most hands
hold many candidate melds — the hard case for the search).  Each hand is timed ``--repeat``
times and its time is the fastest run, so that a scheduler pause on a busy machine is not
counted as solver time.  Prints one JSON object.  Usage::

    uv run python benchmarks/contract_solver.py [--hands 5000] [--seed 1] [--pack 105|158]
        [--sizes 11-15] [--contracts 1-10]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from meldhall.games.shanghai.rules import CONTRACTS, JOKER_KIND
from meldhall.games.shanghai.solver import contract_options, counts_of, find_contract


def _stats(ts: list[float]) -> dict:
    s = sorted(ts)
    return {"median": round(statistics.median(s), 4), "p99": round(s[int(0.99 * len(s))], 4),
            "worst": round(s[-1], 4)}


def _timed(fn, repeat: int) -> tuple[float, object]:
    best = float("inf")
    res = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        res = fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3, res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=5000, help="hands per contract and distribution")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pack", type=int, choices=(105, 158), default=105)
    ap.add_argument("--repeat", type=int, default=3, help="timings per hand (the fastest counts)")
    ap.add_argument("--sizes", default="11-15", help="hand sizes, e.g. 11-15 or 14-17")
    ap.add_argument("--contracts", default="1-10", help="contracts to time, e.g. 8-10")
    args = ap.parse_args(argv)
    decks, jokers = (2, 1) if args.pack == 105 else (3, 2)
    pool = [k for k in range(52) for _ in range(decks)] + [JOKER_KIND] * jokers
    rng = random.Random(args.seed)
    lo_size, _, hi_size = args.sizes.partition("-")
    sizes = (int(lo_size), int(hi_size or lo_size))
    c_lo, _, c_hi = args.contracts.partition("-")
    numbers = range(int(c_lo), int(c_hi or c_lo) + 1)

    def rich_hand(size: int) -> list[int]:
        suits = rng.sample(range(4), 2)
        lo = rng.randint(0, 5)
        sub = [s * 13 + r for s in suits for r in range(lo, lo + 8) for _ in range(decks)]
        sub += [JOKER_KIND] * jokers
        return rng.sample(sub, size)

    out = {"hands_per_contract": args.hands, "hand_sizes": args.sizes, "pack": args.pack,
           "seed": args.seed, "repeat": args.repeat, "python": sys.version.split()[0],
           "unit": "ms", "distributions": {}}
    for dist in ("random", "rich"):
        res_d: dict = {"contracts": {}}
        all_find: list[float] = []
        all_enum: list[float] = []
        for number in numbers:
            rule = CONTRACTS[number]
            hands = []
            for _ in range(args.hands):
                size = rng.randint(*sizes)
                hands.append(counts_of(rng.sample(pool, size) if dist == "random"
                                       else rich_hand(size)))
            t_find: list[float] = []
            t_enum: list[float] = []
            made = 0
            ways = 0
            for counts in hands:
                dt, res = _timed(lambda c=counts, r=rule: find_contract(c, r), args.repeat)
                t_find.append(dt)
                made += res is not None
                dt, lst = _timed(lambda c=counts, r=rule: contract_options(c, r), args.repeat)
                t_enum.append(dt)
                ways = max(ways, len(lst))  # type: ignore[arg-type]
            all_find += t_find
            all_enum += t_enum
            res_d["contracts"][str(number)] = {
                "contract": str(rule), "hands_that_can_make_it": made,
                "most_ways_in_one_hand": ways,
                "find": _stats(t_find), "enumerate": _stats(t_enum),
            }
        res_d["find_overall"] = _stats(all_find)
        res_d["enumerate_overall"] = _stats(all_enum)
        out["distributions"][dist] = res_d
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
