"""Shanghai Rummy positions: a full state as a JSON document (docs/positions.md).

A position describes one moment of a deal: its ``log`` is this deal's log (seat, action, public
note, private detail); the game's earlier actions belong to its record.  Every physical card of
the pack appears exactly once: in the stock (listed top first), the
discard pile (bottom first), a hand, or a meld.  Cards are written with their copy index
(``7H/1``, ``JK/0``); a joker in a meld is written with its declared card, ``JK/0=7D``.
Runs list their cards low to high; a run's ace is low when it is first and high when it is
last.  ``staged`` lists the player in turn's staged melds (SH-8.1) in meld notation, by kind:
their cards are still in the hand; ``stages_this_turn`` counts the stage actions of this turn.
Positions written before staged melding have neither and load with nothing staged.

Example (keys that may be left out take the defaults shown in :func:`load_position`)::

    {"format": "meldhall-position", "version": 2, "game": "shanghai-rummy",
     "options": {"player_count": 4}, "hand_no": 2, "dealer": 0, "turn": 1, "phase": "meld",
     "stock": [...], "pile": [...], "hands": [[...], [...], [...], [...]],
     "melds": [{"owner": 1, "cards": ["5D/0", "6D/1", "JK/0=7D", "8D/0"]}],
     "made": [1], "buys": [0, 1, 0, 0], "rebuilds": 0,
     "staged": ["7S 7H JK=7D"], "stages_this_turn": 1,
     "turn_state": {"contract_this_turn": false, "taken_upcard": null, ...}}
"""

from __future__ import annotations

from typing import Any

from meldhall.cards import Pack, parse_card
from meldhall.errors import IllegalActionError, NotationError, RecordError
from meldhall.game import Outcome, ScoreLine, SideResult
import meldhall.games.shanghai._links as _links
from meldhall.games.shanghai.actions import parse_meld
from meldhall.games.shanghai.options import ShanghaiOptions
from meldhall.games.shanghai.rules import joker_limit, kind_name, parse_kind
from meldhall.games.shanghai.state import (
    BUY_PHASE,
    MELD,
    PHASES,
    STAGE_LIMIT,
    LogNode,
    ShanghaiState,
)
from meldhall.games.shanghai.table import TableMeld
from meldhall.record import POSITION_FORMAT, VERSION, document_options

__all__ = ["dump_position", "load_position"]


def _outcome_load(d: dict[str, Any] | None) -> Outcome | None:
    if d is None:
        return None
    results = tuple(
        SideResult(r["side"], tuple(r["seats"]),
                   tuple(ScoreLine(ln["rule"], ln["label"], ln["points"]) for ln in r["lines"]),
                   r["hand_score"], r["total"])
        for r in d["results"])
    return Outcome(d["hand"], d["how"], d["went_out"], results, d["game_over"],
                   tuple(d.get("winners") or ()))


def _bits(mask: int) -> list[int]:
    return [s for s in range(mask.bit_length()) if (mask >> s) & 1]


def dump_position(s: ShanghaiState) -> dict[str, Any]:
    """Describe a :class:`~meldhall.games.shanghai.state.ShanghaiState` completely."""
    pack = s.pack
    n52 = s.n52

    def phys(c: int) -> str:
        return pack.cards[c].physical

    entries = s._entries(s.log_mark)  # this deal's log: records carry the history
    melds = []
    for m in s.melds:
        cards = [phys(c) + ("=" + kind_name(d) if c >= n52 else "")
                 for c, d in zip(m.cards, m.decl)]
        melds.append({"owner": m.owner, "kind": "run" if m.run else "set", "cards": cards})
    return {
        "format": POSITION_FORMAT,
        "version": VERSION,
        "game": "shanghai-rummy",
        "options": s.options.to_json(),
        "seed": s.seed,
        "hand_no": s.hand_no,
        "dealer": s.dealer,
        "first_dealer": s.first_dealer,
        "scores": list(s.scores),
        "deal_scores": [list(d) for d in s.deal_scores],
        "extra_seats": list(s.extra_seats),
        "turn": s.turn,
        "phase": s._phase,
        "stock": [phys(c) for c in reversed(s.stock)],
        "pile": [phys(c) for c in s.pile],
        "hands": [[phys(c) for c in _ids(h)] for h in s.hands],
        "melds": melds,
        "made": _bits(s.made),
        "buys": list(s.buys),
        "rebuilds": s.rebuilds,
        "staged": [str(m) for m in s.staged],
        "stages_this_turn": s.stages,
        "known": [[phys(c) for c in _ids(h)] for h in s.known],
        "turn_state": {
            "contract_this_turn": s.contract_now,
            "jokers_laid_this_turn": s.jokers_now,
            "taken_upcard": phys(s.taken) if s.taken >= 0 else None,
            "buy_queue": list(s.queue),
            "upcard_from": s.upcard_from,
            "no_supply": s.no_supply,
        },
        "went_out": s.went_out,
        "outcome": s._outcome.to_json() if s._outcome is not None else None,
        "log": [list(e) for e in entries],
    }


