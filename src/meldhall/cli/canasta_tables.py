"""The canasta tables: Classic Canasta and Railroad Canasta, drawn from one seat's observation.

The two games share the pile line (upcard, cards below, frozen and blocked), the red threes,
the stock line and the meld bodies; each draws its own players' table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from meldhall.cards import Card
from meldhall.cli.render import (
    DRAW_ONLY,
    how_for,
    card_text,
    cards_text,
    hand_label,
    hand_text,
    notation_text,
    phase_text,
    PiecesLine,
    seat_label,
    suit_sort,
    table_panel,
    to_act_text,
)
from meldhall.games.railroad_canasta.options import GOING_OUT_NEEDS

#: Railroad canasta types (RR-6.9) in display order, with their colours.
CANASTA_TYPE_STYLES = {"red": "bold red", "black": "bold", "wild": "bold magenta",
                       "sevens": "bold yellow"}
#: What each Railroad canasta type is made of (RR-6.9; the bonus of RR-13.2).
CANASTA_TYPE_TEXT = {
    "red": "seven natural cards of one rank other than 7, no wild card (500)",
    "black": "one rank other than 7 with one to three wild cards (300)",
    "wild": "seven wild cards (1,000)",
    "sevens": "seven natural sevens (1,500)",
}
#: The Railroad canasta types in words (the help, and once at the start of a game).
CANASTA_TYPES_LEGEND = ("Canasta types (RR-6.9): " + "; ".join(
    f"{k}: {v}" for k, v in CANASTA_TYPE_TEXT.items()) + ".")

def canasta_types_line(requirement: str) -> str:
    """The one line under the Railroad table: the marks, what going out needs under this
    table's ``go_out_requirement`` (RR-11.1), and where the types are explained (the whole
    legend is shown once, at the start; on every table it was four lines of noise)."""
    needs = GOING_OUT_NEEDS.get(requirement, GOING_OUT_NEEDS["all_four"])
    return (f"✓ done, · not yet; going out needs {needs} (RR-11.1); the canasta types: "
            "'rules RR-6.9' or 'help'.")
#: Canasta types that make a Railroad player kitty-eligible (RR-10.2).
KITTY_TYPES = frozenset({"red", "wild", "sevens"})


# --------------------------------------------------------------------------- shared pieces


def meld_body(m: dict[str, Any]) -> str:
    """A meld's cards in short: ``K×5 2 Jk``, ``8 8 2``, ``4 4 4 4 2``, ``wild 2 2 Jk``.

    The naturals are counted (``K×5``) only in a canasta, a meld of seven cards or more, which
    players square up into one stack; shorter melds are written out card by card, so ``8 8 8``
    never sits beside a counted ``4×4`` (CC-6.6, RR-6.9)."""
    tokens = m["spec"].split()
    rank = m["rank"]
    nat = sum(1 for t in tokens if t == rank)
    wild = ["Jk" if w == "JK" else w for w in tokens if w != rank]
    if rank == "wild":
        return "wild " + " ".join(wild)
    body = f"{rank}×{nat}" if len(tokens) >= 7 else " ".join([rank] * max(nat, 1))
    if wild:
        body += " " + " ".join(wild)
    return body


def melds_text(melds: Sequence[dict[str, Any]],
               one: Callable[[dict[str, Any]], Text]) -> PiecesLine:
    """A player's or side's melds, each drawn by ``one``, or "not melded yet"; a long row
    wraps between melds, never inside one."""
    return PiecesLine([one(m) for m in melds], empty=Text("not melded yet", style="dim"))


def red_threes_text(obs: Any, seats: Sequence[int]) -> Text:
    """The red threes placed by ``seats``."""
    cards: list[Card] = []
    for s in seats:
        mask = obs.public["red3"][s]
        if mask:
            cards.extend(obs.pack.cards_of(mask))
    return cards_text(cards)


def blocked_flag(up: Card | None, rule: str, red_three: bool = False) -> tuple[str, str] | None:
    """The "blocked" flag of a pile whose top card is wild or a black three (or, ``red_three``,
    a red three upcard), naming ``rule``."""
    if up is None:
        return None
    if up.rank in (0, 2):
        what = "a wild card"
    elif up.rank == 3 and (red_three or not up.is_red):
        what = "a red three" if up.is_red else "a black three"
    else:
        return None
    return f"BLOCKED: {what} on top ({rule})", "bold yellow"


def pile_text(obs: Any, j: dict[str, Any], flags: Sequence[tuple[str, str]]) -> Text:
    """``Pile: 6 cards, upcard 9♥  (below: 4♣ K♦ …)  FROZEN …``."""
    pile = j["pile"]
    up = obs.upcard()
    t = Text("Pile: ", style="bold")
    if up is None:
        t.append("empty")
    else:
        t.append(f"{len(pile)} card{'s' if len(pile) != 1 else ''}, upcard ")
        t.append_text(card_text(up))
        below = [obs.pack.cards[c] for c in obs.public["pile"][-5:-1]]
        if below:
            t.append("  (below: " + " ".join(c.pretty for c in reversed(below)) + ")",
                     style="dim")
    for f, style in flags:
        t.append("  ")
        t.append(f, style=style)
    return t


def stock_text(j: dict[str, Any]) -> Text:
    """``Stock: 80   Cards in hand: seat 0: 11, …   To go out: 1 canasta (CC-10.1)``."""
    t = Text("Stock: ", style="bold")
    t.append(str(j["stock_size"]))
    t.append("   Cards in hand: ", style="bold")
    t.append(", ".join(f"seat {s}: {c}" for s, c in enumerate(j["hand_sizes"])))
    go = j.get("going_out")
    if go:
        # what going out needs, on the table (a tester learned it only from a refusal)
        t.append("   To go out: ", style="bold")
        t.append(f"{go['needs']} ({go['rule']})")
    return t


def _hand(cards: Sequence[Card], sort: str | None) -> Text:
    """A hand by rank (the default) or, ``sort="suit"``, by suit."""
    if sort == "suit":
        return hand_text(suit_sort(cards), by_suit=True)
    return hand_text(cards)


def _hand_rows(obs: Any, names: Sequence[str] | None,
               hands: dict[int, Sequence[Card]] | None,
               sort: str | None = None) -> list[tuple[str, Text]]:
    me = obs.seat
    face_up = hands is not None
    show = hands if hands is not None else (
        {me: obs.hand_cards()} if 0 <= me < obs.players else {})
    rows = []
    for s, cards in show.items():
        label = hand_label(s, me, len(cards), names, face_up)
        if s == me and not face_up and getattr(obs, "staged", ()):
            # staged melds stay in the hand (CC-6.9) but are shown on their own row
            cards = _without_staged(list(cards), obs.staged)
            label = f"Your hand ({len(cards)}, and {len(obs.hand_cards()) - len(cards)} in " \
                    "staged melds)"
        rows.append((label, _hand(cards, sort)))
    staged = staged_row(obs)
    if staged is not None:
        rows.append(staged)
    return rows


def _without_staged(cards: list[Card], staged) -> list[Card]:
    """The hand's cards less those of the staged melds (by kind: naturals, twos, jokers)."""
    for sp in staged:
        for kind, n in ((sp.rank, sp.naturals), (2, sp.twos), (0, sp.jokers)):
            for _ in range(n):
                for i in range(len(cards) - 1, -1, -1):
                    if cards[i].rank == kind:
                        del cards[i]
                        break
    return cards


