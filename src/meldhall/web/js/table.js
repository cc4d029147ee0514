// The table page: one WebSocket to the server, identified by the seat's (or spectator's)
// token from the page fragment (#t=TABLE&k=TOKEN).  Every view comes from the server; moves
// are sent in notation with the version they were chosen at (a stale move is refused).

import { api, apiText, absolute, fragment, h, houseQuery, rememberTable, ruleLink, setRuleTable, tableEntry,
  withRuleLinks } from "./api.js";
import {
  actionCards, cardLabel, cardSVG, localCopies, matchesExactly, matchStaged, prettyNotation, sortCards,
  usesAll,
} from "./cards.js";
import {
  botLevel, breakdown, cardRow, handTitle, headerInfo, logPanel, meldsPanel, notationNodes, scorePanel, scoreSheet,
  seatName, seatsNamed, stagedPanel,
} from "./board.js";
import { renderFelt } from "./felt.js";
import { houseRuleChanges } from "./houserules.js";
import { animateMoves, initAnimationToggle } from "./motion.js";
import { noteMoved, noteSeats, recordGame } from "./stats.js";
import { renderWatch } from "./takeover.js";

const $ = (id) => document.getElementById(id);

const frag = fragment();
const tableId = frag.t || "";
const entry = tableEntry(tableId) || {};
const token = frag.k || entry.token || "";

let ws = null;
let role = null;
let mySeat = null;
let msg = null;            // last "state" message
let selection = [];        // selected physical cards, in click order
let sortBy = localStorage.getItem("meldhall.sort") || "rank";
let pending = null;        // id of the action awaiting an answer
let pendingVersion = -1;   // the version it was sent at
let sentId = null;         // id of the last action sent (its "accepted" may follow its state)
let seq = 0;
let retry = 0;
let fatal = false;
let games = null;
let hint = null;           // {version, data} | {version, loading: true} | {version, error}
let queued = [];           // moves to send one after the other (undoing a staged meld that is
                           // not the last: withdraw back to it, then stage the later ones again)

function names() {
  return msg ? msg.seats.map((s) => s.name) : [];
}

// The server's sentences name seats by number ("it is seat 0's turn"): the page says names.
function named(text) {
  return seatsNamed(text, names(), mySeat);
}

// ------------------------------------------------------------------ connection
function connect() {
  if (!tableId || !token) {
    setConn("This link has no table or no token: open an invite link.", true);
    return;
  }
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/tables/" + encodeURIComponent(tableId);
  ws = new WebSocket(url);
  setConn("connecting…");
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "hello", token }));
  };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    onMessage(m);
  };
  ws.onclose = (ev) => {
    if (fatal || ev.code === 4403 || ev.code === 4404) {
      fatal = true;
      return;
    }
    retry = Math.min(retry + 1, 6);
    setConn(`disconnected — reconnecting in ${retry}s…`, true);
    setTimeout(connect, retry * 1000);
  };
}

// An invite link differs from another one only after "#": following a second link in this tab
// (pasted, or clicked in the lobby) does not load the page again, and the page kept the first
// seat.  The page belongs to one table and one token: for another, it is loaded again.
window.addEventListener("hashchange", () => {
  const f = fragment();
  // an in-page anchor ("#me") is not an invite link: the seat stays (the jump links below do
  // not change the address at all; a tester tapped one and lost the seat)
  if (!f.t && !f.k) return;
  const nextTable = f.t || "";
  const nextToken = f.k || (tableEntry(nextTable) || {}).token || "";
  if (nextTable === tableId && nextToken === token) return;
  fatal = true;                       // no reconnection to the old seat meanwhile
  if (ws) ws.close();
  location.reload();
});

// The header's jump links ("Your hand", "Scores and log") scroll to their part of the page
// without touching the address: its fragment holds the table and the seat's key.
for (const a of document.querySelectorAll("nav.jump a[href^='#']")) {
  a.addEventListener("click", (ev) => {
    const target = document.getElementById(a.getAttribute("href").slice(1));
    if (!target) return;
    ev.preventDefault();
    target.scrollIntoView({ block: "start" });
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  });
}

function setConn(text, bad = false) {
  const c = $("conn");
  c.textContent = text;
  c.classList.toggle("bad", bad);
}

function onMessage(m) {
  switch (m.type) {
    case "welcome":
      role = m.role;
      mySeat = m.seat;
      retry = 0;
      setConn(role === "seat" ? `connected as seat ${m.seat}` : role === "creator" ? "connected (creator, watching)" : "connected (watching)");
      {
        // a spectator's (or the creator's) link opened in another tab keeps the seat this
        // browser plays: "Your tables" then still links to the seat (a tester lost it)
        const known = tableEntry(tableId);
        const keep = known && known.role === "seat" && role !== "seat";
        rememberTable(keep ? { table: tableId, game: m.game } : { table: tableId, game: m.game, token, role, seat: m.seat });
      }
      break;
    case "state": {
      const before = msg;
      noteDrawn(msg, m);
      msg = m;
      setRuleTable(m.common.game, m.common.players, m.common.options);
      // a refusal answered the position it was made in: once it is this seat's turn again
      // (a bot moved meanwhile), "it is Bot 1's turn to act" is stale and goes
      if (before && role === "seat" && tableVersion(before) !== tableVersion(m)
          && (m.common.to_act || []).includes(mySeat)
          && !(before.common.to_act || []).includes(mySeat)) {
        showRefusal(null);
      }
      if (pending !== null && tableVersion(m) !== pendingVersion) {
        // the table moved on while this page's move was on its way: that move was played (its
        // "accepted" may come after this state), so the selection is done with
        pending = null;
        selection = [];
      }
      const info = focusInfo();
      render();
      restoreFocus(info, afterMove && pending === null);
      if (before && before.view && m.view) animateMoves(before.view.observation, m.view.observation, mySeat);
      if (role === "seat") noteSeats(tableId, m.seats);
      if (role === "seat" && m.common.finished) recordGame(tableId, m);
      if (pending === null) afterMove = false;
      if (pending === null && queued.length) sendAction(queued.shift(), true);
      break;
    }
    case "accepted":
      if (m.id === pending) pending = null;
      if (role === "seat") noteMoved(tableId);    // this browser played a move of the game
      showRefusal(null);
      if (m.id === sentId && selection.length) {
        // A move names cards by kind ("discard 2") and the engine chooses which copy leaves the
        // hand (CC-5.9): the card selected may still be in the hand.  After a move of this seat
        // the selection is cleared.
        selection = [];
        if (msg) {
          const info = focusInfo();
          renderHand();
          renderActions();
          restoreFocus(info, afterMove);
        }
      }
      break;
    case "refused": {
      if (m.id === pending) pending = null;
      queued = [];
      afterMove = false;
      showRefusal(m);
      const info = focusInfo();
      renderActions();
      restoreFocus(info);
      break;
    }
    case "error":
      if (m.code === "forbidden" || m.code === "not_found") {
        fatal = true;
        setConn(named(m.message), true);
      }
      showRefusal(m);
      break;
    default:
      break;
  }
}

