"""Shared pieces of the ``meldhall`` command: consoles, error handling, game options."""

from __future__ import annotations

import functools
import importlib
import os
import sys
from collections.abc import Callable
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from meldhall import GAMES, game_module
from meldhall.errors import MeldhallError, OptionsError

P = ParamSpec("P")
R = TypeVar("R")

#: Exit code for bad input (unknown game, bad option, corrupt file …).
EXIT_BAD_INPUT = 2
#: Exit code for an unexpected internal error.
EXIT_INTERNAL = 70


def out() -> Console:
    """The console for normal output (stdout, looked up at each call so tests can capture it)."""
    return Console(file=sys.stdout, highlight=False, soft_wrap=False)


def err() -> Console:
    """The console for messages and progress (stderr)."""
    return Console(file=sys.stderr, highlight=False, soft_wrap=False)


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    """Print ``error: message`` on stderr and return the :class:`typer.Exit` to raise."""
    err().print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code)


def handle_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn meldhall's errors (bad input) into a one-line message and a non-zero exit.

    Unexpected exceptions print a short message too; set ``MELDHALL_DEBUG=1`` for the
    traceback.
    """

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except MeldhallError as exc:
            raise fail(str(exc)) from None
        except KeyboardInterrupt:
            err().print("interrupted")
            raise typer.Exit(130) from None
        except BrokenPipeError:
            # the reader went away ('meldhall hint … --json | head'): stop quietly, as Unix
            # tools do; stdout is pointed at devnull so the interpreter's final flush is silent
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise typer.Exit(141) from None
        except Exception as exc:  # an engine or CLI bug: say so briefly
            if os.environ.get("MELDHALL_DEBUG"):
                raise
            raise fail(
                f"internal error: {type(exc).__name__}: {exc} "
                "(please report it; set MELDHALL_DEBUG=1 to see the traceback)",
                EXIT_INTERNAL,
            ) from None

    return wrapper


def check_game(name: str) -> Any:
    """The game module for ``name``; :class:`OptionsError` naming the known games otherwise."""
    if name not in GAMES:
        raise OptionsError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    return game_module(name)


def parse_options(game: str, items: list[str] | None, *, preset: str | None = None,
                  players: int | None = None) -> dict[str, Any]:
    """Read ``--preset`` and ``--option NAME=VALUE`` values into a validated options dict.

    ``players`` (``--players``) sets ``player_count``.  Raises :class:`OptionsError` on a
    malformed item, an unknown name or a bad value.
    """
    mod = check_game(game)
    try:
        opt_mod = importlib.import_module(mod.__name__ + ".options")
        parse_value = opt_mod.parse_option_value
    except (ImportError, AttributeError):  # a game without its own value reader
        parse_value = _plain_value
    data: dict[str, Any] = {}
    if preset is not None:
        presets = getattr(mod, "PRESETS", {})
        if preset not in presets:
            raise OptionsError(
                f"unknown preset {preset!r}; known presets: {', '.join(presets) or 'none'}")
        data.update(presets[preset])
    for item in items or []:
        name, eq, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if not eq or not name:
            raise OptionsError(
                f"--option expects NAME=VALUE (e.g. --option target_score=3000), got {item!r}")
        if not value.strip():
            raise OptionsError(f"--option {name}= needs a value")
        data[name] = parse_value(value)
    if players is not None:
        data["player_count"] = players
    counts = getattr(mod, "PLAYER_COUNTS", None)
    pc = data.get("player_count")
    if counts and pc is not None and pc not in counts:
        raise OptionsError(
            f"{game} is played by {', '.join(map(str, counts))} players, not {pc}")
    options_cls = getattr(mod, "Options", None)
    if options_cls is not None:
        options_cls.from_json(data)  # validates names and values (OptionsError)
    return data


def _plain_value(text: str) -> Any:
    import json

    try:
        return json.loads(text)
    except ValueError:
        return text


#: ``--preset`` for the commands that start games (play, simulate).
GameArgument = Annotated[str, typer.Argument(
    metavar="GAME", help="The game: classic-canasta, railroad-canasta or shanghai-rummy.",
    show_default=False)]
PlayersOption = Annotated[int | None, typer.Option(
    "--players", "-n",
    help="Players per game: Classic Canasta 2, 3, 4 or 6; Railroad Canasta 2 to 8; "
         "Shanghai Rummy 3 to 8.",
    show_default="4")]
HouseRuleOption = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="NAME=VALUE",
    help="A house rule for every game, e.g. --option target_score=3000 (repeatable; see "
         "docs/options.md).")]
QuietOption = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]


def count_progress(label: str, unit: str, quiet: bool) -> Progress:
    """A progress bar on stderr counting ``unit`` (games, deals …), hidden when ``quiet``."""
    return Progress(TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn(unit), TimeElapsedColumn(), TimeRemainingColumn(),
                    console=err(), transient=True, disable=quiet)


PresetOption = Annotated[str | None, typer.Option(
    "--preset",
    help="A named set of house rules (Classic: standard, pagat, britannica; Railroad: "
    "standard, short; Shanghai: standard, short, quick_rebuilds).",
    show_default=False)]


def check_drawn_game(name: str) -> Any:
    """Like :func:`check_game`, for the commands that draw the table (``play``, ``replay``):
    also refuses a game the terminal cannot draw yet."""
    from meldhall.cli.games import UIS

    mod = check_game(name)
    if name not in UIS:
        raise OptionsError(f"the terminal table for {name} is not written yet; games that can "
                           f"be played and replayed here: {', '.join(UIS)}")
    return mod


def non_default_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The entries of ``options`` (a full option dict) that differ from the game's defaults."""
    mod = check_game(game)
    options_cls = getattr(mod, "Options", None)
    if options_cls is None:
        return dict(options)
    defaults = options_cls().to_json()
    return {k: v for k, v in options.items() if defaults.get(k) != v}


def split_names(text: str) -> list[str]:
    """``"heuristic,random"`` -> ``["heuristic", "random"]`` (blanks dropped)."""
    return [t.strip() for t in text.split(",") if t.strip()]


def interactive_stdin() -> bool:
    """True when standard input is a terminal (not a pipe or a file)."""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False
