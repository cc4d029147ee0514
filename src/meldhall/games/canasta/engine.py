"""The machinery both canasta games share: an immutable state of int bitmasks, the deal, the
stock draw with red-three replacement, taking the pile, melds, discards, the log, the end of
the game.

Each game subclasses :class:`CanastaState` and supplies its rules as methods; where a rule
differs the base calls a hook.  Rule IDs differ per game, so the base names them through the
class attribute ``RULES`` (a key -> rule ID table) and :meth:`CanastaState._rule`.
"""

from __future__ import annotations

import abc
import enum
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import repeat
from operator import is_
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, Self, TypeAlias, TypeVar

from meldhall.cards import JOKER, Card, Pack, choose_copies, copy_key4, hand_key
from meldhall.errors import IllegalActionError, MeldhallError, OptionsError
from meldhall.game import Action, Outcome, SideResult, State
from meldhall.games.canasta.action_ids import CanastaActionSpace
from meldhall.games.canasta.values import CLASSIC_VALUES
from meldhall.options import Options
from meldhall.record import dump_position
from meldhall.games.canasta.actions import (
    TWO,
    Add,
    Deal,
    Discard,
    Draw,
    GoOut,
    Meld,
    MeldDone,
    MeldSpec,
    Pass,
    CLASSIC_PARSE_RULES,
    Stage,
    Take,
    Withdraw,
    canonical_specs,
    format_kind,
    parse_kind,
)

__all__ = ["CanastaMeld", "CanastaOptions", "CanastaState", "LogEntry", "Plan", "STAGE_LIMIT",
           "kind_name", "plural", "set_item", "wild_splits"]

_T = TypeVar("_T")
_A = TypeVar("_A", bound=Action)


class CanastaOptions(Options, Protocol):
    """What the canasta base reads of a game's options (each game's options dataclass has
    these fields or properties), and how it builds them: with the seat count alone (every
    other option at its default) or from a JSON dict."""

    def __init__(self, *, player_count: int = ...) -> None: ...

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Options from a dict (:meth:`meldhall.options.GameOptions.from_json`)."""

    @property
    def decks(self) -> int:
        """Standard 52-card decks in the pack."""

    @property
    def jokers(self) -> int:
        """Jokers in the pack."""

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat."""

    @property
    def stock_draw(self) -> int:
        """Cards a draw from the stock takes."""

    @property
    def copy_choice(self) -> str:
        """``"uniform"`` or ``"legacy"`` (:data:`meldhall.options.COPY_CHOICES`)."""

    @property
    def tie_rule(self) -> str:
        """``"play_on"`` or ``"shared"``: what a tie for the highest score at the target does."""

    @property
    def target_score(self) -> int | None:
        """Points that end the game as set (``None``: the game's default for the count)."""

    @property
    def target(self) -> int:
        """Points that end the game, the default resolved (CC-13.1, RR-14.1)."""

    def with_values(self, **changes: Any) -> Self:
        """A copy with some options changed (validated)."""


_O = TypeVar("_O", bound=CanastaOptions)
_O_contra = TypeVar("_O_contra", bound=CanastaOptions, contravariant=True)
_S = TypeVar("_S", bound="CanastaState")
_S_co = TypeVar("_S_co", bound="CanastaState", covariant=True)


class NewGame(Protocol[_S_co, _O_contra]):
    """The signature of each canasta game's ``new_game`` (built by
    :meth:`CanastaState.new_game_function`)."""

    def __call__(self, players: int | None = None, seed: int = 0,
                 options: _O_contra | dict[str, Any] | None = None, *,
                 dealer: int | None = None) -> _S_co: ...


#: One entry of a game's log: ``(seat, action in notation, note)``; seat ``-1`` and an empty
#: action for events that are not actions (the upcard turned at the deal).
LogEntry: TypeAlias = tuple[int, str, str]
#: What an action's log entry is given: its notation, or the action itself, which a
#: :class:`LogNode` writes out only when the entry is read.
LogText: TypeAlias = "str | Action"

#: What the legality check hands to the apply (:meth:`CanastaState._plan`): the cards by kind
#: that the action moves out of the hand (a list of 14 counts, index = rank number), a staged
#: commit ``("commit", the melding it makes, that melding's plan)``, or ``None``.
Plan: TypeAlias = "list[int] | tuple[Literal['commit'], Action, Plan] | None"

#: Stage actions a player may make in one turn (CC-6.9 (d), RR-6.11).  A first melding has at
#: most one meld per category (11 natural ranks, black threes, Railroad's wild meld) plus, in
#: Railroad, further seven-card canastas of a rank: 20 leaves room to build any melding with
#: several withdrawals, and bounds every turn of random play.  Withdraw stays legal at the bound.
STAGE_LIMIT = 20


def plural(n: int, word: str) -> str:
    """``"1 canasta"``, ``"2 canastas"``."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def kind_name(kind: int) -> str:
    """A card kind for sentences: ``joker``, ``2``, ``black 3``, ``K``."""
    return {0: "joker", 2: "2", 3: "black 3"}.get(kind, format_kind(kind))


def set_item(t: tuple[_T, ...], i: int, v: _T) -> tuple[_T, ...]:
    """A copy of tuple ``t`` with item ``i`` replaced."""
    return t[:i] + (v,) + t[i + 1:]


def hand_seed(seed: int, hand_no: int) -> int:
    """The shuffle seed of hand ``hand_no`` of a game seeded ``seed``."""
    return (seed * 1_000_003 + hand_no * 7919 + 12345) & ((1 << 63) - 1)


def wild_splits(lo: int, hi: int, twos: int, jokers: int) -> Iterator[tuple[int, int]]:
    """(twos, jokers) pairs with ``lo <= twos + jokers <= hi`` within the counts held, in a
    fixed order (fewer wild cards first, twos before jokers)."""
    for w in range(lo, hi + 1):
        for t in range(min(w, twos), -1, -1):
            j = w - t
            if j <= jokers:
                yield t, j


class LogNode:
    """One entry of a game's log, linked to the entries before it.

    States share their log's prefix (appending is O(1) and never copies), yet pickling, deep
    copying and printing flatten it, so a log of any length is safe to ship to a worker.
    """

    __slots__ = ("prev", "_entry", "length")

    def __init__(self, prev: LogNode | None, entry: tuple[int, LogText, str]):
        self.prev = prev
        self._entry = entry
        self.length: int = 1 + (prev.length if prev is not None else 0)

    @property
    def entry(self) -> LogEntry:
        """The entry ``(seat, action in notation, note)``: an action kept as itself is written
        out on the first read (most entries of a simulated game are never read)."""
        seat, text, note = self._entry
        if type(text) is str:
            return (seat, text, note)
        e = self._entry = (seat, str(text), note)
        return e

    @property
    def kept(self) -> tuple[int, LogText, str]:
        """The entry as kept: ``(seat, action, note)`` where the action is the
        :class:`~meldhall.game.Action` itself or its notation (whichever :attr:`entry` last
        read), without writing it out; ``str`` of it is the notation :attr:`entry` gives."""
        return self._entry

    def entries(self) -> list[LogEntry]:
        """Every entry, oldest first."""
        out = []
        node: LogNode | None = self
        while node is not None:
            out.append(node.entry)
            node = node.prev
        out.reverse()
        return out

    @staticmethod
    def from_entries(entries: Iterable[LogEntry]) -> LogNode | None:
        """A log holding ``entries`` (oldest first); ``None`` when empty."""
        node = None
        for e in entries:
            node = LogNode(node, (e[0], e[1], e[2]))
        return node

    def __reduce__(self) -> tuple[Callable[[list[LogEntry]], LogNode | None],
                                  tuple[list[LogEntry]]]:
        return (LogNode.from_entries, (self.entries(),))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LogNode) and self.entries() == other.entries()

    __hash__ = None  # type: ignore[assignment]  # unhashable: compared by its entries

    def __repr__(self) -> str:
        return f"<log of {self.length} entries, last {self.entry!r}>"


def log_entries(node: LogNode | None) -> list[LogEntry]:
    """The entries of a log (``None`` is the empty log), oldest first."""
    return node.entries() if node is not None else []


class CanastaMeld:
    """One meld on the table: its rank (0 for a wild meld, 3 for black threes), counts, the
    mask of its physical cards, whether it was laid down hidden, and who started it.

    ``size`` (cards in the meld) and ``wilds`` (its wild cards) are kept with the counts,
    which never change after construction."""

    __slots__ = ("creator", "hidden", "jokers", "mask", "naturals", "rank", "size", "twos",
                 "wilds")

    def __init__(self, rank: int, mask: int, naturals: int, twos: int, jokers: int,
                 hidden: bool, creator: int):
        self.rank = rank
        self.mask = mask
        self.naturals = naturals
        self.twos = twos
        self.jokers = jokers
        self.hidden = hidden
        self.creator = creator
        self.wilds: int = twos + jokers
        self.size: int = naturals + twos + jokers

    def plus(self, mask: int, n: int, t: int, j: int) -> CanastaMeld:
        """A new meld with cards added."""
        return CanastaMeld(self.rank, self.mask | mask, self.naturals + n, self.twos + t,
                           self.jokers + j, self.hidden, self.creator)

    @property
    def spec(self) -> MeldSpec:
        """The meld as counts."""
        return MeldSpec(self.rank, self.naturals, self.twos, self.jokers)


def _count_of(take: Take, rank: int) -> int:
    """The count (CC-3.4) of a take's upcard meld: the upcard and the cards from hand."""
    return (take.naturals + 1) * _VALUES[rank] + take.twos * _VALUES[TWO] \
        + take.jokers * _VALUES[JOKER]


