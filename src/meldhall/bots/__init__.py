"""Computer players.

A bot is any object with ``choose(observation, legal_actions, rng) -> action``: it sees only
its seat's :class:`~meldhall.game.Observation`, never the state.  :func:`make_bot` builds one
by name for a game: ``"random"``, ``"heuristic"``, or the search bot ``"ismcts"`` with an
optional level (``"ismcts:easy"``, ``"ismcts:hard"``, or ``"ismcts:<iterations>"``).
"""

from __future__ import annotations

import random
from typing import Protocol, Sequence

from meldhall.errors import OptionsError
from meldhall.game import Action, Observation

__all__ = ["Bot", "RandomBot", "make_bot", "BOT_NAMES"]

#: The names offered to players (``ismcts:normal`` is accepted by :func:`make_bot` too; it is
#: ``ismcts``).
BOT_NAMES = ("random", "heuristic", "ismcts:easy", "ismcts", "ismcts:hard")


class Bot(Protocol):
    """The bot interface."""

    name: str

    def choose(self, observation: Observation, legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Pick one of ``legal_actions`` (never empty) for the observing seat."""
        ...


class RandomBot:
    """Uniformly random over the legal actions (a baseline, not an opponent)."""

    name = "random"

    def choose(self, observation: Observation, legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """A uniformly random legal action."""
        return legal_actions[rng.randrange(len(legal_actions))]


def make_bot(name: str, game: str = "classic-canasta") -> Bot:
    """A bot by name for ``game``.

    Raises:
        OptionsError: unknown bot name or a bot not available for the game.
    """
    if name == "random":
        return RandomBot()
    base, _, level = name.partition(":")
    if base == "ismcts":
        from meldhall.bots.ismcts import IsmctsBot

        return IsmctsBot(game, level or None)
    if name == "heuristic":
        from meldhall.bots.heuristic import heuristic_bot

        return heuristic_bot(game)
    raise OptionsError(f"unknown bot {name!r}; known bots: {', '.join(BOT_NAMES)}")
