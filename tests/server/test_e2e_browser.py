"""End to end in a real browser: Debian's Chromium, headless, driven by Playwright.

Create a Classic Canasta table with three bots in the lobby, open the seat, play a full
turn by clicking (draw, select cards, meld, discard), see a refused move's rule ID, and save
screenshots under tests/artifacts/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from meldhall import new_game

from .conftest import CHROMIUM
from meldhall.cards import parse_card
from meldhall.cli.render import pretty_notation as shown


pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason=f"no Chromium at {CHROMIUM} (.ci/run installs it)")


def open_seat_against_bots(browser, server, seed: int):
    """A Classic Canasta table (seat 0 human, three heuristic bots) opened at seat 0's link:
    the table, the page and the list its page errors go to."""
    from playwright.sync_api import expect

    t = server.create("classic-canasta", seats=[{"kind": "human", "name": "Tester"}]
                      + [{"kind": "bot", "bot": "heuristic"}] * 3, seed=seed, bot_pause=0.3)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30000)
    page.goto(server.base + t["seats"][0]["url"])
    expect(page.locator("#conn")).to_contain_text("connected as seat 0")
    return t, page, errors


def open_humans_table(browser, server, game: str, seed: int, seat: int):
    """A table of three human seats (Ann, Bob, Cleo) opened at ``seat``'s link: the table,
    the page and the list its page errors go to."""
    from playwright.sync_api import expect

    t = server.create(game, seats=[{"kind": "human", "name": n}
                                   for n in ("Ann", "Bob", "Cleo")], seed=seed)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20000)
    page.goto(server.base + t["seats"][seat]["url"])
    expect(page.locator("#conn")).to_contain_text(f"connected as seat {seat}")
    return t, page, errors

def seed_with_a_first_meld() -> tuple[int, str]:
    """A seed where seat 0 moves first and, after drawing, can stage one meld that makes the
    minimum on its own (the side's first melding is staged, then "meld done", CC-6.9)."""
    for seed in range(1, 2000):
        st = new_game("classic-canasta", players=4, seed=seed)
        if st.to_act != (0,):
            continue
        st = st.apply_text("draw", 0)
        stages = sorted((str(a) for a in st.legal_actions(0) if str(a).startswith("stage ")),
                        key=len)
        for stage in stages:
            if "meld done" in map(str, st.apply_text(stage, 0).legal_actions(0)):
                return seed, stage
    raise AssertionError("no seed found")


def rank_of(physical: str) -> str:
    c = parse_card(physical)
    s = str(c)
    return "JK" if s == "JK" else s[:-1]



def test_play_a_turn_in_the_browser(server, browser, artifacts):
    from playwright.sync_api import expect

    seed, meld = seed_with_a_first_meld()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20000)

    # the lobby: Classic Canasta, four players, seat 0 a person, three bots
    page.goto(server.base + "/")
    page.select_option("#game", "classic-canasta")
    page.select_option("#players", "4")
    page.fill("#seat-0-name", "Tester")
    for i in (1, 2, 3):
        page.select_option(f"#seat-{i}-who", "bot:heuristic")
    page.select_option("#pause", "0.3")
    page.fill("#seed", str(seed))
    # a house rule with a fixed set of values is a select box of them
    page.click("#options-box summary")
    tie = page.locator("#opt-tie_rule")
    assert tie.evaluate("e => e.tagName") == "SELECT"
    # its values are the option's (as JSON), shown in words (the lobby explains each rule)
    values = tie.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert sorted(values) == ['"play_on"', '"shared"']
    assert all(t.strip() for t in tie.locator("option").all_inner_texts())
    page.select_option("#opt-tie_rule", value='"shared"')
    page.click("#create-btn")
    expect(page.locator("#created")).to_contain_text("Table created")
    expect(page.locator("#mine li")).to_have_count(1)
    # "Your tables" says who plays, and keeps the spectators' link (a tester found two tables
    # of one game alike, and no spectator link for a table of one person)
    expect(page.locator("#mine li .table-seats")).to_contain_text(re.compile(
        r"· \d players: .*\(heuristic\)"))
    expect(page.locator("#mine li details summary")).to_have_text("spectator link")
    page.click("#open-my-seat")

    # the table: my move, draw
    expect(page.locator("#conn")).to_contain_text("connected as seat 0")
    frag = dict(part.split("=", 1) for part in page.url.split("#", 1)[1].split("&"))
    assert server.view(frag["t"], frag["k"])["common"]["options"]["tie_rule"] == "shared"
    expect(page.locator(".turn.mine")).to_be_visible()
    # by keyboard: Enter on the draw button; the focus stays in the hand or the moves (it
    # used to fall back to the page's body, and the player had to Tab from the top again)
    page.focus('button[data-action="draw"]')
    page.keyboard.press("Enter")
    expect(page.locator("#log")).to_contain_text("drew")
    expect(page.locator("#hand .card-btn:focus, #actions button:focus")).to_have_count(1)

    # select the meld's cards in the hand, then its button appears
    wanted = meld.split()[1:]
    chosen: list[str] = []
    hand = page.locator("#hand button.card-btn")
    expect(hand).to_have_count(12)
    cards = [hand.nth(i).get_attribute("data-card") for i in range(hand.count())]
    for token in wanted:
        card = next(c for c in cards if c not in chosen and rank_of(c) == token)
        chosen.append(card)
        page.click(f'#hand button[data-card="{card}"]')
    for card in chosen:
        expect(page.locator(f'#hand button[data-card="{card}"]')).to_have_attribute(
            "aria-pressed", "true")
    page.click(f'#actions button.primary[data-action="{meld}"]')
    # staged (only this page sees it), then committed with "meld done"
    expect(page.locator("#staged .staged-meld")).to_have_count(1)
    page.click('#staged button[data-action="meld done"]')
    expect(page.locator("#melds")).to_contain_text(f"{wanted[0]} \u00d7")
    expect(page.locator("#log")).to_contain_text(shown("melded " + " ".join(wanted)))
    expect(page.locator("#staged")).to_have_count(0)

    # discard: select one card, press the discard button shown for it
    first = page.locator("#hand button.card-btn").first
    first.click()
    discard = page.locator('#actions button.primary[data-action^="discard"]').first
    text = discard.get_attribute("data-action")
    discard.click()
    # the log says it done, in one past-tense sentence ("discarded 7♥")
    expect(page.locator("#log")).to_contain_text(shown(text.replace("discard", "discarded", 1)))

    # the bots play; my move again: a refused move shows its rule ID
    expect(page.locator(".turn.mine")).to_be_visible(timeout=30000)
    page.fill("#typed-action", "discard 4")
    page.press("#typed-action", "Enter")
    refusal = page.locator("#refusal")
    expect(refusal).to_contain_text("Refused")
    expect(refusal.locator(".rule")).to_have_text(re.compile(r"^CC-\d+\.\d+"))
    # the rule ID links to the players' rule (a new tab): served, with no seed citations
    link = refusal.locator("a.rule-link").first
    href = link.get_attribute("href")
    rule = refusal.locator(".rule").inner_text()
    # the link carries the table's house rules, which the rule's page lists above it
    assert href.startswith(f"/api/rules/classic-canasta/{rule}?format=html&players=4&house=")
    assert link.get_attribute("target") == "_blank"
    rules_page = browser.new_page()
    rules_page.on("pageerror", lambda e: errors.append(str(e)))
    rules_page.goto(server.base + href)
    expect(rules_page.locator(f'p[id="{rule}"]')).to_contain_text(rule)
    expect(rules_page.locator(".table-house-rules")).to_contain_text("House rules at this table")
    assert "[seed" not in rules_page.content()
    rules_page.close()

    # keyboard: a card is a button; Space selects it, Escape clears the selection
    card = page.locator("#hand button.card-btn").nth(2)
    focused = card.get_attribute("data-card")
    card.focus()
    page.keyboard.press("Space")
    expect(page.locator("#hand button.card-btn.selected")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator("#hand button.card-btn.selected")).to_have_count(0)
    # the focus stays on the card it was on
    expect(page.locator(f'#hand button.card-btn[data-card="{focused}"]')).to_be_focused()
    # a turn by keyboard: draw, select a card, discard it; the focus stays in the hand or the
    # moves after each move, and after the bots' moves
    page.focus('button[data-action="draw"]')
    page.keyboard.press("Enter")
    expect(page.locator("#hand .card-btn:focus, #actions button:focus")).to_have_count(1)
    expect(page.locator('button[data-action="draw"]')).to_have_count(0)
    page.locator("#hand button.card-btn").first.focus()
    page.keyboard.press("Space")
    discard = page.locator('#actions button.primary[data-action^="discard"]').first
    discard.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#hand .card-btn:focus, #actions button:focus")).to_have_count(1)
    expect(page.locator(".turn.mine")).to_be_visible(timeout=30000)
    expect(page.locator("#hand .card-btn:focus, #actions button:focus")).to_have_count(1)
    page.click("#sort-suit")
    expect(page.locator("#sort-suit")).to_have_attribute("aria-pressed", "true")

    page.screenshot(path=str(artifacts / "e2e_table.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "e2e_table_phone.png"), full_page=True)
    page.goto(server.base + "/")
    expect(page.locator("#mine li")).to_have_count(1)
    page.screenshot(path=str(artifacts / "e2e_lobby_phone.png"), full_page=True)
    assert not errors, errors
    page.close()


def test_finished_game_download_and_replay(server, browser, artifacts):
    """The downloaded record is the server's text byte for byte, with a seed beyond 2**53 (which
    a JavaScript number would round), and it replays: in Python and on the replay page (from the
    table's "Replay it" link and from the downloaded file)."""
    import json
    import time

    from playwright.sync_api import expect

    from meldhall import load_record

    seed = 356418655901682182               # > 2**53 (the tester's table's seed)
    t = server.create("classic-canasta", seats=[{"kind": "bot", "bot": "heuristic"}] * 4,
                      seed=seed, options={"target_score": 100}, bot_pause=0)
    deadline = time.monotonic() + 60
    while not server.request("GET", f"/api/tables/{t['table']}",
                             t["creator_token"]).json()["finished"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    api_text = server.request("GET", f"/api/tables/{t['table']}/record",
                              t["creator_token"]).content
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20000)
    page.goto(server.base + t["spectator_url"])
    expect(page.locator("#finished")).to_contain_text("Game over")
    with page.expect_download() as dl:
        page.click("#download-record")
    path = Path(dl.value.path())
    assert path.read_bytes() == api_text
    record = json.loads(path.read_text())
    assert record["format"] == "meldhall-record" and record["actions"]
    assert record["seed"] == seed
    rec = load_record(path)
    assert rec.seed == seed and rec.final_state().is_terminal
    n = len(record["actions"])

    page.click("#finished a")
    expect(page.locator("#step-label")).to_contain_text(f"step 0 of {n}")
    page.click("#next")
    expect(page.locator("#step-label")).to_contain_text("step 1 of")
    expect(page.locator("#load-error")).to_have_text("")
    page.keyboard.press("End")
    expect(page.locator("#step-label")).to_contain_text(f"step {n} of")
    expect(page.locator("#sheet")).to_contain_text("Game over")
    page.select_option("#seat", "1")
    expect(page.locator("#hand-title")).to_contain_text("Hand of")
    page.screenshot(path=str(artifacts / "e2e_replay.png"), full_page=True)

    # the downloaded file, opened on the replay page
    page.goto(server.base + "/replay.html")
    page.set_input_files("#file", str(path))
    expect(page.locator("#step-label")).to_contain_text(f"step 0 of {n}")
    for i in range(1, 4):
        page.click("#next")
        expect(page.locator("#step-label")).to_contain_text(
            f"step {i} of {n} \u2014 {rec.actions[i - 1]}")
    expect(page.locator("#load-error")).to_have_text("")
    assert not errors, errors
    page.close()


def test_log_numbers_keep_every_digit(server, browser, tmp_path):
    """Past entry 99 the log's numbers used to lose their leading digits ("86." for 586): they
    sat in the list's padding.  A record of 700 random moves, shown at its last step."""
    import random

    from meldhall.record import Record, dump_record
    from meldhall.server.views import public_view

    from playwright.sync_api import expect

    rng = random.Random(5)
    state = new_game("railroad-canasta", players=4, seed=2**60 + 7)
    dealer = int(state.dealer)
    while len(state.history()) < 700 and not state.is_terminal:
        seat = state.to_act[0]
        state = state.apply(rng.choice(state.legal_actions(seat)), seat)
    path = tmp_path / "long.json"
    path.write_text(dump_record(Record.from_state(state, dealer)))
    total = public_view(state)["log_total"]
    assert total > 600
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(20000)
    page.goto(server.base + "/replay.html")
    page.set_input_files("#file", str(path))
    expect(page.locator("#step-label")).to_contain_text("step 0 of")
    page.keyboard.press("End")
    expect(page.locator("#log li").last.locator(".n")).to_have_text(f"{total}.")
    inside = page.evaluate("""() => {
        const box = document.querySelector('#log').getBoundingClientRect();
        return [...document.querySelectorAll('#log .n')].map((n) => {
            const r = n.getBoundingClientRect();
            return r.left >= box.left && n.scrollWidth <= n.clientWidth + 1; });
    }""")
    assert inside and all(inside)
    # a Railroad side scores dozens of lines: summed per rule, the lines folded away (the
    # sheet used to be thousands of pixels tall)
    expect(page.locator("#sheet details.all-lines").first).to_be_attached()
    assert page.locator("#sheet").bounding_box()["height"] < 1500
    page.close()


def test_the_end_of_a_hand_stays_readable(server, browser, artifacts):
    """When a hand ends the next one is dealt a moment later (a bot deals): the finished hand
    stays in a panel (who went out by name, the final melds, the score) until it is closed."""
    from playwright.sync_api import expect

    names = ["Ann", "Bob", "Cleo", "Dan"]
    t = server.create("classic-canasta", seats=[{"kind": "bot", "bot": "heuristic", "name": n}
                                                for n in names], bot_pause=0.05)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20000)
    page.goto(server.base + t["spectator_url"])
    panel = page.locator("#hand-over")
    expect(panel).to_be_hidden()
    expect(page.locator("#players")).to_contain_text("Ann")
    expect(page.locator("#me")).to_be_hidden()       # a spectator has no hand: no empty strip
    expect(panel).to_be_visible(timeout=90000)
    # the next hand is dealt (the bots play on) and the panel stays
    expect(page.locator("#header")).to_contain_text("hand 2", timeout=30000)
    for seat in range(4):           # stop the bots: every seat back to a person
        r = server.request("POST", f"/api/tables/{t['table']}/seats/{seat}", t["creator_token"],
                           json={"kind": "human"})
        assert r.status_code == 200
    expect(panel).to_be_visible()
    title = panel.locator("h2").inner_text()
    assert title.startswith("Hand 1: ") and "seat" not in title, title
    outcome = server.view(t["table"], t["spectator_token"])["common"]["outcomes"][0]
    if outcome["went_out"] is not None:
        assert title == f"Hand 1: {names[outcome['went_out']]} went out"
    assert "Ann & Cleo" in panel.inner_text() and "Bob & Dan" in panel.inner_text()
    page.screenshot(path=str(artifacts / "e2e_hand_over.png"), full_page=True)
    page.click("#hand-over-close")
    expect(panel).to_be_hidden()
    assert not errors, errors
    page.close()


def test_score_sheet_names_who_went_out(server, browser, tmp_path):
    """The breakdown says who went out by name (it used to say "(seat 0)")."""
    import random

    from meldhall.record import Record, dump_record

    from playwright.sync_api import expect

    rng = random.Random(3)
    state = new_game("shanghai-rummy", seed=11)
    dealer = int(state.dealer)
    while state.outcome is None:
        seat = state.to_act[0]
        state = state.apply(rng.choice(state.legal_actions(seat)), seat)
    oc = state.outcome
    assert oc.how == "went_out" and oc.went_out is not None
    names = [f"Name{i}" for i in range(state.players)]
    path = tmp_path / "deal.json"
    path.write_text(dump_record(Record.from_state(state, dealer, names)))
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(20000)
    page.goto(server.base + "/replay.html")
    page.set_input_files("#file", str(path))
    expect(page.locator("#step-label")).to_contain_text("step 0 of")
    page.keyboard.press("End")
    expect(page.locator("#sheet h4")).to_have_text(f"Deal 1: Name{oc.went_out} went out")
    # the header says what is next, not the phase's name ("deal_end")
    expect(page.locator("#header .turn")).to_have_text(
        f"Waiting for Name{state.to_act[0]} to start the next deal")
    page.select_option("#seat", str(oc.went_out))
    expect(page.locator("#sheet h4")).to_have_text(f"Deal 1: Name{oc.went_out} (viewing) went out")
    page.close()


def test_score_lines_name_the_players(server, browser, tmp_path):
    """A score line of cards left in a hand names the player ("Name1's hand 6♥ 7♦"), not
    the seat ("seat 1 hand 6H 7D", CC-12.6)."""
    import random

    from meldhall.record import Record, dump_record

    from playwright.sync_api import expect

    rng = random.Random(5)
    state = new_game("classic-canasta", players=2, seed=12)
    dealer = int(state.dealer)
    while state.outcome is None:
        seat = state.to_act[0]
        state = state.apply(rng.choice(state.legal_actions(seat)), seat)
    lines = [ln.label for r in state.outcome.results for ln in r.lines]
    held = [t for t in lines if re.match(r"seat \d hand", t)]
    assert held, lines
    names = [f"Name{i}" for i in range(state.players)]
    path = tmp_path / "hand.json"
    path.write_text(dump_record(Record.from_state(state, dealer, names)))
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + "/replay.html")
    page.set_input_files("#file", str(path))
    expect(page.locator("#step-label")).to_contain_text("step 0 of")
    page.keyboard.press("End")
    sheet = page.locator("#sheet")
    seat = int(held[0].split()[1])
    expect(sheet).to_contain_text(f"Name{seat}'s hand")
    assert not re.search(r"\bseat \d", sheet.inner_text())
    page.close()


