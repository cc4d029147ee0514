"""Railroad Canasta: the game state and its rules (docs/rules/railroad-canasta.md, RR-1 … RR-14).

Every player plays alone (a side is a seat).  Besides the hand, each player has an 11-card
**kitty**.  Melds hold at most seven cards; a seven-card meld becomes a canasta at once and is
**closed** (moved from the open-meld slots to ``closed``), typed red, black, wild or sevens.
Open melds are one per category (a natural rank, sevens, or the wild meld in slot 0).

Phases (``state.phase``):

* ``"draw"`` — draw two from the stock or take the pile (RR-5.2, RR-8); with the stock
  empty, takes or ``pass`` (RR-12.2).
* ``"meld"`` — melds and additions, then the discard (RR-6, RR-9.6); while the sevens lock
  forces it, only melds of sevens (RR-12.4).
* ``"kitty"`` — after a discard, an eligible player may take the kitty (``kitty``) or not
  (``pass``) (RR-10.3).
* ``"choice"`` — after the last discard, ``go out`` or ``kitty`` (RR-11.7).
* ``"hand_end"``, ``"game_over"`` — as in Classic Canasta.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, ClassVar, NoReturn

from meldhall.cards import JOKER
from meldhall.errors import IllegalActionError
from meldhall.game import Action, SideResult
from meldhall.games.canasta.actions import (
    NATURAL_RANKS, RAILROAD_PARSE_RULES, TWO, Add, Discard, Draw, GoOutNow, Kitty, Meld,
    MeldDone, MeldSpec, Pass, Stage, Take, Withdraw, canonical_specs, format_kind,
    parse_canasta_action, with_article,
)
from meldhall.games.canasta.engine import (
    DISCARDS, HELD_KINDS, MELD_DONE, STAGE_LIMIT,
    NO_MELDS, CanastaMeld, CanastaState, LogText, Plan, hand_seed, interned_add, interned_meld,
    interned_stage, plural, set_item, used_counts, wild_splits,
)
from meldhall.games.canasta.values import CLASSIC_VALUES
from meldhall.games.railroad_canasta.options import (
    CANASTA_TYPES,
    GOING_OUT_NEEDS,
    RailroadCanastaOptions,
)

if TYPE_CHECKING:
    # for annotations only: the observation module imports this one, never the reverse
    from meldhall.games.railroad_canasta.observation import RailroadCanastaObservation

__all__ = ["RailroadCanastaState", "new_game", "canasta_type", "meets_go_out"]

DRAW, MELD, KITTY, CHOICE, HAND_END, GAME_OVER = (
    "draw", "meld", "kitty", "choice", "hand_end", "game_over")
PHASES = (DRAW, MELD, KITTY, CHOICE, HAND_END, GAME_OVER)
V = CLASSIC_VALUES  # RR-3.5 gives the same card values as CC-3.4
SEVEN, BLACK3 = 7, 3
_PASS, _KITTY, _OUT = Pass(), Kitty(), GoOutNow()
#: Meld categories: the wild meld (slot 0), then natural ranks (7 = sevens).
_CATEGORIES = (JOKER,) + NATURAL_RANKS

#: A scored hand: a :class:`SideResult` per player and the cumulative scores after it.
HandScore = tuple[tuple[SideResult, ...], tuple[int, ...]]
#: A closed canasta: its type (RR-6.9) and the meld.
Closed = tuple[str, CanastaMeld]

_Make = Callable[[int, int, int, int], Add | Meld]
_ADDS_TO: dict[tuple[object, ...], list[Add | Meld]] = {}
_NEW_MELDS: dict[tuple[object, ...], list[Add | Meld]] = {}
#: The discards in the order they are listed, and the counts of a hand in that order.
_HELD_DISCARDS = tuple(DISCARDS[k] for k in HELD_KINDS)
_held = itemgetter(*HELD_KINDS)


_STAGES_OF: dict[tuple[object, ...], list[Stage]] = {}


def _stages_of(r: int, n_max: int, unfinished: bool, tw: int, jk: int,
               limit: Callable[[int], int], wl: object) -> list[Stage]:
    """Every stage of a new meld of category ``r`` (``JOKER``: the wild meld) from ``n_max``
    naturals, ``tw`` twos and ``jk`` jokers, with an unfinished staged meld of it or not
    (RR-6.7), in the order :meth:`RailroadCanastaState._stage_actions` lists them (``limit``:
    the wild limit, ``wl`` its option, part of the key)."""
    key = (r, n_max, unfinished, tw, jk, wl)
    got = _STAGES_OF.get(key)
    if got is None:
        if r == JOKER:
            got = [interned_stage(JOKER, 0, t, j)
                   for t, j in wild_splits(7 if unfinished else 3, min(7, tw + jk), tw, jk)]
        else:
            got = []
            for n in range(n_max, 1, -1):
                max_w = 0 if r == SEVEN else min(limit(n), 7 - n)
                lo = max(0, 3 - n, 7 - n if unfinished else 0)
                got.extend(interned_stage(r, n, t, j) for t, j in wild_splits(lo, max_w, tw, jk))
        _STAGES_OF[key] = got
    return got


def _new_melds(r: int, n_max: int, has_open: bool, tw: int, jk: int,
               limit: Callable[[int], int], wl: object) -> list[Add | Meld]:
    """Every new meld of the natural rank ``r`` from ``n_max`` naturals (at most seven),
    ``tw`` twos and ``jk`` jokers, beside an open meld of ``r`` or not (a seven-card canasta
    only, RR-6.7), in the meld-phase loop's order (``limit``: the wild limit, ``wl`` its
    option, part of the key)."""
    key = (r, n_max, has_open, tw, jk, wl)
    got = _NEW_MELDS.get(key)
    if got is None:
        got = _NEW_MELDS[key] = []
        for n in range(n_max, 1, -1):
            max_w = 0 if r == SEVEN else min(limit(n), 7 - n)
            got.extend(_block(interned_meld, r, n, max(0, 3 - n, 7 - n if has_open else 0),
                              min(max_w, tw + jk), tw, jk))
    return got
_BLOCKS: dict[tuple[_Make, int, int, int, int, int, int], list[Add | Meld]] = {}


def _block(make: _Make, r: int, n: int, lo: int, top: int, tw: int,
           jk: int) -> list[Add | Meld]:
    """The candidate actions ``make(r, n, t, j)`` for every wild split from ``lo`` to ``top``
    (cached: the same blocks recur all game long)."""
    key = (make, r, n, lo, top, tw, jk)
    b = _BLOCKS.get(key)
    if b is None:
        b = _BLOCKS[key] = [make(r, n, t, j) for t, j in wild_splits(lo, top, tw, jk)]
    return b


def canasta_type(rank: int, naturals: int, wilds: int) -> str:
    """RR-6.9: the type of a completed seven-card meld."""
    if rank == JOKER:
        return "wild"
    if rank == SEVEN:
        return "sevens"
    return "red" if wilds == 0 else "black"


def meets_go_out(requirement: str, types: set[str] | frozenset[str], count: int) -> bool:
    """RR-11.1: whether a player with the canasta ``types`` (RR-6.9) and ``count`` closed
    canastas meets the going-out requirement ``requirement`` (the option
    ``go_out_requirement``: ``all_four``, ``red_and_black``, ``any_two`` or ``any_one``)."""
    if requirement == "all_four":
        return set(CANASTA_TYPES) <= types
    if requirement == "red_and_black":
        # one natural (red, or sevens: all natural cards) and one mixed (black) canasta; a
        # wild canasta has no natural card, so it is not "mixed"
        return bool(types & {"red", "sevens"}) and "black" in types
    return count >= (2 if requirement == "any_two" else 1)


class RailroadCanastaState(CanastaState):
    """A Railroad Canasta game in progress.  Build one with :func:`new_game`.

    Beyond :class:`~meldhall.games.canasta.engine.CanastaState`: ``kitties`` (bitmask per
    seat, untaken cards), ``kitty_taken`` (bitmask of seats), ``closed`` (per seat, a tuple of
    ``(type, meld)`` canastas), ``b3_done`` (a black-three meld was made this turn).
    """

    game_name = "railroad-canasta"

    options: RailroadCanastaOptions
    # the attributes of Railroad's own ``__slots__``
    kitties: tuple[int, ...]                 #: untaken kitty per seat (bitmask)
    kitty_taken: int                         #: bitmask of the seats that took their kitty
    closed: tuple[tuple[Closed, ...], ...]   #: closed canastas per seat, in order closed
    b3_done: bool                            #: a black-three meld was made this turn

    # Wired by the package (``meldhall/games/railroad_canasta/__init__.py``): the modules built
    # on the state are imported by it, never by the state, so the imports run one way.
    #: The observation class (:mod:`meldhall.games.railroad_canasta.observation`).
    _observation_class: ClassVar[type[RailroadCanastaObservation]]
    #: Scores an ended hand (:func:`meldhall.games.railroad_canasta.scoring.score_hand`).
    _scorer: ClassVar[Callable[[RailroadCanastaState, str, int | None], HandScore]]

    __slots__ = ("kitties", "kitty_taken", "closed", "b3_done")

    RULES = {
        "turn": "RR-5.1", "game_over": "RR-14.1", "discard": "RR-5.2", "meld_shape": "RR-6.1",
        "deal": "RR-4.1", "stock_empty": "RR-12.2", "turn_start": "RR-5.2",
        "minimum": "RR-7.1", "minimum_take": "RR-7.3", "pile_empty": "RR-8.1",
        "pile_blocked": "RR-8.2", "take_frozen": "RR-8.5", "take_wild_frozen": "RR-8.7",
        "take_wild": "RR-8.7", "take_route": "RR-8.4", "staging": "RR-6.11", "drawn": "RR-5.6",
    }
    TURN_PHASES = (DRAW, MELD, KITTY, CHOICE)
    RULES_PARSE = RAILROAD_PARSE_RULES
    WILD_ID_MAX = 7      # a wild meld holds up to seven wild cards (RR-6.4)
    NATURAL_ID_MAX = 7   # a meld holds at most seven cards (RR-6.1)

    # ------------------------------------------------------------------ views
    def has_melded(self, seat: int) -> bool:
        """True once ``seat`` has melded this hand (RR-7.1)."""
        return self.melds[seat] != NO_MELDS or bool(self.closed[seat])

    def canasta_types(self, seat: int) -> set[str]:
        """The canasta types ``seat`` has completed (RR-6.9)."""
        return {t for t, _ in self.closed[seat]}

    def sevens_canastas(self, seat: int) -> int:
        """Number of sevens canastas of ``seat``."""
        return sum(1 for t, _ in self.closed[seat] if t == "sevens")

    def kitty_eligible(self, seat: int, types: set[str] | None = None) -> bool:
        """RR-10.2: a completed canasta that is not black."""
        types = self.canasta_types(seat) if types is None else types
        return bool(types & {"red", "wild", "sevens"})

    def kitty_open(self, seat: int, types: set[str] | None = None) -> bool:
        """Eligible and the kitty still untaken."""
        return not (self.kitty_taken >> seat) & 1 and self.kitty_eligible(seat, types)

    def meets_go_out(self, types: set[str], count: int) -> bool:
        """RR-11.1 (option ``go_out_requirement``): :func:`meets_go_out` of this table."""
        return meets_go_out(self.options.go_out_requirement, types, count)

    def sevens_locked(self, seat: int, extra_sevens: int = 0) -> bool:
        """RR-9.6: may ``seat`` not discard sevens?  ``extra_sevens`` counts sevens canastas
        ``seat`` would complete with a pending action."""
        mode = self.options.sevens_lock
        if mode == "never":
            return False
        if mode == "discarding_player":
            return self.sevens_canastas(seat) + extra_sevens == 0
        for s in range(self.players):
            have = self.sevens_canastas(s) + (extra_sevens if s == seat else 0)
            if have == 0:
                return True
        return False

    def minimum_for(self, seat: int) -> int:
        """Minimum count for ``seat``'s first melding this hand (RR-7.1)."""
        return self.options.minimum_count(self.scores[seat])

    def _required(self) -> int:
        return 0

    # ------------------------------------------------------------------ deal
    def _deal_packets(self, order: list[int]) -> None:
        # RR-4.4, RR-4.5: the kitties, one card at a time, after the hands.
        self.kitties = tuple(self._deal_round(order, self.options.kitty_size))

    def _turn_upcard(self, order: list[int]) -> tuple[list[int], bool] | None:
        """RR-4.7, RR-4.8: one upcard, never covered; a red three freezes the pile, a wild card
        too (option ``upcard_wild_freezes``)."""
        if not order:
            return None
        c = order.pop()
        r = self.pack.rank_of[c]
        red = (self.pack.red_threes >> c) & 1
        frozen = bool(red) or (r in (JOKER, TWO) and self.options.upcard_wild_freezes)
        return [c], frozen

    def _replace_red_threes(self) -> bool:
        return self.options.red_three_replacement

    def _start_hand(self) -> None:
        n = self.players
        self._reset_hand(tuple(range(n)), n)  # RR-1.1: everyone plays alone
        self.closed = ((),) * n
        self.kitty_taken = 0
        self._deal(hand_seed(self.seed, self.hand_no))
        self._begin_turn((self.dealer + 1) % n)

    def _begin_turn(self, seat: int) -> None:
        """Start ``seat``'s turn (RR-5.1); with the stock empty apply RR-12.2."""
        self.turn = seat
        self._phase = DRAW
        self.pile_cards = 0
        self.took = False
        self.melds_made = 0
        self.new_ranks = 0
        self.b3_done = False
        self.staged = ()
        self.staged_up = False
        self.stages = 0
        self._cache = None
        if not self.stock and not self._take_possible():
            self._end_hand("stock_exhausted", None)

    # ------------------------------------------------------------------ meld arithmetic
    def _wild_room(self, rank: int, naturals: int, wilds: int, size: int) -> int:
        """Wild cards an open meld can still take (RR-6.1–RR-6.4)."""
        if rank == SEVEN:
            return 0
        if rank == JOKER:
            return 7 - size
        return max(0, min(self.options.wild_limit(naturals) - wilds, 7 - size))

    def _spec_problem(self, s: MeldSpec) -> tuple[str, str] | None:
        """Why a new meld is not allowed (RR-6.1–RR-6.5), or None."""
        name = format_kind(s.rank)
        if s.rank == BLACK3:
            return "RR-6.5", "black threes may be melded only as the last meld when going out"
        if s.size < 3:
            return "RR-6.1", f"{s}: a meld needs at least three cards"
        if s.size > 7:
            return "RR-6.1", f"{s}: a meld holds at most seven cards"
        if s.rank == JOKER:
            if s.naturals:
                return "RR-6.4", "a wild meld holds only wild cards (jokers and twos)"
            return None  # RR-6.4: three to seven wild cards
        if s.rank not in NATURAL_RANKS:
            return "RR-6.2", f"{name}s cannot be melded"
        if s.rank == SEVEN and s.wilds:
            return "RR-6.3", "sevens are never melded with wild cards"
        if s.naturals < 2:
            return "RR-6.2", f"{s}: a meld needs at least two natural cards"
        if s.wilds > self.options.wild_limit(s.naturals):
            return "RR-6.2", (f"{s}: at most {self.options.wild_limit(s.naturals)} wild cards "
                              "in a meld of a natural rank")
        return None

    def _check_new_specs(self, specs: Sequence[MeldSpec], seat: int,
                         taken_rank: int | None = None) -> None:
        """Check new melds of one action, including RR-6.7 (one unfinished meld per category)."""
        open_ = self.melds[seat]
        unfinished: set[int] = set()
        if taken_rank is not None:
            unfinished.add(taken_rank)
        for s in specs:
            problem = self._spec_problem(s)
            if problem:
                raise IllegalActionError(*problem)
            if s.size < 7:
                if open_[s.rank] is not None or s.rank in unfinished:
                    raise IllegalActionError(
                        "RR-6.7", f"you already have an unfinished meld of "
                        f"{'wild cards' if s.rank == JOKER else format_kind(s.rank) + 's'}: "
                        "add to it instead")
                unfinished.add(s.rank)

    # -- consequences of an action -----------------------------------------------------------
    def _after_types(self, seat: int, closing: list[str]) -> set[str]:
        return self.canasta_types(seat) | set(closing)

    def _leave_problem(self, seat: int, counts_after: Sequence[int], closing: list[str],
                       counts_before: Sequence[int] | None = None) -> tuple[str, str] | None:
        """RR-5.7 and RR-5.8 for an action that leaves ``counts_after`` in hand."""
        left = sum(counts_after)
        types = self._after_types(seat, closing)
        sevens_done = closing.count("sevens")
        locked = self.sevens_locked(seat, sevens_done)
        if left == 0:
            return "RR-5.7", ("that would leave you no card: a turn ends with a discard "
                              "(RR-11.2)")
        if left == 1:
            last = next(k for k in range(14) if counts_after[k])
            if not self._last_discard_ok(seat, last, types, locked, kitty_allowed=True,
                                         extra=len(closing)):
                return "RR-5.7", self._one_card_left(seat, last, types, len(closing))
        if counts_before is not None and locked:
            before_ok = any(counts_before[k] for k in range(14) if k != SEVEN) or not \
                self.sevens_locked(seat)
            after_ok = any(counts_after[k] for k in range(14) if k != SEVEN)
            if before_ok and not after_ok:
                return "RR-5.8", ("that would leave you only sevens, which you may not discard "
                                  "while the sevens lock holds: keep a card you can discard")
        return None

    def _one_card_left(self, seat: int, last: int, types: set[str], extra: int) -> str:
        """Why one card left (of kind ``last``) could not be discarded (RR-5.7): the going
        out this table needs (RR-11.1, its ``go_out_requirement``; never on a seven, RR-9.7)
        and the kitty (RR-10.2), as they stand for ``seat`` with the canasta ``types``."""
        req = self.options.go_out_requirement
        needs = GOING_OUT_NEEDS.get(req, req)
        if last == SEVEN:
            out = "a seven may not be the last discard (RR-9.7)"
        elif not self.meets_go_out(types, len(self.closed[seat]) + extra):
            have = ", ".join(t for t in CANASTA_TYPES if t in types) or "none"
            out = f"going out needs {needs} (RR-11.1; your canasta types: {have})"
        else:
            out = "you must take your kitty before going out (RR-11.1)"
        if (self.kitty_taken >> seat) & 1:
            kitty = "and your kitty is taken"
        elif not self.kitty_eligible(seat, types):
            kitty = "nor into your kitty, which needs a red, wild or sevens canasta (RR-10.2)"
        else:
            kitty = "nor into your kitty (RR-10.2)"
        return (f"that would leave you one card, {format_kind(last)}, which you could not "
                f"discard: {out}, {kitty}")

    def _last_discard_ok(self, seat: int, kind: int, types: set[str], locked: bool, *,
                         kitty_allowed: bool, extra: int = 0) -> bool:
        """Can the last card (of ``kind``) be discarded, going out or into the kitty?"""
        if kind == SEVEN and locked:
            return False
        return self._can_go_out_on(seat, kind, types, extra) or (
            kitty_allowed and self._kitty_after_discard_ok(seat, types))

    def _can_go_out_on(self, seat: int, kind: int, types: set[str], extra: int = 0) -> bool:
        """RR-11.1, RR-9.7, RR-11.4: a last discard of ``kind`` that goes out (``extra``:
        canastas a pending action completes)."""
        if kind == SEVEN:
            return False
        if not self.meets_go_out(types, len(self.closed[seat]) + extra):
            return False
        return not (self.options.must_take_kitty_before_going_out
                    and not (self.kitty_taken >> seat) & 1)

    def _kitty_after_discard_ok(self, seat: int, types: set[str]) -> bool:
        """RR-5.7(b): the kitty waits, eligible, and the option allows emptying the hand."""
        return (self.options.allow_empty_hand_into_kitty and not self.b3_done
                and self.kitty_open(seat, types))

    # ------------------------------------------------------------------ staging (RR-6.11)
    def _unmelded(self) -> bool:
        return not self.has_melded(self.turn)

    def _unfinished_staged(self) -> set[int]:
        """Categories with an unfinished (under seven cards) staged meld (RR-6.7)."""
        out: set[int] = set()
        for i, sp in enumerate(self.staged):
            size = sp.size + (1 if i == 0 and self.staged_up else 0)
            if size < 7:
                out.add(sp.rank)
        return out

    def _check_stage(self, spec: MeldSpec, upcard: bool, avail: Sequence[int]) -> None:
        """RR-6.11: a staged meld is checked against RR-6.1–RR-6.4, RR-6.6 and RR-6.8, and
        against RR-6.7 counting the other staged melds; the upcard's meld also against
        RR-8.4, RR-8.5 and RR-8.7."""
        r, n, w = spec.rank, spec.naturals, spec.wilds
        if upcard:
            top = self._top_rank()
            name = format_kind(top)
            if r != top:
                raise IllegalActionError(
                    "RR-8.4", f"the upcard is {with_article(top)}: its meld is of {name}s")
            self._need_all(avail, [n if k == r else spec.twos if k == TWO else
                                   spec.jokers if k == JOKER else 0 for k in range(14)], "RR-8.4")
            if n == 0 and w == 0:
                raise IllegalActionError(
                    "RR-8.5", f"you have no unfinished meld of {name}s: take the pile with a "
                    f"natural pair of {name}s")
            if n < 2:
                if not (self.options.take_with_natural_and_wild and n == 1 and w >= 1):
                    raise IllegalActionError(
                        "RR-8.7" if w else "RR-8.4",
                        f"taking the pile needs a natural pair of {name}s (a natural and a wild "
                        "card are not enough)")
                if self.pile_frozen:
                    raise IllegalActionError(
                        "RR-8.7", "a frozen pile is taken only with a natural pair")
            problem = self._spec_problem(MeldSpec(r, n + 1, spec.twos, spec.jokers))
            if problem:
                raise IllegalActionError(*problem)
            return
        if self._sevens_forced() and not (r == SEVEN and not w):
            raise IllegalActionError(
                "RR-12.4", "you hold only sevens under the sevens lock: you must meld every "
                "seven you can")
        if r == BLACK3:
            if w:
                raise IllegalActionError("RR-6.5", "a black-three meld has no wild cards")
            if n < 3:
                raise IllegalActionError("RR-6.5", "a black-three meld has three or more black "
                                         "threes")
            if any(sp.rank == BLACK3 for sp in self.staged):
                raise IllegalActionError("RR-6.5", "the black-three meld is made on its own")
            self._need(avail, BLACK3, n, "RR-6.5")
            return
        problem = self._spec_problem(spec)
        if problem:
            raise IllegalActionError(*problem)
        if spec.size < 7 and r in self._unfinished_staged():
            raise IllegalActionError(
                "RR-6.7", "you have already staged an unfinished meld of "
                f"{'wild cards' if r == JOKER else format_kind(r) + 's'}: one unfinished meld "
                "per category (withdraw it to change it)")
        need = [0] * 14
        need[r] += n  # a wild meld (rank JK) has no naturals: its jokers are counted below
        need[TWO] += spec.twos
        need[JOKER] += spec.jokers
        self._need_all(avail, need, "RR-6.1")

    def _forced_meldings(self) -> list[tuple[MeldSpec, ...]]:
        """RR-12.4 for a player who has not melded: the sevens meldings that commit."""
        def compute() -> list[tuple[MeldSpec, ...]]:
            counts = self._counts()
            return [specs for specs in self._first_melds(counts, 0, 0, sevens_only=True)
                    if self.is_legal_commit(Meld(specs))]
        return self._cached("forced_meldings", compute)

    def is_legal_commit(self, full: Action) -> bool:
        """Whether a melding would pass its commit check (RR-6.11), without staging it."""
        try:
            self._plan_commit(full)
        except IllegalActionError:
            return False
        return True

    def _stage_actions(self, avail: Sequence[int], phase: str) -> list[Stage]:
        """Every stage of a new meld from ``avail``, valid by construction (RR-6.1–RR-6.4,
        RR-6.7 against the staged melds); under the sevens lock only the sevens meldings that
        can commit (RR-12.4)."""
        if self.stages >= STAGE_LIMIT:
            return []
        if phase == MELD and self._sevens_forced():
            return self._forced_stages()
        unfinished = self._unfinished_staged() if self.staged else ()
        tw, jk = avail[TWO], avail[JOKER]
        opts = self.options
        out: list[Stage] = []
        for r in _CATEGORIES:
            if r != JOKER and avail[r] < 2:
                continue
            out.extend(_stages_of(r, min(avail[r], 7) if r else 0, r in unfinished, tw, jk,
                                  opts.wild_limit, opts.max_wild_in_natural_meld))
        if phase == MELD and avail[BLACK3] >= 3 and not any(sp.rank == BLACK3
                                                             for sp in self.staged):
            for b in range(3, avail[BLACK3] + 1):
                out.append(interned_stage(BLACK3, b, 0, 0))
        return out

    def _forced_stages(self) -> list[Stage]:
        """RR-12.4: the next stages of the committable sevens meldings that extend what is
        staged (so a forced melding always reaches its commit)."""
        staged = list(self.staged)
        out: list[Stage] = []
        for specs in self._forced_meldings():
            rest = list(specs)
            ok = True
            for sp in staged:
                if sp in rest:
                    rest.remove(sp)
                else:
                    ok = False
                    break
            if ok:
                for sp in rest:
                    a = interned_stage(sp.rank, sp.naturals, sp.twos, sp.jokers)
                    if a not in out:
                        out.append(a)
        return out

    def _plan_staging(self, action: Stage | Withdraw | MeldDone, t: type[Action],
                      ph: str) -> Plan:
        if t is Withdraw and ph == MELD and self.staged and self._sevens_forced():
            raise IllegalActionError(
                "RR-12.4", "under the sevens lock the sevens melding is made at once: stage the "
                "rest of it and commit ('meld done')")
        if type(action) is Stage and ph == MELD and self._sevens_forced() and self.staged \
                and self.stages < STAGE_LIMIT:
            if interned_stage(action.spec.rank, action.spec.naturals, action.spec.twos,
                              action.spec.jokers) not in self._forced_stages():
                raise IllegalActionError(
                    "RR-12.4", "under the sevens lock, stage only sevens melds that complete a "
                    "melding you can commit")
        return super()._plan_staging(action, t, ph)

    def _staging_tail(self) -> list[Action]:
        if self.staged and self._phase == MELD and self._sevens_forced():
            return [a for a in (MeldDone(),) if self.is_legal(a)]
        return super()._staging_tail()

    def _compound_options(self) -> list[Action]:
        """The one-action meldings of a player who has not melded (RR-6.11 shorthand)."""
        if self._phase == DRAW:
            def first_melds(sub: Sequence[int], tw: int, jk: int,
                            r: int) -> Iterator[tuple[MeldSpec, ...]]:
                yield from self._first_melds(sub, tw, jk)
            return list(self._compound_takes(first_melds))
        counts = self._counts()
        if self._sevens_forced():
            return [Meld(specs) for specs in self._forced_meldings()]
        # a first melding that counts under the minimum (no black threes among its melds) is
        # refused by the check whatever else it finds (RR-7.1): those are not checked
        minimum = self.minimum_for(self.turn)
        v2, vj = V[TWO], V[JOKER]
        cands = []
        for specs in self._first_melds(counts, counts[TWO], counts[JOKER]):
            value = 0
            for sp in specs:
                if sp.rank == BLACK3:
                    value = minimum
                    break
                value += sp.naturals * V[sp.rank] + sp.twos * v2 + sp.jokers * vj
            if value >= minimum:
                cands.append(Meld(specs))
        return self._filter_legal(cands)

    def _plan_staged_discard(self, action: Discard) -> NoReturn:
        raise IllegalActionError(
            "RR-6.11", "you have staged melds: commit them ('meld done') or withdraw them "
            "('withdraw all') before discarding")

    def _extras_largest_first(self, rest: Sequence[int], up_rank: int, need: int,
                              canonical: bool = True) -> Iterator[tuple[MeldSpec, ...]]:
        """Further new melds for a take (RR-7.3), largest first, one per category; sets whose
        best completion cannot reach ``need`` points are skipped."""
        cats = [r for r in NATURAL_RANKS if r != up_rank and rest[r] >= 2]
        limit = self.options.wild_limit
        best = [0] * (len(cats) + 1)
        for i in range(len(cats) - 1, -1, -1):
            best[i] = best[i + 1] + min(rest[cats[i]], 7) * V[cats[i]]

        def rec(i: int, tl: int, jl: int, got: int) -> Iterator[tuple[MeldSpec, ...]]:
            if got + best[i] + tl * V[TWO] + jl * V[JOKER] < need:
                return
            if i == len(cats):
                for t, j in wild_splits(3, min(7, tl + jl), tl, jl):
                    if got + t * V[TWO] + j * V[JOKER] >= need:
                        yield (MeldSpec(JOKER, 0, t, j),)
                if got >= need:
                    yield ()
                return
            r = cats[i]
            for n in range(min(rest[r], 7), 1, -1):
                max_w = 0 if r == SEVEN else min(limit(n), 7 - n)
                for w in range(min(max_w, tl + jl), max(0, 3 - n) - 1, -1):
                    for j in range(min(w, jl), -1, -1):
                        t = w - j
                        if t > tl:
                            continue
                        value = n * V[r] + t * V[TWO] + j * V[JOKER]
                        for more in rec(i + 1, tl - t, jl - j, got + value):
                            yield (MeldSpec(r, n, t, j),) + more
            yield from rec(i + 1, tl, jl, got)

        for specs in rec(0, rest[TWO], rest[JOKER], 0):
            yield canonical_specs(specs) if canonical else specs

    # ------------------------------------------------------------------ legality
    def _plan_phase(self, action: Action, t: type[Action], ph: str) -> list[int] | None:
        if ph == CHOICE:
            if t is GoOutNow:
                if not self._can_go_out_on(self.turn, self._last_kind(), self.canasta_types(
                        self.turn)):
                    raise IllegalActionError("RR-11.7", "you may not go out on that discard")
                return None
            if t is Kitty:
                if not self._kitty_after_discard_ok(self.turn, self.canasta_types(self.turn)):
                    raise IllegalActionError("RR-11.7", "you may not take the kitty now")
                return None
            raise IllegalActionError(
                "RR-11.7", "you discarded your last card: choose 'go out' or 'kitty'")
        if ph == KITTY:
            if t is Kitty or t is Pass:
                return None
            raise IllegalActionError(
                "RR-10.3", "after your discard you may take your kitty ('kitty') or not ('pass')")
        if t in (GoOutNow, Kitty):
            raise IllegalActionError(
                "RR-10.3" if t is Kitty else "RR-11.7",
                "the kitty is taken after your discard" if t is Kitty else
                "you go out by discarding your last card")
        if ph == DRAW:
            raise IllegalActionError(
                "RR-5.2", "a turn begins by drawing from the stock ('draw') or taking the pile")
        # MELD phase
        if t is Draw or t is Take:
            raise IllegalActionError("RR-5.6", "you have already drawn this turn")
        forced = self._sevens_forced()
        if forced and not self._is_sevens_meld(action):
            raise IllegalActionError(
                "RR-12.4", "you hold only sevens under the sevens lock: you must meld every "
                "seven you can")
        # ``type(action)`` (which ``t`` is) so that the type checker narrows ``action``
        if type(action) is Discard:
            self._plan_discard(action)
            return None
        if type(action) is Meld:
            return self._plan_meld(action, forced)
        if type(action) is Add:
            self._plan_add(action, forced)
            return None
        if t is Pass:
            raise IllegalActionError("RR-5.2", "a turn ends with a discard")
        raise IllegalActionError("RR-5.2", f"{action} is not a Railroad Canasta action")

    def _last_kind(self) -> int:
        return self.pack.rank_of[self.pile[-1]] if self.pile else -1

    def _is_sevens_meld(self, action: Action) -> bool:
        if type(action) is Add:
            return action.rank == SEVEN and not action.twos and not action.jokers
        if type(action) is Meld:
            return all(s.rank == SEVEN and not s.wilds for s in action.melds)
        return False

    def _sevens_forced(self) -> bool:
        """RR-12.4: a non-empty hand of sevens only while the lock holds."""
        c = self._counts()
        h = sum(c)
        return h > 0 and c[SEVEN] == h and self._locked_now()

    # -- taking the pile ---------------------------------------------------------------------
    def _plan_take(self, a: Take) -> list[int]:
        opts = self.options
        r = self._top_rank()
        name = format_kind(r)
        if a.rank != r:
            raise IllegalActionError(
                "RR-8.4", f"the upcard is {with_article(r)}: the natural cards melded with it "
                "must be of its rank")
        seat = self.turn
        counts = self._counts()
        melded = self.has_melded(seat)
        open_m = self.melds[seat][r]
        n, tw, jk = a.naturals, a.twos, a.jokers
        w = tw + jk
        if a.extra and melded:
            raise IllegalActionError(
                "RR-6.11", "further melds go after the take, one at a time: you have already "
                "melded this hand")
        used = used_counts(a)
        self._need_all(counts, used, "RR-8.4")
        frozen = self.pile_frozen
        closing: list[str] = []
        if open_m is not None:
            size = open_m.size
            route = self._take_route(r, n, w, counts, frozen, opts.take_with_natural_and_wild)
            if route == "wild" and w > self._wild_room(r, open_m.naturals + 2, open_m.wilds,
                                                       size + 2):
                raise IllegalActionError("RR-6.3" if r == SEVEN else "RR-6.2",
                                         f"your meld of {name}s cannot take another wild card")
            added = n + w + 1
            if size + added > 7:
                raise IllegalActionError(
                    "RR-8.4", f"your meld of {name}s has {size} cards: adding {added} would make "
                    f"{size + added}, and a meld holds at most seven")
            if size + added == 7:
                closing.append(canasta_type(r, open_m.naturals + n + 1, open_m.wilds + w))
        else:
            if n == 0 and w == 0:
                raise IllegalActionError(
                    "RR-8.5", f"you have no unfinished meld of {name}s: take the pile with a "
                    f"natural pair of {name}s")
            if n < 2:
                if not (opts.take_with_natural_and_wild and n == 1 and w >= 1):
                    raise IllegalActionError(
                        "RR-8.7" if w else "RR-8.4",
                        f"taking the pile needs a natural pair of {name}s (a natural and a wild "
                        "card are not enough)")
                if frozen:
                    raise IllegalActionError(
                        "RR-8.7", "a frozen pile is taken only with a natural pair")
            spec = MeldSpec(r, n + 1, tw, jk)
            problem = self._spec_problem(spec)
            if problem:
                raise IllegalActionError(*problem)
            if spec.size == 7:
                closing.append(canasta_type(r, spec.naturals, spec.wilds))
        self._check_new_specs(a.extra, seat, taken_rank=r if open_m is None and (
            n + w + 1) < 7 else None)
        for s in a.extra:
            if s.size == 7:
                closing.append(canasta_type(s.rank, s.naturals, s.wilds))
        if not melded:
            self._check_minimum(seat, used, "minimum_take", upcard_rank=r)
        # Hand-size rules on the hand after the whole pile has joined it (RR-8.6).
        after = [counts[k] - used[k] for k in range(14)]
        red = self.pack.red_threes
        rm = self.pack.rank_of
        for c in self.pile[:-1]:
            if not (red >> c) & 1:
                after[rm[c]] += 1
        problem = self._leave_problem(seat, after, closing, counts)
        if problem:
            raise IllegalActionError(problem[0], problem[1] + " (counting the pile's cards)")
        return used

    def _take_ok(self, a: Take) -> bool:
        """:meth:`_plan_take` as a test for a take whose hand keeps two cards and one that is
        not a seven (RR-5.7, RR-5.8 then hold); any other take by the check itself.
        tests/test_fast_path.py checks that both agree."""
        if not self.pile:
            return super()._take_ok(a)
        top = self.pile[-1]
        r = self.pack.rank_of[top]
        if r in (JOKER, TWO, BLACK3) or a.rank != r:
            return False  # RR-8.2, RR-8.4
        opts = self.options
        seat = self.turn
        counts = self._counts()
        n, tw, jk = a.naturals, a.twos, a.jokers
        w = tw + jk
        if n > counts[r] or tw > counts[TWO] or jk > counts[JOKER]:
            return False  # RR-8.4
        open_m = self.melds[seat][r]
        frozen = self.pile_frozen
        if open_m is not None:
            size = open_m.size
            if n == 0 and w == 0:
                if frozen:
                    return False  # RR-8.5
            elif n == 2 and w == 0:
                pass
            elif n == 1 and w == 1 and opts.take_with_natural_and_wild:
                if frozen or w > self._wild_room(r, open_m.naturals + 2, open_m.wilds,
                                                 size + 2):
                    return False  # RR-8.7, RR-6.2
            else:
                return False  # RR-8.4
            if size + n + w + 1 > 7:
                return False  # RR-8.4
        else:
            if n == 0 and w == 0:
                return False  # RR-8.5
            if n < 2 and (not (opts.take_with_natural_and_wild and n == 1 and w >= 1)
                          or frozen):
                return False  # RR-8.4, RR-8.7
            size = n + 1 + w
            if size > 7 or (r == SEVEN and w) or w > opts.wild_limit(n + 1):
                return False  # RR-6.1, RR-6.3, RR-6.2
        extra = a.extra
        used_n, used_7 = n + w, n if r == SEVEN else 0
        value = (n + 1) * V[r] + tw * V[TWO] + jk * V[JOKER]
        if extra:
            if self.has_melded(seat):
                return False  # RR-6.11
            try:  # RR-6.1–RR-6.7 for the further melds (most are valid by construction)
                self._check_new_specs(extra, seat, taken_rank=r if open_m is None and (
                    n + w + 1) < 7 else None)
            except IllegalActionError:
                return False
            used = used_counts(a)
            for k in range(14):
                if used[k] > counts[k]:
                    return False  # RR-8.4
            used_n = sum(used)
            used_7 = used[SEVEN]
            value = sum(used[k] * V[k] for k in range(14)) + V[r]
        if not self.has_melded(seat) and value < self.minimum_for(seat):
            return False  # RR-7.3
        # the hand after the pile has joined it (RR-8.6)
        red = self.pack.red_threes
        rank_of = self.pack.rank_of
        left = sum(counts) - used_n
        nonseven = left - counts[SEVEN] + used_7
        for c in self.pile[:-1]:
            if not (red >> c) & 1:
                left += 1
                if rank_of[c] != SEVEN:
                    nonseven += 1
        if left >= 2 and nonseven > 0:
            return True
        return super()._take_ok(a)

    def _upcard_parts_ok(self, r: int, n: int, t: int, j: int, counts: Sequence[int]) -> bool:
        """:meth:`_check_stage` of the upcard's meld (rank ``r``, ``n`` naturals, ``t`` twos,
        ``j`` jokers from hand) as a test (RR-8.4, RR-8.5, RR-8.7, RR-6.1–RR-6.3)."""
        if not self.pile:
            return False
        top = self.pile[-1]
        if self.pack.rank_of[top] != r or r in (JOKER, TWO, BLACK3):
            return False  # RR-8.2, RR-8.4
        if counts[r] < n or counts[TWO] < t or counts[JOKER] < j:
            return False  # RR-8.4
        w = t + j
        if n == 0 and w == 0:
            return False  # RR-8.5
        if n < 2 and (not (self.options.take_with_natural_and_wild and n == 1 and w >= 1)
                      or self.pile_frozen):
            return False  # RR-8.4, RR-8.7
        size = n + 1 + w
        return not (size < 3 or size > 7 or (r == SEVEN and w)
                    or w > self.options.wild_limit(n + 1))  # RR-6.1–RR-6.3

    def _take_candidates(self, r: int, counts: Sequence[int]) -> list[Take]:
        """Candidate takes of the pile (RR-8.4, RR-8.5, RR-8.7), filtered by
        :meth:`_plan_take`."""
        seat = self.turn
        tw, jk = counts[TWO], counts[JOKER]
        if self.melds[seat][r] is not None:
            cands = self._takes_onto_meld(r, counts, self.options.take_with_natural_and_wild)
        else:
            cands = []
            lo_n = 1 if self.options.take_with_natural_and_wild else 2
            for n in range(min(counts[r], 6), lo_n - 1, -1):
                max_w = 0 if r == SEVEN else min(self.options.wild_limit(n + 1), 6 - n)
                for t, j in wild_splits(0 if n >= 2 else 1, max_w, tw, jk):
                    if n + t + j + 1 < 3:
                        continue
                    # a player who has not melded stages further melds (RR-6.11)
                    cands.append(Take(r, n, t, j))
        return cands

    def _take_forced(self) -> bool:
        """RR-12.2 under ``stock_end_take = "compulsory"``: the top card fits an unfinished
        meld (RR-8.5) and that take is legal."""
        return self.options.stock_end_take == "compulsory" and self._forced_take()

    # -- melding -----------------------------------------------------------------------------
    def _first_melds(self, counts: Sequence[int], twos: int, jokers: int, *,
                     sevens_only: bool = False) -> Iterator[tuple[MeldSpec, ...]]:
        """Every set of new melds (each 3–7 cards) from ``counts``; the first melding of a
        hand is one such set (RR-6.11).  Per category: any number of seven-card canastas and
        at most one unfinished meld (RR-6.7)."""
        # categories in notation order (A K … 4, then the wild meld), and within a category
        # larger melds first, so that each set of melds is the canonical action the parser
        # reads back (docs/notation.md)
        cats = [SEVEN] if sevens_only else [k for k in NATURAL_RANKS + (JOKER,)
                                             if (k == JOKER and twos + jokers >= 3) or
                                             (k != JOKER and counts[k] >= 2)]
        limit = self.options.wild_limit

        def one(r: int, nat: int, t_left: int, j_left: int) -> Iterator[MeldSpec]:
            if r == JOKER:
                for t, j in wild_splits(3, min(7, t_left + j_left), t_left, j_left):
                    yield MeldSpec(JOKER, 0, t, j)
                return
            for n in range(min(nat, 7), 1, -1):
                max_w = 0 if r == SEVEN else min(limit(n), 7 - n)
                for t, j in wild_splits(max(0, 3 - n), max_w, t_left, j_left):
                    yield MeldSpec(r, n, t, j)

        def cat(r: int, nat: int, t_left: int, j_left: int, prev: tuple[int, int, int] | None
                ) -> Iterator[tuple[tuple[MeldSpec, ...], int, int]]:
            yield (), t_left, j_left
            for sp in one(r, nat, t_left, j_left):
                key = (-sp.size, -sp.naturals, -sp.twos)
                if prev is not None and key < prev:
                    continue
                tl, jl = t_left - sp.twos, j_left - sp.jokers
                if sp.size == 7:
                    for more, t2, j2 in cat(r, nat - sp.naturals, tl, jl, key):
                        yield (sp,) + more, t2, j2
                else:
                    yield (sp,), tl, jl

        def rec(i: int, t_left: int, j_left: int) -> Iterator[tuple[MeldSpec, ...]]:
            if i == len(cats):
                yield ()
                return
            r = cats[i]
            for specs, tl, jl in cat(r, 0 if r == JOKER else counts[r], t_left, j_left, None):
                for rest in rec(i + 1, tl, jl):
                    yield specs + rest

        for specs in rec(0, twos, jokers):
            if specs:
                yield specs

    def _closing_of(self, specs: Iterable[MeldSpec]) -> list[str]:
        return [canasta_type(s.rank, s.naturals, s.wilds) for s in specs if s.size == 7]

    def _plan_meld(self, a: Meld, forced: bool = False) -> list[int] | None:
        seat = self.turn
        counts = self._counts()
        specs = a.melds
        if self.b3_done:
            raise IllegalActionError("RR-6.5", "the black-three meld is the last meld of the turn")
        if not specs:
            raise IllegalActionError("RR-6.1", "a meld needs cards")
        if any(s.rank == BLACK3 for s in specs):
            if len(specs) != 1:
                # said with what to do (a tester staged 3 3 3 with other melds and read only
                # "made on its own" at "meld done")
                raise IllegalActionError(
                    "RR-6.5", "black threes are melded only on their own, as the last meld of "
                    "a turn in which you go out: withdraw the black threes and commit the "
                    "other melds, or go out")
            self._plan_black_threes(specs[0], counts)
            return None
        melded = self.has_melded(seat)
        if melded and len(specs) > 1:
            raise IllegalActionError(
                "RR-6.11", "you have melded this hand: lay down one new meld at a time")
        self._check_new_specs(specs, seat)
        used = used_counts(a)
        self._need_all(counts, used, "RR-6.1")
        if not melded:
            self._check_minimum(seat, used, "minimum")
        after = [counts[k] - used[k] for k in range(14)]
        if not forced:
            problem = self._leave_problem(seat, after, self._closing_of(specs), counts)
            if problem:
                raise IllegalActionError(*problem)
        return used

    def _plan_add(self, a: Add, forced: bool = False) -> None:
        seat = self.turn
        if self.b3_done:
            raise IllegalActionError("RR-6.5", "the black-three meld is the last meld of the turn")
        m = self.melds[seat][a.rank] if 0 <= a.rank < 14 else None
        name = "wild cards" if a.rank == JOKER else format_kind(a.rank) + "s"
        if m is None:
            raise IllegalActionError(
                "RR-6.8" if any(x.rank == a.rank for _, x in self.closed[seat]) else "RR-5.5",
                f"you have no unfinished meld of {name} (canastas are closed, RR-6.8; you add "
                "only to your own melds, RR-5.5)")
        if a.size < 1:
            raise IllegalActionError("RR-6.1", "add at least one card")
        if a.rank == JOKER and a.naturals:
            raise IllegalActionError("RR-6.4", "a wild meld holds only wild cards")
        counts = self._counts()
        self._need_all(counts, used_counts(a), "RR-6.1")
        size = m.size + a.size
        if size > 7:
            raise IllegalActionError(
                "RR-6.1", f"your meld of {name} has {m.size} cards: at most seven")
        w = a.twos + a.jokers
        if w and w > self._wild_room(a.rank, m.naturals + a.naturals, m.wilds, m.size + a.naturals):
            rule = "RR-6.3" if a.rank == SEVEN else "RR-6.2"
            raise IllegalActionError(rule, f"your meld of {name} cannot take "
                                     f"{plural(w, 'more wild card')}")
        closing = [canasta_type(a.rank, m.naturals + a.naturals, m.wilds + w)] if size == 7 else []
        after = list(counts)
        for k, v in enumerate(used_counts(a)):
            after[k] -= v
        if not forced:
            problem = self._leave_problem(seat, after, closing, counts)
            if problem:
                raise IllegalActionError(*problem)
        return None

    def _plan_black_threes(self, spec: MeldSpec, counts: Sequence[int]) -> None:
        seat = self.turn
        if spec.wilds:
            raise IllegalActionError("RR-6.5", "a black-three meld has no wild cards")
        if spec.naturals < 3:
            raise IllegalActionError("RR-6.5", "a black-three meld has three or more black threes")
        self._need(counts, BLACK3, spec.naturals, "RR-6.5")
        left = sum(counts) - spec.naturals
        if left != 1:
            raise IllegalActionError(
                "RR-6.5", "black threes are melded only as the last meld when going out, "
                f"leaving exactly one card to discard (you would hold {left})")
        last = next(k for k in range(14) if counts[k] - (spec.naturals if k == BLACK3 else 0))
        if not self._can_go_out_on(seat, last, self.canasta_types(seat)):
            raise IllegalActionError(
                "RR-6.5", "black threes are melded only when going out: you need the canasta "
                "types of RR-11.1 and a last card that is not a seven (RR-9.7)"
                + (", and your kitty taken" if self.options.must_take_kitty_before_going_out
                   else ""))
        return None

    def _plan_discard(self, a: Discard) -> None:
        seat = self.turn
        counts = self._counts()
        if not 0 <= a.kind < 14 or counts[a.kind] < 1:
            raise IllegalActionError("RR-5.2", f"you hold no {format_kind(a.kind)} to discard")
        locked = self._locked_now()
        if a.kind == SEVEN and locked:
            raise IllegalActionError(
                "RR-9.6", "sevens may not be discarded until every player has a sevens canasta")
        if sum(counts) == 1:
            types = self.canasta_types(seat)
            if not (self._can_go_out_on(seat, a.kind, types)
                    or self._kitty_after_discard_ok(seat, types)):
                if a.kind == SEVEN and self.meets_go_out(types, len(self.closed[seat])):
                    raise IllegalActionError("RR-9.7", "you may never go out on a seven")
                raise IllegalActionError(
                    "RR-5.7", "discarding your last card needs the canasta types to go out "
                    "(RR-11.1) or a kitty waiting for you (RR-10.5)")
        elif self.b3_done:
            raise IllegalActionError("RR-6.5", "after the black-three meld you discard your last "
                                     "card and go out")
        return None

    # ------------------------------------------------------------------ legal actions
    def _legal_phase(self, ph: str) -> list[Action]:
        if ph == MELD:
            return self._meld_actions()
        if ph == KITTY:
            return [_KITTY, _PASS]
        if ph == CHOICE:
            return [a for a in (_OUT, _KITTY) if self.is_legal(a)]
        return []

    def _meld_actions(self) -> list[Action]:
        """Legal actions of the meld phase.

        Candidates are generated within the meld limits (RR-6.1–RR-6.4, RR-6.7); one that
        leaves two or more cards, a non-seven among them, passes RR-5.7 and RR-5.8 at once, so
        it is accepted here; every other candidate goes through :meth:`_plan` (the property
        tests check that both paths agree).
        """
        seat = self.turn
        counts = self._counts()
        tw, jk = counts[TWO], counts[JOKER]
        h = self.hands[seat].bit_count()  # sum(counts): a hand never holds a red three
        nonseven = h - counts[SEVEN]
        fast = not (self.b3_done or (nonseven == 0 and self._sevens_forced()))
        out: list[Action] = []
        slow: list[Action] = []
        melded = self.has_melded(seat)

        def offer(a: Action, size: int, sevens_used: int) -> None:
            if fast and h - size >= 2 and nonseven - (size - sevens_used) > 0:
                out.append(a)
            else:
                slow.append(a)

        if not self.b3_done:
            if melded:
                my = self.melds[seat]
                limit = self.options.wild_limit
                wl = self.options.max_wild_in_natural_meld
                for r in _CATEGORIES:
                    m = my[r]
                    if m is None:
                        continue
                    space = 7 - m.size
                    cr = counts[r]
                    n_max = 0 if r == JOKER else cr if cr < space else space
                    if fast:
                        # the largest addition leaves the fewest cards, and the fewest that are
                        # not sevens: when even it leaves enough, every addition is accepted
                        # (its wild cards: _wild_room and min written out)
                        top = space - n_max
                        if r == SEVEN:
                            top = 0
                        elif r != JOKER:
                            nat = m.naturals + n_max
                            room = ((nat if nat < 3 else 3) if wl == "wild_le_natural"
                                    else limit(nat)) - m.wilds
                            if room < top:
                                top = room if room > 0 else 0
                        if tw + jk < top:
                            top = tw + jk
                        if h - n_max - top >= 2 and \
                                nonseven - (0 if r == SEVEN else n_max) - top > 0:
                            out.extend(self._adds_to(r, n_max, m, tw, jk, wl))
                            continue
                    for n in range(n_max, -1, -1):
                        room = self._wild_room(r, m.naturals + n, m.wilds, m.size + n)
                        top = min(room, space - n, tw + jk)
                        lo = 0 if n else 1
                        # the largest addition leaves enough: every addition is accepted as is
                        if fast and h - n - top >= 2 and nonseven - (0 if r == SEVEN else n) \
                                - top > 0:
                            out.extend(_block(interned_add, r, n, lo, top, tw, jk))
                            continue
                        for t, j in wild_splits(lo, top, tw, jk):
                            offer(interned_add(r, n, t, j), n + t + j, n if r == SEVEN else 0)
                for r in _CATEGORIES:
                    has_open = my[r] is not None
                    if r == JOKER:
                        top = min(7, tw + jk)
                        if fast and h - top >= 2 and nonseven - top > 0:
                            out.extend(_block(interned_meld, JOKER, 0, 7 if has_open else 3, top,
                                              tw, jk))
                            continue
                        for t, j in wild_splits(7 if has_open else 3, min(7, tw + jk), tw, jk):
                            offer(interned_meld(JOKER, 0, t, j), t + j, 0)
                        continue
                    cr = counts[r]
                    if cr < 2:
                        continue
                    if fast:
                        # as for the additions: the largest new meld leaves the fewest cards
                        n = cr if cr < 7 else 7
                        if r == SEVEN:
                            top = 0
                        else:
                            top = ((n if n < 3 else 3) if wl == "wild_le_natural"
                                   else limit(n))
                            if 7 - n < top:
                                top = 7 - n
                            if tw + jk < top:
                                top = tw + jk
                        if h - n - top >= 2 and nonseven - (0 if r == SEVEN else n) - top > 0:
                            out.extend(_new_melds(r, n, has_open, tw, jk, limit, wl))
                            continue
                    for n in range(min(counts[r], 7), 1, -1):
                        max_w = 0 if r == SEVEN else min(limit(n), 7 - n)
                        lo = max(0, 3 - n, 7 - n if has_open else 0)
                        top = min(max_w, tw + jk)
                        if fast and h - n - top >= 2 and nonseven - (0 if r == SEVEN else n) \
                                - top > 0:
                            out.extend(_block(interned_meld, r, n, lo, top, tw, jk))
                            continue
                        for t, j in wild_splits(lo, max_w, tw, jk):
                            offer(interned_meld(r, n, t, j), n + t + j, n if r == SEVEN else 0)
                # RR-6.5: the black-three meld leaves exactly one card, possibly a black three
                # (so every card but one is a black three: with fewer, it is refused)
                b3 = min(counts[BLACK3], h - 1)
                if b3 >= 3 and b3 == h - 1:
                    slow.append(Meld((MeldSpec(BLACK3, b3),)))
            else:
                # a player who has not melded stages melds one at a time (RR-6.11)
                out.extend(self._stage_actions(self._avail(), MELD))
                out.extend(self._staging_tail())
        if self.staged:
            pass  # RR-6.11: commit or withdraw the staged melds before discarding
        elif fast and h >= 2:
            held = _held(counts)
            if counts[SEVEN] and self._locked_now():
                # RR-9.6: no seven is discarded while the lock holds
                out.extend(d for d, c in zip(_HELD_DISCARDS, held) if c and d.kind != SEVEN)
            else:
                out.extend(compress(_HELD_DISCARDS, held))
        else:
            slow.extend(d for d, c in zip(_HELD_DISCARDS, _held(counts)) if c)
        if slow:
            out.extend(self._filter_legal(slow))
        return out

    def _adds_to(self, r: int, n_max: int, m: CanastaMeld, tw: int, jk: int,
                 wl: object) -> list[Add | Meld]:
        """Every addition to the open meld ``m`` of category ``r`` from ``n_max`` naturals,
        ``tw`` twos and ``jk`` jokers, in the meld-phase loop's order (``wl``: the wild-limit
        option, part of the key; kept by the counts that make them)."""
        key = (r, n_max, m.naturals, m.wilds, m.size, tw, jk, wl)
        got = _ADDS_TO.get(key)
        if got is None:
            got = _ADDS_TO[key] = []
            space = 7 - m.size
            for n in range(n_max, -1, -1):
                room = self._wild_room(r, m.naturals + n, m.wilds, m.size + n)
                got.extend(_block(interned_add, r, n, 0 if n else 1, min(room, space - n, tw + jk),
                                  tw, jk))
        return got

    def _meld_done_ok(self) -> bool:
        """``meld done`` as a test: refused at once when the staged melds (no black threes
        among them) count under the first melding's minimum (RR-7.1), which the check refuses
        whatever else it finds; otherwise the check itself."""
        staged = self.staged
        if self._phase == MELD and staged and self._unmelded():
            value = 0
            for sp in staged:
                if sp.rank == BLACK3:
                    break
                value += (sp.naturals * CLASSIC_VALUES[sp.rank] + sp.twos * CLASSIC_VALUES[TWO]
                          + sp.jokers * CLASSIC_VALUES[JOKER])
            else:
                if value < self.minimum_for(self.turn):
                    return False  # RR-7.1
        return self.is_legal(MELD_DONE)

    def _locked_now(self) -> bool:
        return self._cached("locked", lambda: self.sevens_locked(self.turn))

    # ------------------------------------------------------------------ apply
    def _apply_action(self, action: Action, t: type[Action], seat: int, text: LogText,
                      plan: object, phase: str) -> None:
        # ``type(action)`` (which ``t`` is) where the type checker is to narrow ``action``
        if t is Draw:
            placed, _ = self._draw_cards(seat, self.options.stock_draw,
                                         self.options.red_three_replacement)
            self._log(seat, text, ("places " + " ".join(placed)) if placed else "")
            self._enter_meld()
        elif type(action) is Take:
            self._do_take(action, text)
        elif t is Pass:
            self._log(seat, text)
            if phase == KITTY:
                self._begin_turn((seat + 1) % self.players)
            else:
                self._end_hand("stock_exhausted", None)
        elif t is Kitty:
            self._do_kitty(text)
        elif t is GoOutNow:
            self._log(seat, text)
            self._end_hand("went_out", seat)
        elif type(action) is Discard:
            self._do_discard(action.kind, text)
        elif type(action) is Meld or type(action) is Add:
            self._do_meld(action, text)
        else:
            raise IllegalActionError("RR-5.2", f"{action} is not a Railroad Canasta action")

    def _place(self, seat: int, rank: int, mask: int, n: int, t: int, j: int, *,
               new: bool = False) -> str | None:
        """Put cards into ``seat``'s open meld of ``rank``, or (``new``) start a meld; a meld
        that reaches seven cards becomes a closed canasta (RR-6.8).  Returns its type if
        closed.  A new seven-card meld beside an unfinished one of its rank is closed at once
        and leaves the unfinished one alone (RR-6.7)."""
        melds = list(self.melds[seat])
        old = melds[rank]
        if new or old is None:
            m = CanastaMeld(rank, mask, n, t, j, False, seat)
        else:
            m = old.plus(mask, n, t, j)
        kind: str | None = None
        if m.size >= 7 and rank != BLACK3:
            kind = canasta_type(rank, m.naturals, m.wilds)
            self.closed = set_item(self.closed, seat, self.closed[seat] + ((kind, m),))
            if not (new and old is not None):
                melds[rank] = None
        else:
            melds[rank] = m
        self.melds = set_item(self.melds, seat, tuple(melds))
        return kind

    def _known_last(self, seat: int, hand: int) -> int:
        """What the copy choice puts last.  RR-5.10: publicly known copies (taken with the
        pile) move first, so the copies shown tell the table nothing about the rest of the
        hand; the uniform choice does that itself (``_pick``), the legacy one needs the
        unknown cards named as the ones to avoid."""
        return hand & ~self.known[seat] if self._legacy_copies else 0

    def _do_take(self, a: Take, text: LogText) -> None:
        seat = self.turn
        hand = self.hands[seat]
        top = self.pile[-1]
        avoid = self._known_last(seat, hand)
        mask = self._pick_spec(a.rank, a.naturals, a.twos, a.jokers, hand, avoid)
        hand &= ~mask
        self._place(seat, a.rank, mask | (1 << top), a.naturals + 1, a.twos, a.jokers)
        for spec in a.extra:
            m = self._pick_spec(spec.rank, spec.naturals, spec.twos, spec.jokers, hand, avoid)
            hand &= ~m
            self._place(seat, spec.rank, m, spec.naturals, spec.twos, spec.jokers, new=True)
        self.hands = set_item(self.hands, seat, hand)
        n_taken = len(self.pile)
        _, placed = self._pile_rest_into_hand(seat)
        note = f"takes the pile ({plural(n_taken, 'card')})"
        if placed:
            note += "; places " + " ".join(placed)
        self._log(seat, text, note)
        self._enter_meld()

    def _do_meld(self, a: Meld | Add, text: LogText) -> None:
        seat = self.turn
        hand = self.hands[seat]
        avoid = self._known_last(seat, hand)
        if isinstance(a, Add):
            is_new = False
            specs: tuple[MeldSpec, ...] = (MeldSpec(a.rank, a.naturals, a.twos, a.jokers),)
        else:
            is_new = True
            specs = a.melds
        for spec in specs:
            m = self._pick_spec(spec.rank, spec.naturals, spec.twos, spec.jokers, hand, avoid)
            hand &= ~m
            if spec.rank == BLACK3:
                melds = list(self.melds[seat])
                melds[BLACK3] = CanastaMeld(BLACK3, m, spec.naturals, 0, 0, False, seat)
                self.melds = set_item(self.melds, seat, tuple(melds))
                self.b3_done = True
            else:
                self._place(seat, spec.rank, m, spec.naturals, spec.twos, spec.jokers,
                            new=is_new)
        self.hands = set_item(self.hands, seat, hand)
        self.known = set_item(self.known, seat, self.known[seat] & hand)
        self.melds_made += 1
        self._log(seat, text)
        self._enter_meld()

    def _enter_meld(self) -> None:
        """Enter (or stay in) the meld phase.  With no legal discard left the hand ends: by the
        sevens lock (RR-12.4) or for want of a legal discard (RR-12.6)."""
        self._phase = MELD
        self._cache = None
        legal = self._meld_actions()
        # the facts the generator found of this state stay (the hand's counts first), with
        # the list, also as the one kept over staging (CanastaState._legal)
        c = self._cache
        if c is None:
            c = self._cache = {}
        c["legal"] = legal
        c["unstaged"] = (MELD, self.stages < STAGE_LIMIT, legal)
        if self._sevens_forced():
            if not legal:
                self._end_hand("sevens_lock", None)
            return
        if not any(type(a) is Discard for a in legal):
            counts = self.hand_counts(self.turn)
            h = sum(counts)
            how = "sevens_lock" if h == 0 or counts[SEVEN] == h else "no_legal_discard"
            self._end_hand(how, None)

    def _do_discard(self, kind: int, text: LogText) -> None:
        seat = self.turn
        # a wild card freezes the pile (RR-8.3); a publicly known copy goes first (RR-5.10)
        cid = self._discard_card(seat, kind, self._known_last(seat, self.hands[seat]))
        self._log(seat, text, self.pack.names[cid])
        types = self.canasta_types(seat)
        if self.hands[seat] == 0:
            can_out = self._can_go_out_on(seat, kind, types)
            can_kitty = self._kitty_after_discard_ok(seat, types)
            if can_out and can_kitty:
                self._phase = CHOICE  # RR-11.7
                self._cache = None
            elif can_out:
                self._end_hand("went_out", seat)
            else:
                placed = self._take_kitty(seat)  # RR-10.5: compulsory
                self._log(seat, "", "takes the kitty (compulsory, RR-10.5)"
                          + ("; places " + " ".join(placed) if placed else ""))
                self._begin_turn((seat + 1) % self.players)
            return
        if self.kitty_open(seat, types):
            self._phase = KITTY
            self._cache = None
            return
        self._begin_turn((seat + 1) % self.players)

    def _take_kitty(self, seat: int) -> list[str]:
        """RR-10.3, RR-10.4: the kitty joins the hand; its red threes are placed and replaced."""
        red = self.pack.red_threes
        kitty = self.kitties[seat]
        r3 = kitty & red
        self.kitties = set_item(self.kitties, seat, 0)
        self.kitty_taken |= 1 << seat
        self.hands = set_item(self.hands, seat, self.hands[seat] | (kitty & ~red))
        self.red3 = set_item(self.red3, seat, self.red3[seat] | r3)
        placed = [str(c) for c in self.pack.cards_of(r3)]
        if r3 and self.options.kitty_red_three_replacement:
            more, _ = self._draw_cards(seat, r3.bit_count(), self.options.red_three_replacement)
            placed += more
        return placed

    def _do_kitty(self, text: LogText) -> None:
        seat = self.turn
        placed = self._take_kitty(seat)
        self._log(seat, text, ("places " + " ".join(placed)) if placed else "takes the kitty")
        self._begin_turn((seat + 1) % self.players)

    # ------------------------------------------------------------------ scoring
    def _score_hand(self, how: str, went_out: int | None) -> HandScore:
        """Score the hand (RR-13); the game ends by RR-14."""
        return self._scorer(how, went_out)

    # ------------------------------------------------------------------ text, observation
    def parse_action(self, text: str) -> Action:
        """Read an action in notation (``docs/notation.md``) for this state."""
        top = self.pack.rank_of[self.pile[-1]] if self.pile else None
        self._refuse_late_take(text, top)
        self._refuse_add_to_nothing(text, RAILROAD_PARSE_RULES)
        return parse_canasta_action(text, top_rank=top, rules=RAILROAD_PARSE_RULES)

    def observation(self, seat: int) -> RailroadCanastaObservation:
        """What ``seat`` may know (RR-5.10); see :class:`RailroadCanastaObservation`."""
        return self._observation_class.from_state(self, seat)


new_game = RailroadCanastaState.new_game_function(
    RailroadCanastaOptions, lambda o: o.player_count,
    title="Railroad Canasta", counts="2 to 8", dealer_rule="RR-4.1")
