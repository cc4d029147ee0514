"""Classic Canasta positions: a full state as a JSON document (docs/positions.md)."""

from __future__ import annotations

from typing import Any

from meldhall.cards import Card, Pack, parse_card
from meldhall.errors import NotationError, RecordError
from meldhall.game import Outcome, ScoreLine, SideResult
from meldhall.record import POSITION_FORMAT, VERSION

__all__ = ["dump_position", "load_position"]


def _cards_json(pack: Pack, mask: int) -> list[str]:
    return [c.physical for c in pack.cards_of(mask)]


def _outcome_json(oc: Outcome | None):
    return oc.to_json() if oc is not None else None


def _outcome_load(d) -> Outcome | None:
    if d is None:
        return None
    results = tuple(
        SideResult(r["side"], tuple(r["seats"]),
                   tuple(ScoreLine(ln["rule"], ln["label"], ln["points"]) for ln in r["lines"]),
                   r["hand_score"], r["total"])
        for r in d["results"]
    )
    return Outcome(d["hand"], d["how"], d["went_out"], results, d["game_over"],
                   tuple(d.get("winners") or ()))


def dump_position(s) -> dict[str, Any]:
    from meldhall.games.canasta.actions import format_kind

    pack = s.pack
    melds = []
    for side_melds in s.melds:
        lst = []
        for m in side_melds:
            if m is not None:
                lst.append({"rank": format_kind(m.rank), "cards": _cards_json(pack, m.mask),
                            "hidden": m.hidden, "creator": m.creator})
        melds.append(lst)
    log = []
    for seat, action, note in s.public_log():
        log.append([seat, action, note])
    return {
        "format": POSITION_FORMAT,
        "version": VERSION,
        "game": "classic-canasta",
        "options": s.options.to_json(),
        "seed": s.seed,
        "hand_no": s.hand_no,
        "dealer": s.dealer,
        "scores": list(s.scores),
        "side_of": list(s.side_of),
        "turn": s.turn,
        "phase": s._phase,
        "stock": [pack.cards[c].physical for c in reversed(s.stock)],
        "hands": [_cards_json(pack, h) for h in s.hands],
        "pile": [pack.cards[c].physical for c in s.pile],
        "pile_frozen": s.pile_frozen,
        "melds": melds,
        "red_threes": [_cards_json(pack, m) for m in s.red3],
        "known": [_cards_json(pack, m) for m in s.known],
        "turn_state": {
            "asked": s.asked,
            "permission": s.permission,
            "asked_partner": s.asker_partner,
            "pile_cards": _cards_json(pack, s.pile_cards),
            "took_pile": s.took,
            "melds_made": s.melds_made,
            "new_meld_ranks": [format_kind(r) for r in range(14) if (s.new_ranks >> r) & 1],
            "concealed_possible": s.conceal_ok,
            "black_three_meld_made": s.b3_done,
            "no_discard": s.no_discard,
        },
        "seats_melded": [x for x in range(s.players) if (s.seat_melded >> x) & 1],
        "first_taker": s.first_taker,
        "went_out": s.went_out,
        "outcome": _outcome_json(s._outcome),
        "log": log,
    }


