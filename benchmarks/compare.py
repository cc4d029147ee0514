"""Before/after engine speed in one run: an earlier commit against the working tree.

Usage::

    uv run python benchmarks/compare.py REV [--pairs 5] [--hands N] [--games G[:PLAYERS] ...]

``REV`` is any commit name git understands (``1ac8f79``, ``main~3``).  The script checks
``REV`` out as a detached worktree under ``.bench-worktrees/`` (git-ignored; reused on the next
run, ``--fresh-worktree`` makes it again) and runs ``uv sync`` there, so that the old commit
has its own environment.  Then, ``--pairs`` times over, for each game it runs *this* tree's
``benchmarks/engine_speed.py`` once with the old commit's interpreter (side A: the old
engine is what is imported) and once with the working tree's (side B), A then B, so that
both sides see the same load on a shared machine.  The benchmark reports which ``meldhall``
package it imported, and the script stops if that is not the tree it meant.

Prints, per game, the medians over the pairs of each side and their ratio B / A, for the
benchmark's two definitions (docs in ``engine_speed.py``): continuing games (``hands/s``,
``actions/s``, ``us/step`` over the whole loop) and fresh hands (dealing timed, ``us/step``
= legal actions + apply), each also per CPU second of the process (``cpu hands/s``), which a
loaded machine disturbs less than wall time.  ``--json FILE`` also writes every run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "engine_speed.py"
WORKTREES = ROOT / ".bench-worktrees"
DEFAULT_GAMES = ("classic-canasta:4", "railroad-canasta:4", "shanghai-rummy:4")
#: Hands per run and definition of each game unless ``--hands`` is given: about a second or
#: two of play each, so that the caches an engine fills as it plays are warm for most of it.
DEFAULT_HANDS = {"classic-canasta": 200, "railroad-canasta": 30, "shanghai-rummy": 50}


def _git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(("git", *args), cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


def _python_of(tree: Path) -> Path:
    for rel in ("bin/python", "Scripts/python.exe"):
        p = tree / ".venv" / rel
        if p.exists():
            return p
    raise SystemExit(f"no .venv interpreter in {tree} (did 'uv sync' fail?)")


def prepare_worktree(rev: str, fresh: bool) -> tuple[str, Path]:
    """The commit ``rev`` names and a synced worktree of it under ``.bench-worktrees/``."""
    try:
        sha = _git("rev-parse", "--verify", f"{rev}^{{commit}}")
    except subprocess.CalledProcessError:
        raise SystemExit(f"{rev!r} is not a commit of this repository") from None
    tree = WORKTREES / sha[:12]
    if tree.exists() and fresh:
        _git("worktree", "remove", "--force", str(tree))
    if tree.exists():
        if _git("rev-parse", "HEAD", cwd=tree) != sha:
            raise SystemExit(f"{tree} is not at {sha}: remove it or use --fresh-worktree")
    else:
        WORKTREES.mkdir(exist_ok=True)
        _git("worktree", "add", "--detach", str(tree), sha)
    print(f"syncing the environment of {tree.relative_to(ROOT)} ({sha[:12]}) ...",
          file=sys.stderr, flush=True)
    subprocess.run(("uv", "sync", "--frozen", "--quiet"), cwd=tree, check=True)
    return sha, tree


def run_once(python: Path, tree: Path, game: str, players: int | None, hands: int,
             seed: int) -> dict:
    """One benchmark run of ``game`` with ``python``; checks the engine imported."""
    cmd = [str(python), str(BENCH), game, "--hands", str(hands), "--seed", str(seed)]
    if players is not None:
        cmd += ["--players", str(players)]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    out = subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True, text=True)
    result: dict = json.loads(out.stdout.strip().splitlines()[-1])
    engine = Path(result["engine"]).resolve()
    if engine != (tree / "src" / "meldhall").resolve():
        raise SystemExit(f"the run meant for {tree} imported the engine in {engine}")
    return result


def _figures(r: dict) -> dict[str, float]:
    """The compared figures of one run."""
    f = r["fresh"]
    return {
        "hands/s": r["hands_per_s"],
        "actions/s": r["actions_per_s"],
        "us/step": r["us_per_step"],
        "cpu hands/s": r["hands"] / r["cpu_seconds"],
        "fresh hands/s": f["hands_per_s"],
        "fresh actions/s": f["actions_per_s"],
        "fresh us/step": f["us_per_step"],
        "fresh cpu hands/s": f["hands"] / f["cpu_seconds"],
        "peak MB": r["peak_mb"],
    }


def _fmt(v: float) -> str:
    return f"{v:,.1f}" if v >= 100 else f"{v:.2f}"


def report(rev: str, sha: str, game: str, runs_a: list[dict], runs_b: list[dict]) -> str:
    """The table of one game: medians of each side and the ratios."""
    fa = [_figures(r) for r in runs_a]
    fb = [_figures(r) for r in runs_b]
    lines = [f"{game} ({runs_b[0]['players']} players), {len(fa)} pairs, "
             f"A = {rev} ({sha[:9]}), B = working tree"]
    lines.append(f"  {'figure':18s} {'A median':>12s} {'B median':>12s} {'B/A':>7s} "
                 f"{'median of pair ratios':>22s}")
    for key in fa[0]:
        a = statistics.median(x[key] for x in fa)
        b = statistics.median(x[key] for x in fb)
        pair = statistics.median(y[key] / x[key] for x, y in zip(fa, fb))
        lines.append(f"  {key:18s} {_fmt(a):>12s} {_fmt(b):>12s} {b / a:7.2f} {pair:22.2f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the earlier commit (side A)")
    parser.add_argument("--pairs", type=int, default=5, help="A/B pairs per game (default 5)")
    parser.add_argument("--hands", type=int, default=None,
                        help="hands per run and definition (default: "
                        + ", ".join(f"{g} {n}" for g, n in DEFAULT_HANDS.items()) + ")")
    parser.add_argument("--seed", type=int, default=1, help="benchmark seed (default 1)")
    parser.add_argument("--games", nargs="+", default=list(DEFAULT_GAMES),
                        metavar="GAME[:PLAYERS]",
                        help="games to compare (default: " + " ".join(DEFAULT_GAMES) + ")")
    parser.add_argument("--fresh-worktree", action="store_true",
                        help="make the worktree of REV again")
    parser.add_argument("--json", metavar="FILE", help="also write every run to FILE")
    args = parser.parse_args(argv)
    if args.pairs < 1 or (args.hands is not None and args.hands < 1):
        parser.error("--pairs and --hands must be at least 1")
    games: list[tuple[str, int | None]] = []
    for g in args.games:
        name, _, count = g.partition(":")
        games.append((name, int(count) if count else None))
    sha, old_tree = prepare_worktree(args.rev, args.fresh_worktree)
    py_a, py_b = _python_of(old_tree), _python_of(ROOT)
    runs: dict[str, tuple[list[dict], list[dict]]] = {g: ([], []) for g, _ in games}
    hands = {g: args.hands or DEFAULT_HANDS.get(g, 50) for g, _ in games}
    for i in range(args.pairs):
        for game, players in games:
            a = run_once(py_a, old_tree, game, players, hands[game], args.seed)
            b = run_once(py_b, ROOT, game, players, hands[game], args.seed)
            runs[game][0].append(a)
            runs[game][1].append(b)
            print(f"pair {i + 1}/{args.pairs} {game}: hands/s A {a['hands_per_s']} "
                  f"B {b['hands_per_s']}", file=sys.stderr, flush=True)
    print(f"benchmarks/compare.py {args.rev}: benchmarks/engine_speed.py --seed {args.seed}, "
          f"A then B, {args.pairs} pairs")
    for game, _ in games:
        print()
        print(f"{game}: --hands {hands[game]}")
        print(report(args.rev, sha, game, *runs[game]))
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"rev": args.rev, "sha": sha, "hands": hands, "seed": args.seed,
             "runs": {g: {"A": a, "B": b} for g, (a, b) in runs.items()}}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
