"""Bots think off the event loop, and hints: on a real ``meldhall serve`` process.

The search bot (``ismcts``) thinks for up to seconds; it runs in the server's worker pool, so
another table's moves are acknowledged meanwhile.  ``GET /api/tables/{id}/hint`` gives a seat
the search bot's advice, computed in the same pool.
"""

from __future__ import annotations

import threading
import time

from meldhall import new_game


def humans(n: int) -> list[dict]:
    return [{"kind": "human", "name": f"P{i}"} for i in range(n)]


def hand_back(server, t: dict) -> None:
    """Every seat of ``t`` back to a person: its bots stop (and free the worker pool)."""
    for seat in range(len(t["seats"])):
        r = server.request("POST", f"/api/tables/{t['table']}/seats/{seat}", t["creator_token"],
                           json={"kind": "human"})
        assert r.status_code == 200, r.text


def summary(server, t: dict) -> dict:
    r = server.request("GET", f"/api/tables/{t['table']}", t["creator_token"])
    assert r.status_code == 200, r.text
    return r.json()


def seed_where_seat0_starts(game: str = "classic-canasta") -> int:
    return next(s for s in range(1, 500) if new_game(game, players=4, seed=s).to_act == (0,))


def test_a_thinking_search_bot_does_not_hold_up_other_tables(server):
    """While table A's ``ismcts:hard`` bot is thinking (its seat says so, at version v), a
    person's move at table B is acknowledged, and A is still at v with that bot thinking
    afterwards: B's move was applied in the middle of A's bot's decision.  (With the decision
    on the event loop, B's move could only be answered after A's bot had moved.)"""
    a = server.create("railroad-canasta", seats=[{"kind": "bot", "bot": "ismcts:hard"}] * 4,
                      seed=11, bot_pause=0)
    try:
        proved = 0
        for attempt in range(20):
            # wait until a bot of A is thinking (forced moves are played without thinking)
            deadline = time.monotonic() + 60
            while True:
                s = summary(server, a)
                thinking = [x["seat"] for x in s["seats"] if x["thinking"]]
                if thinking:
                    break
                assert time.monotonic() < deadline, "no bot of table A ever thought"
                time.sleep(0.01)
            version, seat = s["version"], thinking[0]
            b = server.create("classic-canasta", seats=humans(4), seed=attempt + 1)
            tok = b["seats"][server.view(b["table"], b["seats"][0]["token"])
                             ["common"]["to_act"][0]]["token"]
            r = server.act(b["table"], tok, "draw", 0)
            assert r.status_code == 200, r.text          # B's move is acknowledged …
            after = summary(server, a)                   # … and only then is A looked at
            if after["version"] == version and after["seats"][seat]["thinking"]:
                proved += 1
                # A's bot does finish its decision and moves on
                deadline = time.monotonic() + 60
                while summary(server, a)["version"] == version:
                    assert time.monotonic() < deadline, "A's bot never moved"
                    time.sleep(0.05)
                if proved >= 2:
                    break
            # else A's bot finished its decision just before: look at its next one
        assert proved >= 2, "table B's move was never acknowledged while A's bot thought"
        health = server.request("GET", "/api/health").json()
        assert health["bot_pool"]["started"] and health["bot_pool"]["workers"] >= 1
    finally:
        hand_back(server, a)


def test_easy_search_bots_complete_a_hand(server):
    t = server.create("classic-canasta", seats=[{"kind": "bot", "bot": "ismcts:easy"}] * 4,
                      seed=21, bot_pause=0)
    try:
        deadline = time.monotonic() + 240
        while summary(server, t)["hands_scored"] < 1:
            assert time.monotonic() < deadline, "the easy search bots did not finish a hand"
            time.sleep(0.2)
        view = server.view(t["table"], t["spectator_token"])
        assert view["common"]["outcomes"] and view["common"]["error"] is None
        assert not any(s["thinking"] for s in view["seats"]) or not view["common"]["finished"]
    finally:
        hand_back(server, t)


def test_only_the_server_bots_are_accepted(server):
    """``make_bot`` takes custom search budgets (``ismcts:100000``, no time cap): a server
    would let anyone tie up its worker processes with one.  Only the listed bots play."""
    for bot in ("ismcts:100000", "ismcts:10/60"):
        r = server.request("POST", "/api/tables", json={
            "game": "classic-canasta", "seats": [{"kind": "bot", "bot": bot}] * 4})
        assert r.status_code == 422 and "unknown bot" in r.json()["error"]["message"], r.text
    t = server.create("classic-canasta", seats=humans(4))
    r = server.request("POST", f"/api/tables/{t['table']}/seats/1", t["creator_token"],
                       json={"kind": "bot", "bot": "ismcts:100000"})
    assert r.status_code == 422, r.text
    r = server.request("POST", f"/api/tables/{t['table']}/seats/1", t["creator_token"],
                       json={"kind": "bot", "bot": "ismcts:hard"})
    assert r.status_code == 200 and r.json()["seats"][1]["bot"] == "ismcts:hard"


# ---------------------------------------------------------------------------------- hints
def hint(server, table: str, token: str | None):
    return server.request("GET", f"/api/tables/{table}/hint", token)