def staged_row(obs: Any) -> tuple[str, Text] | None:
    """The seat's own staged melds (CC-6.9, RR-6.11) with the count against the minimum and
    what commits them; ``None`` with nothing staged."""
    staged = getattr(obs, "staged", ())
    if not staged:
        return None
    j = obs.to_json()
    side = j["side_of"][obs.seat]
    minimum = (j.get("minimums") or [None] * (side + 1))[side]
    t = Text()
    for i, sp in enumerate(staged):
        if i:
            t.append("  |  ", style="dim")
        t.append_text(notation_text(str(sp), style="bold"))  # "Jk", as the hand says
        if i == 0 and obs.staged_upcard:
            t.append(" + upcard", style="bold")
    count = j.get("staged_count", 0)
    t.append(f"   count {count}" + (f" of {minimum}" if minimum else ""),
             style="green" if minimum is None or count >= minimum else "yellow")
    if minimum and count < minimum and not obs.staged_upcard:
        # nothing but staging or withdrawing is legal until the count is reached (CC-6.9)
        t.append(f"  — stage more melds to reach {minimum} (or go out concealed with a "
                 "last discard), or 'withdraw all' to discard without melding; 'undo' takes "
                 "the last back", style="dim")
        return ("Staged (only you see them)", t)
    how = ("'take' commits them" if obs.staged_upcard else
           "'meld done' commits them (or a last discard that goes out concealed)")
    t.append(f"  — {how}; 'undo' takes the last back", style="dim")
    return ("Staged (only you see them)", t)


