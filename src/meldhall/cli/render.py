"""Drawing for the terminal with rich: the pieces every game shares.

Cards and hands, seat labels, the public log, a hand's score breakdown, the score sheet and
the numbered list of legal actions.  The tables themselves are drawn per game
(:mod:`meldhall.cli.canasta_tables`, :mod:`meldhall.cli.shanghai_table`), always from an
:class:`~meldhall.game.Observation` (what one seat may know); the replay's all-hands view
passes the hands explicitly.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markdown import Markdown, TableElement
from rich.markup import escape
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meldhall.cards import Card
from meldhall.game import Action, Outcome

#: Display order of kinds in a hand: jokers, twos, A K Q … 4, black threes.
KIND_ORDER = (0, 2, 1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3)
_KIND_POS = {k: i for i, k in enumerate(KIND_ORDER)}

#: How a hand ended (``Outcome.how``), for people; games add their own.
HOW_TEXT = {
    "went_out": "went out",
    "went_out_concealed": "went out concealed",
    "went_out_blind": "went out blind",
    "stock_exhausted": "the stock ran out",
    "last_red_three": "the last card of the stock was a red three",
    "sevens_lock": "the sevens lock left no legal discard",
    "no_legal_discard": "no legal discard was left",
}


def card_text(card: Card, wild_twos: bool = True) -> Text:
    """A card with its suit symbol, red suits in red, wild cards bold."""
    if card.rank == 0:
        return Text("Jk", style="bold magenta")
    style = "red" if card.is_red else ""
    if card.rank == 2 and wild_twos:
        style = (style + " bold").strip()
    return Text(card.pretty, style=style)


def cards_text(cards: Sequence[Card], wild_twos: bool = True, empty: str = "") -> Text:
    """Cards separated by spaces (``empty`` when there are none)."""
    text = Text()
    for i, c in enumerate(cards):
        if i:
            text.append(" ")
        text.append_text(card_text(c, wild_twos))
    if not cards and empty:
        text.append(empty, style="dim")
    return text


def sort_cards(cards: Sequence[Card]) -> list[Card]:
    """Cards in display order: wild cards, then A K … 4, then threes; by suit within a rank."""
    return sorted(cards, key=lambda c: (_KIND_POS.get(c.rank, 99), c.suit or 0, c.deck))


def suit_sort(cards: Sequence[Card], wild_twos: bool = True) -> list[Card]:
    """Cards by suit (♠ ♥ ♦ ♣), in display order of rank within a suit, the wild cards last
    in a group of their own (jokers and, with ``wild_twos``, the twos: a tester found a wild
    2♦ at the head of the diamonds, among the naturals)."""
    return sorted(cards, key=lambda c: (_is_wild(c, wild_twos), c.rank == 0,
                                        9 if c.suit is None else c.suit,
                                        _KIND_POS.get(c.rank, 99), c.deck))


def _is_wild(card: Card, wild_twos: bool = True) -> bool:
    """A joker, or (``wild_twos``, the canasta games) a two."""
    return card.rank == 0 or (wild_twos and card.rank == 2)


_CANASTA_LABEL = re.compile(r"^(.*\bcanasta) (?:\S+)×(\d+): (.*)$")
_CARDS_LABEL = re.compile(r"^(seat \d+ [a-z ]+?) ((?:\S+ )*\S+)$")


_WHOSE = re.compile(r"^seat (\d+) (hand|untaken kitty|kitty)\b")
#: A canasta bonus line names the canasta's rank: ``natural canasta bonus (9)`` (CC-12.2).
_BONUS_LABEL = re.compile(r"^(.*\bcanasta bonus) \((\w+)\)$")


def _whose(label: str, names: Sequence[str] | None) -> str:
    """``seat 0 hand A♥`` as the table names the seat: ``your hand A♥`` for the player
    reading it, ``hand of seat 2 (heuristic) …`` otherwise."""
    def said(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        if names and seat < len(names) and names[seat] == "you":
            return f"your {m.group(2)}"
        return f"{m.group(2)} of {seat_label(seat, names)}"
    return _WHOSE.sub(said, label)


def score_label(label: str) -> str:
    """A score line's label as the table shows things (CC-12, RR-13): a canasta by its size in
    cards (``mixed canasta 4×8: 4 4 …`` read beside the table's ``4×5 2 Jk Jk``, which counts
    naturals), a canasta bonus by its rank in words (``natural canasta bonus (9s)``), the
    cards left in a hand in the hand's order (the engine lists them by card number); other
    labels as they are."""
    m = _CANASTA_LABEL.match(label)
    if m:
        return f"{m.group(1)} of {m.group(2)} cards: {m.group(3)}"
    m = _BONUS_LABEL.match(label)
    if m:  # the rank alone read as a count: "(9s)", "(kings)"
        from meldhall.cards import RANK_NAMES
        from meldhall.games.canasta.actions import rank_word

        tok = m.group(2)
        kinds = {name: k for k, name in RANK_NAMES.items()}
        words = ("wild cards" if tok == "wild" else
                 rank_word(kinds[tok], plural=True) if tok in kinds else tok + "s")
        return f"{m.group(1)} ({words})"
    m = _CARDS_LABEL.match(label)
    if m:
        from meldhall.cards import parse_cards
        from meldhall.errors import NotationError

        try:
            cards = parse_cards(m.group(2))
        except NotationError:
            return label
        return f"{m.group(1)} " + " ".join(str(c) for c in sort_cards(cards))
    return label


#: Between two groups of a hand (:func:`hand_text`).
GROUP_SEPARATOR = " │ "


def hand_text(cards: Sequence[Card], *, by_suit: bool = False, wild_twos: bool = True) -> Text:
    """A hand grouped by rank (``Jk 2♠ │ A♥ A♦ │ Q♦ …``) or, ``by_suit``, by suit in the
    given order (``3♠ 6♠ Q♠ │ 4♥ │ … │ Jk``)."""
    text = Text()
    groups: list[list[Card]] = []
    ordered = list(cards) if by_suit else sort_cards(cards)

    def key(c: Card):
        if not by_suit:
            return c.rank
        # the wild cards in one group after the suits (suit_sort puts them there)
        return "wild" if _is_wild(c, wild_twos) else c.suit

    for c in ordered:
        if groups and key(groups[-1][0]) == key(c):
            groups[-1].append(c)
        else:
            groups.append([c])
    for i, g in enumerate(groups):
        if i:
            text.append(GROUP_SEPARATOR, style="dim")
        text.append_text(cards_text(g, wild_twos))
    if not groups:
        text.append("(no cards)", style="dim")
    return text


#: A card token in the engine's notation or a log note (``QH``, ``10D``, ``JK``, ``JK=7D``): it
#: stands alone (not inside a word or a rule ID); a rank without a suit (``discard Q``) is none.
_CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])"
                         r"(?:JK(?:=(10|[2-9AKQJ])([SHDC]))?|(10|[2-9AKQJ])([SHDC]))"
                         r"(?![A-Za-z0-9])")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def notation_text(text: str, style: str = "") -> Text:
    """``text`` with its card tokens in suit symbols, red suits in red: ``discard QH`` ->
    ``discard Q♥``, ``JK`` -> ``Jk``, ``JK=7D`` -> ``Jk=7♦``.  Only the display changes: the
    engine's notation (records, the log itself) keeps the letters."""
    out = Text(style=style)
    at = 0
    for m in _CARD_TOKEN.finditer(text):
        out.append(text[at:m.start()])
        if m.group(0).startswith("JK"):
            if m.group(1):
                out.append(f"Jk={m.group(1)}{SUIT_SYMBOLS[m.group(2)]}",
                           style="red" if m.group(2) in "HD" else "")
            else:
                out.append("Jk", style="magenta")
        else:
            out.append(m.group(3) + SUIT_SYMBOLS[m.group(4)],
                       style="red" if m.group(4) in "HD" else "")
        at = m.end()
    out.append(text[at:])
    return out


