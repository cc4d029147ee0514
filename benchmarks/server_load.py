"""Load benchmark of the web server: N concurrent bot-only tables over the WebSocket API.

Starts ``meldhall serve`` on a free loopback port with a fresh SQLite database (or uses
``--url`` of a running server), creates N tables whose seats are all "human", and plays them
with client-side random bots: one WebSocket per seat, each seat answering its turn after
``--think`` seconds with a random legal action made at the current version.  A finished game
is replaced by a new table, so N tables stay in play for T seconds.

Prints one JSON object: actions/s and the latency of an action — from sending it to its
``accepted`` answer (validated by the engine, appended to the log in one transaction) and to
the acting seat receiving the new state — as p50/p90/p99/max in milliseconds.

    uv run python benchmarks/server_load.py --tables 100 --seconds 30
    uv run python benchmarks/server_load.py --tables 20 --seconds 10 --think 0   # flat out

Traffic goes to 127.0.0.1 only; every loop is bounded by --seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
STATE_HEAD = re.compile(r'"common":\{"table":"[^"]*","game":"[^"]*","players":\d+,'
                        r'"version":(?P<version>\d+),"phase":"[^"]*","to_act":\[(?P<to_act>[\d,]*)\],'
                        r'"finished":(?P<finished>true|false)')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p90": None, "p99": None, "max": None, "n": 0}
    v = sorted(values)

    def q(p: float) -> float:
        return round(v[min(len(v) - 1, int(p * len(v)))] * 1000, 2)

    return {"p50": q(0.50), "p90": q(0.90), "p99": q(0.99), "max": round(v[-1] * 1000, 2),
            "n": len(v)}


class Stats:
    def __init__(self) -> None:
        self.ack: list[float] = []
        self.push: list[float] = []
        self.refused = 0
        self.errors = 0
        self.games_finished = 0
        self.actions = 0


async def play_seat(url: str, table: str, token: str, seat: int, think: float, stop: float,
                    stats: Stats, rng: random.Random, finished: asyncio.Event) -> None:
    async with connect(url, max_size=2**24, max_queue=None, ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        pending: dict[int, float] = {}      # action id -> send time
        waiting_version: dict[int, float] = {}   # version sent at -> send time
        seq = 0
        last_acted_version = -1
        while time.monotonic() < stop and not finished.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, stop - time.monotonic()))
            except TimeoutError:
                break
            now = time.monotonic()
            if raw.startswith('{"type":"state"'):
                # cheap look first: the other seats' turns need no full parse
                head = STATE_HEAD.search(raw)
                if head and head["finished"] != "true":
                    v = int(head["version"])
                    for sent_at in [k for k in waiting_version if k < v]:
                        stats.push.append(now - waiting_version.pop(sent_at))
                    to_act = [int(x) for x in head["to_act"].split(",") if x]
                    if seat not in to_act:
                        continue
            m = json.loads(raw)
            kind = m.get("type")
            if kind == "accepted":
                t0 = pending.pop(m["id"], None)
                if t0 is not None:
                    stats.ack.append(now - t0)
                    stats.actions += 1
                continue
            if kind == "refused":
                pending.pop(m.get("id"), None)
                if m.get("code") != "stale_version":
                    stats.refused += 1
                continue
            if kind == "error":
                stats.errors += 1
                continue
            if kind != "state":
                continue
            common = m["common"]
            v = common["version"]
            for sent_at in [k for k in waiting_version if k < v]:
                stats.push.append(now - waiting_version.pop(sent_at))
            if common["finished"]:
                if seat == 0:
                    stats.games_finished += 1
                finished.set()
                break
            legal = m["view"]["legal"]
            # the seat to act moves at the table's full version (its own private staging
            # steps count, CC-6.9), which only its own view carries
            public_v = v
            v = m["view"].get("version", v)
            if legal and v != last_acted_version:
                if think > 0:
                    await asyncio.sleep(think * (0.5 + rng.random()))
                    if time.monotonic() >= stop:
                        break
                seq += 1
                action = legal[rng.randrange(len(legal))]
                t0 = time.monotonic()
                pending[seq] = t0
                # a push is due when the public version passes the one this move was made at
                # (a private staging step is answered only by the accept)
                waiting_version.setdefault(public_v, t0)
                last_acted_version = v
                await ws.send(json.dumps({"type": "action", "action": action, "version": v,
                                          "id": seq}))


async def run_table(base: str, ws_base: str, game: str, think: float, stop: float,
                    stats: Stats, rng: random.Random, client: httpx.AsyncClient,
                    options: dict) -> None:
    while time.monotonic() < stop:
        r = await client.post(base + "/api/tables", json={
            "game": game, "options": options,
            "seats": [{"kind": "human"}] * 4, "players": 4})
        r.raise_for_status()
        t = r.json()
        finished = asyncio.Event()
        await asyncio.gather(*[
            play_seat(f"{ws_base}/ws/tables/{t['table']}", t["table"], s["token"], s["seat"],
                      think, stop, stats, random.Random(rng.random()), finished)
            for s in t["seats"]])


async def main_async(args, base: str) -> dict:
    ws_base = base.replace("http://", "ws://")
    stats = Stats()
    rng = random.Random(args.seed)
    options = json.loads(args.options) if args.options else {}
    limits = httpx.Limits(max_connections=50)
    lags: list[float] = []

    async def watch_lag() -> None:
        # the client's own event-loop lag: it inflates the latencies it measures
        while time.monotonic() < stop:
            t0 = time.monotonic()
            await asyncio.sleep(0.01)
            lags.append(time.monotonic() - t0 - 0.01)

    cpu0 = time.process_time()
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        start = time.monotonic()
        stop = start + args.seconds
        lag_task = asyncio.create_task(watch_lag())
        tasks = []
        for _ in range(args.tables):
            tasks.append(asyncio.create_task(run_table(
                base, ws_base, args.game, args.think, stop, stats, random.Random(rng.random()),
                client, options)))
            if args.ramp:
                await asyncio.sleep(args.ramp / args.tables)
        await asyncio.gather(*tasks, return_exceptions=False)
        elapsed = time.monotonic() - start
        await lag_task
        health = (await client.get(base + "/api/health")).json()
    return {
        "benchmark": "server_load",
        "game": args.game,
        "tables": args.tables,
        "seats_per_table": 4,
        "websockets": args.tables * 4,
        "seconds": round(elapsed, 2),
        "think_s": args.think,
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / elapsed, 1),
        "ack_latency_ms": percentiles(stats.ack),
        "push_latency_ms": percentiles(stats.push),
        "refused": stats.refused,
        "errors": stats.errors,
        "games_finished": stats.games_finished,
        "server_loop_lag_ms": health.get("loop_lag_ms"),
        "client_cpu_s": round(time.process_time() - cpu0, 2),
        "client_loop_lag_ms": percentiles(lags),
        "load_average": list(os.getloadavg()),
        "cpus": os.cpu_count(),
    }


def process_tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by ``pid`` and its descendants (Linux)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            for task in Path(f"/proc/{p}/task").iterdir():
                kids = (task / "children").read_text().split()
                stack.extend(int(k) for k in kids)
        except (OSError, ValueError, IndexError):
            continue
    return total


def start_server(database: str, port: int, log) -> subprocess.Popen:
    uv = shutil.which("uv")
    args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--database", database,
            "--bot-pause", "0", "--log-level", "warning"]
    cmd = [uv, "run", "--no-sync", "meldhall", *args] if uv else [sys.executable, "-m",
                                                                   "meldhall", *args]
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env,
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("the server exited")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--think", type=float, default=0.5,
                   help="mean seconds a client bot waits before its move (0: flat out)")
    p.add_argument("--game", default="classic-canasta")
    p.add_argument("--options", default="", help="game options as JSON")
    p.add_argument("--ramp", type=float, default=2.0, help="seconds to open all tables")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--url", default="", help="a running server (default: start one)")
    p.add_argument("--database", default="", help="database URL for the started server")
    args = p.parse_args()
    args.seconds = min(args.seconds, 600.0)
    if args.url:
        print(json.dumps(asyncio.run(main_async(args, args.url.rstrip("/")))))
        return
    tmp = tempfile.mkdtemp(prefix="meldhall-load-")
    database = args.database or f"sqlite:///{tmp}/load.db"
    port = free_port()
    with open(Path(tmp) / "server.log", "wb") as log:
        proc = start_server(database, port, log)
        try:
            cpu0 = process_tree_cpu(proc.pid)
            result = asyncio.run(main_async(args, f"http://127.0.0.1:{port}"))
            cpu = process_tree_cpu(proc.pid) - cpu0
            result["database"] = database.split(":", 1)[0]
            result["server_cpu_s"] = round(cpu, 2)
            if result["actions"]:
                result["server_cpu_ms_per_action"] = round(1000 * cpu / result["actions"], 2)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
    shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
