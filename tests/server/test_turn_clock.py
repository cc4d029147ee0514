"""The turn clock, the stand-in bot's takeovers and the bot watchdog, on a real server.

The server runs with ``--min-clock 1`` (clocks and disconnect timeouts of a second),
``--bot-time-budget 0.5`` and ``--bots-from tests/server/misbehaving_bots.py``, which adds bots
that raise, answer an illegal move, or sleep past the budget (``test:raises``,
``test:illegal``, ``test:slow``).  Nothing of the server is mocked: the misbehaving bots are
seated as any bot is.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from meldhall import new_game

from .conftest import Server, SeatSocket

HERE = Path(__file__).resolve().parent
EXTRA = ("--min-clock", "1", "--bot-time-budget", "0.5", "--hand-end-wait", str(4.0),
         "--bots-from", str(HERE / "misbehaving_bots.py"))
HAND_END_WAIT = 4.0
# a deck index (7H/1) or a refused move's words in a notice would show a hidden card
CARD = re.compile(r"(?<![0-9A-Z])(?:10|[2-9AKQJ])[SHDC]/\d+\b")


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory) -> Server:
    folder = tmp_path_factory.mktemp("clock")
    srv = Server(f"sqlite:///{folder / 'meldhall.db'}", folder / "server.log", EXTRA).start()
    yield srv
    srv.stop()


def seed_where_seat0_starts(players: int = 4) -> int:
    return next(s for s in range(1, 500)
                if new_game("classic-canasta", players=players, seed=s).to_act == (0,))


def alice_and_three_bots(server: Server, turn_clock: float) -> dict:
    """A Classic table where Alice (seat 0, a person) decides first, three heuristic bots,
    the turn clock ``turn_clock`` seconds and the heuristic as the stand-in."""
    return server.create("classic-canasta", seats=[{"kind": "human", "name": "Alice"}]
                         + [{"kind": "bot", "bot": "heuristic"}] * 3,
                         seed=seed_where_seat0_starts(), bot_pause=0.05,
                         turn_clock=turn_clock, takeover_bot="heuristic")


def summary(server: Server, t: dict) -> dict:
    r = server.request("GET", f"/api/tables/{t['table']}", t["creator_token"])
    assert r.status_code == 200, r.text
    return r.json()


def common(server: Server, t: dict) -> dict:
    return server.view(t["table"], t["spectator_token"])["common"]


def wait_for(what: str, fn, timeout: float = 30.0, step: float = 0.05):
    """``fn()``'s first truthy value, polled; fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = fn()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(step)


def notices(server: Server, t: dict, kind: str | None = None) -> list[dict]:
    return [e for e in common(server, t)["events"] if kind is None or e["kind"] == kind]


def take_back(server: Server, t: dict, token: str):
    return server.request("POST", f"/api/tables/{t['table']}/take-back", token)