// The version a move is sent at: the seat to act gets the table's full version in its view
// (its own staged melds count); everyone else sees only the public one.
function tableVersion(m) {
  return m.view && m.view.version !== undefined ? m.view.version : m.common.version;
}

function sendAction(action, fromQueue = false) {
  if (!ws || ws.readyState !== WebSocket.OPEN || !msg) return;
  if (pending !== null) return;          // one move at a time: no double clicks
  if (!fromQueue) queued = [];
  pending = ++seq;
  sentId = pending;
  pendingVersion = tableVersion(msg);
  ws.send(JSON.stringify({ type: "action", action, version: pendingVersion, id: pending }));
  if (focusInfo()) { focusLost = true; afterMove = true; }
  renderActions();
}

function showRefusal(m) {
  const box = $("refusal");
  box.replaceChildren();
  if (!m) return;
  // the refusal may sit below the fold of a scrolled panel: bring it into view
  requestAnimationFrame(() => box.scrollIntoView({ block: "nearest" }));
  if (m.rule_id) {
    // the rule's sentence names cards as the table shows them (Q♥, not QH)
    box.append(h("strong", "Refused "), ruleLink(m.rule_id, ".rule"), ": ",
      ...withRuleLinks(named(prettyNotation(m.reason))));
  } else if (m.code === "stale_version") {
    box.append(h("strong", "Not applied: "), "the table had moved on. Look again and choose.");
  } else {
    box.append(h("strong", m.code === "notation" ? "Not understood: " : "Not applied: "), ...withRuleLinks(named(m.message)));
  }
}

// ------------------------------------------------------------------ keyboard focus
// Rendering replaces the hand's and the moves' buttons, which drops the keyboard focus to the
// page's body (the player had to Tab from the top again).  Where the focus was in the hand or
// the moves, it is put back: on the same card or move if it is still there; after a move of
// this page, on the first highlighted move (else the hand's first card).
let focusLost = false;     // the focus was in the hand or the moves when they were replaced
let afterMove = false;     // a move of this page is on its way: focus the next move offered

function focusInfo() {
  const a = document.activeElement;
  const inHand = a && $("hand").contains(a);
  const inActions = a && $("actions").contains(a);
  if (inHand || inActions) return { card: a.dataset.card || null, action: a.dataset.action || null, inActions };
  if (focusLost && (!a || a === document.body)) return { card: null, action: null, inActions: true };
  return null;
}

function restoreFocus(info, preferMoves = false) {
  if (!info) return;
  const a = document.activeElement;
  if (a && a !== document.body && a.isConnected && !a.disabled) { focusLost = false; return; }
  const q = (sel) => document.querySelector(sel);
  const firstMove = () => q("#actions .action-buttons button.primary:not(:disabled)");
  let target = null;
  if (preferMoves) target = firstMove();
  if (!target && info.card) target = q(`#hand [data-card="${CSS.escape(info.card)}"]`);
  if (!target && info.action) target = q(`#actions button[data-action="${CSS.escape(info.action)}"]:not(:disabled)`);
  if (!target && info.inActions) target = firstMove();
  if (!target) target = q("#hand .card-btn");
  if (target) {
    target.focus({ preventScroll: true });
    focusLost = false;
  } else {
    focusLost = true;
  }
}

// the player went elsewhere: leave the focus alone
document.addEventListener("pointerdown", (ev) => {
  if (!$("hand").contains(ev.target) && !$("actions").contains(ev.target)) focusLost = false;
});
document.addEventListener("focusin", (ev) => {
  if (!$("hand").contains(ev.target) && !$("actions").contains(ev.target)) focusLost = false;
});

// ------------------------------------------------------------------ rendering
// The typed move's example, in each game's own notation (the canasta games name cards by kind;
// Shanghai names each card, a joker with the card it stands for).
// The table shows suits as symbols (7♥), but a move is typed in letters: the help line under
// the box says how.
const TYPED_EXAMPLE = {
  "classic-canasta": "e.g. draw, meld K K 2, discard 7",
  "railroad-canasta": "e.g. draw, meld K K 2, discard 7",
  "shanghai-rummy": "e.g. draw, stage 7H 7S JK=7D, contract done, discard KH",
};
const TYPED_HELP = {
  "classic-canasta": "Name cards by rank, without suits (suits do not matter): K, 10, 2; a joker as JK (shown as Jk).",
  "railroad-canasta": "Name cards by rank, without suits (suits do not matter): K, 10, 2; a joker as JK (shown as Jk).",
  "shanghai-rummy": "Type suits as S H D C (7H is 7\u2665, 10S is 10\u2660), a joker as JK; "
    + "JK=7D is a joker standing for 7\u2666.",
};

