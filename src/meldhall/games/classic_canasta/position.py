"""Classic Canasta positions: a full state as a JSON document (docs/positions.md)."""

from __future__ import annotations

from typing import Any

from meldhall.games.canasta.position import CardReader, PositionCodec, seat_mask

__all__ = ["dump_position", "load_position"]


class _ClassicCodec(PositionCodec):
    game = "classic-canasta"

    def nsides(self, opts, side_of) -> int:
        return 3 if opts.cutthroat else max(side_of) + 1

    def score_columns(self, opts) -> int:
        n = opts.player_count
        return n if opts.cutthroat else (2 if n in (4, 6) else n)

    def default_sides(self, opts) -> tuple[int, ...]:
        n = opts.player_count
        return tuple(x % 2 for x in range(n)) if n in (4, 6) else tuple(range(n))

    def dump_extra(self, s, d: dict[str, Any]) -> None:
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

    def load_extra(self, s, d: dict[str, Any], rd: CardReader) -> None:
        ts = d.get("turn_state") or {}
        s.asked = bool(ts.get("asked", False))
        s.permission = ts.get("permission")
        s.asker_partner = int(ts.get("asked_partner", -1))
        sm = seat_mask(d.get("seats_melded", []), s.players, "seats_melded")
        s.seat_melded = sm
        s.conceal_ok = bool(ts.get("concealed_possible", not (sm >> s.turn) & 1))
        s.b3_done = bool(ts.get("black_three_meld_made", False))
        s.no_discard = bool(ts.get("no_discard", False))
        s.first_taker = d.get("first_taker")


_CODEC = _ClassicCodec()


def dump_position(state) -> dict[str, Any]:
    """The position document of a Classic Canasta state."""
    return _CODEC.dump(state)


def load_position(data: dict[str, Any]):
    """A Classic Canasta state from a position document (raises RecordError)."""
    return _CODEC.load(data)
