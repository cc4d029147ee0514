"""Classic Canasta: the game state and its rules (docs/rules/classic-canasta.md, CC-1 … CC-14).

A :class:`ClassicCanastaState` is an immutable value covering a whole game (match): every
hand from the deal to the score sheet.  Cards are ``int`` bitmasks over the card ids of a
:class:`~meldhall.cards.Pack`; melds are counts plus the mask of their physical cards.

Phases (``state.phase``):

* ``"draw"`` — the seat in turn draws from the stock or takes the pile (CC-5.2, CC-8);
  with the stock empty, takes only, or ``pass`` (CC-11.3).
* ``"meld"`` — melds, additions, "may I go out?", then the discard (CC-5.2, CC-6, CC-10).
* ``"consent"`` — the asked partner answers ``yes`` or ``no`` (CC-10.5).
* ``"hand_end"`` — the hand is scored (``outcome``); the next dealer deals (CC-4.2).
* ``"game_over"`` — the game has ended (CC-13).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, ClassVar

from meldhall.cards import JOKER
from meldhall.errors import IllegalActionError, NotationError
from meldhall.game import Action, SideResult
from meldhall.games.canasta.actions import (
    CLASSIC_PARSE_RULES, NATURAL_RANKS, TWO, Add, Answer, Ask, Discard, Draw, GoOut, Meld,
    MeldSpec, Pass, Stage, Take, canonical_specs, format_kind, parse_canasta_action,
    with_article,
)
from meldhall.games.canasta.engine import (
    DISCARDS, HELD_KINDS, MELD_DONE, STAGE_LIMIT,
    NO_MELDS, CanastaMeld, CanastaState, LogText, Plan, hand_seed, interned_add, interned_meld,
    interned_take,
    interned_stage, kind_name, plural, set_item, wild_splits,
)
from meldhall.games.canasta.melds import MeldState, can_go_out, enum_new_melds, meld_ok
from meldhall.games.canasta.values import CLASSIC_VALUES
from meldhall.games.classic_canasta.options import ClassicCanastaOptions

if TYPE_CHECKING:
    # for annotations only: the observation module imports this one, never the reverse
    from meldhall.games.classic_canasta.observation import ClassicCanastaObservation

__all__ = ["CONSENT", "DRAW", "GAME_OVER", "HAND_END", "MELD", "ClassicCanastaState", "new_game"]

DRAW, MELD, CONSENT, HAND_END, GAME_OVER = "draw", "meld", "consent", "hand_end", "game_over"
_PHASES = (DRAW, MELD, CONSENT, HAND_END, GAME_OVER)

#: A scored hand: a :class:`SideResult` per score column and the cumulative scores after it.
HandScore = tuple[tuple[SideResult, ...], tuple[int, ...]]

V = CLASSIC_VALUES
_PASS = Pass()
_YES = Answer(True)
_NO = Answer(False)


class ClassicCanastaState(CanastaState):
    """A Classic Canasta game in progress.  Build one with :func:`new_game`.

    Public read-only attributes (all plain values): ``options``, ``seed``, ``pack``,
    ``hand_no``, ``dealer``, ``turn``, ``scores`` (per side, or per player in cutthroat),
    ``side_of`` (seat -> side), ``stock_size``, ``pile`` (card ids, bottom first),
    ``pile_frozen``.  Use :meth:`observation` for what a seat may see.
    """

    game_name = "classic-canasta"

    options: ClassicCanastaOptions
    # the attributes of Classic's own ``__slots__`` (the turn's "may I go out?" exchange and
    # the hand's melding history)
    asked: bool                 #: the seat in turn has asked "may I go out?" (CC-10.5)
    asker_partner: int          #: the partner asked, -1 if none
    b3_done: bool               #: a black-three meld was made this turn (CC-9.5)
    conceal_ok: bool            #: the seat in turn may still go out concealed (CC-10.6)
    first_taker: int | None     #: cutthroat: the lone seat, first to take or go out (CC-14.1)
    no_discard: bool            #: the last stock card drawn was a red three (CC-11.2)
    permission: bool | None     #: the partner's answer, ``None`` before one
    seat_melded: int            #: bitmask of the seats that have melded this hand

    # Wired by the package (``meldhall/games/classic_canasta/__init__.py``): the modules built
    # on the state are imported by it, never by the state, so the imports run one way.
    #: The observation class (:mod:`meldhall.games.classic_canasta.observation`).
    _observation_class: ClassVar[type[ClassicCanastaObservation]]
    #: Scores an ended hand (:func:`meldhall.games.classic_canasta.scoring.score_hand`).
    _scorer: ClassVar[Callable[[ClassicCanastaState, str, int | None], HandScore]]

    __slots__ = (
        "asked",
        "asker_partner",
        "b3_done",
        "conceal_ok",
        "first_taker",
        "no_discard",
        "permission",
        "seat_melded",
    )

    RULES = {
        "turn": "CC-5.8", "turn_consent": "CC-10.5", "game_over": "CC-13.2",
        "discard": "CC-5.2", "meld_shape": "CC-6.1", "deal": "CC-4.2",
        "stock_empty": "CC-11.3", "turn_start": "CC-5.2", "minimum": "CC-7.1",
        "minimum_take": "CC-7.4", "pile_empty": "CC-8.1", "pile_blocked": "CC-8.2",
        "take_frozen": "CC-8.5", "take_wild_frozen": "CC-8.5", "take_wild": "CC-8.6",
        "take_route": "CC-8.6", "staging": "CC-6.9", "drawn": "CC-5.5",
    }

    def _phase_actor(self, phase: str) -> int | None:
        return self.asker_partner if phase == CONSENT else None  # CC-10.5

    def side_has_melded(self, side: int) -> bool:
        """True once the side has any meld this hand (red threes do not count, CC-9.2)."""
        return self.melds[side] != NO_MELDS

    def canastas(self, side: int) -> int:
        """Number of canastas (melds of seven or more, CC-6.6) of a side."""
        n = 0
        for m in filter(None, self.melds[side]):
            if m.size >= 7 and m.rank != 3:
                n += 1
        return n

    def minimum_for(self, seat: int) -> int:
        """Minimum count for the first melding of ``seat``'s side this hand (CC-7.1, CC-7.2).

        In cutthroat each player's minimum follows their own score (CC-14.1).
        """
        if self.options.cutthroat:
            return self.options.minimum_count(self.scores[seat])
        return self.options.minimum_count(self.scores[self.side_of[seat]])

    # ------------------------------------------------------------------ dealing
    def _turn_upcard(self, order: list[int]) -> tuple[list[int], bool] | None:
        """CC-4.7, CC-4.8: turn the upcard, covering red threes, wild cards and (``cover``)
        black threes; the pile starts frozen if a wild card or (by option) a red three was
        turned.  ``None`` if the stock ran out (CC-4.11)."""
        opts = self.options
        rank_of = self.pack.rank_of
        red = self.pack.red_threes
        pile: list[int] = []
        frozen = False
        while order:
            c = order.pop()
            pile.append(c)
            r = rank_of[c]
            if r in (JOKER, TWO):
                frozen = True
            elif r == 3 and (red >> c) & 1:
                frozen = frozen or opts.red_three_upcard_freezes
            elif not (r == 3 and opts.black_three_upcard == "cover"):
                return pile, frozen
        return None

    def _start_hand(self) -> None:
        sides = _initial_sides(self.options)
        self._reset_hand(sides, max(sides) + 1)
        self.seat_melded = 0
        self.first_taker = None
        self._deal(hand_seed(self.seed, self.hand_no))
        self._begin_turn((self.dealer + 1) % self.players)

    def _begin_turn(self, seat: int) -> None:
        """Start ``seat``'s turn (CC-5.1); with the stock empty apply CC-11.3."""
        self.turn = seat
        self._phase = DRAW
        self.asked = False
        self.permission = None
        self.asker_partner = -1
        self.pile_cards = 0
        self.took = False
        self.melds_made = 0
        self.new_ranks = 0
        self.conceal_ok = not (self.seat_melded >> seat) & 1
        self.b3_done = False
        self.no_discard = False
        self.staged = ()
        self.staged_up = False
        self.stages = 0
        self._cache = None
        if not self.stock and not self._take_possible():
            self._end_hand("stock_exhausted", None)

    # ------------------------------------------------------------------ helpers
    def _frozen_for(self, side: int) -> bool:
        """CC-8.3, CC-8.4: frozen for everyone, or against a side that has not melded."""
        if self.pile_frozen:
            return True
        return self.options.frozen_until_side_melds and not self.side_has_melded(side)

    def _required(self) -> int:
        return self.options.required_canastas

    def _b3_max(self) -> int:
        return 6 if self.players == 6 else 4

    def _may_go_out_now(self, canastas_after: int) -> tuple[str, str] | None:
        """None if the player may go out with ``canastas_after`` canastas; else the reason:
        ``(rule ID, sentence)``."""
        req = self._required()
        if canastas_after < req:
            return ("CC-10.1", f"your side needs {plural(req, 'canasta')} to go out and would "
                    f"have {canastas_after}")
        if self.permission is False:
            return ("CC-10.5", "your partner answered \"no\": you may not go out this turn")
        if (self.options.partner_permission == "compulsory" and self.partners(self.turn)
                and self.permission is not True):
            return ("CC-10.5", "with compulsory permission you must ask your partner before "
                    "going out")
        return None

    def _hand_after_rule(self, left: int, canastas_after: int, *, take: bool = False) -> None:
        """CC-5.7: a meld leaving one card or none needs the right to go out."""
        if left > 1:
            return
        reason = self._may_go_out_now(canastas_after)
        if reason is not None:
            rule, text = reason
            what = "no card" if left == 0 else "one card"
            if take:
                what += " after the pile has joined your hand"
            raise IllegalActionError(
                "CC-5.7", f"that would leave you {what}, which is allowed only when going out; "
                f"{rule}: {text}"
            )

    # ------------------------------------------------------------------ staging (CC-6.9)
    def _unmelded(self) -> bool:
        return not self.side_has_melded(self.side_of[self.turn])

    def _check_stage(self, spec: MeldSpec, upcard: bool, avail: Sequence[int]) -> None:
        """CC-6.9 (a): a staged meld is checked against CC-6.1–CC-6.3, and against CC-6.4
        counting the other staged melds; the upcard's meld also against CC-8.5–CC-8.6."""
        r, n, w = spec.rank, spec.naturals, spec.wilds
        name = format_kind(r) if r else "wild"
        if upcard:
            top = self._top_rank()
            if r != top:
                raise IllegalActionError(
                    "CC-8.5", f"the upcard is {with_article(top)}: its meld is of "
                    f"{format_kind(top)}s")
            for k, c in ((r, n), (TWO, spec.twos), (JOKER, spec.jokers)):
                self._need(avail, k, c, "CC-8.5")
            frozen = self._frozen_for(self._side())
            if n == 0 and w == 0:
                raise IllegalActionError(
                    "CC-8.6", f"your side has no meld of {name}s: the upcard alone cannot be "
                    f"added; take it with a natural pair of {name}s")
            if frozen and n < 2:
                why = ("frozen" if self.pile_frozen else "frozen against your side until it "
                       "melds (CC-8.4)")
                raise IllegalActionError(
                    "CC-8.5", f"the pile is {why}; taking it needs a natural pair of {name}s "
                    f"(you hold {avail[r] or 'no'} {name})")
            if n < 2:
                if n < 1 or w < 1:
                    raise IllegalActionError(
                        "CC-8.6", f"take the pile with two natural {name}s, or one natural and "
                        "one wild card")
                if not self.options.unfrozen_take_with_wild:
                    raise IllegalActionError(
                        "CC-8.6", "under these rules the pile is taken only with a natural pair")
            if not meld_ok(n + 1, w, self.options.wild_ratio):
                raise IllegalActionError(
                    "CC-6.2", f"a meld of {n + 1} natural {name}s and {w} wild cards is not "
                    "allowed: at least two naturals, at most three wild cards"
                    + (", no more wild cards than naturals"
                       if self.options.wild_ratio == "seed" else ""))
            return
        taken = {sp.rank for sp in self.staged}
        if r in taken:
            raise IllegalActionError(
                "CC-6.4", f"you have already staged a meld of {name}s: a side has one meld of "
                "each rank (withdraw it to change it)")
        if r == 3:
            if w:
                raise IllegalActionError("CC-9.5", "a black-three meld has no wild cards")
            if not 3 <= n <= self._b3_max():
                raise IllegalActionError(
                    "CC-9.5", f"a black-three meld has 3 to {self._b3_max()} black threes")
            self._need(avail, 3, n, "CC-9.5")
            return
        self._check_specs((spec,))
        for k, c in ((r, n), (TWO, spec.twos), (JOKER, spec.jokers)):
            self._need(avail, k, c, "CC-6.5")

    def _stage_actions(self, avail: Sequence[int], phase: str) -> list[Stage]:
        """Every stage of a new meld from ``avail`` (valid by construction, CC-6.1–CC-6.4);
        black threes only after the draw (they are checked as a going out at the commit)."""
        if self.stages >= STAGE_LIMIT:
            return []
        taken = {sp.rank for sp in self.staged} if self.staged else ()
        tw, jk = avail[TWO], avail[JOKER]
        pagat = self.options.wild_ratio == "pagat"
        out: list[Stage] = []
        for r in NATURAL_RANKS:
            if avail[r] < 2 or r in taken:
                continue
            out.extend(_stages_of(r, avail[r], tw, jk, pagat))
        if phase == MELD and avail[3] >= 3 and 3 not in taken:
            for b in range(3, min(avail[3], self._b3_max()) + 1):
                out.append(interned_stage(3, b, 0, 0))
        return out

    def _staged_meld_action(self) -> Meld | GoOut:
        """``meld done``: the staged melds as one first melding (CC-7.1), or — when they hold
        the whole hand — a going out without a discard (CC-10.2, CC-10.6)."""
        specs = canonical_specs(self.staged)
        if not any(self._avail()):
            return GoOut(specs, None)
        return Meld(specs)

    def _plan_staged_discard(self, action: Discard) -> Plan:
        """CC-6.9 (c): a discard while melds are staged commits a concealed going out."""
        avail = self._avail()
        if not 0 <= action.kind < 14 or avail[action.kind] < 1:
            raise IllegalActionError(
                "CC-5.2", f"you hold no {kind_name(action.kind)} outside your staged melds to "
                "discard")
        if sum(avail) != 1:
            raise IllegalActionError(
                "CC-6.9", "a discard while melds are staged goes out concealed, so the staged "
                "melds must hold every other card: commit them ('meld done') or withdraw them "
                "('withdraw all') first")
        full = self._staged_discard_action(action)
        return ("commit", full, self._plan_go_out(full))

    def _compound_options(self) -> list[Action]:
        """The one-action meldings of a side that has not melded (CC-6.9 shorthand)."""
        ratio = self.options.wild_ratio
        if self._phase == DRAW:
            def first_melds(counts: Sequence[int], tw: int, jk: int,
                            r: int) -> Iterator[tuple[MeldSpec, ...]]:
                sub = list(counts)
                sub[r] = 0
                others = [x for x in NATURAL_RANKS if x != r]
                for extra, _, _ in enum_new_melds(sub, others, tw, jk, ratio):
                    if extra:
                        yield extra
            return list(self._compound_takes(first_melds))
        counts = self._counts()
        minimum = self.minimum_for(self.turn)
        cands: list[Action] = []
        for specs, _, _ in enum_new_melds(counts, NATURAL_RANKS, counts[TWO], counts[JOKER],
                                          ratio):
            if specs and sum(sp.naturals * V[sp.rank] + sp.twos * V[TWO] + sp.jokers * V[JOKER]
                             for sp in specs) >= minimum:
                cands.append(Meld(specs))
        if not self.took:
            cands.extend(self._go_out_candidates(counts))
        return self._filter_legal(cands)

    def _precheck_shorthand(self, action: Action) -> None:
        """``out …`` is a concealed going out as a whole (CC-10.6): its own check first."""
        if type(action) is GoOut and not self.staged:
            self._plan_go_out(action)

    def _staged_discard_action(self, action: Discard) -> GoOut:
        return GoOut(canonical_specs(self.staged), action.kind)

    def _extras_largest_first(self, rest: Sequence[int], up_rank: int, need: int,
                              canonical: bool = True) -> Iterator[tuple[MeldSpec, ...]]:
        """Further new melds for a take (CC-7.4), largest first; sets whose best completion
        cannot reach ``need`` points are skipped."""
        ranks = [r for r in NATURAL_RANKS if r != up_rank and rest[r] >= 2]
        pagat = self.options.wild_ratio == "pagat"
        best_nat = [0] * (len(ranks) + 1)
        for i in range(len(ranks) - 1, -1, -1):
            best_nat[i] = best_nat[i + 1] + rest[ranks[i]] * V[ranks[i]]

        def rec(i: int, tl: int, jl: int, got: int) -> Iterator[tuple[MeldSpec, ...]]:
            if got + best_nat[i] + tl * V[TWO] + jl * V[JOKER] < need:
                return
            if i == len(ranks):
                yield ()
                return
            r = ranks[i]
            for n in range(rest[r], 1, -1):
                cap = 3 if pagat else min(3, n)
                for w in range(min(cap, tl + jl), max(0, 3 - n) - 1, -1):
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
    def _turn_rule_key(self) -> str:
        return "turn_consent" if self._phase == CONSENT else "turn"

    def _plan_phase(self, action: Action, t: type[Action], ph: str) -> list[int] | None:
        if ph == CONSENT:
            if t is not Answer:
                raise IllegalActionError(
                    "CC-10.5", f"seat {self.asker_partner} must first answer \"may I go out?\" "
                    "with yes or no")
            return None
        if t is Answer:
            raise IllegalActionError("CC-10.5", "nobody has asked \"may I go out?\"")
        if ph == DRAW:
            raise IllegalActionError(
                "CC-5.2", "a turn begins by drawing from the stock ('draw') or taking the pile")
        # MELD phase
        if t is Draw or t is Take:
            # said for what was done (a tester read "nothing may be undone" beside an undo)
            if self.took:
                done = "you have already taken the pile this turn (one draw a turn)"
            elif t is Take:
                done = ("you have already drawn from the stock this turn, so you may not take "
                        "the pile now (a draw cannot be taken back)")
            else:
                done = "you have already drawn this turn (one draw a turn)"
            raise IllegalActionError("CC-5.5", done)
        if t is Pass:
            if not self.no_discard:
                raise IllegalActionError("CC-5.2", "a turn ends with a discard")
            return None
        # ``type(action)`` (which ``t`` is) so that the type checker narrows ``action``
        if type(action) is Discard:
            self._plan_discard(action)
            return None
        if type(action) is Meld:
            return self._plan_meld(action)
        if type(action) is Add:
            self._plan_add(action)
            return None
        if type(action) is GoOut:
            return self._plan_go_out(action)
        if type(action) is Ask:
            self._plan_ask(action)
            return None
        if str(action) == "go out":
            # Railroad Canasta's word (RR-11.7): a player who types it here is told how
            raise IllegalActionError(
                "CC-5.2", "go out is not a Classic Canasta action: you go out by melding all "
                "your cards but one and discarding it, or by melding them all (CC-10.2), once "
                "your side has the canastas it needs (CC-10.1)")
        raise IllegalActionError("CC-5.2", f"{action} is not a Classic Canasta action")

    # -- the pile ----------------------------------------------------------------------------
    def _plan_take(self, a: Take) -> list[int]:
        opts = self.options
        r = self._top_rank()
        if a.rank != r:
            raise IllegalActionError(
                "CC-8.5", f"the upcard is {with_article(r)}: the natural cards melded with it "
                "must be of its rank")
        seat = self.turn
        side = self.side_of[seat]
        counts = self._counts()
        frozen = self._frozen_for(side)
        melded = self.side_has_melded(side)
        existing = self.melds[side][r]
        n, tw, jk = a.naturals, a.twos, a.jokers
        w = tw + jk
        used = [0] * 14
        used[r] += n
        used[TWO] += tw
        used[JOKER] += jk
        if a.extra and melded:
            raise IllegalActionError(
                "CC-6.9", "further melds go after the take, one at a time: your side has "
                "already melded")
        for spec in a.extra:
            used[spec.rank] += spec.naturals
            used[TWO] += spec.twos
            used[JOKER] += spec.jokers
        for k in range(14):
            if used[k] > counts[k]:
                self._need(counts, k, used[k], "CC-8.5" if k == r else "CC-7.4")
        top_rank_name = format_kind(r)
        if existing is not None:
            route = self._take_route(r, n, w, counts, frozen, opts.unfrozen_take_with_wild)
            if route == "wild" and not meld_ok(existing.naturals + 2, existing.wilds + 1,
                                               opts.wild_ratio):
                raise IllegalActionError(
                    "CC-6.2", f"your meld of {top_rank_name}s cannot take another wild card")
            new_meld_cards = 0
        else:
            if n == 0 and w == 0:
                raise IllegalActionError(
                    "CC-8.6", f"your side has no meld of {top_rank_name}s: the upcard alone "
                    f"cannot be added; take it with a natural pair of {top_rank_name}s")
            if frozen and n < 2:
                why = ("frozen" if self.pile_frozen else "frozen against your side until it "
                       "melds (CC-8.4)")
                raise IllegalActionError(
                    "CC-8.5", f"the pile is {why}; taking it needs a natural pair of "
                    f"{top_rank_name}s (you hold {counts[r] or 'no'} {top_rank_name})")
            if n < 2:
                if n < 1 or w < 1:
                    raise IllegalActionError(
                        "CC-8.6", f"take the pile with two natural {top_rank_name}s, or one "
                        "natural and one wild card")
                if not opts.unfrozen_take_with_wild:
                    raise IllegalActionError(
                        "CC-8.6", "under these rules the pile is taken only with a natural pair")
            if not meld_ok(n + 1, w, opts.wild_ratio):
                raise IllegalActionError(
                    "CC-6.2", f"{top_rank_name} meld of {n + 1} naturals and {w} wild cards is "
                    "not allowed: at least two naturals, no more wild cards than naturals, at "
                    "most three wild cards" if opts.wild_ratio == "seed" else
                    "at most three wild cards")
            new_meld_cards = n + w + 1
        self._check_specs(a.extra, exclude_rank=r)
        if not melded:
            self._check_minimum(seat, used, "minimum_take", upcard_rank=r)
        # Hand size after the whole pile has joined the hand (CC-5.7, CC-8.7, CC-8.8).
        h = sum(counts)
        pile_rest = self.pile[:-1]
        red = self.pack.red_threes
        rest_red = sum(1 for c in pile_rest if (red >> c) & 1)
        left = h - sum(used) + len(pile_rest) - rest_red
        if opts.single_card_pile_restriction and h == 1 and len(self.pile) == 1:
            raise IllegalActionError(
                "CC-8.8", "with one card in hand you may not take a pile of one card")
        canastas_after = self.canastas(side)
        if existing is not None:
            if existing.size < 7 <= existing.size + n + w + 1:
                canastas_after += 1
        elif new_meld_cards >= 7:
            canastas_after += 1
        canastas_after += sum(1 for s in a.extra if s.size >= 7)
        if left <= 1 and opts.partner_permission == "compulsory" and self.partners(seat):
            raise IllegalActionError(
                "CC-10.5", "that take would commit you to going out, and with compulsory "
                "permission you must ask your partner first")
        self._hand_after_rule(left, canastas_after, take=True)
        return used

    def _check_specs(self, specs: Sequence[MeldSpec], exclude_rank: int | None = None) -> None:
        """CC-6.1–CC-6.4 for new melds listed in one action."""
        ratio = self.options.wild_ratio
        side = self._side()
        ranks = [s.rank for s in specs]
        if len(set(ranks)) != len(ranks):
            raise IllegalActionError(
                "CC-6.4", "a side has at most one meld of each rank: list each rank once")
        for s in specs:
            name = format_kind(s.rank)
            if s.rank == 3:
                raise IllegalActionError(
                    "CC-9.5", "black threes may be melded only as the last meld when going out")
            if s.rank == JOKER:
                raise IllegalActionError(
                    "CC-6.2", f"{s}: a meld needs at least two natural cards (wild cards alone "
                    "are not a meld)")
            if s.rank not in NATURAL_RANKS:
                raise IllegalActionError("CC-6.3", f"{name}s cannot be melded as a rank")
            if s.rank == exclude_rank or self.melds[side][s.rank] is not None:
                raise IllegalActionError(
                    "CC-6.4", f"your side already has a meld of {name}s: add to it instead")
            if s.size < 3:
                raise IllegalActionError("CC-6.1", f"{s}: a meld needs at least three cards")
            if not meld_ok(s.naturals, s.wilds, ratio):
                raise IllegalActionError(
                    "CC-6.2", f"{s}: a meld needs at least two natural cards"
                    + (", no more wild cards than natural cards" if ratio == "seed" else "")
                    + " and at most three wild cards")

    def _take_candidates(self, r: int, counts: Sequence[int]) -> list[Take]:
        """Candidate takes of the pile (CC-8.5, CC-8.6), filtered by :meth:`_plan_take`."""
        if self.melds[self.side_of[self.turn]][r] is not None:
            return self._takes_onto_meld(r, counts, True)
        # a side that has not melded stages further melds (CC-6.9)
        return _new_meld_takes(r, counts[r], counts[TWO], counts[JOKER],
                               self.options.wild_ratio == "pagat")

    def _take_forced(self) -> bool:
        """CC-11.3(a): with the stock empty, a legal take onto the side's meld is forced."""
        return self.options.stock_end_forced_take and self._forced_take()

    # -- meld phase --------------------------------------------------------------------------
    def _meld_common(self, left: int, canastas_after: int, counts_after: Sequence[int],
                     melds_after: dict[int, MeldState]) -> None:
        self._hand_after_rule(left, canastas_after)
        if self.permission is True and left >= 1:
            if not can_go_out(counts_after, melds_after, self._required(),
                              self.options.wild_ratio, black_three_max=self._b3_max()):
                raise IllegalActionError(
                    "CC-10.5", "your partner said \"yes\": you must go out this turn, and after "
                    "this you could not")

    def _plan_meld(self, a: Meld) -> list[int] | None:
        if self.b3_done:
            raise IllegalActionError("CC-9.5", "the black-three meld is the last meld of the turn")
        seat = self.turn
        side = self.side_of[seat]
        counts = self._counts()
        melded = self.side_has_melded(side)
        specs = a.melds
        if not specs:
            raise IllegalActionError("CC-6.1", "a meld needs cards")
        if len(specs) == 1 and specs[0].rank == 3:
            self._plan_black_threes(specs[0], counts)
            return None
        if melded and len(specs) > 1:
            raise IllegalActionError(
                "CC-6.9", "your side has melded: lay down one new meld at a time")
        self._check_specs(specs)
        used = [0] * 14
        for s in specs:
            used[s.rank] += s.naturals
            used[TWO] += s.twos
            used[JOKER] += s.jokers
        for k in range(14):
            if used[k] > counts[k]:
                self._need(counts, k, used[k], "CC-6.5")
        if not melded:
            self._check_minimum(seat, used, "minimum")
        left = sum(counts) - sum(used)
        canastas_after = self.canastas(side) + sum(1 for s in specs if s.size >= 7)
        counts_after = [counts[k] - used[k] for k in range(14)]
        melds_after = self.side_melds(side)
        for s in specs:
            melds_after[s.rank] = (s.naturals, s.twos, s.jokers)
        self._meld_common(left, canastas_after, counts_after, melds_after)
        return used

    def _plan_black_threes(self, spec: MeldSpec, counts: Sequence[int]) -> None:
        side = self._side()
        if spec.wilds:
            raise IllegalActionError("CC-9.5", "a black-three meld has no wild cards")
        if not self.side_has_melded(side):
            raise IllegalActionError(
                "CC-9.5", "black threes are melded only when going out; a side that has not "
                "melded goes out concealed with 'out …'")
        if not 3 <= spec.naturals <= self._b3_max():
            raise IllegalActionError(
                "CC-9.5", f"a black-three meld has 3 to {self._b3_max()} black threes")
        self._need(counts, 3, spec.naturals, "CC-9.5")
        left = sum(counts) - spec.naturals
        if left > 1:
            raise IllegalActionError(
                "CC-9.5", "black threes may be melded only as the last meld when going out "
                f"(you would still hold {left} cards)")
        reason = self._may_go_out_now(self.canastas(side))
        if reason is not None:
            raise IllegalActionError(*reason)

    def _plan_add(self, a: Add) -> None:
        if self.b3_done:
            raise IllegalActionError("CC-9.5", "the black-three meld is the last meld of the turn")
        side = self._side()
        name = format_kind(a.rank)
        if a.rank == 3:
            raise IllegalActionError("CC-9.5", "nothing may be added to a black-three meld")
        m = self.melds[side][a.rank] if 0 <= a.rank < 14 else None
        if m is None:
            if any(ms[a.rank] is not None for ms in self.melds if 0 <= a.rank < 14):
                raise IllegalActionError(
                    "CC-5.6", f"only an opponent has a meld of {name}s: you may meld only onto "
                    "your own side's melds")
            raise IllegalActionError(
                "CC-6.5", f"your side has no meld of {name}s (you may add only to your own "
                "side's melds, CC-5.6)")
        if a.size < 1 or min(a.naturals, a.twos, a.jokers) < 0:
            raise IllegalActionError("CC-6.5", "add at least one card")
        counts = self._counts()
        self._need(counts, a.rank, a.naturals, "CC-6.5")
        self._need(counts, TWO, a.twos, "CC-6.5")
        self._need(counts, JOKER, a.jokers, "CC-6.5")
        w = a.twos + a.jokers
        if w and not meld_ok(m.naturals + a.naturals, m.wilds + w, self.options.wild_ratio):
            raise IllegalActionError(
                "CC-6.2", f"your meld of {name}s ({m.naturals} natural, {m.wilds} wild) cannot "
                f"take {plural(w, 'more wild card')}"
                + (f" with {a.naturals} more natural" if a.naturals else ""))
        left = sum(counts) - a.size
        canastas_after = self.canastas(side) + (1 if m.size < 7 <= m.size + a.size else 0)
        counts_after = list(counts)
        counts_after[a.rank] -= a.naturals
        counts_after[TWO] -= a.twos
        counts_after[JOKER] -= a.jokers
        melds_after = self.side_melds(side)
        melds_after[a.rank] = (m.naturals + a.naturals, m.twos + a.twos, m.jokers + a.jokers)
        self._meld_common(left, canastas_after, counts_after, melds_after)

    def _plan_go_out(self, a: GoOut) -> list[int]:
        opts = self.options
        seat = self.turn
        side = self.side_of[seat]
        if self.side_has_melded(side):
            raise IllegalActionError(
                "CC-6.9", "'out' is for a side that has not melded; go out with ordinary melds")
        if self.took:
            raise IllegalActionError(
                "CC-6.9", "you took the pile this turn: your side has melded already")
        counts = self._counts()
        specs = [s for s in a.melds if s.rank != 3]
        b3 = [s for s in a.melds if s.rank == 3]
        self._check_specs(specs)
        used = [0] * 14
        for s in a.melds:
            used[s.rank] += s.naturals
            used[TWO] += s.twos
            used[JOKER] += s.jokers
        for s in b3:
            if s.wilds or not 3 <= s.naturals <= self._b3_max():
                raise IllegalActionError(
                    "CC-9.5", f"a black-three meld has 3 to {self._b3_max()} black threes and "
                    "no wild cards")
        if a.discard is not None:
            used[a.discard] += 1
        for k in range(14):
            if used[k] > counts[k]:
                self._need(counts, k, used[k], "CC-10.6")
        if used != counts:
            raise IllegalActionError(
                "CC-10.6", "going out concealed melds your entire hand (with at most one final "
                "discard)")
        canastas = sum(1 for s in specs if s.size >= 7)
        if canastas < 1:
            raise IllegalActionError("CC-10.6", "going out concealed needs a canasta")
        reason = self._may_go_out_now(canastas)
        if reason is not None:
            raise IllegalActionError(*reason)
        if not opts.concealed_exempt_from_minimum:
            minimum = self.minimum_for(seat)
            total = sum(s.naturals * V[s.rank] + s.twos * V[TWO] + s.jokers * V[JOKER]
                        for s in specs)
            if total < minimum:
                raise IllegalActionError(
                    "CC-7.6", f"under these rules a concealed going out needs the minimum count "
                    f"of {minimum}; these melds count {total}")
        return used

    def _plan_discard(self, a: Discard) -> None:
        if self.no_discard:
            raise IllegalActionError(
                "CC-11.2", "the last card of the stock was a red three: no discard; 'pass' ends "
                "the hand")
        counts = self._counts()
        if not 0 <= a.kind < 14 or counts[a.kind] < 1:
            raise IllegalActionError("CC-5.2", f"you hold no {kind_name(a.kind)} to discard")
        left = sum(counts) - 1
        side = self._side()
        if left == 0:
            reason = self._may_go_out_now(self.canastas(side))
            if reason is not None:
                rule, text = reason
                raise IllegalActionError(
                    "CC-5.7", f"discarding your last card would be going out; {rule}: {text}")
        elif self.permission is True:
            raise IllegalActionError(
                "CC-10.5", "your partner said \"yes\": this turn may end only by going out")

    def _plan_ask(self, a: Ask) -> None:
        opts = self.options
        seat = self.turn
        partners = self.partners(seat)
        if not partners:
            raise IllegalActionError(
                "CC-10.5", "you have no partner to ask: asking \"may I go out?\" is for "
                "partnerships (four or six players)")
        if opts.partner_permission == "disabled":
            raise IllegalActionError("CC-10.5", "asking \"may I go out?\" is disabled here")
        if a.partner not in partners:
            raise IllegalActionError(
                "CC-10.5", f"ask one of your partners: seat {' or '.join(map(str, partners))}")
        if self.asked:
            raise IllegalActionError("CC-10.5", "you may ask only once per turn")
        if self.no_discard:
            raise IllegalActionError(
                "CC-11.2", "the last card of the stock was a red three: this turn cannot end by "
                "going out")
        if self.melds_made:
            raise IllegalActionError(
                "CC-10.5", "ask right after drawing, before any further meld this turn")
        counts = self._counts()
        if sum(counts) < 2:
            raise IllegalActionError(
                "CC-10.5", "with one card left you are already committed to going out")
        if not can_go_out(counts, self.side_melds(self._side()), self._required(),
                          opts.wild_ratio, black_three_max=self._b3_max()):
            raise IllegalActionError("CC-10.5", "you cannot go out this turn, so you may not ask")
        if not opts.concealed_exempt_from_minimum and not self.side_has_melded(self._side()):
            # CC-10.5 "can go out" includes CC-7: without the CC-7.6 exemption an unmelded
            # side goes out only with melds that reach the minimum count.
            minimum = self.minimum_for(seat)
            need = max(1, self._required())
            if not any(
                sum(1 for s in g.melds if s.rank != 3 and s.size >= 7) >= need
                and sum(s.naturals * V[s.rank] + s.twos * V[TWO] + s.jokers * V[JOKER]
                        for s in g.melds if s.rank != 3) >= minimum
                for g in self._go_out_candidates(counts)
            ):
                raise IllegalActionError(
                    "CC-10.5", f"you cannot go out this turn (your side's melds would not reach "
                    f"the minimum count of {minimum}, CC-7.6), so you may not ask")

    # -- the fast path of legal_actions (tests/test_fast_path.py checks each against _plan) --
    def _top_takeable(self) -> int:
        """The upcard's rank if the pile may be taken at all (:meth:`_top_rank`), else -1."""
        if not self.pile:
            return -1
        top = self.pile[-1]
        r = self.pack.rank_of[top]
        return -1 if r in (JOKER, TWO, 3) else r

    def _specs_ok(self, specs: Sequence[MeldSpec], exclude_rank: int | None = None) -> bool:
        """:meth:`_check_specs` as a test."""
        if not specs:
            return True
        ratio = self.options.wild_ratio
        mine = self.melds[self.side_of[self.turn]]
        seen = 0
        for sp in specs:
            r = sp.rank
            bit = 1 << r
            if seen & bit:
                return False  # CC-6.4, one meld per rank
            seen |= bit
        for sp in specs:
            r = sp.rank
            if r == 3 or r == JOKER or r not in NATURAL_RANKS:
                return False  # CC-9.5, CC-6.2, CC-6.3
            if r == exclude_rank or mine[r] is not None:
                return False  # CC-6.4
            n, w = sp.naturals, sp.twos + sp.jokers
            if n + w < 3 or not meld_ok(n, w, ratio):
                return False  # CC-6.1, CC-6.2
        return True

    def _go_out_allowed(self, canastas_after: int) -> bool:
        """:meth:`_may_go_out_now` as a test (CC-10.1, CC-10.5)."""
        if canastas_after < self.options.required_canastas:
            return False
        perm = self.permission
        if perm is False:
            return False
        return not (self.options.partner_permission == "compulsory" and perm is not True
                    and self.partners(self.turn))

    def _take_ok(self, a: Take) -> bool:
        """:meth:`_plan_take` as a test (CC-5.7, CC-6, CC-7.4, CC-8, CC-10.5)."""
        opts = self.options
        r = self._top_takeable()
        if r < 0 or a.rank != r:
            return False  # CC-8.1, CC-8.2, CC-8.5
        seat = self.turn
        side = self.side_of[seat]
        counts = self._counts()
        frozen = self._frozen_for(side)
        melds = self.melds[side]
        melded = melds != NO_MELDS
        existing = melds[r]
        n, tw, jk = a.naturals, a.twos, a.jokers
        w = tw + jk
        extra = a.extra
        if extra and melded:
            return False  # CC-6.9
        used_r, used_2, used_j = n, tw, jk
        used_n = n + tw + jk
        value = n * V[r] + tw * V[TWO] + jk * V[JOKER]
        if extra:
            used = [0] * 14
            used[r] = n
            used[TWO] = tw
            used[JOKER] = jk
            for sp in extra:
                used[sp.rank] += sp.naturals
                used[TWO] += sp.twos
                used[JOKER] += sp.jokers
                used_n += sp.naturals + sp.twos + sp.jokers
                value += sp.naturals * V[sp.rank] + sp.twos * V[TWO] + sp.jokers * V[JOKER]
            for k in range(14):
                if used[k] > counts[k]:
                    return False  # CC-8.5, CC-7.4
        elif used_r > counts[r] or used_2 > counts[TWO] or used_j > counts[JOKER]:
            return False  # CC-8.5
        if existing is not None:
            if n == 0 and w == 0:
                if frozen:
                    return False  # CC-8.5
            elif n == 2 and w == 0:
                pass
            elif n == 1 and w == 1 and opts.unfrozen_take_with_wild:
                if frozen:
                    return False  # CC-8.5
                if not meld_ok(existing.naturals + 2, existing.wilds + 1, opts.wild_ratio):
                    return False  # CC-6.2
            else:
                return False  # CC-8.6
            new_meld_cards = 0
        else:
            if n == 0 and w == 0:
                return False  # CC-8.6
            if frozen and n < 2:
                return False  # CC-8.5
            if n < 2 and (n < 1 or w < 1 or not opts.unfrozen_take_with_wild):
                return False  # CC-8.6
            if not meld_ok(n + 1, w, opts.wild_ratio):
                return False  # CC-6.2
            new_meld_cards = n + w + 1
        if extra and not self._specs_ok(extra, exclude_rank=r):
            return False
        if not melded and value + V[r] < self.minimum_for(seat):
            return False  # CC-7.4
        h = sum(counts)
        pile = self.pile
        red = self.pack.red_threes
        rest_red = 0
        for c in pile[:-1]:
            if (red >> c) & 1:
                rest_red += 1
        left = h - used_n + len(pile) - 1 - rest_red
        if opts.single_card_pile_restriction and h == 1 and len(pile) == 1:
            return False  # CC-8.8
        if left > 1:
            return True
        canastas_after = self.canastas(side)
        if existing is not None:
            if existing.size < 7 <= existing.size + n + w + 1:
                canastas_after += 1
        elif new_meld_cards >= 7:
            canastas_after += 1
        canastas_after += sum(1 for sp in extra if sp.size >= 7)
        if opts.partner_permission == "compulsory" and self.partners(seat):
            return False  # CC-10.5
        return self._go_out_allowed(canastas_after)  # CC-5.7

    def _upcard_melds_may_commit(self, r: int, counts: Sequence[int], minimum: int) -> bool:
        """Whether the count of every card a take could meld reaches ``minimum`` (CC-7.4):
        the upcard and the naturals of ``r`` held, every wild card, and every natural of the
        other ranks held two or more times (the most any upcard meld and further melds
        count, so below it :meth:`_upcard_meld_commits` refuses every upcard meld)."""
        most = (counts[r] + 1) * V[r] + counts[TWO] * V[TWO] + counts[JOKER] * V[JOKER]
        for x in NATURAL_RANKS:
            c = counts[x]
            if c >= 2 and x != r:
                most += c * V[x]
        return most >= minimum

    def _upcard_meld_commits(self, up: Take, counts: Sequence[int], minimum: int) -> bool:
        """Whether a take with the upcard's meld ``up`` (a valid stage, CC-8.5, CC-8.6) and
        some further new melds would pass :meth:`_take_ok`: the melds
        :meth:`_extras_largest_first` would list, searched depth first without building them.
        For those melds (one per rank, valid by construction, the side unmelded) the take's
        test is the count reached (CC-7.4) and the hand it leaves (CC-5.7, CC-8.8, CC-10.5)."""
        opts = self.options
        r, n, t, j = up.rank, up.naturals, up.twos, up.jokers
        h = sum(counts)
        pile = self.pile
        if opts.single_card_pile_restriction and h == 1 and len(pile) == 1:
            return False  # CC-8.8
        rest = list(counts)
        rest[r] -= n
        rest[TWO] -= t
        rest[JOKER] -= j
        need = minimum - ((n + 1) * V[r] + t * V[TWO] + j * V[JOKER])
        red = self.pack.red_threes
        base_left = h - n - t - j + len(pile) - 1 - sum(1 for c in pile[:-1] if (red >> c) & 1)
        ranks = [x for x in NATURAL_RANKS if x != r and rest[x] >= 2]
        v2, vj = V[TWO], V[JOKER]
        if need <= 0 and base_left > 1:
            return True  # the upcard's meld alone reaches the count, and leaves two cards
        pagat = opts.wild_ratio == "pagat"
        last = len(ranks)
        best_nat = [0] * (last + 1)
        for i in range(last - 1, -1, -1):
            best_nat[i] = best_nat[i + 1] + rest[ranks[i]] * V[ranks[i]]
        may_empty = not (opts.partner_permission == "compulsory" and self.partners(self.turn))

        def rec(i: int, tl: int, jl: int, got: int, cards: int, can: int) -> bool:
            if got + best_nat[i] + tl * v2 + jl * vj < need:
                return False
            if i == last:
                if got < need:
                    return False  # CC-7.4
                if base_left - cards > 1:
                    return True
                return may_empty and self._go_out_allowed(can)  # CC-5.7, CC-10.5
            rk = ranks[i]
            vr = V[rk]
            for nn in range(rest[rk], 1, -1):
                cap = 3 if pagat or nn > 3 else nn
                for w in range(cap if cap < tl + jl else tl + jl, (3 - nn if nn < 3 else 0) - 1,
                               -1):
                    for jj in range(w if w < jl else jl, -1, -1):
                        tt = w - jj
                        if tt > tl:
                            continue
                        if rec(i + 1, tl - tt, jl - jj, got + nn * vr + tt * v2 + jj * vj,
                               cards + nn + w, can + (nn + w >= 7)):
                            return True
            return rec(i + 1, tl, jl, got, cards, can)

        return rec(0, rest[TWO], rest[JOKER], 0, 0, 1 if n + t + j + 1 >= 7 else 0)

    def _upcard_stage_ok(self, spec: MeldSpec, counts: Sequence[int]) -> bool:
        """:meth:`_check_stage` of the upcard's meld as a test (CC-8.5, CC-8.6, CC-6.2)."""
        return self._upcard_parts_ok(spec.rank, spec.naturals, spec.twos, spec.jokers, counts)

    def _upcard_parts_ok(self, r: int, n: int, t: int, j: int, counts: Sequence[int]) -> bool:
        w = t + j
        top = self._top_takeable()
        if top < 0 or r != top:
            return False
        if counts[r] < n or counts[TWO] < t or counts[JOKER] < j:
            return False
        if n == 0 and w == 0:
            return False
        if n < 2:
            if self._frozen_for(self.side_of[self.turn]):
                return False
            if n < 1 or w < 1 or not self.options.unfrozen_take_with_wild:
                return False
        return meld_ok(n + 1, w, self.options.wild_ratio)

    def _meld_done_ok(self) -> bool:
        """``meld done`` as a test: the staged melds as one first melding (CC-6.9, CC-7.1);
        the rarer cases (a going out, black threes, a hand left with one card or none, after
        the partner's "yes") by the check itself."""
        staged = self.staged
        if self._phase != MELD or not staged or self.b3_done or not self._unmelded():
            return self.is_legal(MELD_DONE)
        counts = self._counts()
        used_n = 0
        value = 0
        for sp in staged:
            if sp.rank == 3:
                return self.is_legal(MELD_DONE)
            used_n += sp.naturals + sp.twos + sp.jokers
            value += sp.naturals * V[sp.rank] + sp.twos * V[TWO] + sp.jokers * V[JOKER]
        left = sum(counts) - used_n
        if left <= 1 or self.permission is True:
            return self.is_legal(MELD_DONE)
        # each staged meld was checked against CC-6.1–CC-6.4 and the hand when staged
        # (_check_stage), and the hand has not changed since; the whole melding is checked here
        if not self._specs_ok(staged):
            return False
        avail = self._avail()
        if min(avail) < 0:
            return False  # CC-6.5
        return value >= self.minimum_for(self.turn)  # CC-7.1

    def _ask_ok(self) -> bool:
        """Whether "may I go out?" may be asked now (:meth:`_plan_ask` for any partner, in
        the meld phase, not asked yet, nothing melded this turn), kept over staging."""
        c = self._cache
        if c is None:
            c = self._cache = {}
        ok: bool | None = c.get("ask")
        if ok is None:
            ok = c["ask"] = self._can_ask()
        return ok

    def _can_ask(self) -> bool:
        opts = self.options
        if opts.partner_permission == "disabled":
            return False
        counts = self._counts()
        if sum(counts) < 2:
            return False
        side = self.side_of[self.turn]
        my = self.melds[side]
        # can_go_out's own first test, on the counts alone where the side has not melded
        b3 = counts[3]
        if b3 == 2:
            return False
        lone = _naturals(counts).count(1)
        if lone + (1 if b3 == 1 else 0) > 1:
            if my == NO_MELDS:
                return False
            # the lone naturals of ranks the side has melded are not lone: they go on its melds
            for m in filter(None, my):
                if counts[m.rank] == 1 and m.rank != 3:
                    lone -= 1
            if lone + (1 if b3 == 1 else 0) > 1:
                return False
        if not can_go_out(counts, self.side_melds(side), self._required(), opts.wild_ratio,
                          black_three_max=self._b3_max()):
            return False
        if not opts.concealed_exempt_from_minimum and not self.side_has_melded(side):
            minimum = self.minimum_for(self.turn)
            need = max(1, self._required())
            return any(
                sum(1 for s in g.melds if s.rank != 3 and s.size >= 7) >= need
                and sum(s.naturals * V[s.rank] + s.twos * V[TWO] + s.jokers * V[JOKER]
                        for s in g.melds if s.rank != 3) >= minimum
                for g in self._go_out_candidates(counts))
        return True

    # ------------------------------------------------------------------ legal actions
    def _legal_phase(self, ph: str) -> list[Action]:
        if ph == MELD:
            return self._meld_actions()
        if ph == CONSENT:
            return [_YES, _NO]
        return []

    def _meld_actions(self) -> list[Action]:
        """Legal actions of the meld phase.

        Additions, single new melds and discards are filtered here with the same predicates
        the ``_plan_*`` checks use (CC-5.7, CC-6.2, CC-10.1, CC-10.5), for speed; the rarer
        compound actions go through :meth:`_plan` itself.  The property tests check that both
        paths agree.
        """
        counts = self._counts()
        side = self._side()
        opts = self.options
        ratio = opts.wild_ratio
        out: list[Action] = []
        slow: list[Action] = []
        tw, jk = counts[TWO], counts[JOKER]
        h = sum(counts)
        melded = self.side_has_melded(side)
        canastas = self.canastas(side) if melded else 0  # a side that has not melded has none
        perm = self.permission
        go_blocked = perm is False or (
            opts.partner_permission == "compulsory" and perm is not True
            and bool(self.partners(self.turn)))
        req = self._required()
        must_go = perm is True
        b3max = self._b3_max()

        asks: tuple[Ask, ...] = ()
        if not self.b3_done:
            partners = self.partners(self.turn)
            if partners and not self.asked and not self.melds_made and not self.no_discard \
                    and self._ask_ok():
                asks = _asks(partners)  # CC-10.5
            my = self.melds[side]
            if melded:
                base_melds = self.side_melds(side) if must_go else {}
                pagat = ratio == "pagat"
                wild_held = tw + jk
                for r in NATURAL_RANKS:
                    m = my[r]
                    if m is None:
                        continue
                    mn, mw, msize = m.naturals, m.wilds, m.size
                    cr = counts[r]
                    if not must_go:
                        # the largest addition leaves the fewest cards (the wild cards a meld
                        # takes grow with its naturals): when it leaves two, all pass as they are
                        room = (3 if pagat or mn + cr > 3 else mn + cr) - mw
                        top = wild_held if wild_held < room else room if room > 0 else 0
                        if h - cr - top >= 2:
                            out.extend(_adds_to(r, cr, mn, mw, tw, jk, pagat))
                            continue
                    for n in range(cr, -1, -1):
                        room = (3 if pagat else min(3, mn + n)) - mw
                        # never negative: a meld already over the CC-6.2 wild limit (two melds
                        # combined by the cutthroat partnership, CC-14.1) still takes naturals
                        top_w = max(0, min(wild_held, room))
                        if not must_go and h - n - top_w >= 2:
                            out.extend(_add_block(r, n, top_w, tw, jk))  # no check needed
                            continue
                        for w in range(top_w + 1):
                            if n + w == 0:
                                continue
                            size = n + w
                            left = h - size
                            check = must_go or left <= 1
                            if check:
                                ca = canastas + (1 if msize < 7 <= msize + size else 0)
                            for t in range(min(tw, w), -1, -1):
                                j = w - t
                                if j > jk:
                                    continue
                                if check and not _meld_ok(
                                        left, ca, go_blocked, req, must_go, counts, base_melds,
                                        r, n, t, j, (mn + n, m.twos + t, m.jokers + j), ratio,
                                        b3max):
                                    continue
                                out.append(interned_add(r, n, t, j))
                for r in NATURAL_RANKS:
                    cr = counts[r]
                    if my[r] is not None or cr < 2:
                        continue
                    cap = 3 if pagat or cr > 3 else cr
                    if not must_go and h - cr - (wild_held if wild_held < cap else cap) >= 2:
                        out.extend(_new_melds_of(r, cr, tw, jk, pagat))  # as for the additions
                        continue
                    for n in range(cr, 1, -1):
                        cap = 3 if pagat or n > 3 else n
                        top_w = min(wild_held, cap)
                        if not must_go and h - n - top_w >= 2:
                            out.extend(_meld_block(r, n, top_w, tw, jk))  # no check needed
                            continue
                        for w in range(3 - n if n < 3 else 0, top_w + 1):
                            size = n + w
                            left = h - size
                            check = must_go or left <= 1
                            ca = canastas + (1 if size >= 7 else 0)
                            for t in range(min(tw, w), -1, -1):
                                j = w - t
                                if j > jk:
                                    continue
                                if check and not _meld_ok(
                                        left, ca, go_blocked, req, must_go, counts, base_melds,
                                        r, n, t, j, (n, t, j), ratio, b3max):
                                    continue
                                out.append(interned_meld(r, n, t, j))
                # CC-9.5: a black-three meld leaves at most one card (a smaller one is refused)
                for b in range(max(3, h - 1), min(counts[3], b3max) + 1):
                    slow.append(interned_meld(3, b, 0, 0))
            else:
                # A side that has not melded stages its melds one at a time (CC-6.9): each
                # stage is valid by construction; the commit carries the whole check.
                out.extend(self._stage_actions(self._avail(), MELD))
                out.extend(self._staging_tail())
        out.extend(asks)
        if slow:
            out.extend(self._filter_legal(slow))
        if self.staged:
            # CC-6.9 (c): the only discard is the one that goes out concealed
            avail = self._avail()
            if sum(avail) == 1:
                d = DISCARDS[next(k for k in HELD_KINDS if avail[k])]
                if self.is_legal(d):
                    out.append(d)
        elif self.no_discard:
            out.append(_PASS)
        elif h == 1:
            if not (go_blocked or canastas < req):
                out.extend(compress(_HELD_DISCARDS, _held(counts)))
        elif not must_go:
            out.extend(compress(_HELD_DISCARDS, _held(counts)))  # one per kind held
        return out

    def _go_out_candidates(self, counts: Sequence[int]) -> list[GoOut]:
        """Concealed going-out actions for a side that has not melded (CC-6.9, CC-10.6)."""
        out: list[GoOut] = []
        ratio = self.options.wild_ratio
        discard_opts: list[int | None] = [None] + [k for k in HELD_KINDS if counts[k]]
        for d in discard_opts:
            rest = list(counts)
            if d is not None:
                rest[d] -= 1
            b3 = rest[3]
            if b3 and not 3 <= b3 <= self._b3_max():
                continue
            ranks = [r for r in NATURAL_RANKS if rest[r]]
            if any(rest[r] < 2 for r in ranks):
                continue
            # every natural must be used: enumerate only full-rank melds, then all wilds placed
            full = [0] * 14
            for r in ranks:
                full[r] = rest[r]
            for specs, tl, jl in enum_new_melds(full, ranks, rest[TWO], rest[JOKER], ratio,
                                                min_naturals=2):
                if tl or jl or len(specs) != len(ranks):
                    continue
                if any(s.naturals != rest[s.rank] for s in specs):
                    continue
                if b3:
                    specs = specs + (MeldSpec(3, b3),)
                if specs:
                    out.append(GoOut(specs, d))
        return out

    # ------------------------------------------------------------------ apply
    def _apply_action(self, action: Action, t: type[Action], seat: int, text: LogText,
                      plan: object, phase: str) -> None:
        # ``type(action)`` (which ``t`` is) so that the type checker narrows ``action``
        if type(action) is Answer:
            self._log(seat, text, "")
            self.permission = action.yes
            self._phase = MELD
        elif t is Draw:
            self._do_draw(text)
        elif type(action) is Take:
            self._do_take(action, text)
        elif t is Pass:
            self._log(seat, text)
            self._end_hand("last_red_three" if self.no_discard else "stock_exhausted", None)
        elif type(action) is Ask:
            self._log(seat, text, "")
            self.asked = True
            self.asker_partner = action.partner
            self._phase = CONSENT
        elif type(action) is Discard:
            self._do_discard(action.kind, text)
        elif type(action) is Meld:
            self._do_meld(action, text)
        elif type(action) is Add:
            self._do_add(action, text)
        elif type(action) is GoOut:
            self._do_go_out(action, text)
        else:
            raise IllegalActionError("CC-5.2", f"{action} is not a Classic Canasta action")

    def _do_draw(self, text: LogText) -> None:
        """CC-5.3, CC-5.4, CC-11.2: draw, placing and replacing red threes one at a time."""
        seat = self.turn
        placed, last_red = self._draw_cards(seat, self.options.stock_draw)
        self._log(seat, text, ("places " + " ".join(placed)) if placed else "")
        self._phase = MELD
        if last_red:
            if self.options.last_red_three == "end_immediately":
                self._end_hand("last_red_three", None)
            else:
                self.no_discard = True

    def _do_take(self, a: Take, text: LogText) -> None:
        seat = self.turn
        side = self.side_of[seat]
        hand = self.hands[seat]
        top = self.pile[-1]
        r = a.rank
        if self.options.cutthroat and self.first_taker is None:
            self._form_cutthroat_sides(seat)
            side = self.side_of[seat]
        mymelds = list(self.melds[side])
        # the upcard and the hand cards melded with it (CC-8.7)
        mask = (self._pick(r, a.naturals, hand) | self._pick(TWO, a.twos, hand)
                | self._pick(JOKER, a.jokers, hand))
        hand &= ~mask
        existing = mymelds[r]
        if existing is not None:
            mymelds[r] = existing.plus(mask | (1 << top), a.naturals + 1, a.twos, a.jokers)
        else:
            size = a.naturals + a.twos + a.jokers + 1
            mymelds[r] = CanastaMeld(r, mask | (1 << top), a.naturals + 1, a.twos, a.jokers,
                               size >= 7, seat)
            self.new_ranks |= 1 << r
        for spec in a.extra:
            m = (self._pick(spec.rank, spec.naturals, hand) | self._pick(TWO, spec.twos, hand)
                 | self._pick(JOKER, spec.jokers, hand))
            hand &= ~m
            mymelds[spec.rank] = CanastaMeld(spec.rank, m, spec.naturals, spec.twos, spec.jokers,
                                       spec.size >= 7, seat)
            self.new_ranks |= 1 << spec.rank
        if existing is not None and existing.creator != seat:
            self.conceal_ok = False
        self.melds = set_item(self.melds, side, tuple(mymelds))
        self.hands = set_item(self.hands, seat, hand)
        n_taken = len(self.pile)
        # the rest of the pile joins the hand; red threes are placed, not replaced (CC-4.9)
        _, placed = self._pile_rest_into_hand(seat)  # the pile is then empty, unfrozen (CC-8.9)
        hand = self.hands[seat]
        self.seat_melded |= 1 << seat
        note = f"takes the pile ({plural(n_taken, 'card')})"
        if placed:
            note += "; places " + " ".join(placed)
        self._log(seat, text, note)
        self._phase = MELD
        if hand == 0:
            self._went_out(seat)

    def _form_cutthroat_sides(self, taker: int) -> None:
        """Cutthroat (CC-14.1): the first taker plays alone; the other two become partners and
        combine their melds for the rest of the hand."""
        others = [x for x in range(3) if x != taker]
        keep, merge = others
        melds = [list(m) for m in self.melds]
        for r in range(14):
            a, b = melds[keep][r], melds[merge][r]
            if b is not None:
                if a is None:
                    melds[keep][r] = b
                else:
                    # The partners' melds of a rank become one (CC-14.1); no card returns to a
                    # hand (CC-5.5), so the result may exceed the wild limit of CC-6.2: it then
                    # takes no more wild cards.  It stays hidden if either part was.
                    merged = a.plus(b.mask, b.naturals, b.twos, b.jokers)
                    merged.hidden = a.hidden or b.hidden
                    melds[keep][r] = merged
                melds[merge][r] = None
        self.melds = tuple(tuple(m) for m in melds)
        side_of = list(self.side_of)
        side_of[merge] = keep
        self.side_of = tuple(side_of)
        self.first_taker = taker

    def _do_meld(self, a: Meld, text: LogText) -> None:
        seat = self.turn
        side = self.side_of[seat]
        hand = self.hands[seat]
        mymelds = list(self.melds[side])
        for spec in a.melds:
            # CC-6.8: a new meld of seven or more cards is hidden only without cards taken from
            # the pile this turn, so those go last; otherwise (and in ``_do_add``) the usual
            # choice, known copies first (the legacy choice always put them last)
            avoid = self.pile_cards if spec.size >= 7 or self._legacy_copies else 0
            m = (self._pick(spec.rank, spec.naturals, hand, avoid)
                 | self._pick(TWO, spec.twos, hand, avoid)
                 | self._pick(JOKER, spec.jokers, hand, avoid))
            hand &= ~m
            hidden = spec.size >= 7 and not (m & self.pile_cards)  # CC-6.8
            mymelds[spec.rank] = CanastaMeld(spec.rank, m, spec.naturals, spec.twos, spec.jokers,
                                       hidden, seat)
            self.new_ranks |= 1 << spec.rank
            if spec.rank == 3:
                self.b3_done = True
        self._after_meld(seat, side, hand, mymelds, text)

    def _do_add(self, a: Add, text: LogText) -> None:
        seat = self.turn
        side = self.side_of[seat]
        hand = self.hands[seat]
        mymelds = list(self.melds[side])
        avoid = self.pile_cards if self._legacy_copies else 0
        m = (self._pick(a.rank, a.naturals, hand, avoid) | self._pick(TWO, a.twos, hand, avoid)
             | self._pick(JOKER, a.jokers, hand, avoid))
        hand &= ~m
        n, t, j = a.naturals, a.twos, a.jokers
        old = mymelds[a.rank]
        assert old is not None  # _plan_add refused an addition to no meld (CC-6.5)
        if not (self.new_ranks >> a.rank) & 1:
            self.conceal_ok = False  # added to a meld made before this turn (CC-10.6)
        mymelds[a.rank] = old.plus(m, n, t, j)
        self._after_meld(seat, side, hand, mymelds, text)

    def _after_meld(self, seat: int, side: int, hand: int, mymelds: list[CanastaMeld | None],
                    text: LogText) -> None:
        self.melds = set_item(self.melds, side, tuple(mymelds))
        self.hands = set_item(self.hands, seat, hand)
        self.known = set_item(self.known, seat, self.known[seat] & hand)
        self.melds_made += 1
        self.seat_melded |= 1 << seat
        self._log(seat, text)
        if hand == 0:
            self._went_out(seat)

    def _do_go_out(self, a: GoOut, text: LogText) -> None:
        seat = self.turn
        side = self.side_of[seat]
        hand = self.hands[seat]
        mymelds = list(self.melds[side])
        for spec in a.melds:
            m = (self._pick(spec.rank, spec.naturals, hand) | self._pick(TWO, spec.twos, hand)
                 | self._pick(JOKER, spec.jokers, hand))
            hand &= ~m
            mymelds[spec.rank] = CanastaMeld(spec.rank, m, spec.naturals, spec.twos, spec.jokers,
                                       spec.size >= 7 and spec.rank != 3, seat)
            self.new_ranks |= 1 << spec.rank
        if a.discard is not None:
            d = self._pick(a.discard, 1, hand)
            hand &= ~d
            self.pile = self.pile + (d.bit_length() - 1,)
            if a.discard in (JOKER, TWO):
                self.pile_frozen = True
        self.melds = set_item(self.melds, side, tuple(mymelds))
        self.hands = set_item(self.hands, seat, hand)
        self.known = set_item(self.known, seat, 0)
        self.seat_melded |= 1 << seat
        self._log(seat, text)
        self._went_out(seat)

    def _do_discard(self, kind: int, text: LogText) -> None:
        seat = self.turn
        cid = self._discard_card(seat, kind)  # a wild card freezes the pile (CC-8.3)
        self._log(seat, text, self.pack.names[cid])
        if self.hands[seat] == 0:
            self._went_out(seat)
            return
        self._begin_turn((seat + 1) % self.players)

    def _went_out(self, seat: int) -> None:
        if self.no_discard:
            # CC-11.2 (``may_meld_first``): the hand ends by the last red three even if the
            # player has melded every card; no going-out bonus (CC-12.5)
            self._end_hand("last_red_three", None)
            return
        if self.options.cutthroat and self.first_taker is None:
            self._form_cutthroat_sides(seat)  # CC-14.1: going out first makes the lone hand
        side = self.side_of[seat]
        concealed = self.conceal_ok and any(
            (self.new_ranks >> m.rank) & 1 and m.rank != 3 and m.size >= 7
            for m in self.melds[side] if m is not None
        )
        self._end_hand("went_out_concealed" if concealed else "went_out", seat)

    # ------------------------------------------------------------------ scoring
    def _score_hand(self, how: str, went_out: int | None) -> HandScore:
        """Score the hand (CC-12); the game ends by CC-13."""
        return self._scorer(how, went_out)

    # ------------------------------------------------------------------ text, observation
    def parse_action(self, text: str) -> Action:
        """Read an action in notation (``docs/notation.md``) for this state.

        Raises:
            NotationError: not an action.
            IllegalActionError: a form no rule allows (e.g. a red three), with its rule ID.
        """
        top = None
        if self.pile:
            top = self.pack.rank_of[self.pile[-1]]
        rules = CLASSIC_PARSE_RULES
        if self._phase == DRAW and not self._frozen_for(self._side()):
            rules = {**rules, "take_rank": "CC-8.6"}  # the unfrozen pile's rule
        self._refuse_late_take(text, top)
        self._refuse_add_to_nothing(text, rules)
        a = parse_canasta_action(text, top_rank=top, rules=rules)
        if isinstance(a, Ask) and a.partner == -1:
            seat = self.to_act[0] if self.to_act else self.turn
            ps = self.partners(seat)
            if not ps:
                return a  # understood; the rules refuse it (CC-10.5: no partner to ask)
            if len(ps) != 1:
                raise NotationError(
                    "ask which partner? write 'ask N' with the partner's seat: "
                    + ", ".join(map(str, ps)))
            a = Ask(ps[0])
        return a

    def observation(self, seat: int) -> ClassicCanastaObservation:
        """What ``seat`` may know (CC-5.9); see :class:`ClassicCanastaObservation`."""
        return self._observation_class.from_state(self, seat)


