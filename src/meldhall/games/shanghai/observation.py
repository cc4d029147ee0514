"""What one seat may know of a Shanghai Rummy state (SH-6.4).

Public: melds with each joker's declared card, the discard pile in order, the upcard, each
player's card count, buy count and contract status, the stock size and the number of rebuilds
this deal, the scores, the upcard a player took (and cards bought) while still in that hand,
and the log of actions.  Private: the seat's own hand, the card it drew from the stock, a
penalty card it received, and the melds it has staged this turn with its count of stage
actions (SH-8.1: staging and withdrawing change no other seat's observation).  Never
included: other hands, the stock order, other players' penalty cards and the game seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from meldhall.cards import Card, Pack
from meldhall.game import Observation
import meldhall.games.shanghai._links as _links
from meldhall.games.shanghai.actions import MeldSpec
from meldhall.games.shanghai.options import ShanghaiOptions
from meldhall.games.shanghai.rules import CONTRACTS, JOKER_KIND
from meldhall.games.shanghai.rules import Contract as ContractRule
from meldhall.games.shanghai.state import STAGE_LIMIT, LogNode, ShanghaiState, with_secret
from meldhall.games.shanghai.table import TableMeld

__all__ = ["PUBLIC_FIELDS", "ShanghaiObservation"]

#: State attributes every seat may see.
PUBLIC_FIELDS = (
    "hand_no", "dealer", "first_dealer", "scores", "deal_scores", "extra_seats", "turn",
    "_phase", "pile", "melds", "made", "buys", "rebuilds", "contract_now", "jokers_now",
    "taken", "queue", "upcard_from", "no_supply", "known", "took_kinds", "declined_kinds",
    "went_out", "_outcome", "n52",
)


@dataclass(frozen=True)
class ShanghaiObservation(Observation):
    """One seat's view.

    Attributes:
        seat: the observing seat.
        options: the game's options.
        hand: bitmask of the seat's own cards (card ids of ``pack``).
        hand_sizes: cards held by each seat.
        stock_size: cards left in the stock.
        public: the public fields of the state (:data:`PUBLIC_FIELDS`).
        log: this deal's log as ``(seat, action, note)``, with this seat's private details
            only (built on first use).
        staged: the seat's own staged melds (SH-8.1; empty unless it is in its meld phase).
        stages: the seat's own stage actions this turn.
    """

    seat: int
    options: ShanghaiOptions
    hand: int
    hand_sizes: tuple[int, ...]
    stock_size: int
    public: dict[str, Any]
    # the state's log and this deal's mark in it (``log`` reads it)
    _log_source: tuple[LogNode, LogNode] = field(default=(None, None), repr=False,
                                                 compare=False)
    staged: tuple[MeldSpec, ...] = ()
    stages: int = 0

    @classmethod
    def from_state(cls, state: ShanghaiState, seat: int) -> ShanghaiObservation:
        """The observation of ``seat`` in ``state``."""
        public = {name: getattr(state, name) for name in PUBLIC_FIELDS}
        staged, stages = cls.private_of(state, seat)
        return cls(seat, state.options, state.hands[seat],
                   tuple(h.bit_count() for h in state.hands), len(state.stock), public,
                   (state.log, state.log_mark), staged, stages)

    @staticmethod
    def private_of(state: ShanghaiState, seat: int) -> tuple[tuple[MeldSpec, ...], int]:
        """``(staged, stages)`` of ``seat``'s observation of ``state``: its own staged melds
        and stage actions this turn (SH-8.1), empty and 0 unless it is in turn."""
        if seat == state.turn:
            return state.staged, state.stages
        return (), 0

    @cached_property
    def log(self) -> tuple[tuple[int, str, str], ...]:
        """This deal's log as ``(seat, action, note)``; the private detail of an entry (the
        card drawn, a penalty card) only where it is this seat's own."""
        node, mark = self._log_source
        out: list[tuple[int, str, str]] = []
        while node is not None and node is not mark:
            node, (s, text, note, secret) = node
            if type(text) is not str:
                text = str(text)  # the action itself, written out now (ShanghaiState._log)
            if secret and s == self.seat:
                note = with_secret(note, secret)
            out.append((s, text, note))
        out.reverse()
        return tuple(out)

    def __reduce__(self) -> tuple[Callable[..., ShanghaiObservation], tuple[object, ...]]:
        # pickle the log flat (the state's linked list is as deep as the game is long)
        return (_rebuild_observation, (self.seat, self.options, self.hand, self.hand_sizes,
                                       self.stock_size, self.public, self.log, self.staged,
                                       self.stages))

    # -- convenient views --------------------------------------------------------------------
    @property
    def pack(self) -> Pack:
        """The pack in play."""
        return Pack.get(self.options.num_decks, self.options.num_jokers)

    @property
    def turn(self) -> int:
        """The player in turn."""
        turn: int = self.public["turn"]
        return turn

    @property
    def contract_number(self) -> int:
        """This deal's contract number (SH-5.2)."""
        h: int = self.public["hand_no"]
        return h + 1 if h < self.options.deals else 10

    @property
    def contract(self) -> ContractRule:
        """This deal's contract."""
        return CONTRACTS[self.contract_number]

    @property
    def melds(self) -> tuple[TableMeld, ...]:
        """The table melds (:class:`~meldhall.games.shanghai.table.TableMeld`)."""
        melds: tuple[TableMeld, ...] = self.public["melds"]
        return melds

    def made(self, seat: int) -> bool:
        """True once ``seat`` has made this deal's contract."""
        return bool((self.public["made"] >> seat) & 1)

    def upcard(self) -> Card | None:
        """Top card of the pile, or ``None``."""
        pile = self.public["pile"]
        return self.pack.cards[pile[-1]] if pile else None

    def hand_cards(self) -> list[Card]:
        """The seat's own cards, by suit then rank (list of Card)."""
        return self._sorted(self.pack.cards_of(self.hand))

    @staticmethod
    def _sorted(cards: Iterable[Card]) -> list[Card]:
        """Cards by suit then rank, jokers last (never by deck index: a shown list must not
        tell which copies it holds)."""
        return sorted(cards, key=lambda c: (c.rank == 0, c.suit or 0, c.rank))

    def buy_limit(self) -> int | None:
        """Buys each player may make this deal (SH-10.6)."""
        return self.options.buy_limit(self.contract_number)

    # -- renderings --------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """JSON-ready view: nothing hidden from this seat is included."""
        p = self.public
        pack = self.pack
        n52 = p["n52"]
        n = self.players
        oc = p["_outcome"]
        ph = p["_phase"]
        to_act: list[int]
        if ph in ("upcard", "meld"):
            to_act = [p["turn"]]
        elif ph == "buy":
            to_act = [p["queue"][0]]
        elif ph == "deal_end":
            to_act = [(p["dealer"] + 1) % n]
        else:
            to_act = []
        return {
            "game": "shanghai-rummy",
            "seat": self.seat,
            "players": n,
            "deal": p["hand_no"] + 1,
            "contract": {"number": self.contract_number, "text": str(self.contract),
                         "cards": self.contract.cards},
            "dealer": p["dealer"],
            "turn": p["turn"],
            "phase": ph,
            "to_act": to_act,
            "scores": list(p["scores"]),
            "deal_scores": [list(d) for d in p["deal_scores"]],
            "hand": [str(c) for c in self.hand_cards()],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "rebuilds": p["rebuilds"],
            "pile": [str(pack.cards[c]) for c in p["pile"]],
            "upcard": (str(pack.cards[p["pile"][-1]]) if p["pile"] else None),
            "melds": [{"number": i + 1, "owner": m.owner, "kind": "run" if m.run else "set",
                       "cards": m.text(n52),
                       # the cards in the meld's order, by rank and suit (no deck index)
                       "physical": [str(pack.cards[c]) for c in m.cards]}
                      for i, m in enumerate(p["melds"])],
            "made_contract": [bool((p["made"] >> s) & 1) for s in range(n)],
            "buys": list(p["buys"]),
            "buy_limit": self.buy_limit(),
            "taken_upcard": (str(pack.cards[p["taken"]]) if p["taken"] >= 0 else None),
            "buy_offer_order": list(p["queue"]),
            "known_in_hand": [[str(c) for c in self._sorted(pack.cards_of(m))]
                              for m in p["known"]],
            "staged": [str(m) for m in self.staged],
            # SH-8.1: stage actions this seat may still make this turn
            "stages_left": _stages_left(self.stages),
            "log": [{"seat": s, "action": a, "note": note} for s, a, note in self.log],
            "outcome": oc.to_json() if oc is not None else None,
        }

    def to_text(self) -> str:
        """A compact plain-text rendering."""
        j = self.to_json()
        head = (f"Shanghai Rummy — deal {j['deal']}, contract {j['contract']['number']}: "
                f"{j['contract']['text']}; seat {self.seat} to see; turn: seat {j['turn']} "
                f"({j['phase']})")
        lines = [head]
        lines.append("Scores: " + ", ".join(f"seat {i}: {s}" for i, s in enumerate(j["scores"])))
        for m in j["melds"]:
            lines.append(f"  meld {m['number']} (seat {m['owner']}, {m['kind']}): {m['cards']}")
        lines.append(f"Upcard {j['upcard'] or '—'}; pile {len(j['pile'])}; stock "
                     f"{j['stock_size']} (rebuilt {j['rebuilds']}×)")
        lines.append("Cards held: " + ", ".join(f"seat {i}: {c}" for i, c in
                                                 enumerate(j["hand_sizes"]))
                     + "; buys: " + ", ".join(str(b) for b in j["buys"]))
        lines.append("Your hand: " + " ".join(str(c) for c in self.hand_cards()))
        if self.staged:
            lines.append("Staged (only you see them; 'contract done' commits, 'withdraw' takes "
                         "back): " + ", ".join(str(m) for m in self.staged))
        return "\n".join(lines)

    # -- determinization ---------------------------------------------------------------------
    def sample_state(self, rng: random.Random,
                     weights: Mapping[int, Sequence[float]] | None = None) -> ShanghaiState:
        """A full state consistent with this observation: the cards this seat cannot see are
        dealt at random from ``rng`` to the other hands (after the cards publicly known to be
        there) and to the stock.

        Args:
            rng: a ``random.Random``, the only source of the hidden cards.
            weights: ``None`` deals the unseen cards uniformly.  Otherwise a mapping
                ``seat -> sequence of 53 floats``: how much more likely (a multiplier, > 0)
                a card of each kind (0–51 as in :func:`~meldhall.games.shanghai.rules.kind_at`,
                52 the joker) is to be in that other seat's hand than in the stock, e.g. from
                what its public actions suggest (``meldhall.bots.shanghai_inference``).  Each
                unseen card in turn goes to the stock or a hand with room, with probability
                proportional to the room left times the multiplier.  Hand sizes and the stock
                size are those of the observation either way.
        """
        p = self.public
        pack = self.pack
        n = self.players
        seen = self.hand
        for m in p["melds"]:
            for c in m.cards:
                seen |= 1 << c
        for c in p["pile"]:
            seen |= 1 << c
        for s, m in enumerate(p["known"]):
            if s != self.seat:
                seen |= m
        unknown = [i for i in range(pack.size) if not (seen >> i) & 1]
        rng.shuffle(unknown)
        if weights is None:
            hands: list[int] = []
            for s in range(n):
                if s == self.seat:
                    hands.append(self.hand)
                    continue
                h = p["known"][s]
                for _ in range(self.hand_sizes[s] - h.bit_count()):
                    h |= 1 << unknown.pop()
                hands.append(h)
        else:
            unknown, hands = self._weighted_deal(unknown, weights, rng)
        st = object.__new__(ShanghaiState)
        for name in ShanghaiState.__slots__:
            setattr(st, name, None)
        for name in PUBLIC_FIELDS:
            setattr(st, name, p[name])
        st.options = self.options
        st.pack = pack
        st.seed = rng.getrandbits(62)
        st.hands = tuple(hands)
        st.stock = tuple(unknown)
        st.staged = self.staged  # the seat's own (empty unless it is in turn)
        st.stages = self.stages
        log: LogNode = None
        for s, a, note in self.log:
            log = (log, (s, a, note, ""))
        st.log = log
        st.log_mark = None
        st._cache = None
        return st

    def _weighted_deal(self, unknown: list[int], weights: Mapping[int, Sequence[float]],
                       rng: random.Random) -> tuple[list[int], list[int]]:
        """Deal ``unknown`` (shuffled card ids) by ``weights`` (see :meth:`sample_state`);
        returns the stock's cards (in random order) and every seat's hand bitmask."""
        p = self.public
        n52 = p["n52"]
        room = {s: self.hand_sizes[s] - p["known"][s].bit_count()
                for s in range(self.players) if s != self.seat}
        hands = {s: p["known"][s] for s in room}
        stock: list[int] = []
        stock_room = len(unknown) - sum(room.values())
        for c in unknown:
            k = c % 52 if c < n52 else JOKER_KIND
            total = float(stock_room)
            for s, r in room.items():
                if r:
                    total += r * weights[s][k]
            x = rng.random() * total - stock_room
            dest: int | None = None
            if x >= 0:
                for s, r in room.items():
                    if r:
                        x -= r * weights[s][k]
                        dest = s
                        if x < 0:
                            break
            if dest is None:
                stock.append(c)
                stock_room -= 1
            else:
                hands[dest] |= 1 << c
                room[dest] -= 1
        rng.shuffle(stock)
        return stock, [self.hand if s == self.seat else hands[s] for s in range(self.players)]


def _rebuild_observation(seat: int, options: ShanghaiOptions, hand: int,
                         hand_sizes: tuple[int, ...], stock_size: int, public: dict[str, Any],
                         log: Iterable[tuple[int, str, str]],
                         staged: tuple[MeldSpec, ...] = (), stages: int = 0,
                         ) -> ShanghaiObservation:
    """Unpickle a :class:`ShanghaiObservation` (see ``__reduce__``)."""
    obs = ShanghaiObservation(seat, options, hand, hand_sizes, stock_size, public, (None, None),
                              staged, stages)
    obs.__dict__["log"] = tuple(log)
    return obs


def _stages_left(stages: int) -> int:
    return STAGE_LIMIT - stages


_links.observe = ShanghaiObservation.from_state
