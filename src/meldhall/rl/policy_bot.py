"""A trained policy as a meldhall bot (for ``meldhall tournament``, ``meldhall simulate`` …).

``meldhall tournament classic-canasta --players 2 --bots
meldhall.rl.policy_bot:maskable_ppo:runs/ppo.zip,random`` plays the sb3-contrib
``MaskablePPO`` model saved at ``runs/ppo.zip`` (``examples/train_maskable_ppo.py``): the bot
encodes its observation with :mod:`meldhall.rl.encoding`, masks the action ids that are not
legal, and plays the policy's most likely action (deterministic).  Needs ``meldhall[rl-train]``
(torch, sb3-contrib).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

import meldhall
from meldhall.errors import OptionsError
from meldhall.game import Action, Observation
from meldhall.rl.core import ActionIndex
from meldhall.rl.encoding import encoder_for

__all__ = ["PolicyBot", "maskable_ppo"]


@lru_cache(maxsize=8)
def _load(path: str) -> Any:
    """The model saved at ``path``, loaded once per process (on the CPU, one thread: many
    tournament workers share the machine)."""
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    return MaskablePPO.load(path, device="cpu")


class PolicyBot:
    """A bot that plays a masked policy's most likely legal action.

    Args:
        game: the game's registry name.
        model: an object with ``predict(observation, action_masks=…, deterministic=True)``
            (an sb3-contrib ``MaskablePPO``).
        name: the bot's name in tables.
    """

    def __init__(self, game: str, model: Any, name: str = "policy"):
        self.game = game
        self.model = model
        self.name = name
        self._index = ActionIndex()
        self._templates: dict[Any, Any] = {}

    def _template(self, obs: Observation) -> Any:
        """A state of the game with the observation's options: its action ids are those of
        every state of the game (the space depends on the options only)."""
        st = self._templates.get(obs.options)
        if st is None:
            st = self._templates[obs.options] = meldhall.new_game(
                self.game, players=obs.players, seed=0, options=obs.options)
        return st

    def choose(self, observation: Observation, legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """The policy's most likely action among ``legal_actions`` (``rng`` is not used: the
        choice is deterministic)."""
        template = self._template(observation)
        ids = self._index.ids(template, list(legal_actions))
        mask = np.zeros(template.num_distinct_actions, bool)
        mask[ids] = True
        tensor = encoder_for(self.game, observation.options).encode(observation)
        action, _ = self.model.predict(tensor, action_masks=mask, deterministic=True)
        chosen = int(action)
        by_id = dict(zip(ids, legal_actions))
        return by_id[chosen]  # the mask admits legal ids only


def maskable_ppo(game: str, path: str | None) -> PolicyBot:
    """The bot factory for ``meldhall.rl.policy_bot:maskable_ppo:PATH`` (a ``MaskablePPO``
    saved with ``model.save(PATH)``).

    Raises:
        OptionsError: no path, or no model at it; ``meldhall[rl-train]`` not installed.
    """
    if not path:
        raise OptionsError("the maskable_ppo bot needs the model's path: "
                           "meldhall.rl.policy_bot:maskable_ppo:PATH")
    try:
        model = _load(path)
    except ImportError:
        raise OptionsError("the maskable_ppo bot needs meldhall[rl-train] "
                           "(sb3-contrib and torch)") from None
    except FileNotFoundError:
        raise OptionsError(f"no model at {path!r}") from None
    return PolicyBot(game, model, name=f"ppo:{path}")