def _bad_counts(*values: object) -> bool:
    return any(not isinstance(v, int) or v < 0 for v in values)


_DRAW, _PASS, _DEAL = Draw(), Pass(), Deal()
#: One shared ``take`` (the upcard alone, or the commit of a staged take) per rank.
_UPCARD_TAKES = tuple(Take(r) for r in range(14))
WITHDRAW, WITHDRAW_ALL, MELD_DONE = Withdraw(False), Withdraw(True), MeldDone()
_STAGES: dict[tuple[int, int, int, int, bool], Stage] = {}


class _GoOn(enum.Enum):
    """"No staging rule decides: the game's own checks follow" (:meth:`_plan_with_staged`)."""

    GO_ON = enum.auto()


_GO_ON = _GoOn.GO_ON


def interned_stage(r: int, n: int, t: int, j: int, upcard: bool = False) -> Stage:
    """A shared :class:`Stage` (legal-action lists reuse the same objects)."""
    key = (r, n, t, j, upcard)
    a = _STAGES.get(key)
    if a is None:
        a = _STAGES[key] = Stage(MeldSpec(r, n, t, j), upcard)
    return a
#: One shared discard action per kind (legal-action lists reuse them).
DISCARDS = {k: Discard(k) for k in range(14)}
#: Kinds a hand can hold, in the order legal discards are listed.
HELD_KINDS = (0, 2, 1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3)
_VALUES = CLASSIC_VALUES  # the card values are the same in both canasta games
_ADDS: dict[tuple[int, int, int, int], Add] = {}
_SINGLE_MELDS: dict[tuple[int, int, int, int], Meld] = {}
_PARTNERS: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
#: A side's 14 meld slots (by rank; slot 0 is Railroad's wild meld) before it melds.
NO_MELDS: tuple[CanastaMeld | None, ...] = (None,) * 14


_TAKES: dict[tuple[int, int, int, int], Take] = {}
_ONTO_MELD: dict[tuple[int, int, bool, bool], list[Take]] = {}


def interned_take(r: int, n: int, t: int, j: int) -> Take:
    """A shared :class:`Take` without further melds (legal-action lists reuse the same
    objects)."""
    key = (r, n, t, j)
    a = _TAKES.get(key)
    if a is None:
        a = _TAKES[key] = _UPCARD_TAKES[r] if not (n or t or j) else Take(r, n, t, j)
    return a


def interned_add(r: int, n: int, t: int, j: int) -> Add:
    """A shared :class:`Add` (legal-action lists reuse the same objects)."""
    key = (r, n, t, j)
    a = _ADDS.get(key)
    if a is None:
        a = _ADDS[key] = Add(r, n, t, j)
    return a


def interned_meld(r: int, n: int, t: int, j: int) -> Meld:
    """A shared one-meld :class:`Meld`."""
    key = (r, n, t, j)
    a = _SINGLE_MELDS.get(key)
    if a is None:
        a = _SINGLE_MELDS[key] = Meld((MeldSpec(r, n, t, j),))
    return a


def used_counts(action: Take | Add | Meld | GoOut) -> list[int]:
    """Cards by kind that a take, meld, add or go-out action moves out of the hand."""
    used = [0] * 14
    specs: tuple[MeldSpec, ...]
    if type(action) is Take:
        used[action.rank] += action.naturals
        used[TWO] += action.twos
        used[JOKER] += action.jokers
        specs = action.extra
    elif type(action) is Add:
        used[action.rank] += action.naturals
        used[TWO] += action.twos
        used[JOKER] += action.jokers
        specs = ()
    else:
        specs = action.melds
    for s in specs:
        if s.rank == JOKER:
            used[TWO] += s.twos
            used[JOKER] += s.jokers
            continue
        used[s.rank] += s.naturals
        used[TWO] += s.twos
        used[JOKER] += s.jokers
    if type(action) is GoOut and action.discard is not None:
        used[action.discard] += 1
    return used