# ------------------------------------------------------------------------- the watchdog
@pytest.mark.parametrize("bot,why", [
    ("test:raises", "failed (RuntimeError)"),
    ("test:illegal", "was illegal"),
    ("test:slow", "took too long (over 0.5 s)"),
])
def test_a_misbehaving_bot_does_not_stall_its_table(clock_server, bot, why):
    """Seat 0's bot raises, answers a move the rules refuse (CC-5.2, CC-5.5), or sleeps 3 s
    against a 0.5 s budget: each time the heuristic's move is played for it, a public notice
    names the seat's player and the move played, and the server's log says why."""
    srv = clock_server
    seed = seed_where_seat0_starts()
    t = srv.create("classic-canasta", seats=[{"kind": "bot", "bot": bot, "name": "Rex"}]
                   + [{"kind": "bot", "bot": "heuristic"}] * 3, seed=seed, bot_pause=0)
    # two of seat 0's decisions replaced, and the table moved on past them
    found = wait_for("two replaced decisions",
                     lambda: len(notices(srv, t, "watchdog")) >= 2 and notices(srv, t, "watchdog"),
                     timeout=60)
    for e in found:
        assert e["seat"] == 0
        # (a private move, staging, is not named: only its seat may know it)
        assert (e["text"].startswith(f"Rex's move {why}; the heuristic played ")
                or e["text"] == f"Rex's move {why}; the heuristic's move was played instead"), e
        assert not CARD.findall(e["text"])
        # the refused move is not named (it may show a card of the bot's hand)
        assert "discard" not in e["text"].split(";")[0] and "draw" not in e["text"].split(";")[0]
    # the move the notice names is the one seat 0 played at that version
    c = common(srv, t)
    last = [e for e in c["events"] if e["kind"] == "watchdog"][-1]
    back = c["version"] - last["version"]
    if back < len(c["recent"]) and "heuristic played" in last["text"]:
        entry = c["recent"][-1 - back]
        assert entry["seat"] == 0 and last["text"].endswith(f"played {entry['action']}")
    assert c["error"] is None
    start = c["version"]
    wait_for("the table to move on", lambda: common(srv, t)["version"] > start + 3, timeout=60)
    log = srv.log_path.read_text()
    assert {"test:raises": "raised", "test:illegal": "refused: CC-5.",
            "test:slow": "no decision within 0.5 s"}[bot] in log
    if bot == "test:slow":
        # the stuck bot thread was replaced, so the server's other cheap bots do not wait
        health = srv.request("GET", "/api/health").json()
        assert health["bot_pool"]["threads_replaced"] >= 1
    srv.request("POST", f"/api/tables/{t['table']}/seats/0", t["creator_token"],
                json={"kind": "human"})


def test_a_misbehaving_bot_plays_a_whole_hand(clock_server):
    """A table whose every seat but one raises at each decision still finishes its hand."""
    srv = clock_server
    t = srv.create("classic-canasta", seats=[{"kind": "bot", "bot": "test:raises"}] * 3
                   + [{"kind": "bot", "bot": "heuristic"}], seed=9, bot_pause=0)
    wait_for("a scored hand", lambda: summary(srv, t)["hands_scored"] >= 1, timeout=90)
    texts = [e["text"] for e in notices(srv, t, "watchdog")]
    pattern = (r"Bot [012]'s move failed \(RuntimeError\); the heuristic"
               r"( played \S|'s move was played instead)")
    assert texts and [x for x in texts if not re.match(pattern, x)] == []
    for seat in range(4):
        srv.request("POST", f"/api/tables/{t['table']}/seats/{seat}", t["creator_token"],
                    json={"kind": "human"})


