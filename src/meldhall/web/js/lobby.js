// The lobby: create a table (game, players, options, bots) and list this browser's tables.

import { api, absolute, forgetTable, GAME_TITLES, h, knownTables, rememberTable } from "./api.js";
import { houseRuleChanges, matchingPreset, optionLabel, presetOptions, valueWords } from "./houserules.js";
import { isCounted, levelWords, profileId, recordGame, resetStats, statsRows } from "./stats.js";
import { botLevel } from "./board.js";

const $ = (id) => document.getElementById(id);
let games = [];
let config = {};

async function init() {
  try {
    [games, config] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/config")]);
  } catch (e) {
    $("create-error").textContent = "The server cannot be reached: " + e.message;
    return;
  }
  const sel = $("game");
  for (const g of games) sel.append(h("option", { value: g.name }, GAME_TITLES[g.name] || g.name));
  sel.addEventListener("change", onGame);
  $("players").addEventListener("change", seatRows);
  $("seed-field").hidden = !config.allow_seeds;
  clockChoices();
  onGame();
  listTables();
  showStats();
}

function game() {
  return games.find((g) => g.name === $("game").value) || games[0];
}

function onGame() {
  const g = game();
  const ps = $("players");
  ps.replaceChildren(...g.players.map((n) => h("option", { value: n, selected: n === g.default_players }, String(n))));
  seatRows();
  optionInputs(g);
  standInChoices(g);
}

// ------------------------------------------------------------------ turn clock
// The server's choices (/api/config clock_choices, seconds); off by default while at most one
// seat is a person, two minutes (or the nearest choice) once friends play, until changed here.
let clockTouched = false;

function clockWords(s) {
  return s < 60 || s % 60 ? `${s} s a decision` : `${s / 60} min a decision`;
}

function clockChoices() {
  const sel = $("clock");
  const choices = config.clock_choices || [];
  sel.replaceChildren(h("option", { value: "" }, "off"),
    ...choices.map((c) => h("option", { value: String(c) }, clockWords(c))));
  sel.addEventListener("change", () => { clockTouched = true; standInShown(); });
  $("seat-rows").addEventListener("change", clockDefault);
}

function clockDefault() {
  if (clockTouched) return;
  const people = [...document.querySelectorAll("#seat-rows select")].filter((s) => s.value === "human").length;
  const sel = $("clock");
  const values = [...sel.options].map((o) => o.value).filter((v) => v);
  const friendly = values.includes("120") ? "120" : values[values.length - 1] || "";
  sel.value = people >= 2 ? friendly : "";
  standInShown();
}

// A bot in the lobby's lists, by the name the table gives it ("Bot (normal) plays for Tess"):
// the search bot by its level, "normal (search bot)"; a tester could not tell that "ismcts"
// in the lobby was the table's "Bot (normal)"
function botChoice(b) {
  const level = botLevel(b);
  return level === b ? `bot \u2014 ${b}` : `bot \u2014 ${level} (search bot)`;
}

function standInChoices(g) {
  const sel = $("stand-in");
  const prev = sel.value;
  sel.replaceChildren(...g.bots.map((b) => h("option", { value: b }, botChoice(b))));
  sel.value = g.bots.includes(prev) ? prev : g.bots.includes("ismcts") ? "ismcts" : g.bots[0];
  clockDefault();
}

function standInShown() {
  $("stand-in-field").hidden = !$("clock").value;
}