def _ids(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def load_position(d: dict[str, Any], *, check_rules: bool = True) -> ShanghaiState:
    """Read a position document into a state.

    Raises:
        RecordError: malformed document, unknown cards, a card missing or listed twice, an
            illegal meld, or fields inconsistent with the phase.
    """
    opts = ShanghaiOptions.from_json(document_options(d))
    pack = Pack.get(opts.num_decks, opts.num_jokers)
    n52 = 52 * opts.num_decks
    n = opts.player_count
    seen = 0

    def card_id(text: str, *, count: bool = True) -> int:
        nonlocal seen
        if not isinstance(text, str) or "/" not in text:
            raise RecordError(f"position cards need their copy index, e.g. 7H/1 (got {text!r})")
        try:
            c = parse_card(text)
        except NotationError as exc:
            raise RecordError(str(exc)) from None
        try:
            i = pack.id_of(c)
        except NotationError as exc:
            raise RecordError(str(exc)) from None
        if count:
            if (seen >> i) & 1:
                raise RecordError(f"card {text} appears twice in the position")
            seen |= 1 << i
        return i

    def seat_list(name: str, default: list[Any] | None) -> list[Any]:
        v = d.get(name, default)
        if not isinstance(v, list) or len(v) != n:
            raise RecordError(f"{name} must list {n} seats")
        return v

    s = object.__new__(ShanghaiState)
    for name in ShanghaiState.__slots__:
        setattr(s, name, None)
    s.options = opts
    s.pack = pack
    s.n52 = n52
    s.seed = int(d.get("seed", 0))
    s.hand_no = int(d.get("hand_no", 0))
    if not 0 <= s.hand_no <= opts.deals:
        raise RecordError(f"hand_no must be 0..{opts.deals}")
    s.dealer = int(d.get("dealer", 0))
    s.first_dealer = int(d.get("first_dealer", s.dealer))
    s.turn = int(d.get("turn", (s.dealer + 1) % n))
    for name, v in (("dealer", s.dealer), ("first_dealer", s.first_dealer), ("turn", s.turn)):
        if not 0 <= v < n:
            raise RecordError(f"{name} must be a seat 0..{n - 1}")
    s.scores = tuple(int(x) for x in seat_list("scores", [0] * n))
    s.deal_scores = tuple(tuple(int(x) for x in row) for row in d.get("deal_scores", []))
    if any(len(r) != n for r in s.deal_scores):
        raise RecordError(f"each row of deal_scores must list {n} seats")
    s.extra_seats = tuple(int(x) for x in d.get("extra_seats", []))
    phase = d.get("phase", "upcard")
    if phase not in PHASES:
        raise RecordError(f"unknown phase {phase!r}; expected one of {', '.join(PHASES)}")
    s._phase = phase
    s.stock = tuple(reversed([card_id(t) for t in d.get("stock", [])]))
    s.pile = tuple(card_id(t) for t in d.get("pile", []))
    s.hands = tuple(sum(1 << card_id(t) for t in h) for h in seat_list("hands", None))
    melds: list[TableMeld] = []
    for i, md in enumerate(d.get("melds", [])):
        toks = md["cards"]
        ids: list[int] = []
        names: list[str] = []
        for t in toks:
            if not isinstance(t, str):
                raise RecordError(f"meld {i + 1}: cards are strings like 7H/0 or JK/0=7D")
            phys_txt, eq, decl_txt = t.partition("=")
            cid = card_id(phys_txt)
            if (cid >= n52) != bool(eq):
                raise RecordError(f"meld {i + 1}: {t!r}: a joker is written with its declared "
                                  "card (JK/0=7D), a natural card without one")
            ids.append(cid)
            names.append("JK=" + decl_txt if eq else phys_txt.partition("/")[0])
        try:
            spec = parse_meld(names)
        except (IllegalActionError, NotationError) as exc:
            raise RecordError(f"meld {i + 1} ({' '.join(toks)}) is not a legal meld: "
                              f"{exc}") from None
        owner = int(md.get("owner", 0))
        if not 0 <= owner < n:
            raise RecordError(f"meld {i + 1}: owner must be a seat 0..{n - 1}")
        decl = [k for k, _ in spec.declared()]
        if spec.is_run:
            if spec.length < 4 or spec.length > (14 if opts.ace_both_ends else 13):
                raise RecordError(f"meld {i + 1}: a run has 4 to 13 cards (SH-7.2, SH-7.3)")
            njk = spec.joker_count
            m = TableMeld(owner, True, 0, spec.suit, spec.lo, tuple(ids), tuple(decl), njk)
        else:
            # parse_meld sorts a set's suits: keep the document's order of cards
            decl = []
            for cid, nm in zip(ids, names):
                if nm.startswith("JK="):
                    decl.append(parse_kind(nm[3:])[0])
                else:
                    decl.append(cid % 52)
            njk = len(spec.jokers)
            if spec.size < 3:
                raise RecordError(f"meld {i + 1}: a set has at least 3 cards (SH-7.1)")
            m = TableMeld(owner, False, spec.rank, -1, 0, tuple(ids), tuple(decl), njk)
        if njk > joker_limit(m.size, m.run):
            raise RecordError(f"meld {i + 1} holds more jokers than SH-7.5 allows")
        melds.append(m)
    s.melds = tuple(melds)
    if seen != pack.full_mask:
        missing = pack.cards_of(pack.full_mask & ~seen)
        raise RecordError(
            f"{len(missing)} card(s) of the pack are missing from the position, e.g. "
            + " ".join(c.physical for c in missing[:5]))
    owners = 0
    for m in melds:
        owners |= 1 << m.owner
    if "made" in d or not check_rules:
        made = 0
        for x in d.get("made", []):
            if not 0 <= int(x) < n:
                raise RecordError(f"made lists seats 0..{n - 1}")
            made |= 1 << int(x)
    else:  # derived: only the contract starts melds (SH-8.1, SH-8.6)
        made = owners
    s.made = made
    if check_rules:
        _check_made(s, made, owners)
    s.buys = tuple(int(x) for x in seat_list("buys", [0] * n))
    s.rebuilds = int(d.get("rebuilds", 0))
    s.known = tuple(sum(1 << card_id(t, count=False) for t in k) & s.hands[i]
                    for i, k in enumerate(seat_list("known", [[] for _ in range(n)])))
    ts = d.get("turn_state") or {}
    s.contract_now = bool(ts.get("contract_this_turn", False))
    if check_rules and s.contract_now and not (made >> s.turn) & 1:
        raise RecordError(f"turn_state.contract_this_turn: seat {s.turn}, in turn, is not listed "
                          "in made (SH-8.1)")
    s.jokers_now = int(ts.get("jokers_laid_this_turn", 0))
    tk = ts.get("taken_upcard")
    s.taken = card_id(tk, count=False) if tk else -1
    s.queue = tuple(int(x) for x in ts.get("buy_queue", []))
    if phase == BUY_PHASE and not s.queue:
        raise RecordError("phase 'buy' needs a non-empty buy_queue (the seats still to be asked)")
    if any(not 0 <= x < n for x in s.queue):
        raise RecordError(f"buy_queue lists seats 0..{n - 1}")
    s.upcard_from = int(ts.get("upcard_from", (s.turn - 1) % n if s.pile else -1))
    s.no_supply = bool(ts.get("no_supply", False))
    s.went_out = d.get("went_out")
    s._outcome = _outcome_load(d.get("outcome"))
    if phase in ("deal_end", "game_over") and s._outcome is None:
        raise RecordError(f"phase {phase!r} needs the deal's outcome")
    log: LogNode = None
    for entry in d.get("log", []):
        e = list(entry) + ["", "", ""]
        log = (log, (int(e[0]), str(e[1]), str(e[2]), str(e[3])))
    s.log = log
    s.log_mark = None
    s.took_kinds, s.declined_kinds = _interest_from_log(d.get("log", []), n)
    s._cache = None
    _load_staged(s, d)
    return s


def _interest_from_log(entries: list[Any], n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The deal's ``took_kinds`` and ``declined_kinds`` (per seat, bitmasks over kinds), read
    back from the deal's log: a position keeps the log, and these follow from it (the upcards
    taken or bought, and the discards and declined upcards, each entry naming the kind)."""
    took = [0] * n
    declined = [0] * n
    for entry in entries:
        e = list(entry) + ["", ""]
        try:
            seat = int(e[0])
        except (TypeError, ValueError):
            continue
        if not 0 <= seat < n:
            continue
        action, note = str(e[1]), str(e[2])
        words = action.split() if action.startswith("discard") else note.split()
        if len(words) < 2 or words[0] not in ("takes", "buys", "declines", "discard"):
            continue
        try:
            kind, _ = parse_kind(words[1])
        except NotationError:
            continue  # "takes the joker into hand": an exchange, not the upcard
        if words[0] in ("takes", "buys"):
            took[seat] |= 1 << kind
        else:
            declined[seat] |= 1 << kind
    return tuple(took), tuple(declined)


def _check_made(s: ShanghaiState, made: int, owners: int) -> None:
    """``made`` against the melds (SH-8.1, SH-8.6): melds are started only by making the
    contract, all of them in one action, and never leave the table during a deal; lay-offs and
    joker exchanges keep each meld's owner.  So a seat has made the contract exactly when it
    owns melds, and it owns the contract's number of sets and of runs."""
    n = s.options.player_count
    contract = s.contract
    for x in range(n):
        if (made >> x) & 1 and not (owners >> x) & 1:
            raise RecordError(f"made: seat {x} is listed as having made the contract but has no "
                              "meld on the table (SH-8.1)")
        if (owners >> x) & 1 and not (made >> x) & 1:
            raise RecordError(f"made: seat {x} owns melds on the table but is not listed as "
                              "having made the contract; only the contract starts melds "
                              "(SH-8.1, SH-8.6)")
        if (owners >> x) & 1:
            sets = sum(1 for m in s.melds if m.owner == x and not m.run)
            runs = sum(1 for m in s.melds if m.owner == x and m.run)
            if (sets, runs) != (contract.sets, contract.runs):
                raise RecordError(f"melds: seat {x} owns {sets} set(s) and {runs} run(s), but "
                                  f"contract {contract.number} ({contract}) lays down "
                                  f"{contract.sets} and {contract.runs} (SH-8.1, SH-8.6)")


def _load_staged(s: ShanghaiState, d: dict[str, Any]) -> None:
    """``staged`` and ``stages_this_turn`` (SH-8.1): each staged meld must be one the player in
    turn could have staged, in order, from the cards of their hand."""
    texts = d.get("staged", [])
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise RecordError("staged lists meld texts, e.g. [\"7S 7H JK=7D\"]")
    n = d.get("stages_this_turn", len(texts))
    if not isinstance(n, int) or isinstance(n, bool) or not len(texts) <= n <= STAGE_LIMIT:
        raise RecordError(f"stages_this_turn must be a whole number from the staged melds' "
                          f"count ({len(texts)}) to {STAGE_LIMIT}")
    s.staged = ()
    s.stages = 0
    if texts and s._phase != MELD:
        raise RecordError("melds are staged only in the meld phase (SH-8.1)")
    for i, t in enumerate(texts):
        try:
            m = parse_meld(t.split())
            s._check_stage(m, s.staged, i)
        except (IllegalActionError, NotationError) as exc:
            raise RecordError(f"staged meld {i + 1} ({t}) cannot be staged: {exc}") from None
        s.staged += (m,)
    s.stages = n
    s._cache = None


_links.dump_position = dump_position