#: Cached blocks of candidate additions and new melds, by ``(r, n, top_w, tw, jk)``.
_ADD_BLOCKS: dict[tuple[int, int, int, int, int], list[Add]] = {}
_MELD_BLOCKS: dict[tuple[int, int, int, int, int], list[Meld]] = {}


def _add_block(r: int, n: int, top_w: int, tw: int, jk: int) -> list[Add]:
    """The additions of ``n`` naturals and up to ``top_w`` wild cards to a meld of ``r``, in
    the order the meld-phase loop lists them (cached: the same blocks recur constantly)."""
    key = (r, n, top_w, tw, jk)
    block = _ADD_BLOCKS.get(key)
    if block is None:
        block = _ADD_BLOCKS[key] = [
            interned_add(r, n, t, w - t) for w in range(top_w + 1) if n + w
            for t in range(min(tw, w), -1, -1) if w - t <= jk]
    return block


def _meld_ok(left: int, ca: int, go_blocked: bool, req: int, must_go: bool,
             counts: Sequence[int], base_melds: dict[int, MeldState], r: int, n: int, t: int,
             j: int, meld_after: MeldState, ratio: str, b3max: int) -> bool:
    """CC-5.7 and, after "yes", CC-10.5 for a meld action using (n, t, j) of rank r that
    leaves ``left`` cards and the side ``ca`` canastas (the meld phase's test)."""
    if left <= 1 and (go_blocked or ca < req):
        return False
    if must_go and left >= 1:
        counts_after = list(counts)
        counts_after[r] -= n
        counts_after[TWO] -= t
        counts_after[JOKER] -= j
        melds_after = dict(base_melds)
        melds_after[r] = meld_after
        return can_go_out(counts_after, melds_after, req, ratio, black_three_max=b3max)
    return True


