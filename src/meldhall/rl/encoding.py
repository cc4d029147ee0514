"""Observation tensors: a fixed-shape ``numpy.float32`` vector of what one seat may know.

:func:`encoder_for` returns the encoder of a game and its options; ``encoder.encode(obs)``
turns a :class:`~meldhall.game.Observation` (nothing hidden from the seat can enter) into a
vector of ``encoder.size`` floats, laid out in named slices (``encoder.slices``, each
``(name, start, stop, description)``, listed in docs/rl.md).  ``encoder.encode_state(state,
seat)`` gives the same vector from a state without building the observation, reading only
what the observation holds: the public fields it copies (checked against the observation
class's ``PUBLIC_FIELDS`` when the encoder is built), the seat's own hand, the number of
cards in each hand and in the stock, and the observation class's ``private_of``.

Conventions shared by every game:

* **Seats and sides are relative to the observer**: index 0 is the observing seat (or its
  side), 1 the next seat clockwise (or the side of the next seat that is not the observer's),
  and so on; a policy trained on one seat plays every seat.
* **Cards are named by kind and suit, never by physical copy** (a ``7H`` of deck 0 and one of
  deck 1 give the same vector), as observations show them (CC-5.9, RR-5.10, SH-6.4).  A card
  *name* index is ``suit * 13 + rank - 1`` (suits S H D C, ace 1 … king 13) for 0–51 and 52
  for the joker; a canasta *kind* is the rank number (0 joker, 1 ace, 2 two, 3 three … 13
  king).
* Card counts are plain counts; sizes of the stock and pile are divided by the pack size;
  canasta scores by 1000 and minimums by 100; Shanghai penalty points by 100 (clipped to the
  slice's bounds, far beyond any real game).

The encoders are written for speed (docs/rl.md, "Speed"): every card set is a bitmask; the
parts that change rarely (melds, scores, known cards) are cached by the identity of the
immutable tuples the engine shares between states, or by value; the own hand and the
discard pile are counted on from the observing seat's last ones.
"""

from __future__ import annotations

import abc
import operator
from dataclasses import dataclass
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

import meldhall
from meldhall.cards import Pack
from meldhall.game import Observation
from meldhall.games.canasta.observation import staged_count
from meldhall.games.shanghai.observation import PUBLIC_FIELDS as SHANGHAI_PUBLIC_FIELDS

__all__ = ["Encoder", "CanastaEncoder", "ShanghaiEncoder", "encoder_for", "SCORE_CLIP", "cells"]

#: Scaled scores are clipped to ``[-SCORE_CLIP, SCORE_CLIP]`` (50,000 canasta points, 5,000
#: Shanghai penalty points: never reached by a game played to its end).
SCORE_CLIP = 50.0

_CANASTA_PHASES = {
    "classic-canasta": ("draw", "meld", "consent", "hand_end", "game_over"),
    "railroad-canasta": ("draw", "meld", "kitty", "choice", "hand_end", "game_over"),
}
_SHANGHAI_PHASES = ("upcard", "buy", "meld", "deal_end", "game_over")
_RAILROAD_TYPES = ("red", "black", "wild", "sevens")
#: The public fields (``Observation.public``, state attributes) the canasta tensor reads:
#: both games', then Classic's or Railroad's own (in the order ``_encode`` unpacks them).
_CANASTA_FIELDS = ("dealer", "nsides", "known", "red3", "scores", "side_of", "melds", "pile",
                   "_phase", "turn", "pile_frozen", "took", "melds_made", "b3_done",
                   "new_ranks")
_CLASSIC_FIELDS = ("seat_melded", "asker_partner", "asked", "permission", "conceal_ok",
                   "no_discard")
_RAILROAD_FIELDS = ("closed", "kitty_taken")
#: The public fields the Shanghai tensor reads (in the order ``_encode`` unpacks them).
_SHANGHAI_FIELDS = ("dealer", "hand_no", "melds", "known", "made", "buys", "scores", "pile",
                    "_phase", "turn", "queue", "rebuilds", "upcard_from", "taken",
                    "contract_now", "jokers_now", "no_supply")


@dataclass
class _Slice:
    name: str
    start: int
    stop: int
    high: float
    low: float
    doc: str


class Encoder(abc.ABC):
    """The layout of one game's tensor and its encoding.

    Attributes:
        game: the game's registry name.
        players: seats.
        size: length of the vector.
        slices: ``(name, start, stop, description)`` per slice, in order.
        low, high: ``float32`` arrays of the bounds of every element (for a ``Box``).
    """

    game: str
    players: int

    def __init__(self) -> None:
        self._slices: list[_Slice] = []
        self.size = 0
        self._at: dict[str, int] = {}

    def _add(self, name: str, n: int, doc: str, high: float = 1.0, low: float = 0.0) -> int:
        start = self.size
        self._slices.append(_Slice(name, start, start + n, high, low, doc))
        self._at[name] = start
        self.size += n
        return start

    def _finish(self) -> None:
        self.low = np.zeros(self.size, np.float32)
        self.high = np.zeros(self.size, np.float32)
        for s in self._slices:
            self.low[s.start:s.stop] = s.low
            self.high[s.start:s.stop] = s.high
        self.slices = [(s.name, s.start, s.stop, s.doc) for s in self._slices]

    def slice(self, name: str) -> slice:
        """The slice of the vector holding ``name`` (``KeyError`` for an unknown name)."""
        for s in self._slices:
            if s.name == name:
                return slice(s.start, s.stop)
        raise KeyError(name)

    @abc.abstractmethod
    def encode(self, obs: Observation) -> np.ndarray:
        """The ``float32`` vector of shape ``(size,)`` of an observation of this game."""

    @abc.abstractmethod
    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        """``encode(state.observation(seat))`` (the same vector), read from the state without
        building the observation: only what that observation holds (the public fields it
        copies, the seat's own hand and private part, the number of cards in each hand and in
        the stock)."""