def test_shanghai_deals_is_a_select_box(server, browser):
    """Shanghai's ``deals`` (10 or 7) is in its options' ``CHOICES``: the lobby offers a select
    box of the two, and the table is created with the number chosen (a number, not text)."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20000)
    page.goto(server.base + "/")
    page.select_option("#game", "shanghai-rummy")
    page.click("#options-box summary")
    deals = page.locator("#opt-deals")
    assert deals.evaluate("e => e.tagName") == "SELECT"
    # the values in words (choice_labels), the option values the numbers themselves
    assert deals.locator("option").all_inner_texts() == ["10 deals (contracts 1–10)",
                                                         "7 deals (contracts 1–7)"]
    assert deals.locator("option").evaluate_all("os => os.map(o => o.value)") == ["10", "7"]
    page.select_option("#opt-deals", value="7")
    page.click("#create-btn")
    expect(page.locator("#created")).to_contain_text("Table created")
    page.click("#open-my-seat")
    expect(page.locator("#conn")).to_contain_text("connected as seat 0")
    frag = dict(part.split("=", 1) for part in page.url.split("#", 1)[1].split("&"))
    assert server.view(frag["t"], frag["k"])["common"]["options"]["deals"] == 7
    assert not errors, errors
    page.close()


def test_lobby_explains_house_rules_and_offers_presets(server, browser, artifacts):
    """The lobby's house rules: each option with its one-line explanation (and rule ID), coded
    values in words, and a preset picker that fills the option fields; the player may still
    change one, and the table is created with the preset's options plus that change."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20000)
    page.goto(server.base + "/")
    expect(page.locator("#game option")).to_have_count(3)
    page.select_option("#game", "classic-canasta")
    page.click("#options-box summary")
    desc = page.locator("#opt-wild_ratio-desc")
    expect(desc).to_be_visible()
    expect(desc).to_contain_text("wild cards a meld may hold")
    expect(desc).to_contain_text("CC-6.2")
    assert page.locator("#opt-wild_ratio").get_attribute("aria-describedby") == \
        "opt-wild_ratio-desc"
    expect(page.locator("#opt-wild_ratio option:checked")).to_have_text(
        "wild cards ≤ naturals, at most 3")
    assert page.locator("#opt-copy_choice").count() == 0   # not a house rule of the lobby
    assert page.locator("#preset option").all_inner_texts() == ["standard", "pagat",
                                                                "britannica"]
    assert page.locator("#opt-hidden_canasta_bonus").input_value() == "100"
    page.select_option("#preset", "pagat")
    assert page.locator("#opt-wild_ratio").input_value() == '"pagat"'
    assert page.locator("#opt-black_three_upcard").input_value() == '"leave"'
    assert page.locator("#opt-hidden_canasta_bonus").input_value() == "0"
    expect(page.locator("#preset-note")).to_contain_text(
        "Wild cards in a meld → at most 3 wild cards")
    page.locator("#options-box").screenshot(path=str(artifacts / "lobby-house-rules.png"))
    # another preset resets what the first one changed
    page.select_option("#preset", "britannica")
    assert page.locator("#opt-wild_ratio").input_value() == '"seed"'
    assert page.locator("#opt-last_red_three").input_value() == '"may_meld_first"'
    page.select_option("#preset", "pagat")
    page.fill("#opt-target_score", "3000")   # still changeable after the preset
    page.click("#create-btn")
    expect(page.locator("#created")).to_contain_text("Table created")
    page.click("#open-my-seat")
    expect(page.locator("#conn")).to_contain_text("connected as seat 0")
    frag = dict(part.split("=", 1) for part in page.url.split("#", 1)[1].split("&"))
    options = server.view(frag["t"], frag["k"])["common"]["options"]
    assert options["wild_ratio"] == "pagat" and options["black_three_upcard"] == "leave"
    assert options["hidden_canasta_bonus"] == 0 and options["target_score"] == 3000
    assert options["last_red_three"] == "end_immediately"
    assert not errors, errors
    page.close()


