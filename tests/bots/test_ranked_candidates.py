"""The Shanghai heuristic's order of preference (``rank``), which the search bot's ranked
levels take their challengers from (docs/bots.md)."""

from __future__ import annotations

import random

import meldhall
from meldhall.bots.heuristic import heuristic_bot
from meldhall.bots.ismcts import LEVELS, IsmctsBot, Level
from meldhall.games.shanghai.actions import Discard


def _meld_decisions(seeds: range, limit: int = 400):
    """(observation, legal) of meld-phase decisions with two discards or more."""
    bot = heuristic_bot("shanghai-rummy")
    for seed in seeds:
        rng = random.Random(seed)
        st = meldhall.new_game("shanghai-rummy", players=4, seed=seed)
        steps = 0
        while st.outcome is None and steps < limit:
            seat = st.to_act[0]
            obs, legal = st.observation(seat), st.legal_actions()
            if obs.phase == "meld" and sum(type(a) is Discard for a in legal) >= 2:
                yield obs, legal
            st = st.apply(bot.choose(obs, legal, rng))
            steps += 1


def test_rank_lists_every_action_once_with_the_choice_first_among_discards():
    bot = heuristic_bot("shanghai-rummy")
    seen = 0
    for obs, legal in _meld_decisions(range(6)):
        ranked = bot.rank(obs, legal)
        assert sorted(map(str, ranked)) == sorted(map(str, legal))
        choice = bot.choose(obs, legal, random.Random(0))
        if type(choice) is Discard and not getattr(obs, "staged", ()):
            # the discard the heuristic plays is the first it ranks
            assert ranked[0] == choice, (ranked[:3], choice)
            seen += 1
    assert seen >= 20


def test_ranked_levels_search_the_heuristics_runners_up():
    """A ``ranked`` level takes its challengers from ``rank`` (the heuristic's next choices),
    not a random draw: every candidate searched is among the first ``max_candidates`` ranked
    (planning actions: here, discards only).  The shipped levels do not (it did no better,
    docs/strength.md)."""
    assert not LEVELS["shanghai-rummy"]["normal"].ranked
    bot = IsmctsBot("shanghai-rummy", Level("t", iterations=16, seconds=None, inference=True,
                                             ranked=True, max_candidates=3))
    checked = 0
    for obs, legal in _meld_decisions(range(3)):
        if getattr(obs, "staged", ()) or any(type(a) is not Discard for a in legal):
            continue
        stats = bot.analyse(obs, legal, random.Random(1))
        top = set(map(str, bot.policy.rank(obs, legal)[:3]))
        assert {str(s.action) for s in stats} <= top
        checked += 1
        if checked >= 5:
            break
    assert checked >= 3
