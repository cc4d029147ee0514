"""Railroad Canasta positions: a full state as a JSON document (docs/positions.md).

Besides the canasta fields: ``kitties`` (cards per seat, empty once taken), ``kitty_taken``
(seats), ``closed`` (per seat, a list of ``{"type", "rank", "cards"}`` canastas),
``turn_state.black_three_meld_made``.
"""

from __future__ import annotations

from typing import Any

from meldhall.errors import RecordError
from meldhall.games.canasta.position import CardReader, PositionCodec, seat_mask

__all__ = ["dump_position", "load_position"]


class _RailroadCodec(PositionCodec):
    game = "railroad-canasta"

    def score_columns(self, opts) -> int:
        return opts.player_count

    def dump_extra(self, s, d: dict[str, Any]) -> None:
        pack = s.pack
        d["kitties"] = [self.cards(pack, k) for k in s.kitties]
        d["kitty_taken"] = [x for x in range(s.players) if (s.kitty_taken >> x) & 1]
        d["closed"] = [[{"type": kind, **self.meld_json(pack, m)} for kind, m in side]
                       for side in s.closed]
        d["turn_state"]["black_three_meld_made"] = s.b3_done

    def load_extra(self, s, d: dict[str, Any], rd: CardReader) -> None:
        from meldhall.games.railroad_canasta.state import canasta_type

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
        closed = []
        for seat, lst in enumerate(d.get("closed", [[] for _ in range(n)])):
            row = []
            for c in lst:
                m = rd.meld(c, f"seat {seat} canasta")
                if m.size != 7:
                    raise RecordError(f"seat {seat}: a canasta has exactly seven cards (RR-6.8)")
                kind = canasta_type(m.rank, m.naturals, m.wilds)
                if c.get("type", kind) != kind:
                    raise RecordError(f"seat {seat}: that canasta is {kind}, not {c['type']}")
                row.append((kind, m))
            closed.append(tuple(row))
        if len(closed) != n:
            raise RecordError(f"closed must list {n} seats")
        s.closed = tuple(closed)
        s.b3_done = bool((d.get("turn_state") or {}).get("black_three_meld_made", False))


_CODEC = _RailroadCodec()


def dump_position(state) -> dict[str, Any]:
    """The position document of a Railroad Canasta state."""
    return _CODEC.dump(state)


def load_position(data: dict[str, Any]):
    """A Railroad Canasta state from a position document (raises RecordError)."""
    return _CODEC.load(data)
