"""Fixtures for the server tests: a REAL server process on loopback, and its clients.

The server is started as ``uv run meldhall serve --port <free port> --database <url>`` in
its own process group (so that SIGKILL reaches the server, not only uv), with bots playing
without pause and seeds accepted (``--allow-seeds``) so that games are reproducible.

PostgreSQL tests use ``MELDHALL_TEST_POSTGRES_URL`` (set by ``.ci/run``, which installs and
starts PostgreSQL); without it they are skipped.  Each test session gets its own database.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
PG_ENV = "MELDHALL_TEST_POSTGRES_URL"
#: Debian's Chromium (``.ci/run`` installs it) and the flags it runs headless with here.
CHROMIUM = os.environ.get("MELDHALL_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_command(port: int, database: str, *extra: str) -> list[str]:
    """``uv run meldhall serve …`` (or this Python's ``-m meldhall`` where uv is missing)."""
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--database", database,
            "--bot-pause", "0", "--allow-seeds", "--log-level", "warning", *extra]
    uv = shutil.which("uv")
    if uv:
        return [uv, "run", "--no-sync", "meldhall", *args]
    return [sys.executable, "-m", "meldhall", *args]


class Server:
    """A ``meldhall serve`` process on a free loopback port."""

    def __init__(self, database: str, log_path: Path, extra: tuple[str, ...] = ()):
        self.database = database
        self.log_path = log_path
        self.extra = extra                 # more ``meldhall serve`` options
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.http = httpx.Client(timeout=30)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, table: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/tables/{table}"

    def start(self, timeout: float = 60.0) -> Server:
        self.port = free_port()
        log = open(self.log_path, "ab")  # noqa: SIM115 - the server process writes to it
        env = dict(os.environ)
        # compiled modules are cached (outside the work tree): later starts take ~1 s, not ~6
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.setdefault("PYTHONPYCACHEPREFIX", str(Path(tempfile.gettempdir()) / "meldhall-pycache"))
        self.proc = subprocess.Popen(serve_command(self.port, self.database, *self.extra),
                                     cwd=ROOT,
                                     stdout=log, stderr=subprocess.STDOUT, env=env,
                                     start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(self.base + "/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"server did not start: {self.log_path.read_text()[-3000:]}")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=15)

    def stop(self) -> None:
        self.kill(signal.SIGTERM)

    # ---------------------------------------------------------------- HTTP helpers
    def request(self, method: str, path: str, token: str | None = None,
                **kw: Any) -> httpx.Response:
        headers = kw.pop("headers", {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        return self.http.request(method, self.base + path, headers=headers, **kw)

    def create(self, game: str = "classic-canasta", seats: list[dict] | None = None,
               **body: Any) -> dict[str, Any]:
        body = {"game": game, **body}
        if seats is not None:
            body["seats"] = seats
        r = self.request("POST", "/api/tables", json=body)
        assert r.status_code == 201, r.text
        return r.json()

    def view(self, table: str, token: str) -> dict[str, Any]:
        r = self.request("GET", f"/api/tables/{table}/view", token)
        assert r.status_code == 200, r.text
        return r.json()

    def act(self, table: str, token: str, action: str, version: int) -> httpx.Response:
        return self.request("POST", f"/api/tables/{table}/actions", token,
                            json={"action": action, "version": version})


class SeatSocket:
    """A WebSocket client of one table, identified by a token."""

    def __init__(self, server: Server, table: str, token: str | None):
        self.ws = connect(server.ws_url(table), max_size=2**24, open_timeout=10,
                          max_queue=None, ping_interval=None)
        self.ws.__enter__()        # the connection is closed by close()
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        if token is not None:
            self.send({"type": "hello", "token": token})

    def send(self, obj: Any) -> None:
        self.ws.send(obj if isinstance(obj, str) else json.dumps(obj))

    def recv(self, timeout: float = 15) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        self.raw.append(text)
        msg = json.loads(text)
        self.messages.append(msg)
        return msg

    def until(self, pred, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            msg = self.recv(timeout=left)
            if pred(msg):
                return msg

    def state(self, timeout: float = 30) -> dict[str, Any]:
        return self.until(lambda m: m.get("type") == "state", timeout)

    def close(self) -> None:
        self.ws.close()


# -------------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """A fresh PostgreSQL database for this test session (skips without one)."""
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"{PG_ENV} is not set (.ci/run starts PostgreSQL and sets it)")
    import psycopg

    name = f"meldhall_test_{secrets.token_hex(4)}"
    base = url.replace("postgresql+psycopg://", "postgresql://")
    try:
        conn = psycopg.connect(base, autocommit=True, connect_timeout=10)
    except psycopg.Error as exc:
        pytest.fail(f"{PG_ENV} is set but PostgreSQL cannot be reached: {exc}")
    try:
        with conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error:
        yield url            # no right to create databases: share the given one
        return
    head, _, _ = base.rpartition("/")
    yield f"{head}/{name}"
    try:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except psycopg.Error:
        pass


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'meldhall.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'meldhall.db'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def make_server(tmp_path: Path):
    """``make_server(database_url, *options)`` starts a server (with more ``meldhall serve``
    options); every one is stopped after the test."""
    started: list[Server] = []

    def make(database: str, *extra: str) -> Server:
        srv = Server(database, tmp_path / f"server-{len(started)}.log", extra).start()
        started.append(srv)
        return srv

    yield make
    for srv in started:
        srv.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Server:
    """One server (SQLite) shared by a test module."""
    folder = tmp_path_factory.mktemp("server")
    srv = Server(f"sqlite:///{folder / 'meldhall.db'}", folder / "server.log").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser():
    """Headless Debian Chromium driven by Playwright, one per test module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    # Bots answer between the checks; on a loaded CI machine a turn of three bots can take
    # longer than expect's 5 s default, so every check waits up to 30 s.
    sync_api.expect.set_options(timeout=30_000)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()