def test_hint_then_play_the_suggested_move(server, browser, artifacts):
    """The Hint button (by keyboard) shows the search bot's recommended move with its value in
    points and the next best moves, highlights it among the moves, and the player plays it."""
    import time

    from playwright.sync_api import expect

    seed, _meld = seed_with_a_first_meld()
    t, page, errors = open_seat_against_bots(browser, server, seed)
    tok = t["seats"][0]["token"]
    page.click('button[data-action="draw"]')
    expect(page.locator("#log")).to_contain_text("drew")
    expect(page.locator("#hand button.card-btn")).to_have_count(12)

    # keyboard: focus the Hint button, Enter; the focus lands on the recommended move
    page.focus("#hint-btn")
    page.keyboard.press("Enter")
    box = page.locator("#hint-box")
    expect(box).to_contain_text("Recommended")
    best = page.locator("#hint-move")
    expect(best).to_be_focused()
    action = best.get_attribute("data-action")
    view = server.view(t["table"], tok)
    assert action in view["view"]["legal"]
    expect(box).to_contain_text("points")
    expect(box).to_contain_text("compare move with move")
    expect(box.locator("ol.hint-alternatives li")).not_to_have_count(0)
    # one sentence of why, and this game's own gate only (not Shanghai Rummy's)
    expect(box.locator(".hint-why")).to_contain_text("Why:")
    expect(box).to_contain_text("one standard error")
    expect(box).not_to_contain_text("Shanghai")
    expect(box).not_to_contain_text("1.64")
    # the same move is highlighted in the list of every legal move
    expect(page.locator(f'#actions .action-list button.hinted[data-action="{action}"]')
           ).to_have_count(1)
    page.screenshot(path=str(artifacts / "e2e_hint.png"), full_page=True)

    # the seat's own version counts its staging too (a stage is private: not in "recent")
    version = view["view"]["version"]
    page.keyboard.press("Enter")                  # play it
    deadline = time.monotonic() + 30
    while True:
        now = server.view(t["table"], tok)
        # the seat's own version is given only while it is to act: once the move ended its
        # turn, the view has none (and the bots may already be playing)
        if now["view"].get("version", version + 1) > version:
            break
        assert time.monotonic() < deadline, "the suggested move was not played"
        time.sleep(0.05)
    if action.startswith("stage "):
        # a whole melding is recommended: the button plays its next step
        assert now["view"]["observation"]["staged"][-1] == action.removeprefix("stage ")
        expect(page.locator("#staged li.staged-meld")).not_to_have_count(0)
    else:
        played = [r for r in now["common"]["recent"] if r["seat"] == 0][-1]["action"]
        assert played == action
    expect(page.locator("#hint-move")).to_have_count(0)    # the hint was for that decision
    assert not errors, errors
    page.close()


def seed_with_two_copies() -> tuple[int, str, str, str]:
    """A seed where seat 0 moves first and, after drawing, holds two 2s of different suits and
    may discard a 2: (seed, kind, the card the engine discards, the card it keeps), as the
    page's buttons name them (``2D/0``: the page numbers copies itself, no deck index is
    shown).  The engine, not the player, chooses the copy (CC-5.9)."""
    for seed in range(1, 3000):
        st = new_game("classic-canasta", players=4, seed=seed)
        if st.to_act != (0,):
            continue
        st = st.apply_text("draw", 0)
        hand = st.observation(0).to_json()["hand"]
        legal = [str(a) for a in st.legal_actions(0)]
        kind = "2"
        copies = [c for c in hand if rank_of(c) == kind]
        if len(copies) == 2 and len(set(copies)) == 2 and f"discard {kind}" in legal:
            after = st.apply_text(f"discard {kind}", 0).observation(0).to_json()["hand"]
            gone = [c for c in copies if c not in after]
            kept = [c for c in copies if c in after]
            return seed, kind, gone[0] + "/0", kept[0] + "/0"
    raise AssertionError("no seed found")


def test_selection_cleared_after_a_kind_named_discard(server, browser):
    """Select one of two 2s, press "discard 2": the engine may discard the other copy (CC-5.9).
    The selected copy used to stay selected (the next click deselected it, and the moves
    offered were those for the stale selection); after a move of this seat the selection is
    cleared, and the kind-named button says that any copy will do."""
    from playwright.sync_api import expect

    seed, kind, gone, kept = seed_with_two_copies()
    t, page, errors = open_seat_against_bots(browser, server, seed)
    page.click('button[data-action="draw"]')
    expect(page.locator("#hand button.card-btn")).to_have_count(12)
    selected = page.locator("#hand button.card-btn.selected")

    # select the copy the engine will keep, then discard the kind
    page.click(f'#hand button[data-card="{kept}"]')
    expect(selected).to_have_count(1)
    button = page.locator(f'#actions button.primary[data-action="discard {kind}"]')
    expected = ("joker from your hand" if kind == "JK" else "any wild 2 from your hand"
                if kind == "2" else f"any {kind} from your hand")
    expect(button).to_have_attribute("title", re.compile(re.escape(expected) + r".*\(CC-5\.9\)"))
    button.click()
    expect(page.locator("#log")).to_contain_text(shown(f"discarded {kind}"))
    expect(page.locator(f'#hand button[data-card="{gone}"]')).to_have_count(0)
    expect(page.locator(f'#hand button[data-card="{kept}"]')).to_have_count(1)
    expect(selected).to_have_count(0)
    expect(page.locator(f'#hand button[data-card="{kept}"]')).to_have_attribute(
        "aria-pressed", "false")

    # the bots play; my move again: the moves are those of an empty selection
    expect(page.locator(".turn.mine")).to_be_visible()
    expect(selected).to_have_count(0)
    # (with a card selected, "draw" was a secondary button below "No legal move uses exactly
    # these cards")
    actions = page.locator("#actions .action-buttons")
    expect(actions.locator('button.primary[data-action="draw"]')).to_have_count(1)
    expect(actions).not_to_contain_text("these cards")
    # a click on the kept copy selects it (it used to deselect it)
    page.click(f'#hand button[data-card="{kept}"]')
    expect(selected).to_have_count(1)
    assert not errors, errors
    page.close()


def seed_for_two_staged_melds() -> tuple[int, str, str]:
    """Two players: a seed where seat 0 moves first and, after drawing, can stage s1 (short of
    the minimum count alone), then s2 (the two reach it): (seed, s1, s2)."""
    for seed in range(1, 3000):
        st = new_game("classic-canasta", players=2, seed=seed)
        if st.to_act != (0,):
            continue
        st = st.apply_text("draw", 0)
        for s1 in (str(a) for a in st.legal_actions(0) if str(a).startswith("stage ")):
            one = st.apply_text(s1, 0)
            if "meld done" in map(str, one.legal_actions(0)):
                continue
            for s2 in (str(a) for a in one.legal_actions(0) if str(a).startswith("stage ")):
                if "meld done" in map(str, one.apply_text(s2, 0).legal_actions(0)):
                    return seed, s1, s2
    raise AssertionError("no seed found")


def action_kinds(action: str) -> list[str]:
    """The kinds of the cards a canasta action takes from hand ("add 9 9 2 -> 9": 9 9 2;
    "stage 8 8 + upcard": 8 8), sorted."""
    words = action.split()[1:]
    if "->" in words:
        words = words[:words.index("->")]
    return sorted(w for w in words if w not in ("+", "upcard", ",", ";"))


# every "state" message a page receives: its public version and how many melds it shows staged
RECORD_STATES = """(() => {
  const W = window.WebSocket;
  window.__states = [];
  window.WebSocket = class extends W {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (ev) => {
        try {
          const m = JSON.parse(ev.data);
          if (m.type === "state") window.__states.push({ version: m.common.version,
            staged: (m.view.observation.staged || []).length, raw: ev.data });
        } catch (e) { /* not JSON */ }
      });
    }
  };
})();"""


