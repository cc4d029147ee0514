"""Actions of the canasta games and their notation (docs/notation.md).

In the canasta games suits never matter to the rules except to tell red threes from black
(CC-2.4), so actions name cards by *kind*: a natural rank (``A``, ``K`` … ``4``), ``2``,
``JK`` or ``3`` (a black three; red threes are never held).  The engine chooses which
physical copies move.  Canonical forms::

    draw                          draw from the stock
    take                          take the pile by adding the upcard to the side's meld
    take 8 8                      take the pile melding the upcard with 8 8 from hand
    take 8 8 2, K K JK            … with further new melds (a side's first melding)
    meld K K 2                    a new meld
    meld A A A, K K 2             several new melds at once (a side's first melding)
    meld 3 3 3                    black threes, only when going out
    add 9 9 2 -> 9                add cards to the side's meld of 9s
    out 7 7 7 7 7 7 7, J J JK; discard 4    go out concealed in one action (shorthand)
    stage K K 2                   stage a new meld (a side that has not melded, CC-6.9)
    stage 8 8 2 + upcard          stage the upcard's meld for a take (draw phase, CC-6.9)
    withdraw                      withdraw the last staged meld
    withdraw all                  withdraw every staged meld
    meld done                     commit the staged melds (a first melding, CC-6.9)
    discard K                     discard (ends the turn)
    ask 2                         "partner (seat 2), may I go out?"
    yes / no                      the partner's answer
    pass                          decline the pile when the stock is empty (ends the hand),
                                  end a turn without a discard where a rule allows it, or
                                  leave the kitty untaken (Railroad)
    kitty                         take the kitty into hand (Railroad)
    go out                        go out after the last discard, kitty untaken (Railroad)
    meld 2 2 JK                   a wild meld (Railroad); add to it with 'add 2 -> wild'
    deal                          deal the next hand

Parsing accepts suited cards (``8H 8S``), ``T`` for ten, lower case and suit symbols.

The action classes are final: the engine dispatches on ``type(action) is Take`` and so on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import final

from meldhall.cards import ACE, JOKER, RANK_NAMES, Card, parse_card
from meldhall.errors import IllegalActionError, NotationError
from meldhall.game import Action

__all__ = [
    "TWO", "BLACK_THREE", "NATURAL_RANKS", "MeldSpec", "Draw", "Take", "Meld", "Add",
    "Discard", "GoOut", "Ask", "Answer", "Pass", "Deal", "Kitty", "GoOutNow", "Stage",
    "Withdraw", "MeldDone", "canonical_specs",
    "CLASSIC_PARSE_RULES", "RAILROAD_PARSE_RULES", "parse_canasta_action", "rank_order",
    "format_kind", "parse_kind",
]

TWO = 2
BLACK_THREE = 3
#: Natural ranks of the canasta games, A K Q J 10 9 8 7 6 5 4 (CC-3.2).
NATURAL_RANKS = (1, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4)


def rank_order(rank: int) -> int:
    """Sort key putting aces above kings (A K Q … 4 3 2 JK, high first when negated)."""
    return 14 if rank == ACE else rank


def format_kind(kind: int) -> str:
    """Kind -> notation: ``JK``, ``A``, ``2``, ``3`` (black three), ``4`` … ``K``."""
    return RANK_NAMES[kind]


_RANK_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


def rank_word(kind: int, plural: bool = False) -> str:
    """A natural rank in a player's words: ``ace``/``aces``, ``king``, ``9``/``9s``."""
    word = _RANK_WORDS.get(kind, RANK_NAMES[kind])
    return word + "s" if plural else word


#: Rule IDs the parser cites, per game (keys: red_three, needs_naturals, one_rank, take_rank,
#: add_kind).
CLASSIC_PARSE_RULES = {"red_three": "CC-9.1", "needs_naturals": "CC-6.2", "one_rank": "CC-6.1",
                       "take_rank": "CC-8.5", "add_kind": "CC-6.1", "add_wild": "CC-6.2"}
