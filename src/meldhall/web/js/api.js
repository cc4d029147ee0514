// The server's JSON API and the tables this browser knows (localStorage).

const STORE = "meldhall.tables";

/** A request to the JSON API; the answer parsed.  rawBody: JSON text sent as it is
 *  (a record, whose seed may be beyond JavaScript's exact integers: never parse and re-serialise
 *  it). */
export async function api(method, path, { token, body, rawBody } = {}) {
  const r = await request(method, path, { token, body, rawBody });
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) throw apiError(r, data);
  return data;
}

/** The same request, the answer as the server's text, byte for byte (a record: its seed can be
 *  larger than 2**53, which JSON.parse would round). */
export async function apiText(method, path, { token, body, rawBody } = {}) {
  const r = await request(method, path, { token, body, rawBody });
  const text = await r.text();
  if (!r.ok) {
    let data = null;
    try { data = JSON.parse(text); } catch { data = null; }
    throw apiError(r, data);
  }
  return text;
}

function request(method, path, { token, body, rawBody }) {
  const headers = {};
  if (token) headers["Authorization"] = "Bearer " + token;
  let payload;
  if (rawBody !== undefined) payload = rawBody;
  else if (body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined) headers["Content-Type"] = "application/json";
  return fetch(path, { method, headers, body: payload });
}

function apiError(r, data) {
  const err = (data && data.error) || { code: "http", message: `HTTP ${r.status}` };
  const e = new Error(err.message);
  e.code = err.code; e.status = r.status; e.rule_id = err.rule_id;
  return e;
}

/** Every table remembered in this browser: [{table, game, created, mine, seats, ...}]. */
export function knownTables() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE) || "[]");
    return Array.isArray(v) ? v : [];
  } catch { return []; }
}

export function saveTables(list) {
  localStorage.setItem(STORE, JSON.stringify(list.slice(0, 200)));
}

/** Remember (or update) a table: fields are merged into the stored entry. */
export function rememberTable(entry) {
  const list = knownTables();
  const i = list.findIndex((t) => t.table === entry.table);
  if (i >= 0) list[i] = { ...list[i], ...entry };
  else list.unshift({ created: Date.now(), ...entry });
  saveTables(list);
}

export function forgetTable(id) {
  saveTables(knownTables().filter((t) => t.table !== id));
}

export function tableEntry(id) {
  return knownTables().find((t) => t.table === id) || null;
}

/** The page fragment as a map: "#t=abc&k=tok" -> {t: "abc", k: "tok"}. */
export function fragment() {
  const out = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    if (!part) continue;
    const [k, v = ""] = part.split("=");
    out[decodeURIComponent(k)] = decodeURIComponent(v);
  }
  return out;
}

export const GAME_TITLES = {
  "classic-canasta": "Classic Canasta",
  "railroad-canasta": "Railroad Canasta",
  "shanghai-rummy": "Shanghai Rummy",
};

// ------------------------------------------------------------------ rule IDs
// The engine names the rule that decides (a refusal, a score line): each ID links to the
// players' rules on the server (GET /api/rules/GAME/ID?format=html), in a new tab.
const RULE_GAMES = { CC: "classic-canasta", RR: "railroad-canasta", SH: "shanghai-rummy" };
const RULE_ID = /\b(CC|RR|SH)-\d+(?:\.\d+)?\b/g;

/** The page of a rule ID ("CC-8.5" -> "/api/rules/classic-canasta/CC-8.5?format=html"), or null
 *  for text that is not one. */
export function ruleUrl(id) {
  const m = /^(CC|RR|SH)-\d+(?:\.\d+)?/.exec(String(id || ""));
  if (!m) return null;
  const game = RULE_GAMES[m[1]];
  return `/api/rules/${game}/${encodeURIComponent(m[0])}?format=html${houseQuery(game)}`;
}

// The table this page shows, if any: its rule links then list its house rules above the rule
// (a tester opened RR-11.1 from a table and could not tell which choice the table played).
let ruleTable = null;

/** Make the rule links of this page carry a table's house rules: ``options`` (the table's
 *  options JSON) and ``players``, for rules of ``game``. */
export function setRuleTable(game, players, options) {
  ruleTable = options ? { game, players, options } : null;
}

/** "&players=4&house=…" for a rule page of `game` when this page shows a table of it. */
export function houseQuery(game) {
  if (!ruleTable || ruleTable.game !== game) return "";
  return `&players=${ruleTable.players}&house=${encodeURIComponent(JSON.stringify(ruleTable.options))}`;
}

/** A rule ID shown as code (h("code.CLS", id)) inside a link to its rule; not a rule ID: the
 *  code alone. */
export function ruleLink(id, cls = "") {
  const code = h("code" + cls, id);
  const url = ruleUrl(id);
  if (!url) return code;
  return h("a.rule-link", { href: url, target: "_blank", rel: "noopener",
    title: `the rule ${id} (opens in a new tab)` }, code);
}

/** A text with every rule ID in it a link (a list of nodes and strings for h()). */
export function withRuleLinks(text) {
  const s = String(text ?? "");
  const out = [];
  let pos = 0;
  for (const m of s.matchAll(RULE_ID)) {
    if (m.index > pos) out.push(s.slice(pos, m.index));
    out.push(ruleLink(m[0]));
    pos = m.index + m[0].length;
  }
  if (pos < s.length) out.push(s.slice(pos));
  return out;
}

export function absolute(path) {
  return new URL(path, location.origin).href;
}

/** Create an element: h("div.cls", {attr}, child, …); strings become text nodes. */
export function h(spec, attrs, ...children) {
  const [tag, ...classes] = spec.split(".");
  const e = document.createElement(tag || "div");
  if (classes.length) e.className = classes.join(" ");
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(e.dataset, v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}
