"""``meldhall tournament``: paired (duplicate) deals between bots, on local processes or Ray."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.markup import escape
from rich.table import Table
from typer.core import TyperCommand

from meldhall import GAMES
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
from meldhall.sim.tournament import run_tournament

if TYPE_CHECKING:
    # typer (>= 0.29) carries its own copy of click; its commands are given that Context
    from typer._click import Context


def normalize_ray_args(args: list[str]) -> list[str]:
    """Rewrite ``--ray [ADDRESS]`` (an option whose value is optional, which typer cannot
    declare) into ``--ray`` plus ``--ray-address ADDRESS``.

    The token after ``--ray`` is its address unless it starts with ``-`` (another option) or
    is a game name (the GAME argument written after ``--ray``); ``--ray=ADDRESS`` works too.
    Tokens after ``--`` are left alone.
    """
    result: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            result.extend(args[i:])
            break
        if a == "--ray":
            result.append(a)
            nxt = args[i + 1] if i + 1 < len(args) else None
            if nxt is not None and not nxt.startswith("-") and nxt not in GAMES:
                result += ["--ray-address", nxt]
                i += 2
                continue
        elif a.startswith("--ray="):
            result += ["--ray", "--ray-address", a[len("--ray="):]]
        else:
            result.append(a)
        i += 1
    return result


class _TournamentCommand(TyperCommand):
    """The tournament command, reading ``--ray [ADDRESS]`` (see :func:`normalize_ray_args`)."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, normalize_ray_args(list(args)))


@app.command("tournament", cls=_TournamentCommand)
@handle_errors
def tournament_command(
    game: GameArgument,
    players: PlayersOption = None,
    bots: Annotated[str, typer.Option(
        "--bots", "-b",
        help="Bot names, at least two (e.g. 'heuristic,random', 'ismcts:hard,heuristic'). "
        "Rotation r puts bot (s + r) mod k on seat s, so every bot plays every hand of every "
        "deal from each seat.")] = "heuristic,random",
    deals: Annotated[int, typer.Option(
        "--deals", "-d", help="Number of deals; each is replayed once per rotation.")] = 10,
    hands: Annotated[int, typer.Option(
        "--hands", help="Hands per deal: the first H hands of the deal's game (fewer if "
        "the game ends).")] = 1,
    seed: Annotated[int, typer.Option(
        "--seed", help="Tournament seed; deal i plays the game seeded "
        "seed*1000003+i.")] = 0,
    first_deal: Annotated[int, typer.Option(
        "--first-deal", help="Number of the first deal (to extend an earlier tournament of "
        "the same seed with the deals that follow it).")] = 0,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w",
        help="Local processes (1 = in this process); with --ray and no address, the CPUs of "
        "the local Ray instance.  The results do not depend on it.",
        show_default="the number of CPUs")] = None,
    ray: Annotated[bool, typer.Option(
        "--ray", metavar="[ADDRESS]",
        help="Play the deals as Ray tasks: a local Ray instance, or the cluster at ADDRESS "
        "(--ray auto, --ray ray://host:10001).  Needs meldhall[ray].  Same results as a "
        "local run.")] = False,
    ray_address: Annotated[str | None, typer.Option(
        "--ray-address", hidden=True, help="The ADDRESS of --ray.")] = None,
    json_output: Annotated[bool, typer.Option(
        "--json", help="Print exactly one JSON object on stdout instead of the tables.")] = False,
    option: HouseRuleOption = None,
    preset: PresetOption = None,
    quiet: QuietOption = False,
) -> None:
    """Play paired (duplicate) deals between bots and rate them.

    Every deal is played once per rotation of the bots' seats, so luck of the cards cancels
    out.  Prints, per bot: hands and games played and won (ties split), the mean score
    difference per hand against the other bots with its 95% confidence interval over the
    deals, an Elo estimate (first bot = 1500), and the time per decision.  A progress bar runs
    on stderr.  With **--json** stdout holds exactly one JSON object (see docs/tournaments.md);
    the exit code is 1 when a deal raised.

    Example: meldhall tournament classic-canasta --players 2 --bots heuristic,random
    --deals 20 --seed 1
    """
    check_game(game)
    opts = parse_options(game, option, preset=preset, players=players)
    players = opts.get("player_count", 4)
    names = split_names(bots)  # run_tournament checks the counts and names
    use_ray = ray or ray_address is not None

    progress = count_progress("tournament", "deals", quiet)
    with progress:
        task = progress.add_task("deals", total=deals)
        result = run_tournament(
            game, players, names, deals, seed, hands_per_deal=hands, options=opts,
            workers=workers, ray_address=ray_address or None, use_ray=use_ray,
            first_deal=first_deal,
            progress=lambda _d: progress.advance(task))
    data = result.to_json()
    data["options"] = non_default_options(game, {**opts, "player_count": players}) | (
        {"player_count": players})
    if json_output:
        sys.stdout.write(json.dumps(data) + "\n")
        sys.stdout.flush()
    else:
        _print_result(data)
    if data["errors"]:
        if not json_output:
            for msg in data["error_messages"]:
                err().print(f"[red]error:[/] {escape(msg)}")
        raise typer.Exit(1)


