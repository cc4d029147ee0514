// The server's JSON API and the tables this browser knows (localStorage).

const STORE = "meldhall.tables";

export async function api(method, path, { token, body } = {}) {
  const headers = {};
  if (token) headers["Authorization"] = "Bearer " + token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    const err = (data && data.error) || { code: "http", message: `HTTP ${r.status}` };
    const e = new Error(err.message);
    e.code = err.code; e.status = r.status; e.rule_id = err.rule_id;
    throw e;
  }
  return data;
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
