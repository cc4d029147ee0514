"""What one seat may know of a Classic Canasta state (CC-5.9).

Public: melds, placed red threes, the whole discard pile in order and whether it is frozen,
the number of cards in the stock and in each hand, the cards each player took into hand with
the pile (while they are still there), the "may I go out?" question and answer, the log of
actions, scores.  Private: the seat's own hand.  Never included: other hands, the stock
order, the game seed (which would reveal future deals).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from meldhall.cards import Pack
from meldhall.game import Observation, Outcome
from meldhall.games.canasta.actions import MeldSpec, format_kind, rank_order
from meldhall.games.classic_canasta.options import ClassicCanastaOptions

__all__ = ["ClassicCanastaObservation"]

_PUBLIC_FIELDS = (
    "hand_no", "dealer", "scores", "side_of", "nsides", "pile", "pile_frozen", "melds",
    "red3", "turn", "_phase", "asked", "permission", "asker_partner", "pile_cards", "took",
    "melds_made", "new_ranks", "conceal_ok", "b3_done", "no_discard", "seat_melded", "known",
    "_outcome", "log", "first_taker", "went_out",
)


@dataclass(frozen=True)
class ClassicCanastaObservation(Observation):
    """One seat's view.

    Attributes:
        seat: the observing seat.
        options: the game's options.
        hand: bitmask of the seat's own cards (card ids of ``pack``).
        hand_sizes: cards held by each seat.
        stock_size: cards left in the stock.
        public: the public fields of the state (melds, pile, red threes, flags, log …).
    """

    seat: int
    options: ClassicCanastaOptions
    hand: int
    hand_sizes: tuple[int, ...]
    stock_size: int
    public: dict

    @classmethod
    def from_state(cls, state, seat: int) -> ClassicCanastaObservation:
        """The observation of ``seat`` in ``state``."""
        public = {name: getattr(state, name) for name in _PUBLIC_FIELDS}
        return cls(seat, state.options, state.hands[seat],
                   tuple(h.bit_count() for h in state.hands), len(state.stock), public)

    @property
    def pack(self) -> Pack:
        """The pack in play."""
        return Pack.get(self.options.decks, self.options.jokers)

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.options.player_count

    @property
    def phase(self) -> str:
        """The phase of the observed state."""
        return self.public["_phase"]

    @property
    def outcome(self) -> Outcome | None:
        """The outcome, once the hand has been scored."""
        return self.public["_outcome"]

    def hand_cards(self):
        """The seat's own cards, sorted by rank (list of Card)."""
        cards = self.pack.cards_of(self.hand)
        return sorted(cards, key=lambda c: (-rank_order(c.rank) if c.rank else -20, c.suit or 0))

    def upcard(self):
        """Top card of the pile, or ``None``."""
        pile = self.public["pile"]
        return self.pack.cards[pile[-1]] if pile else None

    def melds_of(self, side: int) -> list[dict[str, Any]]:
        """A side's melds: ``rank``, ``cards`` (notation), ``size``, ``canasta``
        (``"natural"``/``"mixed"``/``None``), ``hidden``."""
        out = []
        pack = self.pack
        melds = self.public["melds"][side]
        for m in sorted((m for m in melds if m is not None), key=lambda m: -rank_order(m.rank)):
            canasta = None
            if m.rank != 3 and m.size >= 7:
                canasta = "natural" if m.twos + m.jokers == 0 else "mixed"
            out.append({
                "rank": format_kind(m.rank),
                "cards": [c.physical for c in pack.cards_of(m.mask)],
                "spec": str(MeldSpec(m.rank, m.naturals, m.twos, m.jokers)),
                "size": m.size,
                "canasta": canasta,
                "hidden": bool(m.hidden and canasta),
            })
        return out

    def to_json(self) -> dict[str, Any]:
        """JSON-ready view: nothing hidden from this seat is included."""
        p = self.public
        pack = self.pack
        n = self.players
        side_of = p["side_of"]
        nsides = p["nsides"]
        from meldhall.games.classic_canasta.state import (
            ClassicCanastaState,  # noqa: F401  (for the type only)
        )
        minimums = []
        for side in range(nsides):
            seats = [s for s in range(n) if side_of[s] == side]
            if not seats:
                minimums.append(None)
                continue
            if self.options.cutthroat:
                minimums.append(self.options.minimum_count(p["scores"][seats[0]]))
            else:
                minimums.append(self.options.minimum_count(p["scores"][side]))
        log = []
        node = p["log"]
        while node is not None:
            node, entry = node
            log.append({"seat": entry[0], "action": entry[1], "note": entry[2]})
        log.reverse()
        outcome = p["_outcome"]
        return {
            "game": "classic-canasta",
            "seat": self.seat,
            "players": n,
            "hand_no": p["hand_no"],
            "dealer": p["dealer"],
            "turn": p["turn"],
            "phase": p["_phase"],
            "side_of": list(side_of),
            "scores": list(p["scores"]),
            "minimums": minimums,
            "hand": [c.physical for c in self.hand_cards()],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "pile": [pack.cards[c].physical for c in p["pile"]],
            "pile_frozen": p["pile_frozen"],
            "melds": [self.melds_of(side) for side in range(nsides)],
            "red_threes": [[c.physical for c in pack.cards_of(m)] for m in p["red3"]],
            "known_in_hand": [[c.physical for c in pack.cards_of(m)] for m in p["known"]],
            "asked": p["asked"],
            "permission": p["permission"],
            "log": log,
            "outcome": outcome.to_json() if outcome is not None else None,
        }

    def to_text(self) -> str:
        """A compact plain-text rendering (the CLI draws a richer table)."""
        j = self.to_json()
        lines = [f"Classic Canasta — hand {j['hand_no'] + 1}, seat {self.seat} to see, "
                 f"turn: seat {j['turn']} ({j['phase']})"]
        lines.append("Scores: " + ", ".join(f"side {i}: {s}" for i, s in enumerate(j["scores"])))
        for side, melds in enumerate(j["melds"]):
            if melds:
                lines.append(f"Side {side} melds: " + "; ".join(
                    m["spec"] + (f" [{m['canasta']} canasta]" if m["canasta"] else "")
                    for m in melds))
        up = self.upcard()
        lines.append(f"Pile: {len(j['pile'])} cards, upcard {up if up else '—'}"
                     + (" (frozen)" if j["pile_frozen"] else "")
                     + f"; stock {j['stock_size']}")
        lines.append("Your hand: " + " ".join(str(c) for c in self.hand_cards()))
        return "\n".join(lines)

    def _can_go_out(self, hand: int, side: int) -> bool:
        from meldhall.games.canasta.melds import can_go_out

        rm = self.pack.rank_mask
        counts = [(hand & rm[k]).bit_count() for k in range(14)]
        melds = {m.rank: (m.naturals, m.twos, m.jokers)
                 for m in self.public["melds"][side] if m is not None}
        return can_go_out(counts, melds, self.options.required_canastas, self.options.wild_ratio,
                          black_three_max=6 if self.players == 6 else 4)

    def sample_state(self, rng: random.Random):
        """A full state consistent with this observation (hidden cards dealt from ``rng``)."""
        from meldhall.games.classic_canasta.state import ClassicCanastaState

        p = self.public
        pack = self.pack
        n = self.players
        seen = self.hand
        for side_melds in p["melds"]:
            for m in side_melds:
                if m is not None:
                    seen |= m.mask
        for c in p["pile"]:
            seen |= 1 << c
        for m in p["red3"]:
            seen |= m
        for m in p["known"]:
            seen |= m
        # Red threes are never held (CC-9.1): the unplaced ones can only be in the stock.
        red3 = pack.red_threes
        unknown0 = [i for i in range(pack.size) if not (seen >> i) & 1 and not (red3 >> i) & 1]
        stock_red = [i for i in range(pack.size) if not (seen >> i) & 1 and (red3 >> i) & 1]
        # A player who asked "may I go out?" (and was not told "no") could go out (CC-10.5):
        # keep only deals in which their hidden hand can.
        asker = p["turn"] if (p["asked"] and p["permission"] is not False
                              and p["turn"] != self.seat) else None
        for _attempt in range(500):
            unknown = list(unknown0)
            rng.shuffle(unknown)
            hands = []
            for s in range(n):
                if s == self.seat:
                    hands.append(self.hand)
                    continue
                h = p["known"][s]
                for _ in range(self.hand_sizes[s] - h.bit_count()):
                    h |= 1 << unknown.pop()
                hands.append(h)
            if asker is None or self._can_go_out(hands[asker], p["side_of"][asker]):
                break
        unknown.extend(stock_red)
        rng.shuffle(unknown)
        st = ClassicCanastaState.blank()
        for name in _PUBLIC_FIELDS:
            setattr(st, name, p[name])
        st.options = self.options
        st.pack = pack
        st.seed = rng.getrandbits(62)
        st.hands = tuple(hands)
        st.stock = tuple(unknown)
        st._cache = None
        return st
