"""What one seat may know of a canasta state: the part both canasta games share.

Public: melds, placed red threes, the whole discard pile in order and whether it is frozen, the
number of cards in the stock and in each hand, the cards each player took into hand with the
pile (while they are still there), the log of actions, scores.  Private: the seat's own hand
(and what a game adds, such as an eligible Railroad kitty).  Never included: other hands, the
stock order, the game seed (which would reveal future deals).
"""

from __future__ import annotations

import abc
import random
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar

from meldhall.cards import Card, Pack
from meldhall.errors import IllegalActionError
from meldhall.game import Observation
from meldhall.games.canasta.actions import MeldSpec, format_kind, rank_order
from meldhall.games.canasta.engine import (
    STAGE_LIMIT,
    CanastaMeld,
    CanastaOptions,
    CanastaState,
    log_entries,
)
from meldhall.games.canasta.values import CLASSIC_VALUES


def card_order(c: Card) -> tuple[int, int]:
    """Display order of a :class:`~meldhall.cards.Card`: by rank as the hand is sorted, then
    suit (never the deck index, so a list does not tell which copies it holds)."""
    return (-rank_order(c.rank) if c.rank else -20, c.suit or 0)

__all__ = ["CanastaObservation", "staged_count"]


def staged_count(staged: tuple[MeldSpec, ...], staged_up: bool) -> int:
    """The count (points, CC-3.4 / RR-3.5) of staged melds toward the minimum of the first
    melding, with the upcard when the first is a staged take's (``staged_up``, CC-7.4,
    RR-7.3); 0 with nothing staged."""
    values = CLASSIC_VALUES
    total = sum(sp.naturals * values[sp.rank] + sp.twos * values[2] + sp.jokers * values[0]
                for sp in staged)
    if staged and staged_up:
        total += values[staged[0].rank]
    return total

_S = TypeVar("_S", bound=CanastaState)