def pretty_notation(text: str) -> str:
    """``text`` with its card tokens in suit symbols (:func:`notation_text`, plain)."""
    return notation_text(text).plain


#: Whole actions said in the log's past tense.
_WHOLE_PAST = {"draw": "drew", "withdraw": "withdrew the last staged meld",
               "withdraw all": "withdrew the staged melds",
               "meld done": "laid down the staged melds",
               "contract done": "laid down the contract", "kitty": "took the kitty",
               "pass": "passed", "buy": "bought the upcard", "take": "took the upcard",
               "deal": "dealt", "ask": "asked \u201cmay I go out?\u201d",
               "yes": "answered yes", "no": "answered no"}
#: An action's verb in the past tense, followed by its notation: ``discard Q`` -> ``discarded
#: Q``; ``take 8 8`` takes the pile with those cards from hand (CC-8).
_VERB_PAST = {"discard": "discarded", "meld": "melded", "add": "added", "stage": "staged",
              "take": "took the pile with", "contract": "laid down the contract",
              "layoff": "laid off", "swap": "swapped", "out": "went out:", "ask": "asked",
              "buy": "bought"}
_ONLY_CARDS = re.compile(r"^(?:(?:10|[2-9AJQK])[SHDC♠♥♦♣]|JK|Jk)(?: (?:(?:10|[2-9AJQK])"
                         r"[SHDC♠♥♦♣]|JK|Jk))*$")


