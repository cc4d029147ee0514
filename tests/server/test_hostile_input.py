"""Hostile request bodies and paths get a 4xx in the documented shape, never a 500 or a reset.

Numbers written ``Infinity``, ``NaN``, ``1e400`` or with 5,000 digits, bodies nested 1,000 or
100,000 deep, path parameters that are not numbers: every one is answered
``{"error": {"code", "message"}}`` with a 4xx status (docs/server.md), and the server serves
the next request as before.  The WebSocket refuses the same inside a message and stays open.
"""

from __future__ import annotations

import json

import httpx
import pytest

from meldhall import new_game
from meldhall.record import Record

from .conftest import SeatSocket

BIG = "9" * 5000
JSON = {"Content-Type": "application/json"}


def _record() -> dict:
    s = new_game("classic-canasta", players=2, seed=3)
    s = s.apply(s.legal_actions()[0])
    return Record.from_state(s, new_game("classic-canasta", players=2, seed=3).dealer).to_json()


def _with_raw(doc: dict, path: tuple[str, ...], raw: str) -> str:
    """``doc`` as JSON text with the value at ``path`` written as ``raw``."""
    d = json.loads(json.dumps(doc))
    parent = d
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = "@@RAW@@"
    return json.dumps(d).replace('"@@RAW@@"', raw)


def refused(r: httpx.Response, *statuses: int, field: str | None = None) -> dict:
    """The response is a 4xx in the documented shape; returns its ``error``."""
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    if statuses:
        assert r.status_code in statuses, (r.status_code, r.text[:300])
    body = r.json()
    assert set(body) == {"error"}, body
    err = body["error"]
    assert isinstance(err["code"], str) and isinstance(err["message"], str), err
    assert len(r.text) < 2000, "the answer should not echo the hostile input"
    if field is not None:
        assert field in err["message"], err
    return err


def still_serving(server) -> None:
    assert server.request("GET", "/api/health").status_code == 200


@pytest.fixture(scope="module")
def table(server) -> dict:
    return server.create("classic-canasta", players=2, seed=5)


def post(server, path: str, text: str | bytes, token: str | None = None) -> httpx.Response:
    return server.request("POST", path, token, content=text, headers=dict(JSON))


@pytest.mark.parametrize("raw", ["Infinity", "-Infinity", "NaN", "1e400", BIG, "-" + BIG],
                         ids=lambda r: r[:10])
def test_numbers_in_an_action(server, table, raw):
    text = '{"action": "draw", "version": ' + raw + "}"
    refused(post(server, f"/api/tables/{table['table']}/actions", text,
                 table["seats"][0]["token"]), 400, 422, field="version")
    still_serving(server)


@pytest.mark.parametrize("field", ["players", "seed", "bot_pause"])
@pytest.mark.parametrize("raw", ["Infinity", "NaN", "1e400", BIG], ids=lambda r: r[:10])
def test_numbers_in_a_new_table(server, field, raw):
    text = _with_raw({"game": "classic-canasta", field: 0}, (field,), raw)
    refused(post(server, "/api/tables", text), 400, 422, field=field)
    refused(post(server, "/api/tables",
                 _with_raw({"game": "classic-canasta", "options": {"target_score": 1}},
                           ("options", "target_score"), raw)), 400, 422, field="target_score")
    still_serving(server)


@pytest.mark.parametrize("field", ["seed", "players", "dealer"])
@pytest.mark.parametrize("raw", ["Infinity", "-Infinity", "NaN", "1e400", BIG],
                         ids=lambda r: r[:10])
def test_numbers_in_a_replayed_record(server, field, raw):
    text = _with_raw({"record": _record(), "step": 1}, ("record", field), raw)
    refused(post(server, "/api/replay", text), 400, 422, field=field)
    still_serving(server)


@pytest.mark.parametrize("depth", [1000, 100_000])
def test_deep_nesting(server, table, depth):
    deep = "[" * depth + "]" * depth
    refused(post(server, "/api/replay", _with_raw({"record": _record()}, ("record", "result"),
                                                   deep)), 400, 413)
    refused(post(server, "/api/replay", '{"record": ' + '{"a": ' * depth + "{}"
                 + "}" * depth + "}"), 400, 413)
    refused(post(server, "/api/tables", '{"game": ' + deep + "}"), 400, 413)
    refused(post(server, f"/api/tables/{table['table']}/actions",
                 '{"action": "draw", "version": ' + deep + "}", table["seats"][0]["token"]),
            400, 413)
    refused(post(server, f"/api/tables/{table['table']}/seats/1",
                 '{"kind": ' + deep + "}", table["creator_token"]), 400, 413)
    still_serving(server)


def test_record_with_an_object_for_a_card_or_name(server):
    rec = _record()
    for bad in ({**rec, "game": {"a": 1}}, {**rec, "actions": [{"a": 1}]},
                {**rec, "options": [1, 2]}, {**rec, "seats": {"a": [1]}},
                {**rec, "players": "many"}):
        refused(server.request("POST", "/api/replay", json={"record": bad}), 422)
    still_serving(server)


@pytest.mark.parametrize("seat", [BIG, "abc", "1.5", "-" + BIG, "Infinity"],
                         ids=lambda s: s[:10])
def test_path_parameters(server, table, seat):
    r = server.request("POST", f"/api/tables/{table['table']}/seats/{seat}",
                       table["creator_token"], json={"kind": "bot", "bot": "random"})
    err = refused(r, 422)
    assert err["code"] == "malformed" and "seat" in err["message"]
    still_serving(server)


def test_unknown_api_paths_use_the_documented_shape(server):
    err = refused(server.request("GET", "/api/no-such-thing"), 404)
    assert err["code"] == "not_found"
    # a page that does not exist is still the static files' plain 404
    assert server.request("GET", "/no-such-page.html").status_code == 404


def test_websocket_numbers_and_nesting(server, table):
    ws = SeatSocket(server, table["table"], table["seats"][1]["token"])
    try:
        assert ws.recv()["type"] == "welcome"
        for raw in ['{"type": "action", "action": "draw", "version": ' + BIG + "}",
                    '{"type": "action", "action": "draw", "version": Infinity}',
                    '{"type": "action", "action": "draw", "version": 1e400}',
                    '{"type": "ping", "id": ' + "[" * 5000 + "]" * 5000 + "}"]:
            ws.send(raw)
            m = ws.until(lambda m: m.get("type") in ("error", "refused"))
            assert m["type"] == "error" and m["code"] == "malformed", m
        ws.send({"type": "ping", "id": 7})
        assert ws.until(lambda m: m.get("type") == "pong")["id"] == 7
    finally:
        ws.close()