# ------------------------------------------------------------------------- the clock
def test_the_clock_runs_out_a_bot_plays_then_the_player_takes_the_seat_back(clock_server):
    srv = clock_server
    t = alice_and_three_bots(srv, turn_clock=2)
    alice = t["seats"][0]["token"]
    assert t["clock"] == {"turn_clock": 2.0, "disconnect_timeout": 60.0,
                          "takeover_bot": "heuristic", "takeover_level": "heuristic"}
    ws = SeatSocket(srv, t["table"], alice)           # Alice is here: only her clock runs
    first = ws.state()
    assert first["common"]["clock"]["turn_clock"] == 2.0
    left = first["seats"][0]["clock_left"]
    assert 0 < left <= 2.0
    assert all(s["clock_left"] is None for s in first["seats"][1:])    # bots have none
    # the clock runs out: the stand-in bot plays for Alice, and the table says so
    taken = ws.until(lambda m: m.get("type") == "state" and m["seats"][0]["takeover"], 15)
    assert taken["seats"][0]["kind"] == "bot" and taken["seats"][0]["bot"] == "heuristic"
    assert taken["seats"][0]["takeover"] == "clock" and taken["seats"][0]["connected"]
    texts = [e["text"] for e in taken["common"]["events"]]
    assert "Bot (heuristic) plays for Alice: the clock ran out (2 s)" in texts
    # it plays her seat: her draw is made for her
    wait_for("a move for Alice", lambda: any(r["seat"] == 0 for r in common(srv, t)["recent"]))
    r = srv.request("GET", f"/api/tables/{t['table']}/hint", alice)
    assert r.status_code == 403 and r.json()["error"]["code"] == "seat_is_bot"
    # only her own seat's token takes it back
    for token in (t["spectator_token"], t["creator_token"]):
        r = take_back(srv, t, token)
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_seat", r.text
    r = take_back(srv, t, t["seats"][1]["token"])        # a bot's seat from the start
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_taken_over", r.text
    r = take_back(srv, t, alice)
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][0]
    assert seat["kind"] == "human" and seat["takeover"] is None and seat["bot"] is None
    assert notices(srv, t)[-1]["text"] == "Alice takes the seat back"
    r = take_back(srv, t, alice)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_taken_over"
    # control is hers at once: her next decision waits for her (a whole clock), and her move
    # is accepted
    view = wait_for("Alice's turn", lambda: (v := srv.view(t["table"], alice))["common"]
                    ["to_act"] == [0] and v["seats"][0]["kind"] == "human" and v, step=0.01)
    assert view["seats"][0]["clock_left"] > 0 and view["view"]["legal"]
    r = srv.act(t["table"], alice, view["view"]["legal"][0], view["view"]["version"])
    assert r.status_code == 200, r.text
    ws.close()
    srv.request("POST", f"/api/tables/{t['table']}/seats/0", t["creator_token"],
                json={"kind": "bot", "bot": "heuristic"})


def test_a_seats_clock_starts_when_its_player_opens_the_table(clock_server):
    """The clock of a seat nobody has opened does not run (a tester lost the first turn while
    copying the invite links); the first opening gives a whole clock for the decision at
    hand."""
    srv = clock_server
    t = alice_and_three_bots(srv, turn_clock=2)
    time.sleep(2.5)                                   # longer than the clock
    s = summary(srv, t)
    assert s["seats"][0]["kind"] == "human" and s["seats"][0]["takeover"] is None
    spectator = srv.view(t["table"], t["spectator_token"])
    assert spectator["seats"][0]["clock_left"] is None      # not started
    alice = srv.view(t["table"], t["seats"][0]["token"])     # Alice opens it
    assert 1.5 < alice["seats"][0]["clock_left"] <= 2.0      # a whole clock
    taken = wait_for("the clock to run out", lambda: summary(srv, t)["seats"][0]["takeover"],
                     timeout=15)
    assert taken == "clock"
    srv.request("POST", f"/api/tables/{t['table']}/seats/0", t["creator_token"],
                json={"kind": "bot", "bot": "heuristic"})


def test_the_clock_stands_still_while_the_seats_hint_is_worked_out(clock_server):
    """A hint takes its time (about a second, the search bot's normal level): that time is
    not the player's.  The seat's clock resumes where it stood when the hint came back (a
    tester's own seat was taken over by its 10 s clock while a 6 s hint was worked out)."""
    srv = clock_server
    t = alice_and_three_bots(srv, turn_clock=4)
    alice = t["seats"][0]["token"]
    before = srv.view(t["table"], alice)["seats"][0]["clock_left"]
    started = time.monotonic()
    r = srv.request("GET", f"/api/tables/{t['table']}/hint", alice)
    took = time.monotonic() - started
    assert r.status_code == 200, r.text
    view = srv.view(t["table"], alice)
    seat = view["seats"][0]
    assert seat["kind"] == "human" and seat["takeover"] is None
    # the hint's time (``took``, nearly all of it the search) is given back: less than the
    # requests' own overhead is gone from the clock
    assert seat["clock_left"] >= before - 0.4, (before, seat["clock_left"], took)
    # the same hint again is cached (no time to give back) and the clock runs on
    r = srv.request("GET", f"/api/tables/{t['table']}/hint", alice)
    assert r.status_code == 200
    taken = wait_for("the clock to run out", lambda: summary(srv, t)["seats"][0]["takeover"],
                     timeout=15)
    assert taken == "clock"
    srv.request("POST", f"/api/tables/{t['table']}/seats/0", t["creator_token"],
                json={"kind": "bot", "bot": "heuristic"})


