"""meldhall: rummy-family card games — rules engine, bots, simulation and play.

Quick start::

    import meldhall
    state = meldhall.new_game("classic-canasta", players=4, seed=1)
    state.legal_actions()          # [parse_action('draw'), parse_action('take …'), …]
    state = state.apply_text("draw")
    print(state.observation(state.turn).to_text())
"""

from __future__ import annotations

from typing import Any

from meldhall.errors import (
    IllegalActionError,
    MeldhallError,
    NotationError,
    OptionsError,
    RecordError,
)
from meldhall.game import Action, Observation, Outcome, State

__all__ = [
    "GAMES", "new_game", "load_record", "load_position", "dump_position", "dump_record",
    "State", "Action", "Observation", "Outcome", "MeldhallError", "NotationError",
    "IllegalActionError", "OptionsError", "RecordError", "game_module",
]

__version__ = "0.1.0"

#: Game name -> module path of the game package.
GAMES: dict[str, str] = {
    "classic-canasta": "meldhall.games.classic_canasta",
    "railroad-canasta": "meldhall.games.railroad_canasta",
    "shanghai-rummy": "meldhall.games.shanghai",
}


def game_module(name: str):
    """The package implementing game ``name``.

    Raises:
        OptionsError: unknown game name (the message lists the known ones).
    """
    import importlib

    if name not in GAMES:
        raise OptionsError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    return importlib.import_module(GAMES[name])


def new_game(name: str, players: int | None = None, seed: int = 0,
             options: Any = None, **kwargs: Any) -> State:
    """Start a game: ``new_game("classic-canasta", players=4, seed=1, options={...})``.

    Returns the state at the start of the first hand.  Raises :class:`OptionsError` on an
    unknown game or option.
    """
    return game_module(name).new_game(players=players, seed=seed, options=options, **kwargs)


def load_record(source) -> Any:
    """Read a game record (path, JSON text or dict); see :mod:`meldhall.record`."""
    from meldhall.record import load_record as _load

    return _load(source)


def dump_record(record) -> str:
    """Write a game record as JSON text; see :mod:`meldhall.record`."""
    from meldhall.record import dump_record as _dump

    return _dump(record)


def load_position(source, *, check_rules: bool = True) -> State:
    """Read a position (path, JSON text or dict) into a state; see :mod:`meldhall.record`."""
    from meldhall.record import load_position as _load

    return _load(source, check_rules=check_rules)


def dump_position(state: State) -> dict:
    """Describe a state as a position document (a JSON-ready dict)."""
    from meldhall.record import dump_position as _dump

    return _dump(state)
