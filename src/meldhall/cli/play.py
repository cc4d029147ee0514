"""``meldhall play``: a game in the terminal against bots.

Moves are read line by line from standard input, so a session can be scripted
(``printf 'draw\\n1\\n' | meldhall play classic-canasta --seed 3``).  The bots see only their
seat's observation.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markdown import Markdown
from rich.text import Text

from meldhall import new_game
from meldhall.bots import make_bot
from meldhall.cli.app import app
from meldhall.cli.common import (
    PresetOption,
    check_drawn_game,
    fail,
    handle_errors,
    interactive_stdin,
    out,
    parse_options,
    split_names,
)
from meldhall.cli.games import UIS
from meldhall.cli.render import (
    RulesMarkdown,
    legal_view,
    log_line,
    log_text,
    named_note,
    notation_text,
    pretty_notation,
    order_actions,
    past_tense,
    outcome_view,
    score_sheet,
    seat_label,
    take_upcards,
    sort_cards,
)
from meldhall.errors import IllegalActionError, MeldhallError, NotationError, OptionsError
from meldhall.game import Action, Outcome, State

QUIT = object()
EOF = object()
#: The adviser of the in-game ``hint`` (``meldhall hint``'s default).
HINT_BOT = "ismcts"
#: ``seat 2`` or ``seat 2's`` in a refusal's reason.
_SEAT = re.compile(r"\bseat (\d+)('s)?")
_YOU_VERB = re.compile(r"\byou (is|has|was|does)\b")
_YOU_FORMS = {"is": "are", "has": "have", "was": "were", "does": "do"}



def _you(note: str, action: str = "") -> str:
    """``draws from the stock (8♦)`` -> ``drew from the stock (8♦)`` (the log is in the past
    tense, :func:`~meldhall.cli.render.past_tense`)."""
    return past_tense(note, action)


def saves_folder() -> Path:
    """Where ``save`` without a file name writes: ``saves`` in meldhall's user data folder
    (platformdirs: ``~/.local/share/meldhall/saves`` on Linux), or ``$MELDHALL_SAVES``."""
    env = os.environ.get("MELDHALL_SAVES")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("meldhall", appauthor=False)) / "saves"

class Session:
    """One interactive game: the state, the bots and the human seat."""

    def __init__(self, game: str, players: int, human: int, seed: int, bot_names: list[str],
                 options: dict[str, Any], save: Path | None):
        self.game = game
        self.ui = UIS[game]
        self.console = out()
        self.human = human
        self.seed = seed
        self.save = save
        self.state: State = new_game(game, players=players, seed=seed, options=options)
        dealer = self.state.dealer  # type: ignore[attr-defined]  # a slot of every game's state
        self.initial_dealer: int = dealer
        self.players = self.state.players
        self.side_of = self.ui.side_of(self.state)
        self.log_len = len(self.ui.log(self.state, human))  # entries printed so far
        others = [s for s in range(self.players) if s != human]
        self.seat_bot_names: dict[int, str] = {
            s: bot_names[i % len(bot_names)] for i, s in enumerate(others)
        }
        self.bots = {s: make_bot(n, game) for s, n in self.seat_bot_names.items()}
        self.rngs = {s: random.Random(seed * 1009 + s) for s in others}
        self.names = ["you" if s == human else self.seat_bot_names[s]
                      for s in range(self.players)]
        self.outcomes: list[Outcome] = []
        self.echo = not interactive_stdin()
        self.sort: str | None = None  # the hand's order: None (the game's own), rank, suit

    # ------------------------------------------------------------------ input
    def read(self, prompt: str) -> str | None:
        """A line from stdin (``None`` at end of input); echoed when stdin is not a terminal."""
        self.console.print(Text(prompt, style="bold green"), end="")
        self.console.file.flush()
        line = sys.stdin.readline()
        if not line:
            self.console.print()
            return None
        line = line.rstrip("\r\n")
        if self.echo:
            self.console.print(line, markup=False, highlight=False)
        return line

    # ------------------------------------------------------------------ drawing
    def draw_table(self) -> None:
        obs = self.state.observation(self.human)
        # the player's legal moves, so the status can say when the pile is out of reach
        legal = ([str(a) for a in self.state.legal_actions()]
                 if self.human in self.state.to_act else None)
        self.console.print(self.ui.table(obs, self.names, sort=self.sort, legal=legal))

    def show_legal(self, legal: list[Action], everything: bool = False) -> None:
        # stage actions can be many (one per meld the hand allows): the list shows the first
        # (every natural of a rank first) and the others are typed or listed by 'legal all'
        self.console.print(legal_view(legal, self.ui.groups,
                                      max_per_group=10_000 if everything else 40,
                                      caps=None if everything else {"stage": 12}))

    def show_new_log(self, before: int, phase: str, extra: str = "") -> None:
        """Print the log entries from number ``before`` on; ``phase`` is the phase the first
        of them (the action just applied) was taken in."""
        log = self.ui.log(self.state, self.human)
        self.log_len = len(log)
        entries = log[before:]
        ups = take_upcards(log)[before:]
        for i, ((e_seat, action, note), up) in enumerate(zip(entries, ups)):
            if i == 0:
                note = self.ui.note(phase, action, note)
            who = "You" if e_seat == self.human else seat_label(e_seat, self.names)
            if e_seat < 0:
                who = "Table"
            note = named_note(past_tense(note, action), self.names)  # all read alike
            line = Text(f"{who}: ", style="bold" if e_seat == self.human else "")
            line.append_text(log_line(action, note, upcard=up))
            self.console.print(line)
        if extra:
            self.console.print(extra)

    # ------------------------------------------------------------------ turns
    def human_turn(self, legal: list[Action]) -> Any:
        """Ask the human for an action; returns the action, :data:`QUIT` or :data:`EOF`."""
        st = self.state
        self.console.print()
        self.draw_table()
        question = self.ui.prompt(st.observation(self.human), self.names)
        if question is not None:
            self.console.print(question)
        aliases = self.ui.aliases.get(st.phase, {})
        self.show_legal(legal)
        while True:
            line = self.read("Your move> ")
            if line is None:
                return EOF
            cmd = line.strip()
            low = " ".join(cmd.lower().split())
            if not cmd:
                continue
            if low in ("quit", "exit", "q"):
                return QUIT
            if low in ("help", "?", "h"):
                self.console.print(Markdown(self.ui.help_text))
                continue
            if low in ("legal", "list", "moves", "l", "legal all"):
                self.show_legal(legal, everything=low == "legal all")
                continue
            if low in ("table", "t", "show"):
                self.draw_table()
                continue
            if low in ("score", "scores", "sheet"):
                if self.outcomes:
                    self.console.print(self.sheet())
                else:
                    self.console.print("No hand has been scored yet.")
                continue
            if low == "log":
                obs = self.state.observation(self.human).to_json()
                self.console.print(log_text(obs["log"], self.names, last=60))
                continue
            if low == "hint":
                self.show_hint(legal)
                continue
            if low == "sort" or low in ("sort rank", "sort suit"):
                self.toggle_sort(low[5:] or None)
                continue
            if low.startswith("sort "):
                self.console.print("Sort your hand by 'sort rank' or 'sort suit' ('sort' "
                                   "alone switches between them).", style="red", markup=False)
                continue
            if low == "save" or low.startswith("save "):
                self.save_now(cmd[4:].strip())
                continue
            if low.split(" ", 1)[0] in ("rules", "rule"):
                self.show_rule(cmd.split(None, 1)[1] if " " in cmd else "")
                continue
            # staged melds (CC-6.9, RR-6.11, SH-8.1): "undo" withdraws the last, "undo all" all
            cmd = {"undo": "withdraw", "undo all": "withdraw all"}.get(low, cmd)
            cmd = aliases.get(low, cmd)
            if cmd.isdigit():
                k = int(cmd)
                if 1 <= k <= len(legal):
                    return legal[k - 1]
                self.console.print(f"Choose a number from 1 to {len(legal)}, or type an action "
                                   "('legal' lists them again).", style="red")
                continue
            try:
                action = st.parse_action(cmd)
                st.check(action, self.human)
            except IllegalActionError as exc:
                self.refused(exc)
                continue
            except NotationError as exc:
                self.console.print(Text(f"Not understood: {exc}", style="red"))
                self.console.print("Type a number from the list, an action (the list shows "
                                   "them), or 'help'.", style="dim")
                continue
            return action

    def show_hint(self, legal: list[Action]) -> None:
        """The search bot's recommendation for the human's seat, as ``meldhall hint`` gives
        it (same adviser and seed), worked out from the seat's observation only."""
        from meldhall.cli.hint import hint_view
        from meldhall.hints import hint_for_observation

        obs = self.state.observation(self.human)
        with self.console.status(f"thinking ({HINT_BOT})…"):
            h = hint_for_observation(self.game, obs, self.state.legal_actions(self.human),
                                     bot=HINT_BOT, seed=0)
        for part in hint_view(h, "you"):
            self.console.print(part)
        step = h.next if h.next is not None else h.action
        if step in legal:
            what = "it" if str(step) == str(h.action) else "its next step"
            self.console.print(f"Type {legal.index(step) + 1} or '{pretty_notation(str(step))}' "
                               f"to play {what}.", style="dim", markup=False)

    def toggle_sort(self, order: str | None = None) -> None:
        """Show the hand by ``order`` (``"rank"`` or ``"suit"``), or with ``None`` by the
        other of the two (each game starts with its own order)."""
        default = "suit" if self.game == "shanghai-rummy" else "rank"
        now = self.sort or default
        self.sort = order or ("suit" if now == "rank" else "rank")
        other = "suit" if self.sort == "rank" else "rank"
        self.console.print(f"Your hand is now shown by {self.sort} ('sort' again or "
                           f"'sort {other}': by {other}).", markup=False)
        self.draw_table()

    def record_text(self) -> str:
        from meldhall.record import Record, dump_record

        seats = ["human" if s == self.human else self.seat_bot_names[s]
                 for s in range(self.players)]
        return dump_record(Record.from_state(self.state, self.initial_dealer, seats))

    def save_now(self, name: str) -> None:
        """``save [FILE]``: the record of the game so far, to FILE (default: the --save file,
        or ``meldhall-GAME-SEED.json`` in meldhall's saves folder, :func:`saves_folder`: never
        into the folder the game was started from, which may be a source checkout)."""
        if name:
            path = Path(name).expanduser()
        elif self.save is not None:
            path = self.save
        else:
            folder = saves_folder()
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                self.console.print(f"Cannot make the saves folder {folder}: "
                                   f"{exc.strerror or exc}; give a file name: save FILE",
                                   style="red", markup=False)
                return
            path = self._save_path(folder)
        if path.is_dir():
            self.console.print(f"{path} is a folder; give a file name: save FILE",
                               style="red", markup=False)
            return
        try:
            path.write_text(self.record_text(), encoding="utf-8")
        except OSError as exc:
            self.console.print(f"Cannot write the record to {path}: {exc.strerror or exc}",
                               style="red", markup=False)
            return
        where = path.resolve()
        self.console.print(f"The game so far is saved to {where} (replay it with: meldhall "
                           f"replay {where}; a hint at its last position: meldhall hint "
                           f"{where}).", markup=False, highlight=False, soft_wrap=True)
        if getattr(self.state.observation(self.human), "staged", ()):
            self.console.print("Staged melds are private and not in the record.", style="dim")
        # the list scrolled away behind the message (a tester had to guess 'legal')
        self.console.print("Your move goes on: 'legal' lists your moves, 'table' shows the "
                           "table.", style="dim")

    def _save_path(self, folder: Path) -> Path:
        """The file a plain ``save`` writes in ``folder``: ``meldhall-GAME-SEED.json``, or
        with ``-2``, ``-3`` … where an earlier game left that name; the same file for every
        save of this game (the game so far, updated)."""
        chosen = getattr(self, "_saved_to", None)
        if chosen is not None and chosen.parent == folder:
            return chosen
        stem = f"meldhall-{self.game}-{self.seed}"
        path, k = folder / f"{stem}.json", 1
        while path.exists():
            k += 1
            path = folder / f"{stem}-{k}.json"
        self._saved_to: Path = path
        return path

    def seat_names(self, text: str) -> str:
        """``text`` with each ``seat N`` written as the name the table gives that seat."""
        def name(m: re.Match[str]) -> str:
            seat, owner = int(m.group(1)), bool(m.group(2))
            if not 0 <= seat < self.players:
                return m.group(0)
            if seat == self.human:
                before_a_word = re.match(r" [^\W\d]", text[m.end():]) is not None
                return ("your" if before_a_word else "yours") if owner else "you"
            who = f"the {self.names[seat]} bot (seat {seat})"
            return f"the {self.names[seat]} bot's (seat {seat})" if owner else who
        # "seat 0 is being offered" said to seat 0: "you are being offered"
        return _YOU_VERB.sub(lambda m: "you " + _YOU_FORMS[m.group(1)], _SEAT.sub(name, text))

    def refused(self, exc: IllegalActionError) -> None:
        t = Text("Refused ", style="bold red")
        t.append(f"({exc.rule_id})", style="bold red")
        t.append(": ")
        t.append(notation_text(self.seat_names(exc.reason)))  # cards as the table shows them
        self.console.print(t)
        self.console.print(f"Read the rule with 'rules {exc.rule_id}'; 'legal' lists your "
                           "legal actions.", style="dim", markup=False)

    def show_rule(self, rule_id: str) -> None:
        from meldhall.rules_text import find_rule

        if not rule_id.strip():
            self.console.print("Which rule? e.g. 'rules CC-8.5'", style="red")
            return
        try:
            self.console.print(RulesMarkdown(find_rule(self.game, rule_id, players=True)))
        except MeldhallError as exc:
            self.console.print(Text(str(exc), style="red"))

    def bot_turn(self, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        obs = self.state.observation(seat)
        bot = self.bots[seat]
        if hasattr(bot, "analyse"):  # a search bot: show that it is thinking
            with self.console.status(f"seat {seat} ({bot.name}) is thinking…"):
                return bot.choose(obs, legal, self.rngs[seat])
        return bot.choose(obs, legal, self.rngs[seat])

    def apply(self, action: Action, seat: int) -> None:
        before_log = self.log_len
        phase = self.state.phase
        mine = self.state.observation(self.human)
        before_hand = mine.hand  # type: ignore[attr-defined]  # every game's observation has it
        try:
            self.state = self.state.apply(action, seat)
        except IllegalActionError as exc:
            if seat == self.human:
                raise
            raise RuntimeError(
                f"the {self.names[seat]} bot at seat {seat} chose an illegal action "
                f"{action}: {exc}") from None
        extra = ""
        said = self.ui.draws.get(str(action)) if seat == self.human else None
        if said:
            obs = self.state.observation(self.human)
            new = obs.hand & ~before_hand  # type: ignore[attr-defined]  # see before_hand
            cards = sort_cards(obs.pack.cards_of(new))  # type: ignore[attr-defined]  # .pack too
            if cards:
                extra = said + " " + " ".join(c.pretty for c in cards)
                notes = " ".join(n for _, a, n in self.ui.log(self.state, self.human)[
                    before_log:] if a == "kitty")
                if str(action) == "kitty" and "place" in notes:
                    # the red threes found in it were replaced: said, or a card that was never
                    # in the kitty appears in the list (a tester compared the two by hand)
                    extra += (" (each red three in it was placed and replaced from the stock, "
                              "RR-10.4: the replacements are among these)")
        elif seat == self.human and getattr(type(action), "PRIVATE", False):
            # staging leaves no log line (nobody else sees it, CC-6.9, RR-6.11, SH-8.1): say
            # what happened, or the screen only redraws
            text = str(action)
            extra = pretty_notation(
                "You withdrew every staged meld." if text == "withdraw all" else
                "You withdrew the last staged meld." if text == "withdraw" else
                f"You staged {text.removeprefix('stage ')} (only you see it).")
        self.show_new_log(before_log, phase, extra)

    # ------------------------------------------------------------------ hands and game
    def sheet(self):
        return score_sheet(self.outcomes, self.players, self.side_of, self.names,
                           unit=self.ui.unit, note=self.ui.score_note)

    def end_of_hand(self, oc: Outcome) -> None:
        """Show the outcome ``oc`` of the hand just scored (the state's), and the game's end."""
        self.outcomes.append(oc)
        self.console.print()
        self.console.print(outcome_view(oc, self.players, self.side_of, self.names,
                                        unit=self.ui.unit))
        if oc.game_over:
            self.console.print(self.sheet())
            winners = oc.winners
            mine = self.side_of[self.human] if len(oc.results) != self.players \
                else self.human
            if mine in winners:
                msg = "You win!" if len(winners) == 1 else "You share the win."
            else:
                msg = "You lose."
            self.console.print(Text(f"Game over. {msg}", style="bold"))

    def intro(self) -> None:
        me = self.human
        side_of = self.side_of
        partners = [s for s in range(self.players) if s != me and side_of[s] == side_of[me]]
        who = f"You are seat {me}"
        if partners:
            who += f", partner of seat{'s' if len(partners) > 1 else ''} " + \
                   ", ".join(str(p) for p in partners)
        bots = ", ".join(f"seat {s}: {n}" for s, n in self.seat_bot_names.items())
        self.console.print(Text(
            f"{self.ui.title}, {self.players} players, seed {self.seed}. {who}. Bots: {bots}.",
            style="bold"))
        changed = self.house_rules()
        if changed:
            self.console.print("House rules: " + "; ".join(changed) + " (the rules as written "
                               "otherwise).", markup=False, highlight=False)
        if self.ui.legend:
            # explained once here; the table keeps a one-line reminder
            self.console.print(self.ui.legend, style="dim", markup=False, highlight=False)
        self.console.print(self.ui.hint, markup=False)

    def house_rules(self) -> list[str]:
        """The options of this game that differ from the rules as written (what ``--preset``
        and ``--option`` changed), in the lobby's words with the name to type:
        ``Wild cards in a meld: at most 3 wild cards (wild_ratio=pagat)``."""
        from meldhall.rules_text.players import option_labels

        labels, choices = option_labels(self.game)
        opts = self.state.options
        plain = new_game(self.game, players=opts.player_count, seed=0).options.to_json()
        said = []
        for k, v in opts.to_json().items():
            if k == "player_count" or plain.get(k) == v:
                continue
            typed = f"{k}={json.dumps(v) if not isinstance(v, str) else v}"
            words = (choices.get(k, {}).get(v) if isinstance(v, (str, int, bool)) else None)
            if words is None:
                words = ("on" if v else "off") if isinstance(v, bool) else (
                    f"{v:,}" if isinstance(v, int) else json.dumps(v) if not isinstance(v, str)
                    else v)
            said.append(f"{labels[k]}: {words} ({typed})" if k in labels else typed)
        return said

    def save_record(self) -> None:
        if self.save is None:
            return
        try:
            self.save.write_text(self.record_text(), encoding="utf-8")
        except OSError as exc:
            raise fail(f"cannot write the record to {self.save}: {exc.strerror or exc}") \
                from None
        self.console.print(f"Record saved to {self.save} (replay it with: meldhall replay "
                           f"{self.save})", markup=False)

    def run(self) -> int:
        self.intro()
        try:
            return self._loop()
        finally:
            self.save_record()

    def _loop(self) -> int:
        shown_outcome = None
        while True:
            st = self.state
            oc = st.outcome
            if oc is not None and oc is not shown_outcome:
                shown_outcome = oc
                self.end_of_hand(oc)
            if st.is_terminal:
                return 0
            seat = st.to_act[0]
            legal = st.legal_actions(seat)
            if oc is not None:  # between hands: the next dealer deals
                if interactive_stdin() and self.read(
                        f"Press Enter for the next {self.ui.unit} (or type quit) ") in (
                        None, "quit", "q", "exit"):
                    self.console.print("You left the game.")
                    return 0
                self.console.print()
                self.console.print(Text(self.ui.deal_line(st, seat, self.names), style="bold"))
                self.apply(legal[0], seat)
                continue
            if seat == self.human:
                action = self.human_turn(order_actions(legal, self.ui.groups))
                if action is EOF:
                    self.console.print("End of input: leaving the game.")
                    return 0
                if action is QUIT:
                    self.console.print("You left the game.")
                    return 0
            else:
                action = self.bot_turn(seat, legal)
            self.apply(action, seat)


@app.command("play")
@handle_errors
def play_command(
    game: Annotated[str, typer.Argument(
        metavar="GAME",
        help="The game to play: classic-canasta, railroad-canasta or shanghai-rummy.",
        show_default=False)],
    players: Annotated[int | None, typer.Option(
        "--players", "-n",
        help="Number of players: Classic Canasta 2, 3, 4 or 6; Railroad "
        "Canasta 2 to 8; Shanghai Rummy 3 to 8.",
        show_default="4")] = None,
    seat: Annotated[int, typer.Option(
        "--seat", "-s",
        help="Your seat (0 … players-1).  In four-player Classic Canasta "
        "seat 0 partners seat 2.")] = 0,
    seed: Annotated[int | None, typer.Option(
        "--seed",
        help="Seed of the shuffle; the same seed and the same moves give "
        "the same game.  Default: a random seed (printed at the start).",
        show_default=False)] = None,
    bots: Annotated[str, typer.Option(
        "--bots", "-b",
        help="Bots for the other seats, by name: random, heuristic, or the search bot "
        "ismcts (normal level: answers in well under a second), ismcts:easy, ismcts:hard "
        "(up to 5 s a move); a comma list is assigned to the other seats in order, "
        "cycled.")] = "heuristic",
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", metavar="NAME=VALUE",
        help="A house rule, e.g. --option target_score=3000 "
        "(repeatable; see docs/options.md).")] = None,
    preset: PresetOption = None,
    save: Annotated[Path | None, typer.Option(
        "--save", metavar="FILE",
        help="Write the game record (JSON) to FILE when the game ends or "
        "you leave.", show_default=False)] = None,
) -> None:
    """Play a game in the terminal against bots.

    The table is drawn before each of your moves: your hand, every player's or side's melds,
    the upcard and the pile, the stock, the scores and the last actions.  Classic Canasta adds
    red threes, frozen and blocked piles and minimum counts; Railroad Canasta each player's
    kitty, canasta types and the sevens lock; Shanghai Rummy the contract, buys used and left,
    who has made the contract and the numbered melds with their jokers (**JK=7D**).  Pick an
    action by its number or type it in notation (**draw**, **meld K K 2**, **kitty**,
    **buy**, **layoff 9H -> 2**, **discard 7**).  A refused move shows the rule that refuses
    it.  Type **help** during the game for every command.

    Moves are read from standard input, one a line, so a game can be scripted; the game
    ends cleanly at the end of the input.
    """
    check_drawn_game(game)
    opts = parse_options(game, option, preset=preset, players=players)
    players = opts.get("player_count", 4)
    if not 0 <= seat < players:
        raise OptionsError(f"--seat must be a seat from 0 to {players - 1}, not {seat}")
    names = split_names(bots)
    if not names:
        raise OptionsError("--bots needs at least one bot name (random, heuristic, ismcts)")
    fallback = None
    for n in names:
        try:
            make_bot(n, game)
        except (ImportError, OptionsError) as exc:
            if n == "heuristic" and bots == "heuristic":
                fallback = exc
            elif isinstance(exc, OptionsError):
                raise
            else:
                raise OptionsError(f"the {n!r} bot is not available in this installation") \
                    from None
    if fallback:
        out().print(f"There is no heuristic bot for {game} here; the random bot plays "
                    "instead.", style="yellow")
        names = ["random"]
    if save is not None:
        parent = save.expanduser().resolve().parent
        if not parent.is_dir():
            raise OptionsError(f"--save: the folder {parent} does not exist")
        if save.is_dir():
            raise OptionsError(f"--save: {save} is a folder; give a file name")
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    session = Session(game, players, seat, seed, names, opts, save)
    code = session.run()
    raise typer.Exit(code)
