// Short animations of the moves that carry cards across the table: a draw flies a card from
// the stock to the seat (to the new cards in the viewer's own hand), a discard from the seat
// to the pile, a pile take (or an upcard taken or bought) from the pile to the seat.  The
// flying card is a copy drawn over the table for a moment (it takes no clicks); the table
// itself is already in its new state underneath, so nothing waits for an animation.
//
// Off when the system asks for reduced motion (prefers-reduced-motion), and switchable with
// the page's "Animations: on/off" button, remembered in this browser (localStorage).

import { cardSVG } from "./cards.js";

const KEY = "meldhall.animations";
const DURATION_MS = 380;
const reduced = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : null;

/** The player's choice: "on", "off", or null (none made: on unless reduced motion is asked). */
function choice() {
  try {
    const v = localStorage.getItem(KEY);
    return v === "on" || v === "off" ? v : null;
  } catch {
    return null;
  }
}

/** True when moves are animated: the player's choice, else the system's (reduced motion: off). */
export function animationsOn() {
  const c = choice();
  if (c) return c === "on";
  return !(reduced && reduced.matches);
}

/** Wires the toggle button: its text and aria-pressed say the state; a press switches it. The
 *  page's root gets the class "no-motion" while animations are off (the CSS transitions stop). */
export function initAnimationToggle(button) {
  const show = () => {
    const on = animationsOn();
    document.documentElement.classList.toggle("no-motion", !on);
    if (!button) return;
    button.textContent = `Animations: ${on ? "on" : "off"}`;
    button.setAttribute("aria-pressed", String(on));
    button.title = on ? "Cards fly between the stock, the pile and the seats: press to turn it off"
      : "Moves are shown without animation: press to turn animations on";
  };
  if (button) {
    button.addEventListener("click", () => {
      try { localStorage.setItem(KEY, animationsOn() ? "off" : "on"); } catch { /* private mode */ }
      show();
    });
  }
  if (reduced && reduced.addEventListener) reduced.addEventListener("change", show);
  show();
}

/** A seat's place on the page: the viewer's new cards (or its hand), else the seat's plate. */
function seatTarget(seat, mySeat) {
  if (seat === mySeat) {
    const fresh = [...document.querySelectorAll("#hand .card-btn.drawn")];
    if (fresh.length) return fresh;
    const hand = document.getElementById("hand");
    if (hand && hand.offsetParent !== null) return [hand];
  }
  const plate = document.querySelector(`#players .player[data-seat="${seat}"]`);
  return plate ? [plate] : [];
}

function pileTop() {
  return document.querySelector("#center .pile .card-wrap.top") || document.querySelector("#center .pile-stack");
}

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** One card flying from one element to another (face up when `face` is a card, else its back). */
function fly(from, to, face, delay) {
  if (!from || !to) return;
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  if (!a.width || !b.width) return;
  const card = document.createElement("div");
  card.className = "flying-card";
  card.setAttribute("aria-hidden", "true");
  card.append(cardSVG(face));
  document.body.append(card);
  const w = card.getBoundingClientRect().width || 64;
  const p = centre(a);
  const q = centre(b);
  const start = `translate(${p.x - w / 2}px, ${p.y - w * 0.7}px) scale(0.9)`;
  const end = `translate(${q.x - w / 2}px, ${q.y - w * 0.7}px) scale(1)`;
  card.style.transform = start;
  const anim = card.animate([{ transform: start, opacity: 0.95 }, { transform: end, opacity: 1 }],
    { duration: DURATION_MS, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "both" });
  const done = () => card.remove();
  anim.addEventListener("finish", done);
  anim.addEventListener("cancel", done);
  setTimeout(done, DURATION_MS + delay + 500);     // a hidden tab may never finish it
}

/**
 * Animates the moves between two observations of the same hand (the log's new entries: draws,
 * discards, pile and upcard takes, buys), after the page has drawn the second.  Nothing on the
 * first view, on a new deal, in a hidden tab, or when animations are off.
 */
export function animateMoves(before, after, mySeat) {
  if (!before || !after || !animationsOn() || document.hidden) return;
  if (`${before.hand_no ?? ""}/${before.deal ?? ""}` !== `${after.hand_no ?? ""}/${after.deal ?? ""}`) return;
  const added = (after.log_total ?? 0) - (before.log_total ?? 0);
  if (added <= 0 || added > 6) return;
  const fresh = (after.log || []).slice(-added);
  const stock = document.querySelector("#center .stock-stack") || document.querySelector("#center .stock");
  const pile = after.pile || [];
  const prevPile = before.pile || [];
  let delay = 0;
  for (const e of fresh) {
    const verb = String(e.action || "").trim().split(/\s+/)[0];
    if (e.seat === null || e.seat === undefined || e.seat < 0) continue;
    const targets = seatTarget(e.seat, mySeat);
    if (!targets.length) continue;
    if (verb === "draw") {
      for (const t of targets) fly(stock, t, null, delay);
    } else if (verb === "discard") {
      fly(targets[0], pileTop(), pile.length ? pile[pile.length - 1] : null, delay);
    } else if (verb === "take" || verb === "buy") {
      const top = prevPile.length ? prevPile[prevPile.length - 1] : null;
      fly(pileTop() || stock, targets[0], top, delay);
      if (verb === "buy") fly(stock, targets[targets.length - 1], null, delay + 120);
    } else {
      continue;
    }
    delay += 140;
  }
}
