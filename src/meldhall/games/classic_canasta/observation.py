"""What one seat may know of a Classic Canasta state (CC-5.9).

Public: melds, placed red threes, the whole discard pile in order and whether it is frozen,
the number of cards in the stock and in each hand, the cards each player took into hand with
the pile (while they are still there), the "may I go out?" question and answer, the log of
actions, scores.  Private: the seat's own hand.  Never included: other hands, the stock
order, the game seed (which would reveal future deals).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from meldhall.games.canasta.actions import rank_order
from meldhall.games.canasta.melds import can_go_out
from meldhall.games.canasta.observation import CanastaObservation
from meldhall.games.classic_canasta.options import ClassicCanastaOptions
from meldhall.games.classic_canasta.state import ClassicCanastaState

__all__ = ["ClassicCanastaObservation"]


@dataclass(frozen=True, repr=False)
class ClassicCanastaObservation(CanastaObservation[ClassicCanastaState]):
    """One seat's view of a Classic Canasta state (see
    :class:`~meldhall.games.canasta.observation.CanastaObservation`); adds the minimum count
    per side and the "may I go out?" question and answer (CC-10.5)."""

    PUBLIC_FIELDS: ClassVar[tuple[str, ...]] = (
        "hand_no", "dealer", "scores", "side_of", "nsides", "pile", "pile_frozen", "melds",
        "red3", "turn", "_phase", "asked", "permission", "asker_partner", "pile_cards", "took",
        "melds_made", "new_ranks", "conceal_ok", "b3_done", "no_discard", "seat_melded", "known",
        "_outcome", "log", "first_taker", "went_out",
    )
    GAME: ClassVar[str] = "classic-canasta"
    TITLE: ClassVar[str] = "Classic Canasta"

    options: ClassicCanastaOptions

    def melds_of(self, side: int) -> list[dict[str, Any]]:
        """A side's melds: ``rank``, ``cards`` (notation), ``spec``, ``size``, ``canasta``
        (``"natural"``/``"mixed"``/``None``, CC-6.6), ``hidden`` (CC-6.8)."""
        out: list[dict[str, Any]] = []
        melds = self.public["melds"][side]
        for m in sorted((m for m in melds if m is not None), key=lambda m: -rank_order(m.rank)):
            canasta = None
            if m.rank != 3 and m.size >= 7:
                canasta = "natural" if m.twos + m.jokers == 0 else "mixed"
            out.append(self._meld_json(m, canasta, hidden=bool(m.hidden and canasta)))
        return out

    @classmethod
    def minimums_of(cls, options: Any, scores: tuple[int, ...], side_of: tuple[int, ...],
                    nsides: int) -> list[int | None]:
        """Minimum count per side (per player in cutthroat) (CC-7.1, CC-14.1)."""
        out: list[int | None] = []
        for side in range(nsides):
            seats = [s for s in range(options.player_count) if side_of[s] == side]
            if not seats:
                out.append(None)
            elif options.cutthroat:
                out.append(options.minimum_count(scores[seats[0]]))
            else:
                out.append(options.minimum_count(scores[side]))
        return out

    def _json_extra(self) -> dict[str, Any]:
        return {"asked": self.public["asked"], "permission": self.public["permission"]}

    def _state_class(self) -> type[ClassicCanastaState]:
        return ClassicCanastaState

    def _plausible(self, hands: list[int]) -> bool:
        """A player who asked "may I go out?" (and was not told "no") could go out (CC-10.5):
        keep only deals in which their hidden hand can."""
        p = self.public
        asker = p["turn"]
        if not p["asked"] or p["permission"] is False or asker == self.seat:
            return True
        rm = self.pack.rank_mask
        counts = [(hands[asker] & rm[k]).bit_count() for k in range(14)]
        melds = {m.rank: (m.naturals, m.twos, m.jokers)
                 for m in p["melds"][p["side_of"][asker]] if m is not None}
        return can_go_out(counts, melds, self.options.required_canastas, self.options.wild_ratio,
                          black_three_max=6 if self.players == 6 else 4)
