"""Search speed: playouts per second of the ``ismcts`` bot, per game, at equal playout policy.

Usage::

    uv run python benchmarks/search_speed.py [--games G ...] [--decisions 30] [--level normal]

For each game (Classic Canasta 4 players, Railroad Canasta 2 players, Shanghai Rummy 4
players, as in ``benchmarks/strength.py``) it collects ``--decisions`` decision states of
heuristic play from fixed seeds (the same states on every run and every commit), then runs
the search bot's ``analyse`` on each with the level's playout budget and no time cap, and
prints one JSON line per game: ``decisions``, ``playouts``, ``seconds`` (search time only),
``playouts_per_s``, ``median_decision_s`` (the median time of one uncapped decision).
A decision with a single legal action, or one the level does not search, is skipped.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import time

import meldhall
from meldhall.bots import make_bot
from meldhall.bots.ismcts import IsmctsBot, parse_level

GAMES = {"classic-canasta": 4, "railroad-canasta": 2, "shanghai-rummy": 4}


def decision_states(game: str, players: int, count: int, seed: int):
    """``count`` (state, seat) pairs with a real choice, from heuristic play, every third
    such decision taken (so that the states spread over the hand)."""
    policy = make_bot("heuristic", game)
    out = []
    seen = 0
    g = 0
    while len(out) < count:
        rng = random.Random(seed + g)
        state = meldhall.new_game(game, players=players, seed=seed + g)
        g += 1
        while state.outcome is None and len(out) < count:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                if seen % 3 == 0:
                    out.append((state, seat))
                seen += 1
                action = policy.choose(state.observation(seat), legal, rng)
            else:
                action = legal[0]
            state = state.apply(action, seat)
    return out


def measure(game: str, players: int, decisions: int, level: str, seed: int) -> dict:
    """Run the search on the fixed decision states; the figures as a dict."""
    lvl = dataclasses.replace(parse_level(level, game), seconds=None)
    states = decision_states(game, players, decisions, seed)
    playouts = 0
    spent = 0.0
    times = []
    for i, (state, seat) in enumerate(states):
        bot = IsmctsBot(game, lvl)
        obs = state.observation(seat)
        legal = state.legal_actions(seat)
        t = time.perf_counter()
        bot.analyse(obs, legal, random.Random(seed + i))
        dt = time.perf_counter() - t
        n = getattr(bot, "playouts", 0)
        if not n:
            continue
        playouts += n
        spent += dt
        times.append(dt)
    return {
        "game": game, "players": players, "level": level, "decisions": len(times),
        "playouts": playouts, "seconds": round(spent, 3),
        "playouts_per_s": round(playouts / spent, 1) if spent else None,
        "median_decision_s": round(statistics.median(times), 4) if times else None,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    ap.add_argument("--decisions", type=int, default=30, help="decision states per game")
    ap.add_argument("--level", default="normal", help="search level (its playout budget)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    for game in args.games:
        print(json.dumps(measure(game, GAMES[game], args.decisions, args.level, args.seed)),
              flush=True)


if __name__ == "__main__":
    main()