def test_a_disconnected_seat_is_played_after_its_timeout(clock_server):
    """No clock, a disconnect timeout of 1 s: Alice (never connected) is played by the bot
    once she has been away a second at her turn; Bob, connected, is waited for however long
    he takes, until he leaves."""
    srv = clock_server
    seed = seed_where_seat0_starts()
    t = srv.create("classic-canasta", seats=[{"kind": "human", "name": "Alice"},
                                             {"kind": "human", "name": "Bob"}]
                   + [{"kind": "bot", "bot": "heuristic"}] * 2, seed=seed, bot_pause=0,
                   disconnect_timeout=1, takeover_bot="heuristic")
    assert t["clock"]["turn_clock"] is None and t["clock"]["disconnect_timeout"] == 1.0
    bob = SeatSocket(srv, t["table"], t["seats"][1]["token"])
    first = bob.state()
    assert first["seats"][0]["clock_left"] is None            # no clock at this table
    taken = bob.until(lambda m: m.get("type") == "state" and m["seats"][0]["takeover"], 15)
    assert taken["seats"][0]["takeover"] == "disconnected"
    assert not taken["seats"][0]["connected"]
    assert ("Bot (heuristic) plays for Alice: disconnected for over 1 s"
            in [e["text"] for e in taken["common"]["events"]])
    # Bob's turn comes; he is connected, so the table waits for him
    waiting = bob.until(lambda m: m.get("type") == "state" and m["common"]["to_act"] == [1])
    time.sleep(1.5)                              # longer than the timeout
    c = common(srv, t)
    assert c["to_act"] == [1] and c["version"] == waiting["common"]["version"]
    assert summary(srv, t)["seats"][1]["kind"] == "human"
    bob.close()                                  # he leaves: a second later the bot plays
    seat = wait_for("Bob's takeover", lambda: summary(srv, t)["seats"][1]["takeover"])
    assert seat == "disconnected"
    assert notices(srv, t, "takeover")[-1]["text"] == (
        "Bot (heuristic) plays for Bob: disconnected for over 1 s")
    wait_for("the table to move on", lambda: common(srv, t)["version"] > c["version"])


def test_clock_options_are_checked(clock_server):
    srv = clock_server
    base = {"game": "classic-canasta", "seats": [{"kind": "human"}] * 4}
    for extra, fragment in [({"turn_clock": 0.5}, "turn_clock: 0.5 s is out of range"),
                            ({"disconnect_timeout": 0.2}, "disconnect_timeout"),
                            ({"turn_clock": 5000}, "turn_clock"),
                            ({"takeover_bot": "ismcts:100000"}, "unknown bot"),
                            ({"takeover_bot": "test:raises", "game": "shanghai-rummy"},
                             "Classic Canasta only")]:
        r = srv.request("POST", "/api/tables", json={**base, **extra})
        assert r.status_code == 422 and fragment in r.json()["error"]["message"], r.text
    # no clock unless asked for: no takeovers at all
    t = srv.create("classic-canasta", seats=[{"kind": "human"}] * 4)
    assert t["clock"] == {"turn_clock": None, "disconnect_timeout": None,
                          "takeover_bot": "ismcts", "takeover_level": "normal"}
    # a clock brings the server's disconnect timeout; 0 turns either off
    t = srv.create("classic-canasta", seats=[{"kind": "human"}] * 4, turn_clock=30)
    assert t["clock"]["turn_clock"] == 30 and t["clock"]["disconnect_timeout"] == 60
    t = srv.create("classic-canasta", seats=[{"kind": "human"}] * 4, turn_clock=30,
                   disconnect_timeout=0)
    assert t["clock"]["disconnect_timeout"] is None
    config = srv.request("GET", "/api/config").json()
    assert config["clock_choices"] == [1, 30, 60, 120, 300] and config["min_clock"] == 1


