// Cards: parsing card strings ("7H", "JK"; "7H/1" for a numbered copy), SVG faces, sorting,
// and matching the cards named in an action's notation against a selection of cards.
// The server names cards by rank and suit only (no deck index reaches a seat); the page
// numbers the copies of a list itself (localCopies) so that two 7H in a hand are two buttons.

const SVG_NS = "http://www.w3.org/2000/svg";
export const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
export const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "JK"];
const SUIT_ORDER = ["S", "H", "D", "C"];

/** {id, rank, suit, deck, joker} from "7H/1" (or "7H"); null if it is not a card. */
export function parseCard(text) {
  if (typeof text !== "string") return null;
  const m = /^(10|[2-9AKQJ])([SHDC])(?:\/(\d+))?$/.exec(text);
  if (m) return { id: text, rank: m[1], suit: m[2], deck: m[3] === undefined ? 0 : +m[3], joker: false };
  const j = /^JK(?:\/(\d+))?$/.exec(text);
  if (j) return { id: text, rank: "JK", suit: null, deck: j[1] === undefined ? 0 : +j[1], joker: true };
  return null;
}

/**
 * The same cards, each copy of a name numbered by its place in this list: ["7H", "7H", "KS"]
 * -> ["7H/0", "7H/1", "KS/0"].  The numbers are the page's own, not deck indices.
 */
export function localCopies(list) {
  const seen = new Map();
  return (list || []).map((t) => {
    const base = String(t).split("/")[0];
    const k = seen.get(base) || 0;
    seen.set(base, k + 1);
    return `${base}/${k}`;
  });
}

/** "7♥" for "7H/1". */
export function cardLabel(text) {
  const c = parseCard(text);
  if (!c) return String(text);
  return c.joker ? "Joker" : c.rank + SUIT_SYMBOL[c.suit];
}

// Card tokens inside the engine's notation and log notes ("discard Q" / "QH", "upcard 5H",
// "3S 3S 3C", "JK=7D"): rank and suit, or a joker with its declared card.  A token stands alone
// (not inside a word or a rule ID); a rank without a suit ("discard Q") is not a card token.
const CARD_TOKEN = /(?<![A-Za-z0-9])(?:JK(?:=(10|[2-9AKQJ])([SHDC]))?|(10|[2-9AKQJ])([SHDC]))(?![A-Za-z0-9])/g;

/** The text's card tokens for people, as [text, red] pieces: "discard QH" -> ["discard ",
 *  false], ["Q♥", true]; "JK" -> "Jk"; "JK=7D" -> "Jk=7♦".  Other words are kept as they are. */
export function notationPieces(text) {
  const s = String(text ?? "");
  const out = [];
  let at = 0;
  for (const m of s.matchAll(CARD_TOKEN)) {
    if (m.index > at) out.push([s.slice(at, m.index), false]);
    if (m[0].startsWith("JK")) {
      out.push([m[1] ? `Jk=${m[1]}${SUIT_SYMBOL[m[2]]}` : "Jk", !!m[2] && (m[2] === "H" || m[2] === "D")]);
    } else {
      out.push([m[3] + SUIT_SYMBOL[m[4]], m[4] === "H" || m[4] === "D"]);
    }
    at = m.index + m[0].length;
  }
  if (at < s.length) out.push([s.slice(at), false]);
  return out;
}

/** "discard Q♥" for "discard QH" (see notationPieces). */
export function prettyNotation(text) {
  return notationPieces(text).map((p) => p[0]).join("");
}

export function isRed(c) {
  return c && (c.suit === "H" || c.suit === "D");
}

