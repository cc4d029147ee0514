"""Action ids round-trip: every legal action of many random states has an id, and the id
decodes to the same action (docs/protocol.md, "Action ids").

Usage::

    uv run python benchmarks/action_ids.py [--states 100000] [--seed 1]

Plays uniformly random legal actions in every game and player count (games restart when they
end) and checks, in each visited state, that ``action_from_id(action_id(a)) == a`` for every
legal action ``a``, that the ids of distinct actions differ and that every id is below
``num_distinct_actions``.  Prints one JSON line per game and player count, and exits non-zero
on the first failure.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from rich.progress import Progress

import meldhall

PLAYER_COUNTS = {"classic-canasta": (2, 3, 4, 6), "railroad-canasta": (2, 3, 4, 5, 6, 7, 8),
                 "shanghai-rummy": (3, 4, 5, 6, 7, 8)}


def check_state(state) -> int:
    """Check every legal action of ``state``; returns how many were checked."""
    legal = state.legal_actions()
    size = state.num_distinct_actions
    seen: dict[int, str] = {}
    for a in legal:
        i = state.action_id(a)
        if not 0 <= i < size:
            raise AssertionError(f"{a}: id {i} outside 0..{size - 1}")
        back = state.action_from_id(i)
        if back != a or str(back) != str(a):
            raise AssertionError(f"{a}: id {i} decodes to {back}")
        if i in seen and seen[i] != str(a):
            raise AssertionError(f"{a} and {seen[i]} share id {i}")
        seen[i] = str(a)
    return len(legal)


def run(game: str, players: int, states: int, seed: int, progress=None, task=None) -> dict:
    rng = random.Random(seed)
    game_seed = seed
    state = meldhall.new_game(game, players=players, seed=game_seed)
    actions = 0
    start = time.perf_counter()
    for k in range(states):
        if state.is_terminal:
            game_seed += 1
            state = meldhall.new_game(game, players=players, seed=game_seed)
        actions += check_state(state)
        state = state.apply(rng.choice(state.legal_actions()))
        if progress is not None and k % 500 == 0:
            progress.update(task, advance=500)
    return {"game": game, "players": players, "states": states, "actions_checked": actions,
            "num_distinct_actions": state.num_distinct_actions,
            "seconds": round(time.perf_counter() - start, 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--states", type=int, default=100_000,
                    help="random states per game, spread over its player counts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(PLAYER_COUNTS))
    args = ap.parse_args(argv)
    with Progress(transient=True) as progress:
        for game in args.games.split(","):
            counts = PLAYER_COUNTS[game]
            per = -(-args.states // len(counts))
            task = progress.add_task(game, total=per * len(counts))
            for players in counts:
                try:
                    out = run(game, players, per, args.seed, progress, task)
                except AssertionError as exc:
                    print(json.dumps({"game": game, "players": players, "error": str(exc)}))
                    return 1
                print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
