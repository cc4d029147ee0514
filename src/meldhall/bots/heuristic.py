"""The heuristic bot of each game, by registry name.

Below :mod:`meldhall.bots` (whose :func:`~meldhall.bots.make_bot` builds ``"heuristic"`` with
it) and below :mod:`meldhall.bots.ismcts` (which plays its playouts with it), so neither
imports the other.  The game modules are imported on first use only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meldhall.errors import OptionsError

if TYPE_CHECKING:
    from meldhall.bots import Bot

__all__ = ["heuristic_bot"]


def heuristic_bot(game: str) -> Bot:
    """A new heuristic bot for ``game`` (``"classic-canasta"``, ``"railroad-canasta"`` or
    ``"shanghai-rummy"``).

    Raises:
        OptionsError: no heuristic bot for the game.
    """
    if game == "classic-canasta":
        from meldhall.bots.classic_heuristic import ClassicHeuristicBot

        return ClassicHeuristicBot()
    if game == "railroad-canasta":
        from meldhall.bots.railroad_heuristic import RailroadHeuristicBot

        return RailroadHeuristicBot()
    if game == "shanghai-rummy":
        from meldhall.bots.shanghai_heuristic import ShanghaiHeuristicBot

        return ShanghaiHeuristicBot()
    raise OptionsError(f"no heuristic bot for {game!r} yet")
