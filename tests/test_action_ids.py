"""The fixed integer action space of every game (docs/protocol.md, "Action ids"): every legal
action of random states round-trips through its id, ids of distinct actions differ, the space
is the same for every state of a game and player count, and ids outside it are refused.
(``benchmarks/action_ids.py`` runs the same check over 10^5 states per game.)"""

from __future__ import annotations

import random

import pytest

import meldhall
from meldhall.errors import MeldhallError

CASES = ([("classic-canasta", n) for n in (2, 3, 4, 6)]
         + [("railroad-canasta", n) for n in range(2, 9)]
         + [("shanghai-rummy", n) for n in range(3, 9)])


@pytest.mark.parametrize("game,players", CASES)
def test_every_legal_action_round_trips(game, players):
    rng = random.Random(players)
    state = meldhall.new_game(game, players=players, seed=players * 7)
    size = state.num_distinct_actions
    for _ in range(300):
        if state.is_terminal:
            break
        assert state.num_distinct_actions == size
        ids = {}
        for a in state.legal_actions():
            i = state.action_id(a)
            assert 0 <= i < size
            assert state.action_from_id(i) == a and str(state.action_from_id(i)) == str(a)
            assert ids.setdefault(i, str(a)) == str(a), f"{a} shares id {i} with {ids[i]}"
        state = state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game,players", [("classic-canasta", 2), ("railroad-canasta", 2),
                                          ("shanghai-rummy", 3)])
def test_ids_outside_the_space_are_refused(game, players):
    state = meldhall.new_game(game, players=players, seed=1)
    for bad in (-1, state.num_distinct_actions, 10**30, "3", True):
        with pytest.raises(MeldhallError):
            state.action_from_id(bad)


def test_shorthand_meldings_have_no_id():
    """CC-6.9: a one-action melding of several melds is shorthand, not an action of the space."""
    state = meldhall.new_game("classic-canasta", players=2, seed=1)
    with pytest.raises(MeldhallError):
        state.action_id(state.parse_action("meld A A A, K K 2"))
