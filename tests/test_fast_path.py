"""The fast path of ``legal_actions`` agrees with the one legality check.

``legal_actions`` tests its candidates with cheap predicates (a take, the upcard's staged meld,
``meld done``, "may I go out?", the commit of a staged take) and lists blocks of actions kept
by the counts that make them, instead of running the exception-raising check on each; the
check (``check`` / ``_plan``) stays the one source of truth for a submitted action.  Over many
seeded random states of every game this file asserts:

* each predicate says exactly what the check says, on every candidate the fast path tries and
  on every take the action space can name (most of them illegal);
* the listed actions are exactly the actions of the game's fixed action space that ``check``
  accepts (every legal action has an id, docs/protocol.md) — but for those that are shorthand
  for a staged sequence in the state, and the upcard's staged melds that could never commit
  (offered only when one can, :func:`_dead_end_upcard_stage`) — on fewer states (it checks
  every id).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import meldhall
from meldhall.errors import IllegalActionError
from meldhall.games.canasta.actions import TWO, Ask, MeldDone, MeldSpec, Stage, Take
from meldhall.cards import JOKER

CANASTA_CASES = [
    ("classic-canasta", 4, None),
    ("classic-canasta", 2, None),
    ("classic-canasta", 3, {"three_player_mode": "cutthroat"}),
    ("classic-canasta", 6, {"partner_permission": "compulsory"}),
    ("classic-canasta", 4, {"wild_ratio": "pagat", "unfrozen_take_with_wild": False}),
    ("classic-canasta", 2, {"concealed_exempt_from_minimum": False,
                            "single_card_pile_restriction": True}),
    ("railroad-canasta", 4, None),
    ("railroad-canasta", 2, None),
    ("railroad-canasta", 6, None),
]
SWEEP_CASES = [
    ("classic-canasta", 4, None), ("classic-canasta", 2, None),
    ("classic-canasta", 6, {"partner_permission": "compulsory"}),
    ("railroad-canasta", 3, None),
    ("shanghai-rummy", 4, None), ("shanghai-rummy", 5, {"contract_min_sizes": True,
                                                       "ace_both_ends": True}),
    ("shanghai-rummy", 3, {"go_out_without_discard": True, "discard_taken_upcard": True}),
]


def _accepts(check, *args) -> bool:
    try:
        check(*args)
    except IllegalActionError:
        return False
    return True


def _random_states(game: str, players: int, options, seed: int, steps: int,
                   every: int) -> Iterator:
    """Every ``every``-th state of ``steps`` uniformly random actions (new games as needed)."""
    rng = random.Random(seed)
    s = meldhall.new_game(game, players=players, seed=seed, options=options)
    for i in range(steps):
        if s.is_terminal:
            seed += 1
            s = meldhall.new_game(game, players=players, seed=seed, options=options)
        if i % every == 0:
            yield s
        s = s.apply(rng.choice(s.legal_actions()))


def _all_takes(s, r: int) -> list[Take]:
    """Every take of rank ``r`` the action space can name (the ids' take block; in Railroad
    Canasta, whose block is 512 takes, those of up to three naturals and two of each wild)."""
    space = s._action_space()
    n, t, j = (space.n, space.t, space.j) if s.game_name == "classic-canasta" else (3, 2, 2)
    return [Take(r, a, b, c) for a in range(n + 1) for b in range(t + 1) for c in range(j + 1)]


def _check_draw(s, counted: dict) -> None:
    if not s.pile or s.staged:
        return
    r = s.pack.rank_of[s.pile[-1]]
    counts = s._counts()
    takes = _all_takes(s, r) if r not in (JOKER, TWO, 3) else [Take(r), Take(r, 2)]
    for a in takes:
        assert s._take_ok(a) == _accepts(s._plan_take, a), f"{a} in {s!r}"
        counted["take"] += 1
    if r in (JOKER, TWO, 3) or not s._unmelded():
        return
    # the upcard melds offered to stage: those with which some take commits, by the check
    reference = []
    for up in s._take_candidates(r, counts):
        if up.extra or not (up.naturals or up.twos or up.jokers):
            continue
        spec = MeldSpec(r, up.naturals, up.twos, up.jokers)
        if not _accepts(s._check_stage, spec, True, counts):
            continue
        rest = list(counts)
        rest[r] -= up.naturals
        rest[TWO] -= up.twos
        rest[JOKER] -= up.jokers
        if any(_accepts(s._plan_take, Take(r, up.naturals, up.twos, up.jokers, e))
               for e in s._extras_largest_first(rest, r, -10**9)):
            reference.append(spec)
    assert s._committable_upcard_melds() == reference, f"{s!r}"
    counted["committable"] += 1
    for up in s._take_candidates(r, counts):
        spec = MeldSpec(r, up.naturals, up.twos, up.jokers)
        assert s._upcard_stage_ok(spec, counts) == _accepts(s._check_stage, spec, True, counts)
        counted["upcard stage"] += 1
        rest = list(counts)
        rest[r] -= up.naturals
        rest[TWO] -= up.twos
        rest[JOKER] -= up.jokers
        for i, extra in enumerate(s._extras_largest_first(rest, r, 0)):
            if i >= 6:
                break
            a = Take(r, up.naturals, up.twos, up.jokers, extra)
            assert s._take_ok(a) == _accepts(s._plan_take, a), f"{a} in {s!r}"
            counted["take with melds"] += 1


def _check_canasta_state(s, counted: dict) -> None:
    ph = s.phase
    if ph == "draw":
        if s.staged:
            assert s._staged_take_ok() == s.is_legal(Take(s.staged[0].rank))
            counted["staged take"] += 1
        else:
            _check_draw(s, counted)
    elif ph == "meld":
        if s.staged:
            assert s._meld_done_ok() == s.is_legal(MeldDone())
            counted["meld done"] += 1
        if (s.game_name == "classic-canasta" and s.partners(s.turn) and not s.asked
                and not s.melds_made and not s.no_discard and not s.b3_done):
            for p in s.partners(s.turn):
                assert s._ask_ok() == s.is_legal(Ask(p))
                counted["ask"] += 1


@pytest.mark.parametrize("game,players,options", CANASTA_CASES)
def test_fast_predicates_agree_with_the_check(game, players, options):
    counted: dict[str, int] = {k: 0 for k in ("take", "upcard stage", "take with melds",
                                              "committable", "staged take", "meld done",
                                              "ask")}
    for s in _random_states(game, players, options, seed=players * 101, steps=4000, every=2):
        _check_canasta_state(s, counted)
    assert counted["take"] > 1000 and counted["meld done"] > 20, counted
    if game == "classic-canasta":
        assert counted["upcard stage"] > 50 and counted["take with melds"] > 20, counted
        assert counted["committable"] > 50, counted
        if players in (4, 6):
            assert counted["ask"] > 50, counted


def _dead_end_upcard_stage(s, a) -> bool:
    """Whether ``a`` stages the upcard's meld, which the check accepts on its own (CC-6.9 (a)),
    but with which no take could commit, whatever further melds were staged: legal_actions
    offers the upcard's meld only when some take with it commits (CC-6.9 (c)), so that a
    player is never led into a staging that must be withdrawn.  Found here with the check
    itself, over every set of further melds."""
    if not (isinstance(a, Stage) and a.upcard) or s.phase != "draw" or s.staged:
        return False
    sp = a.spec
    rest = list(s._counts())
    rest[sp.rank] -= sp.naturals
    rest[TWO] -= sp.twos
    rest[JOKER] -= sp.jokers
    return not any(_accepts(s._plan_take, Take(sp.rank, sp.naturals, sp.twos, sp.jokers, e))
                   for e in s._extras_largest_first(rest, sp.rank, -10**9))


@pytest.mark.parametrize("game,players,options", SWEEP_CASES)
def test_legal_actions_are_the_actions_the_check_accepts(game, players, options):
    states = 0
    space_size = None
    steps, every = (1500, 100) if game == "railroad-canasta" else (1500, 50)
    for s in _random_states(game, players, options, seed=players * 7, steps=steps,
                            every=every):
        if space_size is None:
            space_size = s.num_distinct_actions
        legal = s.legal_actions()
        listed = set(legal)
        assert len(listed) == len(legal), "an action is listed twice"
        for i in range(space_size):
            a = s.action_from_id(i)
            if s._expand(a) is not None:
                continue  # shorthand here for a staged sequence (CC-6.9, RR-6.11), not listed
            accepted = s.is_legal(a)
            if accepted and a not in listed and _dead_end_upcard_stage(s, a):
                continue
            assert accepted == (a in listed), f"{a} in {s!r}"
        for a in legal:
            assert s.is_legal(a), f"{a} is listed, and refused by the check"
        states += 1
    assert states >= 15


@pytest.mark.parametrize("players", [2, 4])
def test_railroad_compound_meldings_are_those_the_check_accepts(players):
    # the planners' first meldings (RR-6.11 shorthand) leave out, before the check, those that
    # count under the minimum (RR-7.1); the rest are exactly the first melds the check accepts
    from meldhall.games.canasta.actions import Meld

    compared = 0
    for s in _random_states("railroad-canasta", players, None, seed=players * 13, steps=3000,
                            every=3):
        if s.phase != "meld" or s.staged or not s._unmelded() or s._sevens_forced():
            continue
        counts = s._counts()
        reference = [Meld(sp) for sp in s._first_melds(counts, counts[TWO], counts[JOKER])
                     if _accepts(s._plan, Meld(sp), None)]
        assert s.compound_options() == reference, f"{s!r}"
        compared += 1
    assert compared > 50
