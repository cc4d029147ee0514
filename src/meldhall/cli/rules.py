"""``meldhall rules``: a game's rules as players read them, or (``--annotated``) the rules
specification the engine is built from, rendered from Markdown."""

from __future__ import annotations

import re
import sys
from typing import Annotated

import typer
from meldhall.cli.render import RulesMarkdown

from meldhall.cli.app import app
from meldhall.cli.common import handle_errors, out
from meldhall.rules_text import RULE_FILES, find_rule, game_of_rule, player_rules, rules_text


@app.command("rules")
@handle_errors
def rules_command(
    game: Annotated[str, typer.Argument(
        metavar="GAME", help=f"The game: {', '.join(RULE_FILES)}; or a rule ID alone (CC-8.5, "
                             "RR-11.1, SH-10.4), whose prefix names its game.",
        show_default=False)],
    rule_id: Annotated[str | None, typer.Argument(
        metavar="RULE_ID",
        help="One rule (CC-8.5, or just 8.5) or a whole section (CC-8).  Omit for everything.",
        show_default=False)] = None,
    annotated: Annotated[bool, typer.Option(
        "--annotated",
        help="The rules specification instead, as the developers use it: every rule with its "
             "seed citations and decision notes, and the seed audit.")] = False,
    raw: Annotated[bool, typer.Option(
        "--raw", help="Print the Markdown source as it is.")] = False,
    pager: Annotated[bool, typer.Option(
        "--pager", help="Show the text in a pager (less).")] = False,
) -> None:
    """Print the rules of a game, or one rule by its ID.

    By default the players' rules: every section and rule with its ID, the worked examples,
    tables and edge cases, and at each rule the house rules that change it.  With
    **--annotated**, the rules specification the engine is built from: the same rules with the
    seed documents they come from, the seed audit and a decision note on every choice made.

    Every rule has a stable ID (CC-8.5 is the rule on taking a frozen pile); the engine names
    it whenever it refuses a move, so **meldhall rules classic-canasta CC-8.5** explains
    a refusal.

    Examples:

      meldhall rules classic-canasta                   the whole of Classic Canasta

      meldhall rules classic-canasta CC-8.5            one rule

      meldhall rules CC-8.5                            the same (its prefix names the game)

      meldhall rules classic-canasta 12                section 12 (scoring)

      meldhall rules railroad-canasta 11.1 --annotated   with its citations
    """
    if rule_id is None and re.match(r"^[A-Za-z]{2}-\d", game) and game_of_rule(game):
        # "meldhall rules RR-6.9": the rule ID's prefix names its game
        game, rule_id = game_of_rule(game) or game, game
    if rule_id is not None:
        text = find_rule(game, rule_id, players=not annotated)
    else:
        text = rules_text(game) if annotated else player_rules(game)
    if raw and not pager:
        sys.stdout.write(text)
        return
    console = out()
    # lettered items "(a) … (b) …" of a rule keep their own lines
    body = text if raw else RulesMarkdown(re.sub(r"\n(\([a-z]\) )", r"  \n\1", text))
    if pager:
        with console.pager(styles=True):
            console.print(body, markup=False)
    else:
        console.print(body)
