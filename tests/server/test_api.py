"""The JSON API of a real ``meldhall serve`` process."""

from __future__ import annotations

import re
import time

import pytest

from meldhall import load_record, new_game


def humans(n: int) -> list[dict]:
    return [{"kind": "human", "name": f"P{i}"} for i in range(n)]


def test_games_describe_every_option_and_list_presets(server):
    """Every option the lobby offers has a one-line explanation naming its rule; values of a
    fixed set have words (one per value); every preset is valid for ``new_game``."""
    games = {g["name"]: g for g in server.request("GET", "/api/games").json()}
    for name, g in games.items():
        assert set(g["descriptions"]) == set(g["options"]), name
        assert "copy_choice" not in g["descriptions"], name
        for key, text in g["descriptions"].items():
            assert text.strip() and "``" not in text, (name, key)
            assert re.search(r"\b(CC|RR|SH)-\d", text), (name, key, text)
        assert set(g["choice_labels"]) == set(g["choices"]), name
        for key, words in g["choice_labels"].items():
            assert len(words) == len(g["choices"][key]) and all(words), (name, key)
        assert "standard" in g["presets"] and g["presets"]["standard"] == {}, name
        for preset, changes in g["presets"].items():
            assert set(changes) <= set(g["options"]), (name, preset)
            st = new_game(name, seed=1, options=changes)
            for key, value in changes.items():
                assert st.options.to_json()[key] == value, (name, preset, key)
        # a list or mapping option shows how it is typed: its example is a valid value
        # (a tester met a free-text "pairs of a score threshold …" field with no example)
        for key, example in g["examples"].items():
            assert g["options"][key] is None, (name, key)
            st = new_game(name, seed=1, options={key: example})
            assert st.options.to_json()[key] == example, (name, key)
    assert games["railroad-canasta"]["examples"]["minimum_count_table"] == [
        [15000, 150], [10000, 120], [5000, 90], [0, 50]]                        # RR-7.1
    assert games["railroad-canasta"]["examples"]["canasta_bonuses"] == {
        "red": 500, "black": 300, "wild": 1000, "sevens": 1500}                 # RR-13.2
    assert games["classic-canasta"]["examples"]["minimum_count_table"] == [
        [3000, 120], [1500, 90], [0, 50]]                                       # CC-7.1
    assert games["shanghai-rummy"]["examples"]["buy_limits"] == [3] * 8 + [4, 4]  # SH-10.6
    cc = games["classic-canasta"]
    assert cc["presets"]["pagat"]["wild_ratio"] == "pagat"
    assert set(games["railroad-canasta"]["presets"]) >= {"short"}
    assert games["shanghai-rummy"]["presets"]["short"] == {"deals": 7}
    assert cc["choice_labels"]["wild_ratio"][0] == "wild cards ≤ naturals, at most 3"
    assert "CC-6.2" in cc["descriptions"]["wild_ratio"]
    # the fields the lobby had before are unchanged
    assert cc["choices"]["wild_ratio"] == ["seed", "pagat"]
    assert cc["options"]["wild_ratio"] == "seed"


def test_health_games_config_and_pages(server):
    assert server.request("GET", "/api/health").json()["ok"] is True
    games = {g["name"]: g for g in server.request("GET", "/api/games").json()}
    assert set(games) == {"classic-canasta", "railroad-canasta", "shanghai-rummy"}
    assert games["classic-canasta"]["players"] == [2, 3, 4, 6]
    assert "heuristic" in games["classic-canasta"]["bots"]
    assert "random" in games["shanghai-rummy"]["bots"]
    # options with a fixed set of values list them (the lobby's select boxes); each is valid
    assert games["classic-canasta"]["choices"]["black_three_upcard"] == ["cover", "leave"]
    assert set(games["shanghai-rummy"]["choices"]["tie_rule"]) >= {"shared"}
    assert games["shanghai-rummy"]["choices"]["deals"] == [10, 7]     # numbers, not text
    for name, g in games.items():
        assert "copy_choice" not in g["options"], name  # not a house rule (old records only)
        assert g["choices"], name
        for key, allowed in g["choices"].items():
            assert g["options"][key] in allowed, (name, key)
            for value in allowed:
                players = 3 if value == "cutthroat" else None    # CC-14.1
                new_game(name, players=players, seed=1, options={key: value})
    cfg = server.request("GET", "/api/config").json()
    assert cfg["allow_seeds"] is True and cfg["max_message_bytes"] == 16384
    for page in ("/", "/table.html", "/replay.html", "/js/table.js", "/css/meldhall.css"):
        r = server.request("GET", page)
        assert r.status_code == 200, page
        assert "default-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff"