# --------------------------------------------------------------------------- Classic Canasta


def _classic_meld_text(m: dict[str, Any]) -> Text:
    body = meld_body(m)
    t = Text()
    if m["canasta"]:
        style = "bold red" if m["canasta"] == "natural" else "bold blue"
        t.append(f"[{body}]", style=style)
        t.append(f" {m['canasta']}" + (" hidden" if m["hidden"] else "") + " canasta",
                 style=style)
    else:
        t.append(body)
    return t


def classic_table(obs: Any, names: Sequence[str] | None = None, *,
                  hands: dict[int, Sequence[Card]] | None = None, log_lines: int = 8,
                  title: str | None = None, sort: str | None = None,
                  legal: Sequence[str] | None = None, **_: Any) -> RenderableType:
    """The Classic Canasta table as ``obs.seat`` sees it (``sort="suit"``: hands by suit).

    Args:
        obs: the observation.
        names: a name per seat (``"you"``, ``"heuristic"`` …).
        hands: hands to show (seat -> cards); default: the observer's own hand only.
        log_lines: how many recent public log entries to show (0: none).
        title: the panel title (default: game, hand and dealer).
        legal: the observer's legal moves in notation when it is to act (the status then
            says when the pile is out of reach); ``None``: not known.
    """
    j = obs.to_json()
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
        sides.add_row(who, score, red_threes_text(obs, seats),
                      melds_text(melds[side], _classic_meld_text))

    up = obs.upcard()
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
    blocked = blocked_flag(up, "CC-8.2")
    if blocked:
        flags.append(blocked)

    if title is None:
        title = (f"Classic Canasta · hand {j['hand_no'] + 1} · dealer seat {j['dealer']} · "
                 f"{n} players")
    return table_panel(
        [sides, pile_text(obs, j, flags), stock_text(j)], title, log=j["log"], names=names,
        log_lines=log_lines, hands=_hand_rows(obs, names, hands, sort),
        status=_classic_status(j, names, obs.public.get("asker_partner", -1),
                               obs,
                               hands is not None, legal))


#: The commands of each Classic phase, after what the player may do.
_CC_HOW = {"draw": "'draw' or 'take …'", "meld": "'meld …', 'add …', then 'discard …'"}


def _classic_status(j: dict[str, Any], names: Sequence[str] | None, asked: int, obs: Any,
                    face_up: bool = False, legal: Sequence[str] | None = None
                    ) -> Text | None:
    phase = j["phase"]
    if phase in ("hand_end", "game_over"):
        return None
    if phase == "consent" and asked >= 0:
        if asked == j["seat"] and not face_up:
            return to_act_text(asked, names, phase_text("classic-canasta", phase, True) or "",
                               mine=True, how="'y' or 'n'")
        t = Text("Waiting for ", style="bold")
        t.append(seat_label(asked, names))
        t.append(f" to answer {seat_label(j['turn'], names)}: \"may I go out?\"",
                 style="yellow")
        return t
    mine = j["turn"] == j["seat"] and not face_up
    what = phase_text("classic-canasta", phase, mine, legal=legal) or phase
    how = how_for(what, _CC_HOW.get(phase, "")) if mine else ""
    t = to_act_text(j["turn"], names, what, mine=mine, how=how)
    _why_no_take(t, what, obs)
    if j["asked"] and j["permission"] is not None:
        t.append(f"  — partner answered {'yes' if j['permission'] else 'no'} to "
                 "\"may I go out?\"", style="yellow")
    return t


def _why_no_take(t: Text, what: str, obs: Any) -> None:
    """Under a draw with the pile out of reach (:data:`DRAW_ONLY`), why, with its rule (a
    tester held J J J with a J upcard and was not told of the minimum count)."""
    if what != DRAW_ONLY or obs is None:
        return
    e = obs.why_no_take()
    if e is not None:
        t.append("\nWhy: ", style="dim")
        t.append_text(notation_text(f"{e.reason} ({e.rule_id}).", style="dim"))


