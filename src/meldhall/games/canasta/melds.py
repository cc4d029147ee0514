"""Meld rules shared by the canasta games: one-rank melds with a wild-card limit.

Counts are by *kind* (a list indexed by rank number: 0 joker, 1 ace, 2 two, 3 black three,
4 … 13).  Everything here is pure arithmetic on counts, so it serves legality checks,
legal-action generation and the bots alike.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from meldhall.games.canasta.actions import NATURAL_RANKS, MeldSpec

__all__ = ["meld_ok", "wild_room", "enum_new_melds", "can_go_out", "MeldState"]

#: A side's meld of one rank, as counts: (naturals, twos, jokers).
MeldState = tuple[int, int, int]


def meld_ok(naturals: int, wilds: int, ratio: str) -> bool:
    """CC-6.2: at least two naturals, at most three wild cards, and (``ratio == "seed"``) no
    more wild cards than naturals."""
    if naturals < 2 or wilds > 3:
        return False
    return ratio == "pagat" or wilds <= naturals


def wild_room(naturals: int, wilds: int, ratio: str) -> int:
    """How many more wild cards a meld of ``naturals`` and ``wilds`` can take (CC-6.2)."""
    cap = 3 if ratio == "pagat" else min(3, naturals)
    return max(0, cap - wilds)


def _wild_splits(lo: int, hi: int, twos: int, jokers: int) -> Iterator[tuple[int, int]]:
    """(twos, jokers) pairs with lo <= twos + jokers <= hi, within the counts held."""
    for w in range(lo, hi + 1):
        for t in range(min(w, twos), -1, -1):
            j = w - t
            if j <= jokers:
                yield t, j


def enum_new_melds(
    counts: Sequence[int],
    ranks: Sequence[int],
    twos: int,
    jokers: int,
    ratio: str,
    *,
    min_naturals: int = 2,
) -> Iterator[tuple[tuple[MeldSpec, ...], int, int]]:
    """Every set of new melds (at most one per rank in ``ranks``) that the counts allow.

    Yields ``(melds, twos_left, jokers_left)``, the empty set first.  Each meld has at least
    three cards and satisfies CC-6.2 (with ``min_naturals`` naturals from hand at least).
    """
    ranks = [r for r in ranks if counts[r] >= min_naturals]

    def rec(i: int, t_left: int, j_left: int) -> Iterator[tuple[tuple[MeldSpec, ...], int, int]]:
        if i == len(ranks):
            yield (), t_left, j_left
            return
        yield from rec(i + 1, t_left, j_left)
        r = ranks[i]
        for n in range(counts[r], min_naturals - 1, -1):
            cap = 3 if ratio == "pagat" else min(3, n)
            lo = max(0, 3 - n)
            for t, j in _wild_splits(lo, min(cap, t_left + j_left), t_left, j_left):
                spec = MeldSpec(r, n, t, j)
                for rest, tl, jl in rec(i + 1, t_left - t, j_left - j):
                    yield (spec,) + rest, tl, jl

    yield from rec(0, twos, jokers)


def can_go_out(
    counts: Sequence[int],
    melds: dict[int, MeldState],
    required: int,
    ratio: str,
    *,
    black_three_max: int = 4,
    canasta_size: int = 7,
) -> bool:
    """Whether a hand can be got rid of this turn (CC-10.1, CC-10.2, CC-10.5).

    True when some sequence of meld actions — additions to the side's ``melds``, new melds,
    a black-three meld (CC-9.5) — leaves at most one card (the final discard) and the side then
    has at least ``required`` canastas.

    Args:
        counts: hand counts by kind.
        melds: the side's melds, rank -> (naturals, twos, jokers).
        required: canastas needed to go out.
        ratio: the ``wild_ratio`` option.
        black_three_max: largest black-three meld (4, or 6 in the six-player game).
    """
    wild = counts[0] + counts[2]
    forced_discards = 0
    b3 = counts[3]
    if b3 == 1:
        forced_discards += 1
    elif b3 == 2 or b3 > black_three_max:
        if b3 == 2 or b3 - 1 > black_three_max:
            return False
        forced_discards += 1
    # Each natural rank: add everything to an existing meld, or start a new one.
    sizes: list[int] = []  # meld sizes after all naturals are placed
    rooms: list[int] = []  # wild cards each can still take
    need: list[int] = []  # wild cards each must take (a new meld of two naturals)
    canastas = 0
    for r in NATURAL_RANKS:
        c = counts[r]
        m = melds.get(r)
        if m is not None:
            n, w = m[0] + c, m[1] + m[2]
            sizes.append(n + w)
            rooms.append(wild_room(n, w, ratio))
            need.append(0)
        elif c >= 2:
            sizes.append(c)
            rooms.append(wild_room(c, 0, ratio))
            need.append(1 if c == 2 else 0)
        elif c == 1:
            forced_discards += 1
    if forced_discards > 1:
        return False
    options = [wild] if forced_discards else [wild, wild - 1] if wild else [wild]
    for w_place in options:
        must = sum(need)
        if must > w_place or sum(rooms) < w_place:
            continue
        # Complete canastas greedily with the cheapest wild cards first.
        budget = w_place - must
        costs = []
        base = 0
        for s, room, nd in zip(sizes, rooms, need):
            s += nd
            room -= nd
            if s >= canasta_size:
                base += 1
            elif canasta_size - s <= room:
                costs.append(canasta_size - s)
        costs.sort()
        canastas = base
        for cost in costs:
            if cost <= budget:
                budget -= cost
                canastas += 1
        if canastas >= required:
            return True
    return False
