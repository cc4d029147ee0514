"""The fixed integer action space of Shanghai Rummy (docs/protocol.md, "Action ids: Shanghai
Rummy").

Every action a state can list has an id in ``0 .. num_distinct_actions - 1``; the space depends
only on the options and the player count, never on the state.  Actions name cards by kind, so
the space is small and factored; blocks, in order:

===========  ======================  ============================================================
block        size                    an action's place in it
===========  ======================  ============================================================
simple       8                       take, draw, buy, pass, deal, withdraw, withdraw all,
                                     contract done
discard      53                      the kind (0..51 natural, 52 joker)
layoff       120 × M                 (meld − 1) × 120 + joker × 60 + slot; slot = the card
                                     (natural kind, or a joker's declared kind) 0..51 with no
                                     end, or 52 + 2 × suit + (0 low, 1 high) for an ace whose
                                     end is written (SH-9.3)
swap         52 × M                  (meld − 1) × 52 + the natural kind
stage set    S                       index in the table of sets (SH-7.1, SH-7.5, SH-8.2)
stage run    R                       index in the table of runs (SH-7.2–SH-7.5, SH-8.2)
===========  ======================  ============================================================

``M = 4 × players``: only contracts put melds on the table, at most one per seat and deal, and
the largest has four melds (SH-5.2).  The set table lists, for each rank A, 2 … K, every sorted
tuple of natural suits (each suit at most ``decks`` times) of the sizes a contract set may have
(exactly 3, or 3 or more under ``contract_min_sizes``), then, if the pack has jokers, every
tuple one card shorter with one joker declared as each of the four suits.  The run table lists,
for each suit S H D C, each run length a contract may have (4, 5, 7 and 10, or 4 … 13 — 14
under ``ace_both_ends`` — with ``contract_min_sizes``), each lowest position and each placing of
at most ``min(joker limit, jokers in the pack)`` jokers (SH-7.5).  With the default options
that is 780 sets and 936 runs (3–4 players, one joker) or 3,860 runs (5–8 players, two jokers).
"""

from __future__ import annotations

from functools import cache

from meldhall.errors import NotationError
from meldhall.game import Action
import meldhall.games.shanghai._links as _links
from meldhall.games.shanghai.actions import (
    BUY,
    CONTRACT_DONE,
    DEAL,
    DRAW,
    PASS,
    TAKE,
    WITHDRAW,
    WITHDRAW_ALL,
    Discard,
    LayOff,
    RunSpec,
    SetSpec,
    Stage,
    Swap,
    discard_action,
    layoff_action,
    stage_action,
    swap_action,
)
from meldhall.games.shanghai.options import ShanghaiOptions
from meldhall.games.shanghai.rules import CONTRACTS, JOKER_KIND, suit_of_kind
from meldhall.games.shanghai.solver import run_candidates, set_candidates

__all__ = ["MELDS_PER_SEAT", "SIMPLE", "ActionSpace", "action_space"]

#: The actions without arguments, ids 0..7.
SIMPLE: tuple[Action, ...] = (TAKE, DRAW, BUY, PASS, DEAL, WITHDRAW, WITHDRAW_ALL,
                              CONTRACT_DONE)
#: The most melds one seat puts on the table in a deal (contract 9, SH-5.2).
MELDS_PER_SEAT = max(c.sets + c.runs for c in CONTRACTS.values())
_LAYOFF = 120
_SWAP = 52
_ENDS = ("low", "high")


