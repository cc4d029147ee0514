"""Game records (like PGN) and positions (like FEN); docs/records.md and docs/positions.md.

A **record** is the game, options, seats, seed, first dealer and every action in notation, with
the result: replaying it reproduces the game exactly.  A **position** is one full state inside
a hand — every hand, the stock order, melds, pile, flags, scores, turn and phase — as a JSON
document that loads back to an equal state.  Positions contain hidden information (they are
for tests, tutorials and bug reports, not for players).
"""

from __future__ import annotations

import importlib
import json
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, TypeAlias

from meldhall.errors import MeldhallError, RecordError
from meldhall.game import State
from meldhall.games import GAMES, game_module
from meldhall.safe_json import check as check_json
from meldhall.safe_json import loads as loads_json

__all__ = [
    "POSITION_FORMAT",
    "READABLE_VERSIONS",
    "RECORD_FORMAT",
    "Record",
    "Source",
    "document_options",
    "dump_position",
    "dump_record",
    "load_position",
    "load_record",
    "replay",
]

RECORD_FORMAT = "meldhall-record"
POSITION_FORMAT = "meldhall-position"
VERSION = 2
#: Format versions this meldhall reads.  Version 1 documents were written before the uniform
#: copy choice: they load with option ``copy_choice="legacy"``, so they replay unchanged.
READABLE_VERSIONS = (1, 2)

#: Where a document is read from: a dict (already parsed), JSON text (starting with ``{``) or
#: a path (a :class:`~pathlib.Path`, or any other string) to a UTF-8 JSON file.
Source: TypeAlias = dict[str, Any] | str | Path


def document_options(data: dict[str, Any]) -> dict[str, Any]:
    """The options of a record or position document, as a new dict: a document of format
    version 1 without ``copy_choice`` gets ``"legacy"``, the choice it was played with.

    Raises:
        RecordError: ``options`` is not an object.
    """
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise RecordError("field 'options' must be an object of option names and values")
    options = dict(options)
    if data.get("version") == 1 and "copy_choice" not in options:
        options["copy_choice"] = "legacy"
    return options


