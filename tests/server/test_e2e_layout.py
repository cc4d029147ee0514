"""The table page's layout in a real browser: Debian's Chromium, headless, driven by Playwright.

For each game, at 1366×900 and at 390×844: the seats sit around the table (the partner
opposite), and nothing covers anything a player reads — the hand panel, each seat's (or
side's) melds, the stock and the pile, the staged melds and, when the hand is over, the score
breakdown: their boxes do not overlap, every meld lies inside its own zone, everything lies
within the width, and each of them, scrolled into view, is the element found at its own centre
(no docked or fixed element over it).  The card drawn is marked.  Then the animations' switch
and the lobby's statistics.  Screenshots go to tests/artifacts/ (layout-*.png).

The tables are played by heuristic bots in this process, each move sent to the server for its
seat (the server deals the same cards from the same seed): the positions are the same on every
run, and no bot of the server moves while the page is measured.
"""

from __future__ import annotations

import re

import random
import time
from itertools import combinations

import pytest

from meldhall import new_game
from meldhall.bots.heuristic import heuristic_bot

from .conftest import CHROMIUM

pytestmark = pytest.mark.skipif(not __import__("pathlib").Path(CHROMIUM).exists(),
                                reason=f"no Chromium at {CHROMIUM} (.ci/run installs it)")

NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal"]
WIDE, PHONE = (1366, 900), (390, 844)
NO_ANIMATIONS = "localStorage.setItem('meldhall.animations', 'off');"



class Mirror:
    """A server table of people only, played by heuristic bots in this process: each move is
    chosen on the engine's state and sent to the server for its seat, so that both stay in the
    same state."""

    def __init__(self, server, game: str, players: int, seed: int):
        self.server = server
        self.table = server.create(game, seats=[{"kind": "human", "name": n}
                                                for n in NAMES[:players]], seed=seed)
        self.tokens = [s["token"] for s in self.table["seats"]]
        self.state = new_game(game, players=players, seed=seed)
        self.bot = heuristic_bot(game)
        self.rng = random.Random(seed)
        self.version: int | None = 0

    @property
    def id(self) -> str:
        return self.table["table"]

    def url(self, seat: int) -> str:
        return self.server.base + self.table["seats"][seat]["url"]

    def send(self, text: str, seat: int) -> None:
        # the version the last move returned (the table's); after a move made elsewhere (on the
        # page) it is stale, and the seat's view gives it
        r = self.server.act(self.id, self.tokens[seat], text, self.version) \
            if self.version is not None else None
        if r is None or r.status_code == 409:
            view = self.server.view(self.id, self.tokens[seat])
            version = view["view"].get("version", view["common"]["version"])
            r = self.server.act(self.id, self.tokens[seat], text, version)
        assert r.status_code == 200, (text, r.text)
        self.version = r.json()["version"]
        self.state = self.state.apply_text(text, seat)

    def choose(self, state=None, rng=None) -> tuple[int, str]:
        st = state or self.state
        seat = st.to_act[0]
        return seat, str(self.bot.choose(st.observation(seat), st.legal_actions(seat),
                                         rng or self.rng))

    def play_until(self, stop, limit: int = 4000) -> None:
        for _ in range(limit):
            if stop(self.state):
                return
            seat, action = self.choose()
            self.send(action, seat)
        raise AssertionError("the position was not reached")


def melds_of_others(obs: dict) -> tuple[int, bool]:
    """(how many melds the other sides have, whether seat 0's side has melded)."""
    if obs["game"] == "shanghai-rummy":
        owners = [m["owner"] for m in obs["melds"]]
        return sum(o != 0 for o in owners), 0 in owners
    side = obs["side_of"][0]
    return (sum(len(m) for i, m in enumerate(obs["melds"]) if i != side),
            bool(obs["melds"][side]))