function render() {
  if (!msg) return;
  const obs = msg.view.observation;
  const common = msg.common;
  const nm = names();
  const toAct = common.to_act;
  $("header").replaceChildren(headerInfo(obs, common, nm, mySeat, msg.seats, msg.view.legal, msg.view.take_refused));
  // the seat's number (the invite links say it) and its player's name, as the lobby writes it
  const conn = $("conn");
  if (role === "seat" && nm[mySeat] && conn.textContent === `connected as seat ${mySeat}`) {
    conn.textContent = `connected as seat ${mySeat} (${nm[mySeat]})`;
  }
  const standIn = !!(msg.seats[mySeat] && msg.seats[mySeat].takeover);
  document.title = (toAct.includes(mySeat) && !common.finished && !standIn
    ? "\u25cf Your move \u2014 " : "") + "meldhall";
  $("typed-action").placeholder = TYPED_EXAMPLE[common.game] || TYPED_EXAMPLE["classic-canasta"];
  const help = TYPED_HELP[common.game] || TYPED_HELP["classic-canasta"];
  if ($("typed-help").textContent !== help) $("typed-help").textContent = help;
  renderFelt($("felt"), obs, msg.seats, nm, mySeat, toAct, common.options);
  $("scores-box").replaceChildren(scorePanel(obs, nm, common.finished));
  renderHouseRules();
  $("sheet").replaceChildren(scoreSheet(common.outcomes, obs, nm, mySeat));
  const logBox = $("log");
  logBox.replaceChildren(logPanel(obs.log, nm, mySeat, 60, obs.log_total, obs.game, msg.common.phase));
  logBox.scrollTop = logBox.scrollHeight;
  const status = $("status-msgs");
  status.replaceChildren();
  if (common.error) status.append(h("p.error", named(common.error)));
  if (role !== "seat") status.append(h("p.dim", "You are watching: only public information is shown."));
  renderDrawn();
  noteHandOver();
  renderHandOver();
  renderHand();
  renderActions();
  renderAdmin();
  renderFinished();
  renderWatch(msg, { tableId, token, role, mySeat, onError: showRefusal });   // turn clock, stand-in bot
}

// ------------------------------------------------------------------ the cards drawn
// The server names no card drawn (the log's note for one's own draw is empty): the page
// compares the seat's hand before and after.  Cards that arrived (a draw, the pile, the upcard
// and a penalty card, the kitty) are highlighted in the hand and said in the status line (a
// live region), until the hand changes again.  The copies are the page's own numbering
// (localCopies): for a name held k times before and m times now, copies k..m-1 are the new
// ones.
let drawn = null;          // { cards: [copy…] (localCopies of the hand), text }

function counts(list) {
  const out = new Map();
  for (const t of list || []) {
    const base = String(t).split("/")[0];
    out.set(base, (out.get(base) || 0) + 1);
  }
  return out;
}

// The deal a hand belongs to: a new deal replaces the whole hand (nothing was drawn).
function dealKey(obs) {
  return `${obs.hand_no ?? ""}/${obs.deal ?? ""}`;
}

function noteDrawn(before, after) {
  if (role !== "seat" || !after.view || !after.view.observation) return;
  const now = after.view.observation;
  if (!before || !before.view || !before.view.observation) return;
  const was = before.view.observation;
  if (dealKey(was) !== dealKey(now)) { drawn = null; return; }
  const old = counts(was.hand);
  const cur = counts(now.hand);
  if (JSON.stringify([...old].sort()) === JSON.stringify([...cur].sort())) return;   // unchanged
  const added = [];
  for (const [base, m] of cur) {
    for (let k = old.get(base) || 0; k < m; k++) added.push(`${base}/${k}`);
  }
  if (!added.length) {
    // cards left the hand (a meld, a discard): during the turn the drawn cards still held stay
    // marked; once the turn is over, none
    const stillMine = (after.common.to_act || []).includes(mySeat);
    if (drawn && stillMine) {
      const cards = drawn.cards.filter((c) => +c.split("/")[1] < (cur.get(c.split("/")[0]) || 0));
      drawn = cards.length ? { ...drawn, cards } : null;
    } else {
      drawn = null;
    }
    return;
  }
  drawn = { cards: added, text: drawnText(was, now, added) };
}

// "You drew 7♥"; "You took the pile: …"; "You bought 4♥ and the penalty card 9♣".
function drawnText(was, now, added) {
  const labels = sortCards(added, "rank").map(cardLabel);
  const list = (xs) => xs.length <= 1 ? xs.join("") : xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1];
  // this seat's own entries that are new in the log (the log says what the move was)
  const fresh = (now.log || []).slice(Math.max(0, (now.log || []).length - ((now.log_total ?? 0) - (was.log_total ?? 0))));
  const mine = fresh.filter((e) => e.seat === mySeat).map((e) => String(e.action || "").split(/\s+/)[0]);
  if (mine.includes("buy") && was.upcard) {
    const up = String(was.upcard).split("/")[0];
    const i = added.findIndex((c) => c.split("/")[0] === up);
    const rest = added.filter((_, j) => j !== i).map(cardLabel);
    return `You bought ${cardLabel(up)}` + (rest.length ? ` and the penalty card ${list(rest)}` : "");
  }
  if (mine.includes("take")) {
    return isShanghaiGame() ? `You took the upcard ${list(labels)}` : `You took the pile: ${list(labels)}`;
  }
  if (mine.includes("kitty")) return `You took your kitty: ${list(labels)}`;
  return `You drew ${list(labels)}`;
}

function isShanghaiGame() {
  return !!msg && msg.common.game === "shanghai-rummy";
}

function renderDrawn() {
  const note = $("drawn-note");
  const text = drawn ? drawn.text + "." : "";
  // only a new text is written: a live region says its text again when it is rewritten
  if (note.textContent !== text) note.textContent = text;
  note.hidden = !text;
}

// ------------------------------------------------------------------ the end of a hand
// The next hand is dealt a moment after one ends (a bot deals after its pause), which cleared
// the finished hand's melds at once.  The finished hand stays in a panel — who went out, the
// final melds, the breakdown — until the player closes it.
const END_PHASES = ["hand_end", "deal_end"];
let seenOutcomes = null;   // how many scored hands this page has shown (or found on opening)
let handOver = null;       // { oc, obs }: the finished hand shown; obs null if the page never
                           // saw the table between the end of the hand and the next deal