def test_a_seat_the_creator_handed_over_is_not_taken_back_by_its_player(clock_server):
    srv = clock_server
    t = srv.create("classic-canasta", seats=[{"kind": "human", "name": "Ann"}] * 4,
                   turn_clock=30)
    r = srv.request("POST", f"/api/tables/{t['table']}/seats/2", t["creator_token"],
                    json={"kind": "bot", "bot": "heuristic"})
    assert r.status_code == 200 and r.json()["seats"][2]["takeover"] is None
    r = take_back(srv, t, t["seats"][2]["token"])
    assert r.status_code == 409 and "creator" in r.json()["error"]["message"]


# ------------------------------------------------------------------------- restarts
def test_a_restart_during_a_takeover_loses_nothing(make_server, database_url):
    """SIGKILL while the stand-in bot plays for Alice (table A) and just after Bob took his
    seat back (table B): after the restart Alice's seat is still the bot's, with its reason
    and notice, and the bot plays on; Bob's seat is his, his clock running again."""
    srv = make_server(database_url, *EXTRA)
    seed = seed_where_seat0_starts()
    tables = [srv.create("classic-canasta", seats=[{"kind": "human", "name": name}]
                         + [{"kind": "bot", "bot": "heuristic"}] * 3, seed=seed,
                         bot_pause=0.05, turn_clock=3, takeover_bot="heuristic")
              for name in ("Alice", "Bob")]
    a, b = tables
    for t in tables:
        srv.view(t["table"], t["seats"][0]["token"])  # the player opens it: the clock runs
        wait_for("the takeover", lambda t=t: summary(srv, t)["seats"][0]["takeover"])
    wait_for("a move for Alice", lambda: any(r["seat"] == 0 for r in common(srv, a)["recent"]))
    r = take_back(srv, b, b["seats"][0]["token"])
    assert r.status_code == 200, r.text
    before = common(srv, a)
    srv.kill()                                      # SIGKILL: no shutdown of any kind

    print("T-kill", time.monotonic())
    srv2 = make_server(database_url, *EXTRA)
    print("T-started", time.monotonic())
    s = summary(srv2, a)
    assert s["seats"][0]["kind"] == "bot" and s["seats"][0]["takeover"] == "clock"
    assert s["clock"] == before["clock"]
    after = common(srv2, a)
    assert after["version"] >= before["version"]
    assert [e for e in after["events"] if e["kind"] == "takeover"] == [
        e for e in before["events"] if e["kind"] == "takeover"]
    s = summary(srv2, b)
    assert s["seats"][0]["kind"] == "human" and s["seats"][0]["takeover"] is None
    assert [e["text"] for e in common(srv2, b)["events"]] == [
        "Bot (heuristic) plays for Bob: the clock ran out (3 s)", "Bob takes the seat back"]
    print("T-playon", time.monotonic())
    wait_for("the bot to play on", lambda: common(srv2, a)["version"] > after["version"] + 2)
    # Bob's clock runs again after the restart, once his page is back: at his turn the bot
    # takes over once more
    srv2.view(b["table"], b["seats"][0]["token"])
    wait_for("Bob's next takeover", lambda: summary(srv2, b)["seats"][0]["takeover"],
             timeout=60)


