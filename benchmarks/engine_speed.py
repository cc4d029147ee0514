"""Engine speed: uniformly random legal actions on one core.

Usage::

    uv run python benchmarks/engine_speed.py classic-canasta --players 4 --hands 200 [--seed 1]

Each step is ``state.legal_actions()`` then ``state.apply(choice)``, choosing uniformly with a
seeded ``random.Random``; ``deal`` between hands is a step like any other.  When a game ends
before ``--hands`` hands have been played, a new game starts with the next seed.  Prints one
JSON line: game, players, hands, actions, seconds, hands_per_s, actions_per_s, us_per_step
(legal actions + apply), peak_mb (peak resident set size of the process, from
``resource.getrusage``; with ``--tracemalloc``, the peak of Python allocations instead, which
slows the run down).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import meldhall


def _option(text: str) -> tuple[str, object]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    return name.strip(), parsed


def _peak_rss_mb() -> float | None:
    try:
        import resource
    except ImportError:  # not on this platform
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # kilobytes on Linux, bytes on macOS
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def run(game: str, players: int, hands: int, seed: int, options: dict | None) -> dict:
    rng = random.Random(seed)
    game_seed = seed
    state = meldhall.new_game(game, players=players, seed=game_seed, options=options)
    done = 0
    actions = 0
    games = 1
    start = time.perf_counter()
    while done < hands:
        if state.is_terminal:
            game_seed += 1
            games += 1
            state = meldhall.new_game(game, players=players, seed=game_seed, options=options)
        legal = state.legal_actions()
        before = state.outcome
        state = state.apply(rng.choice(legal))
        actions += 1
        if state.outcome is not None and before is None:
            done += 1
    seconds = time.perf_counter() - start
    return {
        "game": game,
        "players": state.players,
        "hands": done,
        "games": games,
        "actions": actions,
        "seconds": round(seconds, 4),
        "hands_per_s": round(done / seconds, 2),
        "actions_per_s": round(actions / seconds, 1),
        "us_per_step": round(seconds * 1e6 / actions, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help=f"game name: {', '.join(meldhall.GAMES)}")
    parser.add_argument("--players", type=int, default=None, help="number of seats")
    parser.add_argument("--hands", type=int, default=100, help="hands to play (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game and of "
                        "the action choices (default 1)")
    parser.add_argument("--option", type=_option, action="append", default=[],
                        metavar="NAME=VALUE", help="a game option (repeatable), e.g. "
                        "wild_ratio=pagat; VALUE is read as JSON when it parses")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="report the peak of Python allocations (slower)")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    options = dict(args.option) or None
    try:
        meldhall.new_game(args.game, players=args.players, seed=args.seed, options=options)
    except meldhall.MeldhallError as exc:
        parser.error(str(exc))
    if args.tracemalloc:
        import tracemalloc

        tracemalloc.start()
        result = run(args.game, args.players, args.hands, args.seed, options)
        peak = tracemalloc.get_traced_memory()[1] / (1024 * 1024)
        tracemalloc.stop()
        result["peak_mb"] = round(peak, 2)
        result["peak_mb_source"] = "tracemalloc"
    else:
        result = run(args.game, args.players, args.hands, args.seed, options)
        peak = _peak_rss_mb()
        result["peak_mb"] = round(peak, 2) if peak is not None else None
        result["peak_mb_source"] = "ru_maxrss"
    if options:
        result["options"] = options
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