function noteHandOver() {
  const common = msg.common;
  const ocs = common.outcomes || [];
  const atEnd = END_PHASES.includes(common.phase) || common.finished;
  if (seenOutcomes === null) {
    // opening the page: only a hand that has just ended (its table still there) is shown
    seenOutcomes = ocs.length - (ocs.length && atEnd && !common.finished ? 1 : 0);
  }
  const obs = msg.view && msg.view.observation;
  const log = (obs && obs.log) || [];
  // the log's length so far (the observation carries its last entries and their total)
  const total = obs && obs.log_total !== undefined && obs.log_total !== null ? obs.log_total : log.length;
  if (ocs.length > seenOutcomes) {
    seenOutcomes = ocs.length;
    handOver = { oc: ocs[ocs.length - 1], obs: atEnd ? obs : null };
  }
  // once this seat has played in the next hand, the finished hand folds to one line (it
  // pushed the hand below the fold, or filled a phone's screen, through the next hand);
  // "Show the score" opens it again, and then it stays open until closed.  Played: the log
  // grew after a state that awaited this seat (dealing happens at the hand's end, not here)
  if (handOver && !handOver.folded && !handOver.reopened && !atEnd && mySeat !== null) {
    if (handOver.turnAt === undefined) {
      if ((common.to_act || []).includes(mySeat)) handOver.turnAt = total;
    } else if (total > handOver.turnAt) {
      handOver = { ...handOver, folded: true };
    }
  }
}

let handOverDrawn = null;  // the handOver the panel shows (drawn once: its button keeps focus)

function renderHandOver() {
  const box = $("hand-over");
  if (handOver === handOverDrawn) return;
  handOverDrawn = handOver;
  if (!handOver) { box.hidden = true; box.replaceChildren(); return; }
  const { oc, obs } = handOver;
  const live = msg.view.observation;
  const nm = names();
  const close = h("button", { type: "button", id: "hand-over-close" }, "Close");
  close.addEventListener("click", () => {
    // the hand's score read: a bot about to deal the next hand waits for it (the server's
    // hand_end_wait; a tester found the bots playing on under the score)
    if (role === "seat" && msg && END_PHASES.includes(msg.common.phase) && ws && ws.readyState === 1) {
      ws.send(JSON.stringify({ type: "ready", version: tableVersion(msg) }));
    }
    handOver = null;
    renderHandOver();
    restoreFocus({ card: null, action: null, inActions: true }, true);
  });
  if (handOver.folded) {
    const show = h("button", { type: "button", id: "hand-over-show" }, "Show the score");
    show.addEventListener("click", () => {
      handOver = { ...handOver, folded: false, reopened: true };
      renderHandOver();
      const c = $("hand-over-close");
      if (c) c.focus();
    });
    box.classList.add("folded");
    // said to be the last hand's (a tester read the line, seen during the next deal, as stale)
    const unit = live.game === "shanghai-rummy" ? "deal" : "hand";
    box.replaceChildren(h("div.hand-over-head", h("h2", h("span.dim", `The last ${unit} \u2014 `),
      handTitle(oc, live, nm, mySeat)), h("span.hand-over-buttons", show, close)));
    box.hidden = false;
    return;
  }
  box.classList.remove("folded");
  const parts = [h("div.hand-over-head", h("h2", handTitle(oc, live, nm, mySeat)), close)];
  const toAct = msg.common.to_act || [];
  if (role === "seat" && END_PHASES.includes(msg.common.phase) && !toAct.includes(mySeat)
      && toAct.some((s) => msg.seats && msg.seats[s] && msg.seats[s].kind === "bot")) {
    const unit = live.game === "shanghai-rummy" ? "deal" : "hand";
    parts.push(h("p.dim.hand-over-wait", `The next ${unit} is dealt when you close this, or after a minute.`));
  }
  const bd = breakdown(oc, live, nm, mySeat);
  bd.querySelector("h4").remove();     // the panel's title says it
  parts.push(h("h3", "Score"), bd);
  if (obs) {
    // the score first; the final melds (still on the table until the next deal) folded away
    // on a narrow screen, where they would push the rest of the page far down
    parts.push(h("details.final-melds", { open: window.innerWidth > 900 },
      h("summary", "Final melds"), meldsPanel(obs, nm, mySeat)));
  } else {
    parts.push(h("p.dim", "The next hand was dealt before this page saw the table; the lines above list the melds scored."));
  }
  box.replaceChildren(...parts);
  box.hidden = false;
  if (!handOver.reopened && !handOver.scrolled) {
    // a hand just ended: its panel sits above the table, out of view of a player scrolled
    // down to the hand and the moves; bring its top into view once
    handOver.scrolled = true;
    requestAnimationFrame(() => box.scrollIntoView({ block: "start", behavior: "smooth" }));
  }
}


// The hand still holds the staged melds' cards (CC-6.9(a), SH-8.1): they are shown in the
// staged area instead, and the hand shows (and lets the player select) the others.
function stagedSplit() {
  const obs = msg.view.observation;
  return matchStaged(sortCards(localCopies(obs.hand), "rank"), obs.staged || []);
}

function renderHand() {
  const obs = msg.view.observation;
  const split = stagedSplit();
  const hand = split.rest;
  selection = selection.filter((c) => hand.includes(c));
  const box = $("hand");
  box.replaceChildren();
  box.style.setProperty("--n", String(Math.max(hand.length, 1)));   // the fan's overlap (CSS)
  const stagedCards = (obs.hand || []).length - hand.length;
  $("hand-count").textContent = role !== "seat" ? ""
    : stagedCards ? `(${hand.length}, and ${stagedCards} in staged melds)` : `(${hand.length})`;
  $("me").classList.toggle("spectating", role !== "seat");
  $("me").hidden = role !== "seat";        // a spectator has no hand: no empty strip
  const known = new Set(localCopies((obs.known_in_hand && mySeat !== null && obs.known_in_hand[mySeat]) || []));
  const fresh = new Set(drawn ? drawn.cards : []);
  for (const c of sortCards(hand, sortBy)) {
    const selected = selection.includes(c);
    const isNew = fresh.has(c);
    const b = h("button.card-btn" + (selected ? ".selected" : "") + (known.has(c) ? ".known" : "") + (isNew ? ".drawn" : ""),
      { type: "button", "aria-pressed": selected ? "true" : "false", "data-card": c,
        "aria-label": cardLabel(c) + (isNew ? " (just drawn)" : "") + (known.has(c) ? " (others know you hold it)" : ""),
        title: cardLabel(c) + (isNew ? " \u2014 just drawn" : "") + (known.has(c) ? " \u2014 the others know you hold it (they saw you take it)" : "") },
      cardSVG(c), isNew ? h("span.new-badge", { "aria-hidden": "true" }, "new") : null);
    b.addEventListener("click", () => toggle(c));
    box.append(b);
  }
  $("hand-legend").hidden = !hand.some((c) => known.has(c));
  const kitty = $("kitty");
  kitty.replaceChildren();
  if (obs.my_kitty) kitty.append(h("div.my-kitty", h("span", "Your kitty: "), cardRow(obs.my_kitty, { small: true, fan: true })));
  $("sort-rank").setAttribute("aria-pressed", String(sortBy === "rank"));
  $("sort-suit").setAttribute("aria-pressed", String(sortBy === "suit"));
}