# --------------------------------------------------------------------------- Railroad Canasta


def _railroad_meld_text(m: dict[str, Any]) -> Text:
    body = meld_body(m)
    if m["rank"] == "3":
        body += " (black threes)"
    if m["canasta"]:
        style = CANASTA_TYPE_STYLES.get(m["canasta"], "bold")
        return Text(f"[{body}] {m['canasta']}", style=style)
    return Text(body)


def canasta_types_text(melds: Sequence[dict[str, Any]]) -> Text:
    """The four canasta types (RR-6.9): the completed ones in colour (``×n`` for several), the
    missing ones dim."""
    counts = {k: 0 for k in CANASTA_TYPE_STYLES}
    for m in melds:
        if m["canasta"] in counts:
            counts[m["canasta"]] += 1
    t = Text()
    for i, (kind, style) in enumerate(CANASTA_TYPE_STYLES.items()):
        if i:
            t.append(" ")
        if counts[kind]:
            t.append("✓" + kind + (f"×{counts[kind]}" if counts[kind] > 1 else ""), style=style)
        else:
            t.append("·" + kind, style="dim")
    return t


def missing_types(melds: Sequence[dict[str, Any]]) -> list[str]:
    """Canasta types not yet completed, in display order."""
    done = {m["canasta"] for m in melds if m["canasta"]}
    return [k for k in CANASTA_TYPE_STYLES if k not in done]


def _kitty_cell(j: dict[str, Any], seat: int, face_up: bool, mine: bool = True) -> Text:
    types = set(j["canasta_types"][seat])
    if j["kitty_taken"][seat]:
        return Text("taken", style="dim")
    t = Text(f"{j['kitty_sizes'][seat]} cards")
    if types & KITTY_TYPES:
        t.append("\neligible", style="green")
    else:
        # a player waited all hand for the kitty prompt: say what opens it (RR-10.2)
        # (a tester read "needs a red, wild or sevens canasta" as cryptic: say what it opens)
        t.append("\nyours to take\nonce you close\na red, wild or\nsevens canasta" if mine else
                 "\ntheirs to take\nonce they close\na red, wild or\nsevens canasta", style="dim")
    return t


def sevens_lock_text(j: dict[str, Any], mode: str) -> Text | None:
    """The sevens lock (RR-9.6) as it stands: who still lacks a sevens canasta."""
    if mode == "never":
        return None
    lacking = [s for s in range(j["players"]) if "sevens" not in j["canasta_types"][s]]
    t = Text("Sevens lock (RR-9.6): ", style="bold")
    if mode == "discarding_player":
        if lacking:
            t.append("a player may discard sevens once they have a sevens canasta; still "
                     "locked for seat" + ("s " if len(lacking) > 1 else " ")
                     + ", ".join(map(str, lacking)), style="yellow")
        else:
            t.append("lifted for every player", style="green")
        return t
    if lacking:
        who = ("nobody has one yet" if len(lacking) == j["players"] else "still missing: seat"
               + ("s " if len(lacking) > 1 else " ") + ", ".join(map(str, lacking)))
        t.append("in force — no seven may be discarded until every player has a sevens canasta"
                 f" ({who})", style="yellow")
    else:
        t.append("lifted: every player has a sevens canasta", style="green")
    return t


#: The commands of each Railroad phase, after what the player may do.
_RR_HOW = {
    "draw": "'draw' takes two from the stock; 'take …' the pile",
    "meld": "'meld …', 'add …', then 'discard …'",
    "kitty": "'kitty' or 'pass'",
    "choice": "'go out' or 'kitty' (RR-11.7)",
}