_ADDS_TO: dict[tuple[int, int, int, int, int, int, bool], list[Add]] = {}
#: The counts of the natural ranks of a hand.
_naturals = itemgetter(*NATURAL_RANKS)
_NEW_MELDS: dict[tuple[int, int, int, int, bool], list[Meld]] = {}
#: The discards in the order they are listed, and the counts of a hand in that order.
_HELD_DISCARDS = tuple(DISCARDS[k] for k in HELD_KINDS)
_held = itemgetter(*HELD_KINDS)


def _adds_to(r: int, cr: int, mn: int, mw: int, tw: int, jk: int, pagat: bool) -> list[Add]:
    """Every addition to a meld of ``r`` (``mn`` naturals, ``mw`` wild cards) from a hand of
    ``cr`` naturals of ``r``, ``tw`` twos and ``jk`` jokers, in the meld-phase loop's order."""
    key = (r, cr, mn, mw, tw, jk, pagat)
    got = _ADDS_TO.get(key)
    if got is None:
        got = _ADDS_TO[key] = []
        for n in range(cr, -1, -1):
            room = (3 if pagat else min(3, mn + n)) - mw
            got.extend(_add_block(r, n, max(0, min(tw + jk, room)), tw, jk))
    return got


def _new_melds_of(r: int, cr: int, tw: int, jk: int, pagat: bool) -> list[Meld]:
    """Every new meld of ``r`` from ``cr`` naturals, ``tw`` twos and ``jk`` jokers, in the
    meld-phase loop's order."""
    key = (r, cr, tw, jk, pagat)
    got = _NEW_MELDS.get(key)
    if got is None:
        got = _NEW_MELDS[key] = []
        for n in range(cr, 1, -1):
            got.extend(_meld_block(r, n, min(tw + jk, 3 if pagat or n > 3 else n), tw, jk))
    return got


