"""A graceful shutdown loses nothing: SIGINT / SIGTERM (and a second Ctrl-C, uvicorn's "force
quit") while tables are being created and played by people and bots, then a restart.

On SQLite the database file ALONE (opened ``immutable``, i.e. without its ``-wal`` file) must
hold every acknowledged table and action after the shutdown, and no ``-wal`` is left behind.
(``test_persistence`` covers SIGKILL, where the ``-wal`` file carries the last commits.)
"""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
import time
from pathlib import Path

import httpx
import pytest


def humans(n: int) -> list[dict]:
    return [{"kind": "human", "name": f"P{i}"} for i in range(n)]


def _play(base: str, stop: threading.Event, acked: dict, lock: threading.Lock, n: int) -> None:
    """Create human tables and play them (drawing when possible) until ``stop``; every
    acknowledged table and action goes into ``acked``: table -> (creator token, version)."""
    c = httpx.Client(timeout=10)
    try:
        while not stop.is_set():
            r = c.post(base + "/api/tables", json={"game": "classic-canasta",
                                                   "seats": humans(4), "seed": n})
            n += 1
            if r.status_code != 201:
                continue
            t = r.json()
            with lock:
                acked[t["table"]] = (t["creator_token"], 0)
            for _ in range(12):
                if stop.is_set():
                    return
                tok0 = t["seats"][0]["token"]
                v = c.get(f"{base}/api/tables/{t['table']}/view",
                          headers={"Authorization": f"Bearer {tok0}"}).json()
                seat = v["common"]["to_act"][0]
                tok = t["seats"][seat]["token"]
                v = c.get(f"{base}/api/tables/{t['table']}/view",
                          headers={"Authorization": f"Bearer {tok}"}).json()
                legal = v["view"]["legal"]
                action = "draw" if "draw" in legal else legal[-1]
                r = c.post(f"{base}/api/tables/{t['table']}/actions",
                           headers={"Authorization": f"Bearer {tok}"},
                           json={"action": action, "version": v["common"]["version"]})
                if r.status_code == 200:
                    with lock:
                        acked[t["table"]] = (t["creator_token"], r.json()["version"])
    except (httpx.HTTPError, KeyError, ValueError):
        return            # the server went away mid-request: that request was not acknowledged


def _stored(db: Path) -> dict[str, int]:
    """Table id -> number of actions, read from the database file alone (no WAL)."""
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    try:
        tables = {r[0] for r in conn.execute("SELECT id FROM tables")}
        counts = dict.fromkeys(tables, 0)
        counts.update(dict(conn.execute(
            "SELECT table_id, count(*) FROM actions GROUP BY table_id").fetchall()))
        return counts
    finally:
        conn.close()


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "SIGINT twice"])
def test_graceful_shutdown_and_restart_lose_nothing(make_server, database_url, how):
    srv = make_server(database_url)
    acked: dict[str, tuple[str, int]] = {}
    lock = threading.Lock()
    # bot tables, moving while the server shuts down
    bots = [srv.create("classic-canasta", seats=[{"kind": "bot", "bot": "heuristic"}] * 4,
                       seed=100 + i, bot_pause=0.01) for i in range(3)]
    # and search bots, thinking in the worker processes (which the signal reaches too)
    # (easy: a short search, so a loaded machine still shuts down well within the wait)
    bots.append(srv.create("railroad-canasta", seats=[{"kind": "bot", "bot": "ismcts:easy"}] * 4,
                           seed=7, bot_pause=0))
    stop = threading.Event()
    workers = [threading.Thread(target=_play, args=(srv.base, stop, acked, lock, 1000 * k))
               for k in range(1, 4)]
    for w in workers:
        w.start()
    deadline = time.monotonic() + 60          # a loaded machine may take a while to start
    while time.monotonic() < deadline:
        with lock:
            if acked:
                break
        time.sleep(0.1)
    time.sleep(1.5)                           # a few checkpoints (one a second) have run
    with lock:
        assert acked, "nothing was created before the shutdown"
    seen_bots = {}
    for t in bots:
        s = srv.request("GET", f"/api/tables/{t['table']}", t["creator_token"]).json()
        seen_bots[t["table"]] = (t["creator_token"], s["version"])

    if how == "SIGINT twice":                 # uvicorn's "force quit": no lifespan shutdown
        os.killpg(srv.proc.pid, signal.SIGINT)
        time.sleep(0.05)
    # graceful: to the process group, like Ctrl-C in a terminal; waits for the exit
    srv.kill(signal.SIGTERM if how == "SIGTERM" else signal.SIGINT)
    stop.set()
    for w in workers:
        w.join()
    assert srv.proc.returncode is not None
    log = srv.log_path.read_text()
    assert "playing a random move" not in log, log[-3000:]     # no bot failed on the way out

    with lock:
        expected = {**dict(acked), **seen_bots}

    if database_url.startswith("sqlite"):
        db = Path(database_url.removeprefix("sqlite:///"))
        assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0, \
            "the write-ahead log was left behind: the database file alone is not complete"
        stored = _stored(db)
        for table, (_tok, version) in expected.items():
            assert table in stored, f"table {table} is not in the database file"
            assert stored[table] >= version, (table, stored[table], version)

    srv2 = make_server(database_url)
    for table, (tok, version) in expected.items():
        r = srv2.request("GET", f"/api/tables/{table}", tok)
        assert r.status_code == 200, (table, r.text)
        assert r.json()["version"] >= version, (table, r.json()["version"], version)
    # the restarted server writes on
    t = srv2.create("classic-canasta", seats=humans(4), seed=1)
    seat = srv2.view(t["table"], t["seats"][0]["token"])["common"]["to_act"][0]
    assert srv2.act(t["table"], t["seats"][seat]["token"], "draw", 0).status_code == 200