def test_staged_melding_in_the_browser(server, browser, artifacts):
    """A side's first melding, staged one meld at a time (CC-6.9): select cards, and the only
    card moves offered are those that use exactly them; stage two melds (the count against the
    minimum shows), undo the last and stage it again, undo the first (the later one is staged
    again), stage it again, "Meld done".  The other seat's page sees nothing of it (no state
    message, no staged meld, the same version) until the commit, then the melds."""
    from playwright.sync_api import expect

    seed, s1, s2 = seed_for_two_staged_melds()
    t = server.create("classic-canasta", seats=[{"kind": "human", "name": "Ann"},
                                                {"kind": "human", "name": "Bob"}], seed=seed)
    tok0, tok1 = t["seats"][0]["token"], t["seats"][1]["token"]
    errors: list[str] = []
    other = browser.new_page(viewport={"width": 1280, "height": 900})
    other.add_init_script(RECORD_STATES)
    other.on("pageerror", lambda e: errors.append(str(e)))
    other.set_default_timeout(20000)
    other.goto(server.base + t["seats"][1]["url"])
    expect(other.locator("#conn")).to_contain_text("connected as seat 1")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20000)
    page.goto(server.base + t["seats"][0]["url"])
    expect(page.locator("#conn")).to_contain_text("connected as seat 0")
    page.click('button[data-action="draw"]')
    expect(other.locator("#log")).to_contain_text("drew")
    expect(page.locator("#staged")).to_have_count(0)

    # the other page's baseline, once the draw (public) has reached it
    public = server.view(t["table"], tok1)["common"]["version"]
    other.wait_for_function(
        f"window.__states.length && window.__states.at(-1).version === {public}")
    seen = other.evaluate("window.__states.length")
    other_melds = other.locator("#melds").inner_text()
    other_log = other.locator("#log").inner_text()

    hand = page.locator("#hand button.card-btn")
    moves = page.locator("#actions .action-buttons button.action.primary")

    def select(action: str) -> None:
        chosen: list[str] = []
        cards = [hand.nth(i).get_attribute("data-card") for i in range(hand.count())]
        for kind in action_kinds(action):
            card = next(c for c in cards if c not in chosen and rank_of(c) == kind)
            chosen.append(card)
            page.click(f'#hand button[data-card="{card}"]')
        expect(page.locator("#hand button.card-btn.selected")).to_have_count(len(chosen))

    def staged_texts() -> list[str]:
        return page.locator("#staged li.staged-meld").evaluate_all(
            "els => els.map((e) => e.dataset.staged)")

    def stage(action: str, expected: list[str]) -> None:
        select(action)
        # the buttons offered: exactly the legal moves that use exactly these cards
        legal = server.view(t["table"], tok0)["view"]["legal"]
        exact = sorted(a for a in legal if action_kinds(a) == action_kinds(action)
                       and a.split()[0] in ("stage", "add", "take", "discard", "meld"))
        shown = sorted(moves.evaluate_all("els => els.map((e) => e.dataset.action)"))
        assert shown == exact and action in shown, (shown, exact)
        # moves that use these cards and more are not offered (there used to be up to 17)
        more = [a for a in legal if a not in exact and a.startswith("stage ")
                and all(action_kinds(a).count(k) >= action_kinds(action).count(k)
                        for k in action_kinds(action))]
        for a in more:
            expect(page.locator(f'#actions button[data-action="{a}"]:visible')).to_have_count(0)
        before = hand.count()
        page.click(f'#actions .action-buttons button.primary[data-action="{action}"]')
        expect(page.locator("#staged li.staged-meld")).to_have_count(len(expected))
        assert staged_texts() == expected
        # the staged cards leave the hand's row (the hand still holds them: CC-6.9(a))
        expect(hand).to_have_count(before - len(action_kinds(action)))

    m1, m2 = s1.removeprefix("stage "), s2.removeprefix("stage ")
    count = page.locator("#staged .staged-status")
    meld_done = page.locator('#staged button[data-action="meld done"]')

    stage(s1, [m1])
    expect(count).to_contain_text(re.compile(r"count \d+ of 50 \u2014 \d+ more needed"))
    expect(meld_done).to_have_count(0)
    expect(page.locator("#staged")).to_contain_text("Meld done commits them once the count")
    one = int(re.search(r"count (\d+)", count.inner_text()).group(1))
    assert one == server.view(t["table"], tok0)["view"]["observation"]["staged_count"] < 50

    stage(s2, [m1, m2])
    expect(count).to_contain_text(re.compile(r"count \d+ of 50 \u2014 the minimum is reached"))
    expect(meld_done).to_have_count(1)
    expect(page.locator("#staged button.undo")).to_have_count(2)
    expect(page.locator('#staged button.undo-all[data-action="withdraw all"]')).to_have_count(1)

    # undo the last meld (withdraw), stage it again
    page.locator("#staged li.staged-meld").nth(1).locator("button.undo").click()
    expect(page.locator("#staged li.staged-meld")).to_have_count(1)
    expect(count).to_contain_text(f"count {one} of 50")
    stage(s2, [m1, m2])
    page.locator("#staged").screenshot(path="/tmp/staging.png")
    page.locator("#staged").screenshot(path=str(artifacts / "e2e_staging.png"))

    # undo the first meld: withdrawn back to it, the later one staged again; then stage it
    page.locator("#staged li.staged-meld").nth(0).locator("button.undo").click()
    expect(page.locator("#staged li.staged-meld")).to_have_count(1)
    expect(page.locator(f'#staged li.staged-meld[data-staged="{m2}"]')).to_have_count(1)
    expect(page.locator("#staged button.undo")).to_be_enabled()
    stage(s1, [m2, m1])
    expect(meld_done).to_have_count(1)

    # the phone layout: the staged area and its buttons fit the width
    page.set_viewport_size({"width": 390, "height": 844})
    box = page.locator("#staged").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    page.locator("#staged").screenshot(path=str(artifacts / "e2e_staging_phone.png"))
    page.set_viewport_size({"width": 1280, "height": 900})

    # nothing of it reached the other page: no state message at all, nothing shown
    assert server.view(t["table"], tok1)["common"]["version"] == public
    states = other.evaluate("window.__states")
    assert len(states) == seen, states[seen:]
    assert other.locator("#melds").inner_text() == other_melds
    assert other.locator("#log").inner_text() == other_log
    expect(other.locator("#staged")).to_have_count(0)

    # by keyboard: Enter on "Meld done" commits
    meld_done.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#staged")).to_have_count(0)
    committed = "meld " + ", ".join(sorted([m1, m2], key=lambda m: "AKQJ1098765432".index(m[0])))
    expect(page.locator("#log")).to_contain_text(shown("melded" + committed[4:]))
    # the other page now shows the melds (and its version moved on)
    expect(other.locator("#log")).to_contain_text(shown("melded" + committed[4:]))
    for m in (m1, m2):
        expect(other.locator("#melds")).to_contain_text(f"{m.split()[0]} \u00d7")
    assert server.view(t["table"], tok1)["common"]["version"] > public
    after = other.evaluate("window.__states")
    assert all(s["staged"] == 0 for s in after)
    assert not errors, errors
    page.close()
    other.close()


def test_staged_contract_in_shanghai(server, browser, artifacts):
    """Shanghai: the contract is staged meld by meld (SH-8.1); the staged area shows the
    contract's progress ("1 of 2 melds staged") and "contract done" once it may be laid down."""
    import time

    from playwright.sync_api import expect

    seed, me = 1, 1            # three players: seat 1 moves first, then may stage
    st = new_game("shanghai-rummy", players=3, seed=seed)
    assert st.to_act == (me,)
    t, page, errors = open_humans_table(browser, server, "shanghai-rummy", seed, me)
    toks = [s["token"] for s in t["seats"]]
    page.click('button[data-action="draw"]')
    deadline = time.monotonic() + 30
    while True:            # the others pass on the upcard (the buy window)
        common = server.view(t["table"], toks[me])["common"]
        if common["to_act"] == [me]:
            break
        seat = common["to_act"][0]
        r = server.act(t["table"], toks[seat], "pass", common["version"])
        assert r.status_code == 200, r.text
        assert time.monotonic() < deadline
    first, second = "stage 6S 6C JK=6S", "stage QS QH QD"   # the contract: two sets of 3
    assert first in server.view(t["table"], toks[me])["view"]["legal"]
    hand = page.locator("#hand button.card-btn")
    expect(hand).not_to_have_count(0)

    def select(action: str) -> None:
        for token in action.split()[1:]:
            kind = "JK" if token.startswith("JK") else token
            card = next(c for c in (hand.nth(i).get_attribute("data-card")
                                    for i in range(hand.count()))
                        if c.split("/")[0] == kind
                        and page.locator(f'#hand button[data-card="{c}"]').get_attribute(
                            "aria-pressed") == "false")
            page.click(f'#hand button[data-card="{card}"]')

    # a refusal names cards as the table shows them: "you do not hold K♥" (SH-6.2)
    held = {c.split("/")[0] for c in server.view(t["table"], toks[me])["view"]["observation"][
        "hand"]}
    absent = next(c for c in ("KH", "KS", "KD", "KC", "3H", "3S") if c not in held)
    page.fill("#typed-action", f"discard {absent}")
    page.press("#typed-action", "Enter")
    expect(page.locator("#refusal")).to_contain_text(f"you do not hold {label(absent)}")

    select(first)
    # the sets the joker may make differ only in the card it stands for: each button says
    # which, and why it matters (SH-7.4, SH-9.4)
    expect(page.locator(f'#actions .action-buttons button.primary[data-action="{first}"] .why')
           ).to_have_text("stage it for the contract, the joker as 6\u2660: only a 6\u2660 can "
                          "take its place later (SH-9.4)")
    page.click(f'#actions .action-buttons button.primary[data-action="{first}"]')
    status = page.locator("#staged .staged-status")
    expect(status).to_contain_text("1 of 2 melds staged")
    expect(status).to_contain_text("two sets of 3")
    # the discard buttons are gone while melds are staged: the status says why (SH-8.1)
    expect(status).to_contain_text("no discard while melds are staged (SH-8.1)")
    expect(status.locator("a.rule-link")).to_have_text("SH-8.1")
    # and the header offers what there is to do, not "Meld or discard"
    expect(page.locator(".turn.mine")).to_have_text(
        "Your move: Stage the rest of the contract, or withdraw")
    expect(page.locator('#staged button[data-action="contract done"]')).to_have_count(0)
    select(second)
    page.click(f'#actions .action-buttons button.primary[data-action="{second}"]')
    expect(status).to_contain_text("2 of 2 melds staged")
    expect(status).to_contain_text("the contract is complete")
    expect(page.locator(".turn.mine")).to_have_text(
        "Your move: Lay down the contract (contract done), or withdraw")
    # a tester saw "stagednull": a part that does not apply must not print as text
    assert "null" not in status.inner_text(), status.inner_text()
    page.locator("#staged").screenshot(path=str(artifacts / "e2e_staging_shanghai.png"))
    page.click('#staged button[data-action="contract done"]')
    expect(page.locator("#staged")).to_have_count(0)
    expect(page.locator("#melds .meld")).to_have_count(2)
    assert not errors, errors
    page.close()


SUIT_SYMBOL = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def label(card: str) -> str:
    """A card as the page writes it: "4H" -> "4♥", "JK" -> "Joker"."""
    return "Joker" if card == "JK" else card[:-1] + SUIT_SYMBOL[card[-1]]


def arrived(before: list[str], after: list[str]) -> list[str]:
    """The cards in ``after`` beyond those in ``before``, as the page numbers its copies
    (localCopies: the k-th copy of a name held is NAME/k, in the server's order)."""
    out = []
    for name in dict.fromkeys(after):
        out += [f"{name}/{k}" for k in range(before.count(name), after.count(name))]
    return out


def test_a_second_invite_link_in_the_same_tab_switches_the_seat(server, browser):
    """Two invite links differ only after "#": following the second in the same tab used to
    leave the page at the first seat until it was reloaded.  The header says what the seat
    may do ("Take A♦, or draw from the stock"), never the engine's phase name ("upcard")."""
    from playwright.sync_api import expect

    seed = 1                     # three players: seat 1 moves first, the upcard is A♦
    st = new_game("shanghai-rummy", players=3, seed=seed)
    assert st.to_act == (1,)
    up = label(st.observation(1).to_json()["upcard"])
    t, page, errors = open_humans_table(browser, server, "shanghai-rummy", seed, 1)
    turn = page.locator("#header .turn")
    expect(turn).to_have_text(f"Your move: Take {up}, or draw from the stock")
    expect(page.locator('#actions .action-buttons button[data-action="take"]')).to_have_count(1)

    # the second link, in the same tab (a change of the fragment only)
    page.evaluate("url => { location.href = url; }", server.base + t["seats"][2]["url"])
    expect(page.locator("#conn")).to_contain_text("connected as seat 2")
    expect(turn).to_have_text(f"Waiting for Bob to take {up} or draw")
    expect(page.locator("#players .player.me")).to_have_attribute("data-seat", "2")
    hand = server.view(t["table"], t["seats"][2]["token"])["view"]["observation"]["hand"]
    shown = page.locator("#hand button.card-btn").evaluate_all(
        "els => els.map((e) => e.dataset.card.split('/')[0])")
    assert sorted(shown) == sorted(hand)
    expect(page.locator('#actions .action-buttons button[data-action="take"]')).to_have_count(0)
    # and back: the first seat again
    page.evaluate("url => { location.href = url; }", server.base + t["seats"][1]["url"])
    expect(page.locator("#conn")).to_contain_text("connected as seat 1")
    expect(turn).to_have_text(f"Your move: Take {up}, or draw from the stock")
    assert not errors, errors
    page.close()


