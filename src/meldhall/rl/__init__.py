"""Reinforcement-learning environments of the meldhall games (extra ``meldhall[rl]``).

Importing this package registers, for each game (Classic Canasta, Railroad Canasta, Shanghai
Rummy):

* a PettingZoo AEC environment (``pettingzoo.make("aec", "meldhall/classic-canasta-v0",
  players=4)``; :mod:`meldhall.rl.pettingzoo_env`),
* a Gymnasium single-seat environment against meldhall bots
  (``gymnasium.make("meldhall/ClassicCanasta-v0", opponents="heuristic")``;
  :mod:`meldhall.rl.gymnasium_env`).

The OpenSpiel games register when :mod:`meldhall.rl.openspiel` is imported
(``pyspiel.load_game("python_meldhall_classic_canasta", {"players": 2})``).

A thin layer over the game protocol: the fixed action space of each game
(``state.action_id``), a tensor of the seat's observation (:mod:`meldhall.rl.encoding`), masks
from ``legal_actions()``.  Nothing in the engine imports this package.  See docs/rl.md.
"""

from __future__ import annotations

import gymnasium
import pettingzoo

from meldhall.rl.core import GAMES

__all__ = ["GAMES", "register"]

_ENTRY = {
    "classic-canasta": "classic_canasta_env",
    "railroad-canasta": "railroad_canasta_env",
    "shanghai-rummy": "shanghai_rummy_env",
}


def register() -> None:
    """Register the PettingZoo and Gymnasium environments (done on import; again is a
    no-op)."""
    for game, (pz_id, gym_id, _spiel) in GAMES.items():
        if pz_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", pz_id,
                                entry_point=f"meldhall.rl.pettingzoo_env:{_ENTRY[game]}")
        if gym_id not in gymnasium.registry:
            gymnasium.register(gym_id,
                               entry_point="meldhall.rl.gymnasium_env:MeldhallSingleSeatEnv",
                               kwargs={"game": game})


register()
