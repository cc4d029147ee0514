"""Computer players.

A bot is any object with ``choose(observation, legal_actions, rng) -> action``: it sees only
its seat's :class:`~meldhall.game.Observation`, never the state.  :func:`make_bot` builds one
by name for a game: ``"random"``, ``"heuristic"``, or the search bot ``"ismcts"`` with an
optional level (``"ismcts:easy"``, ``"ismcts:hard"``, or ``"ismcts:<iterations>"``).  A bot of
another package is named ``package.module:factory`` or ``package.module:factory:argument``
(the module path has a dot): ``factory(game, argument or None)`` builds it, e.g. a trained
policy, ``meldhall.rl.policy_bot:maskable_ppo:runs/ppo.zip`` (docs/rl.md).
"""

from __future__ import annotations

import importlib
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
    if "." in base:
        return _plugin_bot(name, game)
    if base == "ismcts":
        from meldhall.bots.ismcts import IsmctsBot

        return IsmctsBot(game, level or None)
    if name == "heuristic":
        from meldhall.bots.heuristic import heuristic_bot

        return heuristic_bot(game)
    raise OptionsError(f"unknown bot {name!r}; known bots: {', '.join(BOT_NAMES)}, or "
                       "package.module:factory[:argument]")


def _plugin_bot(spec: str, game: str) -> Bot:
    """The bot ``package.module:factory[:argument]`` names: ``factory(game, argument)``
    (``argument`` ``None`` when absent; it may hold further colons, as a path may).

    Raises:
        OptionsError: the module does not import, or has no such callable.
    """
    module_name, _, rest = spec.partition(":")
    attr, _, argument = rest.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise OptionsError(f"bot {spec!r}: cannot import {module_name!r} ({exc})") from None
    factory = getattr(module, attr, None) if attr else None
    if not callable(factory):
        raise OptionsError(f"bot {spec!r}: {module_name!r} has no bot factory {attr!r} "
                           "(package.module:factory[:argument])")
    bot: Bot = factory(game, argument or None)
    return bot
