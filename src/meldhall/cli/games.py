"""What the terminal needs to know about each game: its table, help, prompts and words.

``play`` and ``replay`` run one loop for every game; a :class:`GameUI` supplies the parts that
differ.  Everything a seat is shown comes from that seat's observation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from meldhall.cli.canasta_tables import CANASTA_TYPES_LEGEND, classic_table, railroad_table
from meldhall.cli.render import card_text, seat_label
from meldhall.cli.shanghai_table import buys_text, log_note, shanghai_table

_COMMANDS = """\
**Commands:** `legal` lists your legal actions again (`legal all`: without shortening),
`table` redraws the table, `log` shows this game's log, `score` the score sheet,
`hint` asks the search bot for a move (it sees only what you see), `sort rank` / `sort suit`
shows your hand by rank or by suit (`sort` alone switches), `save [FILE]` saves the game so far as a record (for `meldhall replay` and
`meldhall hint`; without FILE into meldhall's saves folder, the path is printed), `rules {rule}` prints a rule, `help` this text, `quit` leaves the game.
"""

_CANASTA_CARDS = """\
Cards are named by rank (`A K Q J 10 … 4`, `2`, `Jk` for a joker (`JK` or `jk` work too),
`3` for a black three); suits are accepted (`8H` or `8♥`) and ignored.
"""


@dataclass(frozen=True)
class GameUI:
    """The terminal's view of one game.

    Attributes:
        name: the game name (``classic-canasta`` …).
        title: the game's title for people.
        table: draws the table from an observation (``table(obs, names, hands=…, …)``).
        moves: the help's table of actions (Markdown rows).
        cards: how cards are written (Markdown).
        example_rule: a rule ID for the help.
        hint: the one-line hint printed at the start.
        groups: titles of the legal-action groups (first word -> title).
        unit: ``"hand"`` or ``"deal"``.
        turn_phases: the phases a turn starts in (``replay --tables turns``).
        score_note: said of the scores (``"lowest wins"``).
        draws: the human's actions after which the cards that joined the hand are announced
            (action -> sentence start).
        aliases: per phase, short answers (``y``, ``n``) -> action text.
        legend: explained once at the start of a game (Railroad's canasta types), ``""``
            for none.
    """

    name: str
    title: str
    table: Callable[..., RenderableType]
    moves: str
    cards: str
    example_rule: str
    hint: str
    groups: dict[str, str]
    unit: str = "hand"
    turn_phases: tuple[str, ...] = ("draw",)
    score_note: str = ""
    draws: dict[str, str] = field(default_factory=lambda: {"draw": "You drew"})
    aliases: dict[str, dict[str, str]] = field(default_factory=dict)
    legend: str = ""

    @property
    def help_text(self) -> str:
        """The in-game help (Markdown)."""
        return ("**Your move:** type the number of an action from the list, or the action "
                "itself in notation:\n\n| Action | Example |\n|---|---|\n" + self.moves
                + "\n" + self.cards + "\n" + _COMMANDS.format(rule=self.example_rule))

    # ------------------------------------------------------------------ state access
    def log(self, state: Any, seat: int | None = None) -> list[tuple[int, str, str]]:
        """The log as ``(seat, action, note)``, with ``seat``'s private details if the game
        keeps any."""
        return list(state.public_log())

    def side_of(self, state: Any) -> Sequence[int]:
        """The side of each seat (a seat is its own side where scores are personal)."""
        return getattr(state, "side_of", None) or tuple(range(state.players))

    def face_up(self, state: Any) -> dict[str, Any]:
        """The replay's all-hands view: keyword arguments for :attr:`table`."""
        return {"hands": {s: state.hand_cards(s) for s in range(state.players)}}

    # ------------------------------------------------------------------ words
    def prompt(self, obs: Any, names: Sequence[str]) -> Text | None:
        """A question put to the observer before its legal actions, or ``None``."""
        return None

    def note(self, phase: str, action: str, note: str) -> str:
        """A log note, completed where the log leaves it empty."""
        return note

    def deal_line(self, state: Any, dealer: int, names: Sequence[str]) -> str:
        """``Hand 2: seat 1 (random) deals.``"""
        return f"{self.unit.capitalize()} {state.hand_no + 2}: {seat_label(dealer, names)} deals."


class ClassicUI(GameUI):
    """Classic Canasta: partnerships, "may I go out?"."""

    def prompt(self, obs: Any, names: Sequence[str]) -> Text | None:
        if obs.phase != "consent":
            return None
        asker = obs.public["turn"]
        return Text(f"Your partner, {seat_label(asker, names)}, asks: \"may I go out?\"  "
                    "Answer yes or no.", style="bold yellow")


class RailroadUI(GameUI):
    """Railroad Canasta: kitties, four canasta types, the sevens lock."""

    def face_up(self, state: Any) -> dict[str, Any]:
        kitties = {s: state.pack.cards_of(k) for s, k in enumerate(state.kitties) if k}
        return {**super().face_up(state), "kitties": kitties}

    def prompt(self, obs: Any, names: Sequence[str]) -> Text | None:
        if obs.phase == "kitty":
            return Text("Your kitty is waiting (RR-10.3): 'kitty' (or y) takes it into your "
                        "hand now, 'pass' (or n) leaves it for a later turn.",
                        style="bold yellow")
        if obs.phase == "choice":
            return Text("You discarded your last card with your kitty untaken (RR-11.7): "
                        "'go out' ends the hand (the kitty counts against you), 'kitty' takes "
                        "it into your hand and play goes on.", style="bold yellow")
        return None

    def note(self, phase: str, action: str, note: str) -> str:
        if note or action != "pass":
            return note
        if phase == "kitty":
            return "leaves the kitty untaken"
        return "does not take the pile: the hand ends (RR-12.2)"


class ShanghaiUI(GameUI):
    """Shanghai Rummy: contracts, buying, jokers declared."""

    def log(self, state: Any, seat: int | None = None) -> list[tuple[int, str, str]]:
        return list(state.public_log(seat))

    def prompt(self, obs: Any, names: Sequence[str]) -> Text | None:
        up = obs.upcard()
        if up is None:
            return None
        j = obs.to_json()
        if obs.phase == "upcard":
            t = Text("Upcard ", style="bold yellow")
            t.append_text(card_text(up, wild_twos=False))
            t.append(": 'take' it as your draw (or y), or 'draw' (or n) to decline it — the "
                     "others may then buy it and you draw from the stock.", style="bold yellow")
            return t
        if obs.phase == "buy":
            t = Text(f"{seat_label(j['turn'], names)} declined ", style="bold yellow")
            t.append_text(card_text(up, wild_twos=False))
            t.append(". Do you buy it? You also take the top card of the stock as a penalty "
                     "(SH-10.4). Your buys this deal: ", style="bold yellow")
            t.append_text(buys_text(j["buys"][obs.seat], j["buy_limit"]))
            t.append(".  Answer 'buy' (or y) or 'pass' (or n).", style="bold yellow")
            return t
        return None

    def note(self, phase: str, action: str, note: str) -> str:
        return log_note(action, note)

    def deal_line(self, state: Any, dealer: int, names: Sequence[str]) -> str:
        nxt = state.hand_no + 1
        number = nxt + 1 if nxt < state.options.deals else 10
        from meldhall.games.shanghai.rules import CONTRACTS

        return (f"Deal {nxt + 1}: {seat_label(dealer, names)} deals. Contract {number}: "
                f"{CONTRACTS[number]}.")


_CANASTA_GROUPS = {
    "draw": "Draw", "stage": "Stage a meld (only you see it until you commit)",
    "withdraw": "Undo staged melds", "take": "Take the pile", "meld": "Meld",
    "add": "Add to a meld", "out": "Go out", "discard": "Discard", "ask": "Ask partner",
    "yes": "Answer", "no": "Answer", "pass": "Pass", "deal": "Deal",
}

CLASSIC = ClassicUI(
    name="classic-canasta",
    title="Classic Canasta",
    table=classic_table,
    moves="""\
| draw from the stock | `draw` |
| take the pile (with cards from hand) | `take 8 8`, `take` (upcard onto your meld) |
| before your side melds (CC-6.9): stage one meld at a time, privately | `stage K K 2`; to take the pile first `stage 8 8 + upcard` |
| undo staged melds | `undo` / `withdraw` (the last), `undo all` / `withdraw all` |
| commit them: a first melding / the take / going out concealed | `meld done` / `take` / the last `discard` |
| the whole melding in one line (shorthand) | `meld A A A, 7 7 7` — or `take 8 8, K K 2` — or `out 7 7 7 7 7 7 7, J J JK; discard 4` |
| new meld (side has melded) | `meld K K 2` |
| add to a meld | `add 9 9 2 -> 9` |
| discard | `discard K` |
| ask partner / answer | `ask`, `yes`, `no` |
""",
    cards=_CANASTA_CARDS,
    example_rule="CC-8.5",
    hint="Type the number of an action or the action itself (e.g. 'draw', 'stage K K 2', "
         "'meld done', 'discard 7'); 'help' for commands, 'quit' to leave.",
    groups=_CANASTA_GROUPS,
)

RAILROAD = RailroadUI(
    name="railroad-canasta",
    title="Railroad Canasta",
    table=railroad_table,
    moves="""\
| draw two from the stock | `draw` |
| take the pile (a natural pair, or onto your open meld) | `take 8 8`, `take` |
| before you meld (RR-6.11): stage one meld at a time, privately | `stage K K 2`; to take the pile first `stage 8 8 + upcard` |
| undo staged melds | `undo` / `withdraw` (the last), `undo all` / `withdraw all` |
| commit them: a first melding / the take | `meld done` / `take` |
| the whole melding in one line (shorthand) | `meld A A A, 7 7 7` — or `take 8 8, K K 2` |
| new meld; a wild meld; sevens | `meld K K 2`, `meld 2 2 JK`, `meld 7 7 7` |
| add to a meld (the wild meld is `wild`) | `add 9 9 2 -> 9`, `add 2 -> wild` |
| discard | `discard K` |
| after your discard: take your kitty, or not | `kitty` (`y`), `pass` (`n`) |
| last card discarded, kitty untaken (RR-11.7) | `go out`, `kitty` |
| stock empty: leave the pile (ends the hand) | `pass` |
""",
    cards=_CANASTA_CARDS + "A meld closes as a canasta at seven cards; you see your kitty once "
    "you have a red, wild or sevens canasta (RR-10.2).\n\n" + CANASTA_TYPES_LEGEND + "\n",
    example_rule="RR-10.2",
    legend=CANASTA_TYPES_LEGEND,
    hint="Type the number of an action or the action itself (e.g. 'draw', 'stage K K 2', "
         "'meld done', 'add 2 -> wild', 'discard 7', 'kitty'); 'help' for commands, 'quit' to "
         "leave.",
    groups={**_CANASTA_GROUPS, "kitty": "Kitty", "go": "Go out", "pass": "Pass"},
    draws={"draw": "You drew", "kitty": "From your kitty"},
    aliases={"kitty": {"y": "kitty", "yes": "kitty", "n": "pass", "no": "pass"}},
)

SHANGHAI = ShanghaiUI(
    name="shanghai-rummy",
    title="Shanghai Rummy",
    table=shanghai_table,
    moves="""\
| take the upcard as your draw | `take` (`y`) |
| decline it (others may buy it; you draw from the stock) | `draw` (`n`) |
| buy the upcard you are offered, or not | `buy` (`y`), `pass` (`n`) |
| stage one meld of the contract (SH-8.1) | `stage 7S 7H JK=7D`, `stage 5S 6S 7S 8S` |
| take staged melds back | `undo` / `withdraw` (the last), `undo all` / `withdraw all` |
| commit the staged melds as the contract | `contract done` (shorthand: `contract 7S 7H JK=7D, 5S 6S 7S 8S`) |
| lay off onto meld number N | `layoff 9H -> 2`, `layoff JK=4D -> 3`, `layoff AS -> 3 low` |
| exchange a meld's joker | `swap 7D -> 2` |
| discard | `discard KH` |
""",
    cards="Cards are typed rank then suit letter, S H D C for ♠ ♥ ♦ ♣ (`7H` is 7♥, `10S` is "
    "10♠, `AD` is A♦); a joker is `Jk` (typed `Jk`, `JK` or `jk`), and in a meld with the card "
    "it stands for, `JK=7D`.  The table and the lists show suit symbols; typing them works too.  Melds are "
    "numbered on the table.\n",
    example_rule="SH-10.3",
    hint="Type the number of an action or the action itself (e.g. 'take', 'draw', 'buy', "
         "'stage 7S 7H 7D', 'contract done', 'layoff 9H -> 2', 'discard KH': suits as the "
         "letters S H D C or the symbols ♠ ♥ ♦ ♣, a joker as JK); 'help' for commands, 'quit' "
         "to leave.",
    groups={"take": "Take the upcard", "draw": "Decline the upcard", "buy": "Buy",
            "pass": "Do not buy", "contract": "Make the contract", "stage": "Stage a meld",
            "withdraw": "Withdraw staged melds", "layoff": "Lay off",
            "swap": "Exchange a joker", "discard": "Discard", "deal": "Deal"},
    unit="deal",
    turn_phases=("upcard",),
    score_note="lowest wins",
    draws={},
    aliases={"upcard": {"y": "take", "yes": "take", "n": "draw", "no": "draw"},
             "buy": {"y": "buy", "yes": "buy", "n": "pass", "no": "pass"}},
)

#: Game name -> its terminal view.
UIS: dict[str, GameUI] = {ui.name: ui for ui in (CLASSIC, RAILROAD, SHANGHAI)}
