"""Scoring a hand of Classic Canasta with a line-by-line breakdown (CC-12).

Each :class:`~meldhall.game.ScoreLine` names the rule that scores it; the lines of a side add up
to its hand score.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from meldhall.game import ScoreLine, SideResult
from meldhall.games.canasta.actions import MeldSpec, format_kind, rank_order
from meldhall.games.canasta.engine import CanastaMeld
from meldhall.games.canasta.values import CLASSIC_VALUES as V
from meldhall.games.classic_canasta.state import ClassicCanastaState, HandScore

__all__ = ["score_hand", "red_three_points", "meld_lines"]


def red_three_points(count: int, players: int) -> int:
    """Value of ``count`` red threes held by one side (CC-12.4): 100 each; all four (2–4
    players) 800; six players: up to four 100 each, five 1,000, six 1,200."""
    if count == 0:
        return 0
    if players == 6:
        return {5: 1000, 6: 1200}.get(count, 100 * count)
    return 800 if count == 4 else 100 * count


def _hand_value(counts: Sequence[int]) -> int:
    return sum(c * v for c, v in zip(counts, V))


def meld_lines(melds: Iterable[CanastaMeld | None], hidden_bonus: int) -> list[ScoreLine]:
    """Lines for a side's melds: card values (CC-12.1) and canasta bonuses (CC-12.2, CC-12.3)."""
    lines: list[ScoreLine] = []
    for m in sorted((m for m in melds if m is not None), key=lambda m: -rank_order(m.rank)):
        spec = MeldSpec(m.rank, m.naturals, m.twos, m.jokers)
        value = m.naturals * V[m.rank] + m.twos * V[2] + m.jokers * V[0]
        name = format_kind(m.rank)
        if m.rank == 3:
            lines.append(ScoreLine("CC-12.1", f"black-three meld {spec}", value))
            continue
        size = m.size
        natural = m.twos + m.jokers == 0
        if size >= 7:
            kind = "natural" if natural else "mixed"
            lines.append(ScoreLine("CC-12.1", f"{kind} canasta {name}×{size}: {spec}", value))
            bonus = 500 if natural else 300
            lines.append(ScoreLine("CC-12.2", f"{kind} canasta bonus ({name})", bonus))
            if m.hidden and hidden_bonus:
                lines.append(ScoreLine("CC-12.3", f"hidden canasta bonus ({name})", hidden_bonus))
        else:
            lines.append(ScoreLine("CC-12.1", f"meld {spec}", value))
    return lines


def score_hand(state: ClassicCanastaState, how: str, went_out: int | None) -> HandScore:
    """Score the hand that just ended.

    Args:
        state: the state at the end of the hand.
        how: ``"went_out"``, ``"went_out_concealed"``, ``"stock_exhausted"`` or
            ``"last_red_three"``.
        went_out: seat that went out, or ``None``.

    Returns:
        ``(results, new_scores)``: a :class:`SideResult` per score column (side, or player in
        cutthroat) and the cumulative scores after the hand.
    """
    opts = state.options
    n = state.players
    cut = opts.cutthroat
    side_of = state.side_of
    results: list[SideResult] = []
    new_scores = list(state.scores)
    columns = range(n) if cut else range(len(state.scores))
    for col in columns:
        side = side_of[col] if cut else col
        seats = (col,) if cut else tuple(s for s in range(n) if side_of[s] == side)
        side_seats = tuple(s for s in range(n) if side_of[s] == side)
        melds = state.melds[side]
        lines = meld_lines(melds, opts.hidden_canasta_bonus)
        melded = any(m is not None for m in melds)
        red_seats = seats if cut else side_seats
        r3 = sum(state.red3[s].bit_count() for s in red_seats)
        if r3:
            pts = red_three_points(r3, n)
            label = f"{r3} red three{'s' if r3 != 1 else ''}"
            if melded:
                lines.append(ScoreLine("CC-12.4", label, pts))
            else:
                lines.append(ScoreLine("CC-12.4", label + " (side never melded)", -pts))
        if went_out is not None and side_of[went_out] == side:
            if how == "went_out_concealed":
                lines.append(ScoreLine("CC-12.5", "going out concealed", opts.concealed_bonus))
            else:
                lines.append(ScoreLine("CC-12.5", "going out", 100))
        for s in side_seats:
            counts = state.hand_counts(s)
            v = _hand_value(counts)
            if sum(counts):
                cards = " ".join(str(c) for c in state.hand_cards(s))
                lines.append(ScoreLine("CC-12.6", f"seat {s} hand {cards}", -v))
        total = sum(ln.points for ln in lines)
        new_scores[col] += total
        results.append(SideResult(col if not cut else col, seats, tuple(lines), total,
                                  new_scores[col]))
    return tuple(results), tuple(new_scores)
