"""Gymnasium single-seat environments (docs/rl.md, "Gymnasium").

``gymnasium.make("meldhall/ClassicCanasta-v0", players=2, opponents="heuristic")`` (after
``import meldhall.rl``).  The learner plays one seat; every other seat is a meldhall bot named
as ``meldhall tournament`` names them (``random``, ``heuristic``, ``ismcts:easy`` …,
:func:`meldhall.bots.make_bot`), each with its own ``random.Random`` seeded from the
environment's ``np_random`` at every reset.  A step applies the learner's action, then plays
the bots until the learner's next decision or the end of the episode; the reward is the
learner's (:mod:`meldhall.rl.core`) summed over those actions.

Observations are the learner's tensor (:mod:`meldhall.rl.encoding`); ``info["action_mask"]``
and :meth:`MeldhallSingleSeatEnv.action_masks` give the ``int8`` mask (what sb3-contrib's
``MaskablePPO`` reads).  An action id the mask does not allow is handled as
``illegal_action`` says:

* ``"terminate"`` (default): the episode ends (``terminated``), the reward is
  ``illegal_reward``, and ``info["illegal_action"]`` is True;
* ``"lowest"``: the legal action with the lowest id is played instead, with no penalty, and
  ``info["illegal_action"]`` is True.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from meldhall.bots import Bot, RandomBot, make_bot
from meldhall.errors import OptionsError
from meldhall.rl.core import Table, as_action_id, bot_rng
from meldhall.rl.encoding import encoder_for

__all__ = ["MeldhallSingleSeatEnv"]

_ILLEGAL = ("terminate", "lowest")


class MeldhallSingleSeatEnv(gymnasium.Env):
    """One seat of a meldhall game against bots (see the module docstring).

    Args:
        game: ``"classic-canasta"``, ``"railroad-canasta"`` or ``"shanghai-rummy"``.
        players: seats (the game's default when ``None``).
        seat: the learner's seat, or ``None`` to draw it from ``np_random`` at every reset.
        opponents: a bot name for every other seat, or a list of names given to the other
            seats in order (cycled).
        illegal_action: ``"terminate"`` or ``"lowest"`` (module docstring).
        render_mode: ``None``, ``"ansi"`` or ``"human"``.
        reward, reward_scale, illegal_reward, max_hands: see :class:`meldhall.rl.core.Table`.
        **options: the game's options, validated by the game.

    Raises:
        meldhall.OptionsError: an unknown game, option, bot or value.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, game: str = "classic-canasta", players: int | None = None, *,
                 seat: int | None = 0, opponents: str | list[str] = "random",
                 illegal_action: str = "terminate", render_mode: str | None = None,
                 reward: str = "hand", reward_scale: float = 1.0,
                 illegal_reward: float | None = None, max_hands: int | None = None,
                 **options: Any):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, "
                             f"not {render_mode!r}")
        if illegal_action not in _ILLEGAL:
            raise OptionsError(f"illegal_action must be 'terminate' or 'lowest', "
                               f"not {illegal_action!r}")
        self.table = Table(game, players, options or None, reward=reward,
                           reward_scale=reward_scale, illegal_reward=illegal_reward,
                           max_hands=max_hands)
        self.game = game
        n = self.table.players
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < n):
            raise OptionsError(f"seat must be 0 to {n - 1} or None, not {seat!r}")
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        names = [opponents] if isinstance(opponents, str) else list(opponents)
        if not names:
            raise OptionsError("opponents needs at least one bot name")
        self.opponent_names = names
        self._bots: list[Bot | None] = [None] * n
        self._rngs: list[random.Random | None] = [None] * n
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.encoder = encoder_for(game, self.table.options)
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high,
                                            (self.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.table.num_actions)
        # built once: bots are stateless between decisions (they see only observations)
        self._bot_cache: dict[str, Bot] = {}
        for name in names:
            if name not in self._bot_cache:
                self._bot_cache[name] = make_bot(name, game)

    def _seat_bots(self) -> None:
        n = self.table.players
        others = [s for s in range(n) if s != self.seat]
        self._bots = [None] * n
        for i, s in enumerate(others):
            self._bots[s] = self._bot_cache[self.opponent_names[i % len(self.opponent_names)]]
        self._rngs = [bot_rng(self.np_random) if s != self.seat else None for s in range(n)]

    # ------------------------------------------------------------------ the episode
    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; the bots play until the learner's first decision."""
        super().reset(seed=seed)
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(0, self.table.players))
        self._seat_bots()
        self.table.new(int(self.np_random.integers(0, 2**62)))
        rewards = [0.0] * self.table.players
        self._play_bots(rewards)
        if self.table.done:  # the bots ended the episode before the learner's first turn
            self.table.new(int(self.np_random.integers(0, 2**62)))
            self._play_bots([0.0] * self.table.players)
        if self.render_mode == "human":  # as after every step (Gymnasium's convention)
            self.render()
        return self._obs(), self._info(False)

    def _play_bots(self, rewards: list[float]) -> None:
        table = self.table
        me = self.seat
        bots = self._bots
        rngs = self._rngs
        while True:
            seat = table.to_act  # -1 once the episode is over
            if seat == me or seat < 0:
                return
            state = table.state
            legal = state.legal_actions()  # the seat to act's
            bot = bots[seat]
            rng = rngs[seat]
            assert bot is not None and rng is not None  # every other seat has a bot
            if len(legal) == 1:
                table._apply_listed(legal[0], rewards)
            elif type(bot) is RandomBot:
                # RandomBot.choose reads no observation: the same draw without building one
                table._apply_listed(legal[rng.randrange(len(legal))], rewards)
            else:
                table.apply_action(bot.choose(state.observation(seat), legal, rng), seat,
                                   rewards)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Apply the learner's action id, then the bots' until the learner's next decision."""
        table = self.table
        if table.done:
            raise RuntimeError("the episode is over: call reset()")
        legal = table.legal()
        i = as_action_id(action)
        illegal = i not in legal
        rewards = [0.0] * table.players
        if illegal and self.illegal_action == "terminate":
            reward, _ = table.apply_id(-1)
            return self._obs(), float(reward[self.seat]), True, False, self._info(True)
        if illegal:
            i = min(legal)
        assert i is not None  # a legal id was chosen above
        table._apply_listed(legal[i], rewards)
        self._play_bots(rewards)
        if self.render_mode == "human":
            self.render()
        return (self._obs(), float(rewards[self.seat]), table.done, False,
                self._info(illegal))

    def _obs(self) -> np.ndarray:
        # the tensor of state.observation(seat), read without building the observation
        return self.encoder.encode_state(self.table.state, self.seat)

    def _info(self, illegal: bool) -> dict[str, Any]:
        table = self.table
        mask = (table.mask().copy() if table.to_act == self.seat
                else np.zeros(table.num_actions, np.int8))
        return {"action_mask": mask, "illegal_action": illegal, "seat": self.seat,
                "hands": table.hands_played}

    def action_masks(self) -> np.ndarray:
        """The learner's legal action ids as a boolean array (``MaskablePPO`` reads it)."""
        table = self.table
        if table.to_act != self.seat:
            return np.zeros(table.num_actions, bool)
        return table.mask().astype(bool)

    def render(self) -> str | None:
        """The learner's view as text: returned for ``"ansi"``, printed for ``"human"``."""
        if self.render_mode is None:
            return None
        text = self.table.state.observation(self.seat).to_text()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Release nothing: the environment holds no outside resource."""
