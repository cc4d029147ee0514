"""What one seat may know of a Railroad Canasta state (RR-5.10).

On top of the canasta view: each kitty's size and whether it has been taken, every player's
closed canastas with their types, the sevens lock.  A kitty is hidden from everyone, its owner
included, until its owner becomes kitty-eligible (RR-10.2); then the owner sees it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from meldhall.games.canasta.actions import rank_order
from meldhall.games.canasta.observation import CanastaObservation
from meldhall.games.railroad_canasta.options import RailroadCanastaOptions
from meldhall.games.railroad_canasta.state import RailroadCanastaState

__all__ = ["RailroadCanastaObservation"]


@dataclass(frozen=True, repr=False)
class RailroadCanastaObservation(CanastaObservation[RailroadCanastaState]):
    """One seat's view of a Railroad Canasta state.  ``private["kitty"]`` holds the seat's
    own kitty (bitmask) once the seat is eligible to look at it, else ``None``."""

    PUBLIC_FIELDS: ClassVar[tuple[str, ...]] = (
        "hand_no", "dealer", "scores", "side_of", "nsides", "pile", "pile_frozen", "melds",
        "red3", "turn", "_phase", "pile_cards", "took", "melds_made", "new_ranks", "known",
        "_outcome", "log", "went_out", "kitty_taken", "closed", "b3_done",
    )
    GAME: ClassVar[str] = "railroad-canasta"
    TITLE: ClassVar[str] = "Railroad Canasta"

    options: RailroadCanastaOptions

    @classmethod
    def _private_of(cls, state: RailroadCanastaState, seat: int) -> dict[str, Any]:
        visible = state.kitty_open(seat)
        return {
            "kitty": state.kitties[seat] if visible else None,
            "kitty_sizes": tuple(k.bit_count() for k in state.kitties),
        }

    def melds_of(self, side: int) -> list[dict[str, Any]]:
        """A player's canastas (closed, with ``canasta`` = red/black/wild/sevens) and open
        melds (``canasta`` None)."""
        out = [self._meld_json(m, kind, closed=True) for kind, m in self.public["closed"][side]]
        opened = [m for m in self.public["melds"][side] if m is not None]
        for m in sorted(opened, key=lambda m: -rank_order(m.rank)):
            out.append(self._meld_json(m, None, closed=False))
        return out

    @classmethod
    def minimums_of(cls, options: Any, scores: tuple[int, ...], side_of: tuple[int, ...],
                    nsides: int) -> list[int | None]:
        """Minimum count per player (RR-7.1)."""
        return [options.minimum_count(s) for s in scores]

    def canasta_types(self, seat: int) -> list[str]:
        """Canasta types completed by ``seat`` (RR-6.9)."""
        return sorted({t for t, _ in self.public["closed"][seat]})

    def _json_extra(self) -> dict[str, Any]:
        p = self.public
        kitty = self.private["kitty"]
        return {
            "kitty_sizes": list(self.private["kitty_sizes"]),
            "kitty_taken": [bool((p["kitty_taken"] >> s) & 1) for s in range(self.players)],
            "my_kitty": None if kitty is None else self.names(kitty),
            "canasta_types": [self.canasta_types(s) for s in range(self.players)],
        }

    def _seen(self) -> int:
        seen = super()._seen()
        for _, m in (x for side in self.public["closed"] for x in side):
            seen |= m.mask
        if self.private["kitty"] is not None:
            seen |= self.private["kitty"]
        return seen

    def sample_state(self, rng: random.Random) -> RailroadCanastaState:
        """A full state consistent with this observation (see the base class).

        A live state in which the player to act has no legal action cannot be the real one:
        the hand would already have ended (RR-12.4, RR-12.6) — e.g. a sampled hand of sevens
        under the sevens lock for a player the observer saw keep playing.  Such samples are
        dealt again from ``rng``.
        """
        st = super().sample_state(rng)
        for _attempt in range(200):
            if st.outcome is not None or not st.to_act or st.legal_actions():
                break
            st = super().sample_state(rng)
        return st

    def _state_class(self) -> type[RailroadCanastaState]:
        return RailroadCanastaState

    def _hidden_packets(self) -> list[tuple[str, int, int, bool]]:
        sizes = self.private["kitty_sizes"]
        return [("kitty", s, sizes[s], True) for s in range(self.players)
                if sizes[s] and not (s == self.seat and self.private["kitty"] is not None)]

    def _fill_packets(self, state: RailroadCanastaState,
                      filled: dict[tuple[str, int], int]) -> None:
        kitties: list[int] = []
        for s in range(self.players):
            if s == self.seat and self.private["kitty"] is not None:
                kitties.append(self.private["kitty"])
            else:
                kitties.append(filled.get(("kitty", s), 0))
        state.kitties = tuple(kitties)
