// Statistics of this browser profile: games played and won, per game and per opponent level.
// No account: the browser's localStorage keeps a profile id (made once, at random) and the
// counts.  A game counts once it is over and this browser held a seat at it: the table page
// counts it when it shows the end, the lobby counts the finished tables it lists (a game that
// ended while no page of it was open).  The result is what the table's view gives at the end
// (the last outcome's winners, each seat's player).

const KEY = "meldhall.stats";

function load() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "null");
    if (v && typeof v === "object" && v.rows && typeof v.rows === "object" && Array.isArray(v.counted)) return v;
  } catch { /* unreadable: start again */ }
  return { profile: null, rows: {}, counted: [] };
}

function save(data) {
  try { localStorage.setItem(KEY, JSON.stringify(data)); } catch { /* full or private mode */ }
}

/** This browser profile's id (made at random the first time, then kept). */
export function profileId() {
  const data = load();
  if (!data.profile) {
    const bytes = new Uint8Array(6);
    crypto.getRandomValues(bytes);
    data.profile = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    save(data);
  }
  return data.profile;
}

/** The opponents of `seat` in words-ready form: the players of every seat not on its side,
 *  each a bot's name ("heuristic", "ismcts:hard") or "people", distinct and sorted, joined
 *  with " + " ("heuristic", "ismcts:easy + people"). */
export function opponentLevel(seats, sideOf, seat) {
  const mine = sideOf ? sideOf[seat] : seat;
  const kinds = new Set();
  seats.forEach((s, i) => {
    const side = sideOf ? sideOf[i] : i;
    if (i === seat || side === mine) return;
    kinds.add(s.kind === "bot" ? String(s.bot || "bot") : "people");
  });
  return [...kinds].sort().join(" + ") || "nobody";
}

/**
 * The result of a finished game for the seat that watched it, from a table's "state" message
 * (or GET /api/tables/{id}/view): {game, level, won} — won when the seat's side is among the
 * winners of the last outcome (a shared win counts).  null when the game is not over or the
 * message is not a seat's.
 */
export function gameResult(m) {
  if (!m || !m.common || !m.common.finished || m.role !== "seat" || !Number.isInteger(m.seat)) return null;
  const outcomes = m.common.outcomes || [];
  const last = outcomes[outcomes.length - 1];
  if (!last || !last.game_over) return null;
  const obs = (m.view && m.view.observation) || {};
  const sideOf = m.common.game === "shanghai-rummy" ? null : obs.side_of || null;
  const mySide = sideOf ? sideOf[m.seat] : m.seat;
  return {
    game: m.common.game,
    level: opponentLevel(m.seats || [], sideOf, m.seat),
    won: (last.winners || []).includes(mySide),
  };
}

/** Counts a finished game of table `table` once (later calls for the same table do nothing).
 *  Returns true when it was counted now. */
export function recordGame(table, m) {
  const r = gameResult(m);
  if (!r || !table) return false;
  const data = load();
  if (data.counted.includes(table)) return false;
  if (!data.profile) data.profile = profileId();
  const key = `${r.game}|${r.level}`;
  const row = data.rows[key] || { game: r.game, level: r.level, played: 0, won: 0 };
  row.played += 1;
  if (r.won) row.won += 1;
  data.rows[key] = row;
  data.counted.push(table);
  data.counted = data.counted.slice(-2000);
  save(data);
  return true;
}

/** True when table `table`'s game has been counted already. */
export function isCounted(table) {
  return load().counted.includes(table);
}

/** Every row: [{game, level, played, won}], by game then opponent level. */
export function statsRows() {
  return Object.values(load().rows).sort((a, b) => a.game.localeCompare(b.game) || a.level.localeCompare(b.level));
}

/** Forgets the counts (the profile id stays). */
export function resetStats() {
  const data = load();
  save({ profile: data.profile, rows: {}, counted: data.counted });
}

const BOT_WORDS = {
  random: "random bot",
  heuristic: "heuristic bot",
  "ismcts:easy": "search bot, easy",
  ismcts: "search bot, normal",
  "ismcts:normal": "search bot, normal",
  "ismcts:hard": "search bot, hard",
  people: "people",
};

/** An opponent level in words: "heuristic + people" -> "heuristic bot + people". */
export function levelWords(level) {
  return String(level).split(" + ").map((k) => BOT_WORDS[k] || k).join(" + ");
}