def reach_a_first_melding(m: Mirror, others: int) -> tuple[list[tuple[int, str]], str]:
    """Plays the table to a turn of seat 0 (to draw) at which the other sides have at least
    ``others`` melds and seat 0's side none, and after which (the draw, then the others'
    answers to the upcard) seat 0 can stage a first meld.  Returns the moves between the draw
    and seat 0's melding (the others') and the shortest stage action."""
    look = random.Random(0)
    for _ in range(4000):
        st = m.state
        if st.to_act == (0,) and st.phase in ("draw", "upcard"):
            count, melded = melds_of_others(st.observation(0).to_json())
            if count >= others and not melded:
                after, between = st.apply_text("draw", 0), []
                while after.outcome is None and after.to_act != (0,):
                    seat, action = m.choose(after, look)
                    between.append((seat, action))
                    after = after.apply_text(action, seat)
                stages = sorted((str(a) for a in after.legal_actions(0)
                                 if str(a).startswith("stage ")), key=len)
                if after.outcome is None and stages:
                    return between, stages[0]
        seat, action = m.choose()
        m.send(action, seat)
    raise AssertionError("no first melding found")


# The boxes of what a player reads, whether any is covered, and the fixed or sticky elements.
LAYOUT_JS = r"""() => {
  const q = (s) => document.querySelector(s);
  const qa = (s) => [...document.querySelectorAll(s)];
  // rendered and visible: not hidden, not inside a closed <details>
  const shown = (el) => !!el && el.getClientRects().length > 0
    && el.checkVisibility({ checkVisibilityCSS: true, contentVisibilityAuto: true });
  const abs = (el) => { const r = el.getBoundingClientRect();
    return { x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height }; };
  const add = (list, name, el) => { if (shown(el)) list.push({ name, ...abs(el) }); };
  const boxes = [];
  add(boxes, "the hand panel (#me)", q("#me"));
  add(boxes, "the stock and the pile (#center)", q("#center"));
  add(boxes, "the end-of-hand panel (#hand-over)", q("#hand-over"));
  add(boxes, "the scores and the log (#side)", q("#side"));
  qa("#melds .meld-zone").forEach((z) =>
    add(boxes, "the melds of " + z.querySelector("h3").textContent.trim(), z));
  qa("#players .player").forEach((p) => add(boxes, "the plate of seat " + p.dataset.seat, p));
  const inner = [];
  add(inner, "the cards of the hand (#hand)", q("#hand"));
  add(inner, "the staged melds (#staged)", q("#staged"));
  add(inner, "the moves (#actions .action-buttons)", q("#actions .action-buttons"));
  const spill = [];
  qa("#melds .meld-zone").forEach((z) => {
    const b = z.getBoundingClientRect();
    z.querySelectorAll(".meld").forEach((m) => {
      const r = m.getBoundingClientRect();
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5
          || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5)
        spill.push("a meld out of its zone: " + m.getAttribute("title"));
    });
  });
  const covered = [];
  let probed = 0;
  const probe = (name, el) => {
    if (!shown(el)) return;
    el.scrollIntoView({ block: "center", inline: "nearest" });
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    probed += 1;
    if (!hit || !el.contains(hit))
      covered.push(`${name}: at its centre is `
        + (hit ? hit.tagName + " " + (hit.id || hit.getAttribute("class") || "") : "nothing"));
  };
  qa("#melds .meld").forEach((m) => probe("the meld " + m.getAttribute("title"), m));
  qa("#staged .staged-meld").forEach((m) => probe("the staged meld " + m.dataset.staged, m));
  probe("the stock", q("#center .stock"));
  probe("the pile", q("#center .pile"));
  qa("#hand .card-btn").forEach((b) => probe("the card " + b.dataset.card, b));
  qa("#hand-over .breakdown tr").forEach((tr) =>
    probe("the score line " + tr.textContent.trim(), tr));
  qa("#actions .action-buttons button").forEach((b) => probe("the move " + b.dataset.action, b));
  const fixed = qa("body *")
    .filter((e) => ["fixed", "sticky"].includes(getComputedStyle(e).position))
    .map((e) => e.id || e.getAttribute("class"));
  scrollTo(0, 0);
  const doc = document.documentElement;
  return { vw: doc.clientWidth, scrollWidth: doc.scrollWidth, boxes, inner, spill, covered, probed,
           fixed };
}"""


def overlap(a: dict, b: dict) -> bool:
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return w > 0.5 and h > 0.5