_UPCARDS = re.compile(r"^upcard ((?:[^\s()]+ )+?)([^\s()]+)( \(pile frozen\))?$")
_UPCARD = re.compile(r"^upcard ([^\s()]+)( \(pile frozen\))?$")


def _turned_up(note: str) -> str:
    """The deal's ``upcard 2S JK 3H 5S (pile frozen)`` (CC-4.7, RR-4.8: wild cards and red
    threes turned up are covered by the next card) said as what happened: ``turned up 2S JK
    3H 5S to start the pile; the upcard is 5S (pile frozen)``; one card is ``turned up 5S to
    start the pile`` (not ``upcard 5S``: a log line is a sentence)."""
    m = _UPCARDS.match(note)
    if not m:
        one = _UPCARD.match(note)
        return f"turned up {one.group(1)} to start the pile{one.group(2) or ''}" if one else note
    frozen = m.group(3) or ""
    return f"turned up {m.group(1)}{m.group(2)} to start the pile; the upcard is {m.group(2)}{frozen}"


_TO_MELD = re.compile(r"^(layoff|swap) (\S+) -> (\d+)( low| high)?$")
#: A canasta add: ``add 2 JK -> J``, ``add 2 -> wild`` (Railroad's wild meld).
_ADD = re.compile(r"^add (.+) -> (\S+)$")
#: The meld an add names, in a player's words (other ranks: ``9`` -> ``9s``).
_MELD_WORDS = {"A": "aces", "J": "jacks", "Q": "queens", "K": "kings", "wild": "wild meld"}


def action_past(action: str) -> str:
    """An action's notation as a log says it was done, in the past tense (its cards kept in
    notation): ``discard Q`` -> ``discarded Q``, ``draw`` -> ``drew``, ``meld done`` ->
    ``laid down the staged melds``, ``layoff 9H -> 2`` -> ``laid off 9H on meld #2``, ``add 2 JK
    -> J`` -> ``added 2 JK to the jacks``; an action
    this does not know is returned as it is."""
    a = action.strip()
    if a in _WHOLE_PAST:
        return _WHOLE_PAST[a]
    m = _TO_MELD.match(a)
    if m:
        # Shanghai's table melds are numbered: "laid off 3♠ on meld #3", not "-> 3", which
        # read as the 3s (SH-9.3, SH-9.4)
        if m.group(1) == "layoff":
            return f"laid off {m.group(2)} on meld #{m.group(3)}{m.group(4) or ''}"
        return f"swapped {m.group(2)} for the joker of meld #{m.group(3)}"
    m = _ADD.match(a)
    if m:
        # "added 2 Jk to the jacks", not the notation's arrow (CC-6.6, RR-6.8)
        return f"added {m.group(1)} to the {_MELD_WORDS.get(m.group(2), m.group(2) + 's')}"
    verb, _, rest = a.partition(" ")
    if verb == "ask" and rest.isdigit():
        # "ask 0": the partner by seat, named where names are known ("asked 0" read raw)
        return f"asked seat {rest} \u201cmay I go out?\u201d"
    past = _VERB_PAST.get(verb)
    return f"{past} {rest}" if past else a


def take_upcards(entries: Sequence[Any]) -> list[str | None]:
    """Per log entry (``(seat, action, note)`` tuples or ``{"seat", "action", "note"}``
    dicts), the upcard a bare ``take`` took (the card of the discard before it, or the deal's
    upcard), ``None`` for every other entry: a bare take lays the upcard on the taker's meld
    of its rank (CC-8.5, RR-8.4), which its note ("takes the pile (2 cards)") does not say."""
    out: list[str | None] = []
    top: str | None = None
    for e in entries:
        action, note = (e["action"], e["note"]) if isinstance(e, dict) else (e[1], e[2])
        action, note = (action or "").strip(), (note or "").strip()
        pile = note.lower().startswith(("takes the pile", "took the pile"))
        out.append(top if action == "take" and pile else None)
        if action.startswith("discard ") and _ONLY_CARDS.match(note):
            top = note.split()[-1]
        elif not action and note.startswith("upcard "):
            top = note.split(" (")[0].split()[-1]  # "upcard 2S JK 5S (pile frozen)": 5S
        elif action.startswith("take") or action == "deal":
            top = None
    return out