function seatRows() {
  const g = game();
  const n = +$("players").value;
  const rows = $("seat-rows");
  const old = [...rows.querySelectorAll(".seat-row")].map((r) => ({
    name: r.querySelector("input").value, who: r.querySelector("select").value }));
  rows.replaceChildren();
  queueMicrotask(clockDefault);       // the people seated decide the clock's default
  for (let i = 0; i < n; i++) {
    const prev = old[i];
    const whoDefault = prev ? prev.who : i === 0 ? "human" : "bot:" + (g.bots.includes("heuristic") ? "heuristic" : g.bots[0]);
    const who = h("select", { id: `seat-${i}-who`, "aria-label": `seat ${i}: who plays` },
      h("option", { value: "human" }, "a person (invite link)"),
      ...g.bots.map((b) => h("option", { value: "bot:" + b }, botChoice(b))));
    who.value = [...who.options].some((o) => o.value === whoDefault) ? whoDefault : "human";
    rows.append(h("div.seat-row",
      h("label", { for: `seat-${i}-name` }, `Seat ${i}`),
      h("input", { id: `seat-${i}-name`, maxlength: 40, placeholder: i === 0 ? "your name" : "name (optional)",
                   value: prev ? prev.name : "" }),
      who));
  }
}

// An option's explanation for players: a quoted value of a fixed set ("seed") becomes its
// words (choice_labels), and the words that explained the raw value after it, in brackets,
// are dropped unless they hold a rule ID; any other quoted value loses its quotes and
// underscores.
function descriptionWords(g, key, text) {
  const choices = (g.choices || {})[key] || [];
  const labels = (g.choice_labels || {})[key] || [];
  return String(text).replace(/"([^"]*)"(\s*\((?:[^()]|\([^()]*\))*\))?/g, (m, v, after) => {
    const i = choices.findIndex((c) => String(c) === v);
    if (i >= 0 && labels[i]) {
      const keep = after && /\b(CC|RR|SH)-\d/.test(after) ? after : "";
      return `\u201c${labels[i]}\u201d${keep}`;
    }
    return v.replaceAll("_", " ") + (after || "");
  });
}

// The preset picker names the preset the options are (the first that matches them); once an
// option is changed by hand so that they are no preset's, it says "<preset>, changed" (the
// preset last picked) and its note lists the changes from that preset.
let basePreset = null;     // the preset last picked (or matched)
const CHANGED = "";        // the picker's value for "<preset>, changed"

function presetPicker(g) {
  const sel = $("preset");
  const presets = g.presets || {};
  const names = Object.keys(presets);
  sel.replaceChildren(...names.map((n) => h("option", { value: n }, presetWords(n))));
  sel.disabled = names.length < 2;
  sel.onchange = () => { if (sel.value !== CHANGED) applyPreset(g, sel.value); };
  basePreset = sel.value;
  presetNote(g, sel.value);
}

function presetWords(name) {
  return name.replaceAll("_", " ");
}

function changeList(changes) {
  return changes.map((c) => `${c.label} \u2192 ${c.words}`).join("; ");
}

function presetNote(g, name) {
  const changes = houseRuleChanges(g, presetOptions(g, name));
  $("preset-note").textContent = changes.length
    ? "Changes: " + changeList(changes) + "."
    : "The rules as written (every option at its default).";
}

// Picking a preset sets every option to its default, then the preset's changes.
function applyPreset(g, name) {
  const changes = (g.presets || {})[name] || {};
  for (const input of $("options").querySelectorAll("input, select")) {
    const key = input.dataset.key;
    setInput(input, key in changes ? changes[key] : g.options[key]);
  }
  basePreset = name;
  presetShown(g);
}

// After an option is edited: the preset the options now are, or "<preset>, changed".
function presetShown(g) {
  const sel = $("preset");
  const now = { ...g.options, ...currentOptions() };
  // the preset last picked, if the options are still its own; else any preset they are
  const match = basePreset !== null && (g.presets || {})[basePreset]
      && !houseRuleChanges(g, now, presetOptions(g, basePreset)).length
    ? basePreset : matchingPreset(g, now);
  const extra = sel.querySelector("option.changed");
  if (match !== null) {
    if (extra) extra.remove();
    basePreset = match;
    sel.value = match;
    presetNote(g, match);
    return;
  }
  const base = basePreset || Object.keys(g.presets || {})[0] || "standard";
  const label = `${presetWords(base)}, changed`;
  if (extra) extra.textContent = label;
  else sel.append(h("option.changed", { value: CHANGED }, label));
  sel.value = CHANGED;
  const own = houseRuleChanges(g, presetOptions(g, base));
  const mine = houseRuleChanges(g, now, presetOptions(g, base));
  $("preset-note").textContent = `The ${presetWords(base)} preset`
    + (own.length ? ` (${changeList(own)})` : " (the rules as written)")
    + `, changed by hand: ${changeList(mine)}.`;
}

