"""Shanghai Rummy rule tables and card kinds (docs/rules/shanghai-rummy.md).

Card **kinds**: a natural card's kind is ``suit * 13 + rank - 1`` (0..51, the same as its card id
modulo 52); every joker has kind :data:`JOKER_KIND` (52).  Suits matter in runs, so actions name
cards by kind (``7H``), never by physical copy; the engine chooses which copy moves.

Run **positions**: 1 (ace low), 2, …, 13 (king), 14 (ace high).  A run occupies the positions
``lo .. hi`` of one suit; the ace has two positions and no run holds both (SH-7.3) unless
``ace_both_ends``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from meldhall.cards import RANK_NAMES, SUIT_NAMES, Card, parse_card
from meldhall.errors import NotationError

if TYPE_CHECKING:
    from meldhall.games.shanghai.options import ShanghaiOptions

__all__ = [
    "CONTRACTS",
    "JOKER_KIND",
    "POS_NAMES",
    "Contract",
    "card_points",
    "joker_limit",
    "kind_at",
    "kind_name",
    "kind_of_card",
    "parse_kind",
    "pos_rank",
    "rank_of_kind",
    "set_rank_key",
    "suit_of_kind",
]

JOKER_KIND = 52


@dataclass(frozen=True, slots=True)
class Contract:
    """One deal's contract (SH-5.2).

    Attributes:
        number: 1..10.
        sets: number of sets of three.
        runs: number of runs.
        run_len: length of each run (4, 5, 7 or 10; 0 without runs).
    """

    number: int
    sets: int
    runs: int
    run_len: int

    @property
    def cards(self) -> int:
        """Cards in the contract at exact sizes (SH-5.2)."""
        return 3 * self.sets + self.runs * self.run_len

    def __str__(self) -> str:
        parts = []
        if self.sets:
            parts.append(f"{_word(self.sets)} set{'s' if self.sets > 1 else ''} of 3")
        if self.runs:
            parts.append(f"{_word(self.runs)} run{'s' if self.runs > 1 else ''} of "
                         f"{self.run_len}")
        return " + ".join(parts)


def _word(n: int) -> str:
    return {1: "one", 2: "two", 3: "three"}.get(n, str(n))


#: SH-5.2: contract number -> contract.
CONTRACTS: dict[int, Contract] = {
    1: Contract(1, 2, 0, 0),
    2: Contract(2, 1, 1, 4),
    3: Contract(3, 0, 2, 4),
    4: Contract(4, 3, 0, 0),
    5: Contract(5, 1, 1, 7),
    6: Contract(6, 2, 1, 5),
    7: Contract(7, 0, 3, 4),
    8: Contract(8, 1, 1, 10),
    9: Contract(9, 3, 1, 5),
    10: Contract(10, 0, 3, 5),
}


def joker_limit(length: int, is_run: bool) -> int:
    """SH-7.5: jokers allowed in a meld: one in a set of any size; in a run one for 4 cards,
    two for 5–6, three for 7–9, four for 10 or more."""
    if not is_run:
        return 1
    if length >= 10:
        return 4
    if length >= 7:
        return 3
    if length >= 5:
        return 2
    return 1


def pos_rank(pos: int) -> int:
    """Card rank at a run position (14, the high ace, is rank 1)."""
    return 1 if pos == 14 else pos


def kind_at(suit: int, pos: int) -> int:
    """Kind of the natural card at run position ``pos`` of ``suit``."""
    return suit * 13 + pos_rank(pos) - 1


def rank_of_kind(kind: int) -> int:
    """Rank (1..13) of a natural kind."""
    return kind % 13 + 1


def suit_of_kind(kind: int) -> int:
    """Suit (0..3) of a natural kind."""
    return kind // 13


def set_rank_key(rank: int) -> int:
    """Sort key for set ranks: 2 … K, then A (aces high in listings)."""
    return 14 if rank == 1 else rank


POS_NAMES = {14: "A", **{p: RANK_NAMES[p] for p in range(1, 14)}}


def kind_name(kind: int) -> str:
    """Notation of a kind: ``7H``, ``10S``, ``AD``, ``JK``."""
    if kind == JOKER_KIND:
        return "JK"
    return RANK_NAMES[rank_of_kind(kind)] + SUIT_NAMES[suit_of_kind(kind)]


def kind_of_card(card: Card) -> int:
    """Kind of a :class:`~meldhall.cards.Card`."""
    if card.rank == 0:
        return JOKER_KIND
    return card.suit * 13 + card.rank - 1  # type: ignore[operator]  # only a joker has no suit


def parse_kind(token: str) -> tuple[int, int | None]:
    """Read one card token: ``7H``, ``10s``, ``TS``, ``Q♦``, ``JK``, or a physical copy
    ``7H/1``, ``JK/0``.

    Returns:
        ``(kind, deck)`` with ``deck`` the copy index if one was written, else ``None``.

    Raises:
        NotationError: not a card, or a bare rank (suits matter in Shanghai).
    """
    t = token.strip()
    if not t:
        raise NotationError("expected a card, e.g. 7H, 10S, QD, AC or JK")
    try:
        card = parse_card(t)
    except NotationError:
        raise NotationError(
            f"{token!r} is not a card: expected rank then suit (suits matter in Shanghai), "
            "e.g. 7H, 10S, QD, AC, or JK") from None
    deck = card.deck if "/" in t else None
    return kind_of_card(card), deck


def card_points(kind: int, options: ShanghaiOptions) -> int:
    """SH-13.2: penalty value of a card left in hand: 3–9 five, 10–K ten, ace and 2 twenty
    (options ``ace_penalty``, ``deuce_penalty``), joker 50 (``joker_penalty``)."""
    if kind == JOKER_KIND:
        return options.joker_penalty
    r = kind % 13 + 1
    if r == 1:
        return options.ace_penalty
    if r == 2:
        return options.deuce_penalty
    return 10 if r >= 10 else 5