def log_line(action: str, note: str, note_style: str = "dim",
             upcard: str | None = None) -> Text:
    """A log entry as one past-tense sentence, card tokens in suit symbols: the action
    (:func:`action_past`, bold) then its note (:func:`past_tense`): ``discarded Q♥`` (a note
    that is the card itself stands for the action's cards), ``took the pile with 5 5; took
    the pile (38 cards)`` is said ``took the pile (38 cards) with 5 5``, ``drew; placed
    3♦``; a bare verb that its note says again (``take`` / ``takes the pile``, ``buy`` /
    ``buys 5♥``, Shanghai's ``draw`` / ``declines 10♠``, ``pass`` / ``did not buy``) is the
    note alone; a note alone is plain.  (It read ``discard Q — Q♥``, a command beside a past
    tense, which players found mixed.)"""
    text = Text()
    verb = action.strip()
    if verb == "kitty" and note and not note.startswith(("takes the kitty", "took the kitty")):
        note = f"took the kitty; {note}"  # "kitty" alone did not say it was taken
        verb = ""
    low = note.lower()
    if verb and " " not in verb and (low.startswith((verb.lower() + "s ", verb.lower() + " "))
                                     or low.startswith(_WHOLE_PAST.get(verb, "\0"))
                                     or (verb == "draw" and low.startswith(("declines ",
                                                                            "declined ")))
                                     or (verb == "pass" and low.startswith(("did not ",
                                                                            "does not ",
                                                                            "left ",
                                                                            "leaves ")))):
        # a bare verb whose note says it again ("take — takes the pile (2 cards)"): the note
        # alone, in the log's past tense
        said = past_tense(note)
        if verb == "take" and upcard and low.startswith(("takes the pile", "took the pile")):
            # which meld the upcard went on (a tester read "took the pile (2 cards)" fifteen
            # times without knowing where the card went)
            rank = upcard[:-1] if upcard[:-1] else upcard
            said += f", putting the upcard {upcard} on the {_MELD_WORDS.get(rank, rank + 's')}"
        text.append_text(notation_text(said, style=note_style))
        return text
    if not verb:
        if note:
            text.append_text(notation_text(_turned_up(note)))
        return text
    head, _, rest = verb.partition(" ")
    if note and rest and _ONLY_CARDS.match(note.strip()):
        # "discard Q" whose note is the card discarded (Q♥): said once, with its suit
        text.append_text(notation_text(f"{action_past(head + ' x')[:-2]} {note.strip()}",
                                       style="bold"))
        return text
    if note and head == "take" and rest and low.startswith(("took the pile", "takes the pile")):
        # "took the pile (38 cards) with 5 5[; placed 3♦]"
        took, sep, more = past_tense(note).partition("; ")
        # "take J J, 10 10 10": the take's cards, then the other melds made with it
        first, _, others = rest.partition(", ")
        said = f"{took} with {first}" + (f", melding {others} with it" if others else "")
        text.append_text(notation_text(said, style="bold"))
        if sep:
            text.append("; ", style="dim")
            text.append_text(notation_text(more, style=note_style))
        return text
    if note and head == "contract" and low.startswith(("makes the contract", "made the "
                                                        "contract")):
        # "made the contract 7♠ 7♥ Jk=7♦, 5♠ 6♠ 7♠ 8♠ (melds 1, 2)"
        _, paren, tail = note.partition(" (")
        text.append_text(notation_text(f"made the contract {rest}", style="bold"))
        if paren:
            text.append_text(notation_text(f" ({tail}", style=note_style))
        return text
    if head == "out" and rest:
        # "out A A A, K K K; discard 4": "went out with A A A, K K K, discarding 4"
        melds, _, card = rest.partition("; discard ")
        said = f"went out with {melds}" + (f", discarding {card}" if card else "")
        text.append_text(notation_text(said, style="bold"))
    else:
        text.append_text(notation_text(action_past(verb), style="bold"))
    if note:
        text.append("; ", style="dim")
        text.append_text(notation_text(past_tense(note), style=note_style))
    return text


def seat_label(seat: int, names: Sequence[str] | None) -> str:
    """``seat 2 (heuristic)``; ``table`` for seat -1."""
    if seat < 0:
        return "table"
    if names and seat < len(names) and names[seat]:
        return f"seat {seat} ({names[seat]})"
    return f"seat {seat}"


def column_labels(players: int, ncols: int, side_of: Sequence[int],
                  names: Sequence[str] | None = None, short: bool = False) -> list[str]:
    """Labels of the score columns: per seat where scores are personal, else per side."""
    if ncols == players:
        return [seat_label(s, None if short else names) for s in range(players)]
    labels = []
    for side in range(ncols):
        seats = [s for s in range(players) if side_of[s] == side]
        if short:
            labels.append(f"side {side}")
        else:
            who = ", ".join(str(s) for s in seats)
            you = ""
            if names and any(names[s] == "you" for s in seats if s < len(names)):
                you = ", you"
            labels.append(f"side {side} (seats {who}{you})")
    return labels


