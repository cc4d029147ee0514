"""Drawing Classic Canasta for the terminal with rich: the table, score breakdowns, score sheets.

Everything here draws from an :class:`~meldhall.game.Observation` (what one seat may know);
the replay's all-hands view passes the hands explicitly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
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

HOW_TEXT = {
    "went_out": "went out",
    "went_out_concealed": "went out concealed",
    "stock_exhausted": "the stock ran out",
    "last_red_three": "the last card of the stock was a red three",
}

_GROUP_TITLES = {
    "draw": "Draw", "take": "Take the pile", "meld": "Meld", "add": "Add to a meld",
    "out": "Go out", "discard": "Discard", "ask": "Ask partner", "yes": "Answer",
    "no": "Answer", "pass": "Pass", "deal": "Deal",
}


def card_text(card: Card) -> Text:
    """A card with its suit symbol, red suits in red, wild cards bold."""
    if card.rank == 0:
        return Text("Jk", style="bold magenta")
    style = "red" if card.is_red else ""
    if card.rank == 2:
        style = (style + " bold").strip()
    return Text(card.pretty, style=style)


def sort_cards(cards: Sequence[Card]) -> list[Card]:
    """Cards in display order: wild cards, then A K … 4, then threes; by suit within a rank."""
    return sorted(cards, key=lambda c: (_KIND_POS.get(c.rank, 99), c.suit or 0, c.deck))


def hand_text(cards: Sequence[Card]) -> Text:
    """A hand sorted and grouped by rank: ``Jk 2♠ │ A♥ A♦ │ Q♦ …``."""
    text = Text()
    groups: list[list[Card]] = []
    for c in sort_cards(cards):
        if groups and groups[-1][0].rank == c.rank:
            groups[-1].append(c)
        else:
            groups.append([c])
    for i, g in enumerate(groups):
        if i:
            text.append(" │ ", style="dim")
        for j, c in enumerate(g):
            if j:
                text.append(" ")
            text.append_text(card_text(c))
    if not groups:
        text.append("(no cards)", style="dim")
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


def log_text(entries: Sequence[Any], names: Sequence[str] | None, last: int = 8) -> Text:
    """The last ``last`` public log entries, one a line (entries are ``(seat, action, note)``
    tuples or the observation's ``{"seat", "action", "note"}`` dicts)."""
    rows = []
    for e in entries:
        if isinstance(e, dict):
            rows.append((e["seat"], e["action"], e["note"]))
        else:
            rows.append(tuple(e))
    rows = rows[-last:] if last else rows
    text = Text()
    for i, (seat, action, note) in enumerate(rows):
        if i:
            text.append("\n")
        text.append(seat_label(seat, names) + ": ", style="dim")
        if action:
            text.append(action, style="bold")
        if note:
            text.append(("  " if action else "") + note, style="" if not action else "dim")
    if not rows:
        text.append("(nothing yet)", style="dim")
    return text


def _meld_text(m: dict[str, Any]) -> Text:
    tokens = m["spec"].split()
    rank = m["rank"]
    nat = sum(1 for t in tokens if t == rank)
    wild = [t for t in tokens if t != rank]
    body = f"{rank}×{nat}" if nat > 1 else rank
    if wild:
        body += " " + " ".join("Jk" if w == "JK" else w for w in wild)
    t = Text()
    if m["canasta"]:
        style = "bold red" if m["canasta"] == "natural" else "bold blue"
        t.append(f"[{body}]", style=style)
        t.append(f" {m['canasta']}" + (" hidden" if m["hidden"] else "") + " canasta",
                 style=style)
    else:
        t.append(body)
    return t


def table_view(obs: Any, names: Sequence[str] | None = None, *,
               hands: dict[int, Sequence[Card]] | None = None, log_lines: int = 8,
               title: str | None = None) -> RenderableType:
    """The table as ``obs.seat`` sees it (Classic Canasta observation).

    Args:
        obs: the observation.
        names: a name per seat (``"you"``, ``"heuristic"`` …).
        hands: hands to show (seat -> cards); default: the observer's own hand only.
        log_lines: how many recent public log entries to show (0: none).
        title: the panel title (default: game, hand and dealer).
    """
    j = obs.to_json()
    p = obs.public
    n = j["players"]
    side_of = j["side_of"]
    scores = j["scores"]
    opts = obs.options
    me = obs.seat
    my_side = side_of[me] if 0 <= me < n else None
    melds = j["melds"]
    per_seat_scores = len(scores) == n

    sides = Table(box=box.SIMPLE_HEAD, expand=True, pad_edge=False, show_edge=False)
    sides.add_column("Side", no_wrap=True)
    sides.add_column("Score", justify="right", no_wrap=True)
    sides.add_column("Red 3s", no_wrap=True)
    sides.add_column("Melds", ratio=1)
    for side in range(len(melds)):
        seats = [s for s in range(n) if side_of[s] == side]
        if not seats and not melds[side]:
            continue
        who = Text()
        if len(seats) == 1:
            who.append(seat_label(seats[0], names))
        else:
            who.append(f"side {side}")
            who.append("\nseats " + ", ".join(str(s) for s in seats), style="dim")
        if side == my_side and names:
            who.stylize("bold")
        if per_seat_scores:
            score = Text("\n".join(str(scores[s]) for s in seats))
        else:
            score = Text(str(scores[side]) if side < len(scores) else "")
        minimum = j["minimums"][side] if side < len(j["minimums"]) else None
        if not melds[side] and minimum is not None:
            score.append(f"\nneeds {minimum}", style="yellow")
        r3 = Text()
        for s in seats:
            for c in p["red3"][s] and obs.pack.cards_of(p["red3"][s]) or []:
                if r3:
                    r3.append(" ")
                r3.append_text(card_text(c))
        ml = Text()
        for i, m in enumerate(melds[side]):
            if i:
                ml.append("  ")
            ml.append_text(_meld_text(m))
        if not melds[side]:
            ml.append("not melded yet", style="dim")
        sides.add_row(who, score, r3, ml)

    # pile, stock and hand sizes
    pile = j["pile"]
    up = obs.upcard()
    pile_t = Text("Pile: ", style="bold")
    if up is None:
        pile_t.append("empty")
    else:
        pile_t.append(f"{len(pile)} card{'s' if len(pile) != 1 else ''}, upcard ")
        pile_t.append_text(card_text(up))
        below = [obs.pack.cards[c] for c in p["pile"][-5:-1]]
        if below:
            pile_t.append("  (below: ", style="dim")
            for i, c in enumerate(reversed(below)):
                if i:
                    pile_t.append(" ", style="dim")
                pile_t.append(c.pretty, style="dim")
            pile_t.append(")", style="dim")
    flags = []
    if j["pile_frozen"]:
        flags.append(("FROZEN", "bold cyan"))
    elif opts.frozen_until_side_melds and up is not None:
        if hands is None and my_side is not None:
            if not melds[my_side]:
                flags.append(("frozen for your side until it melds (CC-8.4)", "cyan"))
        else:
            unmelded = [str(s) for s in range(len(melds)) if not melds[s]
                        and any(side_of[x] == s for x in range(n))]
            if unmelded:
                which = ", ".join(unmelded)
                plural = "s" if len(unmelded) > 1 else ""
                flags.append((f"frozen for side{plural} {which} until it melds (CC-8.4)",
                              "cyan"))
    if up is not None and (up.rank in (0, 2) or (up.rank == 3 and not up.is_red)):
        what = "a wild card" if up.rank in (0, 2) else "a black three"
        flags.append((f"BLOCKED: {what} on top (CC-8.2)", "bold yellow"))
    for f, style in flags:
        pile_t.append("  ")
        pile_t.append(f, style=style)
    stock_t = Text("Stock: ", style="bold")
    stock_t.append(str(j["stock_size"]))
    stock_t.append("   Cards in hand: ", style="bold")
    stock_t.append(", ".join(f"seat {s}: {c}" for s, c in enumerate(j["hand_sizes"])))

    parts: list[RenderableType] = [sides, pile_t, stock_t]
    if log_lines:
        parts.append(Text("Last actions:", style="bold"))
        parts.append(Padding(log_text(j["log"], names, log_lines), (0, 0, 0, 2)))
    show = hands if hands is not None else ({me: obs.hand_cards()} if 0 <= me < n else {})
    for seat, cards in show.items():
        label = "Your hand" if seat == me and hands is None else f"Hand of {seat_label(seat, names)}"
        h = Text(f"{label} ({len(cards)}): ", style="bold")
        h.append_text(hand_text(cards))
        parts.append(h)
    status = _status_line(j, names, p.get("asker_partner", -1))
    if status:
        parts.append(status)
    if title is None:
        title = (f"Classic Canasta · hand {j['hand_no'] + 1} · dealer seat {j['dealer']} · "
                 f"{n} players")
    return Panel(Group(*parts), title=escape(title), title_align="left", box=box.ROUNDED)


def _status_line(j: dict[str, Any], names: Sequence[str] | None, asked: int) -> Text | None:
    phase = j["phase"]
    if phase in ("hand_end", "game_over"):
        return None
    t = Text("To act: ", style="bold")
    if phase == "consent" and asked >= 0:
        t.append(seat_label(asked, names))
        t.append(f" answers {seat_label(j['turn'], names)}: \"may I go out?\"",
                 style="yellow")
        return t
    t.append(seat_label(j["turn"], names))
    t.append(f" ({phase})")
    if j["asked"] and j["permission"] is not None:
        t.append(f"  — partner answered {'yes' if j['permission'] else 'no'} to "
                 "\"may I go out?\"", style="yellow")
    return t


def outcome_view(outcome: Outcome, players: int, side_of: Sequence[int],
                 names: Sequence[str] | None = None) -> RenderableType:
    """A hand's score breakdown per side (rule ID, label, points), with totals."""
    how = HOW_TEXT.get(outcome.how, outcome.how)
    head = f"Hand {outcome.hand + 1} is over: "
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
            t.add_row(ln.rule_id, escape(ln.label), f"{ln.points:+d}")
        if not r.lines:
            t.add_row("", Text("(nothing)", style="dim"), "0")
        t.add_section()
        t.add_row("", Text("hand score", style="bold"), Text(f"{r.hand_score:+d}",
                                                               style="bold"))
        t.add_row("", Text("total", style="bold"), Text(str(r.total), style="bold"))
        tables.append(t)
    return Group(*tables)


def score_sheet(outcomes: Sequence[Outcome], players: int, side_of: Sequence[int],
                names: Sequence[str] | None = None) -> Table:
    """The score sheet: a row per hand (hand score and running total per side)."""
    ncols = max((len(o.results) for o in outcomes), default=0)
    labels = column_labels(players, ncols, side_of, names)
    t = Table(title="Score sheet", box=box.SIMPLE_HEAD, pad_edge=False)
    t.add_column("Hand", justify="right")
    t.add_column("Ended", no_wrap=True)
    for label in labels:
        t.add_column(escape(label), justify="right")
    for o in outcomes:
        how = HOW_TEXT.get(o.how, o.how)
        if o.went_out is not None:
            how = f"seat {o.went_out} {how}"
        cells = [f"{r.hand_score:+d} → {r.total}" for r in o.results]
        t.add_row(str(o.hand + 1), escape(how), *cells)
    if outcomes and outcomes[-1].game_over:
        last = outcomes[-1]
        winners = ", ".join(labels[w] for w in last.winners if w < len(labels))
        t.caption = f"Winner{'s' if len(last.winners) > 1 else ''}: {escape(winners)}"
    return t


def legal_view(actions: Sequence[Action], max_per_group: int = 40) -> RenderableType:
    """The legal actions, numbered from 1, grouped by kind (draw, take, meld, add …)."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for i, a in enumerate(actions, 1):
        text = str(a)
        head = text.split(" ", 1)[0]
        groups.setdefault(_GROUP_TITLES.get(head, head), []).append((i, text))
    rows: list[RenderableType] = []
    for title, items in groups.items():
        shown = items[:max_per_group]
        cells = []
        for i, text in shown:
            cell = Text(f"{i:>2})", style="cyan")
            cell.append(" " + text)
            cells.append(cell)
        if len(items) > len(shown):
            cells.append(Text(f"… {len(items) - len(shown)} more ('legal all')", style="dim"))
        rows.append(Text(f"{title}:", style="bold"))
        rows.append(Padding(Columns(cells, padding=(0, 3)), (0, 0, 0, 2)))
    return Group(*rows)
