"""Railroad Canasta positions: a full state as a JSON document (docs/positions.md).

Besides the canasta fields: ``kitties`` (cards per seat, empty once taken), ``kitty_taken``
(seats), ``closed`` (per seat, a list of ``{"type", "rank", "cards"}`` canastas),
``turn_state.black_three_meld_made``.
"""

from __future__ import annotations

from typing import Any

from meldhall.cards import JOKER
from meldhall.errors import RecordError
from meldhall.games.canasta.engine import CanastaMeld
from meldhall.games.canasta.position import CardReader, PositionCodec, _rank_text, seat_mask
from meldhall.games.railroad_canasta.options import RailroadCanastaOptions
from meldhall.games.railroad_canasta.state import Closed, RailroadCanastaState, canasta_type

__all__ = ["dump_position", "load_position"]


class _RailroadCodec(PositionCodec[RailroadCanastaState, RailroadCanastaOptions]):
    game = "railroad-canasta"
    prefix = "RR"

    def score_columns(self, opts: RailroadCanastaOptions) -> int:
        return opts.player_count

    def dump_extra(self, s: RailroadCanastaState, d: dict[str, Any]) -> None:
        pack = s.pack
        d["kitties"] = [self.cards(pack, k) for k in s.kitties]
        d["kitty_taken"] = [x for x in range(s.players) if (s.kitty_taken >> x) & 1]
        d["closed"] = [[{"type": kind, **self.meld_json(pack, m)} for kind, m in side]
                       for side in s.closed]
        d["turn_state"]["black_three_meld_made"] = s.b3_done

    def load_extra(self, s: RailroadCanastaState, d: dict[str, Any], rd: CardReader) -> None:
        n = s.players
        kitties = d.get("kitties", [[] for _ in range(n)])
        if len(kitties) != n:
            raise RecordError(f"kitties must list {n} seats")
        s.kitties = tuple(rd.mask(k) for k in kitties)
        taken = seat_mask(d.get("kitty_taken", []), n, "kitty_taken")
        s.kitty_taken = taken
        for x in range(n):
            if (taken >> x) & 1 and s.kitties[x]:
                raise RecordError(f"seat {x}'s kitty is taken but still holds cards (RR-10.3)")
        closed: list[tuple[Closed, ...]] = []
        for seat, lst in enumerate(d.get("closed", [[] for _ in range(n)])):
            row: list[Closed] = []
            for c in lst:
                m = rd.meld(c, f"closed: seat {seat}")
                if m.size != 7:
                    raise RecordError(f"closed: seat {seat}: a canasta has exactly seven cards "
                                      "(RR-6.8)")
                kind = canasta_type(m.rank, m.naturals, m.wilds)
                if c.get("type", kind) != kind:
                    raise RecordError(f"seat {seat}: that canasta is {kind}, not {c['type']}")
                row.append((kind, m))
            closed.append(tuple(row))
        if len(closed) != n:
            raise RecordError(f"closed must list {n} seats")
        s.closed = tuple(closed)
        s.b3_done = bool((d.get("turn_state") or {}).get("black_three_meld_made", False))
        if rd.check_rules:
            self._check_kitties(s)

    def has_melded(self, s: RailroadCanastaState, seat: int) -> bool:
        return s.has_melded(seat)

    @staticmethod
    def _eligible(s: RailroadCanastaState, seat: int) -> bool:
        """RR-10.2: a completed canasta that is not black (canastas never leave the table)."""
        return any(kind != "black" for kind, _ in s.closed[seat])

    def _check_kitties(self, s: RailroadCanastaState) -> None:
        """A kitty stays whole until taken (RR-4.4, RR-10.3); only an eligible player takes it
        (RR-10.2); the kitty phase and the going-out-or-kitty choice are only for an eligible
        player whose kitty is still untaken (RR-10.3, RR-11.7)."""
        size = s.options.kitty_size
        for x in range(s.players):
            taken = (s.kitty_taken >> x) & 1
            if taken and not self._eligible(s, x):
                raise RecordError(f"kitty_taken: seat {x} has taken its kitty but has no "
                                  "completed canasta that is not black (RR-10.2)")
            if not taken and s.kitties[x].bit_count() != size:
                raise RecordError(f"kitties: seat {x}'s untaken kitty holds "
                                  f"{s.kitties[x].bit_count()} cards; a kitty is dealt {size} "
                                  "and stays whole until taken (RR-4.4, RR-10.3)")
        t = s.turn
        if s._phase in ("kitty", "choice"):
            if (s.kitty_taken >> t) & 1:
                raise RecordError(f"phase: seat {t}'s kitty is already taken, so there is no "
                                  f"{s._phase} phase for it (RR-10.3"
                                  + (", RR-11.7)" if s._phase == "choice" else ")"))
            if not self._eligible(s, t):
                raise RecordError(f"phase: seat {t} is not kitty-eligible (no completed canasta "
                                  f"that is not black), so there is no {s._phase} phase for it "
                                  "(RR-10.2)")
        if s._phase == "choice" and s.hands[t]:
            raise RecordError(f"phase: the going-out-or-kitty choice follows a discard of the "
                              f"last card, but seat {t} still holds cards (RR-11.7)")

    def check_melds(self, s: RailroadCanastaState) -> None:
        """RR-6.1–RR-6.5, RR-6.8 for the unfinished melds and the closed canastas."""
        for seat in range(s.players):
            for m in s.melds[seat]:
                if m is None:
                    continue
                where = f"melds: seat {seat}'s meld of {_rank_text(m.rank)}"
                if m.rank == 3:
                    if m.wilds:
                        raise RecordError(f"{where} holds wild cards; a black-three meld has "
                                          "none (RR-6.5)")
                    if m.size < 3:
                        raise RecordError(f"{where} has {m.size} card(s); a meld has at least "
                                          "three (RR-6.1)")
                    continue
                if m.size > 7:
                    raise RecordError(f"{where} has {m.size} cards; a meld never holds more than "
                                      "seven (RR-6.1)")
                if m.size == 7:
                    raise RecordError(f"{where} has seven cards; a meld that reaches seven is a "
                                      "closed canasta, listed in closed (RR-6.8)")
                self._shape(s, m, where)
            for _kind, m in s.closed[seat]:
                where = f"closed: seat {seat}'s canasta of {_rank_text(m.rank)}"
                if m.rank == 3:
                    raise RecordError(f"{where}: a black-three meld never becomes a canasta "
                                      "(RR-6.5)")
                self._shape(s, m, where)

    @staticmethod
    def _shape(s: RailroadCanastaState, m: CanastaMeld, where: str) -> None:
        if m.rank == 2:
            raise RecordError(f"{where}: a meld of wild cards is written with rank \"wild\" "
                              "(RR-6.4)")
        if m.size < 3:
            raise RecordError(f"{where} has {m.size} card(s); a meld has at least three "
                              "(RR-6.1)")
        if m.rank == JOKER:
            return  # wild cards only, three to seven (RR-6.4); the reader checked the cards
        if m.rank == 7:
            if m.wilds:
                raise RecordError(f"{where} holds wild cards; a sevens meld never does (RR-6.3)")
            return
        limit = s.options.wild_limit(m.naturals)
        if m.naturals < 2 or m.wilds > limit:
            raise RecordError(f"{where} has {m.naturals} natural and {m.wilds} wild card(s); a "
                              "meld needs at least two natural cards and at most "
                              f"{limit} wild cards (RR-6.2)")

    def check_pile(self, s: RailroadCanastaState, d: dict[str, Any]) -> None:
        """A red three reaches the pile only as the upcard, never covered when turned (RR-4.8,
        RR-9.1).  ``pile_frozen`` follows from the cards (RR-8.3): a red three upcard or a wild
        card above the bottom freezes it, and so does a wild bottom card under
        ``upcard_wild_freezes``.  Without that option a wild bottom card is the upcard (not
        freezing) if nobody has melded, since every take melds; otherwise it may be the upcard
        or a discard that started a new pile after a take (freezing), and the flag stands."""
        pack, opts = s.pack, s.options
        red, rank_of = pack.red_threes, pack.rank_of
        pile = s.pile
        for c in pile[1:]:
            if (red >> c) & 1:
                raise RecordError(f"pile: the red three {pack.cards[c].physical} is above the "
                                  "bottom card; a red three reaches the pile only as the upcard "
                                  "(RR-4.8, RR-9.1)")
        if not pile:
            self.frozen_mismatch(s, d, False, "the pile is empty", "RR-8.8")
            return
        if (red >> pile[0]) & 1:
            self.frozen_mismatch(s, d, True, f"the red three {pack.cards[pile[0]].physical} is "
                                 "the upcard", "RR-4.8, RR-8.3")
            return
        wild = next((c for c in pile[1:] if rank_of[c] in (JOKER, 2)), None)
        if wild is not None:
            self.frozen_mismatch(s, d, True, f"a wild card ({pack.cards[wild].physical}) was "
                                 "discarded onto it", "RR-8.3")
            return
        if rank_of[pile[0]] not in (JOKER, 2):
            self.frozen_mismatch(s, d, False, "the pile holds no wild card and no red three",
                                 "RR-8.3")
            return
        bottom = pack.cards[pile[0]].physical
        if opts.upcard_wild_freezes:
            self.frozen_mismatch(s, d, True, f"a wild card ({bottom}) is at its bottom, as the "
                                 "upcard or a discard", "RR-4.8, RR-8.3")
        elif not any(s.has_melded(x) for x in range(s.players)):
            self.frozen_mismatch(s, d, False, f"nobody has melded, so the pile was never taken and "
                                 f"its bottom card {bottom} is the upcard, which does not freeze "
                                 "it under upcard_wild_freezes = false", "RR-4.8, RR-8.3")


_CODEC = _RailroadCodec()


def dump_position(state: RailroadCanastaState) -> dict[str, Any]:
    """The position document of a Railroad Canasta state."""
    return _CODEC.dump(state)


def load_position(data: dict[str, Any], *, check_rules: bool = True) -> RailroadCanastaState:
    """A Railroad Canasta state from a position document (raises RecordError)."""
    return _CODEC.load(data, check_rules=check_rules)
