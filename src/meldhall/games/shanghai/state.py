"""Shanghai Rummy: the game state and its rules (docs/rules/shanghai-rummy.md, SH-1 … SH-14).

A :class:`ShanghaiState` is an immutable value covering a whole game: every deal from the deal
to the score sheet.  Hands, stock and pile hold physical card ids of a
:class:`~meldhall.cards.Pack`; hands are ``int`` bitmasks; melds are
:class:`~meldhall.games.shanghai.table.TableMeld` values numbered 1, 2, … in the order they
were laid down.

Phases (``state.phase``) and who acts (``state.to_act``):

* ``"upcard"`` — the player in turn takes the upcard as their draw (``take``) or declines it
  (``draw``) (SH-10.2).
* ``"buy"`` — the upcard is offered to one eligible player at a time, in SH-10.3 order; the
  one asked answers ``buy`` or ``pass``.  When someone buys or all have passed, the player in
  turn draws from the stock (SH-10.5, SH-10.9) and the meld phase begins.
* ``"meld"`` — the player in turn makes the contract, lays off, exchanges jokers, and ends the
  turn with ``discard`` (SH-6.1).  The contract is built by staging its melds one at a time
  (``stage …``, ``withdraw``, ``withdraw all``) and committed with ``contract done`` (SH-8.1).
  Staged melds are the player in turn's private part of the state (``staged``, as meld specs:
  the hand is unchanged until the commit picks the physical copies), with the number of stage
  actions this turn (``stages``, at most :data:`STAGE_LIMIT`).
* ``"deal_end"`` — the deal has been scored (``outcome``); the next dealer plays ``deal``.
* ``"game_over"`` — the game has ended (SH-14).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from itertools import compress
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias, TypeVar

from meldhall.cards import Card, Pack, choose_copies, copy_key4, hand_key
from meldhall.errors import IllegalActionError, OptionsError
from meldhall.game import Action, Outcome, SideResult, State
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
    Buy,
    Contract,
    ContractDone,
    Deal,
    Discard,
    Draw,
    LayOff,
    MeldSpec,
    Pass,
    RunSpec,
    SetSpec,
    Stage,
    Swap,
    Take,
    Withdraw,
    discard_action,
    layoff_action,
    parse_shanghai_action,
    stage_action,
    swap_action,
)
from meldhall.games.shanghai.options import ShanghaiOptions
from meldhall.games.shanghai.rules import (
    CONTRACTS,
    JOKER_KIND,
    joker_limit,
    kind_at,
    kind_name,
    rank_of_kind,
    suit_of_kind,
)
from meldhall.games.shanghai.rules import (
    Contract as ContractRule,
)
from meldhall.games.shanghai.solver import (
    SET_RANK_ORDER,
    SolverRules,
    contract_options,
    run_candidates,
    run_windows,
    set_candidates,
)
from meldhall.games.shanghai.scoring import game_result, score_deal
from meldhall.games.shanghai.table import TableMeld, kind_masks


def _count(n: int, word: str) -> str:
    """``1 set``, ``2 runs``, ``0 runs``: a count for a refusal a player reads (not "set(s)")."""
    return f"{n} {word}{'' if n == 1 else 's'}"

if TYPE_CHECKING:
    from meldhall.games.shanghai.observation import ShanghaiObservation

__all__ = [
    "BUY_PHASE",
    "DEAL_END",
    "GAME_OVER",
    "HAND_SIZE",
    "LogEntry",
    "LogNode",
    "MELD",
    "PHASES",
    "STAGE_LIMIT",
    "UPCARD",
    "ShanghaiState",
    "choose_dealer",
    "new_game",
]

UPCARD, BUY_PHASE, MELD, DEAL_END, GAME_OVER = "upcard", "buy", "meld", "deal_end", "game_over"
PHASES = (UPCARD, BUY_PHASE, MELD, DEAL_END, GAME_OVER)
#: SH-4.3: cards dealt to each player.
HAND_SIZE = 11
#: SH-8.1 (amended): stage actions a player may take in one turn.  The largest contract has
#: four melds (SH-5.2), so twelve leave room for eight mistakes; ``withdraw`` and
#: ``withdraw all`` stay legal at the bound, so a turn always ends.
STAGE_LIMIT = 12
_STAGING = (Stage, Withdraw, ContractDone)

#: One entry of the log: ``(seat, action text, public note, private detail)``; seat -1 for the
#: table (a deal, a rebuild), an empty action text for what nobody chose (a draw, a deal's end).
LogEntry: TypeAlias = tuple[int, str, str, str]
#: An entry as the log keeps it: the action itself may stand for its text, which is then
#: written only when the log is read (:func:`entry_text`).
StoredEntry: TypeAlias = tuple[int, "str | Action", str, str]
#: The log as a linked list, newest entry first: ``(older node, entry)``, ``None`` when empty
#: (so that a new state shares its predecessor's log).
LogNode: TypeAlias = "tuple[LogNode, StoredEntry] | None"
#: What :meth:`ShanghaiState._plan` found: the card id of a discard, the contract of a commit
#: or shorthand, ``(meld index, declared kind, position or None)`` of a lay-off, ``(meld index,
#: position in the meld)`` of a joker exchange, else ``None``.
_Plan: TypeAlias = "int | Contract | tuple[int, int, int | None] | tuple[int, int] | None"

_T = TypeVar("_T")


def _set(t: tuple[_T, ...], i: int, v: _T) -> tuple[_T, ...]:
    return t[:i] + (v,) + t[i + 1:]


def _mix(*parts: int) -> int:
    x = 0x9E3779B97F4A7C15
    for p in parts:
        x = (x ^ (p & 0xFFFFFFFFFFFFFFFF)) * 0x100000001B3 & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 29
    return x


def choose_dealer(draw: Callable[[], Card], players: int) -> tuple[int, list[tuple[int, Card]]]:
    """SH-4.1: each player draws a card; the lowest deals (ace low, suits ignored); a joker is
    redrawn by the player who drew it; players tied for lowest draw again among themselves.

    Args:
        draw: a callable returning the next :class:`~meldhall.cards.Card` of the shuffled pack.
        players: number of seats; seat 0 draws first, then clockwise.

    Returns:
        ``(dealer, draws)`` with ``draws`` the ``(seat, card)`` pairs in order.
    """
    contenders = list(range(players))
    events: list[tuple[int, Card]] = []
    while True:
        ranks: dict[int, int] = {}
        for s in contenders:
            while True:
                c = draw()
                events.append((s, c))
                if c.rank != 0:
                    break
            ranks[s] = c.rank
        low = min(ranks.values())
        tied = [s for s in contenders if ranks[s] == low]
        if len(tied) == 1:
            return tied[0], events
        contenders = tied



def with_secret(note: str, secret: str) -> str:
    """A log note with its private detail, for the seat it belongs to: ``draws from the stock
    (K♠)``; one pair of brackets where the note ends in one (``buys 2♠ with a penalty card
    (buy 1 of 3; penalty card K♠)``, not ``(buy 1 of 3) (penalty card K♠)``)."""
    if not note:
        return secret
    return f"{note[:-1]}; {secret})" if note.endswith(")") else f"{note} ({secret})"

class ShanghaiState(State):
    """A Shanghai Rummy game in progress.  Build one with :func:`new_game`.

    Public read-only attributes (plain values): ``options``, ``seed``, ``pack``, ``hand_no``
    (the deal, 0-based), ``dealer``, ``first_dealer``, ``turn``, ``scores`` (cumulative, per
    seat), ``deal_scores`` (per finished deal, per seat), ``stock`` (card ids, top last),
    ``pile`` (card ids, bottom first), ``hands`` (bitmasks), ``melds`` (tuple of
    :class:`TableMeld`, meld N is ``melds[N - 1]``), ``made`` (bitmask of seats that made the
    contract this deal), ``buys`` (per seat, this deal), ``rebuilds`` (this deal), ``known``
    (per seat, cards publicly known to be in that hand), ``took_kinds`` and
    ``declined_kinds`` (per seat, this deal: bitmasks over the 53 kinds, bit ``kind``, of the
    kinds the seat took or bought from the pile, and of those it discarded or declined as
    the upcard; what every player saw, kept so that bots need not read the log).  Use
    :meth:`observation` for what a seat may see.
    """

    game_name = "shanghai-rummy"
    HIGH_SCORE_WINS = False  # SH-13: hand scores are penalty points; the lowest total wins

    __slots__ = (
        "_cache",
        "_facts",
        "_outcome",
        "_phase",
        "buys",
        "contract_now",
        "deal_scores",
        "declined_kinds",
        "dealer",
        "extra_seats",
        "first_dealer",
        "hand_no",
        "hands",
        "jokers_now",
        "known",
        "log",
        "log_mark",
        "made",
        "melds",
        "n52",
        "no_supply",
        "options",
        "pack",
        "pile",
        "queue",
        "rebuilds",
        "scores",
        "seed",
        "staged",
        "stages",
        "stock",
        "taken",
        "took_kinds",
        "turn",
        "upcard_from",
        "went_out",
    )

    options: ShanghaiOptions
    seed: int
    pack: Pack
    n52: int  # the first joker id: 52 × decks
    hand_no: int
    dealer: int
    first_dealer: int
    turn: int
    scores: tuple[int, ...]
    deal_scores: tuple[tuple[int, ...], ...]
    extra_seats: tuple[int, ...]  # SH-14.2: the tied seats an extra deal is played for
    stock: tuple[int, ...]
    pile: tuple[int, ...]
    hands: tuple[int, ...]
    melds: tuple[TableMeld, ...]
    made: int
    buys: tuple[int, ...]
    rebuilds: int
    known: tuple[int, ...]
    took_kinds: tuple[int, ...]  # per seat, bit ``kind``: taken or bought this deal
    declined_kinds: tuple[int, ...]  # per seat, bit ``kind``: discarded or declined this deal
    went_out: int | None
    upcard_from: int  # the seat that discarded the upcard, -1 for the deal's first upcard
    contract_now: bool  # the contract was made this turn
    jokers_now: int  # jokers laid on the table this turn
    staged: tuple[MeldSpec, ...]
    stages: int
    taken: int  # the upcard taken as this turn's draw, -1 if none
    queue: tuple[int, ...]  # the seats still to be offered the upcard
    no_supply: bool  # no buy was offered this turn: the penalty card could not be supplied
    log: LogNode
    log_mark: LogNode  # the node before this deal's first entry
    _phase: str
    _outcome: Outcome | None
    _cache: dict[Any, Any] | None  # facts of this state, computed on first use
    _facts: _DealFacts | None  # facts of this deal's contract and options, on first use

    # ------------------------------------------------------------------ basic properties
    @property
    def to_act(self) -> tuple[int, ...]:
        """The seat whose decision is awaited: the player in turn, or in ``"buy"`` the player
        being offered the upcard (SH-10.3), or the next dealer after a deal."""
        ph = self._phase
        if ph == UPCARD or ph == MELD:
            return (self.turn,)
        if ph == BUY_PHASE:
            return (self.queue[0],)
        if ph == DEAL_END:
            return ((self.dealer + 1) % self.players,)
        return ()

    @property
    def contract(self) -> ContractRule:
        """This deal's contract (SH-5.2); the extra deal of SH-14.2 plays contract 10."""
        return CONTRACTS[self.contract_number]

    @property
    def contract_number(self) -> int:
        """1..10: deal *k* plays contract *k* (SH-5.1); an extra deal plays 10 (SH-14.2)."""
        return self.hand_no + 1 if self.hand_no < self.options.deals else 10

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return len(self.stock)

    @property
    def upcard(self) -> Card | None:
        """The top card of the discard pile (a :class:`~meldhall.cards.Card`) or ``None``."""
        return self.pack.cards[self.pile[-1]] if self.pile else None

    def buy_limit(self) -> int | None:
        """Buys each player may make this deal, ``None`` for no limit (SH-10.6)."""
        return self.options.buy_limit(self.contract_number)

    def has_made_contract(self, seat: int) -> bool:
        """True once ``seat`` has made this deal's contract."""
        return bool((self.made >> seat) & 1)

    def hand_cards(self, seat: int) -> list[Card]:
        """The physical cards in ``seat``'s hand (list of Card, id order)."""
        return self.pack.cards_of(self.hands[seat])

    def hand_counts(self, seat: int) -> list[int]:
        """Kind counts of ``seat``'s hand (53 entries; index 52 = jokers)."""
        return list(self.pack.kind_counts(self.hands[seat]))

    def history(self) -> list[tuple[int, str]]:
        """Every action so far in the game as ``(seat, notation)``, oldest first."""
        return [(seat, text) for seat, text, _, _ in self._entries() if text]

    def public_log(self, seat: int | None = None, *, deal_only: bool = False,
                   ) -> list[tuple[int, str, str]]:
        """The log as ``(seat, action, note)``, oldest first (``deal_only``: this deal's
        entries only).  Notes are public; the private detail of an entry (the card drawn, a
        penalty card) is added for ``seat`` only."""
        out = []
        for s, text, note, secret in self._entries(self.log_mark if deal_only else None):
            if secret and seat is not None and s == seat:
                note = with_secret(note, secret)
            out.append((s, text, note))
        return out

    def _entries(self, stop: LogNode = None) -> list[LogEntry]:
        out = []
        node = self.log
        while node is not None and node is not stop:
            node, entry = node
            out.append(entry_text(entry))
        out.reverse()
        return out

    def _log(self, seat: int, text: str | Action, note: str = "", secret: str = "") -> None:
        """Append an entry; ``text`` may be the action itself, written out when read."""
        self.log = (self.log, (seat, text, note, secret))

    def _name(self, cid: int) -> str:
        return self.pack.names[cid]

    # ------------------------------------------------------------------ copying
    def _copy(self) -> ShanghaiState:  # replaced below by a generated, faster copy
        new = object.__new__(ShanghaiState)
        for name in ShanghaiState.__slots__:
            setattr(new, name, getattr(self, name))
        new._cache = None
        return new

    # ------------------------------------------------------------------ dealing
    def _start_deal(self) -> None:
        """SH-4.3, SH-4.4, SH-4.5: shuffle, deal 11 each from the dealer's left, turn the
        upcard; the dealer's left plays first."""
        n = self.players
        pack = self.pack
        rng = random.Random(_mix(self.seed, self.hand_no, 0x5D))
        order = list(range(pack.size))
        rng.shuffle(order)
        order.reverse()  # the top of the stock is the end of the list
        hands = [0] * n
        for _ in range(HAND_SIZE):
            for k in range(1, n + 1):
                hands[(self.dealer + k) % n] |= 1 << order.pop()
        up = order.pop()
        self.stock = tuple(order)
        self.pile = (up,)
        self.hands = tuple(hands)
        self.melds = ()
        self.made = 0
        self.buys = (0,) * n
        self.rebuilds = 0
        self.known = (0,) * n
        self.took_kinds = self.declined_kinds = (0,) * n
        self.went_out = None
        self._outcome = None
        self.upcard_from = -1
        self._facts = None  # a new contract
        self.log_mark = self.log
        extra = " (extra deal, SH-14.2)" if self.hand_no >= self.options.deals else ""
        self._log(-1, "", f"deal {self.hand_no + 1}{extra}: contract {self.contract_number} "
                  f"({self.contract}); dealer seat {self.dealer}; upcard {self._name(up)}")
        self._begin_turn((self.dealer + 1) % n)

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self._phase = UPCARD
        self.contract_now = False
        self.jokers_now = 0
        self.staged = ()
        self.stages = 0
        self.taken = -1
        self.queue = ()
        self.no_supply = False
        self._cache = None

    # ------------------------------------------------------------------ stock
    def _rebuild_allowed(self) -> bool:
        lim = self.options.rebuild_limit
        return lim is None or self.rebuilds < lim

    def _rebuild(self) -> None:
        """SH-12.1: every card of the pile but its top card is shuffled into a new stock."""
        rest = list(self.pile[:-1])
        rng = random.Random(_mix(self.seed, self.hand_no, self.rebuilds, 0xB1))
        rng.shuffle(rest)
        self.stock = tuple(rest)
        self.pile = self.pile[-1:]
        self.rebuilds += 1
        self._log(-1, "", f"stock rebuilt from {len(rest)} cards of the discard pile "
                  f"(rebuild {self.rebuilds}; top card {self._name(self.pile[-1])} stays)")

    def penalty_supply_ok(self) -> bool:
        """SH-10.8: a buyer's penalty card can be supplied — from the stock, or by a rebuild
        that leaves the pile a top card and is within the SH-12.3 limit."""
        if self.stock:
            return True
        return len(self.pile) - 1 >= 2 and self._rebuild_allowed()

    def buy_offer_order(self) -> tuple[int, ...]:
        """The seats to whom the upcard would be offered, in order, if the player in turn
        declined it now (SH-10.3, SH-10.6, SH-10.8)."""
        if not self.pile or not (self.stock or self.penalty_supply_ok()):
            return ()
        opts = self.options
        return _offer_order(self.turn, self.dealer, opts.buy_priority == "next_in_turn",
                            self.upcard_from, (self._facts or self._deal_facts()).buy_limit,
                            tuple(self.buys), opts.discarder_may_buy)

    def _turn_draw(self) -> None:
        """SH-10.9 (4): the player in turn draws the top stock card, rebuilding the stock if it
        is empty (SH-12.1); if it cannot be rebuilt the deal ends (SH-12.2, SH-12.3)."""
        if not self.stock:
            if len(self.pile) >= 2 and self._rebuild_allowed():
                self._rebuild()
            else:
                why = ("the discard pile holds only its top card" if len(self.pile) < 2
                       else f"the stock has been rebuilt {self.rebuilds} times (SH-12.3)")
                self._log(self.turn, "", f"must draw but the stock is empty and {why}: the "
                          "deal ends (SH-12.2)")
                self._end_deal("stock_exhausted", None)
                return
        stock = self.stock
        c = stock[-1]
        self.stock = stock[:-1]
        i = self.turn
        v = self.hands
        self.hands = v[:i] + (v[i] | 1 << c,) + v[i + 1:]
        self._log(i, "", "draws from the stock", self.pack.names[c])
        self._phase = MELD
        self._cache = None

    # ------------------------------------------------------------------ legality
    def _seat_check(self, action: Action, seat: int | None) -> None:
        if seat is None:
            return
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalActionError("SH-1.2", f"there is no seat {seat!r}")
        ta = self.to_act
        if seat in ta:
            return
        ph = self._phase
        if ph == GAME_OVER:
            raise IllegalActionError("SH-14.1", "the game is over")
        if type(action) in _STAGING:
            raise IllegalActionError(
                "SH-8.1", "melds are staged only by the player in turn, in their own meld "
                f"phase (seat {self.turn} is in turn)")
        if ph == DEAL_END:
            raise IllegalActionError(
                "SH-4.2", f"seat {ta[0]}, the next dealer, deals the next deal")
        if type(action) is Buy:
            self._refuse_buy(seat)
        if ph == BUY_PHASE:
            raise IllegalActionError(
                "SH-10.3", f"the upcard is being offered to seat {ta[0]}; "
                f"seat {seat} may not act now")
        raise IllegalActionError(
            "SH-6.3", f"it is seat {ta[0]}'s turn; the only out-of-turn action is buying "
            "when the upcard is offered to you")

    def _refuse_buy(self, seat: int) -> None:
        """The reason a buy request by ``seat`` (not the seat being asked) is refused."""
        ph = self._phase
        lim = self.buy_limit()
        if seat == self.turn:
            if ph == UPCARD:
                raise IllegalActionError(
                    "SH-10.2", "the player in turn does not buy: take the upcard as your draw")
            raise IllegalActionError(
                "SH-10.2", "the player in turn does not buy, and you have drawn this turn")
        if ph == UPCARD:
            if not self.penalty_supply_ok():
                raise IllegalActionError(
                    "SH-10.8", "no buy is offered: the penalty card could not be supplied "
                    "(the stock is empty and cannot be rebuilt)")
            raise IllegalActionError(
                "SH-10.2", f"seat {self.turn}, in turn, decides first whether to take the upcard")
        if ph == MELD:
            if self.no_supply:
                raise IllegalActionError(
                    "SH-10.8", "no buy was offered this turn: the penalty card could not be "
                    "supplied")
            raise IllegalActionError(
                "SH-10.5", "at most one card is bought per turn, and only the upcard the "
                "player in turn declined; the card now showing cannot be bought")
        if ph == BUY_PHASE:
            if seat == self.upcard_from and not self.options.discarder_may_buy:
                raise IllegalActionError("SH-10.3", "you discarded this card: you may not buy it")
            if lim is not None and self.buys[seat] >= lim:
                raise IllegalActionError(
                    "SH-10.6", f"you have used all {lim} of your buys this deal")
            raise IllegalActionError(
                "SH-10.3", f"the upcard is offered in turn: seat {self.queue[0]} is being "
                "asked now")
        raise IllegalActionError("SH-10.3", "there is no upcard on offer")

    def _plan(self, action: Action, seat: int | None) -> _Plan:
        self._seat_check(action, seat)
        ph = self._phase
        t = type(action)
        if ph == GAME_OVER:
            raise IllegalActionError("SH-14.1", "the game is over")
        if t in _STAGING:
            return self._plan_staging(action)
        if t is Deal:
            if ph != DEAL_END:
                raise IllegalActionError("SH-4.2", "the deal is still being played")
            return None
        if ph == DEAL_END:
            raise IllegalActionError("SH-4.2", "the deal is over: the next dealer deals ('deal')")
        if ph == UPCARD:
            if t is Take:
                if not self.pile:
                    raise IllegalActionError("SH-10.1", "there is no upcard to take")
                return None
            if t is Draw:
                return None
            if t is Buy or t is Pass:
                raise IllegalActionError(
                    "SH-10.2", f"seat {self.turn}, in turn, first takes the upcard ('take') or "
                    "declines it ('draw')")
            raise IllegalActionError(
                "SH-6.1", "a turn begins with the upcard: take it ('take') or draw from the "
                "stock ('draw')")
        if ph == BUY_PHASE:
            if t is Buy or t is Pass:
                return None
            raise IllegalActionError(
                "SH-10.3", f"seat {self.queue[0]} is being offered the upcard: 'buy' or 'pass'")
        # MELD
        if t is Take or t is Draw:
            raise IllegalActionError("SH-6.1", "you have already drawn this turn")
        if t is Buy:
            self._refuse_buy(self.turn)
        if t is Pass:
            raise IllegalActionError("SH-6.2", "a turn ends with a discard")
        if t is Discard:
            if self.staged:
                raise IllegalActionError(
                    "SH-8.1", f"you have {_count(len(self.staged), 'meld')} staged: commit "
                    f"{'it' if len(self.staged) == 1 else 'them'} ('contract done') or withdraw "
                    f"{'it' if len(self.staged) == 1 else 'them'} ('withdraw all') before discarding")
            return self._plan_discard(action)  # type: ignore[arg-type]  # t is Discard
        if t is Contract:
            return self._plan_shorthand(action)  # type: ignore[arg-type]  # t is Contract
        if t is LayOff:
            return self._plan_layoff(action)  # type: ignore[arg-type]  # t is LayOff
        if t is Swap:
            return self._plan_swap(action)  # type: ignore[arg-type]  # t is Swap
        raise IllegalActionError("SH-6.1", f"{action!r} is not a Shanghai Rummy action")

    # -- discard -----------------------------------------------------------------------------
    def _plan_discard(self, a: Discard) -> int:
        """SH-6.2, SH-6.5: the card to discard (its physical id)."""
        if not isinstance(a.kind, int) or not 0 <= a.kind <= JOKER_KIND:
            raise IllegalActionError("SH-6.2", f"there is no card {a.kind!r}")
        hand = self.hands[self.turn]
        pool = hand & kind_masks(self.pack.decks, self.pack.jokers)[a.kind]
        if a.deck is not None:
            name = kind_name(a.kind)
            if a.kind == JOKER_KIND:
                cid = self.n52 + a.deck if 0 <= a.deck < self.pack.jokers else -1
            else:
                cid = a.deck * 52 + a.kind if 0 <= a.deck < self.pack.decks else -1
            if cid < 0 or not (pool >> cid) & 1:
                raise IllegalActionError("SH-6.2", f"you do not hold {name}/{a.deck}")
            pool = 1 << cid
        if not pool:
            raise IllegalActionError("SH-6.2", f"you do not hold {kind_name(a.kind)}")
        taken = self.taken
        if taken >= 0 and (pool >> taken) & 1 and not self.options.discard_taken_upcard:
            others = pool & ~(1 << taken)
            if others:
                return self._choose(others, hand, a.kind)
            if hand.bit_count() > 1:
                raise IllegalActionError(
                    "SH-6.5", f"you took {self.pack.cards[taken]} as your draw: you may "
                    "not discard it this turn (unless it is your last card)")
            return taken
        return self._choose(pool, hand, a.kind)

    # -- staging (SH-8.1) -------------------------------------------------------------------
    def _plan_staging(self, a: Action) -> Contract | None:
        """SH-8.1: stage, withdraw and commit, only in the player's own meld phase.  A commit
        returns the :class:`Contract` of the staged melds."""
        t = type(a)
        if t is ContractDone:
            return self._plan_done()
        self._check_staging_phase()
        if t is Stage:
            self._check_stage(a.meld, self.staged, self.stages)  # type: ignore[attr-defined]  # t is Stage
            return None
        if not self.staged:  # a withdrawal
            raise IllegalActionError("SH-8.1", "nothing is staged")
        return None

    def _check_staging_phase(self) -> None:
        if self._phase != MELD:
            why = ("never during a buy window" if self._phase == BUY_PHASE else
                   "after the draw" if self._phase == UPCARD else "while a deal is played")
            raise IllegalActionError(
                "SH-8.1", f"melds are staged only in your own meld phase, {why}")

    def _plan_done(self) -> Contract:
        """SH-8.1: ``contract done`` commits the staged melds: their :class:`Contract`."""
        self._check_staging_phase()
        if self.has_made_contract(self.turn):
            raise IllegalActionError(
                "SH-8.6", "you have already made this deal's contract")
        if not self.staged:
            raise IllegalActionError(
                "SH-8.1", "nothing is staged: stage the contract's melds first")
        c = Contract(self.staged)
        self._plan_contract(c)
        return c

    def _plan_shorthand(self, a: Contract) -> Contract:
        """SH-8.1: ``contract A, B`` is staging each meld (in the canonical order), then
        ``contract done``; refused with the rule of the first step that fails."""
        if not isinstance(a.melds, tuple):
            raise IllegalActionError("SH-8.1", f"{a!r} names impossible melds")
        staged, n = self.staged, self.stages
        for m in a.melds:
            self._check_stage(m, staged, n)
            staged += (m,)
            n += 1
        c = Contract(staged)
        self._plan_contract(c)
        return c

    def _avail(self, staged: tuple[MeldSpec, ...]) -> bytes:
        """Kind counts (53 bytes, as :meth:`_counts`) of the hand minus the cards of the
        ``staged`` melds."""
        if not staged:
            return self._counts()
        cache = self._cache
        if cache is None:
            cache = self._cache = {}
        key = ("avail", staged)
        got: bytes | None = cache.get(key)
        if got is None:
            left = list(self._counts())
            for m in staged:
                for k in m.natural_kinds():
                    left[k] -= 1
                left[JOKER_KIND] -= m.joker_count if m.is_run else len(m.jokers)
            got = cache[key] = bytes(left)  # never negative: each stage was checked
        return got

    def _check_stage(self, m: MeldSpec, staged: tuple[MeldSpec, ...], n: int) -> None:
        """SH-8.1 (amended): meld ``m`` may be staged after ``staged`` with ``n`` stage actions
        made this turn: a set or run by SH-7.1–SH-7.5, of a kind and size the contract has
        room for (SH-8.1, SH-8.2), from cards in hand not already staged.  The contract as a
        whole (SH-8.3, SH-8.4, SH-8.7) is checked at the commit."""
        if self.has_made_contract(self.turn):
            raise IllegalActionError(
                "SH-8.6", "you have already made this deal's contract: you may only lay off and "
                "exchange jokers")
        if n >= STAGE_LIMIT:
            raise IllegalActionError(
                "SH-8.1", f"at most {STAGE_LIMIT} stage actions per turn: commit ('contract "
                "done') or withdraw")
        opts = self.options
        c = self.contract
        if isinstance(m, SetSpec):
            _shape_set(m)
            if len(m.jokers) > 1:
                raise IllegalActionError("SH-7.5", f"{m}: a set may contain at most one joker")
            if m.size < 3 or len(m.suits) <= len(m.jokers):
                raise IllegalActionError("SH-7.1", f"{m}: a set is three or more cards of one "
                                         "rank")
            have = sum(1 for x in staged if not x.is_run)
            if have >= c.sets:
                raise IllegalActionError(
                    "SH-8.1", f"contract {self.contract_number} is {c}: "
                    + ("it has no sets" if not c.sets else
                       f"its {_count(c.sets, 'set')} {'is' if c.sets == 1 else 'are'} staged already"))
            if m.size != 3 and not opts.contract_min_sizes:
                raise IllegalActionError(
                    "SH-8.2", f"{m}: each set of the contract has exactly 3 cards; lay off "
                    "extra cards on a later turn")
            jokers = len(m.jokers)
        elif isinstance(m, RunSpec):
            _shape_run(m)
            if m.length < 4:
                raise IllegalActionError("SH-7.2", f"{m}: a run needs at least four cards")
            if m.length > (14 if opts.ace_both_ends else 13):
                raise IllegalActionError(
                    "SH-7.3", f"{m}: a run may not hold two aces (it cannot be low and high)")
            lim = joker_limit(m.length, True)
            if m.joker_count > lim:
                raise IllegalActionError(
                    "SH-7.5", f"{m}: a run of {m.length} may contain at most {lim} "
                    f"joker{'s' if lim > 1 else ''}")
            have = sum(1 for x in staged if x.is_run)
            if have >= c.runs:
                raise IllegalActionError(
                    "SH-8.1", f"contract {self.contract_number} is {c}: "
                    + ("it has no runs" if not c.runs else
                       f"its {_count(c.runs, 'run')} {'is' if c.runs == 1 else 'are'} staged already"))
            if m.length != c.run_len and not (opts.contract_min_sizes and m.length > c.run_len):
                raise IllegalActionError(
                    "SH-8.2", f"{m}: the contract's runs have exactly {c.run_len} cards"
                    + (" or more" if opts.contract_min_sizes else ""))
            jokers = m.joker_count
        else:
            raise IllegalActionError("SH-8.1", f"{m!r} is neither a set nor a run")
        avail = self._avail(staged)
        need = [0] * 53
        for k in m.natural_kinds():
            need[k] += 1
        need[JOKER_KIND] = jokers
        for k in range(53):
            if need[k] > avail[k]:
                held = avail[k]
                raise IllegalActionError(
                    "SH-8.1", f"you hold {held if held else 'no'} {kind_name(k)}"
                    + (f" not staged already, not {need[k]}" if held else
                       (" not staged already" if self._counts()[k] else "")))
        self._check_hand_size()

    def _check_hand_size(self) -> None:
        """SH-8.7 (with SH-5.3): the hand must hold the contract's cards plus one for the
        discard; checked when staging too, since no staged meld could then be committed."""
        c = self.contract
        keep = 0 if self.options.go_out_without_discard else 1
        held = sum(self._counts())
        if held < c.cards + keep:
            raise IllegalActionError(
                "SH-8.7", f"you hold {held} cards: contract {self.contract_number} ({c}) needs "
                f"{c.cards}" + (" and a card left for the compulsory discard (SH-6.2)"
                                if keep else ""))

    # -- contract ----------------------------------------------------------------------------
    def _plan_contract(self, a: Contract) -> list[int]:
        """SH-8.1–SH-8.7 and SH-7: the contract action is legal now.  Returns the kind counts
        it lays down (53 entries)."""
        seat = self.turn
        opts = self.options
        if self.has_made_contract(seat):
            raise IllegalActionError(
                "SH-8.6", "you have already made this deal's contract: you may only lay off and "
                "exchange jokers")
        c = self.contract
        if not isinstance(a.melds, tuple) or not all(
                isinstance(m, (SetSpec, RunSpec)) for m in a.melds):
            raise IllegalActionError("SH-8.1", f"{a!r} names impossible melds")
        sets = [m for m in a.melds if not m.is_run]
        runs = [m for m in a.melds if m.is_run]
        if len(sets) != c.sets or len(runs) != c.runs:
            raise IllegalActionError(
                "SH-8.1", f"contract {self.contract_number} is {c}: lay down exactly that "
                f"(you offered {_count(len(sets), 'set')} and {_count(len(runs), 'run')})")
        used = [0] * 53
        for m in sets:
            _shape_set(m)
            if len(m.jokers) > 1:
                raise IllegalActionError("SH-7.5", f"{m}: a set may contain at most one joker")
            if m.size < 3 or len(m.suits) <= len(m.jokers):
                raise IllegalActionError("SH-7.1", f"{m}: a set is three or more cards of one "
                                         "rank")
            if m.size != 3 and not opts.contract_min_sizes:
                raise IllegalActionError(
                    "SH-8.2", f"{m}: each set of the contract has exactly 3 cards; lay off "
                    "extra cards on a later turn")
            for k in m.natural_kinds():
                used[k] += 1
            used[JOKER_KIND] += len(m.jokers)
        if opts.distinct_set_ranks:
            ranks = [m.rank for m in sets]
            if len(set(ranks)) != len(ranks):
                raise IllegalActionError(
                    "SH-8.4", "under distinct_set_ranks the sets of a contract must be of "
                    "different ranks")
        max_len = 14 if opts.ace_both_ends else 13
        for r in runs:
            _shape_run(r)
            if r.length < 4:
                raise IllegalActionError("SH-7.2", f"{r}: a run needs at least four cards")
            if r.length > max_len:
                raise IllegalActionError(
                    "SH-7.3", f"{r}: a run may not hold two aces (it cannot be low and high)")
            if r.length != c.run_len and not (opts.contract_min_sizes and r.length > c.run_len):
                raise IllegalActionError(
                    "SH-8.2", f"{r}: the contract's runs have exactly {c.run_len} cards"
                    + (" or more" if opts.contract_min_sizes else ""))
            lim = joker_limit(r.length, True)
            if r.joker_count > lim:
                raise IllegalActionError(
                    "SH-7.5", f"{r}: a run of {r.length} may contain at most {lim} "
                    f"joker{'s' if lim > 1 else ''}")
            for k in r.natural_kinds():
                used[k] += 1
            used[JOKER_KIND] += r.joker_count
        for i in range(len(runs)):
            for j in range(i + 1, len(runs)):
                x, y = runs[i], runs[j]
                if x.suit == y.suit and not (x.hi + 1 < y.lo or y.hi + 1 < x.lo):
                    how = "overlap" if not (x.hi < y.lo or y.hi < x.lo) else "touch"
                    raise IllegalActionError(
                        "SH-8.3", f"{x} and {y}: runs of the same suit in a contract may "
                        f"neither overlap nor touch (these {how}); leave at least one rank "
                        "between them")
        counts = self._counts()
        for k in range(53):
            if used[k] > counts[k]:
                held = counts[k]
                raise IllegalActionError(
                    "SH-8.1", f"you hold {held if held else 'no'} {kind_name(k)}"
                    + (f", not {used[k]}" if held else ""))
        total = sum(used)
        left = sum(counts) - total
        if left < 1 and not opts.go_out_without_discard:
            raise IllegalActionError(
                "SH-8.7", "making the contract must leave you a card for the compulsory "
                "discard (SH-6.2)")
        return used

    # -- lay-off -----------------------------------------------------------------------------
    def _layoff_allowed(self, rule_before: str, what: str, option: bool) -> None:
        seat = self.turn
        if not self.has_made_contract(seat):
            raise IllegalActionError(
                rule_before, f"you may {what} only after making this deal's contract")
        if self.contract_now and not option:
            raise IllegalActionError(
                "SH-8.5", f"you made the contract this turn: you may {what} from your next "
                "turn on")

    def _plan_layoff(self, a: LayOff) -> tuple[int, int, int | None]:
        """SH-9.1–SH-9.3, SH-9.6, SH-7.3–SH-7.5: returns ``(meld index, declared kind,
        position or None)``."""
        opts = self.options
        self._layoff_allowed("SH-9.2", "lay off", opts.layoff_on_contract_turn)
        if not isinstance(a.kind, int) or not 0 <= a.kind <= JOKER_KIND:
            raise IllegalActionError("SH-9.1", f"there is no card {a.kind!r}")
        idx = self._meld_index(a.meld, "SH-9.1")
        m = self.melds[idx]
        counts = self._counts()
        if not counts[a.kind]:
            raise IllegalActionError("SH-9.1", f"you do not hold {kind_name(a.kind)}")
        if sum(counts) <= 1 and not opts.go_out_without_discard:
            raise IllegalActionError(
                "SH-9.6", "you must keep a card for the compulsory discard")
        joker = a.kind == JOKER_KIND
        if a.decl is not None and (not isinstance(a.decl, int) or not 0 <= a.decl < 52):
            raise IllegalActionError("SH-7.4", f"a joker is declared as a natural card, not "
                                     f"{a.decl!r}")
        if a.end not in (None, "low", "high"):
            raise IllegalActionError("SH-9.3", f"a run's ends are 'low' and 'high', not {a.end!r}")
        if not m.run:
            if a.end is not None:
                raise IllegalActionError("SH-9.3", f"meld {a.meld} is a set: it has no ends")
            if joker:
                if a.decl is None:
                    raise IllegalActionError(
                        "SH-7.4", f"declare the joker's suit, e.g. 'layoff JK="
                        f"{kind_name(m.rank - 1)} -> {a.meld}'")
                if rank_of_kind(a.decl) != m.rank:
                    raise IllegalActionError(
                        "SH-7.4", f"a joker in meld {a.meld}, a {m.describe()}, is declared "
                        f"as a card of that rank, not {kind_name(a.decl)}")
                if m.jokers >= joker_limit(m.size + 1, False):
                    raise IllegalActionError(
                        "SH-7.5", f"meld {a.meld} already holds a joker: a set may contain at "
                        "most one")
                return idx, a.decl, None
            if rank_of_kind(a.kind) != m.rank:
                raise IllegalActionError(
                    "SH-9.3", f"{kind_name(a.kind)} does not fit meld {a.meld}, a "
                    f"{m.describe()}")
            return idx, a.kind, None
        # a run
        suit = m.suit
        card = a.decl if joker else a.kind
        lo, hi = m.lo, m.hi
        ends: list[tuple[str, int]] = []
        max_len = 14 if opts.ace_both_ends else 13
        if m.size < max_len:
            if lo > 1 and not (lo - 1 == 1 and hi == 14 and not opts.ace_both_ends):
                ends.append(("low", lo - 1))
            if hi < 14 and not (hi + 1 == 14 and lo == 1 and not opts.ace_both_ends):
                ends.append(("high", hi + 1))
        if card is None:
            # a bare joker with its end named: the end fixes the declared card
            fit = [e for e in ends if e[0] == a.end]
            if a.end is None:
                raise IllegalActionError(
                    "SH-7.4", f"say which card the joker stands for, e.g. 'layoff JK="
                    f"{kind_name(kind_at(suit, hi + 1 if hi < 14 else lo - 1))} -> {a.meld}'")
            if not fit:
                raise IllegalActionError(
                    "SH-9.3", f"meld {a.meld}, {m.text(self.n52)}, takes nothing at its "
                    f"{a.end} end")
            card = kind_at(suit, fit[0][1])
        if suit_of_kind(card) != suit:
            rule = "SH-7.4" if joker else "SH-9.3"
            raise IllegalActionError(
                rule, f"meld {a.meld} is a {m.describe()}: "
                + ("a joker on it takes its suit" if joker else
                   f"{kind_name(card)} is of another suit"))
        if not joker:
            inside = [i for i, d in enumerate(m.decl) if d == card]
            if inside and m.cards[inside[0]] >= self.n52:
                raise IllegalActionError(
                    "SH-9.3", f"{kind_name(card)} has no place in meld {a.meld}: a joker "
                    f"stands for it; exchange it instead ('swap {kind_name(card)} -> "
                    f"{a.meld}')")
        fits = [e for e in ends if kind_at(suit, e[1]) == card]
        if a.end is not None:
            fits = [e for e in fits if e[0] == a.end]
        if not fits:
            if rank_of_kind(card) == 1 and (lo == 1 or hi == 14):
                raise IllegalActionError(
                    "SH-7.3", f"meld {a.meld}, {m.text(self.n52)}, already holds an ace: a run "
                    "may not hold two aces")
            if (rank_of_kind(card) == 2 and hi == 14) or (rank_of_kind(card) == 13 and lo == 1):
                raise IllegalActionError(
                    "SH-7.3", f"{kind_name(card)} would take meld {a.meld} round the corner "
                    "(K-A-2)")
            where = f" at its {a.end} end" if a.end else ""
            raise IllegalActionError(
                "SH-9.3", f"{kind_name(card)} does not extend meld {a.meld}, "
                f"{m.text(self.n52)}{where}")
        if len(fits) > 1:
            raise IllegalActionError(
                "SH-7.4", f"{kind_name(card)} fits both ends of meld {a.meld}: add 'low' or "
                "'high'")
        pos = fits[0][1]
        if joker:
            lim = joker_limit(m.size + 1, True)
            if m.jokers + 1 > lim:
                raise IllegalActionError(
                    "SH-7.5", f"meld {a.meld} would hold {m.jokers + 1} jokers in {m.size + 1} "
                    f"cards; the limit is {lim}")
        return idx, card, pos

    def _meld_index(self, number: int, rule: str) -> int:
        if not isinstance(number, int) or not 1 <= number <= len(self.melds):
            have = len(self.melds)
            raise IllegalActionError(
                rule, f"there is no meld {number} on the table"
                + (f" (melds are numbered 1 to {have})" if have else " (the table is empty)"))
        return number - 1

    # -- joker exchange ----------------------------------------------------------------------
    def _plan_swap(self, a: Swap) -> tuple[int, int]:
        """SH-9.4, SH-9.5: returns ``(meld index, position in the meld's card list)``."""
        self._layoff_allowed("SH-9.4", "exchange a joker", self.options.exchange_on_contract_turn)
        if not isinstance(a.kind, int) or not 0 <= a.kind < 52:
            raise IllegalActionError("SH-9.4", "a joker is exchanged for a natural card")
        idx = self._meld_index(a.meld, "SH-9.4")
        m = self.melds[idx]
        n52 = self.n52
        jdecl = [(i, d) for i, (c, d) in enumerate(zip(m.cards, m.decl)) if c >= n52]
        if not jdecl:
            raise IllegalActionError("SH-9.4", f"meld {a.meld} holds no joker")
        hit = [i for i, d in jdecl if d == a.kind]
        if not hit:
            decls = " and ".join(kind_name(d) for _, d in jdecl)
            raise IllegalActionError(
                "SH-9.5", f"the joker in meld {a.meld} is declared as {decls}: only that exact "
                f"card releases it, not {kind_name(a.kind)}")
        if not self._counts()[a.kind]:
            raise IllegalActionError("SH-9.4", f"you do not hold {kind_name(a.kind)}")
        return idx, hit[0]

    # ------------------------------------------------------------------ legal actions
    def _deal_facts(self) -> _DealFacts:
        """What this deal's contract and the options make of the meld phase (computed once
        per deal and carried from state to state)."""
        f = self._facts
        if f is None:
            opts = self.options
            c = self.contract
            lengths = _run_lengths(c.run_len, opts.contract_min_sizes, opts.ace_both_ends)
            shortest = lengths[0]
            f = self._facts = _DealFacts(
                c, c.sets, c.runs, c.sets + c.runs,
                c.cards + (0 if opts.go_out_without_discard else 1),  # SH-8.7
                opts.contract_min_sizes, lengths,
                # kinds of a suit a run of the shortest length needs held, by jokers held
                # (the rest are jokers; longer runs need no fewer)
                tuple(shortest - min(j, joker_limit(shortest, True)) for j in range(9)),
                # jokers that matter to a suit's runs, by jokers held (the longest run's limit)
                tuple(min(j, joker_limit(lengths[-1], True)) for j in range(9)),
                opts.buy_limit(self.contract_number))
        return f

    def _counts(self) -> bytes:
        """Kind counts of the hand of the player in turn: 53 bytes (index 52 = jokers), kept
        for the state and carried to the next one while the hand does not change."""
        c = self._cache
        if c is None:
            c = self._cache = {}
        cnt: bytes | None = c.get("counts")
        if cnt is None:
            cnt = c["counts"] = self.pack.kind_counts(self.hands[self.turn])
        return cnt

    def _legal(self) -> list[Action]:
        """The legal actions, in a fixed order: before the contract ``contract done``,
        ``withdraw``, ``withdraw all``, then stages (sets by rank, runs by suit, length,
        position); after it lay-offs (by meld number, then card) and exchanges; then discards
        (by suit S H D C, then rank, jokers last), only while nothing is staged."""
        ph = self._phase
        if ph == UPCARD:
            out: list[Action] = [TAKE, DRAW] if self.pile else [DRAW]
        elif ph == BUY_PHASE:
            out = [BUY, PASS]
        elif ph == MELD:
            out = self._meld_actions()
        elif ph == DEAL_END:
            out = [DEAL]
        else:
            out = []
        return out

    def contract_actions(self) -> list[Contract]:
        """Every way to make the contract now from the whole hand, as compound shorthands
        (empty if none, or not in the meld phase, or already made).  Not legal actions: the
        contract is staged one meld at a time (SH-8.1); the solver serves bots and tests."""
        if self._phase != MELD or self.has_made_contract(self.turn):
            return []
        c = self._cache
        if c is None:
            c = self._cache = {}
        got: list[Contract] | None = c.get("contracts")
        if got is None:
            got = c["contracts"] = contract_options(
                self._counts(), self.contract, SolverRules.from_options(self.options))
        return list(got)

    def compound_options(self) -> list[Contract]:
        """For planners (bots, hints), not for ``legal_actions``: the contracts the player in
        turn could make from here, each legal shorthand for its staged melds and ``contract
        done`` (SH-8.1).  Empty while melds are staged (plan from :meth:`unstaged`)."""
        if self.staged:
            return []
        return self.contract_actions()

    def _expand(self, action: Action) -> list[Action] | None:
        """The staged sequence a one-action contract stands for (SH-8.1 shorthand), or
        ``None`` when ``action`` is not one."""
        if type(action) is not Contract:
            return None
        return [stage_action(m) for m in action.melds] + [CONTRACT_DONE]

    def _meld_actions(self) -> list[Action]:
        if self.staged or (self.made >> self.turn) & 1:
            return self._meld_actions_now()
        # nothing staged: the list is the one of the state before the staging and withdrawals
        # that led back here, if it knew it (it depends on them only through whether another
        # stage is allowed), so it is kept over staging (_apply_checked)
        more = self.stages < STAGE_LIMIT
        c = self._cache
        if c is not None:
            got: tuple[bool, list[Action]] | None = c.get("unstaged")
            if got is not None and got[0] == more:
                return got[1]
        out = self._meld_actions_now()
        c = self._cache
        if c is None:
            c = self._cache = {}
        c["unstaged"] = (more, out)
        return out

    def _meld_actions_now(self) -> list[Action]:
        """The legal actions of the meld phase (:meth:`_meld_actions`, computed now)."""
        opts = self.options
        seat = self.turn
        counts = self._counts()
        h = self.hands[seat].bit_count()
        out: list[Action] = []
        if not (self.made >> seat) & 1:
            f = self._facts or self._deal_facts()
            staged = self.staged
            if staged:
                if len(staged) == f.melds:
                    try:
                        self._plan_contract(Contract(staged))
                    except IllegalActionError:
                        pass
                    else:
                        out.append(CONTRACT_DONE)
                out.append(WITHDRAW)
                out.append(WITHDRAW_ALL)
            if self.stages < STAGE_LIMIT and h >= f.min_cards:  # SH-8.7
                self._add_stages(out, f, staged)
            if staged:
                return out  # SH-8.1: no discard while melds are staged
        else:
            can_lay = (not self.contract_now or opts.layoff_on_contract_turn) and (
                h >= 2 or opts.go_out_without_discard)
            can_swap = not self.contract_now or opts.exchange_on_contract_turn
            if can_lay:
                out.extend(self._layoff_actions(counts))
            if can_swap:
                n52 = self.n52
                for i, m in enumerate(self.melds):
                    if m.jokers:
                        for cid, d in zip(m.cards, m.decl):
                            if cid >= n52 and counts[d]:
                                out.append(swap_action(d, i + 1))
        taken = self.taken
        if (taken >= 0 and not opts.discard_taken_upcard and h > 1
                and (self.hands[seat] >> taken) & 1):
            tk = JOKER_KIND if taken >= self.n52 else taken % 52  # SH-6.5
            if counts[tk] == 1:
                # the upcard taken is the only card of its kind: not discarded this turn
                out.extend(compress(_DISCARDS, counts[:tk] + b"\0" + counts[tk + 1:]))
                return out
        out.extend(compress(_DISCARDS, counts))  # one discard per kind held, in kind order
        return out

    def _stage_actions(self) -> list[Stage]:
        """SH-8.1: every meld that may be staged now: sets and runs by SH-7.1–SH-7.5 of the
        sizes the contract allows (SH-8.2), for which the contract still has room, from the
        cards in hand not already staged."""
        out: list[Action] = []
        self._add_stages(out, self._deal_facts(), self.staged)
        return out  # type: ignore[return-value]  # only stages were added

    def _add_stages(self, out: list[Action], f: _DealFacts,
                    staged: tuple[MeldSpec, ...]) -> None:
        """Append :meth:`_stage_actions` to ``out`` (``f``: this deal's facts)."""
        if staged:
            n_runs = sum(1 for m in staged if m.is_run)
            n_sets = len(staged) - n_runs
            avail = self._avail(staged)
        else:
            n_runs = n_sets = 0
            avail = self._counts()
        jk = avail[JOKER_KIND]
        # The stages of one rank's set, or of one suit's runs, depend only on the few counts
        # that supply them: the same lists recur all game, so they are kept by those counts.
        if n_sets < f.sets:
            min_sizes = f.min_sizes
            # cards of each rank, ranks in set order (2 … K, A): the four suit rows added
            totals = (int.from_bytes(avail[0:13], "little")
                      + int.from_bytes(avail[13:26], "little")
                      + int.from_bytes(avail[26:39], "little")
                      + int.from_bytes(avail[39:52], "little")).to_bytes(13, "little")
            wanted = (totals[1:] + totals[:1]).translate(_AT_LEAST_TWO if jk else _AT_LEAST_THREE)
            for rank in compress(SET_RANK_ORDER, wanted):
                key: tuple[object, ...] = ("set", rank, avail[rank - 1:52:13], jk > 0, min_sizes)
                got = _STAGE_LISTS.get(key)
                if got is None:
                    got = _STAGE_LISTS[key] = [stage_action(s) for s in set_candidates(
                        avail, rank, jk, min_sizes)]
                out.extend(got)
        if n_runs < f.runs:
            j = jk if jk < 8 else 8
            need = f.run_need[j]
            jcap = f.run_jokers[j]
            lengths = f.lengths
            if lengths[-1] == 14:
                # a run of 14 cards holds the ace twice: the counts of a suit, capped at two
                for suit in range(4):
                    row = avail[suit * 13:suit * 13 + 13]
                    if 13 - row.count(0) < need:
                        continue  # too few kinds of this suit for any run
                    key = ("run", suit, row.translate(_AT_MOST_TWO), jcap, lengths)
                    got = _STAGE_LISTS.get(key)
                    if got is None:
                        got = _STAGE_LISTS[key] = [
                            stage_action(r) for r, _ in run_candidates(avail, suit, lengths, jk)]
                    out.extend(got)
                return
            # the kinds held, one bit each (bit suit * 13 + rank - 1)
            held = int(avail[51::-1].translate(_BIT_DIGITS), 2)
            for suit in range(4):
                bits = (held >> (13 * suit)) & 0x1FFF
                if bits.bit_count() < need:
                    continue  # too few kinds of this suit for any run
                key = ("runs", suit, bits, jcap, lengths)
                got = _STAGE_LISTS.get(key)
                if got is None:
                    got = _STAGE_LISTS[key] = _suit_run_stages(suit, bits, jcap, lengths)
                out.extend(got)

    def _layoff_actions(self, counts: bytes) -> list[LayOff]:
        opts = self.options
        out: list[LayOff] = []
        jk = counts[JOKER_KIND]
        max_len = 14 if opts.ace_both_ends else 13
        for i, m in enumerate(self.melds):
            num = i + 1
            if not m.run:
                base = m.rank - 1
                for s in range(4):
                    if counts[base + 13 * s]:
                        out.append(layoff_action(base + 13 * s, num, None, None))
                if jk and m.jokers < 1:
                    for s in range(4):
                        out.append(layoff_action(JOKER_KIND, num, base + 13 * s, None))
                continue
            if m.size >= max_len:
                continue
            lo, hi, suit = m.lo, m.hi, m.suit
            ends: list[tuple[str, int]] = []
            if lo > 1 and not (lo == 2 and hi == 14 and not opts.ace_both_ends):
                ends.append(("low", lo - 1))
            if hi < 14 and not (hi == 13 and lo == 1 and not opts.ace_both_ends):
                ends.append(("high", hi + 1))
            kinds = [kind_at(suit, p) for _, p in ends]
            ambiguous = len(kinds) == 2 and kinds[0] == kinds[1]
            jok_ok = jk and m.jokers + 1 <= joker_limit(m.size + 1, True)
            for (end, _), k in zip(ends, kinds):
                e = end if ambiguous else None
                if counts[k]:
                    out.append(layoff_action(k, num, None, e))
            if jok_ok:
                for (end, _), k in zip(ends, kinds):
                    out.append(layoff_action(JOKER_KIND, num, k, end if ambiguous else None))
        return out

    # ------------------------------------------------------------------ apply
    def _apply_checked(self, action: Action, plan: Any) -> ShanghaiState:
        t = type(action)
        if t is Stage or t is Withdraw:
            # private to the player in turn: only the staged melds change (SH-8.1), so what
            # this state knows of the hand (its counts, what is left beside staged melds)
            # holds for the next one too
            s = self._copy()
            if t is Stage:
                s.staged = self.staged + (action.meld,)  # type: ignore[attr-defined]  # t is Stage
                s.stages += 1
            else:
                s.staged = () if action.all else self.staged[:-1]  # type: ignore[attr-defined]  # t is Withdraw
            c = self._cache
            if c is not None:
                c = s._cache = c.copy()
                c.pop("legal", None)
            return s
        s = self._apply_inner(action, plan)
        s._cache = None  # helpers may have cached facts of the state before the action
        return s

    def _apply_inner(self, action: Action, plan: Any) -> ShanghaiState:
        # ``plan``: what :meth:`_plan` returned for ``action``, or None (not planned yet).
        # ``t is X`` below stands for ``type(action) is X``, which mypy would narrow on; the
        # saved type keeps this dispatch cheap.
        s = self._copy()
        t = type(action)
        ph = self._phase
        # the seat acting (to_act, inlined): the player in turn, the player asked to buy, the
        # next dealer
        actor = self.turn if ph == UPCARD or ph == MELD else self.queue[0] if ph == BUY_PHASE \
            else (self.dealer + 1) % self.players if ph == DEAL_END else -1
        if t is Deal:
            s._log(actor, "deal")
            s.hand_no += 1
            s.dealer = (s.dealer + 1) % s.players
            s._start_deal()
            return s
        if t is Take:
            pile = s.pile
            c = pile[-1]
            s.pile = pile[:-1]
            i = s.turn
            bit = 1 << c
            v = s.hands
            s.hands = v[:i] + (v[i] | bit,) + v[i + 1:]
            v = s.known
            s.known = v[:i] + (v[i] | bit,) + v[i + 1:]
            v = s.took_kinds
            s.took_kinds = v[:i] + (v[i] | 1 << (c % 52 if c < s.n52 else 52),) + v[i + 1:]
            s.taken = c
            s._log(actor, "take", "takes " + s.pack.names[c])
            s._phase = MELD
            return s
        if t is Draw:
            q = s.buy_offer_order()
            if s.pile:
                up = s.pile[-1]
                s._log(actor, "draw", "declines " + s.pack.names[up])
                s.declined_kinds = _set(s.declined_kinds, actor, s.declined_kinds[actor]
                                        | 1 << (up % 52 if up < s.n52 else 52))
            else:
                s._log(actor, "draw", "")
            s.no_supply = bool(s.pile) and not s.penalty_supply_ok()
            if q:
                s.queue = q
                s._phase = BUY_PHASE
            else:
                s._turn_draw()
            return s
        if t is Pass:
            s._log(actor, "pass")
            s.queue = s.queue[1:]
            if not s.queue:
                s._turn_draw()
            return s
        if t is Buy:
            s._do_buy(actor, "buy")
            return s
        if t is Discard:
            s._do_discard(action, plan, action)  # type: ignore[arg-type]  # t is Discard
            return s
        if t is ContractDone or t is Contract:
            # the commit, or the shorthand: stage each meld, then commit (SH-8.1)
            con: Contract = plan if plan is not None else (
                self._plan_done() if t is ContractDone
                else self._plan_shorthand(action))  # type: ignore[arg-type]  # t is Contract
            s._do_contract(con, con)
            return s
        if t is LayOff:
            s._do_layoff(action, plan, action)  # type: ignore[arg-type]  # t is LayOff
            return s
        if t is Swap:
            s._do_swap(action, plan, action)  # type: ignore[arg-type]  # t is Swap
            return s
        raise IllegalActionError("SH-6.1", f"{action!r} is not a Shanghai Rummy action")

    def _do_buy(self, buyer: int, text: str) -> None:
        """SH-10.4, SH-10.6, SH-10.9 (3)–(4)."""
        up = self.pile[-1]
        self.pile = self.pile[:-1]
        if not self.stock:
            self._rebuild()  # SH-10.8 guaranteed it is allowed
        pen = self.stock[-1]
        self.stock = self.stock[:-1]
        self.hands = _set(self.hands, buyer, self.hands[buyer] | (1 << up) | (1 << pen))
        self.known = _set(self.known, buyer, self.known[buyer] | (1 << up))
        self.took_kinds = _set(self.took_kinds, buyer, self.took_kinds[buyer]
                               | 1 << (up % 52 if up < self.n52 else 52))
        self.buys = _set(self.buys, buyer, self.buys[buyer] + 1)
        lim = self.buy_limit()
        self._log(buyer, text, f"buys {self._name(up)} with a penalty card (buy "
                  f"{self.buys[buyer]}{'' if lim is None else f' of {lim}'})",
                  f"penalty card {self._name(pen)}")
        self.queue = ()
        self._turn_draw()

    def _pick(self, kind: int, hand: int) -> int:
        """A physical card of ``kind`` from ``hand`` for a meld, a lay-off or an exchange: the
        upcard taken this turn first (so that another copy stays free for the discard, SH-6.5),
        then the copies the others know this player holds (bought or taken, SH-6.4), then the
        rest, uniformly at random within each group (:meth:`_choose`)."""
        pool = hand & kind_masks(self.pack.decks, self.pack.jokers)[kind]
        t = self.taken
        if t >= 0 and (pool >> t) & 1:
            return t
        return self._choose(pool, hand, kind)

    def _choose(self, pool: int, hand: int, kind: int) -> int:
        """One card id of ``pool``: a copy the others know this player holds first (so what
        they know stays exactly what the cards shown tell them), otherwise uniformly random
        among the rest, keyed to hidden state (SH-6.4; :func:`~meldhall.cards.choose_copies`).
        Option ``copy_choice="legacy"``: the lowest index, as format version 1 played."""
        if pool & (pool - 1) == 0:
            return pool.bit_length() - 1  # one copy (both choices pick it)
        if self.options.copy_choice == "legacy":
            return (pool & -pool).bit_length() - 1
        known = self.known[self.turn]
        # keyed to the hidden seed and to what does not depend on which copies are held
        key = copy_key4(hand_key(self.seed, self.hand_no), hand.bit_count(), kind,
                        len(self.stock), len(self.pile))
        return choose_copies((pool & known, pool & ~known), 1, key, self.n52).bit_length() - 1

    def _do_contract(self, a: Contract, text: str | Action) -> None:
        """SH-8.1: the contract's melds go on the table, in the action's (canonical) order; the
        physical copies are picked now.  One log entry, in the shorthand's text, so records
        replay; staging leaves no trace."""
        seat = self.turn
        hand = self.hands[seat]
        n52 = self.n52
        new: list[TableMeld] = []
        jokers = 0
        for m in a.melds:
            cards: list[int] = []
            decl: list[int] = []
            for k, is_j in m.declared():
                cid = self._pick(JOKER_KIND if is_j else k, hand)
                hand &= ~(1 << cid)
                cards.append(cid)
                decl.append(k)
            nj = sum(1 for c in cards if c >= n52)
            jokers += nj
            if m.is_run:
                new.append(TableMeld(seat, True, 0, m.suit, m.lo, tuple(cards), tuple(decl), nj))
            else:
                new.append(TableMeld(seat, False, m.rank, -1, 0, tuple(cards), tuple(decl), nj))
        first = len(self.melds) + 1
        self.melds = self.melds + tuple(new)
        self.hands = _set(self.hands, seat, hand)
        self.known = _set(self.known, seat, self.known[seat] & hand)
        self.made |= 1 << seat
        self.staged = ()
        self.stages = 0
        self.contract_now = True
        self.jokers_now += jokers
        nums = ", ".join(str(first + i) for i in range(len(new)))
        self._log(seat, text, f"makes the contract (melds {nums})")
        if not hand:
            self._went_out(seat)

    def _do_layoff(self, a: LayOff, plan: tuple[int, int, int | None] | None,
                   text: str | Action) -> None:
        """SH-9.1, SH-9.3: the card joins the meld (a run at the end it extends)."""
        if plan is None:
            plan = self._plan_layoff(a)
        idx, decl, pos = plan
        seat = self.turn
        hand = self.hands[seat]
        cid = self._pick(a.kind, hand)
        hand &= ~(1 << cid)
        m = self.melds[idx]
        joker = cid >= self.n52
        if pos is None:  # a set (a run's lay-off has its position)
            nm = TableMeld(m.owner, False, m.rank, -1, 0, m.cards + (cid,), m.decl + (decl,),
                           m.jokers + joker)
        elif pos < m.lo:
            nm = TableMeld(m.owner, True, 0, m.suit, pos, (cid,) + m.cards,
                           (decl,) + m.decl, m.jokers + joker)
        else:
            nm = TableMeld(m.owner, True, 0, m.suit, m.lo, m.cards + (cid,),
                           m.decl + (decl,), m.jokers + joker)
        self.melds = _set(self.melds, idx, nm)
        self.hands = _set(self.hands, seat, hand)
        self.known = _set(self.known, seat, self.known[seat] & hand)
        if joker:
            self.jokers_now += 1
        self._log(seat, text)
        if not hand:
            self._went_out(seat)

    def _do_swap(self, a: Swap, plan: tuple[int, int] | None, text: str | Action) -> None:
        """SH-9.4: the natural card takes the joker's place; the joker goes to the hand."""
        if plan is None:
            plan = self._plan_swap(a)
        idx, i = plan
        seat = self.turn
        hand = self.hands[seat]
        cid = self._pick(a.kind, hand)
        m = self.melds[idx]
        joker = m.cards[i]
        hand = (hand & ~(1 << cid)) | (1 << joker)
        cards = m.cards[:i] + (cid,) + m.cards[i + 1:]
        self.melds = _set(self.melds, idx, TableMeld(m.owner, m.run, m.rank, m.suit, m.lo,
                                                     cards, m.decl, m.jokers - 1))
        self.hands = _set(self.hands, seat, hand)
        self.known = _set(self.known, seat, (self.known[seat] & hand) | (1 << joker))
        self._log(seat, text, "takes the joker into hand")

    def _do_discard(self, a: Discard, plan: int | None, text: str | Action) -> None:
        """SH-6.2: the discard ends the turn; an empty hand has gone out (SH-11.1)."""
        cid = plan if plan is not None else self._plan_discard(a)
        seat = i = self.turn
        v = self.hands
        hand = v[i] & ~(1 << cid)
        self.hands = v[:i] + (hand,) + v[i + 1:]
        v = self.known
        self.known = v[:i] + (v[i] & hand,) + v[i + 1:]
        self.pile = self.pile + (cid,)
        v = self.declined_kinds
        self.declined_kinds = v[:i] + (v[i] | 1 << (cid % 52 if cid < self.n52 else 52),) \
            + v[i + 1:]
        self.upcard_from = seat
        # format version 1 logged which copy a kind-named discard moved; a legacy replay
        # keeps that note so that its log is unchanged (the uniform choice shows no index)
        legacy = self.options.copy_choice == "legacy" and a.deck is None
        self._log(seat, text, self.pack.cards[cid].physical if legacy else "")
        if not hand:
            self._went_out(seat)
            return
        self._begin_turn((seat + 1) % self.players)

    def _went_out(self, seat: int) -> None:
        """SH-11.1–SH-11.3: the deal ends; blind if the contract was made this turn."""
        self._end_deal("went_out_blind" if self.contract_now else "went_out", seat)

    # ------------------------------------------------------------------ scoring
    def provisional_results(self) -> tuple[SideResult, ...]:
        """The deal scored as if the stock ran out now (SH-13 penalty points); see
        :meth:`meldhall.game.State.provisional_results`."""
        return score_deal(self, "stock_exhausted", None)[0]

    def _end_deal(self, how: str, went_out: int | None) -> None:
        """Score the deal (SH-13) and decide whether the game ends (SH-14)."""
        self.went_out = went_out
        results, new_scores = score_deal(self, how, went_out)
        self.scores = new_scores
        self.deal_scores = self.deal_scores + (tuple(r.hand_score for r in results),)
        game_over, winners, extra = game_result(self)
        self.extra_seats = extra
        self._outcome = Outcome(self.hand_no, how, went_out, results, game_over, winners)
        self._phase = GAME_OVER if game_over else DEAL_END
        self.queue = ()
        self._cache = None
        end = {"went_out": f"seat {went_out} goes out",
               "went_out_blind": f"seat {went_out} goes out blind",
               "stock_exhausted": "the stock is exhausted; nobody went out"}[how]
        self._log(-1, "", f"deal {self.hand_no + 1} ends: {end}; totals "
                  + ", ".join(str(x) for x in new_scores)
                  + ("; game over" if game_over else ""))

    # ------------------------------------------------------------------ text, observation
    def parse_action(self, text: str) -> Action:
        """Read an action in notation (docs/notation-shanghai.md) for this state.

        Lay-offs are made canonical against the table: a bare run joker with its end gets its
        declared card, and an end that is not needed is dropped.

        Raises:
            NotationError: not an action.
            IllegalActionError: a meld no rule allows, with its rule ID.
        """
        a = parse_shanghai_action(text)
        if type(a) is LayOff and 1 <= a.meld <= len(self.melds):
            m = self.melds[a.meld - 1]
            if m.run and (a.end is not None or (a.kind == JOKER_KIND and a.decl is None)):
                a = self._canonical_layoff(a, m)
        return a

    def _canonical_layoff(self, a: LayOff, m: TableMeld) -> LayOff:
        opts = self.options
        lo, hi, suit = m.lo, m.hi, m.suit
        ends: dict[str, int] = {}
        if lo > 1 and not (lo == 2 and hi == 14 and not opts.ace_both_ends):
            ends["low"] = kind_at(suit, lo - 1)
        if hi < 14 and not (hi == 13 and lo == 1 and not opts.ace_both_ends):
            ends["high"] = kind_at(suit, hi + 1)
        ambiguous = len(ends) == 2 and ends["low"] == ends["high"]
        decl = a.decl
        if a.kind == JOKER_KIND and decl is None:
            if a.end is None or a.end not in ends:
                return a  # refused by check with a reason
            decl = ends[a.end]
        card = decl if a.kind == JOKER_KIND else a.kind
        end = a.end
        if end is not None and not ambiguous and ends.get(end) == card:
            end = None
        return LayOff(a.kind, a.meld, decl, end)

    # ------------------------------------------------------------------ action ids
    # (through :mod:`._links`: the action-id, observation and position modules import this one)
    @property
    def num_distinct_actions(self) -> int:
        """Size of the fixed integer action space (the same for every state of a game with
        these options and player count; docs/protocol.md, "Action ids: Shanghai Rummy")."""
        return _links.action_space(self.options).size

    def action_id(self, action: Action) -> int:
        """The integer id of ``action`` (raises ``NotationError`` for one outside the space,
        such as the compound contract shorthand)."""
        return _links.action_space(self.options).id_of(action)

    def action_from_id(self, i: int) -> Action:
        """The action of id ``i`` (raises ``NotationError`` for an id out of range)."""
        return _links.action_space(self.options).action(i)

    def observation(self, seat: int) -> ShanghaiObservation:
        """What ``seat`` may know (SH-6.4); see
        :class:`~meldhall.games.shanghai.observation.ShanghaiObservation`."""
        return _links.observe(self, seat)

    def __repr__(self) -> str:
        return (f"<ShanghaiState players={self.players} deal={self.hand_no + 1} "
                f"turn={self.turn} phase={self._phase}>")

    def __reduce__(self) -> tuple[Callable[[dict[str, Any], list[LogEntry], int], ShanghaiState],
                                  tuple[dict[str, Any], list[LogEntry], int]]:
        # The log is a linked list as deep as the game is long: pickle and deepcopy get it
        # flat, so that states of long games stay plain values (the batch simulator pickles).
        entries = self._entries()
        mark = len(entries) - len(self._entries(self.log_mark))
        fields = {name: getattr(self, name) for name in ShanghaiState.__slots__
                  if name not in ("log", "log_mark", "_cache")}
        return (_rebuild_state, (fields, entries, mark))

    def unstaged(self) -> ShanghaiState:
        """This state with the player in turn's staged melds withdrawn (a copy; the per-turn
        stage counter is reset too).  For planners that decide a whole contract at once."""
        if not self.staged and not self.stages:
            return self
        s = self._copy()
        s.staged = ()
        s.stages = 0
        s._cache = None
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShanghaiState):
            return NotImplemented
        return _links.dump_position(self) == _links.dump_position(other)

    __hash__ = None  # type: ignore[assignment]  # unhashable: equality compares positions


