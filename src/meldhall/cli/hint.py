"""``meldhall hint``: the move a bot recommends in a position, with its value and runners-up."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from meldhall.cli.app import app
from meldhall.cli.common import check_game, err, handle_errors, out
from meldhall.errors import RecordError
from meldhall.hints import hint
from meldhall.record import RECORD_FORMAT, _read_json, load_position, load_record


def _load_state(file: Path):
    """A position document, or a record (its last state)."""
    if not file.exists():
        raise RecordError(f"no such file: {file}")
    if file.is_dir():
        raise RecordError(f"{file} is a folder, not a position or record file")
    data = _read_json(file)
    if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
        return load_record(file).final_state()
    return load_position(file)


def _points(v: float | None) -> str:
    return "—" if v is None else f"{v:+.0f}"


@app.command("hint")
@handle_errors
def hint_command(
    file: Annotated[Path, typer.Argument(
        metavar="POSITION_FILE",
        help="A position document (docs/positions.md) or a game record; a record is advised "
             "at its last state.", show_default=False)],
    bot: Annotated[str, typer.Option(
        "--bot", "-b",
        help="The adviser: ismcts (normal level), ismcts:easy, ismcts:hard, ismcts:N (N "
             "playouts), or heuristic.")] = "ismcts",
    seat: Annotated[int | None, typer.Option(
        "--seat", "-s", help="The seat to advise (default: the seat to act).",
        show_default=False)] = None,
    seed: Annotated[int, typer.Option(
        "--seed", help="Seed of the search; the same seed gives the same hint.")] = 0,
    top: Annotated[int, typer.Option(
        "--top", help="How many next best moves to list.")] = 3,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object instead of a table.")] = False,
) -> None:
    """Recommend a move for the seat to act, with its estimated value in points and the next
    best alternatives.

    The adviser sees only what that seat may see (its own hand and the table), never the
    other hands written in the position file.  Values are the seat's side's hand score minus
    the other sides' mean, averaged over the search's playouts; in Shanghai Rummy penalty
    points count negative.

    Example: meldhall hint position.json --bot ismcts:hard
    """
    state = _load_state(file)
    check_game(state.game_name)
    with err().status(f"thinking ({bot})…"):  # a spinner on a terminal, silent otherwise
        h = hint(state, seat, bot=bot, seed=seed, alternatives=max(top, 0))
    if as_json:
        print(json.dumps({"game": state.game_name, **h.to_json()}))
        return
    console = out()
    console.print(state.observation(h.seat).to_text(), markup=False, highlight=False)
    console.print()
    line = Text(f"Hint for seat {h.seat}: ", style="bold")
    line.append(str(h.action), style="bold green")
    if h.value is not None:
        line.append(f"   (estimated {_points(h.value)} points for the hand, "
                    f"{h.samples} playouts)")
    elif h.legal_count == 1:
        line.append("   (the only legal move)")
    console.print(line)
    if h.plan is not None and h.next is not None and str(h.next) != str(h.action):
        # a whole melding is built from staged melds (CC-6.9, RR-6.11, SH-8.1)
        console.print(Text(f"Play it step by step: next '{h.next}' (or type the whole "
                           f"melding '{h.plan}')", style="dim"))
    elif h.plan is not None and h.next is not None and str(h.plan) != str(h.action):
        console.print(Text(f"This is the next step of '{h.plan}'.", style="dim"))
    if h.alternatives:
        t = Table(box=box.SIMPLE, title="other moves compared", title_justify="left")
        t.add_column("move")
        t.add_column("versus the hint (points)", justify="right")
        t.add_column("its estimate", justify="right")
        t.add_column("playouts", justify="right")
        for (a, v, n), (adv, se) in zip(h.alternatives, h._padded_comparisons()):
            versus = "—" if adv is None else f"{adv:+.0f}" + ("" if se is None else f" ± {se:.0f}")
            t.add_row(str(a), versus, _points(v), str(n))
        console.print(t)
        console.print(Text(
            "Versus the hint: the mean difference on the same sampled deals, ± one standard "
            "error.  The search leaves the heuristic's move only for a move that beats it by "
            "more than one standard error (1.64, on fresh deals, in Shanghai Rummy), so a "
            "small positive difference is noise.",
            style="dim"))
