// The replay page: steps through a record.  The server replays it (POST /api/replay) and
// returns the view at a step: the public view, or one seat's observation.
//
// The record is kept as the TEXT it was read as and sent to the server as it is: its seed may
// be larger than 2**53 (records made by `meldhall play`, tables made before seeds had 53 bits),
// and JSON.parse would round it, so that the record no longer replays.  The parsed copy is used
// only for the seat names; nothing parsed is ever sent back.

import { api, apiText, fragment, h } from "./api.js";
import { prettyNotation, sortCards } from "./cards.js";
import { cardRow, headerInfo, logPanel, scorePanel, scoreSheet, setYouLabel } from "./board.js";
import { renderFelt } from "./felt.js";

setYouLabel("(viewing)");

const $ = (id) => document.getElementById(id);
let record = null;         // the record's text, exactly as read
let steps = 0;
let step = 0;
let busy = false;
let queued = null;

async function loadRecord(text) {
  const rec = JSON.parse(text);      // only to check it and to name the seats
  if (!rec || typeof rec !== "object" || Array.isArray(rec)) throw new Error("a record is a JSON object");
  const players = Number.isInteger(rec.players) && rec.players > 0 && rec.players <= 8 ? rec.players : 0;
  const seats = Array.isArray(rec.seats) ? rec.seats : [];
  record = text;
  step = 0;
  $("load-error").textContent = "";
  const seat = $("seat");
  seat.replaceChildren(h("option", { value: "" }, "public"),
    ...Array.from({ length: players }, (_, i) => h("option", { value: String(i) }, `seat ${i}: ${seats[i] || ""}`)));
  await show(0);
}

async function show(n) {
  if (!record) return;
  if (busy) { queued = n; return; }
  busy = true;
  try {
    const seatVal = $("seat").value;
    const seat = seatVal === "" ? null : +seatVal;
    // the record's text spliced in as it is (see the top of this file)
    const rawBody = `{"step":${Math.max(0, Math.floor(n) || 0)},"seat":${JSON.stringify(seat)},"record":${record}}`;
    const r = await api("POST", "/api/replay", { rawBody });
    steps = r.steps;
    step = r.step;
    render(r, seatVal === "" ? null : +seatVal);
  } catch (e) {
    $("load-error").textContent = e.message;
  } finally {
    busy = false;
    if (queued !== null) { const q = queued; queued = null; show(q); }
  }
}

function render(r, seat) {
  const obs = r.view;
  const names = r.seats.length ? r.seats : Array.from({ length: r.players }, (_, i) => `Seat ${i}`);
  $("controls").hidden = false;
  $("board").hidden = false;
  const slider = $("step");
  slider.max = String(r.steps);
  slider.value = String(r.step);
  $("step-label").textContent = `step ${r.step} of ${r.steps}` + (r.action ? ` — ${prettyNotation(r.action)}` : "");
  const common = { to_act: r.to_act, finished: r.finished };
  $("header").replaceChildren(headerInfo(obs, common, names, seat));
  renderFelt($("felt"), obs, null, names, seat, r.to_act);
  $("scores-box").replaceChildren(scorePanel(obs, names, r.finished));
  $("sheet").replaceChildren(scoreSheet(r.outcomes, obs, names, seat));
  $("log").replaceChildren(logPanel(obs.log, names, seat, 60, obs.log_total, obs.game, obs.phase));
  $("log").scrollTop = $("log").scrollHeight;
  $("hand-title").textContent = seat === null ? "Hand (choose a seat to see it)" : `Hand of ${names[seat]}`;
  $("hand").replaceChildren(cardRow(sortCards(obs.hand || [], "rank")));
  $("status").replaceChildren(r.finished && r.result ? h("p", "Final scores: " + (r.result.scores || []).join(" / ")) : "");
}

$("file").addEventListener("change", async () => {
  const f = $("file").files[0];
  if (!f) return;
  try {
    await loadRecord(await f.text());
  } catch (e) {
    $("load-error").textContent = "Not a record: " + e.message;
  }
});
$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(step - 1));
$("next").addEventListener("click", () => show(step + 1));
$("last").addEventListener("click", () => show(steps));
$("step").addEventListener("input", () => show(+$("step").value));
$("seat").addEventListener("change", () => show(step));
document.addEventListener("keydown", (ev) => {
  if (!record || ev.target.tagName === "INPUT" && ev.target.type !== "range") return;
  if (ev.key === "ArrowRight") { show(step + 1); ev.preventDefault(); }
  if (ev.key === "ArrowLeft") { show(step - 1); ev.preventDefault(); }
  if (ev.key === "Home") show(0);
  if (ev.key === "End") show(steps);
});

const frag = fragment();
if (frag.t && frag.k) {
  apiText("GET", `/api/tables/${encodeURIComponent(frag.t)}/record`, { token: frag.k })
    .then(loadRecord)
    .catch((e) => { $("load-error").textContent = e.message; });
}
