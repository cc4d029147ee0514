"""Cards, packs and card notation.

Every physical card has an identity: rank, suit and deck index (jokers: a joker index).
Within a :class:`Pack` each physical card is also a small integer *card id*, so that engines
can hold sets of cards as ``int`` bitmasks over ids (``1 << card_id``).

Notation (docs/notation.md): rank then suit, ``AS KH QD JC 10S 9H … 2C``; the joker is ``JK``.
Parsing also accepts ``T`` for ten, lower case, and the suit symbols ♠ ♥ ♦ ♣.  A physical
copy is written with its deck index after a slash: ``7H/1``, ``JK/3``.  Deck indices appear
only where hidden information is held anyway (positions, records); what a seat is shown names
cards by rank and suit (``str(card)``), in an order that does not depend on the copies.

Which identical copy moves when an action names cards by kind is chosen by
:func:`choose_copies`: uniformly at random among the copies the player may use, from a stream
keyed (:func:`copy_key`) to hidden state no seat can observe, so a watcher learns no more than
from a player who picks at random among their own cards.

Source: rules README "Card notation"; CC-2.3 (every physical card keeps its identity).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from meldhall.errors import NotationError

__all__ = [
    "JOKER",
    "ACE",
    "JACK",
    "QUEEN",
    "KING",
    "RANK_NAMES",
    "SUIT_NAMES",
    "Card",
    "Pack",
    "choose_copies",
    "copy_key",
    "copy_key4",
    "copy_key_from",
    "hand_key",
    "parse_card",
    "parse_rank",
    "parse_cards",
    "format_rank",
    "iter_ids",
]

#: Rank numbers: the joker is 0, ace 1, number cards their value, J 11, Q 12, K 13.
JOKER = 0
ACE = 1
JACK = 11
QUEEN = 12
KING = 13

#: Rank number -> notation.
RANK_NAMES = {0: "JK", 1: "A", 11: "J", 12: "Q", 13: "K", **{n: str(n) for n in range(2, 11)}}
#: Suit number -> notation.  0 spades, 1 hearts, 2 diamonds, 3 clubs.
SUIT_NAMES = ("S", "H", "D", "C")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
RED_SUITS = frozenset({1, 2})

_RANK_TOKENS = {
    "A": 1, "K": 13, "Q": 12, "J": 11, "T": 10,
    **{str(n): n for n in range(2, 11)},
    "JK": 0, "JOKER": 0,
}
_SUIT_TOKENS = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One physical card.

    Attributes:
        rank: 0 for a joker, 1 (ace) to 13 (king).
        suit: 0..3 (spades, hearts, diamonds, clubs); ``None`` for a joker.
        deck: deck index of a standard card, or joker index for a joker.

    ``str(card)`` is the short notation (``7H``, ``JK``); ``card.physical`` adds the deck
    index (``7H/1``); ``repr(card)`` is ``Card.parse('7H/1')``, which evaluates back.
    """

    rank: int
    suit: int | None
    deck: int = 0

    @property
    def is_joker(self) -> bool:
        """True for a joker."""
        return self.rank == JOKER

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds (used to tell red threes from black, CC-2.4)."""
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        if self.rank == JOKER:
            return "JK"
        suit = self.suit
        # a bare rank (parse_card(..., suit_required=False)) is written without a suit
        return RANK_NAMES[self.rank] + ("" if suit is None else SUIT_NAMES[suit])

    @property
    def physical(self) -> str:
        """Notation with the deck index, e.g. ``7H/1`` or ``JK/3``."""
        return f"{self}/{self.deck}"

    @property
    def pretty(self) -> str:
        """Notation with a suit symbol, e.g. ``7♥``."""
        if self.rank == JOKER:
            return "Jk"
        suit = self.suit
        return RANK_NAMES[self.rank] + ("" if suit is None else SUIT_SYMBOLS[suit])

    def __repr__(self) -> str:
        return f"Card.parse({self.physical!r})"

    @staticmethod
    def parse(text: str) -> Card:
        """Parse card notation; see :func:`parse_card`."""
        return parse_card(text)


def parse_rank(token: str) -> int:
    """Parse a rank alone (``K``, ``10``, ``T``, ``JK``) into a rank number.

    Raises:
        NotationError: the token is not a rank.
    """
    t = token.strip().upper()
    if t in _RANK_TOKENS:
        return _RANK_TOKENS[t]
    raise NotationError(f"{token!r} is not a rank: expected A, K, Q, J, 10 (or T), 9 … 2, or JK")


def format_rank(rank: int) -> str:
    """Rank number -> notation (``0`` -> ``JK``, ``1`` -> ``A``, ``10`` -> ``10``)."""
    return RANK_NAMES[rank]


def parse_card(text: str, *, suit_required: bool = True) -> Card:
    """Parse one card: ``7H``, ``10s``, ``TS``, ``Q♦``, ``JK``, ``7H/1``, ``JK/2``.

    Args:
        text: the notation.
        suit_required: if False a bare rank (``7``) is accepted and gets ``suit=None``.

    Returns:
        A :class:`Card` (deck index 0 unless given after a slash).

    Raises:
        NotationError: with a sentence saying what was expected.
    """
    raw = text.strip()
    body, _, deck_txt = raw.partition("/")
    deck = 0
    if deck_txt:
        if not deck_txt.isdigit():
            raise NotationError(f"{text!r}: the deck index after '/' must be a number, e.g. 7H/1")
        deck = int(deck_txt)
    b = body.upper()
    if b in ("JK", "JOKER"):
        return Card(JOKER, None, deck)
    if len(b) < 1:
        raise NotationError("empty card: expected e.g. 7H, 10S, QD, JK")
    if b[-1] in _SUIT_TOKENS and len(b) >= 2:
        rank_txt, suit = b[:-1], _SUIT_TOKENS[b[-1]]
    elif not suit_required:
        rank_txt, suit = b, None
    else:
        raise NotationError(
            f"{text!r} is not a card: expected rank then suit, e.g. 7H, 10S, QD, AC, or JK"
        )
    if rank_txt not in _RANK_TOKENS or _RANK_TOKENS[rank_txt] == JOKER:
        raise NotationError(
            f"{text!r} is not a card: {rank_txt!r} is not a rank (A, K, Q, J, 10/T, 9 … 2)"
        )
    return Card(_RANK_TOKENS[rank_txt], suit, deck)


def parse_cards(text: str) -> list[Card]:
    """Parse a space- or comma-separated list of cards (``"AS KH 10D JK"``).

    Raises:
        NotationError: on the first token that is not a card.
    """
    return [parse_card(t) for t in text.replace(",", " ").split()]


def iter_ids(mask: int) -> Iterator[int]:
    """Yield the card ids set in a bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_M64 = (1 << 64) - 1