#: A log note's third-person verb in the past tense: the log says what was done ("You:
#: draws …" read wrong, and the other players' lines then read alike).
_PAST = {"draws": "drew", "takes": "took", "places": "placed", "buys": "bought",
         "declines": "declined", "passes": "passed", "melds": "melded", "discards": "discarded",
         "goes": "went", "lays": "laid", "swaps": "swapped", "asks": "asked",
         "answers": "answered", "gets": "got", "receives": "received", "does": "did",
         "makes": "made", "leaves": "left"}


_ENDS = re.compile(r"^((?:deal|hand) \d+) ends\b")
_SEAT_VERB = re.compile(r"\b(seat \d+) (" + "|".join(_PAST) + r")\b")
_AFTER_SEMI = re.compile(r"; (" + "|".join(_PAST) + r")\b")


def past_tense(note: str, action: str = "") -> str:
    """A log note in the past tense: ``draws from the stock (8♦)`` -> ``drew from the stock
    (8♦)``, ``declines 2♦`` -> ``declined 2♦``; a note repeating its action's verb (``buy —
    buys 5♥``) keeps its verb here: :func:`log_line` says it once."""
    # "deal 1 ends: seat 2 goes out" -> "deal 1 ended: seat 2 went out"
    note = _ENDS.sub(r"\1 ended", note)
    note = _SEAT_VERB.sub(lambda m: f"{m.group(1)} {_PAST[m.group(2)]}", note)
    # "took the kitty; places 3♦" -> "…; placed 3♦"
    note = _AFTER_SEMI.sub(lambda m: f"; {_PAST[m.group(1)]}", note)
    head, sep, rest = note.partition(" ")
    if head not in _PAST or (action and head == action.split(" ", 1)[0] + "s"):
        return note
    return _PAST[head] + sep + rest


#: A Shanghai deal's end: "…; totals 30, 0, 5, 5" (SH-13), the totals in seat order.
_TOTALS = re.compile(r"; totals (-?\d+(?:, -?\d+)*)(?=;|$)")


def named_note(note: str, names: Sequence[str] | None) -> str:
    """A table note with its seats named as everywhere else (``deal 1 ended: seat 3 went out``
    -> ``… seat 3 (heuristic) went out``) and a deal's totals said whose they are: ``totals
    30, 0`` -> ``totals: seat 0 (you) 30, seat 1 (heuristic) 0``."""
    if names:
        note = re.sub(r"\bseat (\d+)\b(?! \()", lambda m: seat_label(int(m.group(1)), names)
                      if int(m.group(1)) < len(names) else m.group(0), note)
    return _TOTALS.sub(lambda m: "; totals: " + ", ".join(
        f"{seat_label(i, names)} {v}" for i, v in enumerate(m.group(1).split(", "))), note)


def log_text(entries: Sequence[Any], names: Sequence[str] | None, last: int = 8) -> Text:
    """The last ``last`` public log entries, one a line (entries are ``(seat, action, note)``
    tuples or the observation's ``{"seat", "action", "note"}`` dicts)."""
    rows = []
    for e in entries:
        if isinstance(e, dict):
            rows.append((e["seat"], e["action"], e["note"]))
        else:
            rows.append(tuple(e))
    ups = take_upcards(rows)
    if last:
        rows, ups = rows[-last:], ups[-last:]
    text = Text()
    for i, ((seat, action, note), up) in enumerate(zip(rows, ups)):
        if i:
            text.append("\n")
        text.append(seat_label(seat, names) + ": ", style="dim")
        text.append_text(log_line(action, named_note(past_tense(note, action), names),
                                  upcard=up))
    if not rows:
        text.append("(nothing yet)", style="dim")
    return text


def outcome_view(outcome: Outcome, players: int, side_of: Sequence[int],
                 names: Sequence[str] | None = None, *, unit: str = "hand") -> RenderableType:
    """A hand's (``unit``: a deal's) score breakdown per side (rule ID, label, points), with
    totals."""
    how = HOW_TEXT.get(outcome.how, outcome.how)
    head = f"{unit.capitalize()} {outcome.hand + 1} is over: "
    if outcome.went_out is not None:
        head += f"{seat_label(outcome.went_out, names)} {how}"
    else:
        head += how
    tables: list[RenderableType] = [Text(head, style="bold")]
    ncols = len(outcome.results)
    labels = column_labels(players, ncols, side_of, names)
    if any(len(r.seats) > 1 for r in outcome.results) or ncols != players:
        labels = []
        for r in outcome.results:
            seats = ", ".join(str(s) for s in r.seats)
            labels.append(f"side {r.side} (seats {seats})" if len(r.seats) > 1
                          else seat_label(r.seats[0], names))
    for r, label in zip(outcome.results, labels):
        t = Table(title=escape(label), title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False)
        t.add_column("Rule", no_wrap=True)
        t.add_column("")
        t.add_column("Points", justify="right")
        for ln in r.lines:
            t.add_row(ln.rule_id, notation_text(_whose(score_label(ln.label), names)),
                      f"{ln.points:+d}")
        if not r.lines:
            t.add_row("", Text("(nothing)", style="dim"), "0")
        t.add_section()
        t.add_row("", Text(f"{unit} score", style="bold"), Text(f"{r.hand_score:+d}",
                                                                  style="bold"))
        t.add_row("", Text("total", style="bold"), Text(str(r.total), style="bold"))
        tables.append(t)
    return Group(tables[0], Columns(tables[1:], padding=(0, 4)))


