"""``meldhall simulate``: complete games between bots, summarized."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from meldhall.bots import make_bot
from meldhall.cli.app import app
from meldhall.cli.common import (
    GameArgument,
    HouseRuleOption,
    PlayersOption,
    PresetOption,
    QuietOption,
    count_progress,
    check_game,
    err,
    handle_errors,
    non_default_options,
    out,
    parse_options,
    split_names,
)
from meldhall.errors import OptionsError
from meldhall.sim.batch import run_batch


@app.command("simulate")
@handle_errors
def simulate_command(
    game: GameArgument,
    players: PlayersOption = None,
    games: Annotated[int, typer.Option(
        "--games", "-g", help="Number of games to play.")] = 10,
    bots: Annotated[str, typer.Option(
        "--bots", "-b",
        help="Bot names assigned to seats 0, 1, 2 … in order and cycled: "
        "'heuristic,random' with four players puts heuristic on "
        "seats 0 and 2 (side 0).")] = "heuristic",
    seed: Annotated[int, typer.Option(
        "--seed", help="Seed of the first game; game i uses seed+i.")] = 0,
    workers: Annotated[int, typer.Option(
        "--workers", "-w",
        help="Local processes to play on; the results do not depend "
        "on it.")] = 1,
    json_output: Annotated[bool, typer.Option(
        "--json",
        help="Print exactly one JSON object on stdout instead of "
        "the table.")] = False,
    option: HouseRuleOption = None,
    preset: PresetOption = None,
    quiet: QuietOption = False,
) -> None:
    """Play complete games between bots and summarize them.

    Prints, per side, the games won (a shared win counts for each side that shares it), the
    win rate, the mean final score and the mean score per hand, plus hands, actions and
    speed.  A progress bar runs on stderr.  With **--json** stdout holds exactly one JSON
    object: game, players, bots, games, hands, actions, seconds, wins, win_rate,
    mean_final_score, mean_hand_score and errors (games that raised; the exit code is 1 when
    there are any).

    Example: meldhall simulate classic-canasta --players 4 --games 100 --bots heuristic,random
    --seed 1 --workers 2
    """
    check_game(game)
    opts = parse_options(game, option, preset=preset, players=players)
    players = opts.get("player_count", 4)
    if games < 1:
        raise OptionsError(f"--games must be at least 1, not {games}")
    if workers < 1:
        raise OptionsError(f"--workers must be at least 1, not {workers}")
    names = split_names(bots)
    if not names:
        raise OptionsError("--bots needs at least one bot name (random, heuristic)")
    for n in names:
        try:
            make_bot(n, game)
        except ImportError:
            raise OptionsError(f"the {n!r} bot is not available in this installation") from None

    progress = count_progress("simulating", "games", quiet)
    with progress:
        task = progress.add_task("games", total=games)
        summary = run_batch(game, players, names, games, seed=seed, options=opts,
                            workers=workers, progress=lambda _r: progress.advance(task))
    data = summary.to_json()
    data["options"] = non_default_options(game, {**opts, "player_count": players}) | (
        {"player_count": players})
    if json_output:
        sys.stdout.write(json.dumps(data) + "\n")
        sys.stdout.flush()
    else:
        _print_summary(data)
    if data["errors"]:
        if not json_output:
            for msg in data["error_messages"]:
                err().print(f"[red]error:[/] {escape(msg)}")
        raise typer.Exit(1)


def _print_summary(d: dict) -> None:
    console = out()
    players = d["players"]
    bots = d["bots"]
    nsides = d["sides"]
    t = Table(box=box.SIMPLE_HEAD, title=f"{d['game']}: {d['games']} games, {players} players",
              title_justify="left")
    t.add_column("Side")
    t.add_column("Seats")
    t.add_column("Bots")
    t.add_column("Wins", justify="right")
    t.add_column("Win rate", justify="right")
    t.add_column("Final score", justify="right")
    t.add_column("Per hand", justify="right")
    for side in range(nsides):
        if nsides == players:
            seats = [side]
            label = f"seat {side}"
        else:
            seats = [s for s in range(players) if s % nsides == side]
            label = f"side {side}"
        side_bots = sorted({bots[s] for s in seats}, key=[bots[s] for s in seats].index)
        t.add_row(label, ", ".join(map(str, seats)), ", ".join(side_bots), str(d["wins"][side]),
                  f"{d['win_rate'][side]:.1%}", f"{d['mean_final_score'][side]:.0f}",
                  f"{d['mean_hand_score'][side]:.1f}")
    t.caption = "Final score and Per hand are means over the games and hands played."
    console.print(t)
    secs = d["seconds"] or 1e-9
    console.print(
        f"{d['hands']} hands, {d['actions']} actions in {d['seconds']:.2f} s "
        f"({d['hands'] / secs:.1f} hands/s, {d['workers']} worker"
        f"{'s' if d['workers'] != 1 else ''}); seeds {d['seed']}…{d['seed'] + d['games'] - 1}; "
        f"errors: {d['errors']}", markup=False)
    extra = {k: v for k, v in d["options"].items() if k != "player_count"}
    if extra:
        console.print("options: " + ", ".join(f"{k}={v}" for k, v in extra.items()),
                      markup=False)