def _mix(x: int) -> int:
    """SplitMix64's finaliser: a 64-bit integer to a well-mixed 64-bit integer."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


def copy_key(*parts: int) -> int:
    """A 64-bit key mixed from whole numbers of any size and sign (a seed, a hand's bitmask, a
    count…), for :func:`choose_copies`.  Deterministic on every platform (no ``hash()``)."""
    return copy_key_from(0, *parts)


def copy_key_from(h: int, *parts: int) -> int:
    """:func:`copy_key` of earlier parts and ``parts``, from ``h``, the :func:`copy_key` of the
    earlier parts (``copy_key(a, b, c) == copy_key_from(copy_key(a, b), c)``)."""
    for p in parts:
        if 0 <= p <= _M64:  # one 64-bit word (the usual case): the loop below, once
            x = ((h ^ p) + 0x9E3779B97F4A7C15) & _M64
            x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
            x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
            h = x ^ (x >> 31)
            continue
        if p < 0:
            p = (~p << 1) | 1  # fold the sign in, so the loop below ends
        while True:
            # _mix(h ^ (p & _M64)), written out: this runs for every copy the engine chooses
            x = ((h ^ (p & _M64)) + 0x9E3779B97F4A7C15) & _M64
            x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
            x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
            h = x ^ (x >> 31)
            p >>= 64
            if not p:
                break
    return h


def copy_key4(h: int, a: int, b: int, c: int, d: int) -> int:
    """``copy_key_from(h, a, b, c, d)`` for four parts each in ``0 … 2**64 - 1`` (counts,
    kinds, lengths), written out: the engines key every copy choice with four such parts."""
    for p in (a, b, c, d):
        x = ((h ^ p) + 0x9E3779B97F4A7C15) & _M64
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
        h = x ^ (x >> 31)
    return h


_HAND_KEYS: dict[tuple[int, int], int] = {}


def hand_key(seed: int, hand_no: int) -> int:
    """``copy_key(seed, hand_no)``, kept: the first parts of every copy choice of a hand."""
    k = _HAND_KEYS.get((seed, hand_no))
    if k is None:
        if len(_HAND_KEYS) >= 4096:
            _HAND_KEYS.clear()
        k = _HAND_KEYS[(seed, hand_no)] = copy_key(seed, hand_no)
    return k


def choose_copies(tiers: Iterable[int], count: int, key: int, n52: int) -> int:
    """Choose ``count`` cards from bitmasks of card ids, tier by tier.

    Args:
        tiers: disjoint bitmasks, most preferred first (e.g. the copies the others already know
            the player holds, then the rest); a tier is used up before the next is touched.
        count: cards to choose (cards).
        key: a 64-bit key (:func:`copy_key`) from hidden state that does not depend on which
            copies the hand holds (so two hands that differ only in that choose the same
            names).
        n52: the first joker id (52 × decks): ids below it are standard cards.

    Returns:
        A bitmask of ``min(count, cards in the tiers)`` cards: within a tier, a uniformly random
        subset (a partial Fisher–Yates shuffle driven by SplitMix64 from ``key``) of the cards
        listed by name (rank and suit), then deck index.

    Source: CC-5.9, RR-5.10, SH-6.4 (hands are private: the copy shown must tell nothing about
    the copies still held).
    """
    chosen = 0
    x = key
    for tier in tiers:
        if count <= 0:
            break
        n = tier.bit_count()
        if n <= count:
            chosen |= tier
            count -= n
            continue
        # by name first: the i-th card of this list has the same name whichever copies the
        # hand holds (ids are deck * 52 + name; jokers all look alike); a stable sort of the
        # ids in increasing order, so copies of one name stay in deck order
        ids = []
        rest = tier
        while rest:  # iter_ids, written out
            low = rest & -rest
            ids.append(low.bit_length() - 1)
            rest ^= low
        if ids[-1] < n52:
            ids.sort(key=_MOD52)  # standard cards only: the name is the id modulo 52
        elif ids[0] < n52:
            ids.sort(key=lambda c: c % 52 if c < n52 else 52)
        # (jokers only: all of one name, already in order)
        for i in range(count):
            x = _mix(x)
            j = i + x % (n - i)
            ids[i], ids[j] = ids[j], ids[i]
            chosen |= 1 << ids[i]
        count = 0
    return chosen


#: ``c % 52`` as a key function in C (the name of a standard card id).
_MOD52 = (52).__rmod__


def _spread_table() -> tuple[int, ...]:
    """For each 13-bit mask, the integer whose byte ``i`` is bit ``i`` of the mask."""
    t = [0] * 8192
    for m in range(1, 8192):
        low = m & -m
        t[m] = t[m ^ low] | 1 << (8 * (low.bit_length() - 1))
    return tuple(t)


_SPREAD = _spread_table()


class Pack:
    """The physical cards of one game: ``decks`` standard 52-card decks plus ``jokers`` jokers.

    Card ids: standard cards ``deck * 52 + suit * 13 + (rank - 1)``, then jokers
    ``decks * 52 + joker_index``.  Use :meth:`get` for a cached instance.

    Attributes:
        cards: tuple of :class:`Card`, indexed by card id.
        names: tuple of their short notation (``str(card)``: ``7H``, ``JK``), by card id.
        size: number of cards (e.g. 108 for two decks and four jokers, CC-2.1).
        rank_mask: tuple of 14 bitmasks; ``rank_mask[r]`` holds every card of rank ``r``.
        full_mask: bitmask of all cards.
        red_mask, black_mask: bitmasks of the red (hearts, diamonds) and black suits.
        red_threes: bitmask of the red threes (the canasta games' bonus cards).
    """

    __slots__ = ("decks", "jokers", "cards", "names", "size", "rank_mask", "full_mask",
                 "rank_of", "suit_of", "red_mask", "black_mask", "red_threes", "_index",
                 "_shifts", "_kind_shifts")

    def __init__(self, decks: int, jokers: int):
        if decks < 1 or jokers < 0:
            raise ValueError("a pack needs at least one deck and a non-negative joker count")
        self.decks = decks
        self.jokers = jokers
        cards: list[Card] = []
        for d in range(decks):
            for s in range(4):
                for r in range(1, 14):
                    cards.append(Card(r, s, d))
        for j in range(jokers):
            cards.append(Card(JOKER, None, j))
        self.cards = tuple(cards)
        self.names = tuple(str(c) for c in cards)
        self.size = len(cards)
        self.rank_of = tuple(c.rank for c in cards)
        self.suit_of = tuple(c.suit for c in cards)
        masks = [0] * 14
        red = black = 0
        for i, c in enumerate(cards):
            masks[c.rank] |= 1 << i
            if c.suit is not None:
                if c.is_red:
                    red |= 1 << i
                else:
                    black |= 1 << i
        self.rank_mask = tuple(masks)
        self.red_mask = red
        self.black_mask = black
        self.red_threes = red & masks[3]
        self.full_mask = (1 << self.size) - 1
        self._index = {c: i for i, c in enumerate(cards)}
        # where each deck's suits start in a mask, for the counts below
        self._shifts = tuple(range(0, 52 * decks, 13))
        self._kind_shifts = tuple((sh, 8 * (sh % 52)) for sh in self._shifts)

    @staticmethod
    @lru_cache(maxsize=None)
    def get(decks: int, jokers: int) -> Pack:
        """The shared :class:`Pack` for ``decks`` decks and ``jokers`` jokers."""
        return Pack(decks, jokers)

    def id_of(self, card: Card) -> int:
        """Card id of a physical card.

        Raises:
            NotationError: the card does not exist in this pack (e.g. deck index too high).
        """
        try:
            return self._index[card]
        except KeyError:
            raise NotationError(
                f"{card.physical} is not in this pack ({self.decks} decks, {self.jokers} jokers)"
            ) from None

    def mask_of(self, cards: Iterable[Card]) -> int:
        """Bitmask of an iterable of :class:`Card`."""
        m = 0
        for c in cards:
            m |= 1 << self.id_of(c)
        return m

    def rank_counts(self, mask: int) -> list[int]:
        """Cards of each rank in a bitmask: 14 counts, index = rank number (0 = jokers).

        Equal to ``[(mask & rank_mask[r]).bit_count() for r in range(14)]``, by adding the
        masks' 13-bit suit rows spread one bit a byte (a few operations per suit row instead
        of one per rank, for one or two decks; with more, one mask per rank is cheaper)."""
        if self.decks > 2:
            rm = self.rank_mask
            return [(mask & rm[r]).bit_count() for r in range(14)]
        sp = _SPREAD
        acc = 0
        for shift in self._shifts:
            acc += sp[(mask >> shift) & 8191]
        jokers = (mask >> (52 * self.decks)).bit_count()
        return list((acc << 8 | jokers).to_bytes(14, "little"))

    def kind_counts(self, mask: int) -> bytes:
        """Cards of each kind (rank and suit) in a bitmask: 53 counts as ``bytes`` (an
        immutable, hashable sequence of small ints), index ``suit * 13 + rank - 1`` for the
        standard cards, 52 for the jokers.

        Equal to counting ``card_id % 52`` (``52`` for a joker) over the ids in the mask."""
        sp = _SPREAD
        acc = 0
        for shift, to in self._kind_shifts:
            acc += sp[(mask >> shift) & 8191] << to
        jokers = (mask >> (52 * self.decks)).bit_count()
        return (acc | jokers << 416).to_bytes(53, "little")

    def cards_of(self, mask: int) -> list[Card]:
        """The cards in a bitmask, in id order."""
        return [self.cards[i] for i in iter_ids(mask)]

    def __repr__(self) -> str:
        return f"Pack(decks={self.decks}, jokers={self.jokers})"
