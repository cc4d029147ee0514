"""No message ever shows a seat (or a spectator) a card hidden from it.

Whole games are played by the server's bots for each game while every seat and a spectator
watch over WebSockets.  Every payload received is then checked against the engine, replaying
the finished game's record: the observation in a payload about version ``v`` is exactly what
the engine's ``observation(seat)`` at ``v`` shows that seat (for a spectator, the public view
built from every seat's observation), cards are named by rank and suit only (no deck index
such as ``7H/1`` reaches anyone), and no payload carries a seed, a stock or another seat's
hand.
"""

from __future__ import annotations

import re
import time

import pytest

from meldhall import load_record
from meldhall.server import views

from .conftest import SeatSocket

CARD = re.compile(r"(?<![0-9A-Z])(?:10|[2-9AKQJ])[SHDC]/\d+\b|(?<![A-Z])JK/\d+\b")
FORBIDDEN_KEYS = {"seed", "stock", "hands", "kitties", "position"}

GAMES = [
    ("classic-canasta", {"target_score": 500}, ["heuristic", "random", "heuristic", "random"]),
    ("railroad-canasta", {"target_score": 300}, ["heuristic", "random", "heuristic"]),
    ("shanghai-rummy", {"deals": 7, "max_stock_rebuilds": 0}, ["heuristic", "random", "heuristic"]),
]


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(text))


def keys_in(obj, out: set[str]) -> set[str]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            keys_in(v, out)
    elif isinstance(obj, list):
        for v in obj:
            keys_in(v, out)
    return out


def play_watched_game(server, game: str, options: dict, bots: list[str], seed: int):
    """Create a table of humans, connect every seat and a spectator, hand every seat to a
    bot and collect every payload until the game is over."""
    n = len(bots)
    offered = {g["name"]: g["bots"] for g in server.request("GET", "/api/games").json()}[game]
    bots = [b if b in offered else "random" for b in bots]
    t = server.create(game, seats=[{"kind": "human", "name": f"P{i}"} for i in range(n)],
                      players=n, options=options, seed=seed, bot_pause=0)
    table = t["table"]
    sockets = [(i, SeatSocket(server, table, s["token"])) for i, s in enumerate(t["seats"])]
    sockets.append((None, SeatSocket(server, table, t["spectator_token"])))
    for _, ws in sockets:
        assert ws.recv()["type"] == "welcome"
    for seat, bot in enumerate(bots):
        r = server.request("POST", f"/api/tables/{table}/seats/{seat}", t["creator_token"],
                           json={"kind": "bot", "bot": bot})
        assert r.status_code == 200, r.text
    deadline = time.monotonic() + 90
    for _, ws in sockets:
        while True:
            assert time.monotonic() < deadline, "the game did not finish in time"
            m = ws.recv(timeout=60)
            if m["type"] == "state" and m["common"]["finished"]:
                break
    for _, ws in sockets:
        ws.close()
    rec = server.request("GET", f"/api/tables/{table}/record", t["creator_token"])
    assert rec.status_code == 200, rec.text
    return t, sockets, load_record(rec.json())


def _with_staged(st, seat: int, obs: dict):
    """``st`` (a state at a public version) with the melds ``seat``'s payload shows staged:
    staging is private (CC-6.9, RR-6.11, SH-8.1), so the public record leaves it out."""
    for i, text in enumerate(obs.get("staged") or []):
        up = " + upcard" if i == 0 and obs.get("staged_upcard") else ""
        st = st.apply_text(f"stage {text}{up}", seat)
    return st