def entry_text(entry: StoredEntry) -> LogEntry:
    """A log entry with its action written out in notation."""
    text = entry[1]
    if type(text) is str:
        return entry  # type: ignore[return-value]  # the text is already a str
    return (entry[0], str(text), entry[2], entry[3])


def _rebuild_state(fields: dict[str, Any], entries: list[LogEntry], mark: int) -> ShanghaiState:
    """Unpickle a :class:`ShanghaiState` (see ``__reduce__``)."""
    s = object.__new__(ShanghaiState)
    for name, value in fields.items():
        setattr(s, name, value)
    log: LogNode = None
    mark_node: LogNode = None
    for i, e in enumerate(entries):
        if i == mark:
            mark_node = log
        log = (log, e)
    if mark >= len(entries):
        mark_node = log
    s.log = log
    s.log_mark = mark_node
    s._cache = None
    return s


def _shape_set(m: SetSpec) -> None:
    if (not isinstance(m.rank, int) or not 1 <= m.rank <= 13
            or not all(isinstance(s, int) and 0 <= s < 4 for s in m.suits + m.jokers)):
        raise IllegalActionError("SH-7.1", f"{m!r} is not a set")


def _shape_run(m: RunSpec) -> None:
    if (not all(isinstance(v, int) for v in (m.suit, m.lo, m.length, m.jokers))
            or not 0 <= m.suit < 4 or m.lo < 1 or m.length < 1 or m.lo + m.length - 1 > 14
            or m.jokers < 0 or m.jokers >> m.length):
        raise IllegalActionError("SH-7.3", f"{m!r} is not a run within A-2-…-K-A")