RAILROAD_PARSE_RULES = {"red_three": "RR-9.1", "needs_naturals": "RR-6.2", "one_rank": "RR-6.2",
                        "take_rank": "RR-8.4", "add_kind": "RR-6.2", "add_wild": "RR-6.4"}


def parse_kind(token: str, rules: dict[str, str] = CLASSIC_PARSE_RULES) -> int:
    """Read one card token as a kind (suit dropped).

    Raises:
        NotationError: not a card or rank.
        IllegalActionError: a red three (CC-9.1: red threes are never held or melded).
    """
    t = token.strip()
    if not t:
        raise NotationError("expected a card, e.g. K, 10, 2, JK or 3")
    card = parse_card(t, suit_required=False)
    if card.rank == 3 and card.suit in (1, 2):
        raise IllegalActionError(
            rules["red_three"],
            f"{t} is a red three: red threes are laid out at once, never held or melded")
    return card.rank


@dataclass(frozen=True, slots=True)
class MeldSpec:
    """Cards for one meld: ``naturals`` cards of ``rank`` plus ``twos`` and ``jokers``.

    Attributes:
        rank: the meld's rank (a natural rank, or 3 for a black-three meld).
        naturals, twos, jokers: card counts.
    """

    rank: int
    naturals: int
    twos: int = 0
    jokers: int = 0

    @property
    def wilds(self) -> int:
        """Wild cards in the spec."""
        return self.twos + self.jokers

    @property
    def size(self) -> int:
        """Cards in the spec."""
        return self.naturals + self.twos + self.jokers

    def tokens(self) -> list[str]:
        """Notation tokens: naturals, then ``2``s, then ``JK``s."""
        return [format_kind(self.rank)] * self.naturals + ["2"] * self.twos + ["JK"] * self.jokers

    def __str__(self) -> str:
        return " ".join(self.tokens())


def canonical_specs(melds: Iterable[MeldSpec]) -> tuple[MeldSpec, ...]:
    """Melds in notation order (by rank A K … 4 3, then wild melds; larger first within a
    rank), so that one set of melds has one notation."""
    return _canonical(melds)


def _canonical(melds: Iterable[MeldSpec]) -> tuple[MeldSpec, ...]:
    # by rank (A K … 4 3, then wild melds); melds of one rank (Railroad: a canasta beside a
    # new meld, RR-6.7) larger first, so that one set of melds has one notation
    return tuple(sorted(melds, key=lambda m: (-rank_order(m.rank), -m.size, -m.naturals,
                                              -m.twos)))


@final
@dataclass(frozen=True, slots=True, repr=False)
class Draw(Action):
    """Draw from the stock (CC-5.3, CC-5.4)."""

    def __str__(self) -> str:
        return "draw"


@final
@dataclass(frozen=True, slots=True, repr=False)
class Take(Action):
    """Take the whole discard pile (CC-8).

    Attributes:
        rank: the upcard's rank.
        naturals, twos, jokers: hand cards melded with the upcard (all zero: the upcard alone
            is added to the side's meld of its rank, CC-8.6(c)).
        extra: further new melds from hand, for a side's first melding (CC-7.4, CC-8.7).
    """

    rank: int
    naturals: int = 0
    twos: int = 0
    jokers: int = 0
    extra: tuple[MeldSpec, ...] = ()

    def __str__(self) -> str:
        own = [format_kind(self.rank)] * self.naturals + ["2"] * self.twos + ["JK"] * self.jokers
        text = " ".join(["take"] + own)
        if self.extra:
            text += ", " + ", ".join(str(m) for m in self.extra)
        return text


@final
@dataclass(frozen=True, slots=True, repr=False)
class Meld(Action):
    """Lay down one or more new melds (CC-6.1–CC-6.5; several only as a first melding, CC-6.9)."""

    melds: tuple[MeldSpec, ...]

    def __str__(self) -> str:
        return "meld " + ", ".join(str(m) for m in self.melds)