def check_layout(page, where: str, *, zones: int, staged: bool = False,
                 breakdown: bool = False) -> dict:
    """Asserts that what a player reads is laid out apart and uncovered (see the module's
    docstring); returns the measurements."""
    r = page.evaluate(LAYOUT_JS)
    vw = r["vw"]
    names = [b["name"] for b in r["boxes"] + r["inner"]]
    assert sum(n.startswith("the melds of ") for n in names) == zones, (where, names)
    needed = ["the hand panel (#me)", "the stock and the pile (#center)",
              "the cards of the hand (#hand)"]
    needed += ["the staged melds (#staged)"] if staged else []
    needed += ["the end-of-hand panel (#hand-over)"] if breakdown else []
    for part in needed:
        assert part in names, (where, part, names)
    problems = [f"the page is {r['scrollWidth']}px wide in a {vw}px window"] \
        if r["scrollWidth"] > vw + 1 else []
    for b in r["boxes"] + r["inner"]:
        if b["x"] < -0.5 or b["x"] + b["w"] > vw + 0.5:
            problems.append(f"{b['name']} lies outside the width: "
                            f"x {b['x']:.0f}..{b['x'] + b['w']:.0f}")
    for group in (r["boxes"], r["inner"]):
        for a, b in combinations(group, 2):
            if overlap(a, b):
                problems.append(f"{a['name']} overlaps {b['name']}")
    problems += r["spill"] + r["covered"]
    # the only element that stays in place is the side panel, in its own column
    problems += [f"a fixed or sticky element: {f}" for f in r["fixed"] if f != "side"]
    assert not problems, (where, problems)
    assert r["probed"] > 10, (where, r["probed"])
    if vw >= 1000:
        # a long move text wraps inside the header; "connected as seat 0 (Name)" stays on the
        # top bar's first line (a tester saw it pushed down at 1366 px)
        brand, conn = box(page, ".topbar .brand"), box(page, "#conn")
        assert conn["y"] < brand["y"] + brand["height"], (where, brand, conn)
    return r


def shoot(page, artifacts, name: str) -> None:
    size = page.viewport_size
    stem = f"layout-{name}-{size['width']}x{size['height']}"
    page.screenshot(path=str(artifacts / f"{stem}.png"))
    if size["width"] < 900:
        page.screenshot(path=str(artifacts / f"{stem}-full.png"), full_page=True)


def open_seat(browser, url: str, size: tuple[int, int]):
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30000)
    page.add_init_script(NO_ANIMATIONS)
    page.goto(url)
    expect(page.locator("#conn")).to_contain_text("connected as seat 0")
    return page, errors


def box(page, selector: str) -> dict:
    b = page.locator(selector).bounding_box()
    assert b, selector
    return b