class CanastaState(State):
    """Base of the canasta game states (see the module docstring).

    Attributes shared by both games: ``options``, ``pack``, ``seed``, ``scores``,
    ``hand_no``, ``dealer``, ``side_of`` (seat -> side), ``stock`` (card ids, top last),
    ``hands`` (bitmask per seat), ``pile`` (card ids, bottom first), ``pile_frozen``,
    ``melds`` (per side, 14 slots by rank), ``red3`` (bitmask per seat), ``turn``,
    ``known`` (cards each seat publicly took with the pile and still holds), ``log``.

    Staging (CC-6.9, RR-6.11), private to the seat in turn: ``staged`` (tuple of
    :class:`MeldSpec`, in the order staged; the cards stay in ``hands``), ``staged_up`` (True
    when ``staged[0]`` is the upcard's meld of a take), ``stages`` (stage actions this turn,
    bounded by :data:`STAGE_LIMIT`).  Physical copies are chosen only at the commit, exactly as
    the one-action melding chose them, so records written before staging replay unchanged.
    """

    __slots__ = (
        "_cache",
        "_outcome",
        "_phase",
        "dealer",
        "hand_no",
        "hands",
        "known",
        "log",
        "melds",
        "melds_made",
        "new_ranks",
        "nsides",
        "options",
        "pack",
        "pile",
        "pile_cards",
        "pile_frozen",
        "red3",
        "scores",
        "seed",
        "side_of",
        "stages",
        "staged",
        "staged_up",
        "stock",
        "took",
        "turn",
        "went_out",
    )

    # The slots' types (``_cache``, ``_outcome``, ``_phase``, ``hand_no``, ``scores`` and
    # ``seed`` are declared by :class:`~meldhall.game.State`).
    options: CanastaOptions
    pack: Pack
    dealer: int
    #: seat -> side; ``nsides`` sides.
    side_of: tuple[int, ...]
    nsides: int
    #: Card ids, top of the stock last.
    stock: tuple[int, ...]
    #: A bitmask of card ids per seat.
    hands: tuple[int, ...]
    #: Card ids, bottom of the pile first.
    pile: tuple[int, ...]
    pile_frozen: bool
    #: Per side, 14 slots by rank (slot 0: Railroad's wild meld; 3: black threes).
    melds: tuple[tuple[CanastaMeld | None, ...], ...]
    #: The red threes each seat has placed (a bitmask per seat).
    red3: tuple[int, ...]
    #: Cards each seat publicly took with the pile and still holds (a bitmask per seat).
    known: tuple[int, ...]
    log: LogNode | None
    turn: int
    #: The seat that went out, once the hand is over by a going out.
    went_out: int | None
    # the turn in progress: the cards the take put into the hand (bitmask), whether the pile
    # was taken, melding actions made, the ranks of melds begun (bitmask over rank numbers)
    pile_cards: int
    took: bool
    melds_made: int
    new_ranks: int
    staged: tuple[MeldSpec, ...]
    staged_up: bool
    stages: int

    #: Semantic rule keys -> this game's rule IDs (filled by each game).
    RULES: ClassVar[dict[str, str]] = {}
    #: The rule IDs the notation parser cites for this game.
    RULES_PARSE: ClassVar[dict[str, str]] = CLASSIC_PARSE_RULES
    #: Phases in which the seat in turn acts.
    TURN_PHASES: ClassVar[tuple[str, ...]] = ("draw", "meld")
    #: Every slot of the class, ``_cache`` last (set for each subclass).
    _all_slots: ClassVar[tuple[str, ...]]

    if TYPE_CHECKING:
        def _copy(self) -> Self:
            """A copy with every slot but ``_cache`` (generated for each subclass)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        slots: list[str] = []
        for klass in reversed(cls.__mro__):
            for name in getattr(klass, "__slots__", ()):
                if name != "_cache" and name not in slots:
                    slots.append(name)
        cls._all_slots = tuple(slots) + ("_cache",)
        # Straight-line attribute copies are several times faster than a loop, and copying is
        # on the hot path of every apply (a state is a value).
        lines = ["def _copy(self):", "    new = _new(cls)"]
        lines += [f"    new.{n} = self.{n}" for n in slots]
        lines += ["    new._cache = None", "    return new"]
        ns: dict[str, Any] = {"_new": object.__new__, "cls": cls}
        exec("\n".join(lines), ns)
        setattr(cls, "_copy", ns["_copy"])  # noqa: B010 (a method; declared for the checker)

    @classmethod
    def blank(cls) -> Self:
        """An instance with every attribute ``None`` (for constructors and loaders)."""
        s = object.__new__(cls)
        for name in cls._all_slots:
            setattr(s, name, None)
        return s

    def _rule(self, key: str) -> str:
        return self.RULES[key]

    def _err(self, key: str, text: str) -> IllegalActionError:
        return IllegalActionError(self.RULES[key], text)

    # ------------------------------------------------------------------ protocol basics
    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return len(self.stock)

    @property
    def upcard(self) -> Card | None:
        """The top card of the discard pile (a :class:`~meldhall.cards.Card`) or ``None``."""
        return self.pack.cards[self.pile[-1]] if self.pile else None

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seat whose decision is awaited: the seat in turn, the one another phase names
        (:meth:`_phase_actor`), or the next dealer at the end of a hand."""
        ph = self._phase
        if ph in self.TURN_PHASES:
            return (self.turn,)
        if ph == "hand_end":
            return ((self.dealer + 1) % self.players,)
        who = self._phase_actor(ph)
        return () if who is None else (who,)

    def _phase_actor(self, phase: str) -> int | None:
        return None

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other seats of ``seat``'s side."""
        key = (self.side_of, seat)
        p = _PARTNERS.get(key)
        if p is None:
            s = self.side_of[seat]
            p = _PARTNERS[key] = tuple(x for x in range(len(self.side_of))
                                      if x != seat and self.side_of[x] == s)
        return p

    def side_seats(self, side: int) -> tuple[int, ...]:
        """Seats of a side."""
        return tuple(x for x in range(self.players) if self.side_of[x] == side)

    def side_melds(self, side: int) -> dict[int, tuple[int, int, int]]:
        """A side's open melds as ``{rank: (naturals, twos, jokers)}``."""
        return {m.rank: (m.naturals, m.twos, m.jokers) for m in self.melds[side] if m is not None}

    def hand_counts(self, seat: int) -> list[int]:
        """Cards in ``seat``'s hand by kind (index = rank number, 0 = joker)."""
        return self.pack.rank_counts(self.hands[seat])

    def hand_cards(self, seat: int) -> list[Card]:
        """The physical cards in ``seat``'s hand (list of Card)."""
        return self.pack.cards_of(self.hands[seat])

    def history(self) -> list[tuple[int, str]]:
        """Every action so far in the game as ``(seat, notation)``, oldest first."""
        return [(e[0], e[1]) for e in self.public_log()]

    def public_log(self) -> list[LogEntry]:
        """Public log: ``(seat, action, note)`` entries, oldest first; events that are not
        actions (cards placed at the deal, the upcard) have an empty action."""
        return log_entries(self.log)

    def _log(self, seat: int, text: LogText, note: str = "") -> None:
        self.log = LogNode(self.log, (seat, text, note))

    def _side(self) -> int:
        return self.side_of[self.turn]

    def _cached(self, key: str, compute: Callable[[], _T]) -> _T:
        """A value computed once per state (states never change, so caching is safe)."""
        c = self._cache
        if c is None:
            c = self._cache = {}
        v: _T | None = c.get(key)
        if v is None:
            v = c[key] = compute()
        return v

    def _counts(self) -> list[int]:
        """Cards by kind in the hand of the seat in turn (kept for the state, and over
        staging: :data:`_KEPT_OVER_STAGING`)."""
        c = self._cache
        if c is None:
            c = self._cache = {}
        v: list[int] | None = c.get("counts")
        if v is None:
            v = c["counts"] = self.pack.rank_counts(self.hands[self.turn])
        return v

    def _pick(self, kind: int, count: int, hand: int, avoid: int = 0) -> int:
        """Choose ``count`` physical cards of ``kind`` from ``hand`` (a bitmask of card ids).

        The engine, not the player, chooses which identical copy moves (CC-5.9, RR-5.10).  The
        copies the others know this seat holds (taken with the pile) go first, so what they know
        stays exactly what the cards shown tell them; cards in ``avoid`` go last (Classic: the
        cards taken from the pile this turn, which would spoil a hidden canasta, CC-6.8).  Within
        each group the choice is uniformly random, keyed to hidden state
        (:func:`~meldhall.cards.choose_copies`), so the suits shown tell nothing more about the
        hand.  Option ``copy_choice="legacy"`` keeps the former choice, for old records.
        """
        pool = hand & self.pack.rank_mask[kind]
        if count >= pool.bit_count():
            return pool
        if self._legacy_copies:
            return self._pick_legacy(pool, count, hand, avoid)
        known = self.known[self.turn]
        rest = pool & ~avoid
        # keyed to the hidden seed and to what does not depend on which copies are held
        key = copy_key4(hand_key(self.seed, self.hand_no), hand.bit_count(), kind,
                        len(self.stock), len(self.pile))
        return choose_copies((rest & known, rest & ~known, pool & avoid), count, key,
                             52 * self.pack.decks)

    @property
    def _legacy_copies(self) -> bool:
        """True under ``copy_choice="legacy"`` (records of format version 1)."""
        return self.options.copy_choice == "legacy"

    def _pick_legacy(self, pool: int, count: int, hand: int, avoid: int) -> int:
        """The copy choice of format version 1: a cyclic window over the copies, keyed by a
        hash of the hand (so it depended on the rest of the hand; kept only for replays)."""
        picked = 0
        salt = hash((self.seed, self.hand_no, hand))
        for pref in (pool & ~avoid, pool & avoid):
            if not count:
                break
            ids = []
            while pref:
                low = pref & -pref
                ids.append(low)
                pref ^= low
            k = len(ids)
            start = salt % k if k > count else 0
            for i in range(min(count, k)):
                picked |= ids[(start + i) % k]
            count -= min(count, k)
        return picked

    def _pick_spec(self, rank: int, n: int, t: int, j: int, hand: int, avoid: int = 0) -> int:
        return (self._pick(rank, n, hand, avoid) | self._pick(TWO, t, hand, avoid)
                | self._pick(JOKER, j, hand, avoid))

    def _need(self, counts: Sequence[int], kind: int, count: int, key: str) -> None:
        """Refuse an action that uses more cards of ``kind`` than the hand holds (``key`` is a
        rule key of ``RULES`` or a rule ID)."""
        if counts[kind] < count:
            held = counts[kind]
            raise IllegalActionError(
                self.RULES.get(key, key), f"you hold {held if held else 'no'} {kind_name(kind)}"
                + ("s" if held != 1 else "") + f"; this needs {count}")

    def _check_minimum(self, seat: int, used: Sequence[int], key: str,
                       upcard_rank: int | None = None) -> None:
        """A first melding must reach the minimum count: the cards from hand in ``used`` plus
        the upcard of a take (CC-7.1/CC-7.4, RR-7.1/RR-7.3)."""
        minimum = self.minimum_for(seat)
        total = sum(used[k] * _VALUES[k] for k in range(14))
        if upcard_rank is not None:
            total += _VALUES[upcard_rank]
        if total < minimum:
            where = ("this counts {t} (only the upcard and cards from your hand count)"
                     if upcard_rank is not None else "these melds count {t}")
            raise self._err(key, f"the first melding needs a count of {minimum}; "
                            + where.format(t=total))

    @abc.abstractmethod
    def minimum_for(self, seat: int) -> int:  # pragma: no cover - abstract
        """Supplied by each game."""

    def _top_rank(self) -> int:
        """The upcard's rank if the pile may be taken at all: not empty, no wild card, black
        three or red three on top (CC-8.2, RR-8.2)."""
        if not self.pile:
            raise self._err("pile_empty", "the discard pile is empty")
        top = self.pile[-1]
        r = self.pack.rank_of[top]
        if r in (JOKER, TWO):
            raise self._err("pile_blocked", "a wild card is on top of the pile: nobody may take "
                            "it this turn")
        if r == 3:
            if (self.pack.red_threes >> top) & 1:
                raise self._err("pile_blocked", "a red three is on top of the pile: it cannot "
                                "be taken")
            raise self._err("pile_blocked", "a black three is on top of the pile: nobody may "
                            "take it this turn")
        return r

    def _take_route(self, r: int, n: int, w: int, counts: Sequence[int], frozen: bool,
                    wild_ok: bool) -> str:
        """How a take onto the existing meld of the upcard's rank is made: ``"upcard"`` alone
        (unfrozen pile only), a natural ``"pair"``, or a natural and a ``"wild"`` card (unfrozen
        pile, where the game allows it) (CC-8.5, CC-8.6; RR-8.4, RR-8.5, RR-8.7)."""
        name = format_kind(r)
        if n == 0 and w == 0:
            if frozen:
                raise self._err("take_frozen", f"the pile is frozen: taking it needs a natural "
                                 f"pair of {name}s (you hold {counts[r] or 'no'} {name})")
            return "upcard"
        if n == 2 and w == 0:
            return "pair"
        if n == 1 and w == 1 and wild_ok:
            if frozen:
                raise self._err("take_wild_frozen", f"the pile is frozen: taking it needs a "
                                f"natural pair of {name}s, not a wild card")
            return "wild"
        raise self._err("take_wild" if w else "take_route",
                        f"with a meld of {name}s on the table the pile is taken with two natural "
                        f"{name}s" + (", one natural and one wild card," if wild_ok else "")
                        + " or by adding the upcard alone ('take')")

    def _reset_hand(self, side_of: tuple[int, ...], nsides: int) -> None:
        """Clear the table for a new hand (sides, melds, what is known, the outcome)."""
        self.side_of = side_of
        self.nsides = nsides
        self.melds = (NO_MELDS,) * nsides
        self.known = (0,) * self.players
        self.went_out = None
        self._outcome = None

    def _need_all(self, counts: Sequence[int], used: Sequence[int], key: str) -> None:
        for k in range(14):
            if used[k] > counts[k]:
                self._need(counts, k, used[k], key)

    def _seat_check(self, seat: int | None) -> None:
        if seat is None:
            return
        if self._phase == "game_over":
            raise self._err("game_over", "the game is over")
        if seat not in self.to_act:
            who = self.to_act[0]
            raise self._err(self._turn_rule_key(),
                            f"it is seat {who}'s turn to act, not seat {seat}'s "
                            "(there are no out-of-turn plays)")

    def _turn_rule_key(self) -> str:
        return "turn"

    def _check_shape(self, action: Action) -> None:
        """Refuse action objects built with impossible fields (a rank outside 0..13, negative
        counts): the notation parser never makes them, the Python API can."""
        rank: object
        counts: tuple[object, ...]
        specs: tuple[object, ...]
        if type(action) is Discard:
            if not isinstance(action.kind, int) or not 0 <= action.kind < 14:
                raise self._err("discard", f"there is no card kind {action.kind!r} to discard")
            return
        if type(action) is Stage:
            sp = action.spec
            if not isinstance(sp, MeldSpec) or not isinstance(sp.rank, int) \
                    or not 0 <= sp.rank < 14 or _bad_counts(sp.naturals, sp.twos, sp.jokers):
                raise self._err("meld_shape", f"a meld with rank {getattr(sp, 'rank', sp)!r} "
                                "and those counts is impossible")
            return
        if type(action) is Add or type(action) is Take:
            rank = action.rank
            counts = (action.naturals, action.twos, action.jokers)
            specs = action.extra if type(action) is Take else ()
        elif type(action) is Meld or type(action) is GoOut:
            rank, counts, specs = 4, (), action.melds
            if type(action) is GoOut and action.discard is not None and not (
                    isinstance(action.discard, int) and 0 <= action.discard < 14):
                raise self._err("discard", f"there is no card kind {action.discard!r}")
        else:
            return
        if not isinstance(rank, int) or not 0 <= rank < 14 or _bad_counts(*counts):
            raise self._err("meld_shape", f"{type(action).__name__.lower()} with rank {rank!r} "
                            f"and counts {counts!r} names an impossible meld")
        for sp in specs:
            if not isinstance(sp, MeldSpec) or not isinstance(sp.rank, int) \
                    or not 0 <= sp.rank < 14 or _bad_counts(sp.naturals, sp.twos, sp.jokers):
                raise self._err("meld_shape", f"a meld with rank {getattr(sp, 'rank', sp)!r} "
                                "and those counts is impossible")

    def _refuse_add_to_nothing(self, text: str, rules: dict[str, str]) -> None:
        """Before reading ``add … -> R``: with no meld of ``R`` to add to (CC-5.6, CC-6.5,
        RR-5.5, RR-6.8), refuse it for that rather than for the cards it names ("only 10s and
        wild cards can be added to a meld of 10s, not a 5" read as if there were one).

        Raises:
            IllegalActionError: the seat in turn's side has no meld of the target rank.
        """
        head, _, rest = text.strip().partition(" ")
        if head.lower() != "add" or self._phase != "meld" or "->" not in rest:
            return
        cards, _, target = rest.partition("->")
        target = target.strip()
        if not cards.split() or target.lower() in ("wild", "w"):
            # no cards: the notation's error; a wild meld: "wild cards only" holds either way
            return
        try:
            rank = parse_kind(target, rules)
        except MeldhallError:
            return  # the notation's own error follows
        try:
            self._plan_add(Add(rank,  # type: ignore[attr-defined]  # each game's own 0 if rank in (TWO, JOKER) else 1, 1 if rank == TWO else 0,
                               1 if rank == JOKER else 0))
        except IllegalActionError as exc:
            if "meld of" in exc.reason and ("no " in exc.reason or "only an opponent" in
                                            exc.reason):
                raise

    def _refuse_late_take(self, text: str, top: int | None) -> None:
        """Before reading ``take …``: refuse it for the reason that decides rather than for
        the cards it names, which the notation checks first: in the draw phase a blocked or
        empty pile (CC-8.2, CC-8.10, RR-8.2), outside it the turn's draw made or another
        seat's turn (CC-5.5 / RR-5.1).

        Raises:
            IllegalActionError: the refusal a take gets in this state, if it gets one.
        """
        if text.strip().split(" ", 1)[0].lower() != "take":
            return
        if self._phase == "draw":
            # a blocked or empty pile refuses every take, whatever cards it names (CC-8.2,
            # RR-8.2): "take 4 4" on a black three read "must be of its rank (3)", as if a
            # pair of threes could take it
            self._top_rank()
            return
        self._plan(Take(top if top is not None and top not in (TWO, JOKER, 3) else 4, 2, 0, 0,
                        ()), None)

    def _plan(self, action: Action, seat: int | None) -> Plan:
        """The one legality check: the turn, the action's shape, the end of a hand and the
        deal, the draw phase; then the game's own phases (:meth:`_plan_phase`).  Returns what
        :meth:`_apply_checked` needs (cards used), or raises :class:`IllegalActionError`."""
        self._seat_check(seat)
        self._check_shape(action)
        ph = self._phase
        t = type(action)
        if ph == "game_over":
            raise self._err("game_over", "the game is over")
        if t is Deal:
            if ph != "hand_end":
                raise self._err("deal", "the hand is still being played")
            return None
        if ph == "hand_end":
            raise self._err("deal", "the hand is over: the next dealer deals ('deal')")
        if type(action) is Stage or type(action) is Withdraw or type(action) is MeldDone:
            return self._plan_staging(action, t, ph)
        if self.staged and ph in self.TURN_PHASES:
            got = self._plan_with_staged(action, t, ph)
            if got is not _GO_ON:
                return got
        if ph == "draw" and t in (Draw, Take, Pass):
            return self._plan_draw(action, t)
        return self._plan_phase(action, t, ph)

    # ------------------------------------------------------------------ staging (CC-6.9)
    @abc.abstractmethod
    def _unmelded(self) -> bool:
        """Whether the melds of the seat in turn are staged: its side (Classic) or the player
        (Railroad) has not melded this hand."""

    def _staged_used(self) -> list[int]:
        """Cards by kind that the staged melds hold (still in the hand)."""
        used = [0] * 14
        for sp in self.staged:
            used[sp.rank] += sp.naturals
            used[TWO] += sp.twos
            used[JOKER] += sp.jokers
        return used

    def _avail(self) -> list[int]:
        """Cards by kind in the hand of the seat in turn that no staged meld holds."""
        if not self.staged:
            return self._counts()

        def compute() -> list[int]:
            c = list(self._counts())
            for k, v in enumerate(self._staged_used()):
                c[k] -= v
            return c

        return self._cached("avail", compute)

    def staged_melds(self, seat: int) -> tuple[MeldSpec, ...]:
        """The melds ``seat`` has staged (private to that seat; empty for every other seat)."""
        return self.staged if seat == self.turn else ()

    def _plan_staging(self, action: Stage | Withdraw | MeldDone, t: type[Action],
                      ph: str) -> Plan:
        """Stage, withdraw and ``meld done`` (CC-6.9 (a)–(d), RR-6.11)."""
        rule = self.RULES["staging"]
        if ph not in ("draw", "meld"):
            raise IllegalActionError(rule, "melds are staged only during your own turn, after "
                                     "drawing or to take the pile")
        if type(action) is Withdraw:
            if not self.staged:
                raise IllegalActionError(rule, "nothing is staged to withdraw")
            return None
        if not self._unmelded():
            # the side's first melding is staged (CC-6.9): a partner's counts too
            who = "your side has" if self.players > self.nsides else "you have"
            raise IllegalActionError(rule, f"{who} melded this hand: new melds and additions "
                                     "go straight to the table ('meld …', 'add …')")
        if type(action) is MeldDone:
            if ph != "meld":
                raise IllegalActionError(
                    rule, "melds staged for a take are committed by taking the pile ('take')"
                    if self.staged else "draw first; then stage your melds and commit them")
            if not self.staged:
                raise IllegalActionError(rule, "nothing is staged: stage your melds first "
                                         "('stage K K 2')")
            full = self._staged_meld_action()
            return ("commit", full, self._plan_commit(full))
        # Stage
        if self.stages >= STAGE_LIMIT:
            raise IllegalActionError(
                rule, f"you have used the {STAGE_LIMIT} stage actions a turn allows (each "
                "'stage' counts, also of a meld withdrawn since): "
                + ("commit what is staged ('meld done', or the take) or withdraw it"
                   if self.staged else "no more melds can be staged this turn"))
        if ph == "draw":
            if not self.staged and not action.upcard:
                raise IllegalActionError(
                    rule, "before drawing, only the upcard's meld can be staged, to take the "
                    "pile ('stage 8 8 + upcard'); draw first to stage other melds")
            if self.staged and action.upcard:
                raise IllegalActionError(rule, "the upcard's meld is already staged")
        elif action.upcard:
            raise IllegalActionError(rule, "you have drawn: the upcard's meld is staged only to "
                                     "take the pile, before drawing")
        self._check_stage(action.spec, action.upcard, self._avail())
        return None

    @abc.abstractmethod
    def _check_stage(self, spec: MeldSpec, upcard: bool, avail: Sequence[int]) -> None:
        """A staged meld's own checks (supplied by each game)."""

    def _plan_with_staged(self, action: Action, t: type[Action],
                          ph: str) -> Plan | Literal[_GoOn.GO_ON]:
        """What may happen while melds are staged: the commit (the take, the final discard),
        and nothing that would lose them."""
        rule = self.RULES["staging"]
        if type(action) is Take:
            if ph != "draw":  # the draw rule, as without staged melds (CC-5.5, RR-5.6)
                raise IllegalActionError(self.RULES["drawn"], "you have already drawn this turn")
            if not self.staged_up:
                raise IllegalActionError(rule, "your staged melds are committed with 'meld done'")
            if action.naturals or action.twos or action.jokers or action.extra \
                    or action.rank != self.staged[0].rank:
                raise IllegalActionError(
                    rule, "the upcard's meld is staged: take the pile with 'take', or withdraw "
                    "it first")
            full = self._staged_take_action()
            return ("commit", full, self._plan_commit(full))
        if t is Draw and ph != "draw":
            raise IllegalActionError(self.RULES["drawn"], "you have already drawn this turn")
        if t is Draw or t is Pass:
            raise IllegalActionError(
                rule, "you have staged melds: " + (
                    "take the pile ('take') or withdraw them ('withdraw all') first"
                    if ph == "draw" else "commit them ('meld done') or withdraw them first"))
        if type(action) is Discard:
            return self._plan_staged_discard(action)
        if ph == "draw":
            raise IllegalActionError(rule, "take the pile ('take') or withdraw your staged melds")
        return _GO_ON  # the game's own checks follow

    @abc.abstractmethod
    def _stage_actions(self, avail: Sequence[int], phase: str) -> list[Stage]:
        """Every legal stage of a new meld (not the upcard's) from ``avail`` (supplied by each
        game)."""

    def _staged_take_ok(self) -> bool:
        """Whether ``take`` is legal in the draw phase with melds staged: it commits the take
        the staged melds make (:meth:`_plan_with_staged`)."""
        if not self.staged_up or self._phase != "draw":
            return False
        return self._take_ok(self._staged_take_action())

    def _staging_tail(self) -> list[Action]:
        """Withdrawals and ``meld done`` where they are legal, for the meld phase."""
        if not self.staged:
            return []
        out: list[Action] = [WITHDRAW, WITHDRAW_ALL]
        if self._meld_done_ok():
            out.append(MELD_DONE)
        return out

    # -- the fast path of legal_actions --------------------------------------------------------
    # Cheap tests that say what the one legality check (:meth:`_plan`) would say of a candidate,
    # without building its refusal; each game may replace the defaults below, which run the
    # check itself.  tests/test_fast_path.py checks that they agree on every candidate.

    def _meld_done_ok(self) -> bool:
        """Whether ``meld done`` is legal now (the meld phase, melds staged)."""
        return self.is_legal(MELD_DONE)

    def _take_ok(self, a: Take) -> bool:
        """Whether :meth:`_plan_take` accepts the take ``a`` (the draw phase, nothing staged)."""
        try:
            self._plan_take(a)
        except IllegalActionError:
            return False
        return True

    def _upcard_parts_ok(self, r: int, n: int, t: int, j: int, counts: Sequence[int]) -> bool:
        """:meth:`_upcard_stage_ok` of the meld of rank ``r`` with ``n`` naturals, ``t`` twos
        and ``j`` jokers (without building it, where a game can)."""
        return self._upcard_stage_ok(MeldSpec(r, n, t, j), counts)

    def _upcard_stage_ok(self, spec: MeldSpec, counts: Sequence[int]) -> bool:
        """Whether :meth:`_check_stage` accepts ``spec`` as the upcard's meld from ``counts``."""
        try:
            self._check_stage(spec, True, counts)
        except IllegalActionError:
            return False
        return True

    @abc.abstractmethod
    def _plan_staged_discard(self, action: Discard) -> Plan:
        """A discard while melds are staged (supplied by each game)."""

    def _plan_commit(self, full: Action) -> Plan:
        """Check a committed melding as the one action it makes (the game's own planner)."""
        if type(full) is Take:
            return self._plan_take(full)
        return self._plan_phase(full, type(full), self._phase)

    def _staged_meld_action(self) -> Meld | GoOut:
        """The melding that ``meld done`` commits: a :class:`Meld` of the staged melds, or a
        going out without a discard when they hold the whole hand (supplied by each game)."""
        return Meld(canonical_specs(self.staged))

    def _staged_take_action(self) -> Take:
        """The take that ``take`` commits: the upcard's staged meld and the other staged
        melds."""
        up = self.staged[0]
        return Take(up.rank, up.naturals, up.twos, up.jokers, canonical_specs(self.staged[1:]))

    def _expand(self, action: Action) -> list[Action] | None:
        """The staged sequence that a one-action melding stands for (CC-6.9: ``meld A A A,
        K K 2``, ``take 8 8 2, K K JK`` and ``out …; discard 4`` are shorthand), or ``None``
        when the action is not shorthand here."""
        t = type(action)
        if t is not Meld and t is not Take and t is not GoOut:
            return None
        ph = self._phase
        if ph not in ("draw", "meld") or not self._unmelded():
            return None
        if type(action) is Take:
            if ph != "draw" or not (action.naturals or action.twos or action.jokers
                                    or action.extra):
                return None
            seq: list[Action] = [Stage(MeldSpec(action.rank, action.naturals, action.twos,
                                                action.jokers), True)]
            seq += [Stage(sp) for sp in action.extra]
            seq.append(Take(action.rank))
            return seq
        if type(action) is not Meld and type(action) is not GoOut:  # pragma: no cover
            return None  # unreachable: only a Meld, Take or GoOut gets past the first test
        if ph != "meld" or not action.melds:
            return None
        seq = [Stage(sp) for sp in action.melds]
        if type(action) is Meld:
            seq.append(MELD_DONE)
        else:
            seq.append(MELD_DONE if action.discard is None else DISCARDS[action.discard]
                       if isinstance(action.discard, int) and 0 <= action.discard < 14
                       else Discard(action.discard))
        return seq

    def check(self, action: Action, seat: int | None = None) -> None:
        """Raise :class:`IllegalActionError` (rule ID and reason) if ``action`` is illegal; a
        one-action melding is checked as its staged sequence (CC-6.9)."""
        seq = self._expand(action)
        if seq is None:
            self._plan(action, seat)
            return
        self._seat_check(seat)
        self._check_shape(action)
        self._precheck_shorthand(action)
        s = self
        for a in seq:
            s = s.apply(a, seat)

    def apply(self, action: Action, seat: int | None = None) -> Self:
        """Check the action, then return the next state; a one-action melding is applied as
        its staged sequence and commit (CC-6.9)."""
        c = self._cache
        if c is not None:
            la = c.get("legal")
            # the very object listed by legal_actions() (State.apply): already checked
            if la is not None and any(map(is_, la, repeat(action))) \
                    and (seat is None or seat in self.to_act):
                return self._apply_checked(action, None)
        seq = self._expand(action)
        if seq is None:
            return super().apply(action, seat)
        self._seat_check(seat)
        self._check_shape(action)
        self._precheck_shorthand(action)
        s = self
        for a in seq:
            s = s.apply(a, seat)
        return s

    def _precheck_shorthand(self, action: Action) -> None:
        """Checks of a one-action melding as a whole, made before its staged steps so that its
        refusal names the rule it breaks as a whole (default: none)."""

    def unstaged(self) -> Self:
        """This state with the seat in turn's staged melds withdrawn (a copy; the per-turn
        stage counter is reset too).  For planners that decide a whole melding at once."""
        if not self.staged and not self.stages:
            return self
        s = self._copy()
        s.staged = ()
        s.staged_up = False
        s.stages = 0
        return s

    def compound_options(self) -> list[Action]:
        """For planners (bots, hints), not for ``legal_actions``: every one-action melding
        the seat in turn could commit from here — a first melding ``meld A A A, K K 2``, a
        take with further melds ``take 8 8 2, K K JK``, a concealed going out — each legal
        shorthand for its staged sequence (CC-6.9, RR-6.11).  Their number grows
        exponentially with the hand: that is why the engine stages.  Empty when the seat's
        melds are not staged."""
        if self.staged or not self._unmelded() or self._phase not in ("draw", "meld"):
            return []
        return self._compound_options()

    def _compound_options(self) -> list[Action]:
        return []

    def _compound_takes(
            self, first_melds: Callable[[list[int], int, int, int],
                                        Iterable[tuple[MeldSpec, ...]]]) -> list[Take]:
        """Takes with further melds for a player whose melds are staged (``first_melds``:
        counts, twos, jokers -> every set of new melds)."""
        if self._phase != "draw" or not self.pile:
            return []
        r = self.pack.rank_of[self.pile[-1]]
        if r in (JOKER, TWO, 3):
            return []
        counts = self._counts()
        out: list[Take] = []
        for up in self._take_candidates(r, counts):
            if up.extra or not (up.naturals or up.twos or up.jokers):
                continue
            sub = list(counts)
            sub[r] -= up.naturals
            cands = [up] + [Take(r, up.naturals, up.twos, up.jokers, extra)
                            for extra in first_melds(sub, counts[TWO] - up.twos,
                                                     counts[JOKER] - up.jokers, r)]
            out.extend(a for a in cands if self._take_ok(a))
        return out

    # ------------------------------------------------------------------ action ids
    #: Most wild cards of one kind an action names (CC-6.2: three; Railroad's wild meld: 7).
    WILD_ID_MAX = 3
    #: Most naturals of one rank an action names (``None``: every copy in the pack).
    NATURAL_ID_MAX: int | None = None

    def _action_space(self) -> CanastaActionSpace:
        pack = self.pack
        copies = 4 * pack.decks
        n = copies if self.NATURAL_ID_MAX is None else min(copies, self.NATURAL_ID_MAX)
        return CanastaActionSpace.get(self.players, n, min(self.WILD_ID_MAX, copies),
                                      min(self.WILD_ID_MAX, pack.jokers))

    @property
    def num_distinct_actions(self) -> int:
        """Size of the game's fixed integer action space: the same for every state of a game
        with these options and players (formula: docs/protocol.md, "Action ids")."""
        return self._action_space().size

    def action_id(self, action: Action) -> int:
        """The integer id of ``action`` in :attr:`num_distinct_actions`; every legal action
        has one.

        Raises:
            NotationError: a one-action melding (shorthand, no id) or counts beyond bounds.
        """
        return self._action_space().action_id(action)

    def action_from_id(self, i: int) -> Action:
        """The action with id ``i`` (``action_from_id(action_id(a)) == a``).

        Raises:
            NotationError: ``i`` is outside the action space.
        """
        return self._action_space().action_from_id(i)

    def _take_possible(self) -> bool:
        """Whether the seat in turn can take the pile at all (CC-11.3, RR-12.2: with the stock
        empty the hand ends when it cannot)."""
        if not self._unmelded():
            return bool(self._takes())
        return bool(self._committable_upcard_melds())

    def _committable_upcard_melds(self) -> list[MeldSpec]:
        """For a player whose melds are staged (CC-6.9): the upcard melds (cards from hand)
        with which *some* staged take commits, found by searching further melds largest first
        with a bound on the count they can reach (cached per state)."""
        c = self._cache
        if c is None:
            c = self._cache = {}
        got: list[MeldSpec] | None = c.get("up_melds")
        if got is not None:
            return got
        got = c["up_melds"] = []
        if not self.pile or self.staged:
            return got
        r = self.pack.rank_of[self.pile[-1]]
        if r in (JOKER, TWO, 3):
            return got
        counts = self._counts()
        minimum = self.minimum_for(self.turn)
        if not self._upcard_melds_may_commit(r, counts, minimum):
            return got
        for up in self._take_candidates(r, counts):
            if up.extra or not (up.naturals or up.twos or up.jokers):
                continue
            if not self._upcard_parts_ok(r, up.naturals, up.twos, up.jokers, counts):
                continue
            if self._upcard_meld_commits(up, counts, minimum):
                got.append(MeldSpec(r, up.naturals, up.twos, up.jokers))
        return got

    def _upcard_melds_may_commit(self, r: int, counts: Sequence[int], minimum: int) -> bool:
        """False only when no upcard meld of rank ``r`` from ``counts`` can commit with a
        first melding needing ``minimum`` (a bound a game may supply; the default, True,
        leaves the answer to :meth:`_upcard_meld_commits`)."""
        return True

    def _upcard_meld_commits(self, up: Take, counts: Sequence[int], minimum: int) -> bool:
        """Whether the take ``up`` (the upcard's meld, a valid stage) commits with some further
        melds from ``counts``, the hand, the first melding needing ``minimum``
        (:meth:`_committable_upcard_melds`; a game may search faster, with the same answer)."""
        r = up.rank
        rest = list(counts)
        rest[r] -= up.naturals
        rest[TWO] -= up.twos
        rest[JOKER] -= up.jokers
        need = minimum - _count_of(up, r)
        # only whether one commits matters here: the melds in any order
        for extra in self._extras_largest_first(rest, r, need, canonical=False):
            if self._take_ok(Take(r, up.naturals, up.twos, up.jokers, extra)):
                return True
        return False

    @abc.abstractmethod
    def _extras_largest_first(self, rest: list[int], up_rank: int, need: int,
                              canonical: bool = True) -> Iterator[tuple[MeldSpec, ...]]:
        """Candidate further melds for a take, largest count first, skipping sets whose best
        completion cannot reach ``need`` (supplied by each game); each set in notation order
        unless not ``canonical`` (for a search that only asks whether one exists)."""

    def _plan_draw(self, action: Action, t: type[Action]) -> Plan:
        """Draw phase: draw, take the pile, or (stock empty) decline it."""
        if t is Draw:
            if not self.stock:
                raise self._err("stock_empty", "the stock is empty: take the pile or pass "
                                "(ending the hand)")
            return None
        if type(action) is Take:
            return self._plan_take(action)
        if self.stock:
            raise self._err("turn_start", "draw from the stock or take the pile")
        if self._take_forced():
            raise self._err("stock_empty", "the stock is empty and the upcard fits your meld: "
                            "you must take the pile")
        return None

    @abc.abstractmethod
    def _plan_phase(self, action: Action, t: type[Action],
                    phase: str) -> Plan:  # pragma: no cover - abstract
        """Supplied by each game."""

    @abc.abstractmethod
    def _plan_take(self, action: Take) -> Plan:  # pragma: no cover - abstract
        """Supplied by each game."""

    @abc.abstractmethod
    def _take_forced(self) -> bool:  # pragma: no cover - abstract
        """Supplied by each game."""

    def _frozen_for(self, side: int) -> bool:
        """Whether the pile is frozen for ``side`` (default: frozen for everyone or nobody)."""
        return self.pile_frozen

    def _filter_legal(self, candidates: Iterable[_A],
                      planner: Callable[[_A], object] | None = None) -> list[_A]:
        """The candidates that pass the legality check (``planner`` or :meth:`_plan`)."""
        out = []
        for a in candidates:
            try:
                if planner is None:
                    self._plan(a, None)
                else:
                    planner(a)
            except IllegalActionError:
                continue
            out.append(a)
        return out

    def _takes(self) -> list[Take | Stage]:
        """Every legal take of the pile for the seat in turn; for a player whose melds are
        staged (CC-6.9), the stages of the upcard's meld instead (cached per state)."""
        c = self._cache
        if c is None:
            c = self._cache = {}
        out: list[Take | Stage] | None = c.get("takes")
        if out is None:
            out = c["takes"] = []
            if self.pile and not self.staged:
                r = self.pack.rank_of[self.pile[-1]]
                if r not in (JOKER, TWO, 3):
                    cands = self._take_candidates(r, self._counts())
                    if not self._unmelded():
                        out.extend(a for a in cands if self._take_ok(a))
                    elif self.stages < STAGE_LIMIT:
                        # CC-6.9: a player whose melds are staged stages the upcard's meld,
                        # offered when some take with it can commit
                        for sp in self._committable_upcard_melds():
                            out.append(interned_stage(r, sp.naturals, sp.twos, sp.jokers, True))
        return out

    @abc.abstractmethod
    def _take_candidates(self, rank: int,
                         counts: Sequence[int]) -> list[Take]:  # pragma: no cover
        """Supplied by each game."""

    @staticmethod
    def _takes_onto_meld(r: int, counts: Sequence[int], with_wild: bool) -> list[Take]:
        """Candidate takes onto an existing meld of the upcard's rank: the upcard alone, with a
        natural pair, or (``with_wild``) with a natural and a wild card (shared objects, in a
        list kept by what it depends on: callers do not change it)."""
        cr = counts[r]
        key = (r, 2 if cr >= 2 else cr, with_wild and bool(counts[TWO]),
               with_wild and bool(counts[JOKER]))
        cands = _ONTO_MELD.get(key)
        if cands is None:
            cands = _ONTO_MELD[key] = [_UPCARD_TAKES[r]]
            if cr >= 2:
                cands.append(interned_take(r, 2, 0, 0))
            if cr >= 1 and key[2]:
                cands.append(interned_take(r, 1, 1, 0))
            if cr >= 1 and key[3]:
                cands.append(interned_take(r, 1, 0, 1))
        return cands

    def _forced_take(self) -> bool:
        """The upcard can be added to the player's (side's) meld of its rank and that take is
        legal (the take a game may force when the stock is empty)."""
        if not self.pile:
            return False
        r = self.pack.rank_of[self.pile[-1]]
        side = self._side()
        if r in (JOKER, TWO, 3) or self._frozen_for(side) or self.melds[side][r] is None:
            return False
        return self._take_ok(_UPCARD_TAKES[r])

    def _legal(self) -> list[Action]:
        if self.staged:
            return self._legal_now()
        # nothing staged: the list is the one of the state before the staging and withdrawals
        # that led back here, if it knew it (it does not depend on them, only on whether
        # another stage is allowed; the phase is the same), so it is kept over staging
        ph = self._phase
        more = self.stages < STAGE_LIMIT
        c = self._cache
        if c is not None:
            got: tuple[str, bool, list[Action]] | None = c.get("unstaged")
            if got is not None and got[0] == ph and got[1] == more:
                return got[2]
        out = self._legal_now()
        c = self._cache
        if c is None:
            c = self._cache = {}
        c["unstaged"] = (ph, more, out)
        return out

    def _legal_now(self) -> list[Action]:
        """The legal actions of the seat to act (:meth:`_legal`, computed now)."""
        ph = self._phase
        out: list[Action]
        if ph == "draw" and self.staged:
            # the take being staged (CC-6.9): further melds, withdrawals, the take itself
            out = list(self._stage_actions(self._avail(), ph))
            out += [WITHDRAW, WITHDRAW_ALL]
            if self._staged_take_ok():
                out.append(_UPCARD_TAKES[self.staged[0].rank])
            return out
        if ph == "draw":
            out = []
            if self.stock:
                out.append(_DRAW)
            out.extend(self._takes())
            if not self.stock and not self._take_forced():
                out.append(_PASS)
            return out
        if ph == "hand_end":
            return [_DEAL]
        if ph == "game_over":
            return []
        return self._legal_phase(ph)

    @abc.abstractmethod
    def _legal_phase(self, phase: str) -> list[Action]:  # pragma: no cover - abstract
        """Supplied by each game."""

    def _apply_checked(self, action: Action, plan: Plan) -> Self:
        """Apply a checked action to a copy: the deal here, staging and commits (CC-6.9), the
        rest in :meth:`_apply_action`."""
        s = self._copy()
        t = type(action)
        if type(action) is Stage:
            s.staged = self.staged + (action.spec,)
            s.staged_up = self.staged_up or action.upcard
            s.stages = self.stages + 1
            s._keep_facts(self)
            return s
        if type(action) is Withdraw:
            s.staged = () if action.all else self.staged[:-1]
            s.staged_up = self.staged_up and bool(s.staged)
            s._keep_facts(self)
            return s
        ph = self._phase
        if ph in self.TURN_PHASES:
            seat = self.turn
        else:
            ta = self.to_act
            seat = ta[0] if ta else -1
        if self.staged and (type(action) is MeldDone or type(action) is Take
                            or type(action) is Discard):
            if type(plan) is tuple and plan and plan[0] == "commit":
                action, plan = plan[1], plan[2]
            else:
                action = self._commit_of(action)
                plan = used_counts(action) if type(action) in (Take, Meld, GoOut) else None
            t = type(action)
            s.staged = ()
            s.staged_up = False
        if t is Deal:
            s._log(seat, action)
            s.hand_no += 1
            s.dealer = (s.dealer + 1) % s.players
            s._start_hand()
            return s
        # the action stands for its notation in the log, written out when read
        s._apply_action(action, t, seat, action, plan, ph)
        return s

    #: Facts of a state (keys of its ``_cache``) about the hand of the seat in turn and its
    #: side's melds, which staging and withdrawing do not change (CC-6.9: the staged cards stay
    #: in the hand), so the next state keeps them.
    _KEPT_OVER_STAGING: ClassVar[tuple[str, ...]] = ("counts", "ask", "unstaged")

    def _keep_facts(self, before: CanastaState) -> None:
        """Take over the facts of ``before`` that a stage or withdrawal leaves true."""
        c = before._cache
        if c:
            kept = {k: c[k] for k in self._KEPT_OVER_STAGING if k in c}
            if kept:
                self._cache = kept

    @abc.abstractmethod
    def _apply_action(self, action: Action, t: type[Action], seat: int, text: LogText,
                      plan: Plan, phase: str) -> None:
        """Apply a checked action (of type ``t``, by ``seat``, ``text`` what its log entry
        writes: its notation or the action itself, ``plan`` what :meth:`_plan` returned or
        ``None``) made in ``phase`` to this copy (supplied by each game)."""

    @abc.abstractmethod
    def _start_hand(self) -> None:  # pragma: no cover - abstract
        """Supplied by each game."""

    def _end_hand(self, how: str, went_out: int | None) -> None:
        """Score the hand (:meth:`_score_hand`) and decide whether the game ends."""
        self.went_out = went_out
        results, new_scores = self._score_hand(how, went_out)
        self.scores = new_scores
        game_over, winners = self._game_result(new_scores)
        self._outcome = Outcome(self.hand_no, how, went_out, results, game_over, winners)
        self._phase = "game_over" if game_over else "hand_end"
        self._cache = None

    def provisional_results(self) -> tuple[SideResult, ...]:
        """The hand scored as if the stock ran out now (CC-11 / RR-12 scoring, no going-out
        bonus); see :meth:`meldhall.game.State.provisional_results`."""
        return self._score_hand("stock_exhausted", None)[0]

    @abc.abstractmethod
    def _score_hand(self, how: str, went_out: int | None
                    ) -> tuple[tuple[SideResult, ...], tuple[int, ...]]:  # pragma: no cover
        """The hand's results, one per side, and the new cumulative scores (supplied by each
        game)."""

    @classmethod
    def new_game_function(cls: type[_S], options_class: type[_O],
                          score_columns: Callable[[_O], int], *, title: str, counts: str,
                          dealer_rule: str) -> NewGame[_S, _O]:
        """Build the game module's ``new_game(players=None, seed=0, options=None, *,
        dealer=None)`` with its documentation (``score_columns``: the length of ``scores``
        for given options)."""

        def new_game(players: int | None = None, seed: int = 0,
                     options: _O | dict[str, Any] | None = None, *,
                     dealer: int | None = None) -> _S:
            return cls._new(options_class, players, seed, options, dealer, score_columns)

        new_game.__doc__ = f"""Start a {title} game and deal its first hand.

        Args:
            players: {counts} (overrides ``options.player_count``).
            seed: integer seed; the same seed and actions give the identical game.
            options: a :class:`{options_class.__name__}` or a dict of option names to values.
            dealer: first dealer's seat; drawn at random from the seed if ``None``
                ({dealer_rule}).

        Returns:
            The state at the start of the first hand (the player to the dealer's left acts).

        Raises:
            OptionsError: unknown option or bad value.
        """
        new_game.__qualname__ = "new_game"
        return new_game

    @classmethod
    def _new(cls, options_class: type[_O], players: int | None, seed: int,
             options: _O | dict[str, Any] | None, dealer: int | None,
             score_columns: Callable[[_O], int]) -> Self:
        """Build and deal a new game (the body of each game's ``new_game``)."""
        if options is None:
            # players=0 is refused like any other count out of range
            opts = options_class(player_count=4 if players is None else players)
        elif isinstance(options, dict):
            data: dict[str, Any] = dict(options)
            if players is not None:
                data["player_count"] = players
            opts = options_class.from_json(data)
        else:
            opts = options
            if players is not None and players != opts.player_count:
                opts = opts.with_values(player_count=players)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise OptionsError(f"seed must be an integer, not {seed!r}")
        s = cls.blank()
        s.options = opts
        s.pack = Pack.get(opts.decks, opts.jokers)
        s.seed = seed
        s.scores = (0,) * score_columns(opts)
        s.hand_no = 0
        if dealer is None:
            dealer = random.Random(seed ^ 0x5EED).randrange(opts.player_count)
        elif not isinstance(dealer, int) or not 0 <= dealer < opts.player_count:
            raise OptionsError(f"dealer must be a seat 0..{opts.player_count - 1}, not {dealer!r}")
        s.dealer = dealer
        s.log = None
        s._cache = None
        s._start_hand()
        return s

    def _commit_of(self, action: MeldDone | Take | Discard) -> Take | Meld | GoOut:
        """The melding a commit action makes from the staged melds."""
        if type(action) is MeldDone:
            return self._staged_meld_action()
        if type(action) is Take:
            return self._staged_take_action()
        return self._staged_discard_action(action)

    def _staged_discard_action(self, action: Discard) -> GoOut:
        """The going out a final discard commits (supplied by the games that have one)."""
        raise IllegalActionError(self.RULES["staging"], "commit or withdraw your staged melds "
                                 "before discarding")

    def apply_unchecked(self, action: Action) -> Self:
        """Apply an action known to be legal (from :meth:`legal_actions`), for search."""
        t = type(action)
        if t is not Take and t is not Meld and t is not GoOut:
            return self._apply_checked(action, None)  # never shorthand, needs no plan
        seq = self._expand(action)
        if seq is not None:
            s = self
            for a in seq:
                s = s.apply_unchecked(a)
            return s
        plan = used_counts(action) if (type(action) is Take or type(action) is Meld
                                       or type(action) is GoOut) else None
        return self._apply_checked(action, plan)

    # ------------------------------------------------------------------ dealing
    def _deal(self, attempt_seed: int) -> None:
        """Shuffle and deal: hands one card at a time from the dealer's left, any further
        packets (:meth:`_deal_packets`), the upcard (:meth:`_turn_upcard`), then dealt red
        threes laid out and replaced player by player.  A freak deal that empties the stock is
        dealt again by the same dealer."""
        rng = random.Random(attempt_seed)
        n = self.players
        for _attempt in range(1000):
            order = self._shuffled(rng)
            hands = self._deal_round(order, self.options.hand_size)
            self._deal_packets(order)
            turned = self._turn_upcard(order)
            if turned is None:
                continue
            red3 = [0] * n
            if not self._replace_dealt_red_threes(order, hands, red3, self._replace_red_threes()):
                continue
            break
        else:  # pragma: no cover - a freak deal a thousand times running
            raise RuntimeError(f"no playable deal in 1000 shuffles (seed {attempt_seed})")
        pile, frozen = turned
        self.stock = tuple(order)
        self.hands = tuple(hands)
        self.pile = tuple(pile)
        self.pile_frozen = frozen
        self.red3 = tuple(red3)
        self._log_deal(red3, pile)

    def _deal_packets(self, order: list[int]) -> None:
        """Deal further face-down packets after the hands (none by default)."""

    @abc.abstractmethod
    def _turn_upcard(self, order: list[int]) -> tuple[list[int], bool] | None:
        """Supplied by each game."""

    def _replace_red_threes(self) -> bool:
        """Whether dealt and drawn red threes are replaced from the stock."""
        return True

    def _shuffled(self, rng: random.Random) -> list[int]:
        """One uniform shuffle of the pack; the top of the stock is the end of the list."""
        order = list(range(self.pack.size))
        rng.shuffle(order)
        order.reverse()
        return order

    def _deal_round(self, order: list[int], count: int) -> list[int]:
        """Deal ``count`` cards to each seat one at a time from the dealer's left."""
        n = self.players
        out = [0] * n
        for _ in range(count):
            for k in range(1, n + 1):
                seat = (self.dealer + k) % n
                out[seat] |= 1 << order.pop()
        return out

    def _replace_dealt_red_threes(self, order: list[int], hands: list[int], red3: list[int],
                                  replace: bool = True) -> bool:
        """Lay out dealt red threes player by player from the dealer's left, each replaced from
        the stock (a replacement red three in turn).  False if the stock ran out."""
        n = self.players
        red = self.pack.red_threes
        for k in range(1, n + 1):
            seat = (self.dealer + k) % n
            while True:
                r3 = hands[seat] & red
                if not r3:
                    break
                hands[seat] &= ~r3
                red3[seat] |= r3
                if not replace:
                    break
                for _ in range(r3.bit_count()):
                    if not order:
                        return False
                    hands[seat] |= 1 << order.pop()
        return True

    def _log_deal(self, red3: Sequence[int], pile: Sequence[int]) -> None:
        """Log the set-up in the order it happens: the upcard (with any covering cards), then
        each player's red threes, placed and replaced (CC-4.7, CC-4.10; RR-4.7, RR-4.9)."""
        pack = self.pack
        self._log(-1, "", "upcard " + " ".join(str(pack.cards[c]) for c in pile)
                  + (" (pile frozen)" if self.pile_frozen else ""))
        for k in range(1, self.players + 1):
            seat = (self.dealer + k) % self.players
            placed = pack.cards_of(red3[seat])
            if placed:
                self._log(seat, "", "places " + " ".join(str(c) for c in placed))

    # ------------------------------------------------------------------ stock and pile
    def _draw_cards(self, seat: int, want: int, replace: bool = True) -> tuple[list[str], bool]:
        """Draw ``want`` cards one at a time for ``seat``; red threes are placed and (if
        ``replace``) replaced by the next stock card.  Returns the red threes placed and
        whether the last stock card drawn was a red three."""
        pack = self.pack
        red = pack.red_threes
        stock = self.stock
        top = len(stock)  # the cards above index ``top`` have been drawn
        hand = self.hands[seat]
        r3 = self.red3[seat]
        got = 0
        placed: list[str] = []
        last_red = False
        while got < want and top:
            top -= 1
            c = stock[top]
            if (red >> c) & 1:
                r3 |= 1 << c
                placed.append(pack.names[c])
                if not top:
                    last_red = True
                if not replace:
                    got += 1
                continue
            hand |= 1 << c
            got += 1
        self.stock = stock[:top]
        self.hands = set_item(self.hands, seat, hand)
        if r3 != self.red3[seat]:
            self.red3 = set_item(self.red3, seat, r3)
        return placed, last_red

    def _pile_rest_into_hand(self, seat: int) -> tuple[int, list[str]]:
        """After the upcard is melded, the rest of the pile joins the hand; red threes in it
        are placed and not replaced.  Returns the cards taken into hand and the red threes."""
        pack = self.pack
        red = pack.red_threes
        r3 = self.red3[seat]
        placed: list[str] = []
        took = 0
        for c in self.pile[:-1]:
            if (red >> c) & 1:
                r3 |= 1 << c
                placed.append(str(pack.cards[c]))
            else:
                took |= 1 << c
        hand = self.hands[seat] | took
        self.hands = set_item(self.hands, seat, hand)
        self.red3 = set_item(self.red3, seat, r3)
        self.known = set_item(self.known, seat, (self.known[seat] | took) & hand)
        self.pile_cards = took
        self.pile = ()
        self.pile_frozen = False
        self.took = True
        return took, placed

    def _pile_after_take(self) -> int:
        """Cards a take adds to the hand: the pile without its top card and red threes."""
        red = self.pack.red_threes
        return sum(1 for c in self.pile[:-1] if not (red >> c) & 1)

    def _discard_card(self, seat: int, kind: int, avoid: int = 0) -> int:
        """Move one card of ``kind`` from the hand to the pile (a card outside ``avoid`` if
        there is one); a wild card freezes the pile.  Returns the card id."""
        hand = self.hands[seat]
        d = self._pick(kind, 1, hand, avoid)
        cid = d.bit_length() - 1
        hand &= ~d
        self.hands = set_item(self.hands, seat, hand)
        self.known = set_item(self.known, seat, self.known[seat] & hand)
        self.pile = self.pile + (cid,)
        if kind in (JOKER, TWO):
            self.pile_frozen = True
        return cid

    # ------------------------------------------------------------------ end of the game
    def _game_result(self, scores: tuple[int, ...]) -> tuple[bool, tuple[int, ...]]:
        """After a hand is scored: the game ends when a score reaches the target; the highest
        score wins; a tie for the highest plays on, or shares the win, by ``tie_rule``."""
        target = self.options.target
        if max(scores) < target:
            return False, ()
        best = max(scores)
        top = tuple(i for i, v in enumerate(scores) if v == best)
        if len(top) == 1 or self.options.tie_rule == "shared":
            return True, top
        return False, ()

    # ------------------------------------------------------------------ misc
    def __repr__(self) -> str:
        return (f"<{type(self).__name__} players={self.players} hand={self.hand_no} "
                f"turn={self.turn} phase={self._phase}>")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, CanastaState):
            return NotImplemented
        return dump_position(self) == dump_position(other)

    __hash__ = None  # type: ignore[assignment]  # unhashable: a value compared by content
