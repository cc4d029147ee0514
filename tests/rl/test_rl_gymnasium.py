"""The Gymnasium single-seat environments pass Gymnasium's env_checker, for every game; the
opponents are meldhall bots seeded from the environment; illegal actions are handled as
documented."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import meldhall.rl
from meldhall.errors import OptionsError
from meldhall.rl.gymnasium_env import MeldhallSingleSeatEnv


@pytest.mark.parametrize(("game", "players"), [("classic-canasta", 2), ("classic-canasta", 4),
                                               ("railroad-canasta", 3),
                                               ("shanghai-rummy", 4)])
def test_check_env(game: str, players: int) -> None:
    env = gymnasium.make(meldhall.rl.GAMES[game][1], players=players)
    check_env(env.unwrapped, skip_render_check=False)


def _episode(env, seed: int, steps: int = 400) -> list:
    obs, info = env.reset(seed=seed)
    out = [obs.copy()]
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = env.step(action)
        out.append((obs.copy(), reward))
        if term or trunc:
            break
    return out


def test_bots_are_seeded_from_the_environment() -> None:
    a = MeldhallSingleSeatEnv("classic-canasta", players=2, opponents="heuristic")
    b = MeldhallSingleSeatEnv("classic-canasta", players=2, opponents="heuristic")
    ea, eb = _episode(a, 11, 120), _episode(b, 11, 120)
    assert np.array_equal(ea[0], eb[0])
    for x, y in zip(ea[1:], eb[1:]):
        assert np.array_equal(x[0], y[0]) and x[1] == y[1]
    assert not np.array_equal(_episode(a, 12, 1)[0], ea[0])


def test_mask_and_learner_seat() -> None:
    env = MeldhallSingleSeatEnv("shanghai-rummy", players=3, seat=None, opponents="random")
    seats = set()
    for seed in range(8):
        _obs, info = env.reset(seed=seed)
        seats.add(info["seat"])
        assert env.table.to_act == info["seat"]
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        assert info["action_mask"].dtype == np.int8 and info["action_mask"].any()
    assert len(seats) > 1


def test_illegal_action_terminate_and_lowest() -> None:
    env = MeldhallSingleSeatEnv("classic-canasta", players=2)
    _obs, info = env.reset(seed=3)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, term, trunc, info = env.step(bad)
    assert term and not trunc and info["illegal_action"]
    assert reward == -meldhall.rl.core.ILLEGAL_POINTS
    env = MeldhallSingleSeatEnv("classic-canasta", players=2, illegal_action="lowest")
    _obs, info = env.reset(seed=3)
    lowest = int(np.flatnonzero(info["action_mask"])[0])
    expected = env.table.legal()[lowest]
    history = len(env.table.state.history())
    _obs, reward, term, _trunc, info = env.step(bad)
    assert info["illegal_action"] and not term
    assert env.table.state.history()[history][1] == str(expected)


def test_bad_options_are_refused() -> None:
    with pytest.raises(OptionsError):
        MeldhallSingleSeatEnv("classic-canasta", players=5)
    with pytest.raises(OptionsError):
        MeldhallSingleSeatEnv("classic-canasta", opponents="nobody")
    with pytest.raises(OptionsError):
        MeldhallSingleSeatEnv("classic-canasta", illegal_action="ignore")


def test_human_render_mode_shows_the_table_after_reset_too(capsys):
    """Gymnasium's convention: with render_mode="human" the environment draws itself after
    reset() as after every step (a tester saw nothing until the first step)."""
    env = gymnasium.make("meldhall/ClassicCanasta-v0", players=2, render_mode="human")
    env.reset(seed=1)
    assert "hand" in capsys.readouterr().out.lower()