#: Stage actions per (kind of meld, the cards that supply it): pure functions of their key.
_STAGE_LISTS: dict[tuple[object, ...], list[Stage]] = {}
#: The shared discard of each kind, by kind (``compress`` picks those of the kinds held).
_DISCARDS = tuple(discard_action(k) for k in range(JOKER_KIND + 1))
#: A byte translation writing counts as binary digits (``0`` for none, ``1`` for some).
_BIT_DIGITS = bytes(48 + (i > 0) for i in range(256))
#: Byte translations capping counts at two, and marking counts of at least two and of at
#: least three.
_AT_MOST_TWO = bytes(min(i, 2) for i in range(256))
_AT_LEAST_TWO = bytes(i >= 2 for i in range(256))
_AT_LEAST_THREE = bytes(i >= 3 for i in range(256))


class _DealFacts(NamedTuple):
    """What a deal's contract and the options make of the meld phase
    (:meth:`ShanghaiState._deal_facts`)."""

    contract: ContractRule
    sets: int
    runs: int
    melds: int
    min_cards: int  # cards a hand needs to stage (SH-8.7)
    min_sizes: bool
    lengths: tuple[int, ...]
    run_need: tuple[int, ...]
    run_jokers: tuple[int, ...]
    buy_limit: int | None  # buys each player may make this deal (SH-10.6)