def cells(array: np.ndarray) -> Any:
    """A ``memoryview`` of a 1-d array, for item writes cheaper than numpy's (float items for
    ``float32``, ints for ``int8``)."""
    return memoryview(array)  # type: ignore[arg-type]  # an ndarray is a buffer; the stubs disagree


def _count_on(cache: dict[int, tuple[Any, np.ndarray]], last: tuple[Any, np.ndarray],
              pile: tuple[int, ...], index: Any, size: int
              ) -> tuple[np.ndarray, tuple[Any, np.ndarray]]:
    """Counts (``size`` float32 cells, ``index[card]`` the cell of a card) of ``pile``: a pile
    that begins with ``last``'s pile (discards since) adds its new cards to ``last``'s counts;
    the result is cached by the identity of the tuple.  Returns the counts and the new
    ``last``."""
    if len(cache) > 256:
        cache.clear()
    before, counts = last
    k = len(before)
    if len(pile) >= k and pile[:k] == before:
        counts = counts.copy()
        new = pile[k:]
    else:
        counts = np.zeros(size, np.float32)
        new = pile
    mv = cells(counts)
    for c in new:
        mv[index[c]] += 1.0
    cache[id(pile)] = (pile, counts)
    return counts, (pile, counts)



def _card_matrix(pack: Pack, names_of: list[int], n_kinds: int, kind_of: list[int],
                 nbits: int) -> np.ndarray:
    """``(nbits, 53 + n_kinds)`` float32: row ``card id`` is one-hot of its name then kind."""
    w = np.zeros((nbits, 53 + n_kinds), np.float32)
    for c in range(pack.size):
        w[c, names_of[c]] = 1.0
        w[c, 53 + kind_of[c]] = 1.0
    return w


class _CardCounter:
    """Counts by name (53) and kind of several card bitmasks at once."""

    def __init__(self, pack: Pack, n_kinds: int, kind_of: list[int]):
        self.nbytes = (pack.size + 7) // 8
        nbits = self.nbytes * 8
        names = [(c % 52) if pack.cards[c].rank else 52 for c in range(pack.size)]
        self.w = _card_matrix(pack, names, n_kinds, kind_of, nbits)
        self.width = 53 + n_kinds
        self.names = names

    def counts(self, masks: list[int]) -> np.ndarray:
        nb = self.nbytes
        raw = b"".join([m.to_bytes(nb, "little") for m in masks])
        bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
        result: np.ndarray = bits.reshape(len(masks), nb * 8) @ self.w
        return result


def _hand_counts(last: tuple[int, np.ndarray] | None, hand: int, names: Sequence[int],
                 kinds: Sequence[int]) -> np.ndarray:
    """A new ``(67,)`` float32 row of the cards of bitmask ``hand``: count per name (53), then
    per kind (14; ``kinds[c]`` of card id ``c``).  ``last``: ``(hand, its row)`` of the same
    seat's last tensor or ``None``: its counts changed card by card for the few cards drawn,
    melded or discarded since (fewer operations than counting a dozen cards again)."""
    if last is not None and (last[0] ^ hand).bit_count() < 8:
        row = last[1].copy()
        m = last[0] & ~hand  # gone
        add = hand & ~last[0]  # come
    else:
        row = np.zeros(67, np.float32)
        m = 0
        add = hand
    hv = cells(row)
    while m:
        low = m & -m
        c = low.bit_length() - 1
        hv[names[c]] -= 1.0
        hv[53 + kinds[c]] -= 1.0
        m ^= low
    m = add
    while m:
        low = m & -m
        c = low.bit_length() - 1
        hv[names[c]] += 1.0
        hv[53 + kinds[c]] += 1.0
        m ^= low
    return row


def _rel(players: int) -> list[tuple[int, ...]]:
    """``_rel(P)[seat][s]``: the index of absolute seat ``s`` seen from ``seat``."""
    return [tuple((s - seat) % players for s in range(players)) for seat in range(players)]


def _order(players: int) -> list[tuple[int, ...]]:
    """``_order(P)[seat]``: absolute seats in relative order (the observer first)."""
    return [tuple((seat + i) % players for i in range(players)) for seat in range(players)]


