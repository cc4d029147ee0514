// Statistics of this browser profile: games played and won, per game and per opponent level.
// No account: the browser's localStorage keeps a profile id (made once, at random) and the
// counts.  A game counts once it is over, if this browser held a seat at it AND played at
// least one move of it itself (a move this browser sent that the table accepted: a game the
// stand-in bot played for the seat throughout is not the player's).  The table page counts it
// when it shows the end, the lobby counts the finished tables it lists (a game that ended
// while no page of it was open).  The result is what the table's view gives at the end (the
// last outcome's winners); an opponent is "people" when its seat is a person's (created human,
// or a bot standing in for its person: `takeover`) in any view this browser saw of the table,
// so that a person's seat played by a stand-in bot is not counted as that bot.

const KEY = "meldhall.stats";

function load() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "null");
    if (v && typeof v === "object" && v.rows && typeof v.rows === "object" && Array.isArray(v.counted)) {
      if (!v.tables || typeof v.tables !== "object") v.tables = {};
      return v;
    }
  } catch { /* unreadable: start again */ }
  return { profile: null, rows: {}, counted: [], tables: {} };
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

/** A seat of the server's list is a person's: human, or a bot standing in for its person
 *  (`takeover`: the clock ran out, or the person was away). */
function isPerson(s) {
  return !!s && (s.kind !== "bot" || !!s.takeover);
}

const TABLES_KEPT = 300;   // tables whose seats and moves are remembered (the newest)

function tableNote(data, table) {
  let t = data.tables[table];
  if (!t) {
    t = data.tables[table] = { people: [], moved: false };
    const names = Object.keys(data.tables);
    for (const old of names.slice(0, Math.max(0, names.length - TABLES_KEPT))) delete data.tables[old];
  }
  return t;
}

/** Remembers which seats of table `table` are people's in a "state" message seen (a seat
 *  created human that the creator later hands to a bot stays a person's). */
export function noteSeats(table, seats) {
  if (!table || !Array.isArray(seats)) return;
  const data = load();
  const t = tableNote(data, table);
  const before = t.people.length;
  seats.forEach((s, i) => { if (isPerson(s) && !t.people.includes(i)) t.people.push(i); });
  if (t.people.length !== before) save(data);
}

/** Remembers that this browser played a move of table `table` itself (the table accepted
 *  it): only such games are counted. */
export function noteMoved(table) {
  if (!table) return;
  const data = load();
  const t = tableNote(data, table);
  if (t.moved) return;
  t.moved = true;
  save(data);
}

/** The opponents of `seat` in words-ready form: the players of every seat not on its side,
 *  each a bot's name ("heuristic", "ismcts:hard") or "people", distinct and sorted, joined
 *  with " + " ("heuristic", "ismcts:easy + people"). */
export function opponentLevel(seats, sideOf, seat, people = []) {
  const mine = sideOf ? sideOf[seat] : seat;
  const kinds = new Set();
  seats.forEach((s, i) => {
    const side = sideOf ? sideOf[i] : i;
    if (i === seat || side === mine) return;
    kinds.add(isPerson(s) || people.includes(i) ? "people" : String(s.bot || "bot"));
  });
  return [...kinds].sort().join(" + ") || "nobody";
}

/**
 * The result of a finished game for the seat that watched it, from a table's "state" message
 * (or GET /api/tables/{id}/view): {game, level, won} — won when the seat's side is among the
 * winners of the last outcome (a shared win counts).  null when the game is not over or the
 * message is not a seat's.
 */
export function gameResult(m, people = []) {
  if (!m || !m.common || !m.common.finished || m.role !== "seat" || !Number.isInteger(m.seat)) return null;
  const outcomes = m.common.outcomes || [];
  const last = outcomes[outcomes.length - 1];
  if (!last || !last.game_over) return null;
  const obs = (m.view && m.view.observation) || {};
  const sideOf = m.common.game === "shanghai-rummy" ? null : obs.side_of || null;
  const mySide = sideOf ? sideOf[m.seat] : m.seat;
  return {
    game: m.common.game,
    level: opponentLevel(m.seats || [], sideOf, m.seat, people),
    won: (last.winners || []).includes(mySide),
  };
}

/** Counts a finished game of table `table` once (later calls for the same table do nothing),
 *  if this browser played a move of it (noteMoved).  Returns true when it was counted now. */
export function recordGame(table, m) {
  if (!table) return false;
  const data = load();
  if (data.counted.includes(table)) return false;
  const note = data.tables[table];
  if (!note || !note.moved) return false;
  const r = gameResult(m, note.people);
  if (!r) return false;
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
  save({ profile: data.profile, rows: {}, counted: data.counted, tables: data.tables });
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