function setInput(input, value) {
  switch (input.dataset.kind) {
    case "bool": input.checked = !!value; break;
    case "number": case "string": input.value = String(value); break;
    case "choice": {
      const v = JSON.stringify(value);
      if (![...input.options].some((o) => o.value === v)) input.append(h("option", { value: v }, String(value)));
      input.value = v;
      break;
    }
    default: input.value = value === null ? "" : JSON.stringify(value);
  }
}

function optionInputs(g) {
  presetPicker(g);
  const box = $("options");
  box.replaceChildren();
  const choices = g.choices || {};
  const descriptions = g.descriptions || {};
  for (const [key, value] of Object.entries(g.options)) {
    if (key === "player_count") continue;
    const id = "opt-" + key;
    let input;
    if (Array.isArray(choices[key]) && choices[key].length) {
      // a fixed set of values: a select box (values kept as JSON: 3 and "3" differ)
      const allowed = choices[key].some((c) => JSON.stringify(c) === JSON.stringify(value)) ? choices[key] : [value, ...choices[key]];
      input = h("select", { id, "data-kind": "choice", "data-key": key },
        ...allowed.map((c) => h("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(value) },
          valueWords(g, key, c))));
    } else if (typeof value === "boolean") {
      input = h("input", { id, type: "checkbox", "data-kind": "bool", "data-key": key });
      input.checked = value;
    } else if (typeof value === "number") {
      input = h("input", { id, type: "number", "data-kind": "number", "data-key": key, value: String(value) });
    } else if (typeof value === "string") {
      input = h("input", { id, "data-kind": "string", "data-key": key, value });
    } else {
      // a list or mapping, typed as JSON: the field shows how (the rule's own value)
      const example = (g.examples || {})[key];
      input = h("input", { id, "data-kind": "json", "data-key": key,
                           value: value === null ? "" : JSON.stringify(value),
                           placeholder: example === undefined ? "default" : `empty: the rule; or e.g. ${JSON.stringify(example)}` });
    }
    input.dataset.initial = input.type === "checkbox" ? String(input.checked) : input.value;
    const desc = descriptions[key] ? descriptionWords(g, key, descriptions[key]) : null;
    if (desc) input.setAttribute("aria-describedby", id + "-desc");
    input.addEventListener(input.tagName === "SELECT" || input.type === "checkbox" ? "change" : "input",
      () => presetShown(g));
    const example = (g.examples || {})[key];
    box.append(h("div.option", h("label", { for: id }, optionLabel(g, key)), input,
      desc ? h("p.dim.option-desc", { id: id + "-desc" }, desc,
        example === undefined ? null
          : h("span.option-example", " Typed as JSON; the rule's own value is ", h("code", JSON.stringify(example)), ".")) : null));
  }
}

// One option field's value (as JSON: a number field's number, an empty field null).
function inputValue(input) {
  switch (input.dataset.kind) {
    case "bool": return input.checked;
    case "number": return Number(input.value);
    case "string": return input.value;
    case "choice": return JSON.parse(input.value);
    default:
      if (input.value.trim() === "") return null;
      try { return JSON.parse(input.value); } catch { return input.value; }
  }
}

// Every option field's value: option name -> value.
function currentOptions() {
  const out = {};
  for (const input of $("options").querySelectorAll("input, select")) out[input.dataset.key] = inputValue(input);
  return out;
}

