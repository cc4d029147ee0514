"""Shanghai Rummy actions and their notation (docs/notation-shanghai.md).

Cards are named by kind (``7H``, ``10S``, ``AD``, ``JK``): the engine chooses which physical copy
moves.  A joker placed in a meld is written with its declared card, ``JK=7D``.  Canonical
forms::

    take                                  take the upcard as the draw (SH-10.2)
    draw                                  decline the upcard; after the buy window, draw from
                                          the stock (SH-10.3, SH-10.9)
    buy                                   buy the offered upcard (SH-10.4)
    pass                                  decline to buy it
    stage 7S 7H JK=7D                     stage one meld of the contract (SH-8.1); a run is
                                          written low to high
    withdraw                              withdraw the last staged meld (SH-8.1)
    withdraw all                          withdraw every staged meld
    contract done                         commit the staged melds as the contract (SH-8.1)
    contract 7S 7H JK=7D, 5S 6S JK=7S 8S  shorthand: stage each meld, then ``contract done``;
                                          melds separated by commas, sets first (by rank,
                                          2 … K, A), then runs (by suit S H D C, then lowest
                                          card).  Accepted, never listed as a legal action.
    layoff 9H -> 2                        lay off onto table meld number 2 (SH-9.1)
    layoff JK=4D -> 3                     lay off a joker, with its declared card (SH-7.4)
    layoff AS -> 3 low                    the end is written only when both ends fit (an ace
                                          on a 2…K run)
    swap 7D -> 2                          exchange meld 2's joker declared as 7D (SH-9.4)
    discard KH                            discard (ends the turn; SH-6.2)
    deal                                  deal the next deal

Parsing also accepts ``T`` for ten, lower case, suit symbols, the melds of a contract in any
order, runs' jokers written bare (``JK``, placed by their position), ``layoff JK -> 3 low``
(the end fixes the joker's card) and a physical copy in a discard (``discard 9C/1``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from meldhall.cards import SUIT_NAMES
from meldhall.errors import IllegalActionError, NotationError
from meldhall.game import Action
from meldhall.games.shanghai.rules import (
    JOKER_KIND,
    POS_NAMES,
    kind_at,
    kind_name,
    parse_kind,
    rank_of_kind,
    set_rank_key,
    suit_of_kind,
)

__all__ = [
    "BUY",
    "CONTRACT_DONE",
    "DEAL",
    "DRAW",
    "PASS",
    "TAKE",
    "WITHDRAW",
    "WITHDRAW_ALL",
    "Buy",
    "Contract",
    "ContractDone",
    "Deal",
    "Discard",
    "Draw",
    "LayOff",
    "Pass",
    "RunSpec",
    "SetSpec",
    "Stage",
    "Swap",
    "Take",
    "Withdraw",
    "discard_action",
    "layoff_action",
    "parse_meld",
    "parse_shanghai_action",
    "stage_action",
    "swap_action",
]


@dataclass(frozen=True, slots=True)
class SetSpec:
    """A set in a contract (SH-7.1): natural cards of ``rank`` in ``suits`` and jokers declared
    with the suits ``jokers`` (SH-7.4).

    Attributes:
        rank: 1 (ace) .. 13.
        suits: suits of the natural cards, sorted (repeats allowed, SH-7.1).
        jokers: declared suits of the jokers, sorted.
    """

    rank: int
    suits: tuple[int, ...]
    jokers: tuple[int, ...] = ()

    is_run: ClassVar[Literal[False]] = False

    @property
    def size(self) -> int:
        """Cards in the set."""
        return len(self.suits) + len(self.jokers)

    @property
    def key(self) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
        """Canonical sort key (sets before runs, by rank with aces high)."""
        return (0, set_rank_key(self.rank), self.suits, self.jokers)

    def natural_kinds(self) -> list[int]:
        """Kinds of the natural cards."""
        return [s * 13 + self.rank - 1 for s in self.suits]

    def declared(self) -> list[tuple[int, bool]]:
        """``(declared kind, is_joker)`` per card, naturals first."""
        return ([(s * 13 + self.rank - 1, False) for s in self.suits]
                + [(s * 13 + self.rank - 1, True) for s in self.jokers])

    def __str__(self) -> str:
        return " ".join(("JK=" if j else "") + kind_name(k) for k, j in self.declared())


@dataclass(frozen=True, slots=True)
class RunSpec:
    """A run in a contract (SH-7.2): positions ``lo .. lo + length - 1`` of ``suit``; bit ``i``
    of ``jokers`` set means a joker stands at position ``lo + i`` (SH-7.4).

    Positions: 1 = ace low, 2 … 13 = king, 14 = ace high.
    """

    suit: int
    lo: int
    length: int
    jokers: int = 0

    is_run: ClassVar[Literal[True]] = True

    @property
    def hi(self) -> int:
        """Highest position."""
        return self.lo + self.length - 1

    @property
    def size(self) -> int:
        """Cards in the run."""
        return self.length

    @property
    def joker_count(self) -> int:
        """Jokers in the run."""
        return self.jokers.bit_count()

    @property
    def key(self) -> tuple[int, int, int, int, int]:
        """Canonical sort key (runs after sets, by suit, then lowest position)."""
        return (1, self.suit, self.lo, self.length, self.jokers)

    def natural_kinds(self) -> list[int]:
        """Kinds of the natural cards."""
        return [kind_at(self.suit, self.lo + i) for i in range(self.length)
                if not (self.jokers >> i) & 1]

    def declared(self) -> list[tuple[int, bool]]:
        """``(declared kind, is_joker)`` per position, low to high."""
        return [(kind_at(self.suit, self.lo + i), bool((self.jokers >> i) & 1))
                for i in range(self.length)]

    def __str__(self) -> str:
        s = SUIT_NAMES[self.suit]
        return " ".join(("JK=" if (self.jokers >> i) & 1 else "") + POS_NAMES[self.lo + i] + s
                        for i in range(self.length))


MeldSpec = SetSpec | RunSpec


def _simple(name: str, doc: str) -> type[Action]:
    """The class of the action without arguments written ``name``: all its instances are equal."""

    class Simple(Action):
        __slots__ = ()
        __doc__ = doc

        def __str__(self) -> str:
            return name

        def __eq__(self, other: object) -> bool:
            return type(self) is type(other)

        def __hash__(self) -> int:
            return hash(name)

    Simple.__name__ = Simple.__qualname__ = name.capitalize()
    return Simple


Take = _simple("take", "Take the upcard as the draw (SH-10.2).")
Draw = _simple("draw", "Decline the upcard; after the buy window draw from the stock (SH-10.3, "
                       "SH-10.5, SH-10.9).")
Buy = _simple("buy", "Buy the offered upcard, with the top stock card as penalty (SH-10.4).")
Pass = _simple("pass", "Decline to buy the offered upcard (SH-10.3).")
Deal = _simple("deal", "Deal the next deal (SH-4.2).")
for _c in (Take, Draw, Buy, Pass, Deal):
    _c.__module__ = __name__
TAKE, DRAW, BUY, PASS, DEAL = Take(), Draw(), Buy(), Pass(), Deal()


@dataclass(frozen=True, slots=True, repr=False)
class Contract(Action):
    """The contract shorthand (SH-8.1): stage every meld, then commit.  Its text is the one the
    log and records carry for a commit; it is accepted but never listed as a legal action.

    Attributes:
        melds: the melds in canonical order (sets by rank, then runs by suit and position).
    """

    melds: tuple[MeldSpec, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "melds", tuple(sorted(self.melds, key=lambda m: m.key)))

    def __str__(self) -> str:
        return "contract " + ", ".join(str(m) for m in self.melds)

    @property
    def jokers(self) -> int:
        """Jokers laid down."""
        return sum(m.joker_count if m.is_run else len(m.jokers) for m in self.melds)


@dataclass(frozen=True, slots=True, repr=False)
class Stage(Action):
    """Stage one meld of the contract (SH-8.1, amended): checked now against SH-7.1–SH-7.5 and
    the contract's meld sizes; seen by nobody else; committed by :data:`CONTRACT_DONE`.

    Attributes:
        meld: a :class:`SetSpec` or :class:`RunSpec` (a run's jokers are declared by it).
    """

    meld: SetSpec | RunSpec
    PRIVATE = True

    def __str__(self) -> str:
        return f"stage {self.meld}"


@dataclass(frozen=True, slots=True, repr=False)
class Withdraw(Action):
    """Withdraw the last staged meld, or every staged meld when ``all`` (SH-8.1)."""

    all: bool = False
    PRIVATE = True

    def __str__(self) -> str:
        return "withdraw all" if self.all else "withdraw"


@dataclass(frozen=True, slots=True, repr=False)
class ContractDone(Action):
    """Commit the staged melds as the contract (SH-8.1; checked as a whole against
    SH-8.2–SH-8.4 and SH-8.7)."""

    def __str__(self) -> str:
        return "contract done"


WITHDRAW, WITHDRAW_ALL, CONTRACT_DONE = Withdraw(False), Withdraw(True), ContractDone()
_STAGES: dict[MeldSpec, Stage] = {}


def stage_action(meld: MeldSpec) -> Stage:
    """The shared :class:`Stage` action of ``meld``."""
    a = _STAGES.get(meld)
    if a is None:
        a = _STAGES[meld] = Stage(meld)
    return a


@dataclass(frozen=True, slots=True, repr=False)
class LayOff(Action):
    """Lay off one card onto table meld number ``meld`` (1-based, SH-9.1, SH-9.3).

    Attributes:
        kind: the card's kind (52 for a joker).
        meld: table meld number, 1 = the first meld laid down this deal.
        decl: a joker's declared kind (``None`` for a natural card, or a bare joker on a run
            whose ``end`` is given, until the state fills it in).
        end: ``"low"``/``"high"`` for a run when both ends would take the card, else ``None``.
    """

    kind: int
    meld: int
    decl: int | None = None
    end: str | None = None

    def __str__(self) -> str:
        if self.kind == JOKER_KIND:
            card = "JK" if self.decl is None else "JK=" + kind_name(self.decl)
        else:
            card = kind_name(self.kind)
        return f"layoff {card} -> {self.meld}" + (f" {self.end}" if self.end else "")


@dataclass(frozen=True, slots=True, repr=False)
class Swap(Action):
    """Exchange the joker declared as ``kind`` in table meld ``meld`` for a natural ``kind``
    from hand (SH-9.4, SH-9.5)."""

    kind: int
    meld: int

    def __str__(self) -> str:
        return f"swap {kind_name(self.kind)} -> {self.meld}"


@dataclass(frozen=True, slots=True, repr=False)
class Discard(Action):
    """Discard a card of ``kind`` (the engine chooses the copy), or the physical copy ``deck``
    when one is named (SH-6.2, SH-6.5)."""

    kind: int
    deck: int | None = None

    def __str__(self) -> str:
        return "discard " + kind_name(self.kind) + (f"/{self.deck}" if self.deck is not None
                                                    else "")


# the actions a state lists are shared values, so that ``apply`` knows them (State.apply)
_DISCARDS: dict[int, Discard] = {}
_LAYOFFS: dict[tuple[int, int, int | None, str | None], LayOff] = {}
_SWAPS: dict[tuple[int, int], Swap] = {}


def discard_action(kind: int) -> Discard:
    """The shared :class:`Discard` of ``kind`` (0..52; the engine chooses the copy)."""
    a = _DISCARDS.get(kind)
    if a is None:
        a = _DISCARDS[kind] = Discard(kind)
    return a


def layoff_action(kind: int, meld: int, decl: int | None, end: str | None) -> LayOff:
    """The shared :class:`LayOff` of these fields."""
    key = (kind, meld, decl, end)
    a = _LAYOFFS.get(key)
    if a is None:
        a = _LAYOFFS[key] = LayOff(kind, meld, decl, end)
    return a


def swap_action(kind: int, meld: int) -> Swap:
    """The shared :class:`Swap` of natural ``kind`` onto table meld number ``meld``."""
    key = (kind, meld)
    a = _SWAPS.get(key)
    if a is None:
        a = _SWAPS[key] = Swap(kind, meld)
    return a


# ---------------------------------------------------------------------------------------------
# parsing


def _card_token(tok: str, *, what: str) -> tuple[int, int | None]:
    """``(kind, declared kind or None)`` of a meld token (``7H``, ``JK=7D``, ``JK``; the
    rules' own way of writing a declared joker, ``Jk(7♦)``, is read as ``JK=7D``)."""
    t = tok.strip()
    if t.endswith(")") and "(" in t:
        head, _, inner = t[:-1].partition("(")
        t = f"{head}={inner}"
    body, eq, decl_txt = t.partition("=")
    kind, deck = parse_kind(body)
    if deck is not None:
        raise NotationError(f"{what}: write cards without a deck index ({tok!r}); the engine "
                            "chooses which copy moves")
    if eq:
        if kind != JOKER_KIND:
            raise NotationError(f"{what}: only a joker takes a declared card ('JK=7D'), "
                                f"not {tok!r}")
        dk, ddeck = parse_kind(decl_txt)
        if dk == JOKER_KIND or ddeck is not None:
            raise NotationError(f"{what}: a joker is declared as a natural card, e.g. JK=7D")
        return kind, dk
    if kind == JOKER_KIND:
        return kind, None
    return kind, kind


def parse_meld(tokens: list[str]) -> MeldSpec:
    """Read one meld of a contract: a set (one rank) or a run (one suit, low to high).

    Raises:
        NotationError: a token is not a card, or a set's joker has no declared suit.
        IllegalActionError: the cards form neither a set nor a run (SH-7.1, SH-7.2), a run
            turns the corner (SH-7.3), or a run's joker is declared off its place (SH-7.4).
    """
    cards = [_card_token(t, what="contract") for t in tokens]
    text = " ".join(tokens)
    decls = [d for _, d in cards if d is not None]
    if all(k == JOKER_KIND for k, _ in cards):
        raise IllegalActionError("SH-7.6", f"{text}: a meld holds more natural cards than "
                                 "jokers")
    ranks = {rank_of_kind(d) for d in decls}
    if len(ranks) == 1:
        rank = ranks.pop()
        if any(d is None for _, d in cards):
            raise NotationError(f"{text}: declare the suit of a joker in a set, e.g. JK="
                                f"{kind_name(rank - 1)}")
        declared = [(k, d) for k, d in cards if d is not None]  # every card, as just checked
        suits = tuple(sorted(suit_of_kind(d) for k, d in declared if k != JOKER_KIND))
        jokers = tuple(sorted(suit_of_kind(d) for k, d in declared if k == JOKER_KIND))
        return SetSpec(rank, suits, jokers)
    suits_seen = {suit_of_kind(d) for d in decls}
    if len(suits_seen) != 1:
        # a natural card's declared kind is its own kind
        nat_suits = {suit_of_kind(k) for k, _ in cards if k != JOKER_KIND}
        if len(nat_suits) == 1:
            raise IllegalActionError("SH-7.4", f"{text}: a joker in a run takes the run's suit")
        raise IllegalActionError(
            "SH-7.2", f"{text} is neither a set (one rank, SH-7.1) nor a run (one suit in "
            "sequence, SH-7.2)")
    suit = suits_seen.pop()
    lo = _run_lo(cards)
    if lo is None:
        # would the cards be consecutive if the ranks wrapped round from K to A to 2?
        if _wraps(cards):
            raise IllegalActionError(
                "SH-7.3", f"{text}: a run may not turn the corner (K-A-2)")
        raise IllegalActionError(
            "SH-7.2", f"{text}: a run's cards must be consecutive, written low to high")
    joker_mask = 0
    for i, (k, _) in enumerate(cards):
        if k == JOKER_KIND:
            joker_mask |= 1 << i
    return RunSpec(suit, lo, len(cards), joker_mask)


def _positions(kind: int) -> tuple[int, ...]:
    r = rank_of_kind(kind)
    return (1, 14) if r == 1 else (r,)


def _run_lo(cards: list[tuple[int, int | None]]) -> int | None:
    """Lowest position of a run written low to high, or ``None`` if the cards are not
    consecutive within A(1) … A(14).  ``cards``: ``(kind, declared kind or None)``, at least
    one declared."""
    n = len(cards)
    first, d0 = next((i, d) for i, (_, d) in enumerate(cards) if d is not None)
    for p in _positions(d0):
        lo = p - first
        if lo < 1 or lo + n - 1 > 14:
            continue
        if all(d is None or lo + j in _positions(d) for j, (_, d) in enumerate(cards)):
            return lo
    return None


def _wraps(cards: list[tuple[int, int | None]]) -> bool:
    """True if the cards would be consecutive with ranks wrapping K-A-2 (a corner)."""
    first, d0 = next((i, d) for i, (_, d) in enumerate(cards) if d is not None)
    r0 = rank_of_kind(d0)
    return all(d is None or rank_of_kind(d) == (r0 - 1 + j - first) % 13 + 1
               for j, (_, d) in enumerate(cards))


_ENDS = ("low", "high")


def _meld_number(txt: str, what: str) -> int:
    t = txt.strip()
    if not t.isdigit() or int(t) < 1:
        raise NotationError(f"{what}: after '->' write the table meld number (1, 2, …)")
    return int(t)


def parse_shanghai_action(text: str) -> Action:
    """Read an action in notation (module docstring), without looking at the table.

    ``layoff JK -> N low`` is returned with ``decl=None``; :meth:`ShanghaiState.parse_action`
    fills in the declared card and drops redundant ends.

    Raises:
        NotationError: not an action; the message says what was expected.
        IllegalActionError: a contract meld no rule allows (SH-7.1–SH-7.4).
    """
    raw = " ".join(text.strip().split())
    if not raw:
        raise NotationError("empty action: try take, draw, buy, pass, stage, withdraw, "
                            "contract done, layoff, swap, discard or deal")
    head, _, rest = raw.partition(" ")
    head = head.lower()
    rest = rest.strip()
    simple = {"take": TAKE, "draw": DRAW, "buy": BUY, "pass": PASS, "deal": DEAL}
    if head in simple:
        if rest:
            raise NotationError(f"{head!r} takes no arguments")
        return simple[head]
    if head == "discard":
        toks = rest.split()
        if len(toks) != 1:
            raise NotationError("discard takes exactly one card, e.g. 'discard KH'")
        kind, deck = parse_kind(toks[0])
        return Discard(kind, deck)
    if head == "stage":
        if not rest:
            raise NotationError("stage needs one meld, e.g. 'stage 7S 7H JK=7D' or "
                                "'stage 5S 6S JK=7S 8S'")
        if "," in rest:
            raise NotationError("stage takes one meld; stage the others one at a time")
        return stage_action(parse_meld(rest.split()))
    if head in ("withdraw", "undo"):  # "undo": the staged-melds buttons' word (SH-8.1)
        if not rest:
            return WITHDRAW
        if rest.lower() == "all":
            return WITHDRAW_ALL
        raise NotationError("write 'withdraw' (the last staged meld) or 'withdraw all'")
    if head == "contract":
        if rest.lower() == "done":
            return CONTRACT_DONE
        if not rest:
            raise NotationError("contract needs its melds, e.g. "
                                "'contract 7S 7H JK=7D, 5S 6S 7S 8S'")
        groups = [g.split() for g in rest.split(",")]
        if any(not g for g in groups):
            raise NotationError("contract: empty meld between commas")
        return Contract(tuple(parse_meld(g) for g in groups))
    if head in ("layoff", "swap"):
        card_txt, arrow, target = rest.partition("->")
        if not arrow or not card_txt.strip():
            raise NotationError(f"{head} needs a card and a meld number, e.g. "
                                + ("'layoff 9H -> 2'" if head == "layoff" else "'swap 7D -> 2'"))
        ttoks = target.split()
        if not ttoks:
            raise NotationError(f"{head}: after '->' write the table meld number")
        meld = _meld_number(ttoks[0], head)
        ctoks = card_txt.split()
        if len(ctoks) != 1:
            raise NotationError(f"{head} moves exactly one card")
        if head == "swap":
            if len(ttoks) != 1:
                raise NotationError("swap: nothing may follow the meld number")
            kind, deck = parse_kind(ctoks[0])
            if deck is not None:
                raise NotationError("swap: write the card without a deck index")
            if kind == JOKER_KIND:
                raise NotationError("swap names the natural card that replaces the joker, "
                                    "e.g. 'swap 7D -> 2'")
            return Swap(kind, meld)
        end = None
        if len(ttoks) == 2:
            end = ttoks[1].lower()
            if end not in _ENDS:
                raise NotationError("layoff: the end of a run is 'low' or 'high'")
        elif len(ttoks) > 2:
            raise NotationError("layoff: write 'layoff CARD -> N' or 'layoff CARD -> N low'")
        kind, decl = _card_token(ctoks[0], what="layoff")
        if kind != JOKER_KIND:
            decl = None
        return LayOff(kind, meld, decl, end)
    raise NotationError(f"{head!r} is not a move; the moves are take, draw, buy, pass, stage, "
                        "withdraw (or undo), contract done, contract, layoff, swap, discard or "
                        "deal")
