"""PettingZoo AEC environments of the meldhall games (docs/rl.md, "PettingZoo").

``pettingzoo.make("aec", "meldhall/classic-canasta-v0", players=4)`` (after
``import meldhall.rl``) or :func:`env` directly.  Agents are ``player_0`` … ``player_{P-1}``,
``player_i`` at seat ``i``.  Each agent observes ``{"observation": float32 tensor,
"action_mask": int8 mask}`` (:mod:`meldhall.rl.encoding`; the mask is all zeros for an agent
that is not to act).  The agent selected is the seat whose decision the game awaits: a turn
of several actions (draw, stage, meld, discard) selects the same agent again; an out-of-turn
decision (a Shanghai buy, an answer to "may I go out?") selects the deciding agent.  Rewards
and the handling of an illegal action: :mod:`meldhall.rl.core`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from meldhall.rl.core import GAMES, Table
from meldhall.rl.encoding import encoder_for

__all__ = ["MeldhallAECEnv", "env", "raw_env", "classic_canasta_env", "railroad_canasta_env",
           "shanghai_rummy_env"]


_RENDER_MODES = ("ansi", "human")


class MeldhallAECEnv(AECEnv):
    """One meldhall game as a PettingZoo AEC environment (see the module docstring).

    Args:
        game: ``"classic-canasta"``, ``"railroad-canasta"`` or ``"shanghai-rummy"``.
        players: seats (the game's default when ``None``).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the text) or ``"human"``
            (``render()`` prints it).
        reward, reward_scale, illegal_reward, max_hands: see :class:`meldhall.rl.core.Table`.
        **options: the game's options (docs/options.md), validated by the game.

    Raises:
        meldhall.OptionsError: an unknown game, option or value.
    """

    metadata = {"render_modes": list(_RENDER_MODES), "name": "meldhall_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: str = "classic-canasta", players: int | None = None,
                 render_mode: str | None = None, *, reward: str = "hand",
                 reward_scale: float = 1.0, illegal_reward: float | None = None,
                 max_hands: int | None = None, **options: Any):
        super().__init__()
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(f"render_mode must be one of {_RENDER_MODES}, not {render_mode!r}")
        self.metadata = {**self.metadata, "name": GAMES[game][0].split("/")[1]
                         if game in GAMES else "meldhall_v0"}
        self.table = Table(game, players, options or None, reward=reward,
                           reward_scale=reward_scale, illegal_reward=illegal_reward,
                           max_hands=max_hands)
        self.game = game
        self.render_mode = render_mode
        self.encoder = encoder_for(game, self.table.options)
        n = self.table.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(self.encoder.low, self.encoder.high,
                                      (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.table.num_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space if i == 0 else _copy_space(obs_space)
                                   for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(self.table.num_actions)
                              for a in self.possible_agents}
        self._zero_mask = np.zeros(self.table.num_actions, np.int8)
        self._obs_key: tuple[Any, int] | None = None
        self._obs_val: np.ndarray | None = None
        self._rewards_zero = False
        self.np_random: np.random.Generator | None = None
        self.np_random_seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(num_distinct_actions)`` (the same object on every call)."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game.  ``seed`` seeds the environment's ``np_random``, which draws the
        game's seed; without one, the generator goes on (a fresh random one at first)."""
        if seed is not None or self.np_random is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.table.new(int(self.np_random.integers(0, 2**62)))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.to_act]
        self._obs_key = None
        self._rewards_zero = False  # a new rewards dict at the first step

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": tensor, "action_mask": int8 mask}`` of ``agent``."""
        seat = self._seat[agent]
        table = self.table
        state = table.state
        key = self._obs_key
        tensor = self._obs_val
        if tensor is None or key is None or key[0] is not state or key[1] != seat:
            # the tensor of state.observation(seat), read without building the observation
            tensor = self._obs_val = self.encoder.encode_state(state, seat)
            self._obs_key = (state, seat)
        mask = table.mask() if seat == table.to_act else self._zero_mask.copy()
        return {"observation": tensor, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """As ``AECEnv.last``: the selected agent's observation (``None`` unless ``observe``),
        cumulative reward, termination, truncation and info."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        """Apply the selected agent's action id (``None`` for an agent already done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        rewards, over = self.table.apply_id(action)
        agents = self.possible_agents
        if any(rewards) or not self._rewards_zero:
            self.rewards = dict(zip(agents, rewards))
            self._rewards_zero = not any(rewards)
            self._accumulate_rewards()
        # else: every reward 0 now and at the last step (self.rewards holds zeros already)
        if over:
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = agents[self.table.to_act]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as the seat to act sees it (its observation's text; after the game, the
        last hand's outcome): returned for ``"ansi"``, printed for ``"human"``."""
        if self.render_mode is None:
            return None
        table = self.table
        seat = table.to_act
        if seat < 0:
            oc = table.state.outcome
            text = (f"{self.game}: over after {table.hands_played} hand(s); scores "
                    f"{list(table.state.scores)}"
                    + (f"; winners (sides) {list(oc.winners)}" if oc and oc.winners else ""))
        else:
            text = table.state.observation(seat).to_text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Release nothing: the environment holds no outside resource (a value, as states)."""

    def __str__(self) -> str:
        return str(self.metadata["name"])


def _copy_space(space: spaces.Dict) -> spaces.Dict:
    """A separate space object per agent (each seeds on its own), equal to ``space``."""
    boxes: dict[str, spaces.Space[Any]] = {}
    for k, v in space.spaces.items():
        assert isinstance(v, spaces.Box)  # the two parts are boxes
        boxes[k] = spaces.Box(v.low, v.high, v.shape, v.dtype.type)
    return spaces.Dict(boxes)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper, the same checks, with ``last`` and ``step``
    handed to the environment in one call each (the generic wrapper reaches each attribute
    through ``__getattr__``, which costs more than the rest of a step's bookkeeping)."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """As ``AECEnv.last``; an error before ``reset()``."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        """As the order-enforcing wrapper's ``step``."""
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)


def raw_env(game: str = "classic-canasta", **kwargs: Any) -> MeldhallAECEnv:
    """The unwrapped environment (arguments: :class:`MeldhallAECEnv`)."""
    return MeldhallAECEnv(game, **kwargs)


def env(game: str = "classic-canasta", **kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's order-enforcing wrapper, as the classic
    environments ship it (arguments: :class:`MeldhallAECEnv`)."""
    return _OrderEnforcing(raw_env(game, **kwargs))


def classic_canasta_env(**kwargs: Any) -> AECEnv:
    """``meldhall/classic-canasta-v0``: :func:`env` of Classic Canasta."""
    return env("classic-canasta", **kwargs)


def railroad_canasta_env(**kwargs: Any) -> AECEnv:
    """``meldhall/railroad-canasta-v0``: :func:`env` of Railroad Canasta."""
    return env("railroad-canasta", **kwargs)


def shanghai_rummy_env(**kwargs: Any) -> AECEnv:
    """``meldhall/shanghai-rummy-v0``: :func:`env` of Shanghai Rummy."""
    return env("shanghai-rummy", **kwargs)