// The options sent to the server: those whose field was changed from its default.
function readOptions() {
  const out = {};
  for (const input of $("options").querySelectorAll("input, select")) {
    const now = input.type === "checkbox" ? String(input.checked) : input.value;
    if (now === input.dataset.initial) continue;
    out[input.dataset.key] = inputValue(input);
  }
  return out;
}

$("create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("create-error").textContent = "";
  const n = +$("players").value;
  const seats = [];
  for (let i = 0; i < n; i++) {
    const who = $(`seat-${i}-who`).value;
    const name = $(`seat-${i}-name`).value.trim();
    seats.push(who === "human" ? { kind: "human", name } : { kind: "bot", bot: who.slice(4), name });
  }
  const body = { game: game().name, players: n, seats, options: readOptions(), bot_pause: +$("pause").value };
  if ($("clock").value) {
    body.turn_clock = +$("clock").value;
    body.takeover_bot = $("stand-in").value;
  }
  // the seed as its digits: a number past 2**53 would be rounded by JavaScript
  if (config.allow_seeds && $("seed").value.trim()) body.seed = $("seed").value.trim();
  $("create-btn").disabled = true;
  try {
    const t = await api("POST", "/api/tables", { body });
    const firstHuman = t.seats.find((s) => s.kind === "human");
    rememberTable({
      table: t.table, game: t.game, creator_token: t.creator_token, spectator_token: t.spectator_token,
      token: firstHuman ? firstHuman.token : t.spectator_token,
      role: firstHuman ? "seat" : "spectator", seat: firstHuman ? firstHuman.seat : null,
      invites: t.seats.filter((s) => s.kind === "human").map((s) => ({ seat: s.seat, name: s.name, url: s.url })),
      spectator_url: t.spectator_url, mine: true,
    });
    showCreated(t);
    listTables();
  } catch (e) {
    $("create-error").textContent = e.message;
  } finally {
    $("create-btn").disabled = false;
  }
});

function copyButton(text) {
  const b = h("button", { type: "button", class: "copy" }, "copy");
  b.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(text); b.textContent = "copied"; } catch { b.textContent = "select and copy"; }
  });
  return b;
}

function showCreated(t) {
  const box = $("created");
  box.hidden = false;
  const humans = t.seats.filter((s) => s.kind === "human");
  const list = h("ul.invites");
  humans.forEach((s, i) => {
    const url = absolute(s.url);
    list.append(h("li",
      h("span", `Seat ${s.seat} (${s.name})${i === 0 ? " — you" : ""}: `),
      i === 0 ? h("a.primary-link", { href: s.url, id: "open-my-seat" }, "open your seat") : h("input.link", { value: url, readonly: true, "aria-label": `invite link for seat ${s.seat}` }),
      i === 0 ? null : copyButton(url)));
  });
  const spect = absolute(t.spectator_url);
  list.append(h("li", h("span", "Spectators (public view only): "),
    h("input.link", { value: spect, readonly: true, "aria-label": "spectator link" }), copyButton(spect)));
  box.replaceChildren(
    h("h2", "Table created"),
    h("p", "Send each friend their own link: a link is the key to its seat. Keep yours."),
    list,
  );
  if (!humans.length) box.append(h("a.primary-link", { href: t.spectator_url, id: "open-my-seat" }, "watch the bots"));
}