function toggle(card) {
  const i = selection.indexOf(card);
  if (i >= 0) selection.splice(i, 1);
  else selection.push(card);
  renderHand();
  renderActions();
  const again = document.querySelector(`#hand [data-card="${CSS.escape(card)}"]`);
  if (again) again.focus();
}

// In the canasta games a move names cards by kind and the engine chooses which copy leaves the
// hand, so that the copy reveals nothing: the button says so.
const KIND_RULE = { "classic-canasta": "CC-5.9", "railroad-canasta": "RR-5.10" };

function kindTitle(a) {
  const rule = msg && KIND_RULE[msg.common.game];
  if (!rule) return null;
  const cards = actionCards(a);
  if (!cards.length || cards.some((c) => c.suit)) return null;
  if (cards.every((c) => c.rank === "JK")) {
    return `any ${cards.length === 1 ? "joker" : cards.length + " jokers"} from your hand: the copies are alike (${rule})`;
  }
  // a 2 is a wild card, not a joker (CC-3.1, RR-3.2): "any K, K and wild 2", "any wild 2 and joker"
  const words = cards.map((c) => (c.rank === "JK" ? "joker" : c.rank === "2" ? "wild 2" : c.rank));
  const list = words.length === 1 ? words[0] : words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
  return `any ${list} from your hand: suits do not matter (${rule})`;
}

function actionButton(a, cls = "", why = null) {
  const hinted = currentHint() && currentHint().data && hintMove(currentHint().data, msg.view.legal) === a;
  const title = [hinted ? "the hint's recommended move" : null, kindTitle(a)].filter(Boolean).join(" \u2014 ");
  const b = h("button.action" + cls + (hinted ? ".hinted" : ""),
    { type: "button", "data-action": a, disabled: pending !== null, title: title || null },
    // the player reads the cards as the table shows them (7♥, Jk); data-action keeps the
    // notation sent to the server
    ...notationNodes(a),
    why ? h("span.why", why) : null);
  b.addEventListener("click", () => sendAction(a));
  return b;
}

/** A button that sends a sequence of moves (the first now, the others one after the other). */
function sequenceButton(moves, label, cls, attrs = {}) {
  const b = h("button" + cls, { type: "button", disabled: pending !== null, "data-action": moves[0], ...attrs }, label);
  b.addEventListener("click", () => {
    sendAction(moves[0]);
    if (pending !== null) queued = moves.slice(1);
  });
  return b;
}

// What a move for the selected cards does, in words (the button shows the notation too).
function whyText(a, obs) {
  const staged = (obs.staged || []).length > 0;
  const verb = a.split(/\s+/)[0];
  const target = a.includes("->") ? a.split("->")[1].trim() : "";
  const shanghai = msg.common.game === "shanghai-rummy";
  switch (verb) {
    case "stage": {
      if (a.endsWith("+ upcard")) return "with the upcard: stage it to take the pile";
      if (!shanghai) return "stage it as a new meld";
      // a joker's declared card tells apart moves that look alike (a set's joker names any
      // suit): said, with why it matters (a tester met four buttons for one set)
      const j = /JK=(\S+)/.exec(a);
      if (!j) return "stage it for the contract";
      const card = prettyNotation(j[1]);
      // "an A♠", "an 8♦" (a tester read "a A♠")
      const article = /^(A|8)/.test(card) ? "an" : "a";
      return `stage it for the contract, the joker as ${card}: only ${article} ${card} can take its place later (SH-9.4)`;
    }
    case "meld": return "lay it down as a new meld";
    case "add": return `add to your ${target} meld`;
    case "take": return "take the pile with them";
    case "layoff": return `lay off on meld #${target}`;
    case "swap": return `exchange for the joker of meld #${target}`;
    case "out": return "go out";
    case "discard": return staged ? "discard: goes out and commits the staged melds" : "discard it";
    default: return null;
  }
}

// Moves of the staged area (its own buttons): withdraw, commit.
const STAGING_MOVES = new Set(["withdraw", "withdraw all", "meld done", "contract done"]);

function stagingArea(legal) {
  const obs = msg.view.observation;
  const staged = obs.staged || [];
  if (!staged.length) return null;
  const has = (a) => legal.includes(a);
  const n = staged.length;
  const upcard = !!obs.staged_upcard;
  const shanghai = msg.common.game === "shanghai-rummy";
  const undo = (i) => {
    if (!has("withdraw")) return null;
    // labelled "withdraw", the header's word for it (a tester read "withdraw" in the header
    // beside buttons saying "undo")
    const what = `withdraw: put ${prettyNotation(staged[i])} back in the hand`;
    if (i === n - 1) return sequenceButton(["withdraw"], "withdraw", ".undo", { title: what, "aria-label": what });
    // an earlier meld: withdraw back to it, then stage the later ones again (the upcard's meld
    // comes first and the others depend on it: undoing it withdraws them all)
    const again = upcard && i === 0 ? [] : staged.slice(i + 1).map((t) => "stage " + t);
    // re-staging the later melds needs stage actions left this turn (CC-6.9 (d), SH-8.1):
    // without them the undo would lose them, so it is not offered
    const left = obs.stages_left === undefined ? Infinity : obs.stages_left;
    if (again.length > left) return null;
    const moves = upcard && i === 0 ? ["withdraw all"] : [...Array(n - i).fill("withdraw"), ...again];
    // the moves it plays are said in words, not as a list of actions
    const later = n - i - 1;
    const how = upcard && i === 0 ? " (the upcard's meld comes first: every staged meld is withdrawn)"
      : ` (the ${later === 1 ? "meld" : `${later} melds`} staged after it ${later === 1 ? "is" : "are"} withdrawn and staged again)`;
    return sequenceButton(moves, "withdraw", ".undo", { title: what + how, "aria-label": what });
  };
  const commit = [];
  const notes = [];
  if (shanghai) {
    if (has("contract done")) commit.push(actionButton("contract done", ".primary.commit", null));
    notes.push(has("contract done") ? "Contract done lays them down as your contract."
      : "Stage the rest of the contract, then Contract done lays them down.");
  } else if (upcard) {
    if (has("take")) commit.push(actionButton("take", ".primary.commit", "take the pile: commits the staged melds"));
    notes.push("Taking the pile commits these melds (only the upcard and cards from your hand count).");
  } else {
    if (has("meld done")) commit.push(actionButton("meld done", ".primary.commit", "commit the staged melds"));
    notes.push("Meld done commits them" + (has("meld done") ? "." : " once the count reaches the minimum."));
  }
  if (legal.some((a) => a.startsWith("discard"))) {
    notes.push("Your final discard goes out concealed and commits them.");
  }
  if (obs.stages_left !== undefined && obs.stages_left <= 3) {
    notes.push(obs.stages_left === 0 ? "No more melds can be staged this turn."
      : `${obs.stages_left} more stage ${obs.stages_left === 1 ? "action" : "actions"} this turn.`);
  }
  const undoAll = has("withdraw all") && n > 1
    ? sequenceButton(["withdraw all"], "withdraw all", ".undo-all", { title: "put every staged meld back in the hand" })
    : null;
  return stagedPanel(obs, mySeat, stagedSplit().melds, { undo, undoAll, commit, notes });
}

