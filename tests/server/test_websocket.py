"""The WebSocket protocol of a real server: hello, pushes, actions, refusals, limits."""

from __future__ import annotations

import json

import pytest
from websockets.exceptions import ConnectionClosed

from meldhall import new_game

from .conftest import SeatSocket


def humans(n: int) -> list[dict]:
    return [{"kind": "human", "name": f"P{i}"} for i in range(n)]


def first_to_act(game: str, players: int, seed: int, options=None) -> int:
    return new_game(game, players=players, seed=seed, options=options).to_act[0]


@pytest.fixture
def table(server):
    return server.create("classic-canasta", seats=humans(4), seed=31)


def test_hello_welcome_and_first_state(server, table):
    seat = first_to_act("classic-canasta", 4, 31)
    ws = SeatSocket(server, table["table"], table["seats"][seat]["token"])
    welcome = ws.recv()
    assert welcome == {"type": "welcome", "table": table["table"], "game": "classic-canasta",
                       "role": "seat", "seat": seat, "limits": {"max_message_bytes": 16384}}
    st = ws.state()
    assert st["seat"] == seat and st["role"] == "seat"
    assert st["common"]["version"] == 0 and st["common"]["to_act"] == [seat]
    assert st["view"]["legal"] and "draw" in st["view"]["legal"]
    assert st["view"]["observation"]["seat"] == seat
    assert st["seats"][seat]["connected"] is True
    ws.send({"type": "ping", "id": 7})
    assert ws.until(lambda m: m["type"] == "pong") == {"type": "pong", "id": 7}
    ws.close()


@pytest.mark.parametrize("first,code", [
    ({"type": "hello", "token": "wrong"}, "forbidden"),
    ({"type": "action", "action": "draw", "version": 0}, "malformed"),
    ("not json at all", "malformed"),
    ({"type": "hello"}, "malformed"),
])
def test_a_connection_without_a_valid_hello_is_closed(server, table, first, code):
    ws = SeatSocket(server, table["table"], None)
    ws.send(first)
    m = ws.recv()
    assert m["type"] == "error" and m["code"] == code and m["message"]
    with pytest.raises(ConnectionClosed):
        ws.recv(timeout=5)


def test_unknown_table_is_refused(server):
    ws = SeatSocket(server, "no-such-table", None)
    m = ws.recv()
    assert m["type"] == "error" and m["code"] == "not_found"


def test_actions_refusals_and_pushes(server, table):
    seat = first_to_act("classic-canasta", 4, 31)
    tok = table["seats"][seat]["token"]
    me = SeatSocket(server, table["table"], tok)
    me.recv()
    me.state()
    other_seat = (seat + 1) % 4
    other = SeatSocket(server, table["table"], table["seats"][other_seat]["token"])
    other.recv()
    other.state()
    watcher = SeatSocket(server, table["table"], table["spectator_token"])
    assert watcher.recv()["role"] == "spectator"
    watcher.state()

    # illegal: the rule ID and the sentence
    me.send({"type": "action", "action": "discard K", "version": 0, "id": "a"})
    r = me.until(lambda m: m["type"] == "refused")
    assert r["id"] == "a" and r["code"] == "illegal" and r["rule_id"] == "CC-5.2"
    assert r["reason"] and r["message"].startswith("CC-5.2: ")
    # out of turn
    other.send({"type": "action", "action": "draw", "version": 0, "id": 1})
    r = other.until(lambda m: m["type"] == "refused")
    assert r["code"] == "illegal" and r["rule_id"].startswith("CC-5")
    # spectators cannot act
    watcher.send({"type": "action", "action": "draw", "version": 0, "id": 2})
    r = watcher.until(lambda m: m["type"] == "refused")
    assert r["code"] == "not_your_seat"
    # a double click: two sends at the same version, one is applied
    me.send({"type": "action", "action": "draw", "version": 0, "id": 3})
    me.send({"type": "action", "action": "draw", "version": 0, "id": 4})
    answers = [me.until(lambda m: m["type"] in ("accepted", "refused")) for _ in range(2)]
    assert answers[0] == {"type": "accepted", "id": 3, "version": 1}
    assert answers[1]["type"] == "refused" and answers[1]["code"] == "stale_version"
    # everyone is told
    def is_v1(m):
        return m["type"] == "state" and m["common"]["version"] == 1

    for ws in (me, other, watcher):
        # the push may have arrived between the two answers above (and been passed over)
        st = next((m for m in ws.messages if is_v1(m)), None) or ws.until(is_v1)
        assert st["common"]["recent"][-1] == {"seat": seat, "action": "draw"}
    view = server.view(table["table"], tok)
    assert view["common"]["version"] == 1 and view["view"]["legal"]
    for ws in (me, other, watcher):
        ws.close()


