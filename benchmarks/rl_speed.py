"""Speed of the RL environments beside the raw engine, on one core, with random masked actions.

Usage::

    uv run python benchmarks/rl_speed.py [--steps 20000] [--games classic-canasta:4,...]
        [--frameworks engine,pettingzoo,gymnasium,openspiel] [--seed 1]

For each game and player count, in the same process one after the other:

* ``engine``: ``state.legal_actions()``, a uniformly random choice, ``state.apply`` (as
  ``benchmarks/engine_speed.py``), counted in actions per second;
* ``pettingzoo``: ``env.last()`` (the observation tensor and the ``int8`` mask of the agent
  to act), a uniformly random id among the mask's ones, ``env.step``; steps per second;
* ``gymnasium``: ``env.step`` with a random id from ``info["action_mask"]``, the other seats
  played by the ``random`` bot inside the step; learner steps per second, and the engine
  actions per second those steps hold (every seat's actions);
* ``openspiel``: ``state.legal_actions()``, a random choice, ``state.apply_action``; steps
  per second (the observation tensor is not asked for: OpenSpiel computes it on demand).

An episode that ends starts again (new seed).  Rates are per CPU second of the process
(``time.process_time``: one core, less sensitive to other work on a shared machine than the
wall clock, which the JSON lines give too as ``wall_per_s``).  Prints one JSON line per
measurement, then a table.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import meldhall


def bench_engine(game: str, players: int, steps: int, seed: int) -> dict:
    rng = random.Random(seed)
    state = meldhall.new_game(game, players=players, seed=seed)
    n = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while n < steps:
        if state.is_terminal:
            state = meldhall.new_game(game, players=players, seed=rng.randrange(10**9))
        state = state.apply(rng.choice(state.legal_actions()))
        n += 1
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"steps": n, "seconds": dt, "cpu_seconds": cpu, "per_s": n / cpu,
            "wall_per_s": n / dt}


def bench_pettingzoo(game: str, players: int, steps: int, seed: int) -> dict:
    from meldhall.rl import pettingzoo_env

    env = pettingzoo_env.env(game, players=players)
    env.reset(seed=seed)
    rng = random.Random(seed)
    n = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while n < steps:
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        legal = obs["action_mask"].view(bool).nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        n += 1
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"steps": n, "seconds": dt, "cpu_seconds": cpu, "per_s": n / cpu,
            "wall_per_s": n / dt}


def bench_gymnasium(game: str, players: int, steps: int, seed: int) -> dict:
    import gymnasium

    import meldhall.rl

    env = gymnasium.make(meldhall.rl.GAMES[game][1], players=players, opponents="random")
    _obs, info = env.reset(seed=seed)
    table = env.unwrapped.table
    rng = random.Random(seed)
    n = 0
    actions = 0
    before = len(table.state.history())
    t0, c0 = time.perf_counter(), time.process_time()
    while n < steps:
        legal = info["action_mask"].view(bool).nonzero()[0]
        _obs, _r, term, trunc, info = env.step(int(legal[rng.randrange(len(legal))]))
        n += 1
        if term or trunc:
            actions += _actions(table) - before
            _obs, info = env.reset()
            before = _actions(table)
    actions += _actions(table) - before
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"steps": n, "seconds": dt, "cpu_seconds": cpu, "per_s": n / cpu,
            "wall_per_s": n / dt, "engine_actions_per_s": actions / cpu}


def _actions(table) -> int:
    # every hand's actions: the engine's history is the whole game's
    return len(table.state.history())


def bench_openspiel(game: str, players: int, steps: int, seed: int) -> dict:
    import pyspiel

    import meldhall.rl
    import meldhall.rl.openspiel  # noqa: F401  (registers the games)

    spiel = pyspiel.load_game(meldhall.rl.GAMES[game][2], {"players": players, "max_hands": 1})
    rng = random.Random(seed)
    state = spiel.new_initial_state()
    n = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while n < steps:
        if state.is_terminal():
            state = spiel.new_initial_state()
        if state.is_chance_node():
            state.apply_action(rng.randrange(spiel.max_chance_outcomes()))
            continue
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
        n += 1
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"steps": n, "seconds": dt, "cpu_seconds": cpu, "per_s": n / cpu,
            "wall_per_s": n / dt}


BENCHES = {"engine": bench_engine, "pettingzoo": bench_pettingzoo,
           "gymnasium": bench_gymnasium, "openspiel": bench_openspiel}


def main() -> None:
    ap = argparse.ArgumentParser(
        description="Steps per CPU second of the RL environments (random masked actions) beside "
        "the raw engine's actions per second, in one process; one JSON line per measurement, "
        "then a table.", formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--steps", type=int, default=20000, help="steps per measurement")
    ap.add_argument("--games", default="classic-canasta:4,classic-canasta:2,"
                                       "railroad-canasta:4,shanghai-rummy:4",
                    help="comma-separated GAME:PLAYERS")
    ap.add_argument("--frameworks", default="engine,pettingzoo,gymnasium,openspiel",
                    help="comma-separated: engine, pettingzoo, gymnasium, openspiel")
    ap.add_argument("--seed", type=int, default=1, help="seeds the games and the choices")
    args = ap.parse_args()
    rows = []
    for spec in args.games.split(","):
        game, _, p = spec.partition(":")
        players = int(p or 4)
        for fw in args.frameworks.split(","):
            r = BENCHES[fw](game, players, args.steps, args.seed)
            r = {"game": game, "players": players, "framework": fw,
                 **{k: round(v, 1) if isinstance(v, float) else v for k, v in r.items()}}
            print(json.dumps(r), flush=True)
            rows.append(r)
    print()
    print(f"{'game':<22}{'framework':<12}{'steps/s':>10}{'vs engine':>11}  (per CPU second)")
    base: dict[tuple[str, int], float] = {}
    for r in rows:
        key = (r["game"], r["players"])
        if r["framework"] == "engine":
            base[key] = r["per_s"]
        ratio = r["per_s"] / base[key] if key in base else float("nan")
        extra = (f"  ({r['engine_actions_per_s']:.0f} engine actions/s inside)"
                 if "engine_actions_per_s" in r else "")
        print(f"{r['game'] + ' ' + str(r['players']) + 'p':<22}{r['framework']:<12}"
              f"{r['per_s']:>10.0f}{ratio:>10.2f}×{extra}")


if __name__ == "__main__":
    main()