@pytest.mark.parametrize(("game", "players", "seed", "others"), [
    ("classic-canasta", 4, 12, 2),
    ("railroad-canasta", 4, 58, 6),
    ("shanghai-rummy", 5, 18, 6),
])
def test_the_table_layout_leaves_everything_readable(server, browser, artifacts, game, players,
                                                     seed, others):
    """A hand of each game at 1366×900 and 390×844: the seats around the table, the card drawn
    marked, a first meld staged, then the end of the hand with its score breakdown; at every
    step nothing a player reads is covered (see the module's docstring)."""
    from playwright.sync_api import expect

    m = Mirror(server, game, players, seed)
    between, stage = reach_a_first_melding(m, others)
    zones = players if game != "classic-canasta" else 2
    obs = m.state.observation(0).to_json()
    on_table = len(obs["melds"]) if game == "shanghai-rummy" else sum(map(len, obs["melds"]))
    assert on_table >= others
    page, errors = open_seat(browser, m.url(0), WIDE)
    expect(page.locator("#melds .meld")).to_have_count(on_table)
    # the seats as players sit: the viewer at the bottom, the next seat at the left, the last at
    # the right, the others across the top; the partner (Classic, four players) opposite
    me, left, right = (box(page, f'#players .player[data-seat="{s}"]') for s in (0, 1, players - 1))
    centre = box(page, "#center")
    assert left["x"] + left["width"] <= centre["x"] < centre["x"] + centre["width"] <= right["x"]
    assert me["y"] > centre["y"] + centre["height"] / 2
    if game == "classic-canasta":
        partner = box(page, '#players .player[data-seat="2"]')
        assert partner["y"] + partner["height"] <= centre["y"]
        assert abs((partner["x"] + partner["width"] / 2) - (centre["x"] + centre["width"] / 2)) < 40
        ours = box(page, '#melds .meld-zone[data-side="0"]')
        theirs = box(page, '#melds .meld-zone[data-side="1"]')
        assert theirs["y"] + theirs["height"] <= centre["y"]
        assert centre["y"] + centre["height"] <= ours["y"]
    check_layout(page, f"{game} before the draw, wide", zones=zones)

    # the draw, by keyboard: the card drawn is marked (a gold ring and "new"), and uncovered
    page.focus('#actions button[data-action="draw"]')
    page.keyboard.press("Enter")
    m.state = m.state.apply_text("draw", 0)
    for seat, action in between:      # the others' answers to the upcard (Shanghai)
        m.send(action, seat)
    expect(page.locator(".turn.mine")).to_contain_text("Meld or discard")
    drawn = page.locator("#hand .card-btn.drawn")
    expect(drawn).not_to_have_count(0)
    ring = drawn.first.locator("svg").evaluate("e => getComputedStyle(e).outlineStyle")
    assert ring == "solid"
    expect(drawn.first.locator(".new-badge")).to_have_text("new")
    check_layout(page, f"{game} after the draw, wide", zones=zones)

    # a first meld staged: the staged area shows it apart from the table's melds
    m.send(stage, 0)
    expect(page.locator("#staged .staged-meld")).to_have_count(1)
    status = page.locator("#staged .staged-status")
    if game == "shanghai-rummy":
        expect(status).to_contain_text("1 of 2 melds staged")
    else:
        expect(status).to_contain_text("count ")
    for size in (WIDE, PHONE):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        check_layout(page, f"{game} with a staged meld, {size}", zones=zones, staged=True)
        shoot(page, artifacts, f"{game}-staged")
    assert not errors, errors
    page.close()

    # the end of the hand: the finished hand's panel, its score breakdown uncovered
    m.play_until(lambda st: st.outcome is not None)
    for size in (WIDE, PHONE):
        page, errors = open_seat(browser, m.url(0), size)
        expect(page.locator("#hand-over")).to_be_visible()
        expect(page.locator("#hand-over .breakdown tr").first).to_be_visible()
        check_layout(page, f"{game} at the end of the hand, {size}", zones=zones, breakdown=True)
        shoot(page, artifacts, f"{game}-hand-end")
        assert not errors, errors
        if size == PHONE:
            break
        page.close()

    # the next hand: the finished hand stays while this seat has not played in it, then folds
    # to one line (it filled a phone's screen through the next hand), and opens again on
    # request
    m.play_until(lambda st: st.outcome is None and st.to_act == (0,))
    panel = page.locator("#hand-over")
    expect(page.locator("#hand-over .breakdown tr").first).to_be_visible()
    seat, action = m.choose()
    m.send(action, seat)  # seat 0's first move of the new hand
    expect(panel).to_have_class(re.compile(r"\bfolded\b"))
    expect(page.locator("#hand-over .breakdown")).to_have_count(0)
    assert panel.bounding_box()["height"] < 120, panel.bounding_box()
    page.click("#hand-over-show")
    expect(page.locator("#hand-over .breakdown tr").first).to_be_visible()
    m.play_until(lambda st: st.to_act == (0,))   # it stays open once opened again
    seat, action = m.choose()
    m.send(action, seat)
    expect(page.locator("#hand-over .breakdown tr").first).to_be_visible()
    page.click("#hand-over-close")
    expect(panel).to_be_hidden()
    assert not errors, errors
    page.close()


