"""Engine speed: uniformly random legal actions on one core.

Usage::

    uv run python benchmarks/engine_speed.py classic-canasta --players 4 --hands 200 [--seed 1]

Every step is ``state.legal_actions()`` then ``state.apply(choice)``, choosing uniformly with a
seeded ``random.Random``.  Two definitions are measured in one run, ``--hands`` hands each
(``--only`` runs one of them):

* **continuing games** (the figures this script has always printed, top-level keys): games
  are played on; ``deal`` between hands is a step like any other, and when a game ends before
  ``--hands`` hands have been played a new game starts with the next seed.  ``seconds`` is
  the whole loop (the random choice included); ``us_per_step`` is ``seconds`` per action.
* **fresh hands** (the usual definitions of card-game engine benchmarks, key ``"fresh"``):
  each hand is the first hand of a new game (seeds ``--seed``, ``--seed`` + 1, …), played to
  its outcome.  Dealing (``new_game``) is timed (``deal_seconds``); chance actions are not
  counted as actions (the shuffle and deal are inside ``new_game``, and a hand ends before
  any ``deal`` action); ``step_seconds`` is the time in ``legal_actions`` and ``apply`` only,
  so ``us_per_step`` = ``step_seconds`` per action; ``hands_per_s`` and ``actions_per_s``
  divide by ``deal_seconds + step_seconds``.

Prints one JSON line: game, players, hands, games, actions, seconds, cpu_seconds (process
CPU time of the loop), hands_per_s, actions_per_s, us_per_step, the ``fresh`` figures (hands,
actions, deal_seconds, step_seconds, cpu_seconds, hands_per_s, actions_per_s, us_per_step,
us_per_deal), ``engine`` (the directory of the ``meldhall`` package imported, so that a
comparison can tell which engine ran), and peak_mb: the peak resident set size of this Python
process (``VmHWM`` of ``/proc/self/status``, which starts afresh at ``exec``; elsewhere
``resource.getrusage``, whose ``ru_maxrss`` under ``uv run`` still holds the peak of the
``uv`` process that started Python, about 30 MB).  With ``--tracemalloc``, peak_mb is the
peak of Python allocations instead, which slows the run down.
"""

from __future__ import annotations

import argparse
import json
import os
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


def _peak_rss_mb() -> tuple[float | None, str]:
    """The peak resident set size of this process in MB, and where it was read."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024, "VmHWM"  # kB
    except OSError:
        pass
    try:
        import resource
    except ImportError:  # not on this platform
        return None, "none"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # kilobytes on Linux, bytes on macOS
    return (peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024), "ru_maxrss"


def run(game: str, players: int | None, hands: int, seed: int, options: dict | None) -> dict:
    """Continuing games: ``hands`` hands of random play, ``deal`` counted as a step."""
    rng = random.Random(seed)
    game_seed = seed
    state = meldhall.new_game(game, players=players, seed=game_seed, options=options)
    done = 0
    actions = 0
    games = 1
    cpu = time.process_time()
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
    cpu = time.process_time() - cpu
    return {
        "game": game,
        "players": state.players,
        "hands": done,
        "games": games,
        "actions": actions,
        "seconds": round(seconds, 4),
        "cpu_seconds": round(cpu, 4),
        "hands_per_s": round(done / seconds, 2),
        "actions_per_s": round(actions / seconds, 1),
        "us_per_step": round(seconds * 1e6 / actions, 2),
    }


def run_fresh(game: str, players: int | None, hands: int, seed: int,
              options: dict | None) -> dict:
    """Fresh hands: each the first hand of a new game, dealing timed, steps timed alone."""
    rng = random.Random(seed)
    clock = time.perf_counter
    deal = 0.0
    steps = 0.0
    actions = 0
    cpu = time.process_time()
    for h in range(hands):
        t0 = clock()
        state = meldhall.new_game(game, players=players, seed=seed + h, options=options)
        t1 = clock()
        deal += t1 - t0
        while state.outcome is None:
            t0 = clock()
            legal = state.legal_actions()
            t1 = clock()
            action = rng.choice(legal)
            t2 = clock()
            state = state.apply(action)
            t3 = clock()
            steps += (t1 - t0) + (t3 - t2)
            actions += 1
    cpu = time.process_time() - cpu
    total = deal + steps
    return {
        "hands": hands,
        "actions": actions,
        "deal_seconds": round(deal, 4),
        "step_seconds": round(steps, 4),
        "cpu_seconds": round(cpu, 4),
        "hands_per_s": round(hands / total, 2),
        "actions_per_s": round(actions / total, 1),
        "us_per_step": round(steps * 1e6 / actions, 2),
        "us_per_deal": round(deal * 1e6 / hands, 1),
    }


def measure(game: str, players: int | None, hands: int, seed: int, options: dict | None,
            only: str | None) -> dict:
    """Both definitions (or ``only`` one: ``"continuing"`` or ``"fresh"``) as one dict."""
    result: dict = {"game": game}
    if only != "fresh":
        result = run(game, players, hands, seed, options)
    if only != "continuing":
        result["fresh"] = run_fresh(game, players, hands, seed, options)
    if "players" not in result:
        result["players"] = meldhall.new_game(game, players=players, seed=seed,
                                              options=options).players
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help=f"game name: {', '.join(meldhall.GAMES)}")
    parser.add_argument("--players", type=int, default=None, help="number of seats")
    parser.add_argument("--hands", type=int, default=100,
                        help="hands to play for each definition (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game and of "
                        "the action choices (default 1)")
    parser.add_argument("--option", type=_option, action="append", default=[],
                        metavar="NAME=VALUE", help="a game option (repeatable), e.g. "
                        "wild_ratio=pagat; VALUE is read as JSON when it parses")
    parser.add_argument("--only", choices=("continuing", "fresh"), default=None,
                        help="measure one definition only")
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
        result = measure(args.game, args.players, args.hands, args.seed, options, args.only)
        peak: float | None = tracemalloc.get_traced_memory()[1] / (1024 * 1024)
        tracemalloc.stop()
        source = "tracemalloc"
    else:
        result = measure(args.game, args.players, args.hands, args.seed, options, args.only)
        peak, source = _peak_rss_mb()
    result["peak_mb"] = round(peak, 2) if peak is not None else None
    result["peak_mb_source"] = source
    result["engine"] = os.path.dirname(os.path.abspath(meldhall.__file__))
    if options:
        result["options"] = options
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
