"""Messages the server accepts, validated with pydantic (unknown fields are refused)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

if TYPE_CHECKING:
    from fastapi.exceptions import RequestValidationError

__all__ = [
    "ActionRequest", "ClientMessage", "CreateTable", "ReplayRequest", "SeatChange", "SeatSpec",
    "client_message", "describe_validation_error",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class SeatSpec(_Strict):
    """A seat of a new table: a human (invite link) or a bot."""

    name: str = Field(default="", max_length=40)
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(default=None, max_length=20)


class CreateTable(_Strict):
    """``POST /api/tables``."""

    game: str = Field(max_length=40)
    players: int | None = Field(default=None, ge=2, le=8)
    options: dict[str, Any] = Field(default_factory=dict, max_length=40)
    seats: list[SeatSpec] = Field(default_factory=list, max_length=8)
    bot_pause: float | None = Field(default=None, ge=0, le=60)
    seed: int | None = Field(default=None, ge=0, lt=2**62)
    #: seconds a person has for each decision; null or 0: no clock (the server checks the
    #: range: its ``--min-clock`` to 3600)
    turn_clock: float | None = Field(default=None, ge=0, le=3600)
    #: seconds a seat to act may be away before a bot plays for it; 0: never; null: the
    #: server's ``--disconnect-timeout`` at a table with a clock, else never
    disconnect_timeout: float | None = Field(default=None, ge=0, le=3600)
    #: the bot that plays for a person whose clock ran out or who is away (default ``ismcts``)
    takeover_bot: str | None = Field(default=None, max_length=20)


class ActionRequest(_Strict):
    """``POST /api/tables/{id}/actions``: an action in notation, made at ``version``."""

    action: str = Field(min_length=1, max_length=2000)
    version: int = Field(ge=0)


class SeatChange(_Strict):
    """``POST /api/tables/{id}/seats/{seat}`` (creator only)."""

    kind: Literal["human", "bot"]
    bot: str | None = Field(default=None, max_length=20)


class ReplayRequest(_Strict):
    """``POST /api/replay``: a record, the step to show and whose view (``None``: public)."""

    record: dict[str, Any]
    step: int = Field(default=0, ge=0)
    seat: int | None = Field(default=None, ge=0, le=7)


# ---------------------------------------------------------------------------- WebSocket


class HelloMsg(_Strict):
    """First message on a WebSocket: the seat's (or spectator's) token."""

    type: Literal["hello"]
    token: str = Field(min_length=1, max_length=200)


class ActionMsg(_Strict):
    """An action in notation, made at ``version`` (the version of the view it was chosen in).
    ``id`` is echoed in the answer."""

    type: Literal["action"]
    action: str = Field(min_length=1, max_length=2000)
    version: int = Field(ge=0)
    id: int | str | None = Field(default=None)


class PingMsg(_Strict):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]
    id: int | str | None = None


class RefreshMsg(_Strict):
    """Ask for the current view again."""

    type: Literal["refresh"]


class ReadyMsg(_Strict):
    """The seat's player has read the hand's score (closed it) at ``version``: a bot waiting
    to deal the next hand may deal (``hand_end_wait``)."""

    type: Literal["ready"]
    version: int = Field(ge=0)


ClientMessage = Annotated[HelloMsg | ActionMsg | PingMsg | RefreshMsg | ReadyMsg,
                          Field(discriminator="type")]
client_message: TypeAdapter = TypeAdapter(ClientMessage)


def describe_validation_error(exc: ValidationError | RequestValidationError) -> str:
    """One readable sentence out of a pydantic error (or FastAPI's RequestValidationError)."""
    parts = []
    for err in exc.errors()[:3]:
        loc_parts = [str(x) for x in err.get("loc", ()) if x not in ("body", "path", "query")]
        if loc_parts and loc_parts[0] in ("hello", "action", "ping", "refresh", "ready"):
            loc_parts = loc_parts[1:]          # the union's tag, not a field
        loc = ".".join(loc_parts)
        msg = err.get("msg", "invalid")
        if err.get("type") == "union_tag_invalid" or err.get("type") == "union_tag_not_found":
            msg = "'type' must be one of hello, action, ping, refresh, ready"
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts)