def test_the_card_drawn_is_marked_and_said(server, browser, artifacts):
    """After "draw" the card drawn is marked in the hand (a class and its accessible name, no
    animation) and said in the status line, a live region: "You drew 7♥."  The header says
    what the player may do, not the phase ("draw", "meld")."""
    from playwright.sync_api import expect

    seed = next(s for s in range(1, 500)
                if new_game("classic-canasta", players=4, seed=s).to_act == (0,))
    st = new_game("classic-canasta", players=4, seed=seed)
    before = st.observation(0).to_json()["hand"]
    after = st.apply_text("draw", 0).observation(0).to_json()["hand"]
    new = arrived(before, after)
    assert new
    t, page, errors = open_seat_against_bots(browser, server, seed)
    turn = page.locator("#header .turn")
    expect(turn).to_have_text("Your move: Draw or take the pile")
    note = page.locator("#drawn-note")
    expect(note).to_be_hidden()
    expect(page.locator("#hand button.card-btn.drawn")).to_have_count(0)

    page.click('button[data-action="draw"]')
    expect(turn).to_have_text("Your move: Meld or discard")
    names = sorted(label(c.split("/")[0]) for c in new)
    expect(note).to_have_text(re.compile(r"^You drew " + re.escape(" and ".join(names)) + r"\.$")
                              if len(new) <= 2 else re.compile(r"^You drew "))
    assert note.get_attribute("role") == "status" and note.get_attribute("aria-live") == "polite"
    marked = page.locator("#hand button.card-btn.drawn")
    expect(marked).to_have_count(len(new))
    assert sorted(marked.evaluate_all("els => els.map((e) => e.dataset.card)")) == sorted(new)
    expect(marked.first).to_have_attribute("aria-label", re.compile(r"\(just drawn\)"))
    # not an animation: the mark is there at once, and stays
    assert marked.first.evaluate("e => getComputedStyle(e).animationName") == "none"
    page.locator("#me").screenshot(path=str(artifacts / "e2e_drawn.png"))

    # the turn ends with a discard: the mark and the note go
    page.locator("#hand button.card-btn").first.click()
    page.locator('#actions button.primary[data-action^="discard"]').first.click()
    expect(marked).to_have_count(0)
    expect(note).to_be_hidden()
    expect(turn).not_to_have_text(re.compile(r"\b(draw|meld|hand_end)$"))
    # the bots play; my move again (the pile may be out of reach by then: it says so)
    expect(turn).to_have_text(re.compile(
        r"^Your move: Draw( or take the pile| \(the pile cannot be taken now\))$"), timeout=30000)
    assert not errors, errors
    page.close()


def test_shanghai_buy_prompt_names_the_penalty_card(server, browser, artifacts):
    """The buy window asks "Buy A♦? You also take a penalty card from the stock (buy 1 of
    3)." (it said "Buy the discard AD?" and never named the penalty card, SH-10.4); the header
    says "Buy A♦? (+1 penalty card)"; after the buy the page says both cards taken."""
    from playwright.sync_api import expect

    seed = 1                     # three players: seat 1 moves first and declines the upcard
    st = new_game("shanghai-rummy", players=3, seed=seed)
    st = st.apply_text("draw", 1)
    assert st.phase == "buy" and st.to_act == (2,)
    obs = st.observation(2).to_json()
    up, limit = obs["upcard"], obs["buy_limit"]
    new = arrived(obs["hand"], st.apply_text("buy", 2).observation(2).to_json()["hand"])
    assert len(new) == 2
    penalty = [c.split("/")[0] for c in new]
    penalty.remove(up)

    t, page, errors = open_humans_table(browser, server, "shanghai-rummy", seed, 2)
    toks = [s["token"] for s in t["seats"]]
    r = server.act(t["table"], toks[1], "draw",
                   server.view(t["table"], toks[1])["common"]["version"])
    assert r.status_code == 200, r.text

    prompt = page.locator("#prompt")
    expect(prompt).to_have_text(f"Buy {label(up)}? You also take a penalty card from the stock "
                                f"(buy 1 of {limit}).")
    expect(page.locator("#header .turn")).to_have_text(
        f"Your move: Buy {label(up)}? (+1 penalty card)")
    page.locator("#me").screenshot(path=str(artifacts / "e2e_buy_prompt.png"))
    page.click('#actions button[data-action="buy"]')
    expect(page.locator("#drawn-note")).to_have_text(
        f"You bought {label(up)} and the penalty card {label(penalty[0])}.")
    marked = page.locator("#hand button.card-btn.drawn")
    expect(marked).to_have_count(2)
    assert sorted(marked.evaluate_all("els => els.map((e) => e.dataset.card)")) == sorted(new)
    expect(prompt).to_have_text("")
    assert not errors, errors
    page.close()


#: A card written with a letter suit ("QH", "10D", "JK=7D"): the page's log never shows one
#: (the engine's notation keeps them; the page writes "Q♥").
LETTER_CARD = re.compile(r"(?<![A-Za-z0-9])(JK|10[SHDC]|[2-9AKQJ][SHDC])(?![A-Za-z0-9])")


def test_log_names_cards_with_suit_symbols(server, browser, artifacts):
    """The log the players read writes cards as the table does: "upcard 5♥", "discard K♥"
    (it said "upcard 5H", "discard KH"); the engine's log keeps its notation."""
    from playwright.sync_api import expect

    seed = 1
    t, page, errors = open_humans_table(browser, server, "shanghai-rummy", seed, 0)
    toks = [s["token"] for s in t["seats"]]
    # the same moves on the engine and the server: decline the upcard and the buys, discard
    st = new_game("shanghai-rummy", players=3, seed=seed)
    discard = None
    while discard is None:
        seat = st.to_act[0]
        legal = [str(a) for a in st.legal_actions(seat)]
        move = next((a for a in ("draw", "pass") if a in legal), None)
        if move is None:
            move = next(a for a in legal if a.startswith("discard "))
            discard = move
        r = server.act(t["table"], toks[seat], move,
                       server.view(t["table"], toks[seat])["common"]["version"])
        assert r.status_code == 200, r.text
        st = st.apply_text(move, seat)
    assert LETTER_CARD.search(discard)                       # the engine: "discard KH"
    log = page.locator("#log")
    expect(log).to_contain_text(shown("discarded" + discard[7:]))  # the page: "discarded K♥"
    assert re.search(r"[\u2660\u2665\u2666\u2663]", shown(discard))
    expect(log).to_contain_text(re.compile(r"upcard (10|[2-9AKQJ])[\u2660\u2665\u2666\u2663]"))
    text = log.inner_text()
    assert not LETTER_CARD.search(text), text
    assert any(e["action"] == discard for e in server.view(t["table"], toks[0])["view"][
        "observation"]["log"])                               # the notation is unchanged
    page.locator("#log").screenshot(path=str(artifacts / "e2e_log_symbols.png"))
    assert not errors, errors
    page.close()


def test_railroad_canasta_types_are_explained(server, browser):
    """The four Railroad canasta types shown per player (red, black, wild, sevens) are
    explained: each in its title, and a legend of what each is made of (RR-6.9, RR-11.1)."""
    from playwright.sync_api import expect

    t, page, errors = open_humans_table(browser, server, "railroad-canasta", 3, 0)
    types = page.locator(".player .canasta-types")
    expect(types).to_have_count(3)
    first = types.first
    expect(first.locator(".ctype")).to_have_count(4)
    expect(first).to_contain_text("\u00b7red \u00b7black \u00b7wild \u00b7sevens")
    expect(first.locator(".ctype").first).to_have_attribute(
        "title", re.compile(r"^red: seven natural cards of one rank other than 7, no wild card"))
    expect(first.locator(".ctype").last).to_have_attribute(
        "title", re.compile(r"^sevens: seven natural sevens .*RR-6\.9"))
    legend = page.locator("#canasta-legend")
    expect(legend).to_have_count(1)
    legend.locator("summary").click()
    for text in ("seven natural cards of one rank other than 7", "one to three wild cards",
                 "seven wild cards", "seven natural sevens", "RR-11.1"):
        expect(legend).to_contain_text(text)
    expect(legend.locator("a.rule-link")).to_have_count(1)
    # the sevens lock is on the table, as in the terminal (a tester met it only as a refusal)
    lock = page.locator("#sevens-lock")
    expect(lock).to_contain_text("Sevens lock (RR-9.6): in force: no seven may be discarded")
    expect(lock).to_contain_text("nobody has one yet")
    assert not errors, errors
    page.close()


def test_shanghai_moves_read_with_suit_symbols(server, browser, artifacts):
    """What a player reads names cards as the table does: the buttons and the "All legal
    moves" list say "stage 6♠ 6♣ Jk=6♠" (they said "stage 6S 6C JK=6S"), the staged meld's
    undo says it too; ``data-action`` keeps the notation sent.  The typed move's example is
    Shanghai's own and the scores' column says "Player" (Shanghai has no sides)."""
    import time

    from playwright.sync_api import expect

    seed, me = 1, 1
    t, page, errors = open_humans_table(browser, server, "shanghai-rummy", seed, me)
    toks = [s["token"] for s in t["seats"]]
    typed = page.locator("#typed-action")
    expect(typed).to_have_attribute("placeholder", re.compile(r"stage 7H 7S JK=7D"))
    assert "meld K K 2" not in typed.get_attribute("placeholder")
    expect(page.locator("#scores-box th").first).to_have_text("Player")
    page.click('button[data-action="draw"]')
    deadline = time.monotonic() + 30
    while True:            # the others pass on the upcard (the buy window)
        common = server.view(t["table"], toks[me])["common"]
        if common["to_act"] == [me]:
            break
        seat = common["to_act"][0]
        r = server.act(t["table"], toks[seat], "pass", common["version"])
        assert r.status_code == 200, r.text
        assert time.monotonic() < deadline
    first = "stage 6S 6C JK=6S"
    legal = server.view(t["table"], toks[me])["view"]["legal"]
    assert first in legal
    page.locator("#actions details.all-moves summary").click()
    moves = page.locator("#actions .action-list button.action")
    expect(moves).to_have_count(min(len(legal), 400))
    button = page.locator(f'#actions .action-list button[data-action="{first}"]')
    expect(button).to_have_text(shown(first))
    assert shown(first) == "stage 6\u2660 6\u2663 Jk=6\u2660"
    texts = moves.all_inner_texts()
    assert not [x for x in texts if LETTER_CARD.search(x)], texts
    assert sorted(moves.evaluate_all("bs => bs.map(b => b.dataset.action)")) == sorted(legal[:400])
    button.click()
    undo = page.locator("#staged button.undo")
    expect(undo).to_have_attribute("aria-label", "withdraw: put " + shown(first[6:]) + " back in the hand")
    assert not LETTER_CARD.search(undo.get_attribute("title")), undo.get_attribute("title")
    # the words of the moves area (its card pictures aside: a joker's face says JK/JOKER)
    words = page.locator("#actions").evaluate(
        "e => { const c = e.cloneNode(true); c.querySelectorAll('svg').forEach((s) => s.remove());"
        " return c.innerText; }")
    assert "6\u2660 6\u2663 Jk=6\u2660" in words and not LETTER_CARD.search(words), words
    page.locator("#actions").screenshot(path=str(artifacts / "e2e_shanghai_symbols.png"))
    assert not errors, errors
    page.close()


