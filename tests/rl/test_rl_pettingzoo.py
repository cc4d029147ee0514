"""The PettingZoo environments pass PettingZoo's own conformance tests (api_test with 1000
cycles, seed_test, render_test) and survive a pickle round trip, for every game at two player
counts; the registry ids make them."""

from __future__ import annotations

import pickle

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import meldhall.rl
from meldhall.rl import pettingzoo_env

# PettingZoo's api_test warns about every dict observation, its own classic environments'
# included: the {"observation", "action_mask"} convention is the one it asks for
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning"),
]

CASES = [("classic-canasta", 2), ("classic-canasta", 4), ("railroad-canasta", 2),
         ("railroad-canasta", 4), ("shanghai-rummy", 3), ("shanghai-rummy", 5)]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_api(game: str, players: int) -> None:
    env = pettingzoo.make("aec", meldhall.rl.GAMES[game][0], players=players)
    api_test(env, num_cycles=1000)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_seed_and_render(game: str, players: int, capsys: pytest.CaptureFixture) -> None:
    seed_test(lambda: pettingzoo_env.env(game, players=players), num_cycles=300)
    render_test(lambda render_mode=None: pettingzoo_env.env(game, players=players,
                                                            render_mode=render_mode))
    assert capsys.readouterr().out  # "human" printed the table


def _play(env, steps: int, rng: np.random.Generator) -> list[tuple]:
    seen = []
    for agent in env.agent_iter(steps):
        obs, reward, term, trunc, _info = env.last()
        seen.append((agent, obs["observation"].copy(), obs["action_mask"].copy(), reward))
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return seen


@pytest.mark.parametrize(("game", "players"), CASES)
def test_pickle_round_trip(game: str, players: int) -> None:
    env = pettingzoo_env.env(game, players=players)
    env.reset(seed=7)
    _play(env, 150, np.random.default_rng(1))
    copy = pickle.loads(pickle.dumps(env))
    a = _play(env, 200, np.random.default_rng(2))
    b = _play(copy, 200, np.random.default_rng(2))
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x[0] == y[0] and x[3] == y[3]
        assert np.array_equal(x[1], y[1]) and np.array_equal(x[2], y[2])


def test_turns_select_the_deciding_agent() -> None:
    """A turn of several actions selects the same agent again; the mask of any other agent
    is all zeros; a Shanghai buy window selects the player offered the upcard."""
    env = pettingzoo_env.env("shanghai-rummy", players=4)
    env.reset(seed=3)
    table = env.unwrapped.table
    rng = np.random.default_rng(0)
    repeats = buys = 0
    prev = None
    for agent in env.agent_iter(3000):
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = int(agent.split("_")[1])
        assert seat == table.state.to_act[0]
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        if table.state.phase == "buy":
            buys += 1
            assert seat != table.state.turn or table.state.queue[0] == seat
        repeats += agent == prev
        prev = agent
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert repeats > 0 and buys > 0


def test_illegal_action_ends_the_game_with_a_penalty() -> None:
    env = pettingzoo_env.env("classic-canasta", players=4)
    env.reset(seed=1)
    mover = env.agent_selection
    mask = env.observe(mover)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[mover] == -meldhall.rl.core.ILLEGAL_POINTS
    assert all(r == 0 for a, r in env.rewards.items() if a != mover)
    env2 = pettingzoo_env.env("classic-canasta", players=2, reward="game")
    env2.reset(seed=1)
    mover = env2.agent_selection
    env2.step(10**6)  # outside the action space: illegal too
    assert env2.rewards[mover] == -1.0


def test_hand_rewards_are_score_differences() -> None:
    """With ``max_hands=1`` the episode is one hand, and the rewards are the hand's score
    differences (zero-sum between two sides)."""
    env = pettingzoo_env.env("classic-canasta", players=2, max_hands=1)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(20000):
        obs, reward, term, trunc, _i = env.last()
        total[agent] += reward
        env.step(None if term or trunc else
                 int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = env.unwrapped.table.state
    scores = [r.hand_score for r in state.outcome.results]
    assert total["player_0"] == scores[0] - scores[1] == -total["player_1"]