# ------------------------------------------------------------------ the hand's end
def _two_people_at_a_hand_end(srv: Server) -> tuple[dict, list[str], int]:
    """A Classic 2-player table of two people, played by the heuristic (moves sent over HTTP)
    to the end of its first hand: ``(table, tokens, the next dealer's seat)``."""
    import random

    from meldhall.bots.heuristic import heuristic_bot

    seed = 5
    t = srv.create("classic-canasta", seats=[{"kind": "human", "name": "Ann"},
                                             {"kind": "human", "name": "Bob"}],
                   seed=seed, bot_pause=0.05)
    tokens = [s["token"] for s in t["seats"]]
    st, bot, rng = new_game("classic-canasta", players=2, seed=seed), \
        heuristic_bot("classic-canasta"), random.Random(seed)
    while st.phase != "hand_end":
        seat = st.to_act[0]
        text = str(bot.choose(st.observation(seat), st.legal_actions(seat), rng))
        version = srv.view(t["table"], tokens[seat])["view"]["version"]
        r = srv.act(t["table"], tokens[seat], text, version)
        assert r.status_code == 200, (text, r.text)
        st = st.apply_text(text, seat)
    return t, tokens, st.to_act[0]


def test_a_bot_deals_the_next_hand_only_once_the_people_have_read_the_score(clock_server):
    """A tester found the bots playing the next hand under the score it was reading: at a
    hand's end whose next deal is a bot's, the bot waits for every person connected to close
    the score (``ready``), and deals at once after; a person who never does is waited for
    ``--hand-end-wait`` seconds at most (so no table stalls)."""
    srv = clock_server
    t, tokens, dealer = _two_people_at_a_hand_end(srv)
    reader = 1 - dealer
    ws = SeatSocket(srv, t["table"], tokens[reader])
    at_end = ws.state()
    assert at_end["common"]["phase"] == "hand_end"
    # the next dealer's seat goes to a bot: it waits for the reader
    r = srv.request("POST", f"/api/tables/{t['table']}/seats/{dealer}", t["creator_token"],
                    json={"kind": "bot", "bot": "heuristic"})
    assert r.status_code == 200, r.text
    time.sleep(1.5)   # many times the bot's pause (0.05 s, four times at a hand's end)
    assert common(srv, t)["phase"] == "hand_end"
    # a stale version is not a reading of this score
    ws.send({"type": "ready", "version": at_end["common"]["version"] - 1})
    time.sleep(0.5)
    assert common(srv, t)["phase"] == "hand_end"
    began = time.monotonic()
    ws.send({"type": "ready", "version": at_end["common"]["version"]})
    wait_for("the next deal", lambda: common(srv, t)["phase"] != "hand_end", timeout=10,
             step=0.02)
    assert time.monotonic() - began < 2.0
    ws.close()


def test_the_next_deal_waits_for_a_reader_no_longer_than_the_hand_end_wait(clock_server):
    """A person who never closes the score holds the next deal ``--hand-end-wait`` seconds
    (4 here) from the hand's end, then the bot deals."""
    srv = clock_server
    t, tokens, dealer = _two_people_at_a_hand_end(srv)
    ws = SeatSocket(srv, t["table"], tokens[1 - dealer])
    ws.state()
    began = time.monotonic()
    r = srv.request("POST", f"/api/tables/{t['table']}/seats/{dealer}", t["creator_token"],
                    json={"kind": "bot", "bot": "heuristic"})
    assert r.status_code == 200, r.text
    wait_for("the next deal", lambda: common(srv, t)["phase"] != "hand_end", timeout=20,
             step=0.05)
    # counted from the hand's end, which was before the seat was handed over
    assert time.monotonic() - began <= HAND_END_WAIT + 1.5
    ws.close()
    # with nobody connected the bot deals after its pause: nobody is reading
    t2, tokens2, dealer2 = _two_people_at_a_hand_end(srv)
    began = time.monotonic()
    srv.request("POST", f"/api/tables/{t2['table']}/seats/{dealer2}", t2["creator_token"],
                json={"kind": "bot", "bot": "heuristic"})
    wait_for("the next deal", lambda: common(srv, t2)["phase"] != "hand_end", timeout=10,
             step=0.02)
    assert time.monotonic() - began < 2.0