def test_two_tabs_of_one_seat_both_follow(server, table):
    seat = first_to_act("classic-canasta", 4, 31)
    tok = table["seats"][seat]["token"]
    tabs = [SeatSocket(server, table["table"], tok) for _ in range(2)]
    for tab in tabs:
        tab.recv()
        tab.state()
    version = server.view(table["table"], tok)["common"]["version"]
    tabs[0].send({"type": "action", "action": "draw", "version": version, "id": 1})
    tabs[1].send({"type": "action", "action": "draw", "version": version, "id": 1})
    results = sorted(tab.until(lambda m: m["type"] in ("accepted", "refused"))["type"]
                     for tab in tabs)
    assert results == ["accepted", "refused"]
    for tab in tabs:
        tab.until(lambda m: m["type"] == "state" and m["common"]["version"] == version + 1)
        tab.close()


def test_oversized_and_malformed_messages_get_clear_errors(server, table):
    ws = SeatSocket(server, table["table"], table["seats"][0]["token"])
    ws.recv()
    ws.state()
    ws.send("x" * 20000)
    m = ws.until(lambda m: m["type"] == "error")
    assert m["code"] == "too_large" and "16384" in m["message"]
    ws.send(json.dumps({"type": "action", "action": "draw " * 4000, "version": 0}))
    m = ws.until(lambda m: m["type"] == "error")
    assert m["code"] == "too_large"
    ws.send("{bad json")
    m = ws.until(lambda m: m["type"] == "error")
    assert m["code"] == "malformed" and "JSON" in m["message"]
    ws.send({"type": "action", "action": "draw"})
    m = ws.until(lambda m: m["type"] == "error")
    assert m["code"] == "malformed" and "version" in m["message"]
    ws.send({"type": "teleport"})
    m = ws.until(lambda m: m["type"] == "error")
    assert "type" in m["message"]
    ws.send({"type": "action", "action": "draw", "version": -1})
    m = ws.until(lambda m: m["type"] == "error")
    assert "version" in m["message"]
    ws.send({"type": "action", "action": "draw", "version": 0, "extra": 1})
    m = ws.until(lambda m: m["type"] == "error")
    assert "extra" in m["message"]
    ws.ws.send(b"\x00\x01binary")
    m = ws.until(lambda m: m["type"] == "error")
    assert m["code"] == "malformed" and "text" in m["message"]
    # the connection still works and nothing was applied
    ws.send({"type": "ping"})
    ws.until(lambda m: m["type"] == "pong")
    assert server.view(table["table"], table["seats"][0]["token"])["common"]["version"] == 0
    ws.close()


def test_shanghai_buy_is_a_prompt_to_the_buyer(server):
    """When the next player declines the upcard, the buy window asks another seat."""
    game, seed = "shanghai-rummy", 8
    t = server.create(game, seats=humans(4), seed=seed)
    state = new_game(game, players=4, seed=seed)
    # play 'draw' (decline the upcard) until a buy is offered
    for _ in range(60):
        if state.phase == "buy":
            break
        seat = state.to_act[0]
        legal = [str(a) for a in state.legal_actions(seat)]
        action = "draw" if "draw" in legal else next(a for a in legal if a.startswith("discard"))
        version = server.view(t["table"], t["seats"][seat]["token"])["common"]["version"]
        assert server.act(t["table"], t["seats"][seat]["token"], action, version).status_code \
            == 200
        state = state.apply_text(action, seat)
    assert state.phase == "buy"
    buyer = state.to_act[0]
    ws = SeatSocket(server, t["table"], t["seats"][buyer]["token"])
    ws.recv()
    st = ws.state()
    assert st["common"]["phase"] == "buy" and st["common"]["to_act"] == [buyer]
    assert st["view"]["prompt"]["kind"] == "buy"
    assert set(st["view"]["legal"]) == {"buy", "pass"}
    ws.close()


def test_a_seat_handed_to_a_bot_mid_staging_reaches_everyone(server):
    """Who plays a seat is public: when the creator hands a seat to a bot while the player in
    turn has melds staged (a private action, CC-6.9), the other seats are told at once, not
    at the next public move."""
    t = server.create("classic-canasta", seats=humans(4), seed=0)
    seat = first_to_act("classic-canasta", 4, 0)
    me = SeatSocket(server, t["table"], t["seats"][seat]["token"])
    me.recv()
    me.state()
    other_seat = (seat + 1) % 4
    other = SeatSocket(server, t["table"], t["seats"][other_seat]["token"])
    other.recv()
    other.state()
    me.send({"type": "action", "action": "draw", "version": 0, "id": 1})
    assert me.until(lambda m: m["type"] in ("accepted", "refused"))["type"] == "accepted"
    me.send({"type": "action", "action": "stage A A 2", "version": 1, "id": 2})
    assert me.until(lambda m: m["type"] in ("accepted", "refused"))["type"] == "accepted"
    handed = (seat + 2) % 4
    r = server.request("POST", f"/api/tables/{t['table']}/seats/{handed}", t["creator_token"],
                       json={"kind": "bot", "bot": "heuristic"})
    assert r.status_code == 200, r.text
    push = other.until(lambda m: m["type"] == "state" and m["seats"][handed]["kind"] == "bot")
    assert push["common"]["version"] == 1  # the staging itself was not shown
    me.close()
    other.close()