@pytest.mark.parametrize(("game", "players", "seed", "moves"), [
    ("classic-canasta", 2, 3, 15),
    ("classic-canasta", 6, 5, 30),
    ("railroad-canasta", 3, 3, 25),
    ("shanghai-rummy", 8, 4, 78),
])
def test_every_table_size_is_laid_out(server, browser, artifacts, game, players, seed, moves):
    """Two to eight seats: each seat around the table (a strip on a phone), its melds in front
    of it, nothing covered, at both sizes."""
    from playwright.sync_api import expect

    m = Mirror(server, game, players, seed)
    for _ in range(moves):
        seat, action = m.choose()
        m.send(action, seat)
    obs = m.state.observation(0).to_json()
    zones = players if game == "shanghai-rummy" else max(obs["side_of"]) + 1
    page, errors = open_seat(browser, m.url(0), WIDE)
    expect(page.locator("#players .player")).to_have_count(players)
    positions = page.locator("#players .player").evaluate_all(
        "ps => ps.map((p) => p.dataset.position)")
    assert positions[0] == "bottom" and positions.count("bottom") == 1, positions
    for size in (WIDE, PHONE):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        check_layout(page, f"{game}, {players} players, {size}", zones=zones)
        shoot(page, artifacts, f"{game}-{players}p")
    assert not errors, errors
    page.close()


# every card flying across the table (motion.js), as it is added to the page
RECORD_FLIGHTS = """(() => {
  window.__flights = 0;
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes)
      if (n.classList && n.classList.contains("flying-card")) window.__flights += 1;
  }).observe(document, { childList: true, subtree: true });
})();"""


def test_animations_fly_cards_and_can_be_turned_off(server, browser):
    """A draw flies a card from the stock to the hand, a discard from the seat to the pile;
    "Animations: off" (remembered in the browser) stops them, and the page's transitions."""
    from playwright.sync_api import expect

    m = Mirror(server, "classic-canasta", 2, 3)
    m.play_until(lambda st: st.to_act == (0,) and st.phase == "draw")
    page = browser.new_page(viewport={"width": WIDE[0], "height": WIDE[1]})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30000)
    page.add_init_script(RECORD_FLIGHTS)
    page.goto(m.url(0))
    expect(page.locator("#conn")).to_contain_text("connected as seat 0")
    toggle = page.locator("#anim-toggle")
    expect(toggle).to_have_text("Animations: on")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.click('#actions button[data-action="draw"]')
    expect(page.locator("#hand .card-btn.drawn")).not_to_have_count(0)
    deadline = time.monotonic() + 10
    while not page.evaluate("window.__flights"):
        assert time.monotonic() < deadline, "no card flew"
        time.sleep(0.05)
    # the flying card takes no clicks and is gone after its flight
    expect(page.locator(".flying-card")).to_have_count(0)

    # by keyboard: the switch is a button
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_text("Animations: off")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('meldhall.animations')") == "off"
    assert page.locator("#hand .card-btn").first.evaluate(
        "e => getComputedStyle(e).transitionDuration") == "0s"
    page.reload()
    expect(toggle).to_have_text("Animations: off")
    flights = page.evaluate("window.__flights")
    m.state = m.state.apply_text("draw", 0)
    page.locator("#hand .card-btn").first.click()
    discard = page.locator('#actions button.primary[data-action^="discard"]').first
    m.state = m.state.apply_text(discard.get_attribute("data-action"), 0)
    discard.click()
    expect(page.locator(".turn.mine")).to_have_count(0)
    seat, action = m.choose()
    m.send(action, seat)                         # the other seat draws
    expect(page.locator("#log")).to_contain_text(f"{NAMES[1]}: drew")
    time.sleep(0.5)
    assert page.evaluate("window.__flights") == flights
    assert not errors, errors
    page.close()


def finish(server, t: dict, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not server.request("GET", f"/api/tables/{t['table']}",
                             t["creator_token"]).json()["finished"]:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)