@dataclass(frozen=True, repr=False)
class CanastaObservation(Observation, Generic[_S]):
    """One seat's view of a canasta game (of states of the game's class ``_S``: each game
    subclasses ``CanastaObservation[ItsState]``).

    Attributes:
        seat: the observing seat.
        options: the game's options.
        hand: bitmask of the seat's own cards (card ids of ``pack``).
        hand_sizes: cards held by each seat.
        stock_size: cards left in the stock.
        public: the public fields of the state (melds, pile, red threes, flags, log …).
        private: further private information of the seat (game specific, e.g. a kitty).
    """

    seat: int
    options: CanastaOptions
    hand: int
    hand_sizes: tuple[int, ...]
    stock_size: int
    public: dict[str, Any]
    private: dict[str, Any]

    #: State attributes copied into ``public`` (each game lists its own).
    PUBLIC_FIELDS: ClassVar[tuple[str, ...]] = ()
    GAME: ClassVar[str] = ""
    TITLE: ClassVar[str] = ""

    @classmethod
    def from_state(cls, state: _S, seat: int) -> Self:
        """The observation of ``seat`` in ``state``."""
        public = {name: getattr(state, name) for name in cls.PUBLIC_FIELDS}
        return cls(seat, state.options, state.hands[seat],
                   tuple(h.bit_count() for h in state.hands), len(state.stock), public,
                   cls.private_of(state, seat))

    @classmethod
    def private_of(cls, state: _S, seat: int) -> dict[str, Any]:
        """The :attr:`private` part of ``seat``'s observation of ``state`` (besides its hand):
        what the game adds (:meth:`_private_of`), and while it is in turn its own staged
        melds (keys ``staged``, ``staged_up``) and stage actions (``stages``)."""
        private = cls._private_of(state, seat)
        if seat == state.turn and state.staged:
            # CC-6.9 (a): the seat's own staged melds, seen by nobody else
            private = {**private, "staged": state.staged, "staged_up": state.staged_up,
                       "stages": state.stages}
        elif seat == state.turn and state.stages:
            private = {**private, "stages": state.stages}
        return private

    @classmethod
    def _private_of(cls, state: _S, seat: int) -> dict[str, Any]:
        return {}

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} seat={self.seat} hand {self.public['hand_no']} "
                f"phase={self.phase}>")

    @property
    def pack(self) -> Pack:
        """The pack in play."""
        return Pack.get(self.options.decks, self.options.jokers)

    def hand_cards(self) -> list[Card]:
        """The seat's own cards, sorted by rank (list of Card)."""
        return sorted(self.pack.cards_of(self.hand), key=card_order)

    def names(self, mask: int) -> list[str]:
        """Cards of a bitmask as this seat is shown them: rank and suit only, never the deck
        index, in the hand's order (so the list does not depend on which copies they are)."""
        return [str(c) for c in sorted(self.pack.cards_of(mask), key=card_order)]

    def upcard(self) -> Card | None:
        """Top card of the pile, or ``None``."""
        pile: tuple[int, ...] = self.public["pile"]
        return self.pack.cards[pile[-1]] if pile else None

    def _meld_json(self, m: CanastaMeld, canasta: str | None, **extra: Any) -> dict[str, Any]:
        return {
            "rank": "wild" if m.rank == 0 else format_kind(m.rank),
            "cards": self.names(m.mask),
            "spec": str(m.spec),
            "size": m.size,
            "canasta": canasta,
            **extra,
        }

    @abc.abstractmethod
    def melds_of(self, side: int) -> list[dict[str, Any]]:
        """A side's melds as dicts (``rank``, ``cards``, ``spec``, ``size``, ``canasta`` …)."""

    def minimums(self) -> list[int | None]:
        """Minimum count per side for its first melding this hand."""
        p = self.public
        return self.minimums_of(self.options, p["scores"], p["side_of"], p["nsides"])

    @classmethod
    @abc.abstractmethod
    def minimums_of(cls, options: Any, scores: tuple[int, ...], side_of: tuple[int, ...],
                    nsides: int) -> list[int | None]:
        """:meth:`minimums` from the public values it depends on: the options, the scores,
        each seat's side and the number of sides."""

    @property
    def staged(self) -> tuple[MeldSpec, ...]:
        """The melds this seat has staged (CC-6.9), as :class:`MeldSpec`; the first is the
        upcard's meld of a take when :attr:`staged_upcard`."""
        staged: tuple[MeldSpec, ...] = self.private.get("staged", ())
        return staged

    @property
    def staged_upcard(self) -> bool:
        """Whether the first staged meld is the upcard's meld of a take (CC-6.9)."""
        up: bool = self.private.get("staged_up", False)
        return up

    def staged_count(self) -> int:
        """The count (points, CC-3.4 / RR-3.5) of the staged melds toward the minimum of the
        first melding, with the upcard of a staged take (CC-7.4, RR-7.3); 0 with nothing
        staged."""
        return staged_count(self.staged, self.staged_upcard)

    def log(self) -> list[dict[str, Any]]:
        """The public log, oldest first."""
        return [{"seat": e[0], "action": e[1], "note": e[2]}
                for e in log_entries(self.public["log"])]

    def why_no_take(self) -> IllegalActionError | None:
        """Why this seat may not take the discard pile now, in the draw phase of its turn:
        the refusal (rule ID and a sentence) of the simplest take — with a natural pair of the
        upcard's rank where the hand holds one (so a hand of J J J below the minimum count is
        told of the minimum, CC-7.1, RR-7.1), else the bare ``take`` — or ``None`` where a
        take is legal, or it is not this seat's draw.  Checked on a state dealt from this
        observation (:meth:`sample_state`, seeded 0): nothing hidden from the seat is read.
        """
        up = self.upcard()
        if self.phase != "draw" or up is None or self.public["turn"] != self.seat:
            return None
        try:
            st = self.sample_state(random.Random(0))
        except Exception:  # a position no deal fits (hand-made): nothing to say
            return None
        if any(str(a) != "draw" for a in st.legal_actions(self.seat)):
            return None  # a take (or a staged one) is legal
        rank = up.rank
        pair = None
        if rank not in (0, 2, 3):  # a natural rank (wild cards and threes have no pair)
            if sum(1 for c in self.hand_cards() if c.rank == rank) >= 2:
                pair = f"take {format_kind(rank)} {format_kind(rank)}"
        for text in ([pair] if pair else []) + ["take"]:
            try:
                st.apply_text(text, self.seat)
            except IllegalActionError as e:
                return e
            except Exception:  # a notation the game reads otherwise: try the next
                continue
            return None
        return None

    def going_out_needs(self) -> dict[str, str]:
        """What a side needs to go out, from the options: ``{"needs": "2 canastas", "rule":
        "CC-10.1"}`` (Classic Canasta, CC-10.1, CC-14.1) or ``{"needs": "one canasta of each
        type", "rule": "RR-11.1"}`` (Railroad Canasta, RR-11.1)."""
        opts: Any = self.options
        if self.GAME == "railroad-canasta":
            from meldhall.games.railroad_canasta.options import GOING_OUT_NEEDS

            return {"needs": GOING_OUT_NEEDS[opts.go_out_requirement], "rule": "RR-11.1"}
        n = opts.required_canastas
        return {"needs": f"{n} canasta{'s' if n != 1 else ''}", "rule": "CC-10.1"}

    def to_json(self) -> dict[str, Any]:
        """JSON-ready view: nothing hidden from this seat is included."""
        p = self.public
        pack = self.pack
        outcome = p["_outcome"]
        nsides = p["nsides"]
        data = {
            "game": self.GAME,
            "seat": self.seat,
            "players": self.players,
            "hand_no": p["hand_no"],
            "dealer": p["dealer"],
            "turn": p["turn"],
            "phase": p["_phase"],
            "side_of": list(p["side_of"]),
            "scores": list(p["scores"]),
            "minimums": self.minimums(),
            "hand": [str(c) for c in self.hand_cards()],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "pile": [str(pack.cards[c]) for c in p["pile"]],
            "pile_frozen": p["pile_frozen"],
            "melds": [self.melds_of(side) for side in range(nsides)],
            "red_threes": [self.names(m) for m in p["red3"]],
            "going_out": self.going_out_needs(),
            "known_in_hand": [self.names(m) for m in p["known"]],
            "log": self.log(),
            "outcome": outcome.to_json() if outcome is not None else None,
            # CC-6.9: this seat's own staged melds (always empty for other seats' turns)
            "staged": [str(sp) for sp in self.staged],
            "staged_upcard": self.staged_upcard,
            # the count (CC-3.4) the staged melds reach toward the minimum (CC-7.1, CC-7.4:
            # with a staged take, the upcard counts too)
            "staged_count": self.staged_count(),
            # CC-6.9 (d): stage actions this seat may still make this turn
            "stages_left": STAGE_LIMIT - self.private.get("stages", 0),
        }
        data.update(self._json_extra())
        return data

    def _json_extra(self) -> dict[str, Any]:
        return {}

    def to_text(self) -> str:
        """A compact plain-text rendering (the CLI draws a richer table)."""
        j = self.to_json()
        lines = [f"{self.TITLE} — hand {j['hand_no'] + 1}, seat {self.seat} to see, "
                 f"turn: seat {j['turn']} ({j['phase']})"]
        lines.append("Scores: " + ", ".join(f"side {i}: {s}" for i, s in enumerate(j["scores"])))
        for side, melds in enumerate(j["melds"]):
            if melds:
                lines.append(f"Side {side} melds: " + "; ".join(
                    m["spec"] + (f" [{m['canasta']} canasta]" if m["canasta"] else "")
                    for m in melds))
        up = self.upcard()
        n_pile = len(j["pile"])
        lines.append(f"Pile: {n_pile} card{'' if n_pile == 1 else 's'}, upcard {up if up else '—'}"
                     + (" (frozen)" if j["pile_frozen"] else "")
                     + f"; stock {j['stock_size']}")
        lines.append("Your hand: " + " ".join(str(c) for c in self.hand_cards()))
        if self.staged:
            lines.append("Staged (only you see them): " + "; ".join(
                str(sp) + (" + upcard" if i == 0 and self.staged_upcard else "")
                for i, sp in enumerate(self.staged)))
        return "\n".join(lines)

    # ------------------------------------------------------------------ determinization
    def _seen(self) -> int:
        """Every card whose place this seat knows."""
        p = self.public
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
        return seen

    @abc.abstractmethod
    def _state_class(self) -> type[_S]:
        """The game's state class (supplied by each game)."""

    def _hidden_packets(self) -> list[tuple[str, int, int, bool]]:
        """Hidden packets other than hands to deal: ``(name, index, size, red_ok)``."""
        return []

    def _plausible(self, hands: list[int]) -> bool:
        """Whether sampled hands agree with what the table could infer (default: always)."""
        return True

    def sample_state(self, rng: random.Random) -> _S:
        """A full state consistent with this observation (hidden cards dealt from ``rng``).

        Red threes are never held (they are laid out at once), so hidden red threes go only
        to the stock or to packets that may hold them (an untaken kitty).
        """
        p = self.public
        pack = self.pack
        seen = self._seen()
        red3 = pack.red_threes
        free = [i for i in range(pack.size) if not (seen >> i) & 1]
        plain0 = [i for i in free if not (red3 >> i) & 1]
        reds0 = [i for i in free if (red3 >> i) & 1]
        packets = self._hidden_packets()
        for _attempt in range(500):
            plain = list(plain0)
            reds = list(reds0)
            rng.shuffle(plain)
            rng.shuffle(reds)
            hands = []
            for s in range(self.players):
                if s == self.seat:
                    hands.append(self.hand)
                    continue
                h = p["known"][s]
                for _ in range(self.hand_sizes[s] - h.bit_count()):
                    h |= 1 << plain.pop()
                hands.append(h)
            # packets that may hold red threes draw from a mix of the rest, red threes included
            filled: dict[tuple[str, int], int] = {}
            mixed = plain + reds
            rng.shuffle(mixed)
            for name, idx, size, _red_ok in packets:
                m = 0
                for _ in range(size):
                    m |= 1 << mixed.pop()
                filled[(name, idx)] = m
            if self._plausible(hands):
                break
        st = self._state_class().blank()
        for name in self.PUBLIC_FIELDS:
            setattr(st, name, p[name])
        st.options = self.options
        st.pack = pack
        st.seed = rng.getrandbits(62)
        st.hands = tuple(hands)
        rng.shuffle(mixed)
        st.stock = tuple(mixed)
        self._fill_packets(st, filled)
        st.staged = self.staged
        st.staged_up = self.staged_upcard
        st.stages = self.private.get("stages", 0)
        st._cache = None
        return st

    def _fill_packets(self, state: _S, filled: dict[tuple[str, int], int]) -> None:
        """Put the sampled packets (``(name, index)`` -> bitmask of card ids) into the sampled
        state."""