@final
@dataclass(frozen=True, slots=True, repr=False)
class Add(Action):
    """Add cards to the side's meld of ``rank`` (CC-6.5): ``naturals`` of that rank plus
    ``twos`` and ``jokers``."""

    rank: int
    naturals: int = 0
    twos: int = 0
    jokers: int = 0

    @property
    def size(self) -> int:
        """Cards added."""
        return self.naturals + self.twos + self.jokers

    def __str__(self) -> str:
        cards = MeldSpec(self.rank, self.naturals, self.twos, self.jokers)
        return "add " + str(cards) + " -> " + ("wild" if self.rank == JOKER else
                                                format_kind(self.rank))


@final
@dataclass(frozen=True, slots=True, repr=False)
class GoOut(Action):
    """Go out concealed in one action: every meld plus an optional final discard (CC-6.9)."""

    melds: tuple[MeldSpec, ...]
    discard: int | None = None

    def __str__(self) -> str:
        text = "out " + ", ".join(str(m) for m in self.melds)
        if self.discard is not None:
            text += "; discard " + format_kind(self.discard)
        return text


@final
@dataclass(frozen=True, slots=True, repr=False)
class Stage(Action):
    """Stage one new meld (CC-6.9 (a), RR-6.11): the cards stay in the hand, seen by nobody
    else, until a commit (``meld done``, the take, or the final discard).

    Attributes:
        spec: the meld's cards from hand, by kind and counts.
        upcard: True for the upcard's meld of a take (draw phase): the upcard joins ``spec``'s
            cards when the take commits.
    """

    spec: MeldSpec
    upcard: bool = False
    PRIVATE = True

    def __str__(self) -> str:
        return "stage " + str(self.spec) + (" + upcard" if self.upcard else "")


@final
@dataclass(frozen=True, slots=True, repr=False)
class Withdraw(Action):
    """Withdraw the last staged meld, or (``all``) every staged meld (CC-6.9 (b))."""

    all: bool = False
    PRIVATE = True

    def __str__(self) -> str:
        return "withdraw all" if self.all else "withdraw"


@final
@dataclass(frozen=True, slots=True, repr=False)
class MeldDone(Action):
    """Commit the staged melds as one first melding (CC-6.9 (c), CC-7.1; RR-6.11, RR-7)."""

    def __str__(self) -> str:
        return "meld done"


@final
@dataclass(frozen=True, slots=True, repr=False)
class Discard(Action):
    """Discard one card of ``kind``, ending the turn (CC-5.2)."""

    kind: int

    def __str__(self) -> str:
        return "discard " + format_kind(self.kind)


@final
@dataclass(frozen=True, slots=True, repr=False)
class Ask(Action):
    """Ask partner ``partner``: "may I go out?" (CC-10.5)."""

    partner: int

    def __str__(self) -> str:
        return f"ask {self.partner}"


@final
@dataclass(frozen=True, slots=True, repr=False)
class Answer(Action):
    """The partner's answer to "may I go out?" (CC-10.5)."""

    yes: bool

    def __str__(self) -> str:
        return "yes" if self.yes else "no"


@final
@dataclass(frozen=True, slots=True, repr=False)
class Pass(Action):
    """Decline the pile with the stock empty (CC-11.3), or end a turn that has no discard."""

    def __str__(self) -> str:
        return "pass"


@final
@dataclass(frozen=True, slots=True, repr=False)
class Kitty(Action):
    """Take the kitty into hand (Railroad Canasta, RR-10.3)."""

    def __str__(self) -> str:
        return "kitty"


@final
@dataclass(frozen=True, slots=True, repr=False)
class GoOutNow(Action):
    """Go out after the last discard instead of taking the kitty (Railroad, RR-11.7)."""

    def __str__(self) -> str:
        return "go out"


