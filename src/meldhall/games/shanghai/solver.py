"""The contract solver: can this hand make the contract, and how (SH-5.2, SH-7, SH-8)?

A hand is given as kind counts: a list of 53 numbers, ``counts[k]`` copies of natural kind
``k = suit * 13 + rank - 1`` and ``counts[52]`` jokers (see :mod:`meldhall.games.shanghai.rules`).
The solver serves three callers:

* :func:`contract_options` — **every** legal way to make the contract, as canonical
  :class:`~meldhall.games.shanghai.actions.Contract` shorthands (the heuristic bot's plans;
  legal actions stage one meld at a time, from :func:`set_candidates` and
  :func:`run_candidates`, SH-8.1).  Two
  ways that differ only in which physical copy moves are one action; ways that differ in which
  suits go down, where a run's jokers stand or which suit a set's joker declares are different
  actions (they leave different hands or different tables).
* :func:`find_contract` / :func:`can_make` — fast existence, with one way (hints, bots).
* :func:`deficiency` — how many more natural cards the hand needs (the heuristic bot).

Rules applied: sets of one rank, any suits, at most one joker (SH-7.1, SH-7.5); runs of one
suit in sequence, ace low or high, never round the corner, never two aces (SH-7.2, SH-7.3);
run joker limits by length (SH-7.5); exact meld sizes (SH-8.2) or minimum sizes under
``contract_min_sizes``; required same-suit runs neither overlap nor touch (SH-8.3); distinct
set ranks under ``distinct_set_ranks`` (SH-8.4); a card kept for the discard (SH-8.7) unless
``go_out_without_discard``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from meldhall.games.shanghai.actions import Contract, RunSpec, SetSpec
from meldhall.games.shanghai.rules import (
    JOKER_KIND,
    joker_limit,
    kind_at,
)
from meldhall.games.shanghai.rules import (
    Contract as ContractRule,
)

if TYPE_CHECKING:
    from meldhall.games.shanghai.options import ShanghaiOptions

__all__ = [
    "SET_RANK_ORDER",
    "SolverRules",
    "can_make",
    "contract_options",
    "counts_of",
    "deficiency",
    "find_contract",
    "run_candidates",
    "run_windows",
    "set_candidates",
]

_RANKS = range(1, 14)
#: Set ranks in canonical order: 2 … K, then A (SetSpec.key).
SET_RANK_ORDER = (*range(2, 14), 1)


@dataclass(frozen=True, slots=True)
class SolverRules:
    """The options that change what a contract may be.

    Attributes:
        min_sizes: ``contract_min_sizes`` (SH-8.2).
        distinct_set_ranks: ``distinct_set_ranks`` (SH-8.4).
        ace_both_ends: ``ace_both_ends`` (SH-7.3).
        keep_one: a card must be left for the discard (SH-8.7); false under
            ``go_out_without_discard``.
    """

    min_sizes: bool = False
    distinct_set_ranks: bool = False
    ace_both_ends: bool = False
    keep_one: bool = True

    @classmethod
    def from_options(cls, opts: ShanghaiOptions) -> SolverRules:
        """The solver rules of a :class:`~meldhall.games.shanghai.options.ShanghaiOptions`."""
        return cls(opts.contract_min_sizes, opts.distinct_set_ranks, opts.ace_both_ends,
                   not opts.go_out_without_discard)


DEFAULT_RULES = SolverRules()


def counts_of(kinds: Iterable[int]) -> list[int]:
    """Kind counts (53 entries) of an iterable of kinds."""
    c = [0] * 53
    for k in kinds:
        c[k] += 1
    return c


def _max_run(rules: SolverRules) -> int:
    return 14 if rules.ace_both_ends else 13


def run_windows(length: int) -> range:
    """Lowest positions of the runs of ``length`` within positions 1..14 (SH-7.3)."""
    return range(1, 16 - length)


# ---------------------------------------------------------------------------------------------
# run candidates


_WINDOWS: dict[tuple[int, int], tuple[tuple[int, tuple[int, ...]], ...]] = {}


def _windows(suit: int, length: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """``(lo, kinds by position)`` of every run window of ``length`` in ``suit``."""
    w = _WINDOWS.get((suit, length))
    if w is None:
        w = _WINDOWS[(suit, length)] = tuple(
            (lo, tuple(kind_at(suit, lo + i) for i in range(length)))
            for lo in run_windows(length))
    return w


def run_candidates(counts: Sequence[int], suit: int, lengths: Iterable[int], jokers: int,
                   aces_only: bool = False) -> Iterator[tuple[RunSpec, list[int]]]:
    """Every run of ``suit`` with one of ``lengths`` the counts can supply, with every legal
    placing of up to ``jokers`` jokers: yields ``(RunSpec, natural kinds used)``.

    ``aces_only``: a joker stands where a natural is held only at an ace's place (enough for
    existence when the contract has no sets: elsewhere the natural it frees has no other use).
    """
    for ln in lengths:
        lim = joker_limit(ln, True)
        lim = min(lim, jokers)
        for lo, kinds in _windows(suit, ln):
            forced = 0
            fmask = 0
            for i in range(ln):
                if not counts[kinds[i]]:
                    forced += 1
                    if forced > lim:
                        break
                    fmask |= 1 << i
            if forced > lim:
                continue
            dup = ln == 14  # the ace at both ends (ace_both_ends)
            if forced == lim:
                used = [kinds[i] for i in range(ln) if not (fmask >> i) & 1]
                if dup and used.count(kinds[0]) > counts[kinds[0]]:
                    continue
                yield RunSpec(suit, lo, ln, fmask), used
                continue
            optional = [i for i in range(ln) if not (fmask >> i) & 1
                        and (not aces_only or kinds[i] % 13 == 0)]
            for extra_n in range(lim - forced + 1):
                for extra in combinations(optional, extra_n):
                    jm = fmask
                    for i in extra:
                        jm |= 1 << i
                    used = [kinds[i] for i in range(ln) if not (jm >> i) & 1]
                    if dup and used.count(kinds[0]) > counts[kinds[0]]:
                        continue
                    yield RunSpec(suit, lo, ln, jm), used


def _runs_ok_together(a: RunSpec, b: RunSpec) -> bool:
    """SH-8.3: same-suit runs of one contract neither overlap nor touch."""
    if a.suit != b.suit:
        return True
    return a.hi + 1 < b.lo or b.hi + 1 < a.lo


# ---------------------------------------------------------------------------------------------
# set candidates


def _suit_multisets(avail: list[int], size: int) -> tuple[tuple[int, ...], ...]:
    """Sorted suit tuples of ``size`` natural cards drawn from ``avail`` copies per suit
    (kept by the copies and the size: the same few recur all game)."""
    key = (avail[0], avail[1], avail[2], avail[3], size)
    got = _MULTISETS.get(key)
    if got is None:
        got = _MULTISETS[key] = tuple(_suit_multisets_of(avail, size))
    return got


#: :func:`_suit_multisets` by copies per suit and size.
_MULTISETS: dict[tuple[int, int, int, int, int], tuple[tuple[int, ...], ...]] = {}


def _suit_multisets_of(avail: list[int], size: int) -> list[tuple[int, ...]]:
    """:func:`_suit_multisets`, computed."""
    out: list[tuple[int, ...]] = []

    def rec(s: int, left: int, acc: list[int]) -> None:
        if s == 4:
            if left == 0:
                out.append(tuple(acc))
            return
        top = min(avail[s], left)
        for k in range(top, -1, -1):
            rec(s + 1, left - k, acc + [s] * k)

    rec(0, size, [])
    out.sort()
    return out


def set_candidates(counts: Sequence[int], rank: int, jokers: int, min_sizes: bool,
                   ) -> Iterator[SetSpec]:
    """Every set of ``rank`` the counts can supply: yields ``SetSpec``."""
    avail = [counts[s * 13 + rank - 1] for s in range(4)]
    total = sum(avail)
    sizes_plain: Iterable[int] = range(3, total + 1) if min_sizes else (
        (3,) if total >= 3 else ())
    for n in sizes_plain:
        for suits in _suit_multisets(avail, n):
            yield SetSpec(rank, suits, ())
    if jokers:
        sizes_j: Iterable[int] = range(2, total + 1) if min_sizes else (
            (2,) if total >= 2 else ())
        for n in sizes_j:
            for suits in _suit_multisets(avail, n):
                for d in range(4):
                    yield SetSpec(rank, suits, (d,))


# ---------------------------------------------------------------------------------------------
# enumeration of every legal contract


def contract_options(counts: Sequence[int], contract: ContractRule,
                     rules: SolverRules = DEFAULT_RULES) -> list[Contract]:
    """Every legal way to make ``contract`` from a hand with these kind counts, as canonical
    :class:`Contract` actions, in a deterministic order (sorted by meld keys).

    The hand size is ``sum(counts)``; a way that would use every card is left out when
    ``rules.keep_one`` (SH-8.7).
    """
    counts = list(counts)
    hand_size = sum(counts)
    if hand_size < contract.cards + (1 if rules.keep_one else 0):
        return []
    if find_contract(counts, contract, rules) is None:
        return []  # the fast existence search rules out most hands at once
    run_lengths: Iterable[int] = (range(contract.run_len, _max_run(rules) + 1)
                                  if rules.min_sizes else (contract.run_len,))
    out: list[Contract] = []
    runs_needed = contract.runs
    sets_needed = contract.sets
    limit = hand_size - (1 if rules.keep_one else 0)

    def sets_rec(start_key: tuple[int, int, tuple[int, ...], tuple[int, ...]] | None,
                 chosen_runs: list[RunSpec], chosen_sets: list[SetSpec], n_left: int,
                 used_cards: int, ranks_used: frozenset[int]) -> None:
        if n_left == 0:
            if used_cards <= limit:
                out.append(Contract(tuple(chosen_runs) + tuple(chosen_sets)))
            return
        jk = counts[JOKER_KIND]
        if _sets_possible(counts, jk, n_left, rules.distinct_set_ranks) is None:
            return  # the remaining cards cannot hold the remaining sets
        first = 0 if start_key is None else start_key[1]
        for rank in SET_RANK_ORDER:
            rkey = 14 if rank == 1 else rank
            if rkey < first or (rules.distinct_set_ranks and rank in ranks_used):
                continue
            avail = (counts[rank - 1] + counts[12 + rank] + counts[25 + rank]
                     + counts[38 + rank])
            if avail < 2 or (avail < 3 and not jk):
                continue
            for spec in set_candidates(counts, rank, jk, rules.min_sizes):
                if start_key is not None and rkey == first and spec.key < start_key:
                    continue
                size = spec.size
                if used_cards + size + 3 * (n_left - 1) > limit:
                    continue
                for s in spec.suits:
                    counts[s * 13 + rank - 1] -= 1
                counts[JOKER_KIND] -= len(spec.jokers)
                sets_rec(spec.key, chosen_runs, chosen_sets + [spec], n_left - 1,
                         used_cards + size, ranks_used | {rank})
                for s in spec.suits:
                    counts[s * 13 + rank - 1] += 1
                counts[JOKER_KIND] += len(spec.jokers)

    def runs_rec(start_key: tuple[int, int, int, int, int] | None, chosen: list[RunSpec],
                 n_left: int, used_cards: int) -> None:
        if n_left == 0:
            if sets_needed:
                sets_rec(None, chosen, [], sets_needed, used_cards, frozenset())
            elif used_cards <= limit:
                out.append(Contract(tuple(chosen)))
            return
        jk = counts[JOKER_KIND]
        for suit in range(4):
            for spec, used in list(run_candidates(counts, suit, run_lengths, jk)):
                if start_key is not None and spec.key <= start_key:
                    continue
                if any(not _runs_ok_together(spec, c) for c in chosen):
                    continue
                size = spec.length
                if (used_cards + size + contract.run_len * (n_left - 1)
                        + 3 * sets_needed > limit):
                    continue
                for k in used:
                    counts[k] -= 1
                counts[JOKER_KIND] -= spec.joker_count
                runs_rec(spec.key, chosen + [spec], n_left - 1, used_cards + size)
                for k in used:
                    counts[k] += 1
                counts[JOKER_KIND] += spec.joker_count

    runs_rec(None, [], runs_needed, 0)
    out.sort(key=lambda c: tuple(m.key for m in c.melds))
    return out


# ---------------------------------------------------------------------------------------------
# existence (fast)


def _sets_possible(counts: Sequence[int], jokers: int, n_sets: int, distinct: bool,
                   ) -> list[tuple[int, int]] | None:
    """Sets of three for ``n_sets`` sets from the counts and jokers, or ``None``.

    Greedy on marginal joker cost per extra set of a rank, which is optimal because the cost of
    ``k`` sets of a rank holding ``c`` naturals, ``max(0, 3k - c)`` (feasible while
    ``c >= 2k``), is convex in ``k``.  Returns ``[(rank, sets)]``.
    """
    if n_sets == 0:
        return []
    marg: list[tuple[int, int, int]] = []  # (cost, rank key, rank)
    for r in _RANKS:
        c = counts[r - 1] + counts[13 + r - 1] + counts[26 + r - 1] + counts[39 + r - 1]
        if c < 2:
            continue
        prev = 0
        kmax = 1 if distinct else min(n_sets, c // 2)
        for k in range(1, kmax + 1):
            tot = 3 * k - c if 3 * k > c else 0
            marg.append((tot - prev, k, r))
            prev = tot
    if len(marg) < n_sets:
        return None
    marg.sort()
    chosen = marg[:n_sets]
    # each rank's k-th set comes after its (k-1)-th in the sort (convex, ties by k)
    if sum(m[0] for m in chosen) > jokers:
        return None
    per: dict[int, int] = {}
    for _, _, r in chosen:
        per[r] = per.get(r, 0) + 1
    return sorted(per.items())


def _build_sets(counts: Sequence[int], plan: list[tuple[int, int]]) -> list[SetSpec]:
    """Concrete sets of three for a plan ``[(rank, k)]`` from :func:`_sets_possible`."""
    specs = []
    for rank, k in plan:
        pool: list[int] = []
        for s in range(4):
            pool += [s] * counts[s * 13 + rank - 1]
        c = len(pool)
        need_j = max(0, 3 * k - c)
        # sets with a joker take two naturals, the others three
        idx = 0
        for i in range(k):
            if i < need_j:
                suits = tuple(sorted(pool[idx:idx + 2]))
                idx += 2
                decl = next((d for d in range(4) if d not in suits), 0)
                specs.append(SetSpec(rank, suits, (decl,)))
            else:
                suits = tuple(sorted(pool[idx:idx + 3]))
                idx += 3
                specs.append(SetSpec(rank, suits, ()))
    return specs


def find_contract(counts: Sequence[int], contract: ContractRule,
                  rules: SolverRules = DEFAULT_RULES) -> Contract | None:
    """One legal way to make ``contract`` with this hand, or ``None`` (exact: ``None`` only
    when :func:`contract_options` is empty).

    Runs are searched first over every window and joker placing (a joker may stand where a
    natural is held, to free that natural for a set or another run); sets then follow from a
    greedy that is exact for sets of three (larger sets are never needed: any set of three or
    more with at most one joker contains a legal set of three).
    """
    counts = list(counts)
    hand_size = sum(counts)
    keep = 1 if rules.keep_one else 0
    if hand_size < contract.cards + keep:
        return None
    run_lengths: Iterable[int] = (range(contract.run_len, _max_run(rules) + 1)
                                  if rules.min_sizes else (contract.run_len,))
    limit = hand_size - keep
    n_sets = contract.sets
    set_cards = 3 * n_sets
    aces_only = n_sets == 0

    def rec(start_key: tuple[int, int, int, int, int] | None, chosen: list[RunSpec],
            n_left: int, used_cards: int) -> Contract | None:
        if n_left == 0:
            plan = _sets_possible(counts, counts[JOKER_KIND], n_sets, rules.distinct_set_ranks)
            if plan is None:
                return None
            return Contract(tuple(chosen) + tuple(_build_sets(counts, plan)))
        jk = counts[JOKER_KIND]
        for suit in range(4):
            for spec, used in list(run_candidates(counts, suit, run_lengths, jk, aces_only)):
                if start_key is not None and spec.key <= start_key:
                    continue
                if any(not _runs_ok_together(spec, c) for c in chosen):
                    continue
                if used_cards + spec.length + contract.run_len * (n_left - 1) + set_cards \
                        > limit:
                    continue
                for k in used:
                    counts[k] -= 1
                counts[JOKER_KIND] -= spec.joker_count
                res = rec(spec.key, chosen + [spec], n_left - 1, used_cards + spec.length)
                for k in used:
                    counts[k] += 1
                counts[JOKER_KIND] += spec.joker_count
                if res is not None:
                    return res
        return None

    if contract.runs and not _runs_prefilter(counts, contract, rules):
        return None
    return rec(None, [], contract.runs, 0)


def _runs_prefilter(counts: Sequence[int], contract: ContractRule, rules: SolverRules) -> bool:
    """Quick necessary condition: some suit holds a window of the run length missing no more
    cards than the jokers can fill (any legal run, even a longer one, contains such a window)."""
    jk = counts[JOKER_KIND]
    ln = contract.run_len
    lim = jk if rules.min_sizes else min(joker_limit(ln, True), jk)
    for suit in range(4):
        present = [counts[kind_at(suit, p)] > 0 for p in range(1, 15)]
        for lo in run_windows(ln):
            if ln - sum(present[lo - 1:lo - 1 + ln]) <= lim:
                return True
    return False


def can_make(counts: Sequence[int], contract: ContractRule,
             rules: SolverRules = DEFAULT_RULES) -> bool:
    """True if the hand can make the contract now (SH-8.1, SH-8.2, SH-8.7)."""
    return find_contract(counts, contract, rules) is not None


# ---------------------------------------------------------------------------------------------
# deficiency (for the bot)


def deficiency(counts: Sequence[int], contract: ContractRule,
               rules: SolverRules = DEFAULT_RULES, cap: int = 99) -> int:
    """How many more natural cards the hand needs to hold the contract's melds (at the stated
    sizes), jokers counted; 0 when the melds are all there.  Ignores the card kept for the
    discard (the bot counts cards separately).  Exact for runs; sets of a rank are scored by
    ``max(0, 3k - c)`` with at most one joker each.  ``cap`` bounds the search.
    """
    counts = list(counts)
    jokers = counts[JOKER_KIND]
    ln = contract.run_len
    n_runs = contract.runs
    n_sets = contract.sets
    jlim = joker_limit(ln, True) if n_runs else 0
    best = [cap]

    def set_cost(cnts: Sequence[int]) -> tuple[int, int]:
        """(virtual cards needed, jokers the sets can absorb) for the best sets."""
        if n_sets == 0:
            return 0, 0
        marg: list[tuple[int, int, int]] = []
        for r in _RANKS:
            c = cnts[r - 1] + cnts[12 + r] + cnts[25 + r] + cnts[38 + r]
            prev = 0
            kmax = 1 if rules.distinct_set_ranks else n_sets
            for k in range(1, kmax + 1):
                tot = 3 * k - c if 3 * k > c else 0
                marg.append((tot - prev, r, k))
                prev = tot
        marg.sort()
        chosen = marg[:n_sets]
        need = sum(m[0] for m in chosen)
        absorb = min(n_sets, need)
        return need, absorb

    if n_runs == 0:
        need, absorb = set_cost(counts)
        return max(0, need - min(jokers, absorb))

    # run windows by their number of missing cards
    windows: list[tuple[int, int, int, tuple[int, ...]]] = []
    for suit in range(4):
        for lo, kinds in _windows(suit, ln):
            miss = 0
            for k in kinds:
                if not counts[k]:
                    miss += 1
            windows.append((miss, suit, lo, kinds))
    windows.sort()

    def rec(start: int, chosen: list[tuple[int, int, int]], run_miss: int,
            run_absorb: int) -> None:
        n_left = n_runs - len(chosen)
        if n_left == 0:
            need, absorb = set_cost(counts)
            total = run_miss + need - min(jokers, run_absorb + absorb)
            best[0] = min(best[0], total)
            return
        for i in range(start, len(windows)):
            miss0, suit, lo, kinds = windows[i]
            # windows are sorted by their missing cards, which only grow as runs take cards
            if run_miss + miss0 * n_left - jokers >= best[0]:
                break
            miss = 0
            for k in kinds:
                if counts[k] == 0:
                    miss += 1
            if run_miss + miss + miss0 * (n_left - 1) - jokers >= best[0]:
                continue
            hi = lo + ln - 1
            if any(c[0] == suit and not (c[2] + 1 < lo or hi + 1 < c[1]) for c in chosen):
                continue
            took = [k for k in kinds if counts[k] > 0]
            for k in took:
                counts[k] -= 1
            rec(i + 1, chosen + [(suit, lo, hi)], run_miss + miss,
                run_absorb + min(jlim, miss))
            for k in took:
                counts[k] += 1
            if best[0] <= 0:
                return

    rec(0, [], 0, 0)
    return best[0]
