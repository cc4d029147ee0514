"""Melds on the Shanghai Rummy table (SH-7, SH-9).

A :class:`TableMeld` is an immutable value: its owner, whether it is a run, and its physical
cards with each card's declared kind (a natural card's own kind; a joker's declared card,
SH-7.4).  Runs keep their cards in position order, ``lo`` to ``hi`` (positions 1 = ace low …
14 = ace high); sets keep the order the cards were laid.
"""

from __future__ import annotations

from functools import cache

from meldhall.cards import SUIT_NAMES
from meldhall.games.shanghai.rules import JOKER_KIND, POS_NAMES, kind_name

__all__ = ["TableMeld", "kind_masks"]


class TableMeld:
    """One meld on the table.

    Attributes:
        owner: the seat that laid it down.
        run: True for a run, False for a set.
        rank: a set's rank (1..13); 0 for a run.
        suit: a run's suit (0..3); -1 for a set.
        lo: a run's lowest position (1..14); 0 for a set.
        cards: physical card ids (runs: low to high).
        decl: the declared kind of each card (a natural's own kind).
        jokers: number of jokers.
    """

    __slots__ = ("cards", "decl", "jokers", "lo", "owner", "rank", "run", "suit")

    def __init__(self, owner: int, run: bool, rank: int, suit: int, lo: int,
                 cards: tuple[int, ...], decl: tuple[int, ...], jokers: int):
        self.owner = owner
        self.run = run
        self.rank = rank
        self.suit = suit
        self.lo = lo
        self.cards = cards
        self.decl = decl
        self.jokers = jokers

    @property
    def size(self) -> int:
        """Cards in the meld."""
        return len(self.cards)

    @property
    def hi(self) -> int:
        """A run's highest position."""
        return self.lo + len(self.cards) - 1

    def joker_decls(self, n52: int) -> list[int]:
        """Declared kinds of the meld's jokers (``n52``: first joker id of the pack)."""
        return [d for c, d in zip(self.cards, self.decl) if c >= n52]

    def text(self, n52: int) -> str:
        """Notation: ``7S 7H JK=7D`` or ``5D 6D JK=7D 8D``."""
        out = []
        for i, (c, d) in enumerate(zip(self.cards, self.decl)):
            if self.run:
                name = POS_NAMES[self.lo + i] + SUIT_NAMES[self.suit]
            else:
                name = kind_name(d)
            out.append(("JK=" if c >= n52 else "") + name)
        return " ".join(out)

    def describe(self) -> str:
        """``set of 7s`` / ``run of hearts 5–8``."""
        if self.run:
            return (f"{SUIT_NAMES[self.suit]} run {POS_NAMES[self.lo]}–{POS_NAMES[self.hi]}")
        return f"set of {kind_name(self.rank - 1)[:-1]}s"

    def key(self) -> tuple[int, bool, int, int, int, tuple[int, ...], tuple[int, ...]]:
        """A value for equality tests."""
        return (self.owner, self.run, self.rank, self.suit, self.lo, self.cards, self.decl)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TableMeld) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<TableMeld owner={self.owner} {'run' if self.run else 'set'} {self.decl}>"


@cache
def kind_masks(decks: int, jokers: int) -> tuple[int, ...]:
    """Bitmask of the physical copies of each kind (53 entries) in a pack."""
    masks = [0] * 53
    for d in range(decks):
        for k in range(52):
            masks[k] |= 1 << (d * 52 + k)
    for j in range(jokers):
        masks[JOKER_KIND] |= 1 << (decks * 52 + j)
    return tuple(masks)