def _suit_run_stages(suit: int, row: int, jokers: int,
                     lengths: tuple[int, ...]) -> list[Stage]:
    """The stages of every run of ``suit`` (lengths under 14) that ``run_candidates`` finds
    for a hand holding the kinds of the bitmask ``row`` (bit ``rank - 1``) and ``jokers``
    jokers, in its order, built window by window (a window's stages depend only on which of
    its positions are held)."""
    ext = row | (row & 1) << 13  # positions 1 … 14 (the ace at both ends), bit position - 1
    out: list[Stage] = []
    for ln in lengths:
        lim = min(joker_limit(ln, True), jokers)
        full = (1 << ln) - 1
        for lo in run_windows(ln):
            w = (ext >> (lo - 1)) & full
            if ln - w.bit_count() > lim:
                continue  # more places to fill than jokers allowed
            key = (suit, ln, lo, w, lim)
            got = _RUN_WINDOWS.get(key)
            if got is None:
                counts = [0] * 53
                for i in range(ln):
                    if (w >> i) & 1:
                        counts[kind_at(suit, lo + i)] = 1
                got = _RUN_WINDOWS[key] = [stage_action(r) for r, _ in run_candidates(
                    counts, suit, (ln,), lim) if r.lo == lo]
            out.extend(got)
    return out


