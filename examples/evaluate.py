"""Measure a trained MaskablePPO policy as a meldhall bot: paired-deal tournaments (as
``meldhall tournament`` plays them) against ``random`` and against ``heuristic``.

Usage (needs ``uv sync --extra rl-train``)::

    uv run python examples/evaluate.py runs/ppo-classic-2p/final.zip [--deals 200]
        [--seed 7] [--workers 2] [--opponents random,heuristic]

The policy plays as ``meldhall.rl.policy_bot:maskable_ppo:PATH``; the same tournament is::

    uv run meldhall tournament classic-canasta --players 2 --hands 1 --deals 200 \\
        --bots meldhall.rl.policy_bot:maskable_ppo:PATH,random

Prints, per opponent, the policy's hands won of those played and its mean score difference
per hand with the 95% confidence interval over the deals (docs/tournaments.md).
"""

from __future__ import annotations

import argparse
import json

from meldhall.sim.tournament import run_tournament


def main() -> None:
    ap = argparse.ArgumentParser(
        description="Measure a trained MaskablePPO policy as a meldhall bot in paired-deal "
        "tournaments of 2-player Classic Canasta (one hand per deal, every deal played from "
        "both seats): hands won and the mean score difference per hand with its 95% interval.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("model", help="the policy's .zip (e.g. runs/ppo-classic-2p/final.zip)")
    ap.add_argument("--deals", type=int, default=200, help="paired deals per opponent")
    ap.add_argument("--seed", type=int, default=7, help="the tournament's seed")
    ap.add_argument("--workers", type=int, default=2, help="worker processes")
    ap.add_argument("--opponents", default="random,heuristic",
                    help="comma-separated meldhall bot names to play against")
    ap.add_argument("--json", action="store_true", help="one JSON line per opponent")
    args = ap.parse_args()
    policy = f"meldhall.rl.policy_bot:maskable_ppo:{args.model}"
    for opponent in args.opponents.split(","):
        result = run_tournament("classic-canasta", 2, [policy, opponent], deals=args.deals,
                                seed=args.seed, hands_per_deal=1, workers=args.workers)
        me = result.results[0]
        if args.json:
            print(json.dumps({"opponent": opponent, **me.to_json()}))
            continue
        lo, hi = me.ci95 if me.ci95 else (float("nan"), float("nan"))
        print(f"vs {opponent}: hands won {me.hands_won:g} of {me.hands} "
              f"({me.hands_won / me.hands:.1%}), mean score difference "
              f"{me.mean_score_diff:+.1f} points per hand (95% CI {lo:+.1f} … {hi:+.1f}) "
              f"over {me.deals} deals × 2 seatings, {result.seconds:.0f} s")


if __name__ == "__main__":
    main()