def seed_with_a_two_after_the_draw() -> int:
    """A seed of three-player Classic Canasta where the pile starts unfrozen and seat 1, first
    to move, may discard a 2 and stage a meld with one after drawing."""
    for seed in range(1, 500):
        st = new_game("classic-canasta", players=3, seed=seed)
        if st.to_act != (1,) or st.observation(1).to_json()["pile_frozen"]:
            continue
        legal = [str(a) for a in st.apply_text("draw", 1).legal_actions(1)]
        if "discard 2" in legal and any(re.fullmatch(r"stage (\w+) \1 2", a) for a in legal):
            return seed
    raise AssertionError("no seed found")


def test_classic_pile_frozen_for_a_side_without_melds_and_wild_two_tooltips(server, browser):
    """At the start of a Classic hand the pile is frozen for a side that has not melded
    (CC-8.4): the pile says "frozen for your side until it melds" (it showed no freeze).  A
    kind-named move's tooltip calls a 2 a wild card, not a joker ("any wild 2 from your
    hand"; it said "any 2 joker")."""
    from playwright.sync_api import expect

    seed = seed_with_a_two_after_the_draw()
    t, page, errors = open_humans_table(browser, server, "classic-canasta", seed, 1)
    badge = page.locator("#center .badge.side-frozen")
    expect(badge).to_have_text("frozen for your side until it melds")
    expect(badge).to_have_attribute("title", re.compile(r"^CC-8\.4"))
    page.click('button[data-action="draw"]')
    page.locator("#actions details.all-moves summary").click()
    two = page.locator('#actions .action-list button[data-action="discard 2"]')
    expect(two).to_have_attribute("title", re.compile(r"^any wild 2 from your hand: suits do not matter \(CC-5\.9\)"))
    legal = server.view(t["table"], t["seats"][1]["token"])["view"]["legal"]
    stage = next(a for a in legal if re.fullmatch(r"stage (\w+) \1 2", a))
    rank = stage.split()[1]
    expect(page.locator(f'#actions .action-list button[data-action="{stage}"]')).to_have_attribute(
        "title", re.compile(rf"^any {rank}, {rank} and wild 2 from your hand"))
    titles = page.locator("#actions button[title]").evaluate_all("bs => bs.map(b => b.title)")
    assert not [x for x in titles if "2 joker" in x], titles
    assert not errors, errors
    page.close()


def test_summed_score_rows_say_what_the_rule_scores(server, browser, tmp_path):
    """A side's score lines summed by rule say what the rule scores: "cards in melds, 7 lines"
    after RR-13.1 (it said "7 lines"); once the game is over the scores show no minimum count
    for a first meld (no side will meld again) and a side of one seat is a "Player"."""
    import random

    from meldhall.record import Record, dump_record

    from playwright.sync_api import expect

    rng = random.Random(5)
    state = new_game("railroad-canasta", players=4, seed=2**60 + 7)
    dealer = int(state.dealer)
    while len(state.history()) < 700 and not state.is_terminal:
        seat = state.to_act[0]
        state = state.apply(rng.choice(state.legal_actions(seat)), seat)
    path = tmp_path / "long.json"
    path.write_text(dump_record(Record.from_state(state, dealer)))
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(20000)
    page.goto(server.base + "/replay.html")
    page.set_input_files("#file", str(path))
    expect(page.locator("#step-label")).to_contain_text("step 0 of")
    page.keyboard.press("End")
    summed = page.locator("#sheet table.lines.summed tr")
    expect(summed.first).to_be_attached()
    rows = summed.all_inner_texts()
    assert any(re.search(r"RR-13\.1\s+cards in melds, \d+ lines\s+-?\d+", r) for r in rows), rows
    assert not [r for r in rows if re.search(r"RR-\d+\.\d+\s+\d+ lines", r)], rows

    # a Classic game to 1 point: over after its first hand
    for seed in range(1, 50):
        rng = random.Random(seed)
        state = new_game("classic-canasta", players=2, seed=seed, options={"target_score": 1})
        dealer = int(state.dealer)
        while not state.is_terminal and len(state.history()) < 3000:
            seat = state.to_act[0]
            state = state.apply(rng.choice(state.legal_actions(seat)), seat)
        if state.is_terminal:
            break
    assert state.is_terminal
    path = tmp_path / "over.json"
    path.write_text(dump_record(Record.from_state(state, dealer)))
    page.set_input_files("#file", str(path))
    expect(page.locator("#step-label")).to_contain_text("step 0 of")
    heads = page.locator("#scores-box th")
    expect(heads).to_have_count(3)                    # during the game: Player, Score, Minimum
    expect(heads.last).to_have_text("Minimum")
    page.keyboard.press("End")
    expect(heads).to_have_count(2)
    assert heads.all_inner_texts() == ["Player", "Score"]
    page.close()


def test_statistics_count_people_and_only_games_played(server, browser):
    """A game against a person's seat played by a bot (the creator handed it over) counts
    against "people", not that bot; a game whose seat this browser never played (a bot played
    it throughout) is not counted at all (README, statistics)."""
    import time

    from playwright.sync_api import expect

    seed = next(s for s in range(1, 200)
                if new_game("classic-canasta", players=2, seed=s).to_act == (0,))

    def table() -> dict:
        return server.create("classic-canasta", seats=[
            {"kind": "human", "name": "Me"}, {"kind": "human", "name": "Friend"}],
            options={"target_score": 100}, seed=seed, bot_pause=0)

    def hand_to_bot(t: dict, seat: int) -> None:
        r = server.request("POST", f"/api/tables/{t['table']}/seats/{seat}", t["creator_token"],
                           json={"kind": "bot", "bot": "heuristic"})
        assert r.status_code == 200, r.text

    def finish(t: dict) -> None:
        deadline = time.monotonic() + 120
        while not server.request("GET", f"/api/tables/{t['table']}",
                                 t["creator_token"]).json()["finished"]:
            assert time.monotonic() < deadline, "the bots did not finish the game"
            time.sleep(0.1)

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30000)
    played, idle = table(), table()
    # played: this browser draws once, then the bots play both seats to the end
    page.goto(server.base + played["seats"][0]["url"])
    expect(page.locator("#conn")).to_contain_text("connected as seat 0")
    hand_to_bot(played, 1)
    page.click('button[data-action="draw"]')
    expect(page.locator("#log")).to_contain_text("Me (you): drew")
    hand_to_bot(played, 0)
    finish(played)
    expect(page.locator("#finished")).to_contain_text("Game over")
    # idle: a bot plays this browser's seat from the start
    hand_to_bot(idle, 0)
    hand_to_bot(idle, 1)
    finish(idle)
    page.goto(server.base + idle["seats"][0]["url"])
    expect(page.locator("#finished")).to_contain_text("Game over")
    page.goto(server.base + "/")
    rows = page.locator("#stats-table tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-level", "people")
    expect(rows.first.locator("td").nth(1)).to_have_text("people")
    expect(rows.first.locator("td").nth(2)).to_have_text("1")
    assert not errors, errors
    page.close()


