// The turn clock and the stand-in bot on the table page, in a strip above the table:
// - the time left for the decision at hand (the server sends each seat's `clock_left` in
//   seconds with every state; the page counts down from it);
// - for a seat the stand-in bot plays for its person: "A bot is playing for you (your clock ran
//   out)." and the button "Take my seat back" (POST /api/tables/{id}/take-back with the seat's
//   token: the seat is the player's again at once, with a whole clock for the decision at
//   hand);
// - the table's public notices (`common.events`: takeovers, seats taken back, bot moves the
//   watchdog replaced with the heuristic's), the newest one in view, earlier ones folded.
// table.js calls renderWatch() with each state message; everything else lives here.

import { api, h } from "./api.js";
import { seatsNamed } from "./board.js";

let strip = null;          // the strip's element (made on first use)
let ctx = null;            // { tableId, token, role, mySeat, onError }
let clocks = [];           // [{ seat, name, left, at }] the decisions with a clock running
let ticker = null;
let busy = false;          // a take-back request is on its way

const REASONS = {
  clock: "your clock ran out",
  disconnected: "you were away at your turn",
};

function ensureStrip() {
  if (strip && strip.isConnected) return strip;
  strip = document.getElementById("watch") || h("section.watch", { id: "watch", "aria-label": "Turn clock and stand-in bot" });
  if (!strip.isConnected) {
    const main = document.querySelector("main");
    if (main) main.before(strip); else document.body.append(strip);
  }
  return strip;
}

/** Seconds as the clock shows them: "42 s", "1:05". */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function tick() {
  const el = document.getElementById("turn-clock");
  if (!el) return;
  const now = performance.now();
  el.replaceChildren(...clocks.map((c, i) => {
    const left = Math.max(0, c.left - (now - c.at) / 1000);
    const who = c.seat === ctx.mySeat && ctx.role === "seat" ? "Your clock" : `${c.name}'s clock`;
    return h("span.clock" + (left <= 10 ? ".low" : ""), { dataset: { seat: String(c.seat) } },
      i ? " · " : "", `${who}: `, h("strong", clockText(left)));
  }));
}

async function takeBack(button) {
  if (busy) return;
  busy = true;
  button.disabled = true;
  try {
    await api("POST", `/api/tables/${encodeURIComponent(ctx.tableId)}/take-back`, { token: ctx.token });
    // the server pushes the table's new state to every page
  } catch (e) {
    if (ctx.onError) ctx.onError({ code: e.code, message: e.message });
    button.disabled = false;
  } finally {
    busy = false;
  }
}

/** Show the clock, the takeover notice of this page's seat and the table's notices for the
 *  state message `msg`.  opts: { tableId, token, role, mySeat, onError(refusal) }. */
export function renderWatch(msg, opts) {
  ctx = opts;
  const box = ensureStrip();
  const seats = msg.seats || [];
  const common = msg.common || {};
  const parts = [];

  const mine = ctx.role === "seat" ? seats.find((s) => s.seat === ctx.mySeat) : null;
  const takenOver = !!(mine && mine.takeover && !common.finished);
  document.body.classList.toggle("seat-played-by-bot", takenOver);
  if (takenOver) {
    // the same banner while the reason stays: every bot move re-renders the page, and a
    // button rebuilt each time lost the click that landed during a re-render (a tester)
    const old = document.getElementById("takeover-banner");
    if (old && old.dataset.reason === mine.takeover) {
      parts.push(old);
    } else {
      const button = h("button.primary", { type: "button", id: "take-back" }, "Take my seat back");
      button.disabled = busy;
      button.addEventListener("click", () => takeBack(button));
      parts.push(h("div.takeover-banner", { id: "takeover-banner", role: "alert",
        dataset: { reason: mine.takeover } },
        h("span", `A bot is playing for you (${REASONS[mine.takeover] || "a stand-in"}). `), button));
    }
  }

  const now = performance.now();
  clocks = common.finished ? [] : seats.filter((s) => s.clock_left !== null && s.clock_left !== undefined)
    .map((s) => ({ seat: s.seat, name: s.name, left: s.clock_left, at: now }));
  if (clocks.length) parts.push(h("p.turn-clock", { id: "turn-clock", role: "timer", "aria-live": "off" }));

  const events = common.events || [];
  // a notice may quote the engine's sentence ("it is seat 2's turn"): players have names
  const names = seats.map((s) => s.name);
  const words = (e) => seatsNamed(e.text, names, ctx.role === "seat" ? ctx.mySeat : null);
  if (events.length) {
    const newest = events[events.length - 1];
    const before = document.getElementById("table-notices");
    const list = h("details.notices", { id: "table-notices", open: !!(before && before.open) },
      // the count says there are more than the newest (a tester saw only one of two)
      h("summary", h("span.dim", events.length > 1 ? `Table notices (${events.length}; open for all): `
        : "Table notices: "), h("span.notice-latest", words(newest))));
    const ul = h("ul");
    for (const e of events.slice(0, -1).reverse()) ul.append(h("li", words(e)));
    if (ul.children.length) list.append(ul);
    parts.push(list);
  }

  // children that stay (the banner) are not taken out and put back: only what changed moves
  const want = new Set(parts);
  for (const child of [...box.children]) if (!want.has(child)) child.remove();
  parts.forEach((el, i) => { if (box.children[i] !== el) box.insertBefore(el, box.children[i] || null); });
  box.hidden = !parts.length;
  if (clocks.length) {
    tick();
    if (!ticker) ticker = setInterval(tick, 250);
  } else if (ticker) {
    clearInterval(ticker);
    ticker = null;
  }
}
