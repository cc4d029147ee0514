"""The games meldhall plays, one package per game, and their registry.

:data:`GAMES` maps each game's name to its package; :func:`game_module` imports a package by
name.  Each game package provides ``new_game``, ``NAME``, ``STATE``, ``Options``, ``PHASES``
and a ``position`` module with ``dump_position`` and ``load_position``.  The registry imports
no game package until one is asked for, so any module may use it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from meldhall.errors import OptionsError

__all__ = ["GAMES", "game_module"]

#: Game name -> module path of the game package.
GAMES: dict[str, str] = {
    "classic-canasta": "meldhall.games.classic_canasta",
    "railroad-canasta": "meldhall.games.railroad_canasta",
    "shanghai-rummy": "meldhall.games.shanghai",
}


def game_module(name: str) -> ModuleType:
    """The package implementing game ``name``.

    Raises:
        OptionsError: unknown game name (the message lists the known ones).
    """
    if name not in GAMES:
        raise OptionsError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    return importlib.import_module(GAMES[name])