function renderActions() {
  if (!msg) return;
  const box = $("actions");
  box.replaceChildren();
  const prompt = $("prompt");
  prompt.replaceChildren();
  const v = msg.view;
  if (v.prompt) prompt.append(h("p", ...notationNodes(named(v.prompt.text))));
  $("typed").hidden = role !== "seat";
  if (role !== "seat") return;
  const legal = v.legal;
  if (msg.common.finished) {
    box.append(h("p.dim", "The game is over."));
    return;
  }
  if (!legal.length) {
    const who = msg.common.to_act.map((s) => seatName(names(), s, mySeat)).join(", ");
    box.append(h("p.dim", who ? `Waiting for ${who}…` : "Waiting…"));
    return;
  }
  const obs = v.observation;
  const area = stagingArea(legal);
  if (area) box.append(area);
  box.append(hintPanel(legal));
  // the staged area has its own buttons: withdraw, meld done / contract done, the take that
  // commits a staged take
  const inArea = (a) => area && (STAGING_MOVES.has(a) || (a === "take" && obs.staged_upcard));
  const parsed = legal.map((a) => ({ a, cards: actionCards(a) }));
  const plain = parsed.filter((p) => p.cards.length === 0 && !inArea(p.a));
  const main = h("div.action-buttons");
  if (selection.length === 0) {
    for (const p of plain) main.append(actionButton(p.a, ".primary"));
    const withCards = parsed.filter((p) => p.cards.length).length;
    if (withCards) main.append(h("p.hint", `Select cards to see the move${withCards === 1 ? " that uses" : "s that use"} exactly them (${withCards} in all: melds, additions, discards).`));
  } else {
    // only the moves that use exactly the selected cards (a move names its cards; the
    // compound combinations are never listed)
    const exact = parsed.filter((p) => p.cards.length && matchesExactly(p.cards, selection));
    for (const p of exact) main.append(actionButton(p.a, ".primary", whyText(p.a, obs)));
    if (!exact.length) {
      const more = parsed.filter((p) => p.cards.length && usesAll(p.cards, selection)).length;
      main.append(h("p.hint", "No legal move uses exactly these cards."
        + (more ? ` ${more === 1 ? "One move uses" : more + " moves use"} them with more cards: select those too.` : "")));
    }
    for (const p of plain) main.append(actionButton(p.a));
  }
  box.append(main);
  const all = h("details.all-moves", h("summary", `All legal moves (${legal.length})`));
  const list = h("div.action-list");
  legal.slice(0, 400).forEach((a) => list.append(actionButton(a, ".small")));
  all.append(list);
  box.append(all);
}

// ------------------------------------------------------------------ hints
// The server's search bot (ismcts, normal level) advises the seat from its observation: the
// recommended move (a button: press it to play it; the same move is highlighted among the
// moves), its estimated result in points and the other moves compared with it (difference on
// the same sampled deals ± one standard error).  A hint belongs to the
// version it was worked out at: once the table moves on it is gone.