def _meld_block(r: int, n: int, top_w: int, tw: int, jk: int) -> list[Meld]:
    """New melds of ``n`` naturals of ``r`` and enough wild cards (cached, in loop order)."""
    key = (r, n, top_w, tw, jk)
    block = _MELD_BLOCKS.get(key)
    if block is None:
        block = _MELD_BLOCKS[key] = [
            interned_meld(r, n, t, w - t) for w in range(3 - n if n < 3 else 0, top_w + 1)
            for t in range(min(tw, w), -1, -1) if w - t <= jk]
    return block


_NEW_MELD_TAKES: dict[tuple[int, int, int, int, bool], list[Take]] = {}


def _new_meld_takes(r: int, cr: int, tw: int, jk: int, pagat: bool) -> list[Take]:
    """Candidate takes that meld the upcard of rank ``r`` anew with cards from a hand of ``cr``
    naturals of it, ``tw`` twos and ``jk`` jokers (CC-8.5, CC-8.6), shared objects in a fixed
    order (a list kept by its key: callers do not change it)."""
    key = (r, cr, tw, jk, pagat)
    got = _NEW_MELD_TAKES.get(key)
    if got is None:
        got = _NEW_MELD_TAKES[key] = []
        for n in range(cr, 0, -1):
            cap = 3 if pagat else min(3, n + 1)
            for w in range(cap + 1):
                if n + w < 2 or (n < 2 and w < 1):
                    continue
                for t in range(min(w, tw), -1, -1):
                    j = w - t
                    if j > jk:
                        continue
                    got.append(interned_take(r, n, t, j))
    return got