def test_lobby_house_rules_speak_to_players(server, browser):
    """Every house rule has a player's label ("Six players: 150 from", "Most players"; they
    were the option names with spaces) and an explanation in words: values of a fixed set in
    their words ("the hand ends at once", not "end_immediately"), no Python syntax ("((score
    threshold, minimum), …)", "(True)"), each still with its rule ID."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20000)
    page.goto(server.base + "/")
    page.click("#options-box summary")
    games = {g["name"]: g for g in server.request("GET", "/api/games").json()}
    raw = re.compile(r'"|_|\(\(|\bTrue\b|\bFalse\b|\bNone\b')
    for game, expected in (("classic-canasta", {"six_player_150_threshold": "Six players: 150 from",
                                                "last_red_three": "Red three as the last stock card"}),
                           ("railroad-canasta", {"max_players": "Most players"}),
                           ("shanghai-rummy", {"blind_bonus": "Going-out-blind bonus"})):
        page.select_option("#game", game)
        for key, text in expected.items():
            expect(page.locator(f'label[for="opt-{key}"]')).to_have_text(text)
        labels = page.locator("#options .option label").all_inner_texts()
        keys = [k for k in games[game]["options"] if k not in ("player_count", "copy_choice")]
        assert len(labels) == len(keys)
        spaced = {k.replace("_", " ") for k in keys}
        assert not [x for x in labels if x in spaced and " " in x], labels
        # the descriptions in words (a list option's JSON example beside it is typed as is)
        descs = page.locator("#options .option-desc").evaluate_all(
            "els => els.map(e => { const c = e.cloneNode(true);"
            " c.querySelectorAll('.option-example').forEach(x => x.remove());"
            " return c.textContent; })")
        assert len(descs) == len(keys)
        bad = [d for d in descs if raw.search(d) or not re.search(r"\b(CC|RR|SH)-\d", d)]
        assert not bad, bad
    page.select_option("#game", "classic-canasta")
    desc = page.locator("#opt-last_red_three-desc")
    expect(desc).to_contain_text("\u201cthe hand ends at once\u201d")
    expect(desc).to_contain_text("CC-11.2")
    expect(page.locator("#opt-minimum_count_table-desc")).to_contain_text(
        "pairs of a score threshold and the minimum count from it")
    # how a list is typed: the rule's own table (a tester found a free-text field, no example)
    expect(page.locator("#opt-minimum_count_table-desc")).to_contain_text(
        "Typed as JSON; the rule's own value is [[3000,120],[1500,90],[0,50]].")
    assert "e.g. [[3000,120]" in page.get_attribute("#opt-minimum_count_table", "placeholder")
    page.select_option("#game", "railroad-canasta")
    expect(page.locator("#opt-canasta_bonuses-desc")).to_contain_text(
        '{"red":500,"black":300,"wild":1000,"sevens":1500}')
    expect(page.locator("#opt-go_out_requirement-desc")).to_contain_text(
        "\u201cone canasta of each of the four types\u201d")
    assert not errors, errors
    page.close()


def test_refusals_log_and_prompts_name_the_players(server, browser):
    """The engine names seats by number ("it is seat 1's turn", SH-6.3; "dealer seat 0"); the
    page names the players (Ann, Bob, Cleo), the page's own seat as elsewhere ("Bob (you)").
    The typed move's help says how suits are typed (the table shows ♠♥♦♣)."""
    from playwright.sync_api import expect

    # seed 1, three players: the dealer is seat 0 (Ann), seat 1 (Bob) is in turn at the upcard
    state = new_game("shanghai-rummy", players=3, seed=1)
    assert state.to_act == (1,) and int(state.dealer) == 0
    t, page, errors = open_humans_table(browser, server, "shanghai-rummy", seed=1, seat=2)
    expect(page.locator("#conn")).to_have_text("connected as seat 2 (Cleo)")
    # the deal's log line: "deal 1: contract 1 (two sets of 3); dealer seat 0; upcard A♦"
    expect(page.locator("#log")).to_contain_text("dealer Ann")
    assert not re.search(r"\bseat \d", page.locator("#log").inner_text())
    # Cleo types a move out of turn: SH-6.3 names the player in turn
    help_line = page.locator("#typed-help")
    expect(help_line).to_contain_text("Type suits as S H D C (7H is 7\u2665")
    expect(help_line).to_contain_text("a joker as JK")
    assert page.locator("#typed-action").get_attribute("aria-describedby") == "typed-help"
    page.fill("#typed-action", "draw")
    page.press("#typed-action", "Enter")
    refusal = page.locator("#refusal")
    expect(refusal).to_contain_text("SH-6.3")
    expect(refusal).to_contain_text("it is Bob's turn")
    assert not re.search(r"\bseat \d", refusal.inner_text())
    # SH-10.2: the player in turn decides first whether to take the upcard
    page.fill("#typed-action", "buy")
    page.press("#typed-action", "Enter")
    expect(refusal).to_contain_text("SH-10.2")
    expect(refusal).to_contain_text("Bob, in turn, decides first whether to take the upcard")
    assert not re.search(r"\bseat \d", refusal.inner_text())
    assert not errors, errors
    page.close()

    # Bob's own page: his own seat reads "Bob (you)", as on the rest of the page
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(20000)
    page.goto(server.base + t["seats"][1]["url"])
    expect(page.locator("#conn")).to_have_text("connected as seat 1 (Bob)")
    page.fill("#typed-action", "buy")
    page.press("#typed-action", "Enter")
    refusal = page.locator("#refusal")
    expect(refusal).to_contain_text("SH-10.2")
    expect(refusal).to_contain_text("Bob (you), in turn, first takes the upcard")
    assert not re.search(r"\bseat \d", refusal.inner_text())
    # the page's own possessive: "your turn", but "not yours (…)" where no word follows
    # (CC-5.8's refusal read "it is Ann's turn to act, not your (there are …)")
    named = page.evaluate("""async () => {
        const { seatsNamed, logNote, scoreLabel, logPanel } = await import("/js/board.js");
        const rr = (log, phase) => logPanel(log, names, 1, 60, null, "railroad-canasta", phase).textContent;
        const names = ["Ann", "Bob", "Cleo"];
        return [seatsNamed("it is seat 0's turn to act, not seat 1's (there are no out-of-turn plays)", names, 1),
                seatsNamed("seat 1's turn", names, 1), seatsNamed("seat 1 hand", names, 1),
                logNote("pass", "", "shanghai-rummy"), logNote("pass", "", "classic-canasta"),
                scoreLabel("mixed canasta 4\u00d78: 4 4 4 4 4 2 JK JK"),
                scoreLabel("seat 0 hand KC QC 8S 3S JK"),
                seatsNamed("seat 1 is being offered the upcard", names, 1),
                seatsNamed("the upcard is offered to seat 0; seat 1 may not act now", names, 1),
                rr([{seat: 0, action: "pass", note: ""}, {seat: 1, action: "draw", note: ""}], "meld"),
                rr([{seat: 0, action: "pass", note: ""}], "hand_end"),
                rr([{seat: 0, action: "take", note: "takes the pile (2 cards)"}], "meld"),
                rr([{seat: 0, action: "kitty", note: "takes the kitty"},
                    {seat: 1, action: "kitty", note: "places 3D"}], "meld"),
                rr([{seat: 0, action: "take 8 2", note: "takes the pile (3 cards)"}], "meld"),
                rr([{seat: 0, action: "add 2 JK -> J", note: ""},
                    {seat: 1, action: "add 2 -> wild", note: ""}], "meld"),
                logPanel([{seat: -1, action: "", note: "deal 1 ends: seat 1 goes out; totals 30, 0, 5"}],
                         names, 1, 60, null, "shanghai-rummy", "deal_end").textContent,
                logPanel([{seat: 2, action: "draw", note: "declines 10S"}],
                         names, 1, 60, null, "shanghai-rummy", "draw").textContent,
                logPanel([{seat: 0, action: "discard Q", note: "QH"},
                          {seat: 1, action: "draw", note: "places 3D"},
                          {seat: 2, action: "pass", note: ""},
                          {seat: 0, action: "contract 7S 7H JK=7D, 5S 6S 7S 8S",
                           note: "makes the contract (melds 1, 2)"},
                          {seat: 1, action: "layoff 9H -> 2", note: ""},
                          {seat: 2, action: "buy", note: "buys 5H with a penalty card (buy 1 of 3)"}],
                         names, 1, 60, null, "shanghai-rummy", "meld").textContent,
                logPanel([{seat: -1, action: "", note: "upcard 2S JK 3H 5S (pile frozen)"},
                          {seat: 0, action: "take K K", note: "takes the pile (10 cards); places 3H"},
                          {seat: 2, action: "ask 1", note: ""},
                          {seat: 0, action: "take J J, 10 10 10", note: "takes the pile (1 card)"}],
                         names, 1, 60, null, "classic-canasta", "meld").textContent,
                logPanel([{seat: -1, action: "", note: "upcard 5H"}],
                         names, 1, 60, null, "railroad-canasta", "draw").textContent];
    }""")
    # a stand-in bot's badge: playing for the seat during the game, "finished for" after it (a
    # tester read "Bot (normal) playing for you" on every seat after "Game over")
    badges = page.evaluate("""async () => {
        const { seatPlate } = await import("/js/board.js");
        const info = {kind: "bot", takeover: "clock", bot: "ismcts", connected: true};
        const plate = (phase, seat) => seatPlate({phase, hand_sizes: [3, 4, 5], dealer: 0},
            seat, info, ["Ann", "Bob", "Cleo"], 1, []).querySelector(".badge").textContent;
        return [plate("upcard", 1), plate("upcard", 0), plate("game_over", 1),
                plate("game_over", 2)];
    }""")
    assert badges == ["Bot (normal) playing for you", "Bot (normal) playing for them",
                      "Bot (normal) finished for you", "Bot (normal) finished for them"]
    # a bare take says which meld the upcard went on (a tester read "took the pile (2 cards)"
    # fifteen times without knowing where the card went)
    bare = page.evaluate("""async () => {
        const { logPanel } = await import("/js/board.js");
        return logPanel([{seat: 1, action: "discard 3", note: "3S"},
                         {seat: 0, action: "discard 10", note: "10C"},
                         {seat: 1, action: "take", note: "takes the pile (2 cards)"}],
                        ["Ann", "Bob"], 0, 60, null, "classic-canasta", "meld").textContent;
    }""")
    assert "Bob: took the pile (2 cards), putting the upcard 10♣ on the 10s" in bare, bare
    # a Shanghai joker in a meld names the card it stands for (SH-9.4; a tester saw a bare
    # joker in a set of twos)
    joker = page.evaluate("""async () => {
        const { meldView } = await import("/js/board.js");
        const el = meldView({game: "shanghai-rummy"}, {number: 1, owner: 0, kind: "set",
            cards: "AS AD AC JK=AS", physical: ["AS", "AD", "AC", "JK"]});
        return [el.querySelector(".stands-for").textContent,
                el.querySelectorAll(".card-wrap")[3].title];
    }""")
    assert joker == [" Jk as A♠", "Joker standing for A♠"], joker
    # a canasta draw with the pile out of reach says so (a tester read "Draw or take the pile"
    # with draw the only legal move: a frozen pile and no natural pair, or a blocked pile)
    phases = page.evaluate("""async () => {
        const { phaseText } = await import("/js/board.js");
        const obs = {game: "classic-canasta", phase: "draw"};
        const meld = {game: "classic-canasta", phase: "meld"};
        const sh = {game: "shanghai-rummy", phase: "meld", staged: []};
        return [phaseText(obs, true, ["draw"]), phaseText(obs, true, ["draw", "take"]),
                phaseText(obs, false, ["draw"]), phaseText(obs, true),
                phaseText(sh, true, ["discard 4S", "discard JS"]),
                phaseText(meld, true, ["stage 4 4 4", "withdraw"]),
                phaseText(meld, true, ["stage 4 4 4", "withdraw", "meld done"]),
                phaseText(meld, true, ["meld 4 4 4", "discard 7"])];
    }""")
    # the same words as the terminal's (render.phase_text)
    assert phases == ["Draw (the pile cannot be taken now)", "Draw or take the pile",
                      "to draw or take the pile", "Draw or take the pile", "Discard",
                      "Stage more melds to reach the minimum, or withdraw",
                      "Stage more, commit the staged melds (meld done), or withdraw",
                      "Meld or discard"]
    # the scores say what going out needs (a tester learned it only from a refusal), with a
    # link to the rule; not once the game is over
    going = page.evaluate("""async () => {
        const { scorePanel } = await import("/js/board.js");
        const obs = {game: "classic-canasta", side_of: [0, 1], scores: [0, 0],
                     minimums: [50, 50], going_out: {needs: "2 canastas", rule: "CC-10.1"}};
        const foot = (finished) => {
            const f = scorePanel(obs, ["Ann", "Bob"], finished).querySelector("tfoot");
            return f ? [f.textContent, !!f.querySelector("a.rule-link")] : null;
        };
        return [foot(false), foot(true)];
    }""")
    assert going == [["To go out: 2 canastas (CC-10.1)", True], None]
    # and a Shanghai "pass" in the log says what it was (a tester read a bare "Bot 3: pass")
    assert named == ["it is Ann's turn to act, not yours (there are no out-of-turn plays)",
                     "your turn", "your hand", "did not buy", "",
                     "mixed canasta of 8 cards: 4 4 4 4 4 2 JK JK",
                     "seat 0 hand KC QC 8S 3S JK",
                     # the page's own seat as a subject: "you are", not "Bob (you) is"
                     "you are being offered the upcard",
                     "the upcard is offered to Ann; you may not act now",
                     # Railroad's bare "pass" says what it was (RR-12.2 or the kitty)
                     "1.Ann: left the kitty untaken2.Bob (you): drew",
                     "1.Ann: did not take the pile: the hand ended (RR-12.2)",
                     # a bare verb reads as its note, not "take — the pile (2 cards)"
                     "1.Ann: took the pile (2 cards)",
                     # the kitty taken is said once (it read "took the kitty; took the kitty")
                     "1.Ann: took the kitty2.Bob (you): took the kitty; placed 3\u2666",
                     # with its cards: one past-tense sentence, the same verb as the bare take
                     "1.Ann: took the pile (3 cards) with 8 2",
                     # an add names its meld in words (a tester read "added 2 Jk -> J")
                     "1.Ann: added 2 Jk to the jacks2.Bob (you): added 2 to the wild meld",
                     # a Shanghai deal's totals say whose they are (a tester read bare numbers)
                     "1.Table: deal 1 ended: Bob (you) went out; totals: Ann 30, Bob (you) 0, Cleo 5",
                     # a Shanghai draw that declined the upcard: the note alone, not "draw — declined"
                     "1.Cleo: declined 10\u2660",
                     # one past-tense sentence a line, never a command beside a past tense
                     "1.Ann: discarded Q\u26652.Bob (you): drew; placed 3\u26663.Cleo: did not buy"
                     "4.Ann: made the contract 7\u2660 7\u2665 Jk=7\u2666, 5\u2660 6\u2660 7\u2660 8\u2660 (melds 1, 2)"
                     "5.Bob (you): laid off 9\u2665 on meld #2"
                     "6.Cleo: bought 5\u2665 with a penalty card (buy 1 of 3)",
                     # several cards turned up at the deal: only the last is the upcard
                     "1.Table: turned up 2\u2660 Jk 3\u2665 5\u2660 to start the pile; the upcard is "
                     "5\u2660 (pile frozen)2.Ann: took the pile (10 cards) with K K; placed 3\u2665"
                     # the partner asked is named, not "asked 1"; a take's other melds said so
                     "3.Cleo: asked Bob (you) \u201cmay I go out?\u201d"
                     "4.Ann: took the pile (1 card) with J J, melding 10 10 10 with it",
                     # one card turned up: a sentence too (it read "Table: upcard A♥")
                     "1.Table: turned up 5♥ to start the pile"], named
    page.close()


