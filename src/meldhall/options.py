"""What every game's options share: JSON in and out, validation helpers, reading values typed
on the command line.

A game's options are a frozen, keyword-only dataclass that inherits :class:`GameOptions` and
validates itself in ``__post_init__`` with the ``check_*`` helpers, raising
:class:`~meldhall.errors.OptionsError` with a sentence.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Mapping
from dataclasses import Field, asdict, fields, replace
from typing import Any, ClassVar, Protocol, Self

from meldhall.errors import OptionsError

__all__ = [
    "COPY_CHOICES", "GameOptions", "Options", "parse_option_value", "check_choices",
    "check_bools", "check_whole", "score_table", "attribute_descriptions",
]


#: Values of every game's ``copy_choice`` option, the default first (see
#: :func:`meldhall.cards.choose_copies`).  ``"legacy"`` is set by the loaders for documents of
#: format version 1 only; it is not offered as a house rule.
COPY_CHOICES = ("uniform", "legacy")


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


class Options(Protocol):
    """What the game protocol reads of every game's options (a :class:`GameOptions`
    dataclass): the seat count and the JSON form."""

    @property
    def player_count(self) -> int:
        """Number of seats."""

    def to_json(self) -> dict[str, Any]:
        """Options as a JSON-ready dict."""


class GameOptions:
    """Mixin for a game's frozen options dataclass."""

    #: Declared for the type checker: every subclass is a dataclass (``dataclasses.fields``,
    #: ``asdict`` and ``replace`` accept it).
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    #: The game's name for messages ("Classic Canasta").
    TITLE: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        """Options as a JSON-ready dict (tuples become lists)."""
        return {k: _jsonable(v) for k, v in asdict(self).items()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Build options from a dict.

        Raises:
            OptionsError: an unknown option name (the message lists the known ones) or a bad
                value.
        """
        if not isinstance(data, dict):
            raise OptionsError(f"options must be a JSON object of names and values, not {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionsError(
                f"unknown {cls.TITLE} option(s): {', '.join(unknown)}; known options: "
                + ", ".join(sorted(known)))
        try:
            return cls(**data)
        except OptionsError:
            raise
        except (TypeError, ValueError) as exc:
            raise OptionsError(f"bad {cls.TITLE} option value: {exc}") from None

    def with_values(self, **changes: Any) -> Self:
        """A copy with some options changed (validated; raises OptionsError)."""
        try:
            return replace(self, **changes)
        except OptionsError:
            raise
        except (TypeError, ValueError) as exc:
            raise OptionsError(f"bad {self.TITLE} option value: {exc}") from None


def check_choices(obj: Any, choices: Mapping[str, tuple[object, ...]]) -> None:
    """Each named attribute must be one of its allowed values."""
    for name, allowed in choices.items():
        value = getattr(obj, name)
        if value not in allowed:
            raise OptionsError(f"{name} must be one of {', '.join(map(repr, allowed))}, "
                               f"not {value!r}")


def check_bools(obj: Any, names: tuple[str, ...]) -> None:
    """Each named attribute must be true or false."""
    for name in names:
        if not isinstance(getattr(obj, name), bool):
            raise OptionsError(f"{name} must be true or false, not {getattr(obj, name)!r}")


def check_whole(obj: Any, names: tuple[str, ...], *, minimum: int | None = None,
                unit: str = "points") -> None:
    """Each named attribute must be a whole number (at least ``minimum``)."""
    for name in names:
        v = getattr(obj, name)
        if not isinstance(v, int) or isinstance(v, bool) or (minimum is not None and v < minimum):
            bound = f" ≥ {minimum}" if minimum is not None else ""
            raise OptionsError(f"{name} must be a whole number of {unit}{bound}, not {v!r}")


def score_table(obj: Any, name: str) -> None:
    """Normalise a table of (score threshold, minimum count) bands, highest first, in place.

    Raises:
        OptionsError: not a list of number pairs, or a negative minimum.
    """
    value = getattr(obj, name)
    if value is None:
        return
    try:
        table = tuple((int(t), int(m)) for t, m in value)
    except (TypeError, ValueError):
        raise OptionsError(
            f"{name} must be a list of [score threshold, minimum] pairs, e.g. "
            f"[[3000, 120], [1500, 90], [0, 50]], not {value!r}") from None
    if not table or any(m < 0 for _, m in table):
        raise OptionsError(f"{name} needs at least one band of minimums ≥ 0")
    object.__setattr__(obj, name, tuple(sorted(table, key=lambda b: -b[0])))


def parse_option_value(text: str) -> Any:
    """Read a command-line option value: ``true``/``false``, whole numbers, ``none``, JSON
    lists and objects, or plain text."""
    t = text.strip()
    low = t.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null", "default"):
        return None
    try:
        return int(t.replace(",", "").replace("_", ""))
    except ValueError:
        pass
    if t[:1] in "[{":
        try:
            return json.loads(t)
        except json.JSONDecodeError as exc:
            raise OptionsError(f"cannot read option value {text!r}: {exc}") from None
    return t


_ATTRIBUTE = re.compile(r"^(\w+): (.*)$")


def attribute_descriptions(cls: type) -> dict[str, str]:
    """Each attribute's one-line description from the ``Attributes:`` section of ``cls``'s
    docstring (Google style: ``name: text`` with indented continuation lines), joined into one
    line with the reST markup dropped (````"seed"```` becomes ``"seed"``).

    Every game's options module builds its ``DESCRIPTIONS`` table with it, so the docstring is
    the one place an option is explained (``descriptions`` in ``GET /api/games``, shown by the
    web lobby).
    """
    doc = inspect.getdoc(cls) or ""
    out: dict[str, str] = {}
    inside = False
    current: str | None = None
    for line in doc.splitlines():
        if not inside:
            inside = line.strip() == "Attributes:"
            continue
        if line and not line.startswith(" "):
            break  # the next section (Raises: …)
        text = line.strip()
        if not text:
            continue
        m = _ATTRIBUTE.match(text) if line.startswith("    ") and not line.startswith(
            "     ") else None
        if m:
            current = m.group(1)
            out[current] = m.group(2)
        elif current is not None:
            out[current] += " " + text
    return {k: re.sub(r"``(.*?)``", r"\1", v).strip() for k, v in out.items()}
