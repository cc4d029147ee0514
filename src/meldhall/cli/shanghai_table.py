"""The Shanghai Rummy table, drawn from one seat's observation (its ``to_json`` fields).

Per player: score (lowest wins), cards held, buys used and left, whether the contract is made and
the upcards known to be in the hand; the deal's contract; the melds on the table, numbered for
lay-offs, with each joker's declared card (``JK=7D``); the upcard, the buy order while it is on
offer, the pile and the stock.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from meldhall.cards import Card, parse_card
from meldhall.cli import render
from meldhall.cli.render import seat_label


def by_suit(card: Card) -> tuple:
    """Sort key of a Shanghai hand: by suit (S H D C), then rank (A low), jokers last."""
    return (card.rank == 0, card.suit or 0, card.rank, card.deck)


def physical_cards(names: Sequence[str]) -> list[Card]:
    """Cards from their physical notation (``7H/1``)."""
    return [parse_card(x) for x in names]


def shanghai_card(name: str) -> Text:
    """A card in notation (``7H``, ``JK=7D``) shown with its suit symbol (``7♥``, ``Jk=7♦``),
    red suits in red, jokers bold."""
    card = name.split("=", 1)[-1]
    style = "red" if card[-1:] in ("H", "D") else ""
    if name.startswith("JK"):
        style = (style + " bold").strip() if "=" in name else "bold magenta"
    return Text(render.pretty_notation(name), style=style)


def meld_cards_text(cards: str) -> Text:
    """A table meld in notation, ``5D 6D JK=7D 8D``, coloured."""
    t = Text()
    for i, tok in enumerate(cards.split()):
        if i:
            t.append(" ")
        t.append_text(shanghai_card(tok))
    return t


def buys_text(used: int, limit: int | None) -> Text:
    """``1 used, 2 left`` (SH-10.6)."""
    if limit is None:
        return Text(f"{used} used (no limit)")
    left = max(limit - used, 0)
    return Text(f"{used} used, {left} left", style="" if left else "dim")


def log_note(action: str, note: str) -> str:
    """A log note, completed: a 'pass' (only ever an answer to a buy offer) does not buy."""
    if not note and action == "pass":
        return "does not buy"
    return note


def _meld_kind(m: dict[str, Any]) -> str:
    toks = [t.split("=", 1)[-1] for t in m["cards"].split()]
    if m["kind"] == "set":
        return f"set of {toks[0][:-1]}s"
    return render.pretty_notation(f"run {toks[0]}–{toks[-1]}")


#: The commands of each phase, after what the player may do.
_HOW = {
    "upcard": "'take' or 'draw'",
    "buy": "'buy' or 'pass'",
    "meld": "make the contract, lay off, exchange jokers; then 'discard …'",
}


def shanghai_table(obs: Any, names: Sequence[str] | None = None, *,
                   hands: dict[int, Sequence[Card]] | None = None, log_lines: int = 8,
                   title: str | None = None, sort: str | None = None,
                   legal: Sequence[str] | None = None, **_: Any) -> RenderableType:
    """The Shanghai Rummy table as ``obs.seat`` sees it (hands by suit; ``sort="rank"``: by
    rank; ``legal``: the seat's legal moves in notation, if known, for its status line).

    Args:
        obs: the observation.
        names: a name per seat.
        hands: hands to show face up (seat -> cards); default: the observer's own hand.
        log_lines: how many recent log entries to show (0: none).
        title: the panel title (default: game, deal, dealer).
    """
    j = obs.to_json()
    n = j["players"]
    me = obs.seat
    face_up = hands is not None
    contract = j["contract"]
    limit = j["buy_limit"]

    head = Text(f"Contract {contract['number']}: {contract['text']}", style="bold")
    head.append(f" ({contract['cards']} cards, exact sizes)", style="dim")

    players = Table(box=box.SIMPLE_HEAD, expand=True, pad_edge=False, show_edge=False)
    players.add_column("Player", no_wrap=True)
    players.add_column("Score", justify="right", no_wrap=True)
    players.add_column("Cards", justify="right", no_wrap=True)
    players.add_column("Buys", no_wrap=True)
    players.add_column("Contract", no_wrap=True)
    # what the table knows of each hand: the cards it took or bought (an empty column read as
    # missing data at the start of a deal)
    players.add_column("Known in hand", ratio=1)
    for s in range(n):
        who = Text(seat_label(s, names), style="bold" if s == me and not face_up else "")
        made = (Text("made ✓", style="bold green") if j["made_contract"][s]
                else Text("not yet", style="dim"))
        known = (render.cards_text(physical_cards(j["known_in_hand"][s]), wild_twos=False)
                 if j["known_in_hand"][s] else Text("none", style="dim"))
        players.add_row(who, str(j["scores"][s]), str(j["hand_sizes"][s]),
                        buys_text(j["buys"][s], limit), made, known)
    players.caption = ("Scores: lowest wins (SH-13.3).  Known in hand: cards a player took or "
                       "bought, still held.")

    parts: list[RenderableType] = [head, players]
    if j["melds"]:
        head = Text("Melds on the table", style="bold")
        head.append(" — lay off by number: 'layoff 9H -> 2' (9H is 9♥); exchange a joker: "
                    "'swap 7D -> 2'", style="dim")
        parts.append(head)
        melds = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        melds.add_column("#", justify="right")
        melds.add_column("Owner", no_wrap=True)
        melds.add_column("Meld", no_wrap=True)
        melds.add_column("Cards")
        for m in j["melds"]:
            melds.add_row(str(m["number"]), seat_label(m["owner"], names), _meld_kind(m),
                          meld_cards_text(m["cards"]))
        parts.append(melds)
    else:
        parts.append(Text("No melds on the table yet.", style="dim"))
    parts.append(_pile_text(obs, j, names))

    if hands is None:  # not face_up
        hands = {me: obs.hand_cards()} if 0 <= me < n else {}
    staged = [] if face_up else list(j.get("staged") or [])
    rows = []
    for s, c in hands.items():
        label = render.hand_label(s, me, len(c), names, face_up)
        if s == me and staged:
            # staged melds stay in the hand until committed (SH-8.1): shown on their own row
            held = len(c)
            c = without_staged(c, staged)
            label = f"Your hand ({len(c)}, and {held - len(c)} in staged melds)"
        rows.append((label, render.hand_text(c, wild_twos=False) if sort == "rank" else
                     render.hand_text(sorted(c, key=by_suit), by_suit=True, wild_twos=False)))
    if staged:
        rows.append(staged_row(obs, staged))
    if title is None:
        title = (f"Shanghai Rummy · deal {j['deal']} of {obs.options.deals} · dealer seat "
                 f"{j['dealer']} · {n} players")
    log = [(e["seat"], e["action"], log_note(e["action"], e["note"])) for e in j["log"]]
    return render.table_panel(parts, title, log=log, names=names, log_lines=log_lines,
                       hands=rows,
                       status=_status(j, names, obs.options.discard_taken_upcard, face_up,
                                      None if obs.upcard() is None else str(obs.upcard()),
                                      legal))


def without_staged(cards: Sequence[Card], staged: Sequence[str]) -> list[Card]:
    """The hand's cards less those of the staged melds (``staged``: the observation's
    ``to_json()["staged"]``, melds in notation such as ``7S 7H JK=7D``; SH-8.1): a natural
    card by rank and suit, a joker by being a joker, whatever it is declared as."""
    left = list(cards)
    for meld in staged:
        for tok in meld.split():
            if tok.startswith("JK"):
                match = next((i for i, c in enumerate(left) if c.rank == 0), None)
            else:
                want = parse_card(tok)
                match = next((i for i, c in enumerate(left)
                              if c.rank == want.rank and c.suit == want.suit), None)
            if match is not None:
                del left[match]
    return left


def staged_row(obs: Any, staged: Sequence[str]) -> tuple[str, Text]:
    """The seat's own staged melds (SH-8.1), how many of the contract's melds they are, and
    what commits them: ``("Staged (only you see them)", 7♠ 7♥ Jk=7♦   1 of 2 melds …)``."""
    contract = obs.contract
    needed = contract.sets + contract.runs
    t = Text()
    for i, meld in enumerate(staged):
        if i:
            t.append("  |  ", style="dim")
        t.append_text(meld_cards_text(meld))
    t.append(f"   {len(staged)} of {needed} meld{'s' if needed != 1 else ''} of the contract "
             "staged", style="green" if len(staged) >= needed else "yellow")
    if len(staged) < needed:
        t.append("  — stage the others, or 'withdraw all' to discard without the contract; "
                 "'undo' takes the last back", style="dim")
    else:
        t.append("  — 'contract done' commits them; 'undo' takes the last back", style="dim")
    return ("Staged (only you see them)", t)


def _top_is_last_discard(log: Sequence[Any]) -> bool:
    """Whether the upcard is the last card discarded: a buy since takes that card away
    (SH-10.3), and the card under it, now the upcard, was discarded by someone else earlier
    (a tester read "8♠ (discarded by seat 2)" of the deal's first upcard)."""
    for _seat, action, _note in reversed(log):
        head = str(action).split(" ", 1)[0]
        if head == "discard":
            return True
        if head in ("buy", "take", "deal"):
            return False
    return False


def _pile_text(obs: Any, j: dict[str, Any], names: Sequence[str] | None) -> Text:
    t = Text("Upcard: ", style="bold")
    up = obs.upcard()
    if up is None:
        t.append("none (the pile is empty)", style="dim")
    else:
        t.append_text(render.card_text(up, wild_twos=False))
        frm = obs.public["upcard_from"]
        if j["phase"] == "buy":
            t.append(f"  on offer: {seat_label(j['turn'], names)} declined it; buy order: "
                     + ", ".join(seat_label(s, names) for s in j["buy_offer_order"]),
                     style="yellow")
        elif frm is not None and frm >= 0 and _top_is_last_discard(obs.log):
            t.append(f" (discarded by {seat_label(frm, names)})", style="dim")
    t.append("   Pile: ", style="bold")
    t.append(str(len(j["pile"])))
    t.append("   Stock: ", style="bold")
    t.append(str(j["stock_size"]))
    if j["rebuilds"]:
        t.append(f" (rebuilt {j['rebuilds']}×)", style="dim")
    return t


def _status(j: dict[str, Any], names: Sequence[str] | None, discard_taken: bool,
            face_up: bool = False, upcard: str | None = None,
            legal: Sequence[str] | None = None) -> Text | None:
    phase = j["phase"]
    if phase not in _HOW:
        return None
    seat = j["to_act"][0] if phase == "buy" and j["to_act"] else j["turn"]
    mine = seat == j["seat"] and not face_up
    what = render.phase_text("shanghai-rummy", phase, mine, upcard, legal=legal) or phase
    how = render.how_for(what, _HOW[phase]) if mine else ""
    t = render.to_act_text(seat, names, what, mine=mine, how=how)
    if phase == "meld" and j["taken_upcard"]:
        own = j["turn"] == j["seat"] and not face_up
        t.append(f"\n{'You' if own else seat_label(j['turn'], names)} took the upcard "
                 f"{render.pretty_notation(j['taken_upcard'].split('/')[0])} this turn"
                 + ("" if discard_taken else " and may not discard that card (SH-6.5)"),
                 style="dim")
    return t