def test_lobby_fits_a_phone_with_the_house_rules_open(server, browser, artifacts):
    """At 390×844 the lobby does not scroll sideways with "House rules" open (it was 624 px
    wide: the long choices of a house rule widened the page, their fields cut off at the
    right), for every game and every preset."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20000)
    page.goto(server.base + "/")
    expect(page.locator("#game option")).to_have_count(3)
    page.click("#options-box summary")
    games = {g["name"]: g for g in server.request("GET", "/api/games").json()}
    for game, g in games.items():
        page.select_option("#game", game)
        for preset in g["presets"]:
            page.select_option("#preset", preset)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (game, preset, width)
            # every field and the preset's note lie inside the screen
            right = page.evaluate("""() => Math.max(...[...document.querySelectorAll(
                '#options-box select, #options-box input, #preset-note, #seat-rows select')]
                .map((e) => e.getBoundingClientRect().right))""")
            assert right <= 390, (game, preset, right)
    page.select_option("#game", "classic-canasta")
    page.select_option("#preset", "pagat")
    page.screenshot(path=str(artifacts / "lobby-phone-house-rules.png"), full_page=True)
    assert not errors, errors
    page.close()


def test_the_table_shows_its_house_rules(server, browser):
    """The table says the house rules in effect, those that differ from the defaults, in the
    lobby's words (``labels`` and ``choice_labels`` of GET /api/games): a pagat table with a
    target of 3,000 (CC-13.1: 5,000 for four players, the option's default ``None``) says them
    all; a table at the defaults says it plays the rules as written."""
    from playwright.sync_api import expect

    games = {g["name"]: g for g in server.request("GET", "/api/games").json()}
    g = games["classic-canasta"]
    assert g["options"]["target_score"] is None       # CC-13.1's target for the player count
    options = {**g["presets"]["pagat"], "target_score": 3000}
    t = server.create("classic-canasta", seats=[{"kind": "human", "name": "Ann"}]
                      + [{"kind": "bot", "bot": "heuristic"}] * 3, options=options, seed=3,
                      bot_pause=0.3)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20000)
    page.goto(server.base + t["seats"][0]["url"])
    rules = page.locator("#house-rules")
    expect(rules).to_contain_text("House rules: ")
    text = rules.inner_text()
    assert "Wild cards in a meld: at most 3 wild cards" in text, text
    assert "Hidden canasta bonus: 0" in text, text
    assert "Black three as first upcard: left on top" in text, text
    assert "Target score: 3,000" in text, text
    assert "Tie at the top" not in text        # at its default: not a house rule here
    assert "_" not in text and '"' not in text
    # the canasta games name cards by kind: the typed move's help says so
    expect(page.locator("#typed-help")).to_contain_text("without suits")
    assert not errors, errors
    page.close()

    t = server.create("classic-canasta", seats=[{"kind": "human", "name": "Ann"}]
                      + [{"kind": "bot", "bot": "heuristic"}] * 3, seed=3, bot_pause=0.3)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(20000)
    page.goto(server.base + t["seats"][0]["url"])
    expect(page.locator("#house-rules")).to_contain_text(
        "House rules: none \u2014 the rules as written")
    page.close()


def test_the_preset_picker_says_when_an_option_was_changed(server, browser):
    """Once an option is changed by hand so that the options are no preset's, the picker says
    "pagat, changed" and its note lists the change; changed back, it says "pagat" again; and
    options set by hand to a preset's read as that preset."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20000)
    page.goto(server.base + "/")
    expect(page.locator("#game option")).to_have_count(3)
    page.select_option("#game", "classic-canasta")
    page.click("#options-box summary")
    picked = page.locator("#preset option:checked")
    note = page.locator("#preset-note")
    page.select_option("#preset", "pagat")
    expect(picked).to_have_text("pagat")
    page.fill("#opt-target_score", "3000")
    expect(picked).to_have_text("pagat, changed")
    expect(note).to_contain_text("changed by hand: Target score \u2192 3,000")
    expect(note).to_contain_text("Wild cards in a meld \u2192 at most 3 wild cards")
    # a preset's own change undone by hand is a change too
    page.fill("#opt-hidden_canasta_bonus", "100")
    expect(note).to_contain_text(
        "changed by hand: Hidden canasta bonus \u2192 100; Target score \u2192 3,000")
    page.fill("#opt-hidden_canasta_bonus", "0")
    page.fill("#opt-target_score", "")      # empty: the default, CC-13.1's target
    expect(picked).to_have_text("pagat")
    expect(note).not_to_contain_text("changed")
    expect(page.locator("#preset option")).to_have_count(3)
    # the table is created with what the fields say
    page.fill("#opt-target_score", "3000")
    page.click("#create-btn")
    expect(page.locator("#created")).to_contain_text("Table created")
    # back to the standard preset, then pagat's three options by hand: that is pagat
    page.select_option("#preset", "standard")
    expect(note).to_contain_text("The rules as written")
    page.select_option("#opt-wild_ratio", value='"pagat"')
    expect(picked).to_have_text("standard, changed")
    page.fill("#opt-hidden_canasta_bonus", "0")
    page.select_option("#opt-black_three_upcard", value='"leave"')
    expect(picked).to_have_text("pagat")
    assert not errors, errors
    page.close()


def test_a_hint_with_melds_staged_names_its_melding(server, browser):
    """With melds staged that are not part of the recommended melding, the hint's step is
    "withdraw all" (hints.py, ``next``): the page says the whole melding (``plan``) and then
    that step ("Recommended: the melding …; its next step: withdraw all"), not a bare
    "withdraw all".  The hint's JSON is the server's shape (``Hint.to_json`` and its
    ``version``), given to the page here so that the position's search does not decide it."""
    import json

    from playwright.sync_api import expect

    seed, meld = seed_with_a_first_meld()
    t, page, errors = open_seat_against_bots(browser, server, seed)
    tok = t["seats"][0]["token"]
    page.click('button[data-action="draw"]')
    expect(page.locator("#hand button.card-btn")).to_have_count(12)
    page.fill("#typed-action", meld)
    page.press("#typed-action", "Enter")
    expect(page.locator("#staged li.staged-meld")).to_have_count(1)
    view = server.view(t["table"], tok)
    legal = view["view"]["legal"]
    step = "withdraw all" if "withdraw all" in legal else "withdraw"
    assert step in legal
    hint = {"seat": 0, "bot": "ismcts", "action": step, "value": 40, "samples": 64,
            "legal_count": len(legal), "plan": "meld Q Q Q, 7 7 2", "next": step,
            "why": "It did best on the deals sampled.", "gate": "", "penalty_points": False,
            "measured_deals": 0, "alternatives": [], "version": view["view"]["version"]}
    page.route("**/api/tables/*/hint", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(hint)))
    page.click("#hint-btn")
    box = page.locator("#hint-box")
    expect(box).to_contain_text("Recommended: the melding meld Q Q Q, 7 7 2")
    expect(box.locator(".hint-step")).to_contain_text("Its next step:")
    expect(box.locator(".hint-step")).to_contain_text("what you have staged is not part of it")
    expect(page.locator("#hint-move")).to_have_attribute("data-action", step)
    # without a melding (plan null) the step is the recommendation itself
    hint["plan"] = None
    page.unroute("**/api/tables/*/hint")
    page.route("**/api/tables/*/hint", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(hint)))
    page.click("#hint-btn")
    expect(box.locator(".hint-step")).to_have_count(0)
    expect(box.locator(".hint-best")).to_contain_text("Recommended:")
    expect(page.locator("#hint-move")).to_have_attribute("data-action", step)
    assert not errors, errors
    page.close()


def test_opening_the_spectator_link_keeps_your_seat_in_your_tables(server, browser):
    """A tester opened their table's spectator link in a second tab: "Your tables" then
    listed the table as a spectator's and its seat link was gone from the lobby.  The seat
    this browser plays stays remembered."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20000)
    page.goto(server.base + "/")
    page.select_option("#game", "classic-canasta")
    page.select_option("#players", "2")
    page.fill("#seat-0-name", "Tess")
    page.select_option("#seat-1-who", "bot:heuristic")
    page.click("#create-btn")
    expect(page.locator("#created")).to_contain_text("Table created")
    spect = page.locator("#mine li details input.link").first.input_value()
    page.click("#open-my-seat")
    expect(page.locator("#conn")).to_contain_text("connected as seat 0")
    watcher = context.new_page()
    watcher.goto(spect)
    expect(watcher.locator("#conn")).to_contain_text("connected (watching)")
    page.goto(server.base + "/")
    expect(page.locator("#mine li").first).to_contain_text("seat 0")
    href = page.locator("#mine li a").first.get_attribute("href")
    assert href and spect.split("k=", 1)[1] not in href, (href, spect)
    context.close()
