"""Game records (like PGN) and positions (like FEN); docs/records.md and docs/positions.md.

A **record** is the game, options, seats, seed, first dealer and every action in notation, with
the result: replaying it reproduces the game exactly.  A **position** is one full state inside
a hand — every hand, the stock order, melds, pile, flags, scores, turn and phase — as a JSON
document that loads back to an equal state.  Positions contain hidden information (they are
for tests, tutorials and bug reports, not for players).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from meldhall.cards import Card, Pack, parse_card
from meldhall.errors import MeldhallError, NotationError, RecordError
from meldhall.game import Outcome, ScoreLine, SideResult, State

__all__ = [
    "Record", "load_record", "dump_record", "replay", "load_position", "dump_position",
    "RECORD_FORMAT", "POSITION_FORMAT",
]

RECORD_FORMAT = "meldhall-record"
POSITION_FORMAT = "meldhall-position"
VERSION = 1


def _read_json(source) -> dict:
    if isinstance(source, dict):
        return source
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    else:
        text = source
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(data, dict):
        raise RecordError("a record or position must be a JSON object")
    return data


# ---------------------------------------------------------------------------------------------
# records


@dataclass
class Record:
    """A game record.

    Attributes:
        game: game name (``"classic-canasta"``).
        players: number of seats.
        seed: the game seed.
        options: option values (JSON-ready dict).
        dealer: first dealer's seat.
        seats: a name per seat (``"human"``, ``"heuristic"`` …).
        actions: every action in notation, in order.
        result: final or current result (scores, winners), filled by :meth:`from_state`.
    """

    game: str
    players: int
    seed: int
    options: dict[str, Any]
    dealer: int
    seats: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @classmethod
    def from_state(cls, state: State, initial_dealer: int, seats: list[str] | None = None
                   ) -> Record:
        """The record of the game that led to ``state`` (its history), with the result."""
        result = None
        oc = state.outcome
        result = {
            "scores": list(state.scores),  # type: ignore[attr-defined]
            "hands_played": state.hand_no + (1 if oc is not None else 0),  # type: ignore[attr-defined]
            "finished": state.is_terminal,
            "winners": list(oc.winners) if oc is not None and oc.game_over else [],
        }
        return cls(
            game=state.game_name,
            players=state.players,
            seed=state.seed,  # type: ignore[attr-defined]
            options=state.options.to_json(),  # type: ignore[attr-defined]
            dealer=initial_dealer,
            seats=list(seats or [f"seat {i}" for i in range(state.players)]),
            actions=[a for _, a in state.history() if a],  # type: ignore[attr-defined]
            result=result,
        )

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict."""
        return {
            "format": RECORD_FORMAT,
            "version": VERSION,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "dealer": self.dealer,
            "options": self.options,
            "seats": self.seats,
            "actions": self.actions,
            "result": self.result,
        }

    def initial_state(self) -> State:
        """The state before the first action."""
        from meldhall import new_game

        return new_game(self.game, players=self.players, seed=self.seed, options=self.options,
                        dealer=self.dealer)

    def states(self) -> Iterator[tuple[str | None, State]]:
        """Yield ``(action, state_after)`` for each action, starting with ``(None, initial)``.

        Raises:
            RecordError: an action does not parse or is illegal (with its index and rule).
        """
        state = self.initial_state()
        yield None, state
        for i, text in enumerate(self.actions):
            try:
                state = state.apply(state.parse_action(text))
            except MeldhallError as exc:
                raise RecordError(f"action {i + 1} ({text!r}) cannot be replayed: {exc}") from None
            yield text, state

    def final_state(self) -> State:
        """The state after every action."""
        state = None
        for _, state in self.states():
            pass
        return state  # type: ignore[return-value]


def load_record(source) -> Record:
    """Read a record from a path, JSON text or dict.

    Raises:
        RecordError: malformed JSON, wrong format, or missing/ill-typed fields.
    """
    data = _read_json(source)
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a meldhall record (expected \"format\": \"{RECORD_FORMAT}\")")
    try:
        rec = Record(
            game=str(data["game"]),
            players=int(data["players"]),
            seed=int(data["seed"]),
            options=dict(data.get("options") or {}),
            dealer=int(data["dealer"]),
            seats=[str(s) for s in data.get("seats") or []],
            actions=[str(a) for a in data.get("actions") or []],
            result=data.get("result"),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"record field missing or of the wrong type: {exc}") from None
    try:
        rec.initial_state()
    except MeldhallError as exc:
        raise RecordError(f"record cannot start a game: {exc}") from None
    return rec


def dump_record(record: Record) -> str:
    """The record as pretty JSON text."""
    return json.dumps(record.to_json(), indent=2, ensure_ascii=False) + "\n"


def replay(source) -> State:
    """Load a record and return its final state."""
    return load_record(source).final_state()


# ---------------------------------------------------------------------------------------------
# positions


def dump_position(state: State) -> dict[str, Any]:
    """Describe ``state`` completely as a position document (a JSON-ready dict)."""
    if state.game_name == "classic-canasta":
        return _dump_classic(state)
    raise RecordError(f"positions are not defined for {state.game_name!r}")


def load_position(source) -> State:
    """Read a position document into a state.

    Raises:
        RecordError: malformed document, unknown cards, or cards missing or duplicated (every
            physical card of the pack must be in exactly one place).
    """
    data = _read_json(source)
    if data.get("format") != POSITION_FORMAT:
        raise RecordError(f"not a meldhall position (expected \"format\": \"{POSITION_FORMAT}\")")
    game = data.get("game")
    if game == "classic-canasta":
        try:
            return _load_classic(data)
        except MeldhallError as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"invalid position: {exc}") from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise RecordError(f"position field missing or of the wrong type: {exc!r}") from None
    raise RecordError(f"unknown game in position: {game!r}")


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


def _dump_classic(s) -> dict[str, Any]:
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


def _load_classic(d: dict[str, Any]):
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

    s = object.__new__(ClassicCanastaState)
    for name in ClassicCanastaState.__slots__:
        setattr(s, name, None)
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
