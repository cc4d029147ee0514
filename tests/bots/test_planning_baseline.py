"""The heuristics' whole-melding plans agree with their step-by-step play (CC-6.9, RR-6.11,
SH-8.1), so the search bot's baseline at a staging decision is the melding the heuristic
would stage.

A search bot compares candidates written as whole meldings (``planning_actions``) against the
heuristic's own choice among them (``plan``).  If ``plan`` chose differently from the
heuristic's step-by-step ``choose`` (for example a discard where the heuristic would make its
contract), every search would start from a move the heuristic never plays.
"""

from __future__ import annotations

import random

import pytest

from meldhall import new_game
from meldhall.bots import make_bot
from meldhall.bots.ismcts import IsmctsBot
from meldhall.bots.staging import next_step, planning_actions

CASES = [("classic-canasta", 2), ("classic-canasta", 4), ("railroad-canasta", 2),
         ("railroad-canasta", 3), ("shanghai-rummy", 3), ("shanghai-rummy", 5)]


def staging_decisions(game: str, players: int, seeds: range):
    """(state, seat) at every decision of heuristic play where a melding could be staged and
    nothing is staged yet."""
    policy = make_bot("heuristic", game)
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(game, players=players, seed=seed)
        while state.outcome is None:
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            obs = state.observation(seat)
            if len(legal) > 1 and not getattr(obs, "staged", ()) and any(
                    str(a).startswith("stage ") for a in legal):
                yield state, seat
            action = legal[0] if len(legal) == 1 else policy.choose(obs, legal, rng)
            state = state.apply(action, seat)


@pytest.mark.parametrize("game,players", CASES)
def test_plan_then_next_step_is_the_heuristics_step(game, players):
    policy = make_bot("heuristic", game)
    checked = 0
    stages = 0
    for state, seat in staging_decisions(game, players, range(6)):
        obs = state.observation(seat)
        legal = state.legal_actions(seat)
        step = policy.choose(obs, legal, random.Random(0))
        plan = policy.plan(obs, planning_actions(obs, legal), random.Random(0))
        assert next_step(obs, plan, legal) == step, (str(plan), str(step))
        checked += 1
        stages += str(step).startswith("stage ")
    assert checked >= 5
    assert stages >= 1  # some decisions were meldings the heuristic staged


def test_shanghai_search_baseline_is_the_heuristics_contract():
    """SH-8.1: where the heuristic would stage its contract, the search's baseline (the
    action it keeps unless a challenger wins by the gate) is that whole contract."""
    policy = make_bot("heuristic", "shanghai-rummy")
    bot = IsmctsBot("shanghai-rummy", "easy")
    found = 0
    for state, seat in staging_decisions("shanghai-rummy", 4, range(4)):
        obs = state.observation(seat)
        legal = state.legal_actions(seat)
        step = policy.choose(obs, legal, random.Random(0))
        if not str(step).startswith("stage "):
            continue
        stats = bot.analyse(obs, legal, random.Random(1))
        baseline = [s.action for s in stats if s.heuristic]
        assert baseline, "the heuristic's choice is among the searched candidates"
        assert str(baseline[0]).startswith("contract "), str(baseline[0])
        assert next_step(obs, baseline[0], legal) == step
        found += 1
        if found >= 3:
            break
    assert found >= 1


def test_next_step_goes_on_with_melds_staged_in_another_order():
    """A plan holding every staged meld goes on with its first step not staged yet, whatever
    order they were staged in (it said 'withdraw all', to stage the same melds again)."""
    from meldhall import new_game
    from meldhall.bots.staging import next_step

    for seed in range(60):
        s = new_game("classic-canasta", players=2, seed=seed).apply_text("draw")
        stages = [a for a in s.legal_actions() if str(a).startswith("stage")]
        pairs = [(a, b) for a in stages for b in stages
                 if a.spec.rank != b.spec.rank and a.spec.rank < b.spec.rank]
        for a, b in pairs:
            plan_text = f"meld {str(a)[6:]}, {str(b)[6:]}"
            try:
                plan = s.parse_action(plan_text)
                s.check(plan)
            except Exception:
                continue
            seq = s._expand(plan)  # stage, stage, commit
            seat = s.to_act[0]
            later = s.apply(seq[1], seat)  # the plan's second meld staged first
            assert later.observation(seat).staged
            step = next_step(later.observation(seat), plan, later.legal_actions(seat))
            assert str(step) == str(seq[0]), (plan_text, step)
            return
    raise AssertionError("no two-meld melding found")