def test_create_returns_one_invite_per_human_seat(server):
    t = server.create("classic-canasta", seats=[
        {"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "heuristic"},
        {"kind": "human", "name": "Cleo"}, {"kind": "bot", "bot": "random"}], bot_pause=0)
    assert t["players"] == 4 and len(t["seats"]) == 4
    assert [s["kind"] for s in t["seats"]] == ["human", "bot", "human", "bot"]
    for s in t["seats"]:
        assert s["url"] == f"/table.html#t={t['table']}&k={s['token']}"
    assert t["spectator_token"] not in {s["token"] for s in t["seats"]}
    summary = server.request("GET", f"/api/tables/{t['table']}", t["seats"][2]["token"]).json()
    assert summary["role"] == "seat" and summary["seat"] == 2
    assert [s["name"] for s in summary["seats"]][:1] == ["Ann"]
    spec = server.request("GET", f"/api/tables/{t['table']}", t["spectator_token"]).json()
    assert spec["role"] == "spectator" and spec["seat"] is None


@pytest.mark.parametrize("body,fragment", [
    ({"game": "go-fish"}, "unknown game"),
    ({"game": "classic-canasta", "players": 5}, "player"),
    ({"game": "classic-canasta", "options": {"no_such_option": 1}}, "no_such_option"),
    ({"game": "classic-canasta", "seats": [{"kind": "human"}] * 3, "players": 4}, "4 seats"),
    ({"game": "shanghai-rummy", "seats": [{"kind": "bot", "bot": "grandmaster"}] * 4},
     "grandmaster"),
    ({"game": "classic-canasta", "seats": [{"kind": "robot"}]}, "seats.0.kind"),
    ({"game": "classic-canasta", "colour": "red"}, "colour"),
    ({"game": "classic-canasta", "bot_pause": -1}, "bot_pause"),
    # the former copy choice showed which copies a hand held: old records only
    ({"game": "shanghai-rummy", "options": {"copy_choice": "legacy"}}, "copy_choice"),
])
def test_create_refuses_bad_tables_with_a_sentence(server, body, fragment):
    r = server.request("POST", "/api/tables", json=body)
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert fragment in err["message"]


def test_malformed_and_oversized_bodies(server):
    r = server.request("POST", "/api/tables", content=b"{not json",
                       headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "malformed"
    r = server.request("POST", "/api/tables", content=b"[1, 2]")
    assert r.status_code == 422 and r.json()["error"]["code"] == "malformed"
    big = b'{"game": "classic-canasta", "x": "' + b"x" * 20000 + b'"}'
    r = server.request("POST", "/api/tables", content=big)
    assert r.status_code == 413
    assert "16384" in r.json()["error"]["message"]


def _turn(server, t):
    """The seat to act, its token and the table's version (all seats human)."""
    tok0 = t["seats"][0]["token"]
    view = server.view(t["table"], tok0)
    seat = view["common"]["to_act"][0]
    return seat, t["seats"][seat]["token"], view["common"]["version"]


def test_refused_actions_change_nothing(server):
    t = server.create("classic-canasta", seats=humans(4), seed=4242)
    table = t["table"]
    seat, tok, version = _turn(server, t)
    other = t["seats"][(seat + 1) % 4]["token"]
    before = {s["token"]: server.view(table, s["token"]) for s in t["seats"]}

    cases = [
        (None, "draw", version, 401, "unauthorized"),
        ("not-a-token", "draw", version, 403, "forbidden"),
        (t["spectator_token"], "draw", version, 403, "not_your_seat"),
        (t["creator_token"], "draw", version, 403, "not_your_seat"),
        (other, "draw", version, 422, "illegal"),              # another seat's turn
        (tok, "discard K", version, 422, "illegal"),           # CC-5.2: draw first
        (tok, "draw", version + 1, 409, "stale_version"),
        (tok, "draw", version - 1 if version else 5, 409, "stale_version"),
        (tok, "fly away", version, 422, "notation"),
    ]
    for token, action, v, status, code in cases:
        r = server.act(table, token, action, v)
        assert r.status_code == status, (action, r.text)
        err = r.json()["error"]
        assert err["code"] == code, err
        if code == "illegal":
            assert err["rule_id"].startswith("CC-") and err["reason"]
            assert err["message"] == f"{err['rule_id']}: {err['reason']}"
    after = {s["token"]: server.view(table, s["token"]) for s in t["seats"]}
    for k in before:
        assert before[k]["common"] == after[k]["common"]
        assert before[k]["view"] == after[k]["view"]

    r = server.act(table, tok, "draw", version)
    assert r.status_code == 200 and r.json()["version"] == version + 1
    # the same click again (same version) is refused: a move is never applied twice
    r = server.act(table, tok, "draw", version)
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
    assert server.view(table, tok)["common"]["version"] == version + 1


def test_rest_play_matches_the_engine(server):
    t = server.create("railroad-canasta", seats=humans(3), players=3, seed=99)
    table = t["table"]
    state = new_game("railroad-canasta", players=3, seed=99)
    public = 0
    for _ in range(40):
        seat = state.to_act[0]
        tok = t["seats"][seat]["token"]
        view = server.view(table, tok)
        legal = view["view"]["legal"]
        assert legal == [str(a) for a in state.legal_actions(seat)]
        assert view["view"]["observation"] == _trimmed(state.observation(seat).to_json())
        action = legal[-1]
        r = server.act(table, tok, action, view["common"]["version"])
        assert r.status_code == 200, r.text
        parsed = state.parse_action(action)
        public += not parsed.PRIVATE
        state = state.apply(parsed, seat)
    final = server.view(table, t["seats"][0]["token"])
    # staging and withdrawing melds (RR-6.11) are private: the public version skips them
    assert final["common"]["version"] == public
    assert [r["action"] for r in final["common"]["recent"]][-1] == str(
        [a for _, a in state.history() if a][-1])


def _trimmed(obs: dict) -> dict:
    from meldhall.server.views import LOG_TAIL

    obs = dict(obs)
    obs["log_total"] = len(obs["log"])
    obs["log"] = obs["log"][-LOG_TAIL:]
    return obs


def test_creator_hands_a_seat_to_a_bot(server):
    t = server.create("classic-canasta", seats=humans(4), seed=5, options={"target_score": 500},
                      bot_pause=0)
    table = t["table"]
    r = server.request("POST", f"/api/tables/{table}/seats/1", t["seats"][0]["token"],
                       json={"kind": "bot", "bot": "heuristic"})
    assert r.status_code == 403          # a seat token is not the creator's
    r = server.request("POST", f"/api/tables/{table}/seats/1", t["creator_token"],
                       json={"kind": "bot", "bot": "chess-engine"})
    assert r.status_code == 422
    for seat in range(4):
        r = server.request("POST", f"/api/tables/{table}/seats/{seat}", t["creator_token"],
                           json={"kind": "bot", "bot": "heuristic"})
        assert r.status_code == 200, r.text
        assert r.json()["seats"][seat]["kind"] == "bot"
    # the bots play the game to its end
    deadline = time.monotonic() + 60
    while True:
        s = server.request("GET", f"/api/tables/{table}", t["creator_token"]).json()
        if s["finished"]:
            break
        assert time.monotonic() < deadline
        time.sleep(0.2)
    # a human cannot act for a seat a bot plays, nor after the end
    r = server.act(table, t["seats"][0]["token"], "draw", s["version"])
    assert r.status_code in (403, 409)
    # the record is available now, and replays to the same scores
    rec = server.request("GET", f"/api/tables/{table}/record", t["seats"][2]["token"])
    assert rec.status_code == 200
    record = load_record(rec.json())
    final = record.final_state()
    assert final.is_terminal and list(final.scores) == s["scores"]
    assert len(record.actions) == s["version"]
    # the replay endpoint steps through it
    r = server.request("POST", "/api/replay", json={"record": rec.json(), "step": 3})
    assert r.status_code == 200
    body = r.json()
    assert body["step"] == 3 and body["action"] == record.actions[2]
    assert body["view"]["hand"] == [] and body["steps"] == len(record.actions)
    r = server.request("POST", "/api/replay",
                       json={"record": rec.json(), "step": 10**6, "seat": 1})
    assert r.json()["step"] == len(record.actions) and r.json()["finished"] is True
    r = server.request("POST", "/api/replay", json={"record": {"format": "nope"}})
    assert r.status_code == 422


def test_unknown_table(server):
    r = server.request("GET", "/api/tables/doesnotexist", "x" * 32)
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"


def test_serve_command_is_registered():
    from typer.testing import CliRunner

    from meldhall.cli import app

    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--database", "--open", "--bot-pause", "--allow-seeds"):
        assert option in result.output


def test_a_seat_handed_back_to_its_player_is_not_played_by_the_bot(server):
    t = server.create("classic-canasta", seats=humans(4), seed=8, bot_pause=1.0)
    table = t["table"]
    seat = new_game("classic-canasta", players=4, seed=8).to_act[0]
    for kind in ("bot", "human"):
        r = server.request("POST", f"/api/tables/{table}/seats/{seat}", t["creator_token"],
                           json={"kind": kind, "bot": "random" if kind == "bot" else None})
        assert r.status_code == 200
    time.sleep(1.5)
    view = server.view(table, t["seats"][seat]["token"])
    assert view["common"]["version"] == 0 and view["seats"][seat]["kind"] == "human"
    assert server.act(table, t["seats"][seat]["token"], "draw", 0).status_code == 200


def test_new_tables_get_seeds_that_javascript_represents_exactly(server):
    """A seed the server draws has at most 53 bits: the browser reads records as JavaScript
    numbers (doubles), exact only below 2**53; a rounded seed no longer replays."""
    import sqlalchemy as sa

    ids = [server.create("classic-canasta", seats=humans(4))["table"] for _ in range(24)]
    engine = sa.create_engine(server.database)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT id, seed FROM tables")).all()
    finally:
        engine.dispose()
    seeds = {tid: int(seed) for tid, seed in rows}
    assert all(0 <= seeds[tid] < 2**53 for tid in ids), [seeds[tid] for tid in ids]
    assert len({seeds[tid] for tid in ids}) == len(ids)


def test_record_text_and_replay_of_a_seed_beyond_2_to_the_53(server):
    """A seed given at creation (up to 62 bits, also as digits) is kept exactly: the record's
    text has it digit for digit and the replay endpoint replays it."""
    seed = 356418655901682182                       # > 2**53: a double would round it
    t = server.create("classic-canasta", seats=[{"kind": "bot", "bot": "heuristic"}] * 4,
                      seed=str(seed), options={"target_score": 100}, bot_pause=0)
    deadline = time.monotonic() + 60
    while not server.request("GET", f"/api/tables/{t['table']}",
                             t["creator_token"]).json()["finished"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    r = server.request("GET", f"/api/tables/{t['table']}/record", t["creator_token"])
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert f'"seed": {seed},' in r.text
    record = load_record(r.text)
    assert record.seed == seed and record.final_state().is_terminal
    body = '{"step": 2, "seat": null, "record": ' + r.text + "}"
    rep = server.request("POST", "/api/replay", content=body.encode(),
                         headers={"Content-Type": "application/json"})
    assert rep.status_code == 200, rep.text
    assert rep.json()["action"] == record.actions[1]