def load_position(d: dict[str, Any]):
    from meldhall.games.canasta.actions import parse_kind
    from meldhall.games.classic_canasta.options import ClassicCanastaOptions
    from meldhall.games.classic_canasta.state import (
        _PHASES,
        ClassicCanastaState,
        _Meld,
    )

    opts = ClassicCanastaOptions.from_json(d.get("options") or {})
    pack = Pack.get(opts.decks, opts.jokers)
    n = opts.player_count
    seen = 0

    def card_id(text: str) -> int:
        nonlocal seen
        if "/" not in text:
            raise RecordError(f"position cards need their deck index, e.g. 7H/1 (got {text!r})")
        try:
            c: Card = parse_card(text)
        except NotationError as exc:
            raise RecordError(str(exc)) from None
        i = pack.id_of(c)
        if (seen >> i) & 1:
            raise RecordError(f"card {text} appears twice in the position")
        seen |= 1 << i
        return i

    def mask_of(lst, *, count=True) -> int:
        m = 0
        for t in lst:
            if count:
                m |= 1 << card_id(t)
            else:
                m |= 1 << pack.id_of(parse_card(t))
        return m

    s = ClassicCanastaState.blank()
    s.options = opts
    s.pack = pack
    s.seed = int(d.get("seed", 0))
    s.hand_no = int(d.get("hand_no", 0))
    s.dealer = int(d.get("dealer", 0))
    side_of = tuple(int(x) for x in d["side_of"]) if "side_of" in d else (
        tuple(x % 2 for x in range(n)) if n in (4, 6) else tuple(range(n)))
    if len(side_of) != n:
        raise RecordError(f"side_of must list {n} seats")
    s.side_of = side_of
    s.nsides = max(side_of) + 1 if not opts.cutthroat else 3
    ncols = n if opts.cutthroat else (2 if n in (4, 6) else n)
    scores = tuple(int(x) for x in d.get("scores", [0] * ncols))
    if len(scores) != ncols:
        raise RecordError(f"scores must have {ncols} entries")
    s.scores = scores
    s.turn = int(d["turn"])
    if not 0 <= s.turn < n:
        raise RecordError(f"turn must be a seat 0..{n - 1}")
    phase = d["phase"]
    if phase not in _PHASES:
        raise RecordError(f"unknown phase {phase!r}; expected one of {', '.join(_PHASES)}")
    s._phase = phase
    stock = [card_id(t) for t in d["stock"]]
    s.stock = tuple(reversed(stock))
    hands = d["hands"]
    if len(hands) != n:
        raise RecordError(f"hands must list {n} seats")
    s.hands = tuple(mask_of(h) for h in hands)
    s.pile = tuple(card_id(t) for t in d["pile"])
    s.pile_frozen = bool(d.get("pile_frozen", False))
    melds_in = d.get("melds") or [[] for _ in range(s.nsides)]
    if len(melds_in) != s.nsides:
        raise RecordError(f"melds must list {s.nsides} sides")
    melds = []
    for side, lst in enumerate(melds_in):
        slots = [None] * 14
        for m in lst:
            rank = parse_kind(str(m["rank"]))
            if slots[rank] is not None:
                raise RecordError(f"side {side} has two melds of {m['rank']} (CC-6.4)")
            mask = mask_of(m["cards"])
            nat = (mask & pack.rank_mask[rank]).bit_count()
            tw = (mask & pack.rank_mask[2]).bit_count() if rank != 2 else 0
            jk = (mask & pack.rank_mask[0]).bit_count()
            if nat + tw + jk != mask.bit_count():
                raise RecordError(f"meld of {m['rank']} holds cards of another rank")
            slots[rank] = _Meld(rank, mask, nat, tw, jk, bool(m.get("hidden", False)),
                                int(m.get("creator", -1)))
        melds.append(tuple(slots))
    s.melds = tuple(melds)
    s.red3 = tuple(mask_of(x) for x in d.get("red_threes", [[] for _ in range(n)]))
    if len(s.red3) != n:
        raise RecordError(f"red_threes must list {n} seats")
    if seen != pack.full_mask:
        missing = pack.cards_of(pack.full_mask & ~seen)
        raise RecordError(
            f"{len(missing)} card(s) of the pack are missing from the position, e.g. "
            + " ".join(c.physical for c in missing[:5]))
    s.known = tuple(mask_of(x, count=False) & s.hands[i]
                    for i, x in enumerate(d.get("known", [[] for _ in range(n)])))
    ts = d.get("turn_state") or {}
    s.asked = bool(ts.get("asked", False))
    s.permission = ts.get("permission")
    s.asker_partner = int(ts.get("asked_partner", -1))
    s.pile_cards = mask_of(ts.get("pile_cards", []), count=False)
    s.took = bool(ts.get("took_pile", False))
    s.melds_made = int(ts.get("melds_made", 0))
    nr = 0
    for r in ts.get("new_meld_ranks", []):
        nr |= 1 << parse_kind(str(r))
    s.new_ranks = nr
    sm = 0
    for x in d.get("seats_melded", []):
        sm |= 1 << int(x)
    s.seat_melded = sm
    s.conceal_ok = bool(ts.get("concealed_possible", not (sm >> s.turn) & 1))
    s.b3_done = bool(ts.get("black_three_meld_made", False))
    s.no_discard = bool(ts.get("no_discard", False))
    s.first_taker = d.get("first_taker")
    s.went_out = d.get("went_out")
    s._outcome = _outcome_load(d.get("outcome"))
    log = None
    for entry in d.get("log", []):
        log = (log, (int(entry[0]), str(entry[1]), str(entry[2]) if len(entry) > 2 else ""))
    s.log = log
    s._cache = None
    return s