_ASKS: dict[tuple[int, ...], tuple[Ask, ...]] = {}


def _asks(partners: tuple[int, ...]) -> tuple[Ask, ...]:
    """The shared "may I go out?" actions to ``partners``."""
    a = _ASKS.get(partners)
    if a is None:
        a = _ASKS[partners] = tuple(Ask(p) for p in partners)
    return a


_STAGES_OF: dict[tuple[int, int, int, int, bool], list[Stage]] = {}


def _stages_of(r: int, ar: int, tw: int, jk: int, pagat: bool) -> list[Stage]:
    """Every stage of a new meld of ``r`` from ``ar`` naturals, ``tw`` twos and ``jk`` jokers
    (CC-6.1, CC-6.2), in the order :meth:`ClassicCanastaState._stage_actions` lists them."""
    key = (r, ar, tw, jk, pagat)
    got = _STAGES_OF.get(key)
    if got is None:
        got = _STAGES_OF[key] = [
            interned_stage(r, n, t, j) for n in range(ar, 1, -1)
            for t, j in wild_splits(max(0, 3 - n), min(3 if pagat else min(3, n), tw + jk), tw,
                                    jk)]
    return got


def _initial_sides(opts: ClassicCanastaOptions) -> tuple[int, ...]:
    """Seat -> side: partners by parity in 4p and 6p (CC-1.2, CC-1.4); alone in 2p and 3p."""
    n = opts.player_count
    if n in (4, 6):
        return tuple(s % 2 for s in range(n))
    return tuple(range(n))


new_game = ClassicCanastaState.new_game_function(
    ClassicCanastaOptions,
    lambda o: o.player_count if o.cutthroat else max(_initial_sides(o)) + 1,
    title="Classic Canasta", counts="2, 3, 4 or 6", dealer_rule="CC-4.1")