def score_sheet(outcomes: Sequence[Outcome], players: int, side_of: Sequence[int],
                names: Sequence[str] | None = None, *, unit: str = "hand",
                note: str = "") -> Table:
    """The score sheet: a row per hand (``unit``: deal), with the hand score and running total
    per side; ``note`` (e.g. "lowest wins") goes into the title."""
    ncols = max((len(o.results) for o in outcomes), default=0)
    labels = column_labels(players, ncols, side_of, names)
    t = Table(title="Score sheet" + (f" ({note})" if note else ""), box=box.SIMPLE_HEAD,
              pad_edge=False)
    t.add_column(unit.capitalize(), justify="right")
    t.add_column("Ended", no_wrap=True)
    for label in labels:
        t.add_column(escape(label), justify="right")
    for o in outcomes:
        how = HOW_TEXT.get(o.how, o.how)
        if o.went_out is not None:
            how = f"{seat_label(o.went_out, names)} {how}"
        cells = [f"{r.hand_score:+d} → {r.total}" for r in o.results]
        t.add_row(str(o.hand + 1), escape(how), *cells)
    if outcomes and outcomes[-1].game_over:
        last = outcomes[-1]
        winners = ", ".join(labels[w] for w in last.winners if w < len(labels))
        t.caption = f"Winner{'s' if len(last.winners) > 1 else ''}: {escape(winners)}"
    return t


def order_actions(actions: Sequence[Action], titles: dict[str, str]) -> list[Action]:
    """The actions grouped in the order of ``titles`` (first word -> title; the others last),
    keeping their order within a group: the numbered list then reads top to bottom."""
    order = {t: k for k, t in enumerate(dict.fromkeys(titles.values()))}

    def rank(a: Action) -> tuple[int, int]:
        text = str(a)
        head = text.split(" ", 1)[0]
        # stage actions: melds of natural cards only first (the usual choice), then the rest
        wild = head == "stage" and any(t in ("2", "JK") or t.startswith("JK=")
                                       for t in text.split()[1:])
        return order.get(titles.get(head, ""), len(order)), int(wild)

    return sorted(actions, key=rank)


def legal_view(actions: Sequence[Action], titles: dict[str, str] | None = None,
               max_per_group: int = 40, caps: dict[str, int] | None = None) -> RenderableType:
    """The legal actions, numbered from 1, grouped by their first word (draw, take, meld …);
    ``titles`` names the groups (first word -> title); ``caps`` shows fewer of some groups
    (first word -> how many)."""
    titles = titles or {}
    groups: dict[str, list[tuple[int, str]]] = {}
    limits: dict[str, int] = {}
    for i, a in enumerate(actions, 1):
        text = str(a)
        head = text.split(" ", 1)[0]
        title = titles.get(head, head.capitalize())
        groups.setdefault(title, []).append((i, text))
        if caps and head in caps:
            limits[title] = caps[head]
    rows: list[RenderableType] = []
    for title, items in groups.items():
        shown = items[:min(max_per_group, limits.get(title, max_per_group))]
        cells = []
        for i, text in shown:
            cell = Text(f"{i:>2})", style="cyan")
            cell.append(" ")
            cell.append_text(notation_text(text))  # suit symbols, as the table and log
            cells.append(cell)
        if len(items) > len(shown):
            cells.append(Text(f"… {len(items) - len(shown)} more ('legal all')", style="dim"))
        rows.append(Text(f"{title}:", style="bold"))
        rows.append(Padding(Columns(cells, padding=(0, 3)), (0, 0, 0, 2)))
    return Group(*rows)


def table_panel(parts: list[RenderableType], title: str, *, log: Sequence[Any] = (),
                names: Sequence[str] | None = None, log_lines: int = 8,
                hands: Sequence[tuple[str, Text]] = (),
                status: Text | None = None) -> Panel:
    """A game's table: its own ``parts`` first, then the last actions, the hands shown (each a
    ``(label, cards)`` pair) and the status line, in a titled panel."""
    parts = list(parts)
    if log_lines:
        parts.append(Text("Last actions:", style="bold"))
        parts.append(Padding(log_text(log, names, log_lines), (0, 0, 0, 2)))
    for label, cards in hands:
        parts.append(HandLine(Text(label + ": ", style="bold"), cards))
    if status is not None:
        parts.append(status)
    return Panel(Group(*parts), title=escape(title), title_align="left", box=box.ROUNDED)


