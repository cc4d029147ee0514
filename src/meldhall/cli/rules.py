"""``meldhall rules``: the rules specifications, rendered from Markdown."""

from __future__ import annotations

import re
import sys
from typing import Annotated

import typer
from rich.markdown import Markdown

from meldhall.cli.app import app
from meldhall.cli.common import handle_errors, out
from meldhall.rules_text import RULE_FILES, find_rule, rules_text


@app.command("rules")
@handle_errors
def rules_command(
    game: Annotated[str, typer.Argument(
        metavar="GAME", help=f"The game: {', '.join(RULE_FILES)}.", show_default=False)],
    rule_id: Annotated[str | None, typer.Argument(
        metavar="RULE_ID",
        help="One rule (CC-8.5, or just 8.5) or a whole section (CC-8).  Omit for everything.",
        show_default=False)] = None,
    raw: Annotated[bool, typer.Option(
        "--raw", help="Print the Markdown source as it is.")] = False,
    pager: Annotated[bool, typer.Option(
        "--pager", help="Show the text in a pager (less).")] = False,
) -> None:
    """Print the rules of a game, or one rule by its ID.

    Every rule has a stable ID (CC-8.5 is the rule on taking a frozen pile); the engine names
    it whenever it refuses a move, so **meldhall rules classic-canasta CC-8.5** explains
    a refusal.

    Examples:

      meldhall rules classic-canasta            the whole Classic Canasta specification

      meldhall rules classic-canasta CC-8.5     one rule

      meldhall rules classic-canasta 12         section 12 (scoring)
    """
    text = rules_text(game) if rule_id is None else find_rule(game, rule_id)
    if raw and not pager:
        sys.stdout.write(text)
        return
    console = out()
    # lettered items "(a) … (b) …" of a rule keep their own lines
    body = text if raw else Markdown(re.sub(r"\n(\([a-z]\) )", r"  \n\1", text))
    if pager:
        with console.pager(styles=True):
            console.print(body, markup=False)
    else:
        console.print(body)
