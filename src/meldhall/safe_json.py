"""Reading untrusted JSON (records, positions, request bodies) without crashing.

:func:`loads` parses text and :func:`check` walks an already parsed value; both refuse, with
a :class:`~meldhall.errors.RecordError` naming the field:

* nesting deeper than :data:`MAX_DEPTH` (checked by a scan of the text *before* ``json.loads``
  recurses, so 100,000 brackets cost a scan, not a ``RecursionError``);
* ``NaN``, ``Infinity``, numbers that overflow a float (``1e400``);
* numbers of more than :data:`MAX_NUMBER` in magnitude (so Python's limit on the digits of an
  integer, 4,300, is never reached; no meldhall document needs more than 64 bits).

Everything else — which fields exist, their types and ranges — is the loaders' business.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from meldhall.errors import RecordError

__all__ = ["MAX_DEPTH", "MAX_NUMBER", "check", "loads"]

#: Deepest nesting of lists and objects accepted (a position needs 6).
MAX_DEPTH = 64
#: Largest magnitude of a number accepted (seeds are at most 64 bits; 2**128 leaves room).
MAX_NUMBER = 2**128
_MAX_DIGITS = len(str(MAX_NUMBER))

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def _scan_depth(text: str) -> None:
    """Refuse text whose brackets (outside strings) nest deeper than MAX_DEPTH."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    for m in _BRACKETS.finditer(_STRING.sub('""', text)):
        if m.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise RecordError(f"the JSON nests lists and objects more than {MAX_DEPTH} "
                                  "deep")
        else:
            depth -= 1


class _Refused:
    """A number read from text that :func:`check` refuses, naming its field."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text if len(text) <= 24 else f"{text[:12]}… ({len(text)} characters)"


def _int(text: str) -> int | _Refused:
    if len(text.lstrip("-")) > _MAX_DIGITS or abs(int(text)) > MAX_NUMBER:
        return _Refused(text)
    return int(text)


def _float(text: str) -> float | _Refused:
    x = float(text)
    if not math.isfinite(x) or abs(x) > MAX_NUMBER:
        return _Refused(text)
    return x


def loads(text: str | bytes) -> Any:
    """``json.loads`` that refuses deep nesting, non-finite and huge numbers (RecordError).

    Raises:
        RecordError: also for text that is not JSON (with line and column) or not UTF-8.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("the JSON is not UTF-8 text") from None
    _scan_depth(text)
    try:
        data = json.loads(text, parse_constant=_Refused, parse_int=_int, parse_float=_float)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:  # the scan's bound is far below the recursion limit: defensive
        raise RecordError(f"the JSON nests lists and objects more than {MAX_DEPTH} deep") \
            from None
    return check(data)


def _where(path: list) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") \
        or "the document"


def check(value: Any, what: str = "") -> Any:
    """Refuse a parsed value (a dict from a caller) that :func:`loads` would refuse.

    Walks iteratively: nesting deeper than MAX_DEPTH, non-finite or huge numbers, keys that
    are not strings and values that are not JSON (sets, objects …) are refused with the field
    named.  Returns ``value``.
    """
    stack: list[tuple[Any, list, int]] = [(value, [what] if what else [], 0)]
    while stack:
        v, path, depth = stack.pop()
        if isinstance(v, bool) or v is None or isinstance(v, str):
            continue
        if isinstance(v, _Refused):
            raise RecordError(f"{_where(path)}: {v.text} is not a number meldhall accepts "
                              "(numbers must be finite and at most 2**128 in magnitude)")
        if isinstance(v, int):
            if abs(v) > MAX_NUMBER:
                raise RecordError(f"{_where(path)}: the number is too large (at most 2**128 "
                                  "in magnitude)")
        elif isinstance(v, float):
            if not math.isfinite(v) or abs(v) > MAX_NUMBER:
                raise RecordError(f"{_where(path)}: {v!r} is not a number meldhall accepts "
                                  "(numbers must be finite and at most 2**128 in magnitude)")
        elif isinstance(v, dict | list | tuple):
            if depth >= MAX_DEPTH:
                raise RecordError(f"{_where(path)}: nests lists and objects more than "
                                  f"{MAX_DEPTH} deep")
            if isinstance(v, dict):
                for k, x in v.items():
                    if not isinstance(k, str):
                        raise RecordError(f"{_where(path)}: object keys must be strings, not "
                                          f"{type(k).__name__}")
                    stack.append((x, path + [k], depth + 1))
            else:
                stack.extend((x, path + [i], depth + 1) for i, x in enumerate(v))
        else:
            raise RecordError(f"{_where(path)}: a {type(v).__name__} is not a JSON value")
    return value
