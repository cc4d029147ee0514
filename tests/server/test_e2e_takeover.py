"""End to end in Debian's Chromium (Playwright): the turn clock runs out, the stand-in bot
plays for the player, and the player takes the seat back.

The lobby offers the turn clock (off with one person, two minutes with friends by default);
this server allows clocks from 5 s (``--min-clock 5``) so the test runs in seconds.
Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from meldhall import new_game

from .conftest import CHROMIUM, Server


pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason=f"no Chromium at {CHROMIUM} (.ci/run installs it)")


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory) -> Server:
    folder = tmp_path_factory.mktemp("clock-e2e")
    srv = Server(f"sqlite:///{folder / 'meldhall.db'}", folder / "server.log",
                 ("--min-clock", "5")).start()
    yield srv
    srv.stop()



def test_the_clock_runs_out_a_bot_plays_for_me_and_i_take_my_seat_back(clock_server, browser,
                                                                        artifacts):
    from playwright.sync_api import expect

    srv = clock_server
    seed = next(s for s in range(1, 500)
                if new_game("classic-canasta", players=4, seed=s).to_act == (0,))
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30000)

    # the lobby: the clock is off with one person at the table, two minutes with friends
    page.goto(srv.base + "/")
    page.select_option("#game", "classic-canasta")
    page.select_option("#players", "4")
    page.fill("#seat-0-name", "Alice")
    for i in (1, 2, 3):
        page.select_option(f"#seat-{i}-who", "bot:heuristic")
    expect(page.locator("#clock")).to_have_value("")
    expect(page.locator("#stand-in-field")).to_be_hidden()
    page.select_option("#seat-1-who", "human")
    expect(page.locator("#clock")).to_have_value("120")
    page.select_option("#seat-1-who", "bot:heuristic")
    expect(page.locator("#clock")).to_have_value("")
    values = page.locator("#clock option").evaluate_all("os => os.map(o => o.value)")
    assert values == ["", "5", "30", "60", "120", "300"]
    page.select_option("#clock", "5")
    expect(page.locator("#stand-in-field")).to_be_visible()
    expect(page.locator("#stand-in")).to_have_value("ismcts")        # normal level
    page.select_option("#stand-in", "heuristic")
    page.select_option("#pause", "0.3")
    page.fill("#seed", str(seed))
    page.click("#create-btn")
    expect(page.locator("#created")).to_contain_text("Table created")
    page.click("#open-my-seat")
    expect(page.locator("#conn")).to_contain_text("connected as seat 0")
    frag = dict(part.split("=", 1) for part in page.url.split("#", 1)[1].split("&"))
    table, token = frag["t"], frag["k"]
    assert srv.view(table, token)["common"]["clock"]["turn_clock"] == 5

    # my decision: the clock counts down; I wait
    expect(page.locator("#turn-clock")).to_contain_text("Your clock:")
    expect(page.locator('#actions button.primary[data-action="draw"]')).to_be_visible()
    # it runs out: a bot plays for me, the page says so and offers my seat back
    banner = page.locator("#takeover-banner")
    expect(banner).to_contain_text("A bot is playing for you (your clock ran out).")
    expect(page.locator("#take-back")).to_have_text("Take my seat back")
    expect(page.locator("#actions")).to_be_hidden()
    # the header no longer says "Your move", and my plate says who plays my seat
    expect(page.locator(".turn.mine")).to_have_count(0)
    expect(page.locator('.player.me')).to_contain_text("Bot (heuristic) playing for you")
    expect(page.locator("#table-notices")).to_contain_text(
        "Bot (heuristic) plays for Alice: the clock ran out (5 s)")
    assert srv.view(table, token)["seats"][0]["takeover"] == "clock"
    page.screenshot(path=str(artifacts / "e2e-takeover.png"), full_page=True)
    # the button stays the same element while the bots play on (a button rebuilt at every
    # move lost the click that landed during a re-render: a tester)
    button = page.locator("#take-back").element_handle()
    version = srv.view(table, token)["common"]["version"]
    deadline = time.monotonic() + 20
    while srv.view(table, token)["common"]["version"] < version + 2:
        assert time.monotonic() < deadline, "the bots did not play on"
        time.sleep(0.05)
    page.wait_for_timeout(300)  # the page has the new states
    assert button.evaluate("b => b.isConnected && b === document.getElementById('take-back')")

    # I take it back: at once, with a whole clock for the decision at hand
    page.click("#take-back")
    expect(banner).to_have_count(0)
    expect(page.locator("#table-notices")).to_contain_text("Alice takes the seat back")
    seat = srv.view(table, token)["seats"][0]
    assert seat["kind"] == "human" and seat["takeover"] is None
    page.screenshot(path=str(artifacts / "e2e-take-back.png"), full_page=True)
    assert not errors, errors
    page.close()
