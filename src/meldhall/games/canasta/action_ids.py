"""The fixed integer action space of the canasta games (docs/protocol.md, "Action ids").

Melds are named by rank and counts — naturals, twos, jokers — never by physical cards (the
engine picks the copies), so the space is small and the same for every state of a game with
the same options.  Layout, for a game whose melds take at most ``N`` naturals of a rank, ``T``
twos and ``J`` jokers::

    0 … 9        draw, pass, deal, yes, no, kitty, go out, meld done, withdraw, withdraw all
    10 … 23      discard KIND              (KIND = 0 joker, 1 ace, 2 two, 3 black three … 13)
    24 … 24+P-1  ask PARTNER               (P = number of seats)
    then five blocks of S = 14·(N+1)·(T+1)·(J+1) ids each, in this order:
                 take RANK n t j            (the upcard with n naturals, t twos, j jokers)
                 meld RANK n t j            (one new meld)
                 add n t j -> RANK          (cards added to a meld; RANK 0 = the wild meld)
                 stage RANK n t j           (a staged meld, CC-6.9 / RR-6.11)
                 stage RANK n t j + upcard  (the staged upcard meld of a take)
    where a block's index is ((RANK·(N+1) + n)·(T+1) + t)·(J+1) + j.

Classic Canasta: N = naturals of a rank in the pack (4 per deck), T = J = 3 (CC-6.2).
Railroad Canasta: N = 7 (a meld holds at most seven cards, RR-6.1), T = min(7, twos in the
pack), J = min(7, jokers in the pack) (a wild meld holds up to seven wild cards, RR-6.4).
The one-action meldings (``meld A A A, K K 2``, ``take 8 8 2, K K JK``, ``out …``) are
shorthand for staged sequences, never listed as legal actions, and have no id.
"""

from __future__ import annotations

from typing import ClassVar

from meldhall.errors import NotationError
from meldhall.game import Action
from meldhall.games.canasta.actions import (
    Add, Answer, Ask, Deal, Discard, Draw, GoOutNow, Kitty, Meld, MeldDone, MeldSpec, Pass,
    Stage, Take, Withdraw,
)

__all__ = ["CanastaActionSpace"]

_SIMPLE: tuple[Action, ...] = (Draw(), Pass(), Deal(), Answer(True), Answer(False), Kitty(),
                               GoOutNow(), MeldDone(), Withdraw(False), Withdraw(True))
_SIMPLE_ID = {a: i for i, a in enumerate(_SIMPLE)}
_DISCARD0 = len(_SIMPLE)
_ASK0 = _DISCARD0 + 14
_BLOCKS = ("take", "meld", "add", "stage", "stage_up")


class CanastaActionSpace:
    """The action ids of one canasta game and player count (see the module docstring).

    Args:
        players: seats (P).
        naturals: N, the most naturals of one rank an action can name.
        twos, jokers: T and J, the most twos and jokers an action can name.
    """

    _cache: ClassVar[dict[tuple[int, int, int, int], CanastaActionSpace]] = {}

    def __init__(self, players: int, naturals: int, twos: int, jokers: int):
        self.players = players
        self.n, self.t, self.j = naturals, twos, jokers
        self.block = 14 * (naturals + 1) * (twos + 1) * (jokers + 1)
        self.base = _ASK0 + players
        self.size = self.base + len(_BLOCKS) * self.block

    @classmethod
    def get(cls, players: int, naturals: int, twos: int, jokers: int) -> CanastaActionSpace:
        """A shared space per shape."""
        key = (players, naturals, twos, jokers)
        sp = cls._cache.get(key)
        if sp is None:
            sp = cls._cache[key] = cls(players, naturals, twos, jokers)
        return sp

    def _spec_index(self, rank: int, n: int, t: int, j: int) -> int:
        if not (0 <= rank < 14 and 0 <= n <= self.n and 0 <= t <= self.t and 0 <= j <= self.j):
            raise NotationError(f"no action id for a meld of rank {rank} with {n} naturals, "
                                f"{t} twos and {j} jokers in this game")
        return ((rank * (self.n + 1) + n) * (self.t + 1) + t) * (self.j + 1) + j

    def _spec_of(self, index: int) -> tuple[int, int, int, int]:
        index, j = divmod(index, self.j + 1)
        index, t = divmod(index, self.t + 1)
        rank, n = divmod(index, self.n + 1)
        return rank, n, t, j

    def action_id(self, action: Action) -> int:
        """The id of ``action``.

        Raises:
            NotationError: an action outside the space (a one-action melding of several
                melds, a going out in one action, counts beyond the game's bounds).
        """
        t = type(action)
        got = _SIMPLE_ID.get(action) if t in (Draw, Pass, Deal, Answer, Kitty, GoOutNow,
                                              MeldDone, Withdraw) else None
        if got is not None:
            return got
        if type(action) is Discard:
            if not 0 <= action.kind < 14:
                raise NotationError(f"no action id for a discard of kind {action.kind!r}")
            return _DISCARD0 + action.kind
        if type(action) is Ask:
            if not 0 <= action.partner < self.players:
                raise NotationError(f"no action id for asking seat {action.partner!r}")
            return _ASK0 + action.partner
        if type(action) is Take:
            if action.extra:
                raise NotationError("a take with further melds is shorthand for staged melds "
                                    "and has no action id")
            block, spec = 0, (action.rank, action.naturals, action.twos, action.jokers)
        elif type(action) is Meld:
            if len(action.melds) != 1:
                raise NotationError("a melding of several melds is shorthand for staged melds "
                                    "and has no action id")
            m = action.melds[0]
            block, spec = 1, (m.rank, m.naturals, m.twos, m.jokers)
        elif type(action) is Add:
            block, spec = 2, (action.rank, action.naturals, action.twos, action.jokers)
        elif type(action) is Stage:
            m = action.spec
            block, spec = (4 if action.upcard else 3), (m.rank, m.naturals, m.twos, m.jokers)
        else:
            raise NotationError(f"{action} has no action id (shorthand for staged melds)")
        return self.base + block * self.block + self._spec_index(*spec)

    def action_from_id(self, i: int) -> Action:
        """The action with id ``i`` (it may be illegal in a given state).

        Raises:
            NotationError: ``i`` is not an id of this space.
        """
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < self.size:
            raise NotationError(f"action ids run from 0 to {self.size - 1}, not {i!r}")
        if i < _DISCARD0:
            return _SIMPLE[i]
        if i < _ASK0:
            return Discard(i - _DISCARD0)
        if i < self.base:
            return Ask(i - _ASK0)
        block, index = divmod(i - self.base, self.block)
        rank, n, t, j = self._spec_of(index)
        kind = _BLOCKS[block]
        if kind == "take":
            return Take(rank, n, t, j)
        if kind == "meld":
            return Meld((MeldSpec(rank, n, t, j),))
        if kind == "add":
            return Add(rank, n, t, j)
        return Stage(MeldSpec(rank, n, t, j), kind == "stage_up")
