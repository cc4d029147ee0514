"""Scoring a Shanghai Rummy deal with a line-by-line breakdown (SH-11.3, SH-13, SH-14).

Each player is one :class:`~meldhall.game.SideResult` (side = seat).  A player who did not go
out has one line per card left in hand (SH-13.2); the player who went out has a 0 line
(SH-13.1) or the blind bonus (SH-11.3).  The lines add up to the deal's score; lower is better.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from meldhall.game import ScoreLine, SideResult
from meldhall.games.shanghai.rules import JOKER_KIND, card_points, kind_name

if TYPE_CHECKING:
    from meldhall.games.shanghai.options import ShanghaiOptions
    from meldhall.games.shanghai.state import ShanghaiState

__all__ = ["blind_bonus", "game_result", "hand_lines", "score_deal"]


def hand_lines(kinds: Iterable[int], options: ShanghaiOptions) -> list[ScoreLine]:
    """SH-13.2: one line per card left in hand, high values first."""
    lines = []
    for k in sorted(kinds, key=lambda k: (-card_points(k, options), k)):
        lines.append(ScoreLine("SH-13.2", f"{kind_name(k)} left in hand", card_points(k, options)))
    return lines


def blind_bonus(jokers_used: int, options: ShanghaiOptions) -> int:
    """SH-11.3: 50 for going out blind with no joker used, else 25 (0 without the bonus)."""
    if not options.blind_bonus:
        return 0
    return 25 if jokers_used else 50


def score_deal(state: ShanghaiState, how: str, went_out: int | None,
               ) -> tuple[tuple[SideResult, ...], tuple[int, ...]]:
    """Score the deal that just ended.

    Returns:
        ``(results, new_scores)``: one :class:`SideResult` per seat and the cumulative scores.
    """
    opts = state.options
    n52 = state.n52
    results: list[SideResult] = []
    new_scores = list(state.scores)
    for seat in range(state.players):
        lines: list[ScoreLine] = []
        if seat == went_out:
            if how == "went_out_blind":
                bonus = blind_bonus(state.jokers_now, opts)
                used = "with a joker" if state.jokers_now else "with no joker"
                lines.append(ScoreLine("SH-11.3", f"went out blind ({used})", -bonus))
            else:
                lines.append(ScoreLine("SH-13.1", "went out", 0))
        else:
            hand = state.hands[seat]
            kinds: list[int] = []
            while hand:
                low = hand & -hand
                i = low.bit_length() - 1
                kinds.append(i % 52 if i < n52 else JOKER_KIND)
                hand ^= low
            lines = hand_lines(kinds, opts)
        total = sum(ln.points for ln in lines)
        new_scores[seat] += total
        results.append(SideResult(seat, (seat,), tuple(lines), total, new_scores[seat]))
    return tuple(results), tuple(new_scores)


def game_result(state: ShanghaiState) -> tuple[bool, tuple[int, ...], tuple[int, ...]]:
    """SH-14: after the last deal (or the extra deal), the lowest total wins.

    Returns:
        ``(game_over, winners, extra_seats)``; ``extra_seats`` names the tied players when
        ``tie_rule = "extra_deal"`` calls for one more deal (SH-14.2).
    """
    opts = state.options
    deals = opts.deals
    scores = state.scores
    if state.hand_no >= deals:
        # the extra deal: the tied player with the lowest score in it wins
        tied = state.extra_seats
        last = state.deal_scores[-1]
        best = min(last[s] for s in tied)
        return True, tuple(s for s in tied if last[s] == best), ()
    if state.hand_no < deals - 1:
        return False, (), ()
    low = min(scores)
    tied = tuple(s for s in range(state.players) if scores[s] == low)
    if len(tied) == 1 or opts.tie_rule == "shared":
        return True, tied, ()
    if opts.tie_rule == "fewest_deals_scored":
        scored = {s: sum(1 for d in state.deal_scores if d[s] > 0) for s in tied}
        few = min(scored.values())
        return True, tuple(s for s in tied if scored[s] == few), ()
    return False, (), tied
