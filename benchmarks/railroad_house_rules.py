"""The Railroad heuristic's play under the looser going-out house rules (RR-11.1), with and
without shedding its hand once it may go out (``shed_when_out_allowed``).

Usage::

    uv run python benchmarks/railroad_house_rules.py [--deals 400] [--first 1000]
        [--rules any_two,any_one,red_and_black]

For each ``go_out_requirement``: 2-player paired deals (each deal played twice, the two
heuristics swapping seats, the same seed for the bots' choices); prints the mean hand-score
difference per hand (shedding minus not) with its standard error over deals, and how many
hands each went out of.
"""

from __future__ import annotations

import argparse
import random
import statistics

from meldhall import new_game
from meldhall.bots.railroad_heuristic import RailroadHeuristicBot


class _NoShed(RailroadHeuristicBot):
    shed_when_out_allowed = False


def _hand(seed: int, rule: str, bots: list) -> tuple[list[int], int | None]:
    s = new_game("railroad-canasta", players=2, seed=seed,
                 options={"go_out_requirement": rule})
    rng = random.Random(seed)
    while s.outcome is None:
        seat = s.to_act[0]
        s = s.apply(bots[seat].choose(s.observation(seat), s.legal_actions(seat), rng), seat)
    oc = s.outcome
    return [r.hand_score for r in oc.results], oc.went_out if oc.how == "went_out" else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--deals", type=int, default=400, help="paired deals per house rule")
    ap.add_argument("--first", type=int, default=1000, help="the first deal's seed")
    ap.add_argument("--rules", default="any_two,any_one,red_and_black",
                    help="comma-separated go_out_requirement values")
    args = ap.parse_args()
    for rule in args.rules.split(","):
        diffs, out = [], [0, 0]  # went out: shedding, not shedding
        for seed in range(args.first, args.first + args.deals):
            d = 0.0
            for new_seat in (0, 1):
                bots = [RailroadHeuristicBot(), _NoShed()][::1 if new_seat == 0 else -1]
                scores, went = _hand(seed, rule, bots)
                d += scores[new_seat] - scores[1 - new_seat]
                if went is not None:
                    out[0 if went == new_seat else 1] += 1
            diffs.append(d / 2)
        mean = statistics.mean(diffs)
        se = statistics.stdev(diffs) / len(diffs) ** 0.5
        print(f"{rule}: {args.deals} paired deals, shedding minus not {mean:+.1f} ± {se:.1f} "
              f"points per hand; went out {out[0]} / {out[1]} of {2 * args.deals} hands each")


if __name__ == "__main__":
    main()