def _num(x: float | None, fmt: str) -> str:
    return "–" if x is None else format(x, fmt)


def _points(x: float | None) -> str:
    if x is None:
        return "–"
    return f"{x:+.0f}" if abs(x) >= 100 else f"{x:+.1f}"


def _seconds(x: float | None) -> str:
    if x is None:
        return "–"
    if x < 1e-3:
        return f"{x * 1e6:.0f} µs"
    if x < 1:
        return f"{x * 1e3:.1f} ms"
    return f"{x:.2f} s"


def _print_result(d: dict) -> None:
    console = out()
    rotations = len(d["pairings"])
    t = Table(box=box.SIMPLE_HEAD, title_justify="left", pad_edge=False,
              title=f"{d['game']}: {d['deals']} deals × {rotations} rotations × "
                    f"{d['hands_per_deal']} hand{'s' if d['hands_per_deal'] != 1 else ''}, "
                    f"{d['players']} players")
    # a long bot name (a plug-in's module path) folds, so that the figures never shrink to "…"
    t.add_column("Bot", overflow="fold")
    t.add_column("Hands", justify="right", no_wrap=True)
    t.add_column("Won", justify="right", no_wrap=True)
    t.add_column("Games", justify="right", no_wrap=True)
    t.add_column("Won", justify="right", no_wrap=True)
    t.add_column("Diff", justify="right", no_wrap=True)
    t.add_column("95% CI", justify="right", no_wrap=True)
    t.add_column("Elo", justify="right", no_wrap=True)
    for r in d["results"]:
        ci = r["ci95"]
        t.add_row(
            escape(r["label"]), str(r["hands"]),
            f"{r['hands_won']:g} {_num(r['hand_win_rate'], '.0%')}",
            str(r["games"]),
            f"{r['games_won']:g} {_num(r['game_win_rate'], '.0%')}",
            _points(r["mean_score_diff"]),
            "–" if ci is None else f"{_points(ci[0])}…{_points(ci[1])}",
            _num(r["elo"], ".0f"),
        )
    orient = "" if d["high_score_wins"] is not False else " (penalty points, negated)"
    t.caption = (f"Diff: mean score per hand of the bot's seats minus the others'{orient}; "
                 f"CI over deals. Elo: {d['elo_anchor']['bot']} = 1500.")
    console.print(t)
    tt = Table(box=box.SIMPLE_HEAD, title="Time per decision", title_justify="left")
    tt.add_column("Bot", overflow="fold")
    tt.add_column("Decisions", justify="right", no_wrap=True)
    tt.add_column("Median", justify="right", no_wrap=True)
    tt.add_column("95th pct", justify="right", no_wrap=True)
    for label, v in d["timing"].items():
        tt.add_row(escape(label), str(v["decisions"]), _seconds(v["median_s"]),
                   _seconds(v["p95_s"]))
    console.print(tt)
    if d["backend"] == "ray":
        backend = f"ray, {d['workers']} CPUs, {d['setup_seconds']:.1f} s to start"
    else:
        backend = f"local, {d['workers']} worker{'s' if d['workers'] != 1 else ''}"
    console.print(
        f"{d['games']} games, {d['hands']} hands, {d['actions']} actions in "
        f"{d['seconds']:.2f} s ({backend}); seed {d['seed']}; errors: {d['errors']}",
        markup=False)
    extra = {k: v for k, v in d["options"].items() if k != "player_count"}
    if extra:
        console.print("options: " + ", ".join(f"{k}={v}" for k, v in extra.items()),
                      markup=False)