def test_lobby_shows_this_browsers_statistics(server, browser, artifacts):
    """Games played and won per game and opponent level, kept in the browser (localStorage, a
    profile id): a game counts once it is over — seen on its table page, or found finished by
    the lobby — and once only."""
    from playwright.sync_api import expect

    def bots_table(opponent: str) -> dict:
        # seat 0 is this browser's seat, played by a bot too: the game ends on its own
        return server.create("classic-canasta", seats=[
            {"kind": "bot", "bot": "heuristic", "name": "Me"},
            {"kind": "bot", "bot": opponent, "name": "Them"}],
            options={"target_score": 100}, bot_pause=0)

    first, second = bots_table("random"), bots_table("heuristic")
    finish(server, first)
    finish(server, second)

    def won(t: dict) -> int:
        common = server.view(t["table"], t["seats"][0]["token"])["common"]
        return int(0 in common["outcomes"][-1]["winners"])

    page = browser.new_page(viewport={"width": WIDE[0], "height": WIDE[1]})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30000)
    page.goto(server.base + "/")
    expect(page.locator("#stats")).to_contain_text("No finished game yet.")
    profile = page.locator("#stats-profile").inner_text()
    assert profile.startswith("profile ") and len(profile) > 12
    # a game counts only if this browser played a move of it (the bot played seat 0 here):
    # as if it had (tests/server/test_e2e_browser.py plays one and checks the rule)
    page.evaluate("""(tables) => {
        const data = JSON.parse(localStorage.getItem("meldhall.stats"));
        data.tables = Object.fromEntries(tables.map((t) => [t, { people: [], moved: true }]));
        localStorage.setItem("meldhall.stats", JSON.stringify(data));
    }""", [first["table"], second["table"]])

    # the first game: its table page shows the end and counts it
    page.goto(server.base + first["seats"][0]["url"])
    expect(page.locator("#finished")).to_contain_text("Game over")
    page.goto(server.base + "/")
    rows = page.locator("#stats-table tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-level", "random")
    cells = rows.first.locator("td")
    expect(cells.nth(0)).to_have_text("Classic Canasta")
    expect(cells.nth(1)).to_have_text("random bot")
    expect(cells.nth(2)).to_have_text("1")
    expect(cells.nth(3)).to_have_text(str(won(first)))

    # the second: ended while no page of it was open; the lobby finds it finished
    page.evaluate("""([t, tok]) => {
        const list = JSON.parse(localStorage.getItem("meldhall.tables") || "[]");
        list.unshift({ table: t, game: "classic-canasta", token: tok, role: "seat", seat: 0,
                       created: Date.now() });
        localStorage.setItem("meldhall.tables", JSON.stringify(list));
    }""", [second["table"], second["seats"][0]["token"]])
    page.reload()
    expect(rows).to_have_count(2)
    heuristic = page.locator('#stats-table tbody tr[data-level="heuristic"] td')
    expect(heuristic.nth(1)).to_have_text("heuristic bot")
    expect(heuristic.nth(2)).to_have_text("1")
    expect(heuristic.nth(3)).to_have_text(str(won(second)))
    total = page.locator("#stats-table tfoot td")
    expect(total.nth(0)).to_have_text("2")
    expect(total.nth(1)).to_have_text(str(won(first) + won(second)))
    page.locator("#stats-table").screenshot(path=str(artifacts / "layout-lobby-statistics.png"))
    # counted once: the table page again, the lobby again
    page.goto(server.base + first["seats"][0]["url"])
    expect(page.locator("#finished")).to_contain_text("Game over")
    page.goto(server.base + "/")
    expect(page.locator("#mine li")).to_have_count(2)
    expect(total.nth(0)).to_have_text("2")
    assert page.locator("#stats-profile").inner_text() == profile
    assert not errors, errors
    page.close()


def test_the_header_jump_links_keep_the_seat(server, browser):
    """At 390×844 the header's "Your hand" and "Scores and log" scroll to their part of the
    page and keep the address (its fragment holds the table and the seat's key): a tester
    tapped one and the page said "This link has no table or no token"."""
    from playwright.sync_api import expect

    m = Mirror(server, "classic-canasta", 2, 3)
    url = m.url(0)
    page, errors = open_seat(browser, url, PHONE)
    for name, part in (("Your hand", "#me"), ("Scores and log", "#side")):
        page.click(f'nav.jump a[href="{part}"]')
        expect(page.locator("#conn")).to_contain_text("connected as seat 0")
        assert page.url == url
        top = page.locator(part).bounding_box()
        assert top is not None and -2 <= top["y"] < PHONE[1] - 40, (name, top)  # in view
    # an in-page anchor typed into the address keeps the seat too
    page.evaluate("location.hash = 'me'")
    page.wait_for_timeout(300)
    expect(page.locator("#conn")).to_contain_text("connected as seat 0")
    assert not errors, errors
    page.close()
