"""Classic Canasta positions: a full state as a JSON document (docs/positions.md)."""

from __future__ import annotations

from typing import Any

from collections.abc import Sequence

from meldhall.cards import JOKER
from meldhall.errors import RecordError
from meldhall.games.canasta.position import CardReader, PositionCodec, _rank_text, seat_mask
from meldhall.games.classic_canasta.options import ClassicCanastaOptions
from meldhall.games.classic_canasta.state import ClassicCanastaState

__all__ = ["dump_position", "load_position"]


class _ClassicCodec(PositionCodec[ClassicCanastaState, ClassicCanastaOptions]):
    game = "classic-canasta"
    prefix = "CC"

    def nsides(self, opts: ClassicCanastaOptions, side_of: Sequence[int]) -> int:
        return 3 if opts.cutthroat else max(side_of) + 1

    def score_columns(self, opts: ClassicCanastaOptions) -> int:
        n = opts.player_count
        return n if opts.cutthroat else (2 if n in (4, 6) else n)

    def default_sides(self, opts: ClassicCanastaOptions) -> tuple[int, ...]:
        n = opts.player_count
        return tuple(x % 2 for x in range(n)) if n in (4, 6) else tuple(range(n))

    def dump_extra(self, s: ClassicCanastaState, d: dict[str, Any]) -> None:
        d["turn_state"].update({
            "asked": s.asked,
            "permission": s.permission,
            "asked_partner": s.asker_partner,
            "concealed_possible": s.conceal_ok,
            "black_three_meld_made": s.b3_done,
            "no_discard": s.no_discard,
        })
        d["seats_melded"] = [x for x in range(s.players) if (s.seat_melded >> x) & 1]
        d["first_taker"] = s.first_taker

    def load_extra(self, s: ClassicCanastaState, d: dict[str, Any], rd: CardReader) -> None:
        ts = d.get("turn_state") or {}
        s.asked = bool(ts.get("asked", False))
        s.permission = ts.get("permission")
        s.asker_partner = int(ts.get("asked_partner", -1))
        if "seats_melded" in d or not rd.check_rules:
            sm = seat_mask(d.get("seats_melded", []), s.players, "seats_melded")
        else:  # derived: the melds' creators, and the only seat of a one-seat side
            sm = 0
            for side, slots in enumerate(s.melds):
                seats = [x for x in range(s.players) if s.side_of[x] == side]
                if any(m is not None for m in slots) and len(seats) == 1:
                    sm |= 1 << seats[0]
                for m in slots:
                    if m is not None and 0 <= m.creator < s.players:
                        sm |= 1 << m.creator
        s.seat_melded = sm
        if rd.check_rules:
            self._check_seats_melded(s, sm)
        s.conceal_ok = bool(ts.get("concealed_possible", not (sm >> s.turn) & 1))
        s.b3_done = bool(ts.get("black_three_meld_made", False))
        s.no_discard = bool(ts.get("no_discard", False))
        s.first_taker = d.get("first_taker")

    def has_melded(self, s: ClassicCanastaState, seat: int) -> bool:
        return bool((s.seat_melded >> seat) & 1)

    @staticmethod
    def _check_seats_melded(s: ClassicCanastaState, sm: int) -> None:
        """A side with melds has a seat that melded; a seat that melded has its side's melds on
        the table (melds never leave the table during a hand, CC-5.5); a meld's creator is a
        seat of its side that has melded.  Which partner melded is not otherwise checkable."""
        n = s.players
        for side, slots in enumerate(s.melds):
            seats = [x for x in range(n) if s.side_of[x] == side]
            has = any(m is not None for m in slots)
            if has and not any((sm >> x) & 1 for x in seats):
                raise RecordError(
                    f"seats_melded: side {side} has melds on the table, but none of its seats "
                    f"({', '.join(map(str, seats)) or 'none'}) is listed as having melded "
                    "(CC-8.4, CC-10.6)")
            for m in slots:
                if m is None or m.creator < 0:
                    continue
                if m.creator >= n or s.side_of[m.creator] != side:
                    raise RecordError(f"melds: side {side}'s meld of {_rank_text(m.rank)} has "
                                      f"creator {m.creator}, not a seat of that side (CC-5.6)")
                if not (sm >> m.creator) & 1:
                    raise RecordError(f"seats_melded: seat {m.creator} started a meld of "
                                      f"{_rank_text(m.rank)} but is not listed as having melded "
                                      "(CC-8.4, CC-10.6)")
        for x in range(n):
            if (sm >> x) & 1 and not any(m is not None for m in s.melds[s.side_of[x]]):
                raise RecordError(f"seats_melded: seat {x} is listed as having melded, but its "
                                  f"side has no meld on the table (CC-8.4, CC-5.5)")

    def check_melds(self, s: ClassicCanastaState) -> None:
        """CC-6.1–CC-6.3 and CC-9.5 for every meld on the table.  In cutthroat the partners'
        melds of a rank merge when the sides form (CC-14.1) and may then hold up to six wild
        cards (each part met CC-6.2, so the merged meld still has at least two naturals and,
        under the seed ratio, no more wild cards than naturals)."""
        opts = s.options
        seed_ratio = opts.wild_ratio == "seed"
        b3_max = 6 if s.players == 6 else 4
        for side, slots in enumerate(s.melds):
            merged = (opts.cutthroat and s.first_taker is not None
                      and sum(1 for x in s.side_of if x == side) > 1)
            cap = 6 if merged else 3
            for m in slots:
                if m is None:
                    continue
                name = _rank_text(m.rank)
                where = f"melds: side {side}'s meld of {name}s"
                if m.rank in (JOKER, 2):
                    raise RecordError(f"melds: side {side} has a meld of {name} cards; a meld is "
                                      "of one natural rank, wild cards only stand in (CC-6.1, "
                                      "CC-6.3)")
                if m.size < 3:
                    raise RecordError(f"{where} has {m.size} card(s); a meld has at least three "
                                      "(CC-6.1)")
                if m.rank == 3:
                    if m.wilds:
                        raise RecordError(f"{where} holds wild cards; a black-three meld has "
                                          "none (CC-9.5)")
                    if m.size > b3_max:
                        raise RecordError(f"{where} has {m.size} cards; a black-three meld has "
                                          f"three to {b3_max} (CC-9.5)")
                    continue
                if m.naturals < 2 or m.wilds > cap or (seed_ratio and m.wilds > m.naturals):
                    raise RecordError(
                        f"{where} has {m.naturals} natural and {m.wilds} wild card(s); a meld "
                        f"needs at least two natural cards and at most {cap} wild cards"
                        + (" and no more wild cards than natural cards" if seed_ratio else "")
                        + (" (CC-6.2, CC-14.1)" if merged else " (CC-6.2)"))

    def check_pile(self, s: ClassicCanastaState, d: dict[str, Any]) -> None:
        """Red threes reach the pile only as upcards turned at the start (CC-4.7, CC-9.1), so
        one lies only under cards that are themselves covered when turned; ``pile_frozen`` is
        fully decided by the cards: a wild card in the pile, or a red three in it under
        ``red_three_upcard_freezes`` (CC-4.8, CC-8.3)."""
        pack, opts = s.pack, s.options
        red, rank_of = pack.red_threes, pack.rank_of
        reds = [i for i, c in enumerate(s.pile) if (red >> c) & 1]
        if reds:
            top_red = s.pile[reds[-1]]
            for c in s.pile[:reds[-1]]:
                r = rank_of[c]
                if r in (JOKER, 2) or r == 3 and ((red >> c) & 1
                                                  or opts.black_three_upcard == "cover"):
                    continue
                raise RecordError(
                    f"pile: the red three {pack.cards[top_red].physical} lies above "
                    f"{pack.cards[c].physical}; a red three is never discarded, and the turning of "
                    "upcards at the start stops at the first card that is not covered (CC-4.7, "
                    "CC-9.1)")
        wild = next((c for c in s.pile if rank_of[c] in (JOKER, 2)), None)
        if wild is not None:
            kind = "joker" if rank_of[wild] == JOKER else "two"
            self.frozen_mismatch(s, d, True, f"a {kind} ({pack.cards[wild].physical}) is in the "
                                 "pile", "CC-8.3")
        elif reds and opts.red_three_upcard_freezes:
            self.frozen_mismatch(s, d, True, f"the red three {pack.cards[s.pile[reds[0]]].physical}"
                                 " turned at the start is in the pile", "CC-4.8, CC-8.3")
        else:
            self.frozen_mismatch(s, d, False, "the pile holds no wild card"
                                 + (" (a red three turned at the start does not freeze it under "
                                    "red_three_upcard_freezes = false)" if reds
                                    else " and no red three"), "CC-8.3")


_CODEC = _ClassicCodec()


def dump_position(state: ClassicCanastaState) -> dict[str, Any]:
    """The position document of a Classic Canasta state."""
    return _CODEC.dump(state)


def load_position(data: dict[str, Any], *, check_rules: bool = True) -> ClassicCanastaState:
    """A Classic Canasta state from a position document (raises RecordError)."""
    return _CODEC.load(data, check_rules=check_rules)
