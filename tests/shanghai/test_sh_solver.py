"""The contract solver against an independent brute force on small hands (SH-7, SH-8).

The brute force knows nothing of the solver's windows and joker placings: it takes every
sub-multiset of the hand, gives every joker in it every possible declaration, checks the
result with a plain reading of the rules, and combines melds into contracts.  The solver must
list exactly the same contracts (never missing one, never proposing an illegal one), and
:func:`find_contract` must find one exactly when one exists.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from meldhall.games.shanghai.actions import Contract, RunSpec, SetSpec
from meldhall.games.shanghai.rules import CONTRACTS, JOKER_KIND
from meldhall.games.shanghai.rules import Contract as Rule
from meldhall.games.shanghai.solver import (
    SolverRules,
    can_make,
    contract_options,
    counts_of,
    deficiency,
    find_contract,
)

LIMIT = {4: 1, 5: 2, 6: 2, 7: 3, 8: 3, 9: 3}


def _limit(length: int) -> int:
    return 4 if length >= 10 else LIMIT[length]


def _valid_set(decl, jokers, rules, size_req) -> SetSpec | None:
    """decl: declared kinds of all cards; jokers: indices that are jokers."""
    ranks = {k % 13 for k in decl}
    if len(ranks) != 1 or len(decl) < 3 or len(jokers) > 1:
        return None
    if rules.min_sizes:
        if len(decl) < 3:
            return None
    elif len(decl) != size_req:
        return None
    rank = ranks.pop() + 1
    suits = tuple(sorted(decl[i] // 13 for i in range(len(decl)) if i not in jokers))
    js = tuple(sorted(decl[i] // 13 for i in jokers))
    return SetSpec(rank, suits, js)


def _valid_run(positions, suit, jokers_at, rules, length_req) -> RunSpec | None:
    """positions: the declared position of every card (1..14); jokers_at: set of positions."""
    ps = sorted(positions)
    n = len(ps)
    if n < 4 or len(set(ps)) != n or ps[-1] - ps[0] != n - 1:
        return None
    if 1 in ps and 14 in ps and not rules.ace_both_ends:
        return None
    if rules.min_sizes:
        if n < length_req:
            return None
    elif n != length_req:
        return None
    if len(jokers_at) > _limit(n):
        return None
    lo = ps[0]
    jm = 0
    for p in jokers_at:
        jm |= 1 << (p - lo)
    return RunSpec(suit, lo, n, jm)


def _natural_positions(kind: int) -> tuple[int, ...]:
    r = kind % 13 + 1
    return (1, 14) if r == 1 else (r,)


def brute_melds(hand: list[int], rules: SolverRules, rule: Rule):
    """Every legal set and run (at the contract's sizes) from sub-multisets of ``hand``,
    as ``(spec, Counter of kinds used)``."""
    out = {}
    sizes = set()
    if rule.sets:
        sizes |= set(range(3, len(hand) + 1)) if rules.min_sizes else {3}
    if rule.runs:
        sizes |= (set(range(rule.run_len, len(hand) + 1)) if rules.min_sizes
                  else {rule.run_len})
    for size in sorted(sizes):
        for combo in set(itertools.combinations(sorted(hand), size)):
            nat = [k for k in combo if k != JOKER_KIND]
            nj = size - len(nat)
            used = Counter(combo)
            # sets: every joker declares a card of the naturals' rank, any suit
            if rule.sets and nat and len({k % 13 for k in nat}) == 1:
                r = nat[0] % 13
                for decls in itertools.product(range(4), repeat=nj):
                    decl = nat + [s * 13 + r for s in decls]
                    spec = _valid_set(decl, set(range(len(nat), size)), rules, 3)
                    if spec is not None:
                        out[spec] = used
            # runs: naturals of one suit at any of their positions, jokers anywhere else
            if rule.runs and nat and len({k // 13 for k in nat}) == 1:
                suit = nat[0] // 13
                for poss in itertools.product(*[_natural_positions(k) for k in nat]):
                    free = [p for p in range(1, 15) if p not in poss]
                    for jpos in itertools.combinations(free, nj):
                        spec = _valid_run(list(poss) + list(jpos), suit, set(jpos), rules,
                                          rule.run_len)
                        if spec is not None:
                            out[spec] = used
    return list(out.items())


def brute_contracts(hand: list[int], rule: Rule, rules: SolverRules) -> set[str]:
    melds = brute_melds(hand, rules, rule)
    sets = [(m, u) for m, u in melds if not m.is_run]
    runs = [(m, u) for m, u in melds if m.is_run]
    have = Counter(hand)
    out = set()
    for rs in itertools.combinations_with_replacement(range(len(runs)), rule.runs):
        for ss in itertools.combinations_with_replacement(range(len(sets)), rule.sets):
            chosen = [runs[i] for i in rs] + [sets[i] for i in ss]
            total = Counter()
            for _, u in chosen:
                total += u
            if any(total[k] > have[k] for k in total):
                continue
            if rules.keep_one and sum(total.values()) >= len(hand):
                continue
            rspecs = [m for m, _ in chosen if m.is_run]
            ok = True
            for a, b in itertools.combinations(rspecs, 2):
                if a.suit == b.suit and not (a.hi + 1 < b.lo or b.hi + 1 < a.lo):
                    ok = False
            sranks = [m.rank for m, _ in chosen if not m.is_run]
            if rules.distinct_set_ranks and len(set(sranks)) != len(sranks):
                ok = False
            if ok:
                out.add(str(Contract(tuple(m for m, _ in chosen))))
    return out


SHAPES = [
    Rule(1, 2, 0, 0),   # two sets (contract 1)
    Rule(2, 1, 1, 4),   # set + run of 4 (contract 2)
    Rule(3, 0, 2, 4),   # two runs of 4 (contract 3)
    Rule(0, 0, 1, 5),   # a run of 5 (joker limit 2)
    Rule(0, 1, 1, 5),   # set + run of 5
    Rule(0, 0, 1, 7),   # a run of 7 (limit 3)
]


def _hand(rng: random.Random, size: int, suits: int, ranks: int, jokers: int) -> list[int]:
    pool = [s * 13 + r for s in range(suits) for r in list(range(ranks)) for _ in range(2)]
    pool += [JOKER_KIND] * jokers
    return rng.sample(pool, size)


@pytest.mark.parametrize("rule", SHAPES, ids=lambda r: f"s{r.sets}r{r.runs}x{r.run_len}")
@pytest.mark.parametrize("rules", [
    SolverRules(),
    SolverRules(min_sizes=True),
    SolverRules(distinct_set_ranks=True, keep_one=False),
    SolverRules(ace_both_ends=True),
], ids=["default", "min_sizes", "distinct_noKeep", "aceBoth"])
def test_solver_matches_brute_force(rule, rules):
    """SH-7.1–SH-7.5, SH-8.2–SH-8.4, SH-8.7: the solver lists exactly the brute-force
    contracts, and find_contract agrees on existence."""
    rng = random.Random(hash((rule, rules)) & 0xFFFF)
    found = 0
    for _ in range(80):
        size = rule.cards + rng.randint(0, 3)
        suits = rng.choice([1, 2])
        ranks = rng.randint(4, 9) if rule.runs else rng.randint(3, 5)
        jokers = rng.choice([0, 1, 2])
        hand = _hand(rng, min(size, suits * ranks * 2 + jokers), suits=suits, ranks=ranks,
                     jokers=jokers)
        counts = counts_of(hand)
        expect = brute_contracts(hand, rule, rules)
        got = [str(c) for c in contract_options(counts, rule, rules)]
        assert len(got) == len(set(got)), "duplicates in the solver's list"
        assert set(got) == expect, f"hand {sorted(hand)}"
        fc = find_contract(counts, rule, rules)
        assert (fc is not None) == bool(expect)
        if fc is not None:
            assert str(fc) in expect
            found += 1
    assert found >= 5, "too few hands that make the contract to be a useful check"


def test_solver_matches_brute_force_near_the_aces():
    """SH-7.3: runs around the ace (low, high, never the corner, never two aces)."""
    rng = random.Random(7)
    rules = SolverRules()
    for rule in (Rule(0, 0, 1, 4), Rule(0, 0, 2, 4), Rule(0, 0, 1, 5)):
        for _ in range(80):
            pool = [r for r in (0, 1, 2, 3, 9, 10, 11, 12) for _ in range(2)] + [JOKER_KIND] * 2
            hand = rng.sample(pool, rule.cards + rng.randint(0, 2))
            expect = brute_contracts(hand, rule, rules)
            got = {str(c) for c in contract_options(counts_of(hand), rule, rules)}
            assert got == expect, f"hand {sorted(hand)}"
            assert (find_contract(counts_of(hand), rule, rules) is not None) == bool(expect)


def test_find_contract_on_every_contract_agrees_with_enumeration():
    """SH-5.2: for random 11–16-card hands and each of the ten contracts, find_contract
    finds a contract exactly when the full enumeration has one, and it is one of them."""
    rng = random.Random(11)
    pool = [k for k in range(52) for _ in range(2)] + [JOKER_KIND]
    hits = 0
    for number, rule in CONTRACTS.items():
        for _ in range(40):
            # hands biased towards melds: few suits and ranks
            suits = rng.sample(range(4), rng.choice([1, 2, 4]))
            sub = [k for k in pool if k == JOKER_KIND or k // 13 in suits]
            hand = rng.sample(sub, min(len(sub), rng.randint(11, 16)))
            counts = counts_of(hand)
            opts = contract_options(counts, rule)
            fc = find_contract(counts, rule)
            assert (fc is not None) == bool(opts), (number, sorted(hand))
            if fc is not None:
                assert str(fc) in {str(c) for c in opts}
                hits += 1
            assert can_make(counts, rule) == bool(opts)
    assert hits > 20


def test_deficiency_zero_when_the_contract_can_be_made():
    """The bot's measure: 0 when the melds are in hand, positive when cards are missing."""
    rng = random.Random(5)
    pool = [k for k in range(52) for _ in range(2)] + [JOKER_KIND]
    for rule in CONTRACTS.values():
        for _ in range(30):
            hand = rng.sample(pool, rng.randint(11, 16))
            counts = counts_of(hand)
            d = deficiency(counts, rule)
            if can_make(counts, rule, SolverRules(keep_one=False)):
                assert d == 0
            assert d >= 0
    # adding the missing card brings it down
    counts = counts_of([k for k in (4, 5, 6)] + [17, 17, 17])   # 5S 6S 7S, 5H 5H 5H
    assert deficiency(counts, CONTRACTS[2]) == 1                # 8S or 4S missing
    counts[7] += 1                                              # 8S
    assert deficiency(counts, CONTRACTS[2]) == 0
