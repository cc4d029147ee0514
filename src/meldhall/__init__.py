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
from meldhall.games import GAMES, game_module
from meldhall.record import Record, Source
from meldhall.record import dump_position as _dump_position
from meldhall.record import dump_record as _dump_record
from meldhall.record import load_position as _load_position
from meldhall.record import load_record as _load_record

__all__ = [
    "GAMES", "new_game", "load_record", "load_position", "dump_position", "dump_record",
    "State", "Action", "Observation", "Outcome", "MeldhallError", "NotationError",
    "IllegalActionError", "OptionsError", "RecordError", "game_module",
]

__version__ = "0.1.0"


def new_game(name: str, players: int | None = None, seed: int = 0,
             options: Any = None, **kwargs: Any) -> State:
    """Start a game: ``new_game("classic-canasta", players=4, seed=1, options={...})``.

    Returns the state at the start of the first hand.  Raises :class:`OptionsError` on an
    unknown game or option.
    """
    state: State = game_module(name).new_game(players=players, seed=seed, options=options,
                                              **kwargs)
    return state


def load_record(source: Source) -> Record:
    """Read a game record (path, JSON text or dict); see :mod:`meldhall.record`."""
    return _load_record(source)


def dump_record(record: Record) -> str:
    """Write a game record as JSON text; see :mod:`meldhall.record`."""
    return _dump_record(record)


def load_position(source: Source, *, check_rules: bool = True) -> State:
    """Read a position (path, JSON text or dict) into a state; see :mod:`meldhall.record`."""
    return _load_position(source, check_rules=check_rules)


def dump_position(state: State) -> dict[str, Any]:
    """Describe a state as a position document (a JSON-ready dict)."""
    return _dump_position(state)
