"""``meldhall hint``: the move a bot recommends in a position, with its value and runners-up."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from meldhall.cli.app import app
from meldhall.cli.common import check_game, err, handle_errors, out
from meldhall.cli.games import UIS
from meldhall.cli.render import notation_text, pretty_notation
from meldhall.errors import RecordError
from meldhall.hints import Hint, hint, signed
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
    return "—" if v is None else signed(v)


TOO_FEW = "too few playouts to say"


def _versus(adv: float | None, se: float | None, value: float | None, n: int,
            penalty: bool = False) -> str:
    """An alternative's comparable figure: its mean difference from the recommendation on the
    same sampled deals, ± one standard error; in penalty points (``penalty``, Shanghai Rummy)
    said in words, ``9 more (± 7)`` (a signed figure read the wrong way round)."""
    if n < 2:
        return TOO_FEW
    if adv is None:  # no paired comparison (a tree search): only its own mean
        return f"not compared on the same deals (its own mean {_points(value)})"
    if se is None:
        return TOO_FEW
    if round(adv) == 0 and round(se) == 0:
        return "the same on every deal"  # "+0 ± 0" read as a measurement
    if penalty:
        if round(adv) == 0:
            return f"as many (± {se:.0f})"
        return f"{abs(adv):.0f} {'fewer' if adv > 0 else 'more'} (± {se:.0f})"
    return f"{signed(adv)} ± {se:.0f}"


def hint_view(h: Hint, who: str) -> list[RenderableType]:
    """A hint for people: the recommended move first, with its estimate and one sentence of
    why, then the other moves compared with it (``who``: ``seat 2``, ``you``)."""
    parts: list[RenderableType] = []
    # the move first, as the web does: where the hint's action is only a step of it
    # (``withdraw all`` before ``discard 3``), the headline names the move and a line after
    # it the step (a tester read "Hint for you: withdraw all" above a table of discard 3)
    step_only = (h.plan is not None and h.next is not None and str(h.next) == str(h.action)
                 and str(h.plan) != str(h.action))
    line = Text(f"Hint for {who}: ", style="bold")
    line.append_text(notation_text(str(h.plan if step_only else h.action), style="bold green"))
    if h.melds_nothing_more:
        # a discard listed against meldings ends the turn: said (a tester read them as moves
        # that could not both be made in one turn)
        line.append(" now, melding nothing more this turn", style="green")
    if h.close_call:
        line.append("  (a close call: the next move did about as well)", style="yellow")
    parts.append(line)
    if h.value is not None:
        # over the hint's own deals the estimate has its uncertainty (± one standard error):
        # it moves from one decision to the next by about that much
        pm = f" ± {h.value_stderr:.0f}" if h.value_stderr is not None else ""
        over = (f"averaged over {h.samples} sampled deals" if h.measured else
                f"averaged over its {h.samples} playouts")
        if h.penalty:  # Shanghai Rummy: players, penalty points, lower is better
            pts = round(h.value)
            # in words ("3 penalty points more"), its ± apart: "3 ± 2 … more" read oddly
            apart = f" (± {h.value_stderr:.0f})" if h.value_stderr is not None else ""
            what = (f"{abs(pts)} penalty point{'s' if abs(pts) != 1 else ''} "
                    f"{'fewer' if pts > 0 else 'more'}{apart} than {h.others()}" if pts else
                    f"as many penalty points{apart} as {h.others()}")
            parts.append(Text(f"  Estimate: {what} for the deal, {over}."))
        else:
            whose = ("the side's hand score minus the other side's" if h.partnership else
                     f"the hand score minus {h.others()}")
            parts.append(Text(
                f"  Estimate: {_points(h.value)}{pm} points for the hand ({whose}), {over}."))
    if h.why:
        parts.append(Text("  Why: ").append_text(notation_text(h.why)))
    if h.plan is not None and h.next is not None and str(h.next) != str(h.action):
        # a whole melding is built from staged melds (CC-6.9, RR-6.11, SH-8.1)
        parts.append(Text(f"  Play it step by step: next '{pretty_notation(str(h.next))}' (or "
                          f"type the whole melding '{pretty_notation(str(h.plan))}')",
                          style="dim"))
    elif step_only:
        why = (" (what you have staged is not part of it)" if str(h.action).startswith(
            "withdraw") else "")
        parts.append(Text(f"  Its next step: '{pretty_notation(str(h.action))}'{why}.",
                          style="dim"))
    if h.alternatives:
        rec = pretty_notation(str(h.plan if h.plan is not None else h.action))
        notes = list(h.notes) + [""] * (len(h.alternatives) - len(h.notes))
        steps = list(h.steps) + [None] * (len(h.alternatives) - len(h.steps))
        first = {str(a): st for (a, _v, _n), st in zip(h.alternatives, steps)}
        rows = list(zip(h.alternatives, h._padded_comparisons(), notes))
        # moves measured on two or more shared deals first, those measured on more deals (the
        # last challenger, which the decision compared on every deal) before those dropped
        # early, each best first; then the others
        rows.sort(key=lambda r: (r[1][1] is not None and r[0][2] >= 2,
                                 r[0][2] if r[1][1] is not None else 0,
                                 -1e18 if r[1][0] is None else r[1][0]), reverse=True)
        t = Table(box=box.SIMPLE, title=f"Other moves, compared with {rec} on the same "
                  "sampled deals", title_justify="left")
        t.add_column("move")
        # Shanghai Rummy: + is fewer penalty points than the recommendation (better)
        t.add_column(f"{'penalty points' if h.penalty else 'points'} versus {rec} "
                     "(± one standard error)", justify="right")
        t.add_column("deals" if h.measured else "playouts", justify="right")
        if any(notes):
            t.add_column("note" if h.measured else
                         "how far it got in the search", ratio=1)
        for (a, v, n), (adv, se), note in rows:
            versus = _versus(adv, se, v, n, h.penalty)
            move = notation_text(str(a))
            if first.get(str(a)) is not None:
                # a melding written as shorthand: the move list's step that begins it
                move.append(f"\n(first step: {pretty_notation(str(first[str(a)]))})",
                            style="dim")
            cells: list[RenderableType] = [
                move, Text(versus, style="dim" if versus == TOO_FEW else ""), str(n)]
            if any(notes):
                cells.append(notation_text(note, style="dim"))  # a move named in it: J♠, Jk
            t.add_row(*cells)
        parts.append(t)
        parts.append(Text(h.footnote(), style="dim"))
    return parts


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
    the other sides' mean, averaged over the search's playouts; in Shanghai Rummy, the
    penalty points fewer than the other players' mean (positive is better).

    A record comes from meldhall play --save FILE (or save FILE during the game) or the web
    table's download; a position document from meldhall.dump_position (docs/positions.md).

    Example: meldhall hint game.json --bot ismcts:hard
    """
    state = _load_state(file)
    check_game(state.game_name)
    with err().status(f"thinking ({bot})…"):  # a spinner on a terminal, silent otherwise
        h = hint(state, seat, bot=bot, seed=seed, alternatives=max(top, 0))
    if as_json:
        print(json.dumps({"game": state.game_name, **h.to_json()}))
        return
    console = out()
    # the table as the advised seat sees it (its own hand only), as 'meldhall play' draws it
    # the advised seat is "seat 0 (you)", as in 'meldhall play' (a tester looked for it)
    names = ["you" if s == h.seat else "" for s in range(state.players)]
    # with the seat's legal moves, so the status line says what 'meldhall play' says there
    # ("Draw (the pile cannot be taken now)" and why; a tester read "Draw or take the pile"
    # above a hint that draw was the only legal move)
    legal = [str(a) for a in state.legal_actions(h.seat)]
    console.print(UIS[state.game_name].table(state.observation(h.seat), names, log_lines=4,
                                            legal=legal))
    console.print()
    for part in hint_view(h, f"seat {h.seat}"):
        console.print(part)
