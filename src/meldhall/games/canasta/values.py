"""Card values of Classic Canasta (CC-3.4), by kind.

Index = rank number (0 joker, 1 ace, 2 two, 3 black three, 4 … 13).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["CLASSIC_VALUES", "cards_value"]

#: CC-3.4: joker 50, two 20, ace 20, K–8 10, 7–4 5, black three 5.
CLASSIC_VALUES: tuple[int, ...] = (50, 20, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10)


def cards_value(counts: Iterable[int], values: tuple[int, ...] = CLASSIC_VALUES) -> int:
    """Total value of cards given as counts by kind (CC-3.4)."""
    return sum(c * v for c, v in zip(counts, values))