class ActionSpace:
    """The action ids of one combination of options and player count (see the module
    docstring).  Get one with :func:`action_space`."""

    def __init__(self, players: int, decks: int, jokers: int, min_sizes: bool,
                 ace_both_ends: bool) -> None:
        self.melds = MELDS_PER_SEAT * players
        pack = [decks] * 52 + [jokers]
        self.sets: tuple[SetSpec, ...] = tuple(
            m for rank in range(1, 14) for m in set_candidates(pack, rank, jokers, min_sizes))
        if min_sizes:
            lengths: tuple[int, ...] = tuple(range(4, (14 if ace_both_ends else 13) + 1))
        else:
            lengths = tuple(sorted({c.run_len for c in CONTRACTS.values() if c.runs}))
        self.runs: tuple[RunSpec, ...] = tuple(
            m for suit in range(4) for m, _ in run_candidates(pack, suit, lengths, jokers))
        self.o_discard = len(SIMPLE)
        self.o_layoff = self.o_discard + 53
        self.o_swap = self.o_layoff + _LAYOFF * self.melds
        self.o_set = self.o_swap + _SWAP * self.melds
        self.o_run = self.o_set + len(self.sets)
        self.size = self.o_run + len(self.runs)
        self._simple: dict[Action, int] = {a: i for i, a in enumerate(SIMPLE)}
        self._set_ids = {m: i for i, m in enumerate(self.sets)}
        self._run_ids = {m: i for i, m in enumerate(self.runs)}

    def id_of(self, a: Action) -> int:
        """The id of ``a``.

        Raises:
            NotationError: ``a`` is outside the space (the compound ``contract A, B``
                shorthand, a discard naming a physical copy, a lay-off not in canonical form,
                or a meld number or meld no contract could have).
        """
        # ``t is X`` stands for ``type(a) is X``, which mypy would narrow on; the saved type
        # keeps this dispatch cheap
        t = type(a)
        if t is Stage:
            m = a.meld  # type: ignore[attr-defined]  # t is Stage
            if isinstance(m, SetSpec):
                i = self._set_ids.get(m)
                if i is not None:
                    return self.o_set + i
            else:
                i = self._run_ids.get(m)
                if i is not None:
                    return self.o_run + i
        elif t is Discard:
            kind, deck = a.kind, a.deck  # type: ignore[attr-defined]  # t is Discard
            if deck is None and isinstance(kind, int) and 0 <= kind <= JOKER_KIND:
                return self.o_discard + kind
        elif t is LayOff:
            i = self._layoff_slot(a)  # type: ignore[arg-type]  # t is LayOff
            if i is not None:
                return self.o_layoff + i
        elif t is Swap:
            meld, kind = a.meld, a.kind  # type: ignore[attr-defined]  # t is Swap
            if (isinstance(meld, int) and 1 <= meld <= self.melds
                    and isinstance(kind, int) and 0 <= kind < 52):
                return self.o_swap + (meld - 1) * _SWAP + kind
        else:
            i = self._simple.get(a)
            if i is not None:
                return i
        raise NotationError(f"{a} has no id in the Shanghai Rummy action space (the "
                            "compound contract is staged meld by meld; discards name kinds)")

    def _layoff_slot(self, a: LayOff) -> int | None:
        if not isinstance(a.meld, int) or not 1 <= a.meld <= self.melds:
            return None
        joker = a.kind == JOKER_KIND
        card = a.decl if joker else a.kind
        if not isinstance(card, int) or not 0 <= card < 52 or (not joker and a.decl is not None):
            return None
        if a.end is None:
            slot = card
        elif a.end in _ENDS and card % 13 == 0:
            slot = 52 + 2 * suit_of_kind(card) + _ENDS.index(a.end)
        else:
            return None
        return (a.meld - 1) * _LAYOFF + (60 if joker else 0) + slot

    def action(self, i: int) -> Action:
        """The action of id ``i``.

        Raises:
            NotationError: ``i`` is not an id of this space.
        """
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < self.size:
            raise NotationError(f"action ids run from 0 to {self.size - 1}, not {i!r}")
        if i < self.o_discard:
            return SIMPLE[i]
        if i < self.o_layoff:
            return discard_action(i - self.o_discard)
        if i < self.o_swap:
            meld, rest = divmod(i - self.o_layoff, _LAYOFF)
            joker, slot = divmod(rest, 60)
            if slot < 52:
                card, end = slot, None
            else:
                suit, e = divmod(slot - 52, 2)
                card, end = suit * 13, _ENDS[e]
            if joker:
                return layoff_action(JOKER_KIND, meld + 1, card, end)
            return layoff_action(card, meld + 1, None, end)
        if i < self.o_set:
            meld, kind = divmod(i - self.o_swap, _SWAP)
            return swap_action(kind, meld + 1)
        if i < self.o_run:
            return stage_action(self.sets[i - self.o_set])
        return stage_action(self.runs[i - self.o_run])


@cache
def _space(players: int, decks: int, jokers: int, min_sizes: bool,
           ace_both_ends: bool) -> ActionSpace:
    return ActionSpace(players, decks, jokers, min_sizes, ace_both_ends)


def action_space(options: ShanghaiOptions) -> ActionSpace:
    """The :class:`ActionSpace` of a :class:`~meldhall.games.shanghai.options.ShanghaiOptions`
    (shared: built once per combination of the options it depends on)."""
    return _space(options.player_count, options.num_decks, options.num_jokers,
                  options.contract_min_sizes, options.ace_both_ends)


_links.action_space = action_space