def _whole_numbers(value: Any, path: str) -> None:
    """Refuse a fractional number anywhere in a document: every number of a record or a
    position is whole (seats, scores, counts, seeds), and reading ``1.5`` as ``1`` would make
    a document mean something it does not say."""
    if isinstance(value, float):
        if not value.is_integer():
            raise RecordError(f"{path or 'the document'}: {value!r} is not a whole number")
    elif isinstance(value, dict):
        for k, v in value.items():
            _whole_numbers(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _whole_numbers(v, f"{path}[{i}]")


def _read_json(source: Source) -> dict[str, Any]:
    """A document from a dict, JSON text or a path; numbers and nesting checked (safe_json),
    and every number whole."""
    data = _read_json_checked(source)
    _whole_numbers(data, "")
    return data


def _read_json_checked(source: Source) -> dict[str, Any]:
    if isinstance(source, dict):
        checked: dict[str, Any] = check_json(source)
        return checked
    is_text = isinstance(source, str) and source.lstrip().startswith("{")
    if isinstance(source, Path) or (isinstance(source, str) and not is_text):
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise RecordError(f"cannot read {path}: it is not UTF-8 text") from None
        except ValueError as exc:  # a NUL character in the name
            raise RecordError(f"cannot read {str(path)!r}: {exc}") from None
    else:
        text = source
    data = loads_json(text)
    if not isinstance(data, dict):
        raise RecordError("a record or position must be a JSON object")
    return data


# ---------------------------------------------------------------------------------------------
# records


@dataclass
class Record:
    """A game record.

    Attributes:
        game: game name (``"classic-canasta"``).
        players: number of seats.
        seed: the game seed.
        options: option values (JSON-ready dict).
        dealer: first dealer's seat.
        seats: a name per seat (``"human"``, ``"heuristic"`` …).
        actions: every action in notation, in order.
        result: final or current result (scores, winners), filled by :meth:`from_state`.
    """

    game: str
    players: int
    seed: int
    options: dict[str, Any]
    dealer: int
    seats: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @classmethod
    def from_state(cls, state: State, initial_dealer: int, seats: list[str] | None = None
                   ) -> Record:
        """The record of the game that led to ``state`` (its history), with the result."""
        oc = state.outcome
        result: dict[str, Any] = {
            "scores": list(state.scores),
            "hands_played": state.hand_no + (1 if oc is not None else 0),
            "finished": state.is_terminal,
            "winners": list(oc.winners) if oc is not None and oc.game_over else [],
        }
        return cls(
            game=state.game_name,
            players=state.players,
            seed=state.seed,
            options=state.options.to_json(),
            dealer=initial_dealer,
            seats=list(seats or [f"seat {i}" for i in range(state.players)]),
            actions=[a for _, a in state.history() if a],
            result=result,
        )

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict."""
        return {
            "format": RECORD_FORMAT,
            "version": VERSION,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "dealer": self.dealer,
            "options": self.options,
            "seats": self.seats,
            "actions": self.actions,
            "result": self.result,
        }

    def initial_state(self) -> State:
        """The state before the first action."""
        state: State = game_module(self.game).new_game(
            players=self.players, seed=self.seed, options=self.options, dealer=self.dealer)
        return state

    def states(self) -> Iterator[tuple[str | None, State]]:
        """Yield ``(action, state_after)`` for each action, starting with ``(None, initial)``.

        Raises:
            RecordError: an action does not parse or is illegal (with its index and rule).
        """
        state = self.initial_state()
        yield None, state
        for i, text in enumerate(self.actions):
            try:
                state = state.apply(state.parse_action(text))
            except MeldhallError as exc:
                raise RecordError(f"action {i + 1} ({text!r}) cannot be replayed: {exc}") from None
            yield text, state

    def final_state(self) -> State:
        """The state after every action."""
        # states() always yields the initial state first; keep only the last pair
        last = deque(self.states(), maxlen=1)
        return last[0][1]


def load_record(source: Source) -> Record:
    """Read a record from a path, JSON text or dict.

    Raises:
        RecordError: malformed JSON, wrong format, or missing/ill-typed fields.
    """
    data = _read_json(source)
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a meldhall record (expected \"format\": \"{RECORD_FORMAT}\")")
    if data.get("version", VERSION) not in READABLE_VERSIONS:
        raise RecordError(f"record format version {data.get('version')!r} is not supported "
                          f"(this meldhall reads versions "
                          f"{', '.join(map(str, READABLE_VERSIONS))})")
    if not isinstance(data.get("actions", []), list) or not all(
            isinstance(a, str) for a in data.get("actions", [])):
        raise RecordError("record field 'actions' must be a list of actions in notation")
    if not isinstance(data.get("seats") or [], list) or not all(
            isinstance(x, str) for x in data.get("seats") or []):
        raise RecordError("record field 'seats' must be a list of names")
    for name in ("options", "result"):
        if not isinstance(data.get(name) or {}, dict):
            raise RecordError(f"record field {name!r} must be an object")
    for name in ("game", "players", "seed", "dealer"):
        if isinstance(data.get(name), dict | list):
            raise RecordError(f"record field {name!r} must be a "
                              + ("name" if name == "game" else "number"))
    try:
        rec = Record(
            game=str(data["game"]),
            players=int(data["players"]),
            seed=int(data["seed"]),
            options=document_options(data),
            dealer=int(data["dealer"]),
            seats=[str(s) for s in data.get("seats") or []],
            actions=[str(a) for a in data.get("actions") or []],
            result=data.get("result"),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"record field missing or of the wrong type: {exc}") from None
    try:
        rec.initial_state()
    except MeldhallError as exc:
        raise RecordError(f"record cannot start a game: {exc}") from None
    return rec


def dump_record(record: Record) -> str:
    """The record as pretty JSON text."""
    return json.dumps(record.to_json(), indent=2, ensure_ascii=False) + "\n"


def replay(source: Source) -> State:
    """Load a record and return its final state."""
    return load_record(source).final_state()


# ---------------------------------------------------------------------------------------------
# positions


def dump_position(state: State) -> dict[str, Any]:
    """Describe ``state`` completely as a position document (a JSON-ready dict).

    Each game package provides ``dump_position(state)`` and ``load_position(data)`` in its
    ``position`` module; this function dispatches on ``state.game_name``.
    """
    mod = _position_module(game_module(state.game_name))
    doc: dict[str, Any] = mod.dump_position(state)
    return doc


def _position_module(pkg: ModuleType) -> ModuleType:
    return importlib.import_module(pkg.__name__ + ".position")


def load_position(source: Source, *, check_rules: bool = True) -> State:
    """Read a position document into a state.

    Args:
        source: a dict, JSON text or a path.
        check_rules: refuse a position the rules cannot reach (docs/positions.md, "What a
            position must satisfy") and derive the flags the cards decide.  ``False`` keeps
            only the format and card-accounting checks, for hand-built test scenarios that
            leave out what does not matter to them; the engine's behaviour on such a state is
            not guaranteed.

    Raises:
        RecordError: malformed document, unknown cards, cards missing or duplicated (every
            physical card of the pack must be in exactly one place), or (``check_rules``) a
            field the rules contradict, naming the field and the rule.
    """
    data = _read_json(source)
    if data.get("format") != POSITION_FORMAT:
        raise RecordError(f"not a meldhall position (expected \"format\": \"{POSITION_FORMAT}\")")
    if data.get("version", VERSION) not in READABLE_VERSIONS:
        raise RecordError(f"position format version {data.get('version')!r} is not supported "
                          f"(this meldhall reads versions "
                          f"{', '.join(map(str, READABLE_VERSIONS))})")
    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise RecordError(f"unknown game in position: {game!r}")
    mod = _position_module(game_module(game))
    try:
        state: State = mod.load_position(data, check_rules=check_rules)
        return state
    except MeldhallError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"invalid position: {exc}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise RecordError(f"position field missing or of the wrong type: {exc!r}") from None