#: The stages of one run window: ``(suit, length, lowest position, positions held, jokers)``.
_RUN_WINDOWS: dict[tuple[int, int, int, int, int], list[Stage]] = {}


@cache
def _buy_order(n: int, turn: int, dealer: int, next_in_turn: bool) -> tuple[int, ...]:
    """SH-10.3: the seats other than the player in turn, in the order the upcard is offered
    (before the discarder and the buy limits are applied)."""
    if next_in_turn:
        return tuple((turn + k) % n for k in range(1, n))
    start = (dealer + 1) % n
    return tuple((start + k) % n for k in range(n) if (start + k) % n != turn)


@cache
def _offer_order(t: int, dealer: int, next_in_turn: bool, d: int, lim: int | None,
                 buys: tuple[int, ...], discarder_may_buy: bool) -> tuple[int, ...]:
    """:meth:`ShanghaiState.buy_offer_order` once the upcard can be offered: the seats in
    offer order (SH-10.3) but the player in turn ``t`` and the discarder ``d``, within the
    buy limit ``lim`` (SH-10.6), then the discarder if the options let it buy (kept by all
    it depends on: the same few recur all game)."""
    order = _buy_order(len(buys), t, dealer, next_in_turn)
    if lim is None:
        q = [s for s in order if s != d]
    else:
        q = [s for s in order if s != d and buys[s] < lim]
    if d >= 0 and d != t and discarder_may_buy and (lim is None or buys[d] < lim):
        q.append(d)
    return tuple(q)


