"""The exceptions meldhall raises.

``MeldhallError`` (a ``ValueError``) is the root; ``NotationError`` for text that cannot be
parsed, ``IllegalActionError`` for an action the rules refuse (it carries the rule ID),
``OptionsError`` for unknown or out-of-range game options, ``RecordError`` for a corrupt
position or record document.
"""

from __future__ import annotations

__all__ = ["MeldhallError", "NotationError", "IllegalActionError", "OptionsError", "RecordError"]


class MeldhallError(ValueError):
    """Base class of every error meldhall raises on bad input."""


class NotationError(MeldhallError):
    """Text that is not valid card or action notation; the message says what was expected."""


class OptionsError(MeldhallError):
    """An unknown game option, or a value out of range; the message names the option."""


class RecordError(MeldhallError):
    """A position or record document that is malformed or inconsistent."""


class IllegalActionError(MeldhallError):
    """An action the rules refuse.

    Attributes:
        rule_id: the rule that decides (e.g. ``"CC-8.5"``).
        reason: a sentence a player understands.

    ``str(err)`` is ``"CC-8.5: the pile is frozen; …"``.  The state the action was tried on is
    never changed.
    """

    def __init__(self, rule_id: str, reason: str):
        self.rule_id = rule_id
        self.reason = reason
        super().__init__(f"{rule_id}: {reason}")

    def __reduce__(self) -> tuple[type[IllegalActionError], tuple[str, str]]:
        return (IllegalActionError, (self.rule_id, self.reason))
