"""Bots that misbehave, for the server's bot watchdog tests: ``meldhall serve --bots-from
tests/server/misbehaving_bots.py`` adds them (``test:raises``, ``test:illegal``,
``test:slow``).  Each plays Classic Canasta only.

- ``test:raises`` raises at every decision;
- ``test:illegal`` answers a move the rules refuse: a discard before drawing (CC-5.2), or a
  second draw;
- ``test:slow`` sleeps :data:`SLOW_SECONDS` before answering a legal move (past the test
  server's ``--bot-time-budget``).
"""

from __future__ import annotations

import time

from meldhall.errors import OptionsError

SLOW_SECONDS = 3.0


def _classic_only(game: str) -> None:
    if game != "classic-canasta":
        raise OptionsError("the misbehaving test bots play Classic Canasta only")


class RaisingBot:
    name = "test:raises"

    def choose(self, observation, legal_actions, rng):
        raise RuntimeError("this bot always fails")


class IllegalBot:
    name = "test:illegal"

    def choose(self, observation, legal_actions, rng):
        texts = [str(a) for a in legal_actions]
        if "draw" in texts:
            # a discard before the draw (CC-5.2); the action names a card of the hand
            card = observation.to_json()["hand"][0].split("/")[0]
            return f"discard {card}"
        return "draw"


class SlowBot:
    name = "test:slow"

    def choose(self, observation, legal_actions, rng):
        time.sleep(SLOW_SECONDS)
        return legal_actions[0]


def _factory(cls):
    def make(game: str):
        _classic_only(game)
        return cls()
    return make


BOTS = {"test:raises": _factory(RaisingBot), "test:illegal": _factory(IllegalBot),
        "test:slow": _factory(SlowBot)}