@final
@dataclass(frozen=True, slots=True, repr=False)
class Deal(Action):
    """Deal the next hand (CC-4)."""

    def __str__(self) -> str:
        return "deal"


def _meld_specs(text: str, *, what: str, rules: dict[str, str]) -> tuple[MeldSpec, ...]:
    specs = []
    for g in (g.strip() for g in text.split(",")):
        if not g:
            raise NotationError(f"{what}: empty meld between commas")
        specs.append(_one_spec(g.split(), rules=rules))
    return _canonical(specs)


def _one_spec(tokens: list[str], *, rules: dict[str, str]) -> MeldSpec:
    """One meld's cards; cards that are all wild make a wild meld (rank 0, Railroad)."""
    kinds = [parse_kind(t, rules) for t in tokens]
    naturals = [k for k in kinds if k not in (TWO, JOKER)]
    twos = kinds.count(TWO)
    jokers = kinds.count(JOKER)
    if not naturals:
        return MeldSpec(JOKER, 0, twos, jokers)
    if len(set(naturals)) > 1:
        raise IllegalActionError(
            rules["one_rank"], f"{' '.join(tokens)}: a meld is of one rank only (runs are not "
            "melds)")
    return MeldSpec(naturals[0], len(naturals), twos, jokers)


def with_article(kind: int) -> str:
    """``"an A"``, ``"an 8"``, ``"a K"``."""
    name = format_kind(kind)
    return ("an " if name in ("A", "8") else "a ") + name


_article = with_article


_TOKEN_SPLIT = re.compile(r"\s+")


