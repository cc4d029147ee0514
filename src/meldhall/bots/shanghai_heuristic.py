"""A heuristic Shanghai Rummy player, written from how good players play.

It sees only its observation (docs/rules/shanghai-rummy.md).  In outline:

* **Before the contract** — it measures its hand by the contract solver's *deficiency* (how
  many more natural cards the contract's melds need, jokers counted).  It takes the upcard, or
  buys it, when the card lowers that number; in deals 7–10, where the contract needs more cards
  than a hand holds without buying (SH-5.3), it buys useful cards while it still lacks the
  cards and has buys left; it weighs each buy against the penalty card and the buys left.  It
  discards the card whose loss costs the contract least, then the one with fewest partners
  (same rank for sets, neighbours in suit for runs), then the one others are least likely to
  use, then the costliest.
* **Making the contract** — as soon as the solver finds it, choosing among the ways the one
  that leaves the cheapest hand (cards that fit the table after the lay-down cost nothing).
  The contract is staged one meld at a time (SH-8.1): each call plans the whole contract again
  from the hand (which staging leaves unchanged), stages the first meld of the plan not yet
  staged, and says ``contract done`` once all are; staged melds outside the plan are
  withdrawn.  So the bot needs no memory between calls.
* **After the contract** — it never buys; it takes the upcard only if it can lay it off (or
  exchange it for a joker it can lay off); it lays off everything it can, costliest first,
  exchanges a table joker when it holds the declared card and the joker can go straight onto
  a meld, and keeps one card to go out by discarding.
* **Discards** — it tracks the table from the deal's log: the cards each player took, bought
  or declined and the cards known to be in their hands, and avoids feeding the next player
  (and, before them, anyone who could lay the card off).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from meldhall.bots.view import ObservationView
from meldhall.cards import iter_ids
from meldhall.game import Action
from meldhall.games.shanghai.actions import (
    BUY,
    CONTRACT_DONE,
    DRAW,
    PASS,
    TAKE,
    WITHDRAW_ALL,
    Contract,
    Discard,
    LayOff,
    Stage,
    Swap,
    stage_action,
)
from meldhall.games.shanghai.rules import Contract as ContractRule
from meldhall.games.shanghai.rules import (
    JOKER_KIND,
    card_points,
    joker_limit,
    kind_at,
    rank_of_kind,
    suit_of_kind,
)
from meldhall.games.shanghai.solver import SolverRules, contract_options, deficiency

__all__ = ["ShanghaiHeuristicBot"]

_A = TypeVar("_A")


def _counts(hand: int, n52: int) -> list[int]:
    c = [0] * 53
    while hand:
        low = hand & -hand
        i = low.bit_length() - 1
        c[i % 52 if i < n52 else JOKER_KIND] += 1
        hand ^= low
    return c


class _Fit:
    """Which kinds the table melds take (lay-off targets), from melds or contract specs."""

    def __init__(self, melds, ace_both: bool):
        self.max_len = 14 if ace_both else 13
        self.kinds: set[int] = set()
        self.joker_room = False
        self.joker_decl: set[int] = set()
        for m in melds:
            self.add(m)

    def add(self, m) -> None:
        if m.run:
            lo, hi, size = m.lo, m.hi, m.size
            if size < self.max_len:
                if lo > 1 and not (lo == 2 and hi == 14 and self.max_len == 13):
                    self.kinds.add(kind_at(m.suit, lo - 1))
                if hi < 14 and not (hi == 13 and lo == 1 and self.max_len == 13):
                    self.kinds.add(kind_at(m.suit, hi + 1))
                if m.jokers + 1 <= joker_limit(size + 1, True):
                    self.joker_room = True
        else:
            for s in range(4):
                self.kinds.add(s * 13 + m.rank - 1)
            if m.jokers == 0:
                self.joker_room = True

    def fits(self, kind: int) -> bool:
        if kind == JOKER_KIND:
            return self.joker_room
        return kind in self.kinds


class _SpecMeld:
    """A contract spec seen as a table meld (for :class:`_Fit`)."""

    __slots__ = ("hi", "jokers", "lo", "rank", "run", "size", "suit")

    def __init__(self, spec):
        self.run = spec.is_run
        if self.run:
            self.lo, self.hi, self.size, self.suit = spec.lo, spec.hi, spec.length, spec.suit
            self.rank = 0
            self.jokers = spec.joker_count
        else:
            self.rank = spec.rank
            self.size = spec.size
            self.lo = self.hi = 0
            self.suit = -1
            self.jokers = len(spec.jokers)


class _View(ObservationView):
    """Facts the bot derives from one observation."""

    def __init__(self, obs) -> None:
        super().__init__(obs)
        p = self.p
        self.n52 = p["n52"]
        self.counts = _counts(obs.hand, self.n52)
        self.hand_size = sum(self.counts)
        self.contract = obs.contract
        self.rules = SolverRules.from_options(self.opts)
        self.made = obs.made(self.seat)
        self.melds = p["melds"]
        self.pile = p["pile"]
        self.upcard_kind = None
        if self.pile:
            c = self.pile[-1]
            self.upcard_kind = c % 52 if c < self.n52 else JOKER_KIND
        lim = obs.buy_limit()
        self.buys_left = 99 if lim is None else lim - p["buys"][self.seat]
        self._def_cache: dict[tuple, int] = {}

    def deficiency(self, counts) -> int:
        key = tuple(counts)
        d = self._def_cache.get(key)
        if d is None:
            d = self._def_cache[key] = _deficiency(key, self.contract, self.rules)
        return d

    def table_fit(self) -> _Fit:
        return _Fit(self.melds, self.opts.ace_both_ends)

    # -- what the others are doing --------------------------------------------------------
    def interest(self) -> dict[int, dict[str, set[int]]]:
        """Per other seat: kinds it took or bought (or is known to hold), and kinds it
        discarded or declined as the upcard, this deal (the state's ``took_kinds`` and
        ``declined_kinds``, kept per action: no log is read)."""
        p = self.p
        known, took, declined = p["known"], p["took_kinds"], p["declined_kinds"]
        return {s: {"took": set(iter_ids(took[s])) | set(_kinds(known[s], self.n52)),
                    "declined": set(iter_ids(declined[s]))}
                for s in range(self.n) if s != self.seat}


# The solver's answers depend only on the kind counts, the contract and the rules, and a
# search asks the same ones over and over (each staging step of a turn, each playout from
# the same hand): remembered across calls.
@functools.lru_cache(maxsize=1 << 15)
def _deficiency(counts: tuple[int, ...], contract: ContractRule, rules: SolverRules) -> int:
    return deficiency(counts, contract, rules)


@functools.lru_cache(maxsize=1 << 14)
def _contract_options(counts: tuple[int, ...], contract: ContractRule,
                      rules: SolverRules) -> tuple[Contract, ...]:
    return tuple(contract_options(counts, contract, rules))


def _least(candidates: Sequence[_A], key: Callable[[_A], tuple]) -> _A:
    """The candidate with the least ``(key(a), str(a))``: the notation, a fixed order, breaks
    ties, and is written out only when there is a tie to break."""
    best = candidates[0]
    best_key = key(best)
    best_text: str | None = None
    for a in candidates[1:]:
        k = key(a)
        if k < best_key:
            best, best_key, best_text = a, k, None
        elif k == best_key:
            text = str(a)
            if best_text is None:
                best_text = str(best)
            if text < best_text:
                best, best_text = a, text
    return best




def _kinds(mask: int, n52: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        out.append(i % 52 if i < n52 else JOKER_KIND)
        mask ^= low
    return out


class ShanghaiHeuristicBot:
    """Heuristic Shanghai Rummy bot (see the module docstring)."""

    name = "heuristic"

    def choose(self, observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """Pick one of ``legal_actions`` for the observing seat."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        v = _View(observation)
        phase = observation.phase
        if phase == "upcard":
            return self._upcard(v, legal_actions)
        if phase == "buy":
            return self._buy(v)
        if phase == "meld":
            return self._meld(v, legal_actions)
        return legal_actions[0]

    def plan(self, observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        """Choose among ``legal_actions`` with the contract written as one action
        (:func:`~meldhall.bots.staging.planning_actions`: compound ``Contract`` shorthands
        in place of the staging steps, SH-8.1).

        Returns the contract this bot would stage step by step (the same choice as
        :meth:`choose`, made whole), or :meth:`choose`'s action where it would not make the
        contract now.  Search bots use it as their baseline: without it a planning list holds
        no ``stage`` action, so the baseline would never make the contract.

        With melds staged, the plan is made from the whole hand (the observation with them
        withdrawn, as the planning actions are): never ``withdraw all``, which is a step, not
        a plan (its planning answer is the discard or the other contract it leads to).
        """
        if getattr(observation, "staged", ()):
            from meldhall.bots.staging import unstaged_state

            observation = unstaged_state(observation).observation(observation.seat)
        if observation.phase == "meld":
            contracts = [a for a in legal_actions if type(a) is Contract]
            if contracts:
                v = _View(observation)
                if not v.made:
                    return self._best_contract(v, contracts)
        return self.choose(observation, legal_actions, rng)

    def rank(self, observation, legal_actions: Sequence[Action]) -> list[Action]:
        """Every one of ``legal_actions``, the discards in this bot's order of preference
        (best first, by the key :meth:`choose` takes the least of), then the other actions
        in their given order.  The search bot's challengers at ``ranked`` levels are the
        first of these (the choice itself among them).

        Args:
            observation: the deciding seat's observation.
            legal_actions: its legal actions (or the planning actions of the search).

        Returns:
            A new list holding each action once.
        """
        discards = [a for a in legal_actions if type(a) is Discard]
        if observation.phase != "meld" or len(discards) < 2:
            return list(legal_actions)
        if getattr(observation, "staged", ()):
            from meldhall.bots.staging import unstaged_state

            observation = unstaged_state(observation).observation(observation.seat)
        v = _View(observation)
        key = self._discard_after_key(v) if v.made else self._discard_before_key(v)
        ordered = sorted(discards, key=lambda a: (key(a), str(a)))
        return ordered + [a for a in legal_actions if type(a) is not Discard]

    # ------------------------------------------------------------------ upcard and buying
    def _gain(self, v: _View, kind: int) -> int:
        """How much a card lowers the hand's deficiency."""
        c = list(v.counts)
        c[kind] += 1
        return v.deficiency(v.counts) - v.deficiency(c)

    def _upcard(self, v: _View, legal) -> Action:
        if TAKE not in legal or v.upcard_kind is None:
            return DRAW
        k = v.upcard_kind
        if v.made:
            fit = v.table_fit()
            if fit.fits(k) or self._swap_target(v, k, fit):
                return TAKE
            return DRAW
        if k == JOKER_KIND:
            return TAKE
        return TAKE if self._gain(v, k) >= 1 else DRAW

    def _buy(self, v: _View) -> Action:
        if v.made or v.buys_left <= 0 or v.upcard_kind is None:
            return PASS
        k = v.upcard_kind
        if k == JOKER_KIND:
            return BUY
        gain = self._gain(v, k)
        if gain <= 0:
            return PASS
        c = v.contract
        # SH-5.3: cards the contract needs beyond what the hand will hold after the draw
        short = c.cards + 1 - (v.hand_size + 1)
        if short > 0:
            return BUY
        d_after = v.deficiency(v.counts) - gain
        # a buy costs a penalty card; it pays when it brings the contract close
        if d_after <= 2 or v.buys_left >= 2:
            return BUY
        return PASS

    # ------------------------------------------------------------------ meld phase
    def _meld(self, v: _View, legal) -> Action:
        if not v.made:
            a = self._staging(v, legal)
            if a is not None:
                return a
        discards = [a for a in legal if type(a) is Discard]
        lays = [a for a in legal if type(a) is LayOff]
        swaps = [a for a in legal if type(a) is Swap]
        if lays or swaps:
            a = self._lay_or_swap(v, lays, swaps, discards)
            if a is not None:
                return a
        if not discards:
            return legal[0]
        if v.made:
            return self._discard_after(v, discards)
        return self._discard_before(v, discards)

    def _staging(self, v: _View, legal) -> Action | None:
        """The next step of making the contract (SH-8.1), or ``None`` to play on without it:
        the best way to make it from the whole hand, staged meld by meld, then committed."""
        staged = list(v.obs.staged)
        stageable = staged or any(type(a) is Stage for a in legal)
        contracts = _contract_options(tuple(v.counts), v.contract, v.rules) if stageable else ()
        if not contracts:
            return WITHDRAW_ALL if staged else None
        plan = self._best_contract(v, contracts)
        todo = list(plan.melds)
        for m in staged:
            if m not in todo:
                return WITHDRAW_ALL  # not this plan's: start again
            todo.remove(m)
        if not todo:
            return CONTRACT_DONE if CONTRACT_DONE in legal else WITHDRAW_ALL
        a = stage_action(todo[0])
        return a if a in legal else (WITHDRAW_ALL if staged else None)

    def _best_contract(self, v: _View, contracts: Sequence[Contract]) -> Contract:
        table = list(v.melds)

        def key(a: Contract) -> tuple:
            left = list(v.counts)
            for m in a.melds:
                for k in m.natural_kinds():
                    left[k] -= 1
                left[JOKER_KIND] -= m.joker_count if m.is_run else len(m.jokers)
            fit = _Fit(table, v.opts.ace_both_ends)
            for m in a.melds:
                fit.add(_SpecMeld(m))
            cost = 0
            stuck = 0
            for k in range(53):
                if left[k] and not fit.fits(k):
                    cost += left[k] * card_points(k, v.opts)
                    stuck += left[k]
            return (sum(left) > 0 and stuck, cost, sum(left))

        return _least(contracts, key)

    def _swap_target(self, v: _View, kind: int, fit: _Fit) -> bool:
        """True if ``kind`` releases a table joker that could then be laid off."""
        if kind == JOKER_KIND:
            return False
        n52 = v.n52
        for m in v.melds:
            if m.jokers:
                for c, d in zip(m.cards, m.decl):
                    if c >= n52 and d == kind:
                        return True
        return False

    def _lay_or_swap(self, v: _View, lays, swaps, discards) -> Action | None:
        """Lay off the costliest card that fits, keeping one for the discard; exchange a joker
        when the natural has no other place."""
        h = v.hand_size
        keep = 0 if v.opts.go_out_without_discard else 1
        if lays and h - 1 >= keep:
            # costliest first; with two cards left the other one is the going-out discard
            return max(lays, key=lambda a: (card_points(a.kind, v.opts), -a.meld, str(a)))
        if swaps:
            laid_kinds = {a.kind for a in lays}
            for s in swaps:
                if s.kind not in laid_kinds:
                    return s
        return None

    # ------------------------------------------------------------------ discards
    def _danger(self, v: _View) -> dict[int, int]:
        """Kinds another player would likely use, with a weight (next player weighs most)."""
        danger: dict[int, int] = {}
        interest = v.interest()
        made = v.p["made"]
        fit = v.table_fit()
        nxt = (v.seat + 1) % v.n
        for s, info in interest.items():
            w = 3 if s == nxt else 1
            if made >> s & 1:
                for k in fit.kinds:
                    danger[k] = danger.get(k, 0) + w
                continue
            for k in info["took"]:
                if k == JOKER_KIND:
                    continue
                r, su = rank_of_kind(k), suit_of_kind(k)
                if v.contract.sets:
                    for s2 in range(4):
                        kk = s2 * 13 + r - 1
                        danger[kk] = danger.get(kk, 0) + w
                if v.contract.runs:
                    for dr in (-2, -1, 1, 2):
                        rr = r + dr
                        if 1 <= rr <= 13:
                            kk = su * 13 + rr - 1
                            danger[kk] = danger.get(kk, 0) + w
            for k in info["declined"]:
                if k != JOKER_KIND:
                    danger[k] = danger.get(k, 0) - w
        return danger

    def _partners(self, v: _View, counts, kind: int) -> int:
        """How many cards of the hand work with ``kind`` (same rank for sets, neighbours in
        suit for runs)."""
        if kind == JOKER_KIND:
            return 99
        r, su = rank_of_kind(kind), suit_of_kind(kind)
        score = 0
        c = v.contract
        if c.sets:
            same = sum(counts[s * 13 + r - 1] for s in range(4)) - 1
            score += 2 * same
        if c.runs:
            for dr in (-2, -1, 1, 2):
                rr = r + dr
                if rr == 0:
                    rr = 13  # the ace's high side: K
                if rr == 14:
                    rr = 1
                if 1 <= rr <= 13 and counts[su * 13 + rr - 1]:
                    score += 2 if abs(dr) == 1 else 1
        return score

    def _discard_before_key(self, v: _View) -> Callable[[Discard], tuple]:
        """The sort key of a discard before the contract is made (least first): what it
        leaves the hand short of the contract, then how much it helps the others."""
        danger = self._danger(v)
        taken = v.p["taken"]
        taken_kind = -1 if taken < 0 else (taken % 52 if taken < v.n52 else JOKER_KIND)

        def key(a: Discard) -> tuple:
            k = a.kind
            c = list(v.counts)
            c[k] -= 1
            return (v.deficiency(c),
                    self._partners(v, v.counts, k) + danger.get(k, 0) + (k == taken_kind),
                    -card_points(k, v.opts))

        return key

    def _discard_before(self, v: _View, discards) -> Action:
        return _least(discards, self._discard_before_key(v))

    def _discard_after_key(self, v: _View) -> Callable[[Discard], tuple]:
        """The sort key of a discard once the contract is made (least first)."""
        danger = self._danger(v)
        fit = v.table_fit()

        def key(a: Discard) -> tuple:
            k = a.kind
            return (k == JOKER_KIND, fit.fits(k), danger.get(k, 0) > 2,
                    -card_points(k, v.opts), danger.get(k, 0))

        return key

    def _discard_after(self, v: _View, discards) -> Action:
        return _least(discards, self._discard_after_key(v))
