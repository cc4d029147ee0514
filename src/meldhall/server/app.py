"""The FastAPI application: JSON API, one WebSocket per seat, the static front end.

API (JSON; errors are ``{"error": {"code", "message", ["rule_id", "reason"]}}``):

=========================================  ==================================================
``GET  /api/health``                        liveness
``GET  /api/games``                         games, seat counts, default options, bots
``POST /api/tables``                        create a table: secrets (seat, spectator and
                                            creator tokens) are returned once
``GET  /api/tables/{id}``                   the table's public summary (any token)
``GET  /api/tables/{id}/view``              the token's current ``state`` message
``POST /api/tables/{id}/actions``           ``{"action", "version"}`` with a seat token
``GET  /api/tables/{id}/hint``              the search bot's advice for the seat (seat token)
``POST /api/tables/{id}/seats/{seat}``      hand a seat to a bot (creator token)
``POST /api/tables/{id}/take-back``         take one's seat back from the stand-in bot that
                                            plays for it (seat token)
``GET  /api/tables/{id}/record``            the game record, once the game is over
``POST /api/replay``                        a record's view at a step
``GET  /api/rules/{game}[/{rule_id}]``      the players' rules, whole or one rule or section
                                            (JSON; ``?format=html``: a page, no script)
``WS   /ws/tables/{id}``                    first message ``{"type": "hello", "token"}``
=========================================  ==================================================

Tokens travel in ``Authorization: Bearer …`` (HTTP) or the hello message (WebSocket), never in
a URL the server sees: the front end keeps them in the page's fragment and localStorage.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import json
import logging
from collections import OrderedDict
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from pydantic import BaseModel, ValidationError

from meldhall import GAMES, new_game
from meldhall.bots import BOT_NAMES, make_bot
from meldhall import safe_json
from meldhall.errors import MeldhallError, RecordError
from meldhall.record import dump_record, load_record
from meldhall.server import rules_page, views
from meldhall.server.config import MAX_MESSAGE_BYTES, MAX_RECORD_BYTES, Settings
from meldhall.server.schemas import (
    ActionRequest,
    CreateTable,
    ReplayRequest,
    SeatChange,
    client_message,
    describe_validation_error,
)
from meldhall.server.storage import Storage
from meldhall.server.tables import CLOCK_CHOICES, Connection, LiveTable, Refusal, TableManager
from meldhall.server.workers import EXTRA_BOTS, load_bots

__all__ = ["create_app"]

log = logging.getLogger("meldhall.server")

#: Connections one table accepts (seats, tabs and spectators together).
MAX_CONNECTIONS_PER_TABLE = 64
#: Longest record the replay endpoint replays.
MAX_REPLAY_ACTIONS = 50_000
#: Seconds a new WebSocket has to say hello.
HELLO_TIMEOUT = 10.0

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def _error(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}},
                        status_code=status, headers={"Cache-Control": "no-store"})


async def _read_json(request: Request, limit: int = MAX_MESSAGE_BYTES) -> Any:
    """The request body as JSON, refusing bodies over ``limit`` bytes."""
    length = request.headers.get("content-length")
    if length is not None:
        try:
            if int(length) > limit:
                raise Refusal("too_large", f"the request body has {int(length)} bytes; the "
                              f"limit is {limit}", status=413)
        except ValueError:
            raise Refusal("malformed", "bad Content-Length", status=400) from None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refusal("too_large", f"the request body is larger than the limit of {limit} "
                          "bytes", status=413)
    try:  # refuses deep nesting before parsing, and non-finite or huge numbers
        return safe_json.loads(bytes(body))
    except RecordError as exc:
        raise Refusal("malformed", f"the body is not acceptable JSON: {exc}", status=400) \
            from None


def _validate(model: type[BaseModel], data: Any) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise Refusal("malformed", describe_validation_error(exc), status=422) from None


def _bearer(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refusal("unauthorized", "this needs a token of the table: "
                      "'Authorization: Bearer <token>'", status=401)
    return token.strip()


def _role(t: LiveTable, token: str) -> tuple[str, int | None]:
    role = t.role_of(token)
    if role is None:
        raise Refusal("forbidden", "this token does not open this table", status=403)
    return role


def _games_info() -> list[dict[str, Any]]:
    out = []
    for name in GAMES:
        counts = []
        for p in range(2, 9):
            try:
                new_game(name, players=p, seed=1)
                counts.append(p)
            except MeldhallError:
                pass
        st = new_game(name, seed=1)
        bots = []
        for b in BOT_NAMES:
            try:
                make_bot(b, name)
                bots.append(b)
            except MeldhallError:
                pass
        for b, factory in EXTRA_BOTS.items():     # --bots-from
            try:
                factory(name)
                bots.append(b)
            except MeldhallError:
                pass
        options = st.options.to_json()
        options.pop("copy_choice", None)  # not a house rule: only old records use another
        module = importlib.import_module(type(st.options).__module__)
        choices = _option_choices(st.options, options)
        out.append({"name": name, "players": counts, "default_players": st.players,
                    "options": options, "choices": choices, "bots": bots,
                    "descriptions": _option_descriptions(module, options),
                    "choice_labels": _choice_labels(module, choices),
                    "labels": dict(getattr(module, "LABELS", {})),
                    # how a list or mapping option is typed (the spec's own value)
                    "examples": {k: v for k, v in getattr(module, "EXAMPLES", {}).items()
                                 if k in options},
                    "presets": _presets(module, type(st.options))})
    return out


def _option_descriptions(module: Any, values: dict[str, Any]) -> dict[str, str]:
    """One line per option for players (the options module's ``DESCRIPTIONS``, from the
    options dataclass docstring): what it changes and its rule IDs.  "None = …" becomes
    "empty = …" (the lobby's field left empty means the default)."""
    table = getattr(module, "DESCRIPTIONS", None)
    if not isinstance(table, dict):
        return {}
    return {name: str(text).replace("None = ", "empty = ")
            for name, text in table.items() if name in values}


def _choice_labels(module: Any, choices: dict[str, list[Any]]) -> dict[str, list[str]]:
    """For each option of ``choices``, its values in words, in the same order (the options
    module's ``CHOICE_LABELS``); a value without words is shown as itself."""
    table = getattr(module, "CHOICE_LABELS", None) or {}
    out: dict[str, list[str]] = {}
    for name, allowed in choices.items():
        words = table.get(name, {})
        out[name] = [str(words.get(v, v)).replace("_", " ") for v in allowed]
    return out


def _presets(module: Any, options_cls: Any) -> dict[str, dict[str, Any]]:
    """The game's named sets of house rules (``PRESETS``, as ``--preset``): name -> the options
    it changes from the defaults, as JSON."""
    table = getattr(module, "PRESETS", None)
    if not isinstance(table, dict):
        return {}
    out: dict[str, dict[str, Any]] = {}
    for name, changes in table.items():
        full = options_cls.from_json(dict(changes)).to_json()
        out[name] = {k: full[k] for k in changes}
    return out


def _option_choices(options: Any, values: dict[str, Any]) -> dict[str, list[Any]]:
    """The allowed values of each option that has a fixed set (the lobby shows a select box).

    Each game's options module holds them in its public ``CHOICES`` table (what
    ``__post_init__`` checks against); an option without one is typed in.
    """
    module = importlib.import_module(type(options).__module__)
    table = getattr(module, "CHOICES", None)
    if not isinstance(table, dict):
        return {}
    return {name: list(allowed) for name, allowed in table.items()
            if name in values and isinstance(allowed, tuple | list)}


class _ReplayCache:
    """Recently replayed records: their states, so stepping back and forth is cheap."""

    def __init__(self, size: int = 6):
        self.size = size
        self.items: OrderedDict[str, tuple[Any, list, list]] = OrderedDict()

    def get(self, data: dict[str, Any]):
        key = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
        hit = self.items.get(key)
        if hit is not None:
            self.items.move_to_end(key)
            return hit
        rec = load_record(data)
        if len(rec.actions) > MAX_REPLAY_ACTIONS:
            raise Refusal("too_large", f"the record has {len(rec.actions)} actions; the replay "
                          f"page takes at most {MAX_REPLAY_ACTIONS}", status=413)
        states, outcomes = [], []
        prev = None
        for _, st in rec.states():
            states.append(st)
            oc = st.outcome
            if oc is not None and (prev is None or prev.hand != oc.hand
                                   or prev.game_over != oc.game_over):
                outcomes.append((len(states) - 1, oc.to_json()))
            prev = oc
        hit = (rec, states, outcomes)
        self.items[key] = hit
        if len(self.items) > self.size:
            self.items.popitem(last=False)
        return hit


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application, with its own :class:`TableManager` and storage."""
    settings = settings or Settings.from_env()
    for spec in settings.bots_from:
        log.warning("bots added from %s: %s", spec, ", ".join(load_bots(spec)))
    storage = Storage(settings.resolved_database_url())
    manager = TableManager(settings, storage)
    replays = _ReplayCache()
    games_info: list[dict[str, Any]] = []

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        await manager.start()
        games_info.extend(_games_info())
        yield
        await manager.stop()

    app = FastAPI(title="meldhall", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json")
    app.state.manager = manager
    app.state.settings = settings

    @app.middleware("http")
    async def _headers(request: Request, call_next):
        response = await call_next(request)
        for k, v in SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)
        if request.url.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    @app.exception_handler(Refusal)
    async def _refusal(_request: Request, exc: Refusal):
        return JSONResponse({"error": exc.to_json()}, status_code=exc.status,
                            headers={"Cache-Control": "no-store"})

    @app.exception_handler(RequestValidationError)
    async def _invalid_request(_request: Request, exc: RequestValidationError):
        # a path parameter FastAPI checked (``/seats/{seat}``): the documented shape, not
        # FastAPI's ``{"detail": [...]}``
        return _error(422, "malformed", describe_validation_error(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        if not request.url.path.startswith("/api/"):
            from fastapi.exception_handlers import http_exception_handler

            return await http_exception_handler(request, exc)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        response = _error(exc.status_code, code, str(exc.detail))
        response.headers.update(exc.headers or {})
        return response

    # ------------------------------------------------------------------ API
    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "tables_loaded": len(manager.tables),
                "loop_lag_ms": manager.lag_summary(), "bot_pool": manager.pool.stats()}

    @app.get("/api/config")
    async def config() -> dict[str, Any]:
        # the lobby's turn clocks: the usual ones this server allows, and its shortest
        # when that is shorter (a test or demonstration server)
        clocks: list[float] = [c for c in CLOCK_CHOICES if c >= settings.min_clock]
        if settings.min_clock < CLOCK_CHOICES[0]:
            clocks.insert(0, settings.min_clock)
        return {"allow_seeds": settings.allow_seeds, "bot_pause": settings.bot_pause,
                "max_bot_pause": settings.max_bot_pause,
                "max_message_bytes": MAX_MESSAGE_BYTES,
                "clock_choices": clocks, "min_clock": settings.min_clock,
                "disconnect_timeout": settings.disconnect_timeout,
                "bot_time_budget": settings.bot_time_budget}

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return games_info

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        req: CreateTable = _validate(CreateTable, await _read_json(request))
        t, sec = await manager.create(req.game, req.players, req.options,
                                      [s.model_dump() for s in req.seats], req.bot_pause,
                                      req.seed, turn_clock=req.turn_clock,
                                      disconnect_timeout=req.disconnect_timeout,
                                      takeover_bot=req.takeover_bot)
        seats = []
        for s, token in zip(t.seats, sec["seat_tokens"]):
            seats.append({"seat": s.seat, "name": s.name, "kind": s.kind, "bot": s.bot,
                          "token": token, "url": f"/table.html#t={t.id}&k={token}"})
        return {
            "table": t.id, "game": t.game, "players": t.state.players, "version": t.version,
            "seats": seats, "clock": t.clock_json(),
            "spectator_token": sec["spectator_token"],
            "spectator_url": f"/table.html#t={t.id}&k={sec['spectator_token']}",
            "creator_token": sec["creator_token"],
        }

    @app.get("/api/tables/{table_id}")
    async def table_summary(table_id: str, request: Request) -> dict[str, Any]:
        token = _bearer(request)
        t = await manager.get(table_id)
        role, seat = _role(t, token)
        return {**t.summary(), "role": role, "seat": seat}

    @app.get("/api/tables/{table_id}/view")
    async def table_view(table_id: str, request: Request):
        token = _bearer(request)
        t = await manager.get(table_id)
        role, seat = _role(t, token)
        if role == "seat" and seat is not None:
            manager.opened(t, seat)
        return Response(t.message(seat if role == "seat" else None),
                        media_type="application/json")

    @app.post("/api/tables/{table_id}/actions")
    async def table_action(table_id: str, request: Request) -> dict[str, Any]:
        token = _bearer(request)
        t = await manager.get(table_id)
        role, seat = _role(t, token)
        req: ActionRequest = _validate(ActionRequest, await _read_json(request))
        if role != "seat" or seat is None:
            raise Refusal("not_your_seat", "only a seat's token can act", status=403)
        manager.opened(t, seat)
        version = await manager.act(t, seat, req.action, req.version)
        return {"ok": True, "version": version}

    @app.get("/api/tables/{table_id}/hint")
    async def table_hint(table_id: str, request: Request) -> dict[str, Any]:
        token = _bearer(request)
        t = await manager.get(table_id)
        role, seat = _role(t, token)
        if role != "seat" or seat is None:
            raise Refusal("not_your_seat", "only a seat's token can ask for a hint", status=403)
        manager.opened(t, seat)
        return await manager.hint(t, seat)

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def table_seat(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        token = _bearer(request)
        t = await manager.get(table_id)
        role, _ = _role(t, token)
        req: SeatChange = _validate(SeatChange, await _read_json(request))
        if role != "creator":
            raise Refusal("forbidden", "only the table's creator can hand a seat over",
                          status=403)
        await manager.set_seat(t, seat, req.kind, req.bot)
        return {**t.summary(), "role": role, "seat": None}

    @app.post("/api/tables/{table_id}/take-back")
    async def table_take_back(table_id: str, request: Request) -> dict[str, Any]:
        token = _bearer(request)
        t = await manager.get(table_id)
        role, seat = _role(t, token)
        if role != "seat" or seat is None:
            raise Refusal("not_your_seat", "only the seat's own token takes it back",
                          status=403)
        await manager.take_back(t, seat)
        return {**t.summary(), "role": role, "seat": seat}

    @app.get("/api/tables/{table_id}/record")
    async def table_record(table_id: str, request: Request) -> Response:
        token = _bearer(request)
        t = await manager.get(table_id)
        _role(t, token)
        if not t.finished:
            raise Refusal("not_finished", "the record (which holds the seed) is available once "
                          "the game is over", status=409)
        # the text `meldhall play --save` writes; the table page saves it byte for byte
        return Response(dump_record(t.record()), media_type="application/json")

    @app.post("/api/replay")
    async def replay(request: Request) -> dict[str, Any]:
        req: ReplayRequest = _validate(ReplayRequest,
                                       await _read_json(request, MAX_RECORD_BYTES))
        try:
            rec, states, outcomes = await asyncio.to_thread(replays.get, req.record)
        except MeldhallError as exc:
            raise Refusal("invalid", str(exc), status=422) from None
        steps = len(states) - 1
        step = min(req.step, steps)
        st = states[step]
        if req.seat is not None and req.seat >= st.players:
            raise Refusal("invalid", f"no seat {req.seat} in this game", status=422)
        view = (views.public_view(st) if req.seat is None
                else views.trim_log(st.observation(req.seat).to_json()))
        return {
            "game": rec.game, "players": rec.players, "seats": rec.seats, "steps": steps,
            "step": step, "action": rec.actions[step - 1] if step else None,
            "phase": st.phase, "to_act": list(st.to_act), "finished": st.is_terminal,
            "recent": views.recent_actions(st),
            "outcomes": [o for i, o in outcomes if i <= step],
            "result": rec.result, "view": view,
        }

    @app.get("/api/rules/{game}")
    async def rules_whole(game: str, format: str = "json", house: str | None = None,
                          players: int | None = None):
        return await asyncio.to_thread(_rules, game, None, format, house, players)

    @app.get("/api/rules/{game}/{rule_id}")
    async def rules_one(game: str, rule_id: str, format: str = "json", house: str | None = None,
                        players: int | None = None):
        return await asyncio.to_thread(_rules, game, rule_id, format, house, players)

    # ------------------------------------------------------------------ WebSocket
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str):
        await websocket.accept()

        async def send(obj: dict[str, Any]) -> None:
            await websocket.send_text(json.dumps(obj, separators=(",", ":")))

        try:
            t = await manager.get(table_id)
        except Refusal as exc:
            await send({"type": "error", **exc.to_json()})
            await websocket.close(4404)
            return
        seat: int | None = None
        role: str | None = None
        try:
            first = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
        except TimeoutError:
            await send({"type": "error", "code": "timeout",
                        "message": "say hello with your token first"})
            await websocket.close(4408)
            return
        if first.get("type") == "websocket.disconnect":
            return
        text = first.get("text")
        err = _check_frame(text, first.get("bytes"))
        if err is None:
            assert text is not None  # _check_frame refuses a frame without text
            try:
                msg = client_message.validate_json(text)
            except ValidationError as exc:
                err = ("malformed", describe_validation_error(exc))
            else:
                if msg.type != "hello":
                    err = ("malformed", ("the first message must be "
                           "{\"type\": \"hello\", \"token\": …}"))
                else:
                    r = t.role_of(msg.token)
                    if r is None:
                        err = ("forbidden", "this token does not open this table")
                    else:
                        role, seat = r
        if err is not None or role is None:
            code, message = err or ("forbidden", "no token")
            await send({"type": "error", "code": code, "message": message})
            await websocket.close(4403 if code == "forbidden" else 4400)
            return
        if len(t.connections) >= MAX_CONNECTIONS_PER_TABLE:
            await send({"type": "error", "code": "busy",
                        "message": "too many connections to this table"})
            await websocket.close(4429)
            return

        conn = Connection(send=websocket.send_text, seat=seat if role == "seat" else None)

        async def locked_send(obj: dict[str, Any]) -> None:
            async with conn.lock:
                await send(obj)

        async def sender() -> None:
            try:
                while True:
                    await conn.wake.wait()
                    conn.wake.clear()
                    text_ = t.message(conn.seat)
                    async with conn.lock:
                        await websocket.send_text(text_)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the socket went away; the receive loop ends too
                conn.closed = True

        await locked_send({"type": "welcome", "table": t.id, "game": t.game, "role": role,
                           "seat": conn.seat, "limits": {"max_message_bytes": MAX_MESSAGE_BYTES}})
        manager.attach(t, conn)  # everyone sees who is connected; this one gets its view
        task = asyncio.get_running_loop().create_task(sender())
        try:
            while True:
                frame = await websocket.receive()
                if frame.get("type") == "websocket.disconnect":
                    break
                text = frame.get("text")
                err = _check_frame(text, frame.get("bytes"))
                if err is not None:
                    await locked_send({"type": "error", "code": err[0], "message": err[1]})
                    continue
                assert text is not None  # _check_frame refuses a frame without text
                try:
                    msg = client_message.validate_json(text)
                except ValidationError as exc:
                    await locked_send({"type": "error", "code": "malformed",
                                       "message": describe_validation_error(exc)})
                    continue
                if msg.type == "ping":
                    await locked_send({"type": "pong", "id": msg.id})
                elif msg.type == "refresh":
                    conn.wake.set()
                elif msg.type == "ready":
                    if conn.seat is not None:
                        manager.ready(t, conn.seat, msg.version)
                elif msg.type == "hello":
                    await locked_send({"type": "error", "code": "malformed",
                                       "message": "already identified on this connection"})
                elif msg.type == "action":
                    if conn.seat is None:
                        await locked_send({"type": "refused", "id": msg.id,
                                           "code": "not_your_seat",
                                           "message": "spectators cannot act"})
                        continue
                    try:
                        v = await manager.act(t, conn.seat, msg.action, msg.version)
                    except Refusal as exc:
                        await locked_send({"type": "refused", "id": msg.id, **exc.to_json()})
                    else:
                        await locked_send({"type": "accepted", "id": msg.id, "version": v})
        except Exception as exc:
            if not _is_disconnect(exc):
                log.exception("WebSocket of table %s failed", t.id)
        finally:
            manager.detach(t, conn)
            task.cancel()

    # ------------------------------------------------------------------ front end
    web = resources.files("meldhall") / "web"

    @app.get("/table", include_in_schema=False)
    async def _table_page():
        return RedirectResponse("/table.html")

    app.mount("/", StaticFiles(directory=str(web), html=True), name="web")
    return app


def _rules(game: str, rule_id: str | None, fmt: str, house: str | None = None,
           players: int | None = None) -> Any:
    """The players' rules of ``game`` (or one rule or section) as JSON or as an HTML page;
    ``house``: a table's options (a JSON object, at most 4 KB), whose house rules the page
    lists above the rules (``players``: the table's players)."""
    if fmt not in ("json", "html"):
        raise Refusal("malformed", f"format must be 'json' or 'html', not {fmt[:20]!r}",
                      status=422)
    if len(game) > 40 or len(rule_id or "") > 40:
        raise Refusal("not_found", "no such game or rule: a rule ID looks like CC-8.5 or CC-8",
                      status=404)
    try:
        if fmt == "html":
            listed = None
            if house is not None:
                listed = rules_page.table_house_rules(game, _house_options(house), players)
            return HTMLResponse(rules_page.rules_page(game, rule_id, listed))
        return rules_page.rules_json(game, rule_id)
    except MeldhallError as exc:       # an unknown game or rule ID
        raise Refusal("not_found", str(exc), status=404) from None


def _house_options(text: str) -> dict[str, Any]:
    """A table's options from the rules page's ``house`` parameter (a JSON object)."""
    if len(text) > 4096:
        raise Refusal("too_large", "house: at most 4096 characters", status=422)
    try:
        value = json.loads(text)
    except ValueError:
        raise Refusal("malformed", "house must be a JSON object of options", status=422) from None
    if not isinstance(value, dict):
        raise Refusal("malformed", "house must be a JSON object of options", status=422)
    return value


def _check_frame(text: str | None, data: bytes | None) -> tuple[str, str] | None:
    if text is None:
        size = len(data or b"")
        if size > MAX_MESSAGE_BYTES:
            return ("too_large", (f"the message has {size} bytes; the limit is "
                    f"{MAX_MESSAGE_BYTES}"))
        return ("malformed", "send JSON as text frames")
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "surrogatepass")) > \
            MAX_MESSAGE_BYTES:
        return ("too_large", (f"the message has {len(text.encode('utf-8', 'surrogatepass'))} "
                f"bytes; the limit is {MAX_MESSAGE_BYTES}"))
    return None


def _is_disconnect(exc: Exception) -> bool:
    from starlette.websockets import WebSocketDisconnect

    return isinstance(exc, (WebSocketDisconnect, RuntimeError, ConnectionError))
