"""Scoring a hand of Railroad Canasta with a line-by-line breakdown (RR-13).

Each :class:`~meldhall.game.ScoreLine` names the rule that scores it; a player's lines add up
to the hand score.
"""

from __future__ import annotations

from meldhall.game import ScoreLine, SideResult
from meldhall.games.canasta.actions import format_kind, rank_order
from meldhall.games.canasta.engine import CanastaMeld
from meldhall.games.canasta.values import CLASSIC_VALUES as V
from meldhall.games.railroad_canasta.state import HandScore, RailroadCanastaState

__all__ = ["score_hand", "hand_lines"]


def _value(m: CanastaMeld) -> int:
    return m.naturals * V[m.rank] + m.twos * V[2] + m.jokers * V[0] if m.rank else \
        m.twos * V[2] + m.jokers * V[0]


def _name(rank: int) -> str:
    return "wild" if rank == 0 else format_kind(rank)


def hand_lines(state: RailroadCanastaState, seat: int, rule: str, label: str, mask: int,
               red_value: int = 0) -> list[ScoreLine]:
    """A penalty line for the cards of ``mask`` (hand or kitty), or ``[]`` when empty."""
    if not mask:
        return []
    pack = state.pack
    red = pack.red_threes
    cards = pack.cards_of(mask)
    points = sum(red_value if (red >> pack.id_of(c)) & 1 else V[c.rank] for c in cards)
    return [ScoreLine(rule, f"seat {seat} {label} " + " ".join(str(c) for c in cards), -points)]


def score_hand(state: RailroadCanastaState, how: str, went_out: int | None) -> HandScore:
    """Score the hand that just ended (RR-13.1–RR-13.6).

    Returns ``(results, new_scores)``: a :class:`SideResult` per player and the cumulative
    scores after the hand.
    """
    opts = state.options
    results: list[SideResult] = []
    new_scores = list(state.scores)
    for seat in range(state.players):
        lines: list[ScoreLine] = []
        for kind, m in state.closed[seat]:
            lines.append(ScoreLine("RR-13.1", f"{kind} canasta {_name(m.rank)}×7: {m.spec}",
                                   _value(m)))
            lines.append(ScoreLine("RR-13.2", f"{kind} canasta bonus", opts.bonus(kind)))
        opened = [m for m in state.melds[seat] if m is not None]
        for m in sorted(opened, key=lambda m: -rank_order(m.rank)):
            label = "black-three meld" if m.rank == 3 else "meld"
            lines.append(ScoreLine("RR-13.1", f"{label} {m.spec}", _value(m)))
        r3 = state.red3[seat].bit_count()
        if r3:
            lines.append(ScoreLine("RR-13.3", f"{r3} red three{'s' if r3 != 1 else ''}",
                                   r3 * opts.red_three_bonus))
        if went_out == seat:
            lines.append(ScoreLine("RR-13.4", "going out", opts.going_out_bonus))
        lines += hand_lines(state, seat, "RR-13.5", "hand", state.hands[seat])
        if not (state.kitty_taken >> seat) & 1:
            lines += hand_lines(state, seat, "RR-13.5", "untaken kitty", state.kitties[seat],
                                red_value=-opts.kitty_red_three_penalty)
        total = sum(ln.points for ln in lines)
        new_scores[seat] += total
        results.append(SideResult(seat, (seat,), tuple(lines), total, new_scores[seat]))
    return tuple(results), tuple(new_scores)