def test_hint_for_the_seat_to_act(server):
    seed = seed_where_seat0_starts()
    t = server.create("classic-canasta", seats=[{"kind": "human", "name": "Ann"}]
                      + [{"kind": "bot", "bot": "heuristic"}] * 3, seed=seed, bot_pause=0)
    tok = t["seats"][0]["token"]
    view = server.view(t["table"], tok)
    r = hint(server, t["table"], tok)
    assert r.status_code == 200, r.text
    h = r.json()
    assert h["seat"] == 0 and h["bot"] == "ismcts" and h["version"] == view["view"]["version"]
    # the draw-phase advice may be a whole first melding by a pile take ("take K K K, 9 9 9",
    # shorthand, not listed, CC-6.9): then "next" is its first staged step
    assert h["next"] in view["view"]["legal"]
    assert (h["action"] in view["view"]["legal"] and h["next"] == h["action"]
            or h["plan"] == h["action"])
    assert h["legal_count"] == len(view["view"]["legal"])
    assert server.act(t["table"], tok, h["action"], h["version"]).status_code == 200

    # the next decision of the turn (melds, discards): a search, with a value and runners-up
    view = server.view(t["table"], tok)
    assert view["common"]["to_act"] == [0] and len(view["view"]["legal"]) > 1
    h = hint(server, t["table"], tok).json()
    legal = view["view"]["legal"]
    # a whole first melding may be advised (CC-6.9): "next" is its step to play now
    assert h["next"] in legal and h["version"] == view["view"]["version"]
    assert h["action"] in legal or h["plan"] == h["action"]
    assert isinstance(h["value"], float | int) and h["samples"] > 0
    assert h["alternatives"] and all(a["action"] in legal or a["action"].split()[0] in (
        "meld", "take", "out") for a in h["alternatives"])
    assert h["action"] not in [a["action"] for a in h["alternatives"]]
    # asked again at the same version: the same advice, not a second search
    assert hint(server, t["table"], tok).json() == h
    assert server.act(t["table"], tok, h["next"], h["version"]).status_code == 200


def test_hint_refusals_change_nothing(server):
    seed = seed_where_seat0_starts()
    t = server.create("classic-canasta", seats=humans(4), seed=seed)
    table, tok0, tok1 = t["table"], t["seats"][0]["token"], t["seats"][1]["token"]
    before = server.view(table, tok0)
    cases = [
        (None, 401, "unauthorized"),                          # no token
        ("not-a-token-of-this-table", 403, "forbidden"),      # wrong token
        (t["spectator_token"], 403, "not_your_seat"),         # spectator
        (t["creator_token"], 403, "not_your_seat"),           # creator (not a seat)
        (tok1, 409, "not_your_turn"),                         # not this seat's decision
    ]
    for token, status, code in cases:
        r = hint(server, table, token)
        assert r.status_code == status, (token, r.text)
        err = r.json()["error"]
        assert err["code"] == code and err["message"], (token, err)
    r = server.request("GET", "/api/tables/no-such-table/hint", tok0)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    # a seat handed to a bot gets no hint (the bot decides)
    r = server.request("POST", f"/api/tables/{table}/seats/2", t["creator_token"],
                       json={"kind": "bot", "bot": "heuristic"})
    assert r.status_code == 200
    r = hint(server, table, t["seats"][2]["token"])
    assert r.status_code == 403 and r.json()["error"]["code"] == "seat_is_bot"
    after = server.view(table, tok0)
    assert after["common"]["version"] == before["common"]["version"]
    assert after["view"] == before["view"]


def test_one_hint_at_a_time_per_seat(server):
    """A second request while the seat's hint is being worked out is refused (``busy``, 429);
    once it is there, asking again returns it."""
    seed = seed_where_seat0_starts()
    t = server.create("classic-canasta", seats=humans(4), seed=seed)
    table, tok = t["table"], t["seats"][0]["token"]
    assert server.act(table, tok, "draw", 0).status_code == 200     # a real decision next
    deadline = time.monotonic() + 30           # no other search running (other tests' bots)
    while server.request("GET", "/api/health").json()["bot_pool"]["search_tasks"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    first: dict = {}
    worker = threading.Thread(target=lambda: first.update(r=hint(server, table, tok)))
    worker.start()
    deadline = time.monotonic() + 30
    while server.request("GET", "/api/health").json()["bot_pool"]["search_tasks"] == 0:
        assert time.monotonic() < deadline and worker.is_alive(), "the hint never started"
        time.sleep(0.005)
    second = hint(server, table, tok)
    worker.join()
    assert first["r"].status_code == 200, first["r"].text
    assert second.status_code == 429, second.text
    assert second.json()["error"]["code"] == "busy"
    third = hint(server, table, tok)
    assert third.status_code == 200 and third.json() == first["r"].json()


def test_no_hint_once_the_game_is_over(server):
    t = server.create("classic-canasta", seats=[{"kind": "bot", "bot": "heuristic"}] * 4,
                      seed=5, options={"target_score": 100}, bot_pause=0)
    deadline = time.monotonic() + 120
    while not summary(server, t)["finished"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    r = hint(server, t["table"], t["seats"][0]["token"])
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over", r.text