class CanastaEncoder(Encoder):
    """The tensor of Classic and Railroad Canasta (slices: docs/rl.md)."""

    def __init__(self, game: str, options: Any):
        super().__init__()
        self.game = game
        self.railroad = game == "railroad-canasta"
        self.options = options
        P = self.players = options.player_count
        pack = self.pack = Pack.get(options.decks, options.jokers)
        first = meldhall.new_game(game, players=P, seed=0, options=options)
        # cutthroat regroups the sides during a hand (CC-14.1): leave room for every seat
        self.nsides = S = (P if getattr(options, "cutthroat", False)
                           else int(first.nsides))  # type: ignore[attr-defined]  # canasta
        self.phases = _CANASTA_PHASES[game]
        kinds = [pack.cards[c].rank for c in range(pack.size)]
        self.counter = _CardCounter(pack, 14, kinds)
        n = pack.size
        most = float(4 * pack.decks + pack.jokers)
        add = self._add
        add("phase", len(self.phases), "one-hot: " + ", ".join(self.phases))
        add("turn", P, "one-hot: the seat in turn (relative)")
        add("dealer", P, "one-hot: the dealer (relative)")
        add("to_act_me", 1, "1 when this seat's decision is awaited")
        add("hand_names", 53, "own hand: count per card name (suit×13 + rank−1; 52 joker)",
            float(pack.decks if pack.jokers <= pack.decks else pack.jokers))
        add("hand_kinds", 14, "own hand: count per kind (0 joker, 1 A, 2 two, 3 … 13 K)", most)
        add("known_kinds", P * 14, "per seat (relative): cards it took with the pile and "
            "still holds, per kind (CC-5.9, RR-5.10)", most)
        add("hand_sizes", P, "cards held per seat (relative)", float(n))
        add("stock_size", 1, "cards in the stock / pack size")
        add("pile_size", 1, "cards in the discard pile / pack size")
        add("pile_frozen", 1, "1 when the pile is frozen")
        add("upcard_names", 53, "one-hot name of the upcard (all 0: empty pile)")
        add("upcard_kind", 14, "one-hot kind of the upcard")
        add("pile_kinds", 14, "whole discard pile: count per kind", most)
        add("melds", S * 14 * 4, "per side (relative) and meld rank 0–13 (0: Railroad's wild "
            "meld, 3: black threes): naturals, twos, jokers, 1 if a canasta", float(n))
        add("red_threes", P, "red threes placed per seat (relative)", most)
        add("scores", S, "cumulative score per side (relative) / 1000", SCORE_CLIP, -SCORE_CLIP)
        add("minimums", S, "minimum count of a first melding per side (relative) / 100", 20.0)
        add("turn_flags", 4, "the seat in turn: took the pile, melding actions made (count), "
            "a black-three meld made this turn, stage actions made / 20", 100.0)
        add("new_ranks", 14, "ranks of the melds begun this turn (1 each)")
        add("staged", 14 * 3, "own staged melds (CC-6.9): naturals, twos, jokers per rank",
            most)
        add("staged_info", 2, "own staged: 1 when the first is a take's upcard meld; the "
            "staged count / 100", 100.0)
        if self.railroad:
            add("closed", P * 4, "closed canastas per seat (relative) by type: red, black, "
                "wild, sevens (RR-6.9)", float(n))
            add("kitty_sizes", P, "cards in each seat's untaken kitty (relative)", float(n))
            add("kitty_taken", P, "1 per seat (relative) that has taken its kitty")
            add("my_kitty", 15, "own kitty per kind, once this seat may look at it "
                "(RR-10.2), then a 1", most)
        else:
            add("consent", 4, "\"may I go out?\" (CC-10.5): asked, answered yes, answered "
                "no; 1 when the seat in turn may still go out concealed (CC-10.6)")
            add("seat_melded", P, "1 per seat (relative) that has melded this hand")
            add("no_discard", 1, "1 when the last stock card drawn was a red three (CC-11.2)")
        self._finish()
        self.rel = _rel(P)
        self.order = _order(P)
        self._meld_cache: dict[int, tuple[Any, list[int], np.ndarray]] = {}
        self._known_cache: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}
        self._pile_cache: dict[int, tuple[Any, np.ndarray]] = {}
        self._rows: dict[int, np.ndarray] = {}
        self._slow_cache: dict[int, tuple[tuple[Any, ...], np.ndarray]] = {}
        self._sides: dict[int, list[int]] = {}
        self._side_rows: dict[int, tuple[Any, np.ndarray]] = {}
        self._bases: list[tuple[Any, ...] | None] = [None] * P
        self._hands: list[tuple[int, np.ndarray] | None] = [None] * P
        self._no_melds = np.zeros(56, np.float32)
        self._kinds: dict[int, np.ndarray] = {}
        self._last_pile: tuple[tuple[int, ...], np.ndarray] = ((), np.zeros(14, np.float32))
        self._kind_of = self.pack.rank_of
        self._phase_index = {ph: i for i, ph in enumerate(self.phases)}
        self._pack_size = float(n)
        self._names = self.counter.names
        at = self._at
        self._offsets = tuple(at[k] for k in (
            "phase", "turn", "to_act_me", "hand_names", "known_kinds", "hand_sizes",
            "stock_size",
            "pile_size", "pile_frozen", "upcard_names", "upcard_kind", "pile_kinds", "melds",
            "turn_flags", "new_ranks", "staged", "staged_info",
            "my_kitty" if self.railroad else "consent"))
        self._o_no_discard = -1 if self.railroad else at["no_discard"]
        # what the tensor reads of the public part of an observation, by name: only fields
        # the observation class copies into ``public`` (so the state path reads no more)
        self._obs_class: Any = cast(Any, type(first.observation(0)))
        fields = _CANASTA_FIELDS
        extra = _RAILROAD_FIELDS if self.railroad else _CLASSIC_FIELDS
        public = set(self._obs_class.PUBLIC_FIELDS)
        assert public.issuperset(fields + extra), set(fields + extra) - public
        self._public_items = operator.itemgetter(*fields)
        self._public_attrs = operator.attrgetter(*fields)
        self._extra_items = operator.itemgetter(*extra)
        self._extra_attrs = operator.attrgetter(*extra)

    def _side_order(self, side_of: tuple[int, ...], seat: int, nsides: int) -> list[int]:
        """Absolute sides in relative order: the observer's, then by the seats after it."""
        out: list[int] = []
        for s in self.order[seat]:
            sd = side_of[s]
            if sd not in out:
                out.append(sd)
        for sd in range(nsides):
            if sd not in out:
                out.append(sd)
        return out

    def _melds(self, melds: Any, sides: list[int], seat: int) -> np.ndarray:
        """The ``melds`` slice for ``seat`` (cached by the identity of the melds tuple; built
        from the rows of each side's melds, cached by the identity of its tuple, which the
        engine keeps while that side's melds do not change)."""
        hit = self._meld_cache.get(seat)
        if hit is not None and hit[0] is melds and hit[1] == sides:
            return hit[2]
        rows = self._side_rows
        if len(rows) > 1024:
            rows.clear()
        parts = []
        for sd in sides:
            if sd >= len(melds):
                parts.append(self._no_melds)
                continue
            side = melds[sd]
            got = rows.get(id(side))
            if got is None or got[0] is not side:
                got = rows[id(side)] = (side, self._side_row(side))
            parts.append(got[1])
        parts += [self._no_melds] * (self.nsides - len(parts))
        out = np.concatenate(parts)
        self._meld_cache[seat] = (melds, sides, out)
        return out

    def _side_row(self, side: tuple[Any, ...]) -> np.ndarray:
        """56 floats: naturals, twos, jokers and 1 if a canasta, per meld rank 0–13."""
        out = np.zeros(56, np.float32)
        mv = cells(out)
        for m in side:
            if m is None:
                continue
            o = m.rank * 4
            mv[o] = float(m.naturals)
            mv[o + 1] = float(m.twos)
            mv[o + 2] = float(m.jokers)
            if m.rank != 3 and m.naturals + m.twos + m.jokers >= 7:
                mv[o + 3] = 1.0
        return out

    def _known(self, known: tuple[int, ...], seat: int) -> np.ndarray:
        """The ``known_kinds`` slice for ``seat`` (cached by the values of the tuple: the
        same few recur; built from the kind counts of each mask, cached by value)."""
        cache = self._known_cache
        key = (seat, known)
        out = cache.get(key)
        if out is None:
            if len(cache) > 4096:
                cache.clear()
            kinds = self._kinds
            if len(kinds) > 4096:
                kinds.clear()
            parts = []
            for s in self.order[seat]:
                m = known[s]
                row = kinds.get(m)
                if row is None:
                    row = kinds[m] = np.array(self.pack.rank_counts(m), np.float32)
                parts.append(row)
            out = cache[key] = np.concatenate(parts)
        return out

    def _pile_kinds(self, pile: tuple[int, ...]) -> np.ndarray:
        """Counts per kind (14) of the discard pile, cached by the identity of the tuple; a
        pile that begins with the last one counted (discards since) adds its new cards to
        that one's counts."""
        hit = self._pile_cache.get(id(pile))
        if hit is not None and hit[0] is pile:
            return hit[1]
        counts, self._last_pile = _count_on(self._pile_cache, self._last_pile, pile,
                                            self._kind_of, 14)
        return counts

    def _row(self, mask: int) -> np.ndarray:
        """Counts by name then kind (67) of a card bitmask, cached by its value."""
        cache = self._rows
        row = cache.get(mask)
        if row is None:
            if len(cache) > 4096:
                cache.clear()
            row = cache[mask] = self.counter.counts([mask])[0]
        return row

    def _slow(self, seat: int, dealer: int, nsides: int, red3: tuple[int, ...],
              scores: tuple[int, ...], side_of: tuple[int, ...], extra: tuple[Any, ...]
              ) -> np.ndarray:
        """The slices that change seldom (red threes, scores, minimums, the
        dealer, Railroad's closed canastas and kitties, who has melded), cached by the
        identity of the engine's immutable tuples and the values of its flags (``extra``:
        Classic's ``seat_melded``; Railroad's ``closed``, ``kitty_taken`` and the kitty
        sizes)."""
        railroad = self.railroad
        key = (seat, dealer, nsides, red3, scores, side_of) + extra
        hit = self._slow_cache.get(seat)
        if hit is not None and hit[0] == key:  # element by element, identity first
            return hit[1]
        at = self._at
        P = self.players
        rel = self.rel[seat]
        out = np.zeros(self.size, np.float32)
        sides = self._side_order(side_of, seat, nsides)
        self._sides[seat] = sides
        idx: list[int] = [at["dealer"] + rel[dealer]]
        val: list[float] = [1.0]
        a = at["red_threes"]
        for s, m in enumerate(red3):
            if m:
                idx.append(a + rel[s])
                val.append(m.bit_count())
        mins = self._obs_class.minimums_of(self.options, scores, side_of, nsides)
        a = at["scores"]
        b = at["minimums"]
        for i, sd in enumerate(sides):
            # Railroad and cutthroat score per player: their "sides" are the seats
            if sd < len(scores):
                v = scores[sd] / 1000.0
                idx.append(a + i)
                val.append(max(-SCORE_CLIP, min(SCORE_CLIP, v)))
            if sd < len(mins) and mins[sd] is not None:
                idx.append(b + i)
                val.append(mins[sd] / 100.0)
        if railroad:
            closed, taken, kitty_sizes = extra
            a = at["closed"]
            tix = _RAILROAD_TYPES
            for s, cl in enumerate(closed):
                for kind, _m in cl:
                    idx.append(a + rel[s] * 4 + tix.index(kind))
                    val.append(1.0)
            a = at["kitty_sizes"]
            b = at["kitty_taken"]
            for s, k in enumerate(kitty_sizes):
                idx.append(a + rel[s])
                val.append(k)
                if (taken >> s) & 1:
                    idx.append(b + rel[s])
                    val.append(1.0)
        else:
            sm = extra[0]
            if sm:
                a = at["seat_melded"]
                for s in range(P):
                    if (sm >> s) & 1:
                        idx.append(a + rel[s])
                        val.append(1.0)
        if railroad:
            np.add.at(out, idx, val)  # closed canastas of one type add up
        else:
            out[idx] = val
        self._slow_cache[seat] = (key, out)
        return out

    def encode(self, obs: Observation) -> np.ndarray:
        """The tensor of a canasta observation (shape ``(size,)``, ``float32``)."""
        p = obs.public
        return self._encode(obs.seat, obs.hand, obs.hand_sizes,  # type: ignore[attr-defined]
                            obs.stock_size, self._public_items(p),  # type: ignore[attr-defined]
                            self._extra_items(p), obs.private)  # type: ignore[attr-defined]

    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        """``encode(state.observation(seat))``, the same vector, read from the state without
        building the observation: the public fields the observation copies (the encoder's
        field names are checked against the observation class's ``PUBLIC_FIELDS`` when it is
        built), the seat's own hand, the number of cards in each hand and in the stock, and
        the observation class's own ``private_of(state, seat)``.

        Args:
            state: a state of this encoder's game and options.
            seat: the observing seat.
        """
        return self._encode(seat, state.hands[seat], tuple(map(int.bit_count, state.hands)),
                            len(state.stock), self._public_attrs(state),
                            self._extra_attrs(state),
                            self._obs_class.private_of(state, seat))

    def _encode(self, seat: int, hand: int, hs: tuple[int, ...], stock_size: int,
                v: tuple[Any, ...], extra: tuple[Any, ...], priv: dict[str, Any]
                ) -> np.ndarray:
        (dealer, nsides, known, red3, scores, side_of, melds, pile, ph, turn, frozen, took,
         melds_made, b3_done, nr) = v
        railroad = self.railroad
        # what the seldom-changing slices depend on besides the melds and known cards
        slow = (extra + (priv["kitty_sizes"],)) if railroad else extra[:1]
        P = self.players
        (o_phase, o_turn, o_me, o_hand, o_known, o_hs, o_stock, o_pile, o_frozen, o_upn,
         o_upk, o_pk, o_melds, o_flags, o_new, o_staged, o_sinfo, o_last) = self._offsets
        rel = self.rel[seat]
        # the seldom-changing slices (_slow, known cards, melds) of this seat's last tensor,
        # checked inline: the engine shares unchanged values between states (identity)
        bases = self._bases
        b = bases[seat]
        if (b is None or b[0] is not melds or not (b[1] is known or b[1] == known)
                or not (b[2] is scores or b[2] == scores) or b[3] != red3
                or b[4] != side_of or b[5] != dealer or b[6] != nsides or b[7] != slow):
            base = self._slow(seat, dealer, nsides, red3, scores, side_of, slow).copy()
            base[o_known:o_known + 14 * P] = self._known(known, seat)
            base[o_melds:o_melds + self.nsides * 56] = self._melds(melds, self._sides[seat],
                                                                   seat)
            b = bases[seat] = (melds, known, scores, red3, side_of, dealer, nsides, slow, base)
        out = b[8].copy()
        pcache = self._pile_cache
        hit = pcache.get(id(pile))
        out[o_pk:o_pk + 14] = (hit[1] if hit is not None and hit[0] is pile
                               else self._pile_kinds(pile))

        names = self._names
        kind_of = self._kind_of
        row = _hand_counts(self._hands[seat], hand, names, kind_of)
        self._hands[seat] = (hand, row)
        out[o_hand:o_hand + 67] = row
        # single values: written through a memoryview (cheaper than numpy item access)
        mv = cells(out)
        mv[o_phase + self._phase_index[ph]] = 1.0
        mv[o_turn + rel[turn]] = 1.0
        if ph == "consent":
            me = seat == extra[1]
        elif ph == "hand_end":
            me = seat == (dealer + 1) % P
        elif ph == "game_over":
            me = False
        else:
            me = seat == turn
        if me:
            mv[o_me] = 1.0
        for s in range(P):
            mv[o_hs + rel[s]] = hs[s]
        n = self._pack_size
        mv[o_stock] = stock_size / n
        mv[o_pile] = len(pile) / n
        if frozen:
            mv[o_frozen] = 1.0
        if pile:
            up = pile[-1]
            mv[o_upn + names[up]] = 1.0
            mv[o_upk + kind_of[up]] = 1.0
        if took:
            mv[o_flags] = 1.0
        mv[o_flags + 1] = melds_made
        if b3_done:
            mv[o_flags + 2] = 1.0
        if priv:
            mv[o_flags + 3] = priv.get("stages", 0) / 20.0
            staged = priv.get("staged")
            if staged:
                for sp in staged:  # Railroad may stage two seven-card melds of one rank
                    o = o_staged + sp.rank * 3
                    mv[o] += sp.naturals
                    mv[o + 1] += sp.twos
                    mv[o + 2] += sp.jokers
                up_staged = bool(priv.get("staged_up"))
                if up_staged:
                    mv[o_sinfo] = 1.0
                mv[o_sinfo + 1] = staged_count(staged, up_staged) / 100.0
        if nr:
            for r in range(14):
                if (nr >> r) & 1:
                    mv[o_new + r] = 1.0
        if railroad:
            kitty = priv["kitty"]
            if kitty is not None:
                out[o_last:o_last + 14] = self._row(kitty)[53:]
                mv[o_last + 14] = 1.0
        else:
            _sm, _partner, asked, perm, conceal_ok, no_discard = extra
            if asked:
                mv[o_last] = 1.0
            if perm is True:
                mv[o_last + 1] = 1.0
            elif perm is False:
                mv[o_last + 2] = 1.0
            if conceal_ok:
                mv[o_last + 3] = 1.0
            if no_discard:
                mv[self._o_no_discard] = 1.0
        return out