function el(name, attrs, text) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** An SVG card face (or back when text is null). */
export function cardSVG(text, { small = false } = {}) {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-svg" + (small ? " small" : ""),
                          role: "img" });
  if (text === null) {
    svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-back" }));
    svg.append(el("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, class: "card-back-inner" }));
    svg.setAttribute("aria-label", "card back");
    return svg;
  }
  const c = parseCard(text);
  svg.append(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-face" }));
  if (!c) {
    svg.append(el("text", { x: 30, y: 48, "text-anchor": "middle", class: "card-rank" }, "?"));
    return svg;
  }
  svg.setAttribute("aria-label", cardLabel(text));
  const colour = c.joker ? "joker" : isRed(c) ? "red" : "black";
  svg.classList.add(colour);
  if (c.joker) {
    svg.append(el("text", { x: 7, y: 18, class: "card-rank" }, "JK"));
    svg.append(el("text", { x: 30, y: 56, "text-anchor": "middle", class: "card-pip big" }, "\u2605"));
    svg.append(el("text", { x: 30, y: 76, "text-anchor": "middle", class: "card-small" }, "JOKER"));
  } else {
    svg.append(el("text", { x: 6, y: 19, class: "card-rank" }, c.rank));
    svg.append(el("text", { x: 6, y: 35, class: "card-pip" }, SUIT_SYMBOL[c.suit]));
    svg.append(el("text", { x: 34, y: 68, "text-anchor": "middle", class: "card-pip big" },
                  SUIT_SYMBOL[c.suit]));
  }
  return svg;
}

export function rankIndex(c) {
  const i = RANK_ORDER.indexOf(c.rank);
  return i < 0 ? 99 : i;
}

/** Sort physical card strings by rank (wild cards last) or by suit then rank. */
export function sortCards(list, by) {
  const cards = list.map((t) => parseCard(t) || { id: t, rank: "?", suit: null, deck: 0 });
  cards.sort((a, b) => {
    if (by === "suit") {
      const sa = a.suit === null ? 9 : SUIT_ORDER.indexOf(a.suit);
      const sb = b.suit === null ? 9 : SUIT_ORDER.indexOf(b.suit);
      if (sa !== sb) return sa - sb;
    }
    const ra = rankIndex(a), rb = rankIndex(b);
    if (ra !== rb) return ra - rb;
    const sa = a.suit === null ? 9 : SUIT_ORDER.indexOf(a.suit);
    const sb = b.suit === null ? 9 : SUIT_ORDER.indexOf(b.suit);
    return sa - sb || a.deck - b.deck;
  });
  return cards.map((c) => c.id);
}

const NO_CARD_VERBS = new Set(["ask", "deal", "draw", "yes", "no", "pass", "buy", "kitty", "go"]);
const TOKEN = /^(10|[2-9AKQJT])([SHDC])?$/i;

/**
 * The cards an action takes from hand, as tokens {rank, suit|null}: "meld K K 2" -> K, K, 2;
 * "add 9 9 2 -> 9" -> 9, 9, 2 (the target is not a card from hand); "layoff JK=4D -> 3" -> JK.
 */
export function actionCards(action) {
  const words = action.trim().split(/\s+/);
  if (!words.length || NO_CARD_VERBS.has(words[0].toLowerCase())) return [];
  const out = [];
  let skipping = false;
  for (const raw of action.replace(/([,;])/g, " $1 ").split(/\s+/).slice(1)) {
    if (raw === "->") { skipping = true; continue; }
    if (raw === "," || raw === ";") { skipping = false; continue; }
    if (skipping || !raw) continue;
    const w = raw.toUpperCase();
    if (w.startsWith("JK")) { out.push({ rank: "JK", suit: null }); continue; }
    const m = TOKEN.exec(w);
    if (m) out.push({ rank: m[1] === "T" ? "10" : m[1], suit: m[2] || null });
  }
  return out;
}

/** True when the action's cards are exactly the selected physical cards. */
export function matchesExactly(tokens, selected) {
  if (tokens.length !== selected.length) return false;
  return coverAll(tokens, selected.map(parseCard), true);
}

/** True when every selected card is used by the action. */
export function usesAll(tokens, selected) {
  if (tokens.length < selected.length) return false;
  return coverAll(tokens, selected.map(parseCard), false);
}

function coverAll(tokens, cards, exact) {
  const left = cards.slice();
  const unmatched = [];
  const take = (pred) => {
    const i = left.findIndex(pred);
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  };
  // specific tokens (with a suit) first, then rank-only ones
  for (const t of tokens.filter((t) => t.suit)) {
    if (!take((c) => c && c.rank === t.rank && c.suit === t.suit)) unmatched.push(t);
  }
  for (const t of tokens.filter((t) => !t.suit)) {
    if (!take((c) => c && c.rank === t.rank)) unmatched.push(t);
  }
  return exact ? left.length === 0 && unmatched.length === 0 : left.length === 0;
}

/**
 * The seat's staged melds (texts like "K K 2" or "5S 5C JK=5S") matched to physical cards of
 * the hand, which still holds them (CC-6.9(a), SH-8.1): {melds: [[physical…]…], rest}.  The
 * canasta games name cards by kind and the engine chooses the copies, so the copies shown are
 * any of that kind (suits do not matter there); a suited token (Shanghai) takes its own suit.
 * An upcard's staged meld ("stage 8 8 2 + upcard") is written with the cards from hand only.
 */
export function matchStaged(hand, staged) {
  const rest = hand.slice();
  const melds = [];
  for (const text of staged || []) {
    const tokens = actionCards("stage " + text);
    const picked = new Array(tokens.length).fill(null);
    const take = (i, pred) => {
      const j = rest.findIndex((c) => pred(parseCard(c)));
      if (j < 0) return;
      picked[i] = rest[j];
      rest.splice(j, 1);
    };
    tokens.forEach((t, i) => { if (t.suit) take(i, (c) => c && c.rank === t.rank && c.suit === t.suit); });
    tokens.forEach((t, i) => { if (!t.suit) take(i, (c) => c && c.rank === t.rank); });
    melds.push(picked.map((p, i) => p || (tokens[i].rank + (tokens[i].suit || ""))));
  }
  return { melds, rest };
}
