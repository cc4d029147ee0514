"""The typer application object; the commands register themselves on it."""

from __future__ import annotations

from typing import Annotated

import typer

from meldhall import GAMES, __version__

app = typer.Typer(
    name="meldhall",
    help=(
        "Rummy-family card games in the terminal: play against bots, simulate bot matches, "
        "replay game records and read the rules.\n\n"
        f"Games: {', '.join(GAMES)}.  Try: meldhall play classic-canasta"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"meldhall {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print the version and exit.")] = False,
) -> None:
    """Rummy-family card games in the terminal."""