@cache
def _run_lengths(run_len: int, min_sizes: bool, ace_both_ends: bool) -> tuple[int, ...]:
    """The lengths a contract's run may have (SH-8.2): exactly ``run_len``, or under
    ``contract_min_sizes`` any length from it to the longest run (SH-7.3)."""
    if not min_sizes:
        return (run_len,)
    return tuple(range(run_len, (14 if ace_both_ends else 13) + 1))


def _make_copy() -> Callable[[ShanghaiState], ShanghaiState]:
    lines = ["def _copy(self):", "    new = _new(ShanghaiState)"]
    for name in ShanghaiState.__slots__:
        if name != "_cache":
            lines.append(f"    new.{name} = self.{name}")
    lines += ["    new._cache = None", "    return new"]
    ns: dict[str, Any] = {"_new": object.__new__, "ShanghaiState": ShanghaiState}
    exec("\n".join(lines), ns)  # noqa: S102 -- generated straight-line copy, no input
    copy: Callable[[ShanghaiState], ShanghaiState] = ns["_copy"]
    return copy


ShanghaiState._copy = _make_copy()  # type: ignore[method-assign, assignment]  # a faster copy


def resolve_options(players: int | None,
                    options: ShanghaiOptions | dict[str, Any] | None) -> ShanghaiOptions:
    """A :class:`ShanghaiOptions` from ``options`` (object, dict or ``None``) and ``players``."""
    if options is None:
        return ShanghaiOptions(player_count=players or 4)
    if isinstance(options, dict):
        data = dict(options)
        if players is not None:
            data["player_count"] = players
        return ShanghaiOptions.from_json(data)
    if not isinstance(options, ShanghaiOptions):
        raise OptionsError(f"options must be a ShanghaiOptions or a dict, not {options!r}")
    if players is not None and players != options.player_count:
        return options.with_values(player_count=players)
    return options


