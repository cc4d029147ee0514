"""``meldhall replay``: step through a game record."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from meldhall.cli.app import app
from meldhall.cli.common import check_drawn_game, handle_errors, interactive_stdin, out
from meldhall.cli.games import UIS, GameUI
from meldhall.cli.render import (log_line, named_note, outcome_view, past_tense, score_sheet,
                                  seat_label, take_upcards)
from meldhall.errors import OptionsError, RecordError
from meldhall.game import Outcome, State
from meldhall.record import load_record


class Tables(str, Enum):
    """When ``replay`` draws the table."""

    all = "all"
    turns = "turns"
    hands = "hands"
    none = "none"


def _count(n: int, word: str) -> str:
    """``1 action``, ``12 actions``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


@app.command("replay")
@handle_errors
def replay_command(
    file: Annotated[Path, typer.Argument(
        help="A game record (JSON), e.g. written by 'meldhall play "
        "--save'.", show_default=False)],
    seat: Annotated[int | None, typer.Option(
        "--seat", "-s",
        help="Show the game as this seat saw it (its hand only).  Default: "
        "every hand face up.", show_default=False)] = None,
    tables: Annotated[Tables | None, typer.Option(
        "--tables",
        help="When to draw the table: after every action (all), at "
        "the start of each turn (turns), at the start of each "
        "hand (hands) or never (none).  Default: all with --step, "
        "turns otherwise.", show_default=False)] = None,
    step: Annotated[bool, typer.Option(
        "--step",
        help="Wait for Enter after each action (q + Enter stops).")] = False,
) -> None:
    """Replay a game record action by action, printing each action and the table.

    Every hand ends with its score breakdown, and the game with the score sheet.  The record
    is checked as it is replayed: an action that does not apply is reported with its number
    and the rule that refuses it.

    Example: meldhall play classic-canasta --save game.json, then meldhall replay game.json
    --seat 0 --step
    """
    if not file.exists():
        raise RecordError(f"no such file: {file}")
    if file.is_dir():
        raise RecordError(f"{file} is a folder, not a record file")
    rec = load_record(file)
    check_drawn_game(rec.game)
    if tables is None:
        # stepping shows what each action did (a tester stepped through a draw and saw no
        # table after it)
        tables = Tables.all if step else Tables.turns
    ui = UIS[rec.game]
    n = rec.players
    if seat is not None and not 0 <= seat < n:
        raise OptionsError(f"--seat must be a seat from 0 to {n - 1}, not {seat}")
    console = out()
    names = list(rec.seats) if len(rec.seats) == n else None
    if names and seat is not None and names[seat] == "human":
        names[seat] = "you"  # the game as the person who played this seat saw it
    head = Text(f"Record {file}: {rec.game}, {n} players, seed {rec.seed}, first dealer seat "
                f"{rec.dealer}, {_count(len(rec.actions), 'action')}", style="bold")
    console.print(head)
    if names:
        console.print("Seats: " + ", ".join(f"{s}: {nm}" for s, nm in enumerate(names)),
                      markup=False)
    outcomes: list[Outcome] = []
    states = rec.states()
    _, prev = next(states)  # (None, the initial state)
    _table(console, ui, prev, seat, names, tables)
    drawn = True  # the table shown is the current state's
    prev_len = len(ui.log(prev, seat))
    count = 0
    turn_phases = ui.turn_phases
    for text, state in states:
        if text is None:  # only the initial state comes without an action
            continue
        log = ui.log(state, seat)
        count += 1
        actor = prev.to_act[0] if prev.to_act else -1
        new_entries = log[prev_len:]
        prev_len = len(log)
        line = Text(f"{count:>4}. ", style="dim")
        line.append(seat_label(actor, names) + ": ")
        notes = []
        for i, (e_seat, _, note) in enumerate(new_entries):
            if i == 0:
                note = ui.note(prev.phase, text, note)
            elif note and e_seat != actor:
                note = f"{seat_label(e_seat, names)}: {past_tense(note)}"
            elif note:
                note = past_tense(note)
            if note:
                notes.append(past_tense(note, text) if i == 0 else note)
        # the action and what it did, as the play screen's log writes them (suit symbols,
        # "draw — declined 5♠", the past tense)
        # a bare take: the upcard it took is the one of the entries before (log_line says
        # which meld it went on)
        up = (take_upcards(log)[prev_len - len(new_entries)]
              if new_entries and text == "take" else None)
        line.append_text(log_line(text, named_note("; ".join(notes), names), upcard=up))
        console.print(line)
        oc = state.outcome
        drawn = False
        if oc is not None and prev.outcome is None:
            outcomes.append(oc)
            console.print(outcome_view(oc, n, ui.side_of(state), names, unit=ui.unit))
            drawn = True
        elif (tables == Tables.all
              or (tables == Tables.turns and state.phase in turn_phases
                  and (prev.phase not in turn_phases or _turn(prev) != _turn(state)))
              or (tables == Tables.hands and text == "deal")):
            _table(console, ui, state, seat, names, tables)
            drawn = True
        prev = state
        if step and not _wait():
            console.print("Stopped.")
            raise typer.Exit(0)
    if outcomes:
        console.print(score_sheet(outcomes, n, ui.side_of(prev), names, unit=ui.unit,
                                  note=ui.score_note))
    if not prev.is_terminal:
        if not drawn:
            # where the record stops, as it stands (its last action drew no table)
            _table(console, ui, prev, seat, names, tables)
        console.print("The record ends before the game does.", style="yellow")
    result = rec.result or {}
    if result.get("finished") and prev.is_terminal:
        recorded = result.get("scores")
        if isinstance(recorded, list) and recorded and recorded != list(prev.scores):
            console.print(f"Note: the record states final scores {recorded}, the replay gives "
                          f"{list(prev.scores)}.", style="yellow")


def _turn(state: State) -> int:
    """The seat whose turn it is."""
    return state.turn  # type: ignore[attr-defined]  # a slot of every game's state


def _table(console, ui: GameUI, state, seat, names, tables) -> None:
    if tables == Tables.none:
        return
    if seat is not None:
        # the seat's own legal moves, so the table says what it could do as the play screen
        # does ("Draw (the pile cannot be taken now)")
        legal = ([str(a) for a in state.legal_actions(seat)] if seat in state.to_act
                 else None)
        view = ui.table(state.observation(seat), names, legal=legal)
    else:
        view = ui.table(state.observation(state.to_act[0] if state.to_act else 0), names,
                        **ui.face_up(state))
    console.print(view)


def _wait() -> bool:
    """Wait for Enter; False to stop (``q`` or end of input)."""
    if interactive_stdin():
        sys.stdout.write("[Enter: next, q: stop] ")
        sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        return False
    return line.strip().lower() not in ("q", "quit", "exit")
