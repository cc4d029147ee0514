"""Meld rules shared by the canasta games: one-rank melds with a wild-card limit.

Counts are by *kind* (a list indexed by rank number: 0 joker, 1 ace, 2 two, 3 black three,
4 … 13).  Everything here is pure arithmetic on counts, so it serves legality checks,
legal-action generation and the bots alike.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

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


def _greedy(sizes: list[int], rooms: list[int], budget: int, canasta_size: int) -> int:
    """Most canastas from ``budget`` spare wild cards over melds of ``sizes`` with ``rooms``."""
    canastas = 0
    costs = []
    for size, room in zip(sizes, rooms):
        if size >= canasta_size:
            canastas += 1
        elif canasta_size - size <= room:
            costs.append(canasta_size - size)
    costs.sort()
    for cost in costs:
        if cost > budget:
            break
        budget -= cost
        canastas += 1
    return canastas


def _canasta_bound(counts: Sequence[int], melds: dict[int, MeldState], ratio: str,
                   canasta_size: int) -> int:
    """An upper bound on the canastas the side could hold after melding from ``counts``: every
    natural of a rank it has melded, or holds two of, in its meld, and every wild card spent
    on the melds closest to a canasta.  :func:`_placement` never finds more (it melds no more
    cards, and a discard only takes cards away), so a bound under ``required`` answers
    :func:`can_go_out` at once."""
    sizes: list[int] = []
    rooms: list[int] = []
    pagat = ratio == "pagat"
    for r in NATURAL_RANKS:
        c = counts[r]
        m = melds.get(r)
        if m is not None:
            n, w = m[0] + c, m[1] + m[2]
        elif c >= 2:
            n, w = c, 0
        else:
            continue
        sizes.append(n + w)
        cap = 3 if pagat or n > 3 else n  # wild_room(n, w, ratio), written out
        rooms.append(cap - w if cap > w else 0)
    return _greedy(sizes, rooms, counts[0] + counts[2], canasta_size)


def _placement(
    counts: Sequence[int],
    melds: dict[int, MeldState],
    ratio: str,
    black_three_max: int,
    canasta_size: int,
    required: int,
    final_discard: bool,
) -> bool:
    """Can every card of ``counts`` be melded this turn, ending with ``required`` canastas?

    With ``final_discard`` a discard follows, so only the final canasta count matters
    (CC-5.7 is met by the last meld action, which leaves the discard).  Without it the last
    meld action empties the hand: it must place two or more cards, or the side must already
    have its canastas before that last one-card addition (CC-5.7).
    """
    b3 = counts[3]
    multi = False
    if b3:
        if not 3 <= b3 <= black_three_max:
            return False
        multi = True
    wild = counts[0] + counts[2]
    sizes: list[int] = []  # meld sizes after all naturals and required wild cards
    rooms: list[int] = []  # wild cards each can still take
    nat_in: list[int] = []  # naturals the hand adds to each meld
    must = 0
    pagat = ratio == "pagat"
    for r in NATURAL_RANKS:
        c = counts[r]
        m = melds.get(r)
        if m is not None:
            n, w = m[0] + c, m[1] + m[2]
            sizes.append(n + w)
            cap = 3 if pagat or n > 3 else n  # wild_room(n, w, ratio), written out
            rooms.append(cap - w if cap > w else 0)
            nat_in.append(c)
            if c >= 2:
                multi = True
        elif c >= 2:
            multi = True
            nd = 1 if c == 2 else 0  # two naturals need a wild card (CC-6.1)
            must += nd
            sizes.append(c + nd)
            cap = 3 if pagat or c > 3 else c
            rooms.append(cap - nd if cap > nd else 0)
            nat_in.append(c)
        elif c == 1:
            return False
    if must > wild or sum(rooms) < wild - must:
        return False
    budget = wild - must
    best = _greedy(sizes, rooms, budget, canasta_size)
    if best < required:
        return False
    if final_discard or multi:
        return True
    # Only one-card additions to existing melds remain possible as single cards: try each
    # meld as the target of the last action, with x wild cards kept for it.
    for i in range(len(sizes)):
        for x in range(0, min(rooms[i], budget) + 1):
            last = nat_in[i] + x
            if last == 0:
                continue
            other_sizes = sizes[:i] + sizes[i + 1:]
            other_rooms = rooms[:i] + rooms[i + 1:]
            spare = budget - x
            if sum(other_rooms) < spare:
                continue
            others = _greedy(other_sizes, other_rooms, spare, canasta_size)
            final_i = sizes[i] + x >= canasta_size
            if last >= 2:
                if others + final_i >= required:
                    return True
            else:
                before_i = sizes[i] + x - last >= canasta_size
                if others + before_i >= required:
                    return True
    return False


def can_go_out(
    counts: Sequence[int],
    melds: dict[int, MeldState],
    required: int,
    ratio: str,
    *,
    black_three_max: int = 4,
    canasta_size: int = 7,
) -> bool:
    """Whether a hand can be got rid of this turn (CC-5.7, CC-10.1, CC-10.2, CC-10.5).

    True when some sequence of meld actions — additions to the side's ``melds``, new melds,
    a black-three meld (CC-9.5) — and at most one final discard leaves no card, with the side
    then holding at least ``required`` canastas, and every action of the sequence allowed by
    CC-5.7: an action that leaves one card or none needs the canastas *at that moment*.

    Args:
        counts: hand counts by kind (index = rank number, 0 = joker).
        melds: the side's melds, rank -> (naturals, twos, jokers).
        required: canastas needed to go out (CC-10.1).
        ratio: the ``wild_ratio`` option (CC-6.2).
        black_three_max: largest black-three meld (4, or 6 in the six-player game).
    """
    if sum(counts) == 0:
        return False
    singletons = sum(1 for r in NATURAL_RANKS if counts[r] == 1 and r not in melds)
    b3 = counts[3]
    if singletons + (1 if b3 in (1, 2) else 0) > 1 or b3 == 2:
        return False  # more than one card that can only be discarded
    if required > 0 and _canasta_bound(counts, melds, ratio, canasta_size) < required:
        return False  # not even every card of the hand would make the canastas
    if _placement(counts, melds, ratio, black_three_max, canasta_size, required, False):
        return True
    # Then with a final discard of one card of each kind held.  _placement refuses at once a
    # hand holding a single natural of a rank the side has not melded, or a black-three count
    # outside 3 … black_three_max; and it reads jokers and twos only as wild cards, so
    # discarding either is the same: those discards are not tried.
    lone = [r for r in NATURAL_RANKS if counts[r] == 1 and r not in melds]
    b3_ok = not b3 or 3 <= b3 <= black_three_max
    rest = list(counts)
    wild_tried = False
    for k in range(14):
        if not counts[k]:
            continue
        if k == 3:
            if lone or not (b3 == 1 or 3 <= b3 - 1 <= black_three_max):
                continue
        elif not b3_ok:
            continue
        elif k == 0 or k == 2:
            if lone or wild_tried:
                continue
            wild_tried = True
        elif lone:
            if k != lone[0]:
                continue
        elif k not in melds and counts[k] == 2:
            continue  # the other card of the pair would be left alone
        rest[k] -= 1
        ok = _placement(rest, melds, ratio, black_three_max, canasta_size, required, True)
        rest[k] += 1
        if ok:
            return True
    return False
