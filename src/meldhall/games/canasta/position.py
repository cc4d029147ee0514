"""Positions of the canasta games: a full state as a JSON document (docs/positions.md).

:class:`PositionCodec` writes and reads the fields every canasta state has; each game adds its
own through :meth:`PositionCodec.dump_extra` and :meth:`PositionCodec.load_extra`.  Loading
checks that every physical card of the pack is in exactly one place.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable
from types import ModuleType
from typing import Any, Generic, TypeVar

from meldhall.cards import Pack, parse_card
from meldhall.errors import MeldhallError, NotationError, RecordError
from meldhall.game import Outcome
from meldhall.games import game_module
from meldhall.games.canasta.actions import _one_spec, format_kind, parse_kind
from meldhall.games.canasta.engine import (
    STAGE_LIMIT,
    CanastaMeld,
    CanastaOptions,
    CanastaState,
    LogNode,
)
from meldhall.record import POSITION_FORMAT, VERSION, document_options

__all__ = ["PositionCodec", "CardReader", "seat_mask"]

_S = TypeVar("_S", bound=CanastaState)
_O = TypeVar("_O", bound=CanastaOptions)


def _rank_text(rank: int) -> str:
    return "wild" if rank == 0 else format_kind(rank)


def _rank_of_text(text: str) -> int:
    return 0 if text.lower() == "wild" else parse_kind(text)


def seat_mask(values: object, n: int, name: str) -> int:
    """Bitmask of a list of seats ``0..n-1`` (``name`` for the error)."""
    if not isinstance(values, list):
        raise RecordError(f"{name} must be a list of seats")
    m = 0
    for x in values:
        if not 0 <= int(x) < n:
            raise RecordError(f"{name} lists seats 0..{n - 1}, not {x!r}")
        m |= 1 << int(x)
    return m


class CardReader:
    """Reads physical cards (``7H/1``) of a pack, checking each appears at most once."""

    def __init__(self, pack: Pack, rule: str = ""):
        self.pack = pack
        self.seen = 0
        self.rule = rule  # the meld-shape rule named when a meld mixes ranks
        self.check_rules = True  # the position loads only if the rules allow it

    def card(self, text: str) -> int:
        """Card id of ``text``, counted as placed."""
        if "/" not in str(text):
            raise RecordError(f"position cards need their deck index, e.g. 7H/1 (got {text!r})")
        try:
            c = parse_card(text)
        except NotationError as exc:
            raise RecordError(str(exc)) from None
        i = self.pack.id_of(c)
        if (self.seen >> i) & 1:
            raise RecordError(f"card {text} appears twice in the position")
        self.seen |= 1 << i
        return i

    def mask(self, cards: Iterable[str], *, place: bool = True) -> int:
        """Bitmask of a list of cards (``place=False``: a reference, not a place)."""
        m = 0
        for t in cards:
            m |= 1 << (self.card(t) if place else self.pack.id_of(parse_card(t)))
        return m

    def meld(self, d: dict[str, Any], what: str) -> CanastaMeld:
        """A meld from ``{"rank", "cards", "hidden", "creator"}``."""
        rank = _rank_of_text(str(d["rank"]))
        mask = self.mask(d["cards"])
        rm = self.pack.rank_mask
        nat = (mask & rm[rank]).bit_count() if rank not in (0, 2) else 0
        tw = (mask & rm[2]).bit_count()
        jk = (mask & rm[0]).bit_count()
        if nat + tw + jk != mask.bit_count():
            raise RecordError(f"{what}: meld of {d['rank']} holds cards of another rank"
                              + (f"; a meld is of one rank ({self.rule})" if self.rule else ""))
        return CanastaMeld(rank, mask, nat, tw, jk, bool(d.get("hidden", False)),
                           int(d.get("creator", -1)))

    def check_complete(self) -> None:
        """Every card of the pack must have been placed."""
        if self.seen != self.pack.full_mask:
            missing = self.pack.cards_of(self.pack.full_mask & ~self.seen)
            raise RecordError(
                f"{len(missing)} card(s) of the pack are missing from the position, e.g. "
                + " ".join(c.physical for c in missing[:5]))


class PositionCodec(abc.ABC, Generic[_S, _O]):
    """Dump and load the canasta fields of a state; subclass per game, naming its state and
    options classes (``PositionCodec[ClassicCanastaState, ClassicCanastaOptions]``)."""

    game = ""
    prefix = ""  # the rule IDs' prefix, "CC" or "RR"

    def _package(self) -> ModuleType:
        return game_module(self.game)

    @property
    def phases(self) -> tuple[str, ...]:
        """The game's phase names."""
        phases: tuple[str, ...] = self._package().PHASES
        return phases

    def state_class(self) -> type[_S]:
        """The game's state class."""
        cls: type[_S] = self._package().STATE
        return cls

    def options_class(self) -> type[_O]:
        """The game's options class."""
        cls: type[_O] = self._package().Options
        return cls

    def nsides(self, opts: _O, side_of: tuple[int, ...]) -> int:
        """The number of sides of a game with ``opts`` and seats on sides ``side_of``."""
        return max(side_of) + 1

    @abc.abstractmethod
    def score_columns(self, opts: _O) -> int:
        """The length of ``scores`` (supplied by each game)."""

    def default_sides(self, opts: _O) -> tuple[int, ...]:
        return tuple(range(opts.player_count))

    def cards(self, pack: Pack, mask: int) -> list[str]:
        """Physical notation of the cards of a mask."""
        return [c.physical for c in pack.cards_of(mask)]

    def meld_json(self, pack: Pack, m: CanastaMeld) -> dict[str, Any]:
        """A meld as JSON."""
        return {"rank": _rank_text(m.rank), "cards": self.cards(pack, m.mask),
                "hidden": m.hidden, "creator": m.creator}

    # ------------------------------------------------------------------ dump
    def dump(self, s: _S) -> dict[str, Any]:
        """The position document of state ``s``."""
        pack = s.pack
        melds = [[self.meld_json(pack, m) for m in side if m is not None] for side in s.melds]
        d: dict[str, Any] = {
            "format": POSITION_FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": s.options.to_json(),
            "seed": s.seed,
            "hand_no": s.hand_no,
            "dealer": s.dealer,
            "scores": list(s.scores),
            "side_of": list(s.side_of),
            "turn": s.turn,
            "phase": s._phase,
            "stock": [pack.cards[c].physical for c in reversed(s.stock)],
            "hands": [self.cards(pack, h) for h in s.hands],
            "pile": [pack.cards[c].physical for c in s.pile],
            "pile_frozen": s.pile_frozen,
            "melds": melds,
            "red_threes": [self.cards(pack, m) for m in s.red3],
            "known": [self.cards(pack, m) for m in s.known],
            "turn_state": {
                "pile_cards": self.cards(pack, s.pile_cards),
                "took_pile": s.took,
                "melds_made": s.melds_made,
                "new_meld_ranks": [_rank_text(r) for r in range(14) if (s.new_ranks >> r) & 1],
                # CC-6.9 / RR-6.11: the melds the seat in turn has staged (private), the first
                # being the upcard's meld of a take when "staged_upcard" is set
                "staged": [str(sp) for sp in s.staged],
                "staged_upcard": s.staged_up,
                "stages_this_turn": s.stages,
            },
            "went_out": s.went_out,
            "outcome": s._outcome.to_json() if s._outcome is not None else None,
            "log": [[seat, action, note] for seat, action, note in s.public_log()],
        }
        self.dump_extra(s, d)
        return d

    def dump_extra(self, s: _S, d: dict[str, Any]) -> None:  # noqa: B027 (optional hook)
        """Add the game's own fields to ``d``."""

    # ------------------------------------------------------------------ load
    def load(self, d: dict[str, Any], *, check_rules: bool = True) -> _S:
        """A state from a position document (see :func:`meldhall.record.load_position`)."""
        opts = self.options_class().from_json(document_options(d))
        pack = Pack.get(opts.decks, opts.jokers)
        n = opts.player_count
        rd = CardReader(pack, f"{self.prefix}-6.1")
        rd.check_rules = check_rules
        s = self.state_class().blank()
        s.options = opts
        s.pack = pack
        s.seed = int(d.get("seed", 0))
        s.hand_no = int(d.get("hand_no", 0))
        s.dealer = int(d.get("dealer", 0))
        side_of = tuple(int(x) for x in d["side_of"]) if "side_of" in d else \
            self.default_sides(opts)
        if len(side_of) != n or not all(0 <= x < n for x in side_of):
            raise RecordError(f"side_of must list {n} seats, each with a side 0..{n - 1}")
        s.side_of = side_of
        s.nsides = self.nsides(opts, side_of)
        ncols = self.score_columns(opts)
        scores = tuple(int(x) for x in d.get("scores", [0] * ncols))
        if len(scores) != ncols:
            raise RecordError(f"scores must have {ncols} entries")
        s.scores = scores
        s.turn = int(d["turn"])
        if not 0 <= s.turn < n:
            raise RecordError(f"turn must be a seat 0..{n - 1}")
        if d["phase"] not in self.phases:
            raise RecordError(f"unknown phase {d['phase']!r}; expected one of "
                              + ", ".join(self.phases))
        s._phase = d["phase"]
        s.stock = tuple(reversed([rd.card(t) for t in d["stock"]]))
        if len(d["hands"]) != n:
            raise RecordError(f"hands must list {n} seats")
        s.hands = tuple(rd.mask(h) for h in d["hands"])
        s.pile = tuple(rd.card(t) for t in d["pile"])
        s.pile_frozen = bool(d.get("pile_frozen", False))  # checked or derived below
        melds_in = d.get("melds") or [[] for _ in range(s.nsides)]
        if len(melds_in) != s.nsides:
            raise RecordError(f"melds must list {s.nsides} sides")
        melds = []
        for side, lst in enumerate(melds_in):
            slots: list[CanastaMeld | None] = [None] * 14
            for m in lst:
                meld = rd.meld(m, f"melds: side {side}")
                if slots[meld.rank] is not None:
                    raise RecordError(f"side {side} has two open melds of {m['rank']}")
                slots[meld.rank] = meld
            melds.append(tuple(slots))
        s.melds = tuple(melds)
        s.red3 = tuple(rd.mask(x) for x in d.get("red_threes", [[] for _ in range(n)]))
        if len(s.red3) != n:
            raise RecordError(f"red_threes must list {n} seats")
        ts = d.get("turn_state") or {}
        s.pile_cards = rd.mask(ts.get("pile_cards", []), place=False)
        s.took = bool(ts.get("took_pile", False))
        s.melds_made = int(ts.get("melds_made", 0))
        nr = 0
        for r in ts.get("new_meld_ranks", []):
            nr |= 1 << _rank_of_text(str(r))
        s.new_ranks = nr
        self._load_staged(s, ts)
        s.went_out = d.get("went_out")
        s._outcome = Outcome.from_json(d["outcome"]) if d.get("outcome") is not None else None
        s.log = LogNode.from_entries(
            (int(e[0]), str(e[1]), str(e[2]) if len(e) > 2 else "") for e in d.get("log", []))
        self.load_extra(s, d, rd)
        rd.check_complete()
        if check_rules:
            self.check_red_threes(s)
            self.check_melds(s)
            self.check_pile(s, d)
            self.check_sizes(s)
        known = d.get("known", [[] for _ in range(n)])
        if not isinstance(known, list) or len(known) != n:
            raise RecordError(f"known must list {n} seats")
        s.known = tuple(rd.mask(x, place=False) & s.hands[i] for i, x in enumerate(known))
        s._cache = None
        return s

    @staticmethod
    def _load_staged(s: CanastaState, ts: dict[str, Any]) -> None:
        """The staged melds of the seat in turn (CC-6.9); positions written before staging
        have none.  Each must fit in the hand beside the others."""
        staged = ts.get("staged") or []
        if not isinstance(staged, list) or not all(isinstance(x, str) for x in staged):
            raise RecordError("turn_state.staged must be a list of melds in notation")
        try:
            specs = tuple(_one_spec(x.split(), rules=s.RULES_PARSE) for x in staged)
        except MeldhallError as exc:
            raise RecordError(f"turn_state.staged: {exc}") from None
        if specs:
            hand = s.hands[s.turn]
            rm = s.pack.rank_mask
            used = [0] * 14
            for sp in specs:
                used[sp.rank] += sp.naturals
                used[2] += sp.twos
                used[0] += sp.jokers
            for k in range(14):
                if used[k] > (hand & rm[k]).bit_count():
                    raise RecordError("turn_state.staged holds cards that are not in the hand "
                                      f"of seat {s.turn}")
        s.staged = specs
        s.staged_up = bool(ts.get("staged_upcard", False)) and bool(specs)
        stages = ts.get("stages_this_turn", len(specs))
        if not isinstance(stages, int) or isinstance(stages, bool) or \
                not len(specs) <= stages <= STAGE_LIMIT:
            raise RecordError(f"turn_state.stages_this_turn must be a whole number from "
                              f"{len(specs)} to {STAGE_LIMIT}")
        s.stages = stages
        if specs and s._phase not in ("draw", "meld"):
            raise RecordError("melds are staged only in the draw or meld phase (CC-6.9)")
        if specs and s._phase == "draw" and not s.staged_up:
            raise RecordError("in the draw phase the first staged meld is the upcard's "
                              "(turn_state.staged_upcard, CC-6.9)")

    def load_extra(self, s: _S, d: dict[str, Any], rd: CardReader) -> None:  # noqa: B027
        """Read the game's own fields into ``s`` (placing their cards through ``rd``)."""

    # ------------------------------------------------------------------ rules checks
    def check_red_threes(self, s: _S) -> None:
        """Red threes are laid out at once, never held (CC-9.1, RR-9.1), never melded (CC-6.3,
        RR-6.6); the ``red_threes`` rows hold red threes only (CC-9.2, RR-9.2)."""
        pack, p = s.pack, self.prefix
        red = pack.red_threes
        for seat, h in enumerate(s.hands):
            if h & red:
                c = pack.cards_of(h & red)[0].physical
                raise RecordError(f"hands: seat {seat} holds the red three {c}; a red three never "
                                  f"stays in a hand, it is laid out at once ({p}-9.1)")
        for seat, r3 in enumerate(s.red3):
            if r3 & ~red:
                c = pack.cards_of(r3 & ~red)[0].physical
                raise RecordError(f"red_threes: seat {seat} lists {c}, which is not a red three "
                                  f"({p}-9.2)")
        for side, slots in enumerate(s.melds):
            for m in slots:
                if m is not None and m.mask & red:
                    c = pack.cards_of(m.mask & red)[0].physical
                    rule = "CC-6.3" if p == "CC" else "RR-6.6"
                    raise RecordError(f"melds: side {side}'s meld of {_rank_text(m.rank)} holds "
                                      f"the red three {c}; red threes are never melded ({rule})")

    def has_melded(self, s: _S, seat: int) -> bool:
        """Whether ``seat`` itself has put cards on the table this hand (each game)."""
        return True

    def check_sizes(self, s: _S) -> None:
        """The stock never holds more than the deal leaves in it (CC-4.6, RR-4.6), and a seat
        that has not melded has only drawn and discarded since the deal: it never took the pile
        (every take melds) nor its kitty (that needs a canasta).  Each of its turns draws
        ``stock_draw`` cards and discards one, so it holds at least the dealt hand size, less
        the red threes it placed without replacement; and at most the dealt size plus, per
        card drawn from the stock, (draw - 1) / draw, plus the draw of its turn in progress.
        The stock cards drawn since the deal are at most the stock the deal leaves minus the
        stock now.  Melded seats are bounded only by the card total (checked already)."""
        opts, p = s.options, self.prefix
        n = s.players
        hs = opts.hand_size
        ks = getattr(opts, "kitty_size", 0)
        dealt_stock = s.pack.size - n * (hs + ks) - 1  # at least one upcard
        if len(s.stock) > dealt_stock:
            raise RecordError(f"stock: {len(s.stock)} cards, but the deal leaves at most "
                              f"{dealt_stock} in the stock ({p}-4.6)")
        drawn = dealt_stock - len(s.stock)
        d = opts.stock_draw
        most = hs + (d - 1) * drawn // d + d
        for x in range(n):
            if self.has_melded(s, x):
                continue
            size = s.hands[x].bit_count()
            least = hs - s.red3[x].bit_count()
            if not least <= size <= most:
                raise RecordError(
                    f"hands: seat {x} holds {size} cards but has not melded, so it holds "
                    + (f"at least {max(least, 0)}" if size < least else f"at most {most}")
                    + f" (dealt {hs}, drawing {d} and discarding one a turn, "
                    f"{drawn} card(s) drawn from the stock so far; {p}-4.4, {p}-5.2)")

    def check_melds(self, s: _S) -> None:  # noqa: B027 (optional hook)
        """Refuse melds the game's rules never allow (supplied by each game)."""

    def check_pile(self, s: _S, d: dict[str, Any]) -> None:  # noqa: B027 (optional hook)
        """Check the pile's cards and derive or check ``pile_frozen`` (each game)."""

    @staticmethod
    def frozen_mismatch(s: CanastaState, d: dict[str, Any], frozen: bool | None, why: str,
                        rule: str) -> None:
        """``pile_frozen`` from the cards: ``frozen`` (``None``: the cards do not decide it,
        and the document's value, default false, stands).  An omitted flag is derived; a
        contradicting one is refused, with ``why`` (the reason the cards decide it)."""
        if frozen is None:
            return
        if "pile_frozen" not in d or d["pile_frozen"] is None:
            s.pile_frozen = frozen
            return
        if bool(d["pile_frozen"]) != frozen:
            raise RecordError(f"pile_frozen: {why}, so the pile is "
                              + ("" if frozen else "not ") + f"frozen ({rule})")