function currentHint() {
  return hint && msg && hint.version === tableVersion(msg) ? hint : null;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// Shanghai Rummy's estimate in words: "3 penalty points fewer" / "5 more" (no signed figure
// beside "fewer", which read as a double negative)
function penaltyWords(v) {
  const r = Math.round(v);
  if (r === 0) return "as many penalty points";
  return `${Math.abs(r)} penalty point${Math.abs(r) === 1 ? "" : "s"} ${r > 0 ? "fewer" : "more"}`;
}

function points(v) {
  if (v === null || v === undefined) return null;
  const r = Math.round(v);  // whole points, as the hint's own figures are
  return `${r < 0 ? "\u2212" : "+"}${Math.abs(r)} points`;  // "+0", never "±0 ± 0"
}

// The move a hint's button plays: its action, or where the hint recommends a whole melding
// the engine stages (`plan`: "meld A A A, K K 2"), its next step (`next`: "stage A A A"; with
// melds staged that are not part of it, "withdraw all"), so that the player builds it one
// meld at a time like any other.
function hintMove(d, legal) {
  if (d.plan && d.next && (legal.includes(d.next) || !legal.includes(d.action))) return d.next;
  return d.action;
}

// Whether a hint names a whole melding apart from the step its button plays ("Recommended:
// the melding …; its next step: …").
function hintShowsPlan(d, legal) {
  return !!d.plan && d.plan !== hintMove(d, legal);
}

function hintPanel(legal) {
  const cur = currentHint();
  const btn = h("button", { type: "button", id: "hint-btn", disabled: !!(cur && cur.loading),
    "aria-describedby": "hint-note" }, cur && cur.loading ? "Thinking\u2026" : "Hint");
  btn.addEventListener("click", askHint);
  const row = h("div.hint-row", btn,
    h("span.dim", { id: "hint-note" }, " the search bot's advice for this decision"));
  const box = h("div.hint-box", { id: "hint-box", role: "status" }, row);
  if (!cur || cur.loading) return box;
  if (cur.error) {
    box.append(h("p.error", "No hint: ", ...withRuleLinks(named(cur.error))));
    return box;
  }
  const d = cur.data;
  const value = points(d.value);
  const move = hintMove(d, legal);
  const rec = actionButton(move, ".primary.hint-move");
  rec.id = "hint-move";
  // Shanghai Rummy scores penalty points (lower is better) for players, not sides; with one
  // opponent there is no mean to speak of
  const against = d.players === 2 ? "your opponent" : "the other players' mean";
  // over the hint's own deals the estimate has its uncertainty (± one standard error)
  const pm = d.value_stderr !== null && d.value_stderr !== undefined ? ` \u00b1 ${Math.round(d.value_stderr)}` : "";
  const valuePm = value !== null ? value.replace(" points", `${pm} points`) : null;
  const over = d.measured_deals ? plural(d.samples, "sampled deal") : plural(d.samples, "playout");
  // in words ("3 penalty points more"), its ± apart: "3 ± 2 … more" read oddly
  const penaltyPm = (v) => penaltyWords(v) + (pm ? ` (${pm.trim()})` : "");
  const detail = value !== null
    ? (d.penalty_points
      // "as many … as", "3 … more than" (a tester read "as many penalty points (± 3) than")
      ? ` estimated ${penaltyPm(d.value)} ${Math.round(d.value) === 0 ? "as" : "than"} ${against} this deal (${over})`
      : d.partnership
        ? ` estimated ${valuePm} for your side against the other side this hand (${over})`
        : ` estimated ${valuePm} for you against ${against} this hand (${over})`)
    : d.legal_count === 1 ? " the only legal move" : " (no estimate)";
  // a close call: the next move did about as well, so another hint or level may differ
  const close = d.close_call ? h("p.hint-close", "A close call: the next move did about as well (see below).") : null;
  if (hintShowsPlan(d, legal)) {
    // the whole melding, then the step to play now (with melds staged that are not part of
    // it, the step is to withdraw them: the player is told why)
    const staged = (msg.view.observation.staged || []).length > 0;
    const why = staged && /^withdraw/.test(move) ? " (what you have staged is not part of it)" : "";
    // a melding is built meld by meld; any other move (a discard) only needs the staged
    // melds withdrawn first
    const isMelding = /^(meld|take|out|contract) /.test(d.plan);
    box.append(h("p.hint-best", h("strong", "Recommended: "), isMelding ? "the melding " : "",
      h("code.hint-plan", ...notationNodes(d.plan)), h("span.dim", detail)),
      h("p.hint-best.hint-step", h("span", "Its next step: "), rec, why ? h("span.dim", why) : null));
  } else {
    // a discard listed against meldings ends the turn: said (a tester read them as moves
    // that could not both be made in one turn)
    const now = d.melds_nothing_more ? h("span.hint-now", "now, melding nothing more this turn") : null;
    box.append(h("p.hint-best", h("strong", "Recommended: "), rec, now, h("span.dim", detail)));
  }
  if (close) box.append(close);
  if (d.why) box.append(h("p.hint-why", h("strong", "Why: "), ...notationNodes(named(d.why))));
  if (d.alternatives && d.alternatives.length) {
    const list = h("ol.hint-alternatives");
    for (const alt of d.alternatives) {
      // a whole melding the engine stages (shorthand, not a legal move by itself) is named,
      // not a button: it is built one meld at a time
      // a move that is not legal now and no melding (a discard while melds are staged) is
      // played after withdrawing them: named, as its note says, not a button
      const melding = !legal.includes(alt.action);
      const vs = alt.versus_recommended;
      // "+0 ± 0" (the same result on every deal) read as a measurement: said in words
      const same = vs !== null && vs !== undefined && alt.stderr != null
        && Math.round(vs) === 0 && Math.round(alt.stderr) === 0;
      const se = alt.stderr != null ? ` \u00b1 ${Math.round(alt.stderr)}` : "";
      const diff = vs === null || vs === undefined || same ? null
        : points(vs).replace(" points", "") + se;
      const counted = d.measured_deals ? plural(alt.samples, "deal") : plural(alt.samples, "playout");
      // Shanghai Rummy: penalty points said in words ("9 penalty points more (± 7) than"):
      // a signed figure, + for fewer, read the wrong way round
      const penaltyWords = () => Math.round(vs) === 0
        ? `as many penalty points${se ? ` (${se.trim()})` : ""} as`
        : `${plural(Math.abs(Math.round(vs)), "penalty point")} ${vs > 0 ? "fewer" : "more"}${se ? ` (${se.trim()})` : ""} than`;
      const text = (same ? ` the same result as the recommendation on every deal (${counted})`
        : diff !== null && d.penalty_points
        ? ` ${penaltyWords()} the recommendation on the same deals (${counted})`
        : diff !== null
        ? ` ${diff} points against the recommendation on the same deals (${counted})`
        : (points(alt.value) ? ` ${points(alt.value)} (${plural(alt.samples, "playout")})` : ""))
        + (alt.note ? ` \u2014 ${prettyNotation(named(alt.note))}` : "");
      const isMeld = /^(meld|take|out|contract) /.test(alt.action);
      // a melding written as shorthand: the move list's step that begins it, as a button (a
      // tester met "take A A" here beside the move list's "stage A A + upcard")
      const first = melding && alt.next && legal.includes(alt.next)
        ? h("span.hint-first", " (first step: ", actionButton(alt.next, ".small"), ")") : null;
      list.append(h("li", melding ? h("code.melding", { title: isMeld ? "a melding: stage its melds one at a time" : "withdraw the staged melds first" }, ...notationNodes(alt.action))
        : actionButton(alt.action, ".small"), first, text ? h("span.dim", text) : null));
    }
    // this game's own rule (the hint's "gate"), never another game's
    // the hint's own footnote (this game's rule, never another game's; it speaks only of
    // the signs the list has)
    const basis = d.footnote || "";
    // the list, then what its figures mean (a tester found the note between the why and
    // the list it explains)
    box.append(list, h("p.dim.hint-footnote", basis));
  }
  return box;
}

async function askHint() {
  if (!msg || role !== "seat" || (hint && hint.loading && hint.version === tableVersion(msg))) return;
  const version = tableVersion(msg);
  const hadFocus = document.activeElement && document.activeElement.id === "hint-btn";
  hint = { version, loading: true };
  renderActions();
  if (hadFocus) { const b = $("hint-btn"); if (b) b.focus(); }
  try {
    const data = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/hint`, { token });
    hint = { version: data.version, data };
  } catch (e) {
    hint = { version, error: e.message };
  }
  if (!msg || hint.version !== tableVersion(msg)) return;   // the table moved on meanwhile
  const info = focusInfo();
  renderActions();
  const best = $("hint-move");
  if (hadFocus && best) best.focus();          // keyboard: from "Hint" straight to the move
  else restoreFocus(info);
}

// The games' options, labels and presets (GET /api/games), asked for once.
let gamesAsked = null;
function loadGames() {
  if (!gamesAsked) {
    gamesAsked = api("GET", "/api/games").then((list) => { games = list; }, () => { games = []; });
  }
  return gamesAsked;
}

// The house rules in effect: the table's options that differ from the game's defaults, in the
// lobby's words ("House rules: Wild cards in a meld: at most 3 wild cards (Pagat); Target
// score: 3,000"), or the rules as written.
let houseRulesShown = null;   // the text shown (the box is written once)

function renderHouseRules() {
  const box = $("house-rules");
  if (!msg) return;
  if (!games) { loadGames().then(() => { if (msg) renderHouseRules(); }); return; }
  const g = games.find((x) => x.name === msg.common.game);
  if (!g || !msg.common.options) { box.hidden = true; return; }
  const changes = houseRuleChanges(g, msg.common.options);
  const text = changes.map((c) => `${c.label}: ${c.words}`).join("; ");
  if (text === houseRulesShown) return;
  houseRulesShown = text;
  box.hidden = false;
  box.replaceChildren(h("p", h("strong", "House rules: "),
    changes.length ? text : "none \u2014 the rules as written",
    // the rules page lists this table's house rules above the rules as written
    " (", h("a", { href: `/api/rules/${encodeURIComponent(msg.common.game)}?format=html`
      + houseQuery(msg.common.game), target: "_blank", rel: "noopener" }, "the rules"), ")"));
}

async function renderAdmin() {
  const creator = (tableEntry(tableId) || {}).creator_token;
  const box = $("admin-box");
  if (!creator || !msg) { box.hidden = true; return; }
  box.hidden = false;
  if (!games) await loadGames();
  const g = (games || []).find((x) => x.name === msg.common.game);
  const bots = g ? g.bots : ["random"];
  const list = h("ul.admin-seats");
  for (const s of msg.seats) {
    const sel = h("select", { "aria-label": `who plays seat ${s.seat}` },
      h("option", { value: "human", selected: s.kind === "human" }, "human (invite link)"),
      // the lobby's and the notices' names: "bot: normal (search bot)", not "bot: ismcts"
      ...bots.map((b) => h("option", { value: "bot:" + b, selected: s.kind === "bot" && s.bot === b },
        `bot: ${botLevel(b) === b ? b : `${botLevel(b)} (search bot)`}`)));
    const btn = h("button", { type: "button" }, "apply");
    btn.addEventListener("click", async () => {
      // "bot:ismcts:hard": the bot's name may hold a colon too
      const [kind, ...rest] = sel.value.split(":");
      const bot = rest.join(":");
      try {
        await api("POST", `/api/tables/${tableId}/seats/${s.seat}`, { token: creator, body: { kind, bot: bot || null } });
      } catch (e) { showRefusal({ code: e.code, message: e.message }); }
    });
    list.append(h("li", h("span", `${s.seat}: ${s.name} `, s.kind === "bot"
      // a bot is never "online" or "away" (a tester read "Bot 1 online")
      ? h("span.badge", "bot") : h("span.badge" + (s.connected ? ".on" : ".off"), s.connected ? "online" : "away")), sel, btn));
  }
  $("admin").replaceChildren(h("p.dim", "Hand a seat whose player left to a bot:"), list);
}

function renderFinished() {
  const box = $("finished");
  box.replaceChildren();
  if (!msg || !msg.common.finished) return;
  const dl = h("button", { type: "button", id: "download-record" }, "Download the record (JSON)");
  dl.addEventListener("click", downloadRecord);
  box.append(h("h2", "Game over"), dl, " ",
    h("a", { href: `/replay.html#t=${encodeURIComponent(tableId)}&k=${encodeURIComponent(token)}` }, "Replay it"));
}

async function downloadRecord() {
  // the server's text, byte for byte: the seed may exceed 2**53 (tables made before seeds had
  // 53 bits, records of other origin), which JSON.parse + JSON.stringify would round
  try {
    const text = await apiText("GET", `/api/tables/${encodeURIComponent(tableId)}/record`, { token });
    const game = msg ? msg.common.game : "game";
    const blob = new Blob([text], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = h("a", { href: url, download: `meldhall-${game}-${tableId}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (e) {
    showRefusal({ code: e.code, message: e.message });
  }
}

// ------------------------------------------------------------------ controls
$("sort-rank").addEventListener("click", () => { sortBy = "rank"; localStorage.setItem("meldhall.sort", sortBy); renderHand(); });
$("sort-suit").addEventListener("click", () => { sortBy = "suit"; localStorage.setItem("meldhall.sort", sortBy); renderHand(); });
$("clear-sel").addEventListener("click", () => { selection = []; renderHand(); renderActions(); });
$("typed").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const input = $("typed-action");
  const text = input.value.trim();
  if (!text) return;
  sendAction(text);
  input.value = "";
});
document.addEventListener("keydown", (ev) => {
  // the arrow keys move along the hand's cards (Tab does too, card by card)
  if ((ev.key === "ArrowLeft" || ev.key === "ArrowRight") && ev.target.classList
      && ev.target.classList.contains("card-btn")) {
    const cards = [...$("hand").querySelectorAll(".card-btn")];
    const next = cards[cards.indexOf(ev.target) + (ev.key === "ArrowRight" ? 1 : -1)];
    if (next) { next.focus(); ev.preventDefault(); }
    return;
  }
  if (ev.key === "Escape" && selection.length) {
    const info = focusInfo();
    selection = [];
    renderHand();
    renderActions();
    restoreFocus(info);
  }
});

initAnimationToggle($("anim-toggle"));
connect();
void absolute;