class HandLine:
    """A labelled hand (``Your hand (13): 2♣ │ A♠ A♦ │ …``) that wraps only between groups,
    where the separator is left out: a wrapped line never ends or begins with ``│`` (beside
    a panel's border it read as a stray ``│ │``).  Continuation lines are indented by two
    columns.  A rich renderable: its layout depends on the width it is given."""

    def __init__(self, label: Text, cards: Text):
        self.label = label
        self.cards = cards

    def _groups(self) -> list[Text]:
        plain = self.cards.plain
        groups, start = [], 0
        while True:
            i = plain.find(GROUP_SEPARATOR, start)
            if i < 0:
                groups.append(self.cards[start:])
                return groups
            groups.append(self.cards[start:i])
            start = i + len(GROUP_SEPARATOR)

    def __rich_console__(self, console, options):
        width = options.max_width
        line = self.label.copy()
        first = True
        for g in self._groups():
            if not first and line.cell_len + len(GROUP_SEPARATOR) + g.cell_len > width:
                yield line
                line = Text("  ")
                first = True
            if not first:
                line.append(GROUP_SEPARATOR, style="dim")
            line.append_text(g)
            first = False
        yield line

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement

        whole = self.label.cell_len + self.cards.cell_len
        widest = max((g.cell_len for g in self._groups()), default=0) + 2
        return Measurement(min(widest, whole), whole)


class PiecesLine:
    """Pieces of text side by side (``8 8 8  K×5 2  4 4 Jk``: a seat's melds) that wrap only
    between pieces, never inside one: a meld split over two lines read as two melds.  A
    piece wider than the width wraps on its own line.  A rich renderable: its layout depends
    on the width it is given."""

    def __init__(self, pieces: Sequence[Text], sep: str = "  ", empty: Text | None = None):
        self.pieces = list(pieces)
        self.sep = sep
        self.empty = empty if empty is not None else Text()

    def __rich_console__(self, console, options):
        if not self.pieces:
            yield self.empty
            return
        width = options.max_width
        line = Text()
        for p in self.pieces:
            if line.cell_len and line.cell_len + len(self.sep) + p.cell_len > width:
                yield line
                line = Text()
            if line.cell_len:
                line.append(self.sep)
            line.append_text(p)
        yield line

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement

        if not self.pieces:
            return Measurement(self.empty.cell_len, self.empty.cell_len)
        whole = sum(p.cell_len for p in self.pieces) + len(self.sep) * (len(self.pieces) - 1)
        return Measurement(min(max(p.cell_len for p in self.pieces), whole), whole)


def hand_label(seat: int, me: int, count: int, names: Sequence[str] | None,
               face_up: bool) -> str:
    """``Your hand (13)`` for the observer, ``Hand of seat 2 (random) (11)`` otherwise."""
    if seat == me and not face_up:
        return f"Your hand ({count})"
    return f"Hand of {seat_label(seat, names)} ({count})"


#: What the seat to act may do, per phase: ``(said to that player, said of another player)``;
#: the web table's header says the same (``phaseText`` in ``web/js/board.js``).  ``{up}`` is
#: the upcard.
CANASTA_PHASE_TEXT = {
    "draw": ("Draw or take the pile", "to draw or take the pile"),
    "meld": ("Meld or discard", "to meld or discard"),
    "consent": ("Your partner asks “may I go out?”: answer yes or no",
                "to answer “may I go out?”"),
    "hand_end": ("The hand is over: deal the next one", "to deal the next hand"),
    "kitty": ("Take your kitty, or pass (it waits for a later discard)",
              "to take the kitty or pass"),
    "choice": ("Go out, or take your kitty", "to go out or take the kitty"),
}
SHANGHAI_PHASE_TEXT = {
    "upcard": ("Take {up}, or draw from the stock", "to take {up} or draw"),
    "buy": ("Buy {up}? (+1 penalty card)", "to buy {up} or pass"),
    "meld": ("Meld or discard", "to meld or discard"),
    "deal_end": ("The deal is over: start the next one", "to start the next deal"),
}


#: A canasta draw with the pile out of reach (the web header says the same).
DRAW_ONLY = "Draw (the pile cannot be taken now)"
#: The meld phase with only discards legal (Shanghai's contract turn, SH-9.1; a canasta hand
#: with nothing to meld); the web header says the same.
DISCARD_ONLY = "Discard"
#: The meld phase with melds staged and no discard: ``[game][commit legal]`` (CC-6.9,
#: RR-6.11, SH-8.1); the web header says the same.
STAGED_TEXT = {
    "canasta": {True: "Stage more, commit the staged melds (meld done), or withdraw",
                False: "Stage more melds to reach the minimum, or withdraw"},
    "shanghai-rummy": {True: "Lay down the contract (contract done), or withdraw",
                       False: "Stage the rest of the contract, or withdraw"},
}