@pytest.mark.parametrize("game,options,bots", GAMES, ids=[g[0] for g in GAMES])
def test_no_payload_shows_a_hidden_card(server, game, options, bots):
    t, sockets, record = play_watched_game(server, game, options, bots, seed=20261129)
    # the common version counts public actions only: one per action of the record
    states = [st for _, st in record.states()]
    assert states[-1].is_terminal
    checked = 0
    for seat, ws in sockets:
        payloads = [(raw, m) for raw, m in zip(ws.raw, ws.messages) if m["type"] == "state"]
        assert payloads, "no state was pushed"
        for raw, m in payloads:
            v = m["common"]["version"]
            assert m["seat"] == seat
            shown = cards_in(raw)
            assert not shown, f"seat {seat} was sent deck indices {sorted(shown)} at v{v}"
            bad_keys = keys_in(m, set()) & FORBIDDEN_KEYS
            assert not bad_keys, f"payload carries {bad_keys}"
            obs = m["view"]["observation"]
            if seat is None:
                assert obs["hand"] == [] and "my_kitty" not in obs
                assert m["view"]["legal"] == []
                # (a seat staging since v changes only its own stage counter, which the
                # public view then leaves out, as it does any field the seats see differently)
                public = views.public_view(states[v])
                got = dict(obs)
                if "stages_left" not in got:
                    public.pop("stages_left", None)
                assert got == public, f"spectator view at v{v}"
            else:
                st = states[v]
                if obs.get("staged"):
                    assert seat in st.to_act, "only the seat in turn stages melds"
                    st = _with_staged(st, seat, obs)
                # exactly the engine's observation (but for the stage counter of a seat that
                # staged and withdrew since the public version)
                engine = views.trim_log(dict(st.observation(seat).to_json()))
                if "version" in m["view"]:
                    obs, engine = dict(obs), dict(engine)
                    obs.pop("stages_left", None)
                    engine.pop("stages_left", None)
                assert obs == engine, f"seat {seat}'s payload at v{v} is not its observation"
                obs = m["view"]["observation"]
                expected = ([str(a) for a in st.legal_actions(seat)]
                            if seat in st.to_act else [])
                # (the seat to act may have staged and withdrawn melds since the public
                # version: its stage counter can only have removed further stages)
                got = m["view"]["legal"]
                assert got == expected or ("version" in m["view"] and set(got) <= set(expected))
            checked += 1
    assert checked >= len(sockets)
    # the spectator's view says nothing the seats do not all know, but is not empty
    last = [m for m in sockets[-1][1].messages if m["type"] == "state"][-1]
    assert last["view"]["observation"]["hand_sizes"]
    assert str(t["seats"][0]["token"]) not in "".join(sockets[-1][1].raw)


def test_seat_tokens_are_random_and_stored_hashed(server, tmp_path):
    t1 = server.create("classic-canasta", seats=[{"kind": "human"}] * 4)
    t2 = server.create("classic-canasta", seats=[{"kind": "human"}] * 4)
    tokens = [s["token"] for s in t1["seats"] + t2["seats"]]
    tokens += [t1["spectator_token"], t1["creator_token"], t2["spectator_token"]]
    assert len(set(tokens)) == len(tokens)
    assert all(len(tok) >= 32 for tok in tokens)
    # the database holds only hashes
    import sqlite3

    db = server.database.removeprefix("sqlite:///")
    with sqlite3.connect(db) as conn:
        dump = "\n".join(conn.iterdump())
    for tok in tokens:
        assert tok not in dump
    # a token of one table does not open another
    r = server.request("GET", f"/api/tables/{t2['table']}", t1["seats"][0]["token"])
    assert r.status_code == 403


def test_seed_and_record_stay_hidden_until_the_end(server):
    t = server.create("classic-canasta", seats=[{"kind": "human"}] * 4, seed=777)
    table = t["table"]
    for tok in [t["seats"][0]["token"], t["spectator_token"], t["creator_token"]]:
        r = server.request("GET", f"/api/tables/{table}/record", tok)
        assert r.status_code == 409
        assert "777" not in r.text
        view = server.request("GET", f"/api/tables/{table}/view", tok).json()
        assert not keys_in(view, set()) & FORBIDDEN_KEYS
        summary = server.request("GET", f"/api/tables/{table}", tok).json()
        assert not keys_in(summary, set()) & FORBIDDEN_KEYS