class ShanghaiEncoder(Encoder):
    """The tensor of Shanghai Rummy (slices: docs/rl.md)."""

    def __init__(self, options: Any):
        super().__init__()
        self.game = "shanghai-rummy"
        self.options = options
        P = self.players = options.player_count
        pack = self.pack = Pack.get(options.num_decks, options.num_jokers)
        self.n52 = 52 * pack.decks
        # kinds here: rank 1..13 by index rank-1, the joker 13
        kinds = [(pack.cards[c].rank - 1) if pack.cards[c].rank else 13
                 for c in range(pack.size)]
        self.counter = _CardCounter(pack, 14, kinds)
        self._kinds = kinds
        self._hands: list[tuple[int, np.ndarray] | None] = [None] * P
        self._known_cache: dict[tuple[int, tuple[int, ...]], np.ndarray] = {}
        self._last_pile: tuple[tuple[int, ...], np.ndarray] = ((), np.zeros(53, np.float32))
        self.max_melds = M = 4 * P
        n = float(pack.size)
        most = float(4 * pack.decks + pack.jokers)
        per_name = float(max(pack.decks, pack.jokers))
        add = self._add
        add("phase", len(_SHANGHAI_PHASES), "one-hot: " + ", ".join(_SHANGHAI_PHASES))
        add("turn", P, "one-hot: the seat in turn (relative)")
        add("dealer", P, "one-hot: the dealer (relative)")
        add("to_act_me", 1, "1 when this seat's decision is awaited (its turn, or the upcard "
            "offered to it in a buy window)")
        add("contract", 10, "one-hot: this deal's contract number 1–10 (SH-5.2)")
        add("hand_names", 53, "own hand: count per card name", per_name)
        add("hand_ranks", 14, "own hand: count per rank (A … K), then jokers", most)
        add("known_names", P * 53, "per seat (relative): cards publicly known to be in its "
            "hand (the upcard taken, cards bought), per name", per_name)
        add("hand_sizes", P, "cards held per seat (relative)", n)
        add("stock_size", 1, "cards in the stock / pack size")
        add("pile_size", 1, "cards in the discard pile / pack size")
        add("rebuilds", 1, "stock rebuilds this deal", 100.0)
        add("upcard_names", 53, "one-hot name of the upcard")
        add("pile_names", 53, "whole discard pile: count per name", per_name)
        add("melds", M * (6 + P), "per table meld slot 1 … 4P (the numbers the lay-off and "
            "swap actions name): present, run, set rank / 13, run suit / 3, lowest and "
            "highest position / 14, then one-hot owner (relative)", n)
        add("table_names", 53, "every card on the table by declared name (a joker counts "
            "as its declared card)", most)
        add("table_jokers", 53, "jokers on the table by declared name", most)
        add("made", P, "1 per seat (relative) that has made this deal's contract")
        add("buys", P, "buys per seat (relative) this deal", 100.0)
        add("buy_limit", 2, "buys allowed per player this deal; 1 if unlimited (SH-10.6)",
            100.0)
        add("buy_queue", P, "the buy window (SH-10.3): for each seat (relative) its place in "
            "the queue of seats still to be offered the upcard (1 = now), 0 if not in it",
            float(P))
        add("upcard_from", P, "one-hot: the seat (relative) that discarded the upcard")
        add("taken_names", 53, "one-hot: the upcard taken as this turn's draw")
        add("turn_flags", 3, "the seat in turn: made the contract this turn, jokers laid this "
            "turn, no buy could be offered", 100.0)
        add("scores", P, "cumulative penalty points per seat (relative) / 100", SCORE_CLIP * 10,
            -SCORE_CLIP * 10)
        add("staged_names", 53, "own staged melds (SH-8.1): their cards by declared name",
            most)
        add("staged_info", 3, "own staged: sets, runs, stage actions made / 12", 100.0)
        self._finish()
        self.rel = _rel(P)
        self.order = _order(P)
        self._phase_index = {ph: i for i, ph in enumerate(_SHANGHAI_PHASES)}
        self._meld_cache: dict[tuple[int, int], tuple[Any, list[int], list[float]]] = {}
        self._pile_cache: dict[int, tuple[Any, np.ndarray]] = {}
        self._rows: dict[int, np.ndarray] = {}
        self._slow_cache: dict[int, tuple[tuple[Any, ...], np.ndarray]] = {}
        self._n = n
        first = meldhall.new_game(self.game, players=P, seed=0, options=options)
        self._obs_class: Any = cast(Any, type(first.observation(0)))
        public = set(SHANGHAI_PUBLIC_FIELDS)
        assert public.issuperset(_SHANGHAI_FIELDS), set(_SHANGHAI_FIELDS) - public
        self._public_items = operator.itemgetter(*_SHANGHAI_FIELDS)
        self._public_attrs = operator.attrgetter(*_SHANGHAI_FIELDS)

    def _melds(self, melds: Any, seat: int) -> tuple[list[int], list[float]]:
        key = (seat, id(melds))
        hit = self._meld_cache.get(key)
        if hit is not None and hit[0] is melds:
            return hit[1], hit[2]
        rel = self.rel[seat]
        w = 6 + self.players
        base = self._at["melds"]
        tn = self._at["table_names"]
        tj = self._at["table_jokers"]
        n52 = self.n52
        idx: list[int] = []
        val: list[float] = []
        table: dict[int, float] = {}
        for i, m in enumerate(melds[:self.max_melds]):
            o = base + i * w
            idx += (o, o + 1, o + 2, o + 3, o + 4, o + 5, o + 6 + rel[m.owner])
            if m.run:
                val += (1.0, 1.0, 0.0, m.suit / 3.0, m.lo / 14.0, m.hi / 14.0, 1.0)
            else:
                val += (1.0, 0.0, m.rank / 13.0, 0.0, 0.0, 0.0, 1.0)
            # cards and jokers go in two more places: reuse the meld's slot layout
            for c, d in zip(m.cards, m.decl):
                k = d if d < 52 else 52
                table[tn + k] = table.get(tn + k, 0.0) + 1.0
                if c >= n52:
                    table[tj + k] = table.get(tj + k, 0.0) + 1.0
        idx += table.keys()
        val += table.values()
        if len(self._meld_cache) > 256:
            self._meld_cache.clear()
        self._meld_cache[key] = (melds, idx, val)
        return idx, val

    def _known(self, known: tuple[int, ...], seat: int) -> np.ndarray:
        """The ``known_names`` slice for ``seat``, cached by the values of the tuple (built
        from the name counts of each mask, cached by value)."""
        cache = self._known_cache
        key = (seat, known)
        out = cache.get(key)
        if out is None:
            if len(cache) > 4096:
                cache.clear()
            out = cache[key] = np.concatenate([self._row(known[s])[:53]
                                               for s in self.order[seat]])
        return out

    def _pile_names(self, pile: tuple[int, ...]) -> np.ndarray:
        """Counts per name (53) of the discard pile, cached by the identity of the tuple; a
        pile that begins with the last one counted adds its new cards to that one's
        counts."""
        counts, self._last_pile = _count_on(self._pile_cache, self._last_pile, pile,
                                            self.counter.names, 53)
        return counts

    def _row(self, mask: int) -> np.ndarray:
        """Counts by name then rank (67) of a card bitmask, cached by its value."""
        cache = self._rows
        row = cache.get(mask)
        if row is None:
            if len(cache) > 4096:
                cache.clear()
            row = cache[mask] = self.counter.counts([mask])[0]
        return row

    def _slow(self, seat: int, dealer: int, hand_no: int, melds: Any, made: int,
              buys: tuple[int, ...], scores: tuple[int, ...]) -> np.ndarray:
        """The slices that change seldom (melds, who made the contract, buys, scores, the
        dealer, the contract), cached by the identity of the engine's immutable tuples and
        the values of its numbers."""
        key = (seat, dealer, hand_no, melds, made, buys, scores)
        hit = self._slow_cache.get(seat)
        if hit is not None and hit[0] == key:  # element by element, identity first
            return hit[1]
        at = self._at
        P = self.players
        rel = self.rel[seat]
        out = np.zeros(self.size, np.float32)
        options = self.options
        contract = hand_no + 1 if hand_no < options.deals else 10
        idx: list[int] = [at["dealer"] + rel[dealer], at["contract"] + contract - 1]
        val: list[float] = [1.0, 1.0]
        b = at["made"]
        c = at["buys"]
        for s in range(P):
            r = rel[s]
            idx.append(c + r)
            val.append(buys[s])
            if (made >> s) & 1:
                idx.append(b + r)
                val.append(1.0)
        mi, mv = self._melds(melds, seat)
        idx += mi
        val += mv
        limit = options.buy_limit(contract)
        a = at["buy_limit"]
        if limit is None:
            idx.append(a + 1)
            val.append(1.0)
        else:
            idx.append(a)
            val.append(float(limit))
        a = at["scores"]
        lim = SCORE_CLIP * 10
        for s, v in enumerate(scores):
            idx.append(a + rel[s])
            val.append(max(-lim, min(lim, v / 100.0)))
        out[idx] = val
        self._slow_cache[seat] = (key, out)
        return out

    def encode(self, obs: Observation) -> np.ndarray:
        """The tensor of a Shanghai observation (shape ``(size,)``, ``float32``)."""
        return self._encode(obs.seat, obs.hand, obs.hand_sizes,  # type: ignore[attr-defined]
                            obs.stock_size,  # type: ignore[attr-defined]
                            self._public_items(obs.public),
                            obs.staged, obs.stages)  # type: ignore[attr-defined]

    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        """``encode(state.observation(seat))`` read from the state without building the
        observation (as :meth:`CanastaEncoder.encode_state`: only the public fields the
        observation copies, the seat's own hand and staged melds, card counts)."""
        staged, stages = self._obs_class.private_of(state, seat)
        return self._encode(seat, state.hands[seat], tuple(map(int.bit_count, state.hands)),
                            len(state.stock), self._public_attrs(state), staged, stages)

    def _encode(self, seat: int, hand: int, hs: tuple[int, ...], stock_size: int,
                v: tuple[Any, ...], staged: Any, stages: int) -> np.ndarray:
        (dealer, hand_no, melds, known, made, buys, scores, pile, ph, turn, queue, rebuilds,
         upcard_from, taken, contract_now, jokers_now, no_supply) = v
        P = self.players
        at = self._at
        rel = self.rel[seat]
        out = self._slow(seat, dealer, hand_no, melds, made, buys, scores).copy()
        a = at["known_names"]
        out[a:a + 53 * P] = self._known(known, seat)
        a = at["hand_names"]
        row = _hand_counts(self._hands[seat], hand, self.counter.names, self._kinds)
        self._hands[seat] = (hand, row)
        out[a:a + 67] = row
        hit = self._pile_cache.get(id(pile))
        a = at["pile_names"]
        out[a:a + 53] = (hit[1] if hit is not None and hit[0] is pile
                         else self._pile_names(pile))

        mv = cells(out)
        mv[at["phase"] + self._phase_index[ph]] = 1.0
        mv[at["turn"] + rel[turn]] = 1.0
        if ph == "buy":
            me = queue[0] == seat
        elif ph == "deal_end":
            me = seat == (dealer + 1) % P
        elif ph == "game_over":
            me = False
        else:
            me = seat == turn
        if me:
            mv[at["to_act_me"]] = 1.0
        a = at["hand_sizes"]
        for s in range(P):
            mv[a + rel[s]] = float(hs[s])
        n = self._n
        mv[at["stock_size"]] = stock_size / n
        mv[at["pile_size"]] = len(pile) / n
        mv[at["rebuilds"]] = float(rebuilds)
        names = self.counter.names
        if pile:
            mv[at["upcard_names"] + names[pile[-1]]] = 1.0
        a = at["buy_queue"]
        for i, s in enumerate(queue):
            mv[a + rel[s]] = float(i + 1)
        if upcard_from >= 0:
            mv[at["upcard_from"] + rel[upcard_from]] = 1.0
        if taken >= 0:
            mv[at["taken_names"] + names[taken]] = 1.0
        a = at["turn_flags"]
        if contract_now:
            mv[a] = 1.0
        mv[a + 1] = float(jokers_now)
        if no_supply:
            mv[a + 2] = 1.0
        b = at["staged_info"]
        if staged:
            a = at["staged_names"]
            sets = runs = 0
            for sp in staged:
                if sp.is_run:
                    runs += 1
                else:
                    sets += 1
                for k, _j in sp.declared():  # several staged cards may share a name
                    mv[a + k] += 1.0
            mv[b] = float(sets)
            mv[b + 1] = float(runs)
        mv[b + 2] = stages / 12.0
        return out


_ENCODERS: dict[tuple[str, Any], Encoder] = {}


def encoder_for(game: str, options: Any) -> Encoder:
    """The (shared) encoder of ``game`` with ``options`` (the game's options object).

    Raises:
        meldhall.OptionsError: an unknown game.
    """
    key = (game, options)
    enc = _ENCODERS.get(key)
    if enc is None:
        if game == "shanghai-rummy":
            enc = ShanghaiEncoder(options)
        elif game in _CANASTA_PHASES:
            enc = CanastaEncoder(game, options)
        else:
            raise meldhall.OptionsError(f"no observation tensor for the game {game!r}")
        _ENCODERS[key] = enc
    return enc
