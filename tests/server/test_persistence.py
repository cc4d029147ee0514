"""A restart loses nothing: SIGKILL the server mid-game, start it again, play on.

Run on SQLite and on PostgreSQL (``MELDHALL_TEST_POSTGRES_URL``; skipped without it).
"""

from __future__ import annotations

import time

from meldhall import load_record, new_game


def humans(n: int) -> list[dict]:
    return [{"kind": "human", "name": f"P{i}"} for i in range(n)]


def play(server, t, state, count: int):
    """Play ``count`` actions through the API (the last legal action each time)."""
    for _ in range(count):
        seat = state.to_act[0]
        tok = t["seats"][seat]["token"]
        view = server.view(t["table"], tok)
        action = view["view"]["legal"][-1]
        r = server.act(t["table"], tok, action, view["common"]["version"])
        assert r.status_code == 200, r.text
        state = state.apply(state.parse_action(action), seat)
    return state


def public_actions(state) -> int:
    """The table's public version: its actions less the private ones (staging, CC-6.9)."""
    return sum(1 for _, a in state.history() if a)


def views_of(server, t) -> list[dict]:
    out = []
    for s in t["seats"]:
        v = server.view(t["table"], s["token"])
        out.append({"common": v["common"], "view": v["view"]})
    return out


def test_sigkill_and_restart_lose_nothing(make_server, database_url):
    srv = make_server(database_url)
    game, seed = "classic-canasta", 2024
    t = srv.create(game, seats=humans(4), seed=seed)
    state = play(srv, t, new_game(game, players=4, seed=seed), 23)
    # a second table, played by bots up to a human's turn
    tb = srv.create("shanghai-rummy", seats=[{"kind": "human"}] + [
        {"kind": "bot", "bot": "random"}] * 3, seed=5, bot_pause=0)
    deadline = time.monotonic() + 30
    while 0 not in srv.view(tb["table"], tb["seats"][0]["token"])["common"]["to_act"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    before = views_of(srv, t)
    before_b = srv.view(tb["table"], tb["seats"][0]["token"])
    assert before[0]["common"]["version"] == public_actions(state)

    srv.kill()                                      # SIGKILL: no shutdown of any kind
    srv2 = make_server(database_url)                # same database, new process

    after = views_of(srv2, t)
    assert after == before                          # identical, seat by seat
    after_b = srv2.view(tb["table"], tb["seats"][0]["token"])
    assert after_b["common"] == before_b["common"] and after_b["view"] == before_b["view"]
    # tokens still open their seats, and stale versions are still refused
    tok = t["seats"][state.to_act[0]]["token"]
    r = srv2.act(t["table"], tok, "draw", public_actions(state) - 1)
    assert r.status_code == 409
    state = play(srv2, t, state, 17)
    final = srv2.view(t["table"], t["seats"][0]["token"])
    assert final["common"]["version"] == public_actions(state)
    assert final["view"]["observation"]["hand"] == state.observation(0).to_json()["hand"]


def test_bot_tables_resume_after_a_restart(make_server, database_url):
    srv = make_server(database_url)
    t = srv.create("classic-canasta", seats=humans(4), seed=77,
                   options={"target_score": 500}, bot_pause=0.02)
    # hand the seats to bots and kill the server while they play
    for seat in range(4):
        r = srv.request("POST", f"/api/tables/{t['table']}/seats/{seat}", t["creator_token"],
                        json={"kind": "bot", "bot": "heuristic"})
        assert r.status_code == 200
    time.sleep(0.5)
    mid = srv.request("GET", f"/api/tables/{t['table']}", t["creator_token"]).json()
    srv.kill()
    assert 0 < mid["version"] and not mid["finished"]
    srv2 = make_server(database_url)
    deadline = time.monotonic() + 60
    while True:
        s = srv2.request("GET", f"/api/tables/{t['table']}", t["creator_token"]).json()
        if s["finished"]:
            break
        assert time.monotonic() < deadline, "the bots did not resume"
        time.sleep(0.1)
    rec = srv2.request("GET", f"/api/tables/{t['table']}", t["creator_token"])
    record = load_record(srv2.request("GET", f"/api/tables/{t['table']}/record",
                                      t["creator_token"]).json())
    final = record.final_state()          # the log replays, action by action, to the end
    assert final.is_terminal and list(final.scores) == rec.json()["scores"]
    assert len(record.actions) == s["version"]