async function listTables() {
  const ul = $("mine");
  ul.replaceChildren();
  const list = knownTables();
  if (!list.length) { ul.append(h("li.dim", "No tables yet.")); return; }
  for (const t of list) {
    const href = `/table.html#t=${encodeURIComponent(t.table)}&k=${encodeURIComponent(t.token)}`;
    const li = h("li", h("a", { href }, `${GAME_TITLES[t.game] || t.game}`),
      h("span.dim", ` ${t.role === "seat" ? "seat " + t.seat : t.role || ""} · ${new Date(t.created).toLocaleString()} `));
    const status = h("span.table-status", "…");
    li.append(status);
    const who = h("span.table-seats.dim");
    li.append(who);
    if ((t.invites && t.invites.length > 1) || t.spectator_url) {
      // the friends' invite links and the spectators' link (a table of one person had none)
      const inv = h("details", h("summary", t.invites && t.invites.length > 1 ? "invite links" : "spectator link"));
      if (t.invites && t.invites.length > 1) {
        for (const s of t.invites) inv.append(h("div", `seat ${s.seat}: `, h("input.link", { value: absolute(s.url), readonly: true })));
      }
      if (t.spectator_url) inv.append(h("div", "spectators: ", h("input.link", { value: absolute(t.spectator_url), readonly: true })));
      li.append(inv);
    }
    const forget = h("button.small", { type: "button", "aria-label": "forget this table" }, "forget");
    forget.addEventListener("click", () => { forgetTable(t.table); listTables(); });
    li.append(" ", forget);
    ul.append(li);
    api("GET", `/api/tables/${encodeURIComponent(t.table)}`, { token: t.token })
      .then((s) => {
        // Shanghai Rummy plays deals, the canasta games hands
        const unit = t.game === "shanghai-rummy" || s.game === "shanghai-rummy" ? "deal" : "hand";
        status.textContent = s.finished ? "finished" : `in play, ${s.hands_scored} ${unit}${s.hands_scored === 1 ? "" : "s"} scored`;
        // who plays: two tables of one game read alike without it (a tester)
        if (Array.isArray(s.seats)) {
          who.textContent = ` · ${s.seats.length} players: ` + s.seats.map((x) =>
            x.kind === "bot" && !x.takeover ? `${x.name || "bot"} (${botLevel(x.bot)})` : x.name || `seat ${x.seat}`).join(", ");
        }
        if (s.finished && t.role === "seat") countFinished(t);
      })
      .catch((e) => { status.textContent = e.status === 404 ? "gone" : "?"; });
  }
}

// ------------------------------------------------------------------ statistics
// A finished game of a seat this browser held, not counted yet (it ended while no page of it
// was open): its view at the end says who won.
async function countFinished(t) {
  if (isCounted(t.table)) return;
  try {
    const m = await api("GET", `/api/tables/${encodeURIComponent(t.table)}/view`, { token: t.token });
    if (recordGame(t.table, m)) showStats();
  } catch { /* gone or unreachable: counted another time */ }
}

function showStats() {
  $("stats-profile").textContent = `profile ${profileId()}`;
  const box = $("stats");
  const rows = statsRows();
  if (!rows.length) {
    box.replaceChildren(h("p.dim", "No finished game yet."));
    return;
  }
  const body = h("tbody");
  const total = { played: 0, won: 0 };
  for (const r of rows) {
    total.played += r.played;
    total.won += r.won;
    body.append(h("tr", { "data-game": r.game, "data-level": r.level },
      h("td", GAME_TITLES[r.game] || r.game), h("td", levelWords(r.level)),
      h("td.num", String(r.played)), h("td.num", String(r.won)),
      h("td.num", r.played ? `${Math.round((100 * r.won) / r.played)}%` : "\u2014")));
  }
  const table = h("table.stats-table", { id: "stats-table" },
    h("thead", h("tr", h("th", "Game"), h("th", "Opponents"), h("th.num", "Played"), h("th.num", "Won"), h("th.num", "Won %"))),
    body,
    h("tfoot", h("tr", h("th", "All games"), h("th", ""), h("td.num", String(total.played)), h("td.num", String(total.won)),
      h("td.num", total.played ? `${Math.round((100 * total.won) / total.played)}%` : "\u2014"))));
  const reset = h("button.small", { type: "button", id: "stats-reset" }, "reset the statistics");
  reset.addEventListener("click", () => {
    if (confirm("Forget every game counted in this browser?")) { resetStats(); showStats(); }
  });
  box.replaceChildren(h("div.stats-scroll", table), h("p", reset));
}

init();