def new_game(
    players: int | None = None,
    seed: int = 0,
    options: ShanghaiOptions | dict[str, Any] | None = None,
    *,
    dealer: int | None = None,
) -> ShanghaiState:
    """Start a Shanghai Rummy game and deal its first deal.

    Args:
        players: 3 to 8 (overrides ``options.player_count``).
        seed: integer seed; the same seed and actions give the identical game.
        options: a :class:`ShanghaiOptions` or a dict of option names to values.
        dealer: first dealer's seat; if ``None`` it is chosen by the SH-4.1 draw, made from
            the seed and written to the log (a supplied dealer equal to the drawn one gives the
            identical game, so records replay exactly).

    Raises:
        OptionsError: unknown option or bad value.
    """
    opts = resolve_options(players, options)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise OptionsError(f"seed must be an integer, not {seed!r}")
    n = opts.player_count
    s = object.__new__(ShanghaiState)
    for name in ShanghaiState.__slots__:
        setattr(s, name, None)
    s.options = opts
    s.pack = Pack.get(opts.num_decks, opts.num_jokers)
    s.n52 = 52 * opts.num_decks
    s.seed = seed
    s.scores = (0,) * n
    s.deal_scores = ()
    s.extra_seats = ()
    s.hand_no = 0
    s.log = None
    s.log_mark = None
    s._cache = None
    if dealer is not None and (not isinstance(dealer, int) or not 0 <= dealer < n):
        raise OptionsError(f"dealer must be a seat 0..{n - 1}, not {dealer!r}")
    rng = random.Random(_mix(seed, 0xDEA1))
    pack = s.pack
    order: list[int] = []

    def draw() -> Card:
        if not order:
            order.extend(range(pack.size))
            rng.shuffle(order)
        return pack.cards[order.pop()]

    drawn, events = choose_dealer(draw, n)
    if dealer is None or dealer == drawn:
        # a supplied dealer equal to the drawn one (a record's replay) logs the same draw
        dealer = drawn
        s._log(-1, "", "draw for the first deal (SH-4.1): " + ", ".join(
            f"seat {seat} {card}" for seat, card in events) + f"; seat {dealer} deals")
    else:
        s._log(-1, "", f"seat {dealer} deals first (chosen by the table, SH-4.1)")
    s.dealer = dealer
    s.first_dealer = dealer
    s._start_deal()
    return s