def railroad_table(obs: Any, names: Sequence[str] | None = None, *,
                   hands: dict[int, Sequence[Card]] | None = None,
                   kitties: dict[int, Sequence[Card]] | None = None, log_lines: int = 8,
                   title: str | None = None, sort: str | None = None,
                   legal: Sequence[str] | None = None, **_: Any) -> RenderableType:
    """The Railroad Canasta table as ``obs.seat`` sees it: per player the score and minimum
    count, the kitty (size, taken, eligible), the canasta types completed, red threes, closed
    canastas and open melds; the pile, the stock, the sevens lock and the last actions.

    ``hands`` and ``kitties`` (seat -> cards) show those face up (the replay's all-hands view);
    by default the observer's own hand, and its kitty once the observer may look at it
    (RR-10.2), are shown.  ``legal``: the observer's legal moves in notation when it is to act
    (the status then says when the pile is out of reach, RR-8); ``None``: not known.
    """
    j = obs.to_json()
    n = j["players"]
    me = obs.seat
    face_up = hands is not None
    melds = j["melds"]

    players = Table(box=box.SIMPLE_HEAD, expand=True, pad_edge=False, show_edge=False)
    players.add_column("Player", no_wrap=True)
    players.add_column("Score", justify="right", no_wrap=True)
    players.add_column("Kitty", no_wrap=True)
    players.add_column("Canastas, red threes, melds", ratio=1)
    for s in range(n):
        who = Text(seat_label(s, names), style="bold" if s == me and not face_up else "")
        if not melds[s]:
            who.append(f"\nneeds {j['minimums'][s]} to meld", style="yellow")
        cell = canasta_types_text(melds[s])
        r3 = red_threes_text(obs, [s])
        if r3:
            cell.append("   red 3s: ", style="dim")
            cell.append_text(r3)
        players.add_row(who, str(j["scores"][s]), _kitty_cell(j, s, face_up, s == me),
                        Group(cell, melds_text(melds[s], _railroad_meld_text)))

    up = obs.upcard()
    flags = []
    blocked = blocked_flag(up, "RR-8.2", red_three=True)
    if blocked:
        # blocked first, and said as what it means now: "take only with a natural pair"
        # beside it read as a contradiction (RR-8.2 decides while the block lasts)
        flags.append((blocked[0] + ": nobody may take the pile now", blocked[1]))
        if j["pile_frozen"]:
            flags.append(("FROZEN: once covered, take only with a natural pair (RR-8.3, "
                          "RR-8.4)", "bold cyan"))
    elif j["pile_frozen"]:
        flags.append(("FROZEN: take only with a natural pair (RR-8.3, RR-8.4)", "bold cyan"))
    parts: list[RenderableType] = [players, Text(canasta_types_line(
                                       obs.options.go_out_requirement), style="dim"),
                                   pile_text(obs, j, flags), stock_text(j)]
    lock = sevens_lock_text(j, obs.options.sevens_lock)
    if lock is not None:
        parts.append(lock)

    rows = _hand_rows(obs, names, hands, sort)
    if kitties is None:
        kitties = {}
        if not face_up and j["my_kitty"] is not None:
            kitties = {me: sorted_kitty(obs, obs.private["kitty"])}
    for s, cards in kitties.items():
        label = ("Your kitty" if s == me and not face_up else f"Kitty of {seat_label(s, names)}")
        rows.append((f"{label} ({len(cards)}, not taken yet)", _hand(cards, sort)))
    if title is None:
        title = (f"Railroad Canasta · hand {j['hand_no'] + 1} · dealer seat {j['dealer']} · "
                 f"{n} players · target {obs.options.target_score}")
    return table_panel(parts, title, log=j["log"], names=names, log_lines=log_lines,
                       hands=rows, status=_railroad_status(j, obs, names, face_up, legal))


def sorted_kitty(obs: Any, mask: int) -> list[Card]:
    """The cards of a kitty bitmask."""
    return list(obs.pack.cards_of(mask))


def _railroad_status(j: dict[str, Any], obs: Any, names: Sequence[str] | None,
                     face_up: bool, legal: Sequence[str] | None = None) -> Text | None:
    phase = j["phase"]
    if phase not in _RR_HOW:
        return None
    me = j["seat"]
    mine = j["turn"] == me and not face_up
    what = phase_text("railroad-canasta", phase, mine, legal=legal) or phase
    how = how_for(what, _RR_HOW[phase]) if mine else ""
    t = to_act_text(j["turn"], names, what, mine=mine, how=how)
    _why_no_take(t, what, obs)
    if not face_up and 0 <= me < j["players"] and obs.options.go_out_requirement == "all_four":
        missing = missing_types(j["melds"][me])
        if missing:
            t.append("\nTo go out you still need a canasta of each type: "
                     + ", ".join(missing) + " (RR-11.1)", style="dim")
        else:
            t.append("\nYou have every canasta type: you may go out (RR-11.1, RR-11.2)",
                     style="green")
    return t
