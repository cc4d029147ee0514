"""The OpenSpiel games pass OpenSpiel's random simulation test (with serialization) at two
player counts each, their observer agrees with the state's tensors and strings, the
information state is the player's own (unchanged by resampling the hidden cards, different
for another player), the Python ISMCTSBot plays with meldhall's resampler, and each game's
playthrough replays as shipped."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyspiel
import pytest
from absl import flags
from open_spiel.python.algorithms import generate_playthrough, ismcts
from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator
from open_spiel.python.observation import make_observation

import meldhall.rl.openspiel as mo

PLAYTHROUGHS = Path(__file__).resolve().parent / "playthroughs"

# (game, players, max_game_length): the random simulations replay every prefix of the game
# when they check serialization, so the longer games are cut (a declared parameter)
CASES = [("python_meldhall_classic_canasta", 2, 0), ("python_meldhall_classic_canasta", 4, 0),
         ("python_meldhall_railroad_canasta", 2, 600),
         ("python_meldhall_railroad_canasta", 4, 400),
         ("python_meldhall_shanghai_rummy", 3, 400), ("python_meldhall_shanghai_rummy", 5, 300)]


def _load(name: str, players: int, length: int = 0, **more):
    params = {"players": players, "max_game_length": length, **more}
    return pyspiel.load_game(name, params)


@pytest.mark.parametrize(("name", "players", "length"), CASES)
def test_random_sim(name: str, players: int, length: int) -> None:
    game = _load(name, players, length)
    assert game.max_game_length() == (length or mo._LENGTH_PER_HAND[game.spec.meldhall_game])
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_game_reward_mode() -> None:
    game = _load("python_meldhall_classic_canasta", 2, reward="game", max_hands=1)
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def _random_states(game, count: int, seed: int):
    rng = np.random.default_rng(seed)
    out = []
    state = game.new_initial_state()
    while len(out) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            state.apply_action(int(rng.integers(game.max_chance_outcomes())))
            continue
        state.apply_action(int(rng.choice(state.legal_actions())))
        if rng.random() < 0.1 and not state.is_terminal():
            out.append(state.clone())
    return out


@pytest.mark.parametrize(("name", "players"), [("python_meldhall_classic_canasta", 4),
                                               ("python_meldhall_railroad_canasta", 3),
                                               ("python_meldhall_shanghai_rummy", 4)])
def test_observer_consistency(name: str, players: int) -> None:
    game = _load(name, players)
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False,
        private_info=pyspiel.PrivateInfoType.NONE)) is None
    assert list(game.observation_tensor_shape()) == [obs.tensor.size]
    assert list(game.information_state_tensor_shape()) == [info.tensor.size]
    for state in _random_states(game, 12, seed=players):
        for p in range(players):
            obs.set_from(state, p)
            info.set_from(state, p)
            assert np.array_equal(obs.tensor, np.array(state.observation_tensor(p), np.float32))
            assert np.array_equal(info.tensor,
                                  np.array(state.information_state_tensor(p), np.float32))
            assert obs.string_from(state, p) == state.observation_string(p)
            assert info.string_from(state, p) == state.information_state_string(p)
        strings = {state.information_state_string(p) for p in range(players)}
        assert len(strings) == players  # every player's information state is its own
        player = state.current_player()
        key = state.information_state_string(player)
        for _ in range(2):
            other = state.resample_from_infostate(player, np.random.default_rng(1).random)
            assert other.information_state_string(player) == key
            assert other.observation_tensor(player) == state.observation_tensor(player)
            assert other.legal_actions() == state.legal_actions()


def test_information_state_hides_other_hands() -> None:
    """Resampling player 0's view deals player 1 other cards: player 0's information state
    is unchanged (it names no card of another hand), player 1's is not (it names its own)."""
    game = _load("python_meldhall_classic_canasta", 2)
    state = game.new_initial_state()
    state.apply_action(5)
    other = state.resample_from_infostate(0, np.random.default_rng(3).random)
    assert other.information_state_string(0) == state.information_state_string(0)
    assert other._core.state.hands[1] != state._core.state.hands[1] or \
        other._core.state.stock != state._core.state.stock
    assert other.information_state_string(1) != state.information_state_string(1)


def test_ismcts_bot_with_the_resampler() -> None:
    game = _load("python_meldhall_shanghai_rummy", 3, 200)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, RandomRolloutEvaluator(1, rng), 2.0, max_simulations=6,
                           random_state=rng)
    bot.set_resampler(mo.resampler)
    state = game.new_initial_state()
    state.apply_action(9)
    for _ in range(4):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize("path", sorted(PLAYTHROUGHS.glob("*.txt")), ids=lambda p: p.stem)
def test_playthrough(path: Path) -> None:
    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
    original, new = generate_playthrough.replay(str(path))
    assert original == new