def parse_canasta_action(text: str, *, top_rank: int | None = None,
                         rules: dict[str, str] = CLASSIC_PARSE_RULES) -> Action:
    """Read a canasta action in notation (see the module docstring).

    Args:
        text: the action text.
        top_rank: rank of the upcard, to read ``take 8 8`` (needed only for ``take``).
        rules: the game's rule IDs for refusals the parser itself makes.

    Raises:
        NotationError: the text is not an action; the message lists the forms.
        IllegalActionError: the text names something no rule allows (a red three, a meld of
            mixed ranks), with the rule ID.
    """
    raw = text.strip()
    if not raw:
        raise NotationError("empty action: try draw, take, meld, stage, add or discard")
    head, _, rest = raw.partition(" ")
    head = head.lower()
    rest = rest.strip()
    if head in ("draw", "yes", "no", "pass", "deal", "kitty") and rest:
        raise NotationError(f"{head!r} takes no arguments")
    if head == "kitty":
        return Kitty()
    if head == "go":
        if rest.lower() != "out":
            raise NotationError("did you mean 'go out'?")
        return GoOutNow()
    if head == "draw":
        return Draw()
    if head == "yes":
        return Answer(True)
    if head == "no":
        return Answer(False)
    if head == "pass":
        return Pass()
    if head == "deal":
        return Deal()
    if head == "discard":
        toks = rest.split()
        if len(toks) != 1:
            raise NotationError("discard takes exactly one card, e.g. 'discard K'")
        return Discard(parse_kind(toks[0], rules))
    if head == "ask":
        if not rest:
            return Ask(-1)  # partner to be filled in by the state when unambiguous
        if not rest.isdigit():
            raise NotationError("ask takes a partner's seat number, e.g. 'ask 2'")
        return Ask(int(rest))
    if head in ("withdraw", "undo"):
        # "undo" is the word of the terminal's and the web's staged-melds buttons (CC-6.9)
        if rest.lower() not in ("", "all"):
            raise NotationError("write 'withdraw' (the last staged meld) or 'withdraw all'")
        return Withdraw(rest.lower() == "all")
    if head == "stage":
        body, plus, up = rest.partition("+")
        if plus and up.strip().lower() not in ("upcard", "up", "pile"):
            raise NotationError("stage the upcard's meld as 'stage 8 8 + upcard'")
        if not body.strip():
            raise NotationError("stage needs one meld's cards, e.g. 'stage K K 2'")
        if "," in body:
            raise NotationError("stage one meld at a time (e.g. 'stage K K 2'), or write the "
                                "whole melding as 'meld A A A, K K 2'")
        return Stage(_one_spec(body.split(), rules=rules), bool(plus))
    if head == "meld":
        if rest.lower() == "done":
            return MeldDone()
        if not rest:
            raise NotationError("meld needs cards, e.g. 'meld K K 2' or 'meld A A A, 7 7 7'")
        return Meld(_meld_specs(rest, what="meld", rules=rules))
    if head == "add":
        cards, arrow, target = rest.partition("->")
        if not arrow:
            raise NotationError("add needs a target meld: 'add 9 9 -> 9' or 'add 2 -> K'")
        target = target.strip()
        if not target:
            raise NotationError("add needs a target meld rank after '->'")
        rank = JOKER if target.lower() in ("wild", "w") else parse_kind(target, rules)
        kinds = [parse_kind(t, rules) for t in cards.split()]
        if not kinds:
            raise NotationError("add needs at least one card before '->'")
        wrong = [k for k in kinds if k not in (rank, TWO, JOKER)]
        if wrong and rank in (TWO, JOKER):
            raise IllegalActionError(
                rules["add_wild"],
                f"{_article(wrong[0])} cannot join a wild meld (wild cards only)")
        if wrong:
            raise IllegalActionError(
                rules["add_kind"],
                # not "a 4 cannot join a meld of 9s", which read as if a meld of 9s were
                # on the table
                f"only {format_kind(rank)}s and wild cards can be added to a meld of "
                f"{format_kind(rank)}s, not {_article(wrong[0])}")
        if rank in (TWO, JOKER):
            return Add(rank, 0, kinds.count(TWO), kinds.count(JOKER))
        return Add(rank, kinds.count(rank), kinds.count(TWO), kinds.count(JOKER))
    if head == "take":
        first, _, extra_txt = rest.partition(",")
        kinds = [parse_kind(t, rules) for t in first.split()]
        naturals = [k for k in kinds if k not in (TWO, JOKER)]
        ranks = set(naturals)
        if top_rank is not None:
            ranks.add(top_rank)
        if len(ranks) > 1:
            raise IllegalActionError(
                rules["take_rank"], "the natural cards melded with the upcard must be of its rank"
                + (f" ({format_kind(top_rank)})" if top_rank is not None else "")
            )
        if not ranks:
            raise NotationError("take: the upcard's rank is not known here; write e.g. 'take 8 8'")
        extra = _meld_specs(extra_txt, what="take", rules=rules) if extra_txt.strip() else ()
        return Take(ranks.pop(), len(naturals), kinds.count(TWO), kinds.count(JOKER), extra)
    if head == "out":
        body, _, disc = rest.partition(";")
        discard = None
        disc = disc.strip()
        if disc:
            dh, _, dcard = disc.partition(" ")
            if dh.lower() != "discard" or not dcard.strip():
                raise NotationError("out: after ';' write 'discard CARD'")
            discard = parse_kind(dcard.strip(), rules)
        if not body.strip():
            raise NotationError("out needs the melds, e.g. 'out 7 7 7 7 7 7 7, J J JK; discard 4'")
        return GoOut(_meld_specs(body, what="out", rules=rules), discard)
    # the moves of this game only (Railroad Canasta has a kitty and no partners to ask)
    moves = ("draw, take, meld, stage, withdraw (or undo), add, discard, kitty, pass or deal"
             if rules.get("red_three", "").startswith("RR") else
             "draw, take, meld, stage, withdraw (or undo), add, discard, out, ask, yes, no, "
             "pass or deal")
    raise NotationError(f"{head!r} is not a move; the moves are {moves}")


def token_kind(card: Card) -> int:
    """Kind of a physical card (its rank; jokers 0)."""
    return JOKER if card.rank == JOKER else card.rank