#: The commands beside a status of :func:`phase_text` that the legal moves narrowed.
NARROWED_HOW = {
    DRAW_ONLY: "'draw'",
    DISCARD_ONLY: "'discard …'",
    STAGED_TEXT["canasta"][True]: "'stage …', 'meld done' or 'withdraw'",
    STAGED_TEXT["canasta"][False]: "'stage …' or 'withdraw'",
    STAGED_TEXT["shanghai-rummy"][True]: "'contract done' or 'withdraw'",
    STAGED_TEXT["shanghai-rummy"][False]: "'stage …' or 'withdraw'",
}


def how_for(what: str, default: str) -> str:
    """The commands to show beside the status ``what`` (a :func:`phase_text`): the narrowed
    status's own (:data:`NARROWED_HOW`), else the phase's ``default``."""
    return NARROWED_HOW.get(what, default)


def phase_text(game: str, phase: str, mine: bool, upcard: str | None = None,
               legal: Sequence[str] | None = None) -> str | None:
    """What the seat to act may do in ``phase`` of ``game``, for people: ``"Meld or discard"``
    to that player (``mine``), ``"to meld or discard"`` of another; ``upcard`` in notation
    (``"AS"``, shown ``A♠``).  ``None`` for a phase without a decision (``game_over``).
    ``legal``: the player's legal moves in notation, if known; a canasta draw whose only one
    is ``draw`` (the pile blocked, or frozen without a natural pair: CC-8, RR-8) is
    :data:`DRAW_ONLY`, not "Draw or take the pile" (a tester read that as a move there was
    not)."""
    if (mine and phase == "draw" and game != "shanghai-rummy" and legal is not None
            and list(legal) == ["draw"]):
        return DRAW_ONLY
    if mine and phase == "meld" and legal:
        # what the moves allow, not "Meld or discard" where one of the two is not there (a
        # tester read it with only discards legal after a contract, and with staged melds)
        ds = [a for a in legal if a.startswith("discard ")]
        if len(ds) == len(legal):
            return DISCARD_ONLY
        if not ds and any(a.startswith("withdraw") for a in legal):
            if game == "shanghai-rummy":
                return STAGED_TEXT["shanghai-rummy"]["contract done" in legal]
            return STAGED_TEXT["canasta"]["meld done" in legal]
    texts = (SHANGHAI_PHASE_TEXT if game == "shanghai-rummy" else CANASTA_PHASE_TEXT).get(phase)
    if texts is None:
        return None
    up = pretty_notation(upcard) if upcard else "the upcard"
    return texts[0 if mine else 1].format(up=up)


def to_act_text(seat: int, names: Sequence[str] | None, what: str,
                mine: bool | None = None, how: str = "") -> Text:
    """Whose move it is and what they may do: ``Your move: Meld or discard`` (``mine``, or
    ``names[seat] == "you"``), ``Waiting for seat 1 (random) to draw or take the pile``
    otherwise (``what``: the :func:`phase_text` for that reader); ``how``, dim after it,
    names the commands."""
    if mine is None:
        mine = names is not None and seat < len(names) and names[seat] == "you"
    if mine:
        t = Text("Your move: ", style="bold")
        t.append(what, style="bold green")
    else:
        t = Text("Waiting for ", style="bold")
        t.append(seat_label(seat, names))
        t.append(f" {what}")
    if how:
        t.append(f"  ({how})", style="dim")
    return t


class _FoldingTable(TableElement):
    """A Markdown table whose cells wrap long words (an option name such as
    ``hidden_canasta_bonus``) onto the next line instead of cutting them with "…"."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = Table(box=box.SIMPLE, pad_edge=False, style="markdown.table.border",
                      show_edge=True, collapse_padding=True)
        rows = [[c.content for c in row.cells] for row in self.body.rows] if self.body else []
        if self.header is not None and self.header.row is not None:
            for i, column in enumerate(self.header.row.cells):
                heading = column.content.copy()
                heading.stylize("markdown.table.header")
                # room for the column's longest word (an option name), within reason
                longest = max((len(w) for r in rows if i < len(r)
                               for w in r[i].plain.split()), default=0)
                table.add_column(heading, overflow="fold", min_width=min(longest, 24))
        for row in rows:
            table.add_row(*row)
        yield table


class RulesMarkdown(Markdown):
    """Rich's Markdown for the rules: tables keep every word of every cell at any width."""

    elements = {**Markdown.elements, "table_open": _FoldingTable}
