// Drawing a table from an observation JSON (the table page and the replay page share this).
// Everything shown comes from the observation the server sent: nothing is guessed.

import { h, GAME_TITLES, ruleLink } from "./api.js";
import { cardSVG, cardLabel, notationPieces, parseCard, prettyNotation, sortCards } from "./cards.js";

const isShanghai = (obs) => obs.game === "shanghai-rummy";

/** A bot's name as the table's notices say it ("Bot (normal) plays for Tess"): the search
 *  bot by its level ("ismcts" -> "normal", "ismcts:hard" -> "hard"), another bot by name. */
export function botLevel(bot) {
  const b = String(bot || "");
  if (b === "ismcts") return "normal";
  return b.startsWith("ismcts:") ? b.slice("ismcts:".length) : b;
}

let youLabel = "(you)";

/** How the page's own seat is marked ("(you)"; the replay page says "(viewing)"). */
export function setYouLabel(label) {
  youLabel = label;
}

export function seatName(names, seat, mySeat) {
  if (seat === -1 || seat === null || seat === undefined) return "Table";
  const n = names[seat] || `Seat ${seat}`;
  return seat === mySeat ? `${n} ${youLabel}` : n;
}

/** Side number -> "Ann & Cleo" */
function sideNames(obs, names, side) {
  const seats = [];
  (obs.side_of || []).forEach((s, seat) => { if (s === side) seats.push(seat); });
  return seats.map((s) => names[s] || `Seat ${s}`).join(" & ");
}

export function sides(obs) {
  if (isShanghai(obs)) return obs.scores.map((_, i) => [i]);
  const n = Math.max(...(obs.side_of || [0])) + 1;
  const out = [];
  for (let s = 0; s < n; s++) out.push(obs.side_of.map((x, i) => (x === s ? i : -1)).filter((i) => i >= 0));
  return out;
}

export function cardRow(list, opts = {}) {
  const row = h("div.card-row" + (opts.fan ? ".fan" : ""));
  list.forEach((t, i) => {
    // a Shanghai joker in a meld names the card it stands for (SH-9.4, written Jk=7♦): a
    // tester saw a bare joker in a set of twos
    const said = opts.stands && /^JK=/.test(opts.stands[i] || "") ? opts.stands[i].slice(3) : null;
    row.append(h("span.card-wrap", { title: said ? `Joker standing for ${cardLabel(said)}` : cardLabel(t) },
      cardSVG(t, { small: opts.small })));
  });
  return row;
}

/** What the seat to act may do in the phase, in words (the engine's phase names — "upcard",
 *  "hand_end" — are not shown): for the page's own seat "Draw or take the pile"; for the
 *  others the end of "Waiting for Bob …" ("to draw or take the pile").  null for a phase
 *  without words (the turn line then names no phase). */
export function phaseText(obs, mine, legal = null) {
  const up = obs.upcard ? cardLabel(obs.upcard) : "the upcard";
  if (mine && Array.isArray(legal) && legal.length === 1 && legal[0] === "draw"
      && obs.phase === "draw" && !isShanghai(obs)) {
    // the pile cannot be taken (blocked, or frozen without a natural pair): say so, not
    // "Draw or take the pile" (a tester read it as a move there was not)
    return "Draw (the pile cannot be taken now)";
  }
  const canasta = {
    draw: ["Draw or take the pile", "to draw or take the pile"],
    meld: ["Meld or discard", "to meld or discard"],
    consent: ["Your partner asks \u201cmay I go out?\u201d: answer yes or no",
              "to answer \u201cmay I go out?\u201d"],
    hand_end: ["The hand is over: deal the next one", "to deal the next hand"],
    kitty: ["Take your kitty, or pass (it waits for a later discard)", "to take the kitty or pass"],
    choice: ["Go out, or take your kitty", "to go out or take the kitty"],
  };
  const shanghai = {
    upcard: [`Take ${up}, or draw from the stock`, `to take ${up} or draw`],
    buy: [`Buy ${up}? (+1 penalty card)`, `to buy ${up} or pass`],
    meld: ["Meld or discard", "to meld or discard"],
    deal_end: ["The deal is over: start the next one", "to start the next deal"],
  };
  if (mine && isShanghai(obs) && obs.phase === "meld" && (obs.staged || []).length) {
    // the player's own staged contract: no discard until it is laid down or withdrawn
    // (SH-8.1; "Meld or discard" offered a discard there is none of)
    const need = contractMelds(obs.contract);
    return need && obs.staged.length >= need ? "Lay down the contract (contract done), or withdraw"
      : "Stage the rest of the contract, or withdraw";
  }
  if (mine && obs.phase === "meld" && Array.isArray(legal) && legal.length) {
    // what the moves allow, not "Meld or discard" where one of the two is not there (a
    // tester read it with only discards legal after a contract, and with staged melds);
    // render.phase_text says the same
    const ds = legal.filter((a) => a.startsWith("discard "));
    if (ds.length === legal.length) return "Discard";
    if (!ds.length && legal.some((a) => a.startsWith("withdraw"))) {
      return legal.includes("meld done") ? "Stage more, commit the staged melds (meld done), or withdraw"
        : "Stage more melds to reach the minimum, or withdraw";
    }
  }
  const texts = (isShanghai(obs) ? shanghai : canasta)[obs.phase];
  return texts ? texts[mine ? 0 : 1] : null;
}

/** Title line: game, hand, contract, whose turn. */
export function headerInfo(obs, common, names, mySeat, seats, legal = null, refused = null) {
  const parts = [GAME_TITLES[obs.game] || obs.game];
  if (isShanghai(obs)) {
    parts.push(`deal ${obs.deal}`);
    if (obs.contract) parts.push(`contract ${obs.contract.number}: ${obs.contract.text}`);
  } else {
    parts.push(`hand ${obs.hand_no + 1}`);
  }
  const toAct = (common && common.to_act) || obs.to_act || [];
  let turn = "";
  let mine = false;
  if (common && common.finished) turn = "Game over";
  else if (toAct.length) {
    const who = toAct.map((s) => seatName(names, s, mySeat)).join(", ");
    const what = phaseText(obs, toAct.includes(mySeat), legal);
    // a stand-in bot playing this page's seat: the move is not the player's to make
    const standIn = !!(seats && seats[mySeat] && seats[mySeat].takeover);
    mine = toAct.includes(mySeat) && !standIn;
    if (mine) turn = what ? `Your move: ${what}` : "Your move";
    else if (toAct.includes(mySeat)) turn = "A bot is playing your move";
    else turn = `Waiting for ${who}` + (what ? ` ${what}` : "");
  }
  // why the pile is out of reach (the seat's own view says: a tester held J J J with a J
  // upcard and was not told of the minimum count)
  const why = mine && refused && refused.text
    ? h("span.turn-why", `Why: ${prettyNotation(refused.text)} (`, ruleLink(refused.rule), ")") : null;
  return h("div.header-info", h("span.game-title", parts.join(" \u00b7 ")),
           turn ? h("span.turn" + (mine ? ".mine" : ""), turn) : null, why);
}

/** Scores (and minimum counts) per side; a side of one seat (every Shanghai seat, Railroad
 *  Canasta, cutthroat) is a player.  Once the game is over (`finished`) no side will meld
 *  again: its minimum count is not shown. */
export function scorePanel(obs, names, finished = false) {
  const tbl = h("table.scores", h("caption", "Scores"));
  const onePerSide = sides(obs).every((seats) => seats.length === 1);
  const head = h("tr", h("th", onePerSide ? "Player" : "Side"), h("th", "Score"));
  const hasMin = Array.isArray(obs.minimums) && !finished;
  if (hasMin) head.append(h("th", { title: "minimum count for a first meld" }, "Minimum"));
  tbl.append(h("thead", head));
  const body = h("tbody");
  sides(obs).forEach((seats, i) => {
    const label = isShanghai(obs) ? (names[i] || `Seat ${i}`) : sideNames(obs, names, i);
    const tr = h("tr", h("td", label), h("td.num", String(obs.scores[i] ?? "")));
    if (hasMin) tr.append(h("td.num", obs.minimums[i] === null ? "\u2014" : String(obs.minimums[i])));
    body.append(tr);
  });
  tbl.append(body);
  // what going out needs (CC-10.1, RR-11.1): a tester learned it only from a refusal
  if (obs.going_out && !finished) {
    tbl.append(h("tfoot", h("tr", h("td.going-out", { colspan: hasMin ? 3 : 2 },
      `To go out: ${obs.going_out.needs} (`, ruleLink(obs.going_out.rule), ")"))));
  }
  return tbl;
}

/** Sides that hold more than one seat (partnerships): side number -> its colour index (0, 1,
 *  …), so that a side's seat plates and its melds carry the same colour.  Empty when every side
 *  is one seat (Shanghai, Railroad Canasta, cutthroat). */
export function partnershipColours(obs) {
  const out = new Map();
  if (isShanghai(obs) || !obs.side_of) return out;
  sides(obs).forEach((seats, side) => { if (seats.length > 1) out.set(side, out.size); });
  return out;
}

/** A row of small card backs for a hand of `size` cards (at most 10 drawn; the number says
 *  it all to a screen reader). */
function handBacks(size) {
  const row = h("span.hand-backs", { "aria-hidden": "true" });
  for (let i = 0; i < Math.min(size, 10); i++) row.append(h("span.mini-back"));
  return row;
}

/** One seat's plate at the table: name, who plays it (bot, online, away), the turn, the dealer,
 *  the cards held (as small backs and a number), and what the game shows of it (red threes,
 *  kitty, Railroad canasta types, Shanghai buys and contract, the cards known in its hand). */
export function seatPlate(obs, seat, info, names, mySeat, toAct) {
  const size = obs.hand_sizes[seat];
  const acting = toAct.includes(seat);
  const colours = partnershipColours(obs);
  const side = obs.side_of ? obs.side_of[seat] : seat;
  const colour = colours.has(side) ? colours.get(side) : null;
  const card = h("div.player" + (acting ? ".to-act" : "") + (seat === mySeat ? ".me" : "")
    + (colour !== null ? `.side-colour-${colour}` : ""), { "data-seat": seat });
  const title = h("div.player-name", h("span.seat-name", seatName(names, seat, mySeat)));
  if (info && (info.kind === "bot" || seat !== mySeat)) {
    // who plays the seat (the viewer's own seat is online: it says nothing)
    title.append(" ", h("span.badge" + (info.connected ? ".on" : ".off"),
      info.kind !== "bot" ? (info.connected ? "online" : "away")
        : info.takeover ? (obs.phase === "game_over"
          // the game is over: the stand-in plays no more, it finished the game
          ? `Bot (${botLevel(info.bot)}) finished for ${seat === mySeat ? "you" : "them"}`
          : `Bot (${botLevel(info.bot)}) playing for ${seat === mySeat ? "you" : "them"}`)
        : `bot: ${info.bot}`));
  }
  if (info && info.thinking) title.append(" ", h("span.badge.thinking", "thinking\u2026"));
  if (obs.dealer === seat) title.append(" ", h("span.badge.dealer", { title: "the dealer of this hand" }, "dealer"));
  if (acting) title.append(" ", h("span.badge.to-play", "to play"));
  card.append(title);
  const facts = h("div.player-facts", h("span.held", handBacks(size), `${size} card${size === 1 ? "" : "s"}`));
  if (obs.red_threes && obs.red_threes[seat] && obs.red_threes[seat].length) {
    facts.append(h("span.red-threes", h("span", "red threes:"), cardRow(obs.red_threes[seat], { small: true, fan: true })));
  }
  if (obs.kitty_sizes) {
    facts.append(h("span.kitty", obs.kitty_taken && obs.kitty_taken[seat] ? "kitty taken"
                                 : `kitty ${obs.kitty_sizes[seat]}`));
  }
  if (obs.canasta_types && obs.canasta_types[seat]) {
    facts.append(canastaTypesRow(obs.canasta_types[seat]));
  }
  if (obs.buys) {
    facts.append(h("span", `buys ${obs.buys[seat]}${obs.buy_limit !== null && obs.buy_limit !== undefined ? "/" + obs.buy_limit : ""}`));
  }
  if (obs.made_contract) {
    facts.append(h("span" + (obs.made_contract[seat] ? ".made" : ""), obs.made_contract[seat] ? "contract made" : "no contract yet"));
  }
  card.append(facts);
  const known = obs.known_in_hand && obs.known_in_hand[seat];
  if (known && known.length && seat !== mySeat) {
    card.append(h("div.known", h("span.dim", "known in hand:"), cardRow(known, { small: true, fan: true })));
  }
  return card;
}

/** The four Railroad canasta types (RR-6.9), what each is made of and its bonus (RR-13.2). */
export const CANASTA_TYPES = [
  ["red", "red: seven natural cards of one rank other than 7, no wild card (500, RR-6.9)"],
  ["black", "black: seven cards of one rank other than 7 with one to three wild cards (300, RR-6.9)"],
  ["wild", "wild: seven wild cards, jokers and twos (1,000, RR-6.4, RR-6.9)"],
  ["sevens", "sevens: seven natural sevens (1,500, RR-6.3, RR-6.9)"],
];
const TYPE_TEXT = Object.fromEntries(CANASTA_TYPES);

/** A seat's Railroad canasta types: each of the four, completed (✓, ×n for several) or not
 *  yet (·), its meaning in its title. */
function canastaTypesRow(done) {
  const count = (k) => done.filter((t) => t === k).length;
  const row = h("span.canasta-types", { "aria-label": "canasta types (RR-6.9): "
    + CANASTA_TYPES.map(([k]) => `${k} ${count(k) ? "completed" : "not yet"}`).join(", ") });
  row.append("canastas: ");
  CANASTA_TYPES.forEach(([k, text], i) => {
    const n = count(k);
    if (i) row.append(" ");
    row.append(h("span.ctype" + (n ? `.done.canasta-${k}` : ".missing"),
      { title: text + (n ? " — completed" : " — not yet") },
      (n ? "✓" : "·") + k + (n > 1 ? `×${n}` : "")));
  });
  return row;
}

/** What going out needs, by the house rule go_out_requirement (RR-11.1). */
const GOING_OUT_NEEDS = { all_four: "one canasta of each type", red_and_black: "a red and a black canasta",
  any_two: "any two canastas", any_one: "any one canasta" };

/** The legend of the Railroad canasta types (RR-6.9; what going out needs by the table's
 *  house rule, RR-11.1). */
export function canastaLegend(options = null) {
  const needs = GOING_OUT_NEEDS[(options && options.go_out_requirement) || "all_four"] || GOING_OUT_NEEDS.all_four;
  const list = h("dl.canasta-legend-list");
  for (const [k, text] of CANASTA_TYPES) {
    list.append(h("dt", k), h("dd", text.slice(k.length + 2)));
  }
  return h("details.canasta-legend", { id: "canasta-legend" },
    h("summary", "Canasta types (red, black, wild, sevens): what they mean"),
    list,
    h("p.dim", `✓ completed, · not yet. To go out a player needs ${needs} (`,
      ruleLink("RR-11.1"), ")."));
}

/** The sevens lock as it stands (RR-9.6, by the house rule sevens_lock), as the terminal
 *  shows it: who still lacks a sevens canasta; null when the table plays without it (a tester
 *  learned of the lock only from a refusal). */
export function sevensLock(obs, options, names, mySeat) {
  const mode = (options && options.sevens_lock) || "every_player";
  if (mode === "never" || !obs.canasta_types) return null;
  const lacking = obs.canasta_types.map((t, s) => (t.includes("sevens") ? null : s)).filter((s) => s !== null);
  const who = lacking.map((s) => seatName(names, s, mySeat)).join(", ");
  let text;
  if (mode === "discarding_player") {
    text = lacking.length ? `a player may discard sevens once they have a sevens canasta; still locked for ${who}`
      : "lifted for every player";
  } else if (lacking.length) {
    text = "in force: no seven may be discarded until every player has a sevens canasta ("
      + (lacking.length === obs.canasta_types.length ? "nobody has one yet" : `still missing: ${who}`) + ")";
  } else {
    text = "lifted: every player has a sevens canasta";
  }
  return h("p.sevens-lock" + (lacking.length ? ".locked" : ""), { id: "sevens-lock" },
    h("strong", "Sevens lock ("), ruleLink("RR-9.6"), h("strong", "): "), text);
}

/** The middle of the table: the stock (a face-down stack and its size), the discard pile (its
 *  last cards fanned, the top one whole; frozen, blocked), and in Shanghai the contract of the
 *  deal, the stock's rebuilds and the upcard taken. */
export function centerPanel(obs, options = null, mySeat = null) {
  const box = h("div.center");
  const stock = h("div.stock", { "aria-label": `stock: ${obs.stock_size} cards`, role: "img" },
                  h("div.stock-stack" + (obs.stock_size > 1 ? ".deep" : ""), obs.stock_size > 0 ? cardSVG(null) : h("div.empty-slot")),
                  h("div.count", `stock ${obs.stock_size}`));
  box.append(stock);
  const pile = obs.pile || [];
  const top = pile.length ? pile[pile.length - 1] : null;
  const pileBox = h("div.pile" + (obs.pile_frozen ? ".frozen" : ""), { "aria-label": `discard pile: ${pile.length} cards`
    + (top ? `, ${cardLabel(top)} on top` : "") + (obs.pile_frozen ? ", frozen" : "") });
  const stack = h("div.pile-stack");
  const shown = pile.slice(-5);
  shown.forEach((t, i) => stack.append(h("span.card-wrap" + (i === shown.length - 1 ? ".top" : ""), { title: cardLabel(t) }, cardSVG(t))));
  if (!pile.length) stack.append(h("div.empty-slot"));
  pileBox.append(stack);
  const badges = h("div.count", `pile ${pile.length}`);
  if (obs.pile_frozen) badges.append(" ", h("span.badge.frozen", "frozen"));
  else {
    const own = sideFreeze(obs, options, mySeat);
    if (own) badges.append(" ", h("span.badge.frozen.side-frozen", { title: own.title }, own.text));
  }
  const tc = parseCard(top);
  if (!isShanghai(obs) && tc && tc.rank === "3" && (tc.suit === "S" || tc.suit === "C")) {
    badges.append(" ", h("span.badge.blocked", { title: "a black three on top: the next player cannot take the pile" }, "blocked"));
  }
  pileBox.append(badges);
  box.append(pileBox);
  if (isShanghai(obs)) {
    box.append(h("div.facts",
      obs.contract ? h("div.contract", h("strong", `Contract ${obs.contract.number}: `), obs.contract.text) : null,
      h("div", { title: "how often this deal's stock ran out and was rebuilt from the discard pile (all but its top card)" },
        `stock rebuilt: ${obs.rebuilds === 1 ? "once" : `${obs.rebuilds} times`} (`, ruleLink("SH-12.1"), ")"),
      obs.taken_upcard ? h("div", `upcard taken: ${cardLabel(obs.taken_upcard)}`) : null));
  }
  return box;
}

/** The pile frozen against a side that has not melded (CC-8.4, the Classic option
 *  `frozen_until_side_melds`; the observation's `pile_frozen` says only the freeze every side
 *  has): {text, title} for the page's own side (or, watching, the sides without a meld), as
 *  the terminal says it; null when it does not apply.  `options`: the table's options JSON. */
export function sideFreeze(obs, options, mySeat) {
  if (obs.game !== "classic-canasta" || !options || !options.frozen_until_side_melds) return null;
  if (obs.pile_frozen || !(obs.pile || []).length || !obs.side_of || !obs.melds) return null;
  const title = "CC-8.4, CC-8.5: until its side has melded, a player may take the pile only with "
    + "two natural cards of the top card's rank, melded with it at once";
  if (mySeat !== null && mySeat !== undefined && mySeat >= 0 && mySeat < obs.side_of.length) {
    const side = obs.side_of[mySeat];
    return (obs.melds[side] || []).length ? null
      : { text: "frozen for your side until it melds", title };
  }
  const unmelded = sides(obs).map((_, s) => s).filter((s) => !(obs.melds[s] || []).length);
  return unmelded.length ? { text: "frozen for a side until it melds", title } : null;
}

/** A canasta meld's label, as the terminal writes it: the rank times its NATURAL cards, then
 *  the wild cards ("7 ×2 + 2 2" for 7 7 2 2, "K ×7" for seven natural kings, "wild: 2 2 Jk").
 *  (It used to be the rank times ALL the cards: "7 ×4" for 7 7 2 2.)  The title lists them all. */
export function meldLabel(m) {
  const tokens = String(m.spec || "").split(/\s+/).filter(Boolean)
    .map((t) => (t === "JK" ? "Jk" : t));
  if (!tokens.length) return `${m.rank} (${m.size} cards)`;
  if (m.rank === "wild") return `wild: ${tokens.join(" ")}`;
  const naturals = tokens.filter((t) => t === m.rank).length;
  const wild = tokens.filter((t) => t !== m.rank);
  return `${m.rank} \u00d7${naturals}` + (wild.length ? ` + ${wild.join(" ")}` : "");
}

/** A canasta's top card, as players square it up: a natural canasta shows a red card, a mixed
 *  one a black card (the wild canasta a wild card, the sevens a seven). */
function canastaTopCard(m) {
  const cards = (m.cards || []).map((t) => [t, parseCard(t)]).filter(([, c]) => c);
  const natural = cards.filter(([, c]) => !c.joker && c.rank !== "2");
  const red = natural.find(([, c]) => c.suit === "H" || c.suit === "D");
  const black = natural.find(([, c]) => c.suit === "S" || c.suit === "C");
  const pick = m.canasta === "natural" || m.canasta === "red" ? red || black
    : m.canasta === "mixed" || m.canasta === "black" ? black || red : natural[0];
  return (pick || cards[0] || [null])[0];
}

/** What kind of canasta a meld is, in words: "natural canasta" (CC-6.6), "red canasta" (RR-6.9). */
function canastaName(m) {
  return `${m.canasta} canasta`;
}

/** One meld on the table: its label and its cards fanned; a canasta (seven cards or more) is
 *  squared up into a stack — its top card, its size and its kind (natural or mixed; red, black,
 *  wild or sevens in Railroad Canasta) — every card named in its title and accessible name. */
export function meldView(obs, m) {
  if (isShanghai(obs)) {
    const tokens = String(m.cards || "").split(" ");
    return h("div.meld", { title: prettyNotation(m.cards), "data-meld": m.number },
      // each joker's card, said beside the meld's name (the fanned cards hide a label on it)
      h("div.meld-label", `#${m.number} ${m.kind}`, ...tokens
        .filter((t) => /^JK=/.test(t)).map((t) => h("span.stands-for", ` Jk as ${cardLabel(t.slice(3))}`))),
      cardRow(m.physical, { small: true, fan: true, stands: tokens }));
  }
  const label = h("div.meld-label", { title: `${m.size} cards: ${prettyNotation(m.spec)}` }, meldLabel(m));
  if (m.closed) label.append(" ", h("span.badge", "closed"));
  if (!m.canasta) {
    return h("div.meld", { title: prettyNotation(m.spec) }, label, cardRow(m.cards, { small: true, fan: true }));
  }
  const what = canastaName(m);
  const kind = h("span.canasta-kind.badge.canasta-" + m.canasta,
    { title: TYPE_TEXT[m.canasta] || what }, m.canasta);
  const pile = h("div.canasta-stack", { role: "img", "aria-label": `${what} of ${m.size} cards: ${prettyNotation(m.cards.join(" "))}` },
    h("span.card-wrap", cardSVG(canastaTopCard(m), { small: true })),
    h("span.canasta-size", { "aria-hidden": "true" }, `\u00d7${m.size}`), kind);
  return h("div.meld.canasta." + m.canasta, { title: `${what}: ${prettyNotation(m.cards.join(" "))}` }, label, pile);
}

/** The table's melds, by owner: one zone per side (canasta games) or per seat that has melded
 *  (Shanghai), each with its owner's name, the side's minimum count (canasta: before its first
 *  meld) and its melds.  Keys: the side (canasta) or seat (Shanghai) of each zone. */
export function meldZones(obs, names, mySeat) {
  const colours = partnershipColours(obs);
  const zones = [];
  if (isShanghai(obs)) {
    obs.hand_sizes.forEach((_, seat) => {
      const melds = (obs.melds || []).filter((m) => m.owner === seat);
      const head = h("h3", h("span", seatName(names, seat, mySeat)));
      const staged = seat === mySeat ? (obs.staged || []).length : 0;
      if (staged) {
        // the contract's progress while this seat stages it (SH-8.1)
        const need = contractMelds(obs.contract);
        head.append(" ", h("span.badge.meld-count" + (need && staged >= need ? ".enough" : ""),
          `staged: ${staged} of ${need || "?"} melds of the contract`));
      }
      const zone = h("div.meld-zone.side" + (melds.length ? "" : ".empty"),
        { "data-seat": seat, "aria-label": `melds of ${seatName(names, seat, mySeat)}` }, head);
      const list = h("div.meld-list");
      if (!melds.length) list.append(h("p.dim.no-melds", "no melds"));
      for (const m of melds) list.append(meldView(obs, m));
      zone.append(list);
      zones.push({ key: seat, seats: [seat], zone });
    });
    return zones;
  }
  sides(obs).forEach((seats, side) => {
    const melds = obs.melds[side] || [];
    const team = seats.length > 1;
    const title = team ? sideNames(obs, names, side) : seatName(names, seats[0], mySeat);
    const mine = seats.includes(mySeat);
    const head = h("h3", h("span", title + (team && mine ? " \u2014 your side" : "")));
    const min = Array.isArray(obs.minimums) ? obs.minimums[side] : null;
    const staging = mine && (obs.staged || []).length > 0;
    if (!melds.length && staging && min !== null && min !== undefined) {
      // the running count of the melds this seat has staged, against the minimum (CC-7.1)
      const count = obs.staged_count || 0;
      head.append(" ", h("span.badge.meld-count" + (count >= min ? ".enough" : ""),
        { title: "the count of your staged melds against your side's minimum for its first meld" },
        `staged: count ${count} of ${min}`));
    } else if (!melds.length && min !== null && min !== undefined) {
      head.append(" ", h("span.badge.minimum", { title: "the minimum count of this side's first meld (its cards' points)" },
        `first meld ${min}+`));
    }
    const colour = colours.has(side) ? colours.get(side) : null;
    const zone = h("div.meld-zone.side" + (colour !== null ? `.side-colour-${colour}` : "") + (melds.length ? "" : ".empty"),
      { "data-side": side, "aria-label": `melds of ${title}` }, head);
    const list = h("div.meld-list");
    if (!melds.length) list.append(h("p.dim.no-melds", "no melds"));
    for (const m of melds) list.append(meldView(obs, m));
    zone.append(list);
    zones.push({ key: side, seats, zone });
  });
  return zones;
}

/** Melds per side (canasta games) or per seat (Shanghai), the zones one after the other (the
 *  end-of-hand panel; the table places each zone in front of its seat). */
export function meldsPanel(obs, names, mySeat) {
  const box = h("div.melds");
  const zones = meldZones(obs, names, mySeat);
  const shown = isShanghai(obs) ? zones.filter((z) => (obs.melds || []).some((m) => m.owner === z.key)) : zones;
  if (!shown.length) box.append(h("p.dim", "No melds yet."));
  for (const z of shown) box.append(z.zone);
  return box;
}

/** Text with its card tokens in suit symbols, red suits marked (span.suit-red):
 *  "discard QH" -> "discard Q♥" (the engine's notation stays in the record). */
export function notationNodes(text) {
  return notationPieces(text).map(([t, red]) => (red ? h("span.suit-red", t) : t));
}

/** A log entry's note after its action, whole ("take 8 2 — takes the pile (3 cards)", as a
 *  bare "take" reads "takes the pile (4 cards)" in logPanel: the same verb either way). */
export function logNote(action, note, game = null) {
  // Shanghai Rummy's bare "pass" is only ever an answer to a buy offer (SH-10.3): say so, as
  // the terminal does
  if (!note && game === "shanghai-rummy" && String(action || "").trim() === "pass") return "did not buy";
  // Railroad's "kitty — places 3♦" did not say the kitty was taken
  if (note && String(action || "").trim() === "kitty" && !String(note).startsWith("takes the kitty")) {
    return `takes the kitty; ${note}`;
  }
  return namedTotals(String(note || ""));
}

/** A Shanghai deal's end names whose total is whose (SH-13): "totals 30, 0, 5" read as bare
 *  numbers; "totals: seat 0 30, seat 1 0, seat 2 5", which the log then writes with names. */
export function namedTotals(note) {
  return note.replace(/; totals (-?\d+(?:, -?\d+)*)(?=;|$)/,
    (m, list) => "; totals: " + list.split(", ").map((v, i) => `seat ${i} ${v}`).join(", "));
}

// A log note's third-person verb in the past tense, as the terminal writes it: the log says
// what was done ("Robo: draw — places 3♥" beside "Tess (you): draw" read as a mix of tenses)
const PAST = { draws: "drew", takes: "took", places: "placed", buys: "bought", declines: "declined",
  passes: "passed", melds: "melded", discards: "discarded", goes: "went", lays: "laid",
  swaps: "swapped", asks: "asked", answers: "answered", gets: "got", receives: "received",
  does: "did", leaves: "left", makes: "made" };
const PAST_VERBS = Object.keys(PAST).join("|");
const SEAT_VERB = new RegExp(`\\b([Ss]eat \\d+) (${PAST_VERBS})\\b`, "g");
const AFTER_SEMI = new RegExp(`; (${PAST_VERBS})\\b`, "g");

/** "takes the pile (3 cards); places 3♦" -> "took the pile (3 cards); placed 3♦"; "deal 1
 *  ends: seat 2 goes out" -> "deal 1 ended: seat 2 went out". */
export function pastTense(note) {
  let out = String(note || "").replace(/^((?:deal|hand) \d+) ends\b/, "$1 ended")
    .replace(SEAT_VERB, (m, seat, verb) => `${seat} ${PAST[verb]}`)
    .replace(AFTER_SEMI, (m, verb) => `; ${PAST[verb]}`);
  const sp = out.indexOf(" ");
  const head = sp < 0 ? out : out.slice(0, sp);
  if (Object.prototype.hasOwnProperty.call(PAST, head)) out = PAST[head] + (sp < 0 ? "" : out.slice(sp));
  return out;
}

/** The public log, newest last. */
// Railroad Canasta's bare "pass": declining the kitty, or — with the stock out — the pile,
// which ends the hand (RR-12.2; the terminal says the same, from the phase it was played in).
// The entry after it tells which: the next hand's deal (or nothing, once the hand is over).
function railroadPass(next, phase) {
  const ended = next ? next.seat < 0 || /^deal\b/.test(String(next.action || ""))
    : ["hand_end", "game_over"].includes(phase);
  return ended ? "did not take the pile: the hand ended (RR-12.2)" : "left the kitty untaken";
}

/** Per log entry, the upcard a bare ``take`` took (the card of the discard before it, or the
 *  deal's upcard), else null: its note ("takes the pile (2 cards)") does not say which meld
 *  the upcard went on (CC-8.5, RR-8.4). The twin of render.take_upcards. */
export function takeUpcards(log) {
  const out = [];
  let top = null;
  for (const e of log || []) {
    const action = String(e.action || "").trim();
    const note = String(e.note || "").trim();
    const pile = /^(takes|took) the pile/i.test(note);
    out.push(action === "take" && pile ? top : null);
    if (action.startsWith("discard ") && ONLY_CARDS.test(note)) top = note.split(" ").pop();
    else if (!action && note.startsWith("upcard ")) top = note.split(" (")[0].split(" ").pop();
    else if (action.startsWith("take") || action === "deal") top = null;
  }
  return out;
}

export function logPanel(log, names, mySeat, last = 60, total = null, game = null, phase = null) {
  const ups = takeUpcards(log).slice(-last);
  const entries = (log || []).slice(-last);
  const first = (total === null || total === undefined ? (log || []).length : total) - entries.length + 1;
  const start = Math.max(1, first);
  const list = h("ol.log", { "aria-live": "polite", start });
  // the numbers are text, not list markers: a marker sits in the list's padding, which cut the
  // leading digits off past 99 ("86." for 586)
  entries.forEach((e, i) => {
    const who = seatName(names, e.seat, mySeat);
    const text = h("span.entry", h("span.who", who + ": "));
    const note = !e.note && game === "railroad-canasta" && String(e.action || "").trim() === "pass"
      ? railroadPass((log || [])[(log || []).length - entries.length + i + 1], phase)
      : logNote(e.action, e.note, game);
    const [main, rest] = logSentence(e.action, note, ups[i]);
    if (main) text.append(h(rest === null && !e.action ? "span.note" : "span.act", notationNodes(seatsNamed(main, names, mySeat))));
    if (rest) text.append("; ", h("span.note", notationNodes(seatsNamed(rest, names, mySeat))));
    list.append(h("li" + (e.seat === mySeat ? ".mine" : ""), h("span.n", `${start + i}.`), text));
  });
  return list;
}

// Whole actions, and actions' verbs, in the log's past tense (the terminal's action_past):
// a log line is one sentence ("discarded Q♥", "took the pile (5 cards) with 8 8"), not a
// command beside a past tense ("discard Q — Q♥"), which players read as a mix
const WHOLE_PAST = { draw: "drew", withdraw: "withdrew the last staged meld",
  "withdraw all": "withdrew the staged melds", "meld done": "laid down the staged melds",
  "contract done": "laid down the contract", kitty: "took the kitty", pass: "passed",
  buy: "bought the upcard", take: "took the upcard", deal: "dealt",
  ask: "asked \u201cmay I go out?\u201d", yes: "answered yes", no: "answered no" };
const VERB_PAST = { discard: "discarded", meld: "melded", add: "added", stage: "staged",
  take: "took the pile with", contract: "laid down the contract", layoff: "laid off",
  swap: "swapped", ask: "asked", buy: "bought" };
// the meld an add names, in a player's words (other ranks: "9" -> "9s")
const MELD_WORDS = { A: "aces", J: "jacks", Q: "queens", K: "kings", wild: "wild meld" };
const CARD = "(?:(?:10|[2-9AJQK])[SHDC]|JK)";
const ONLY_CARDS = new RegExp(`^${CARD}(?: ${CARD})*$`);

/** "discard Q" -> "discarded Q", "draw" -> "drew", "meld done" -> "laid down the staged
 *  melds"; an action not known is returned as it is. */
export function actionPast(action) {
  const a = String(action || "").trim();
  if (Object.prototype.hasOwnProperty.call(WHOLE_PAST, a)) return WHOLE_PAST[a];
  // Shanghai's table melds are numbered: "laid off 3♠ on meld #3", not "-> 3" (the 3s?)
  const m = /^(layoff|swap) (\S+) -> (\d+)( low| high)?$/.exec(a);
  if (m) {
    return m[1] === "layoff" ? `laid off ${m[2]} on meld #${m[3]}${m[4] || ""}`
      : `swapped ${m[2]} for the joker of meld #${m[3]}`;
  }
  // a canasta add: "added 2 Jk to the jacks", not the notation's arrow (CC-6.6, RR-6.8)
  const add = /^add (.+) -> (\S+)$/.exec(a);
  if (add) return `added ${add[1]} to the ${MELD_WORDS[add[2]] || add[2] + "s"}`;
  const sp = a.indexOf(" ");
  const verb = sp < 0 ? a : a.slice(0, sp);
  // "ask 0": the partner by seat, which the log then names ("asked 0" read raw)
  if (verb === "ask" && /^\d+$/.test(a.slice(sp + 1))) return `asked seat ${a.slice(sp + 1)} \u201cmay I go out?\u201d`;
  const past = Object.prototype.hasOwnProperty.call(VERB_PAST, verb) ? VERB_PAST[verb] : null;
  return past && sp >= 0 ? `${past} ${a.slice(sp + 1)}` : a;
}

/** A log entry as one past-tense sentence: ``[main, rest]``, the action's part (notation,
 *  shown as the action) and what the note adds (``null``: nothing), as the terminal's
 *  log_line: ``("discard Q", "QH")`` -> ``["discarded QH", null]``; ``("take 8 2", "takes
 *  the pile (3 cards)")`` -> ``["took the pile (3 cards) with 8 2", null]``; ``("draw",
 *  "places 3D")`` -> ``["drew", "placed 3D"]``; a bare verb its note says again (``take`` /
 *  ``takes the pile``, Shanghai's ``draw`` / ``declines 10S``, ``pass`` / ``did not buy``)
 *  -> ``[note, null]``. */
export function logSentence(action, note, upcard = null) {
  let verb = String(action || "").trim();
  let n = String(note || "");
  if (verb === "kitty" && n && !/^(takes|took) the kitty/.test(n)) {
    n = `took the kitty; ${n}`;  // "kitty" alone did not say it was taken
    verb = "";
  }
  const low = n.toLowerCase();
  if (!verb) {
    // the deal's "upcard 2S JK 3H 5S (pile frozen)": the covered cards were turned up first
    // (CC-4.7, RR-4.8), only the last is the upcard
    const m = /^upcard ((?:[^\s()]+ )+?)([^\s()]+)( \(pile frozen\))?$/.exec(n);
    if (m) return [`turned up ${m[1]}${m[2]} to start the pile; the upcard is ${m[2]}${m[3] || ""}`, null];
    // one card: a sentence too, not "upcard 5S"
    const one = /^upcard ([^\s()]+)( \(pile frozen\))?$/.exec(n);
    if (one) return [`turned up ${one[1]} to start the pile${one[2] || ""}`, null];
    return [pastTense(n), null];
  }
  const whole = Object.prototype.hasOwnProperty.call(WHOLE_PAST, verb) ? WHOLE_PAST[verb] : null;
  if (!/\s/.test(verb) && n && (low.startsWith(verb.toLowerCase() + "s ") || low.startsWith(verb.toLowerCase() + " ")
      || (whole && low.startsWith(whole))
      || (verb === "draw" && /^declin(es|ed) /.test(low))
      || (verb === "kitty" && /^(takes|took) the kitty/.test(low))
      || (verb === "pass" && /^(did not|does not|left|leaves) /.test(low)))) {
    // a bare take: which meld the upcard went on (a tester read "took the pile (2 cards)"
    // fifteen times without knowing where the card went)
    if (verb === "take" && upcard && /^(takes|took) the pile/.test(low)) {
      const rank = upcard.slice(0, -1) || upcard;
      return [`${pastTense(n)}, putting the upcard ${upcard} on the ${MELD_WORDS[rank] || rank + "s"}`, null];
    }
    return [pastTense(n), null];
  }
  const sp = verb.indexOf(" ");
  const head = sp < 0 ? verb : verb.slice(0, sp);
  const rest = sp < 0 ? "" : verb.slice(sp + 1);
  if (n && rest && ONLY_CARDS.test(n.trim())) return [`${VERB_PAST[head] || head} ${n.trim()}`, null];
  if (n && head === "take" && rest && /^(takes|took) the pile/.test(low)) {
    const parts = pastTense(n).split("; ");
    // "take J J, 10 10 10": the take's cards, then the other melds made with it
    const comma = rest.indexOf(", ");
    const said = comma < 0 ? `${parts[0]} with ${rest}`
      : `${parts[0]} with ${rest.slice(0, comma)}, melding ${rest.slice(comma + 2)} with it`;
    return [said, parts.length > 1 ? parts.slice(1).join("; ") : null];
  }
  if (n && head === "contract" && /^(makes|made) the contract/.test(low)) {
    const paren = n.indexOf(" (");
    return [`made the contract ${rest}${paren >= 0 ? n.slice(paren) : ""}`, null];
  }
  let main = actionPast(verb);
  if (head === "out" && rest) {
    const at = rest.indexOf("; discard ");
    main = at < 0 ? `went out with ${rest}`
      : `went out with ${rest.slice(0, at)}, discarding ${rest.slice(at + "; discard ".length)}`;
  }
  return [main, n ? pastTense(n) : null];
}

/** The score sheet: one row per hand, click a row for its breakdown (rule IDs). */
export function scoreSheet(outcomes, obs, names, mySeat = null) {
  const box = h("div.sheet");
  if (!outcomes || !outcomes.length) {
    box.append(h("p.dim", "No hand has been scored yet."));
    return box;
  }
  const sideList = sides(obs);
  const label = sideLabeller(obs, names);
  const tbl = h("table.sheet-table");
  tbl.append(h("thead", h("tr", h("th", isShanghai(obs) ? "Deal" : "Hand"), ...sideList.map((_, i) => h("th", label(i))))));
  const body = h("tbody");
  for (const oc of outcomes) {
    const tr = h("tr", h("td", String(oc.hand + 1) + (oc.game_over ? " (end)" : "")));
    for (const r of oc.results) tr.append(h("td.num", `${r.hand_score >= 0 ? "+" : ""}${r.hand_score} = ${r.total}`));
    body.append(tr);
  }
  tbl.append(body);
  box.append(tbl);
  const lastOc = outcomes[outcomes.length - 1];
  box.append(breakdown(lastOc, obs, names, mySeat));
  if (outcomes.length > 1) {
    const older = h("details", h("summary", "Earlier hands' breakdowns"));
    outcomes.slice(0, -1).reverse().forEach((oc) => older.append(breakdown(oc, obs, names, mySeat)));
    box.append(older);
  }
  return box;
}

/** Side number -> its label ("Ann & Cleo"; a Shanghai seat's name). */
export function sideLabeller(obs, names) {
  return (i) => (isShanghai(obs) ? (names[i] || `Seat ${i}`) : sideNames(obs, names, i));
}

/** "Hand 3: Ann (you) went out", "Hand 4: stock exhausted" (names as elsewhere on the page). */
export function handTitle(oc, obs, names, mySeat = null) {
  const what = isShanghai(obs) ? "Deal" : "Hand";
  const how = oc.how.replaceAll("_", " ");
  const who = oc.went_out !== null && oc.went_out !== undefined ? seatName(names, oc.went_out, mySeat) : null;
  if (who && oc.how === "went_out") return `${what} ${oc.hand + 1}: ${who} went out`;
  return `${what} ${oc.hand + 1}: ${how}` + (who ? ` \u2014 ${who}` : "");
}

/** Display text: what each scoring rule scores, in a few words, from the rule's sentence in
 *  the rules (CC-12, RR-13, SH-11.3 and SH-13): a summed row says "cards in melds, 7 lines"
 *  (it said only "7 lines" after the rule ID). */
export const SCORE_RULE_TITLES = {
  "CC-12.1": "cards in melds",
  "CC-12.2": "canasta bonuses",
  "CC-12.3": "hidden canasta bonus",
  "CC-12.4": "red threes",
  "CC-12.5": "going out",
  "CC-12.6": "cards left in hand",
  "RR-13.1": "cards in melds",
  "RR-13.2": "canasta bonuses",
  "RR-13.3": "red threes",
  "RR-13.4": "going out",
  "RR-13.5": "cards left in hand and kitty",
  "SH-11.3": "going out blind",
  "SH-13.1": "cards left in hand",
  "SH-13.2": "cards left in hand",
};

/** More lines than this per side are summed up by rule, the lines themselves folded away
 *  (a Railroad side may score dozens of canastas). */
const MAX_LINES_SHOWN = 8;

/** A score line's label as the table shows things (the terminal's ``score_label``): a canasta
 *  by its size in cards ("mixed canasta 4×8: …" read beside the table's "4×5", which counts
 *  naturals), the cards left in a hand in the hand's order (the engine lists them by card
 *  number). */
const RANK_PLURALS = { A: "aces", K: "kings", Q: "queens", J: "jacks", wild: "wild cards" };

export function scoreLabel(label) {
  const text = String(label);
  const can = text.match(/^(.*\bcanasta) \S+×(\d+): (.*)$/);
  if (can) return `${can[1]} of ${can[2]} cards: ${can[3]}`;
  // "natural canasta bonus (9)": the rank alone read as a count; "(9s)", "(kings)"
  const bonus = text.match(/^(.*\bcanasta bonus) \((\w+)\)$/);
  if (bonus) return `${bonus[1]} (${RANK_PLURALS[bonus[2]] || bonus[2] + "s"})`;
  const held = text.match(/^(seat \d+ [a-z ]+?) ((?:\S+ )*\S+)$/);
  if (held) {
    const tokens = held[2].split(" ");
    if (tokens.every((t) => parseCard(t))) return `${held[1]} ${sortCards(tokens, "rank").join(" ")}`;
  }
  return text;
}

export function breakdown(oc, obs, names, mySeat = null) {
  const label = sideLabeller(obs, names);
  const box = h("div.breakdown", h("h4", handTitle(oc, obs, names, mySeat)));
  for (const r of oc.results) {
    const caption = `${label(r.side)}: ${r.hand_score} (total ${r.total})`;
    const lineRows = r.lines.map((ln) => h("tr", h("td.rule", ruleLink(ln.rule)), h("td", notationNodes(seatsNamed(scoreLabel(ln.label), names, mySeat))), h("td.num", String(ln.points))));
    if (r.lines.length <= MAX_LINES_SHOWN) {
      box.append(h("div.side-lines", h("table.lines", h("caption", caption), h("tbody", lineRows))));
      continue;
    }
    // summed by rule, in the order the rules first appear; every line behind a <details>
    const byRule = new Map();
    for (const ln of r.lines) {
      const g = byRule.get(ln.rule) || { count: 0, points: 0, label: ln.label };
      g.count += 1;
      g.points += ln.points;
      byRule.set(ln.rule, g);
    }
    const sums = [...byRule].map(([rule, g]) => h("tr", h("td.rule", ruleLink(rule)),
      h("td", g.count === 1 ? notationNodes(seatsNamed(scoreLabel(g.label), names, mySeat))
        : (SCORE_RULE_TITLES[rule] ? `${SCORE_RULE_TITLES[rule]}, ` : "") + `${g.count} lines`),
      h("td.num", String(g.points))));
    box.append(h("div.side-lines", h("table.lines.summed", h("caption", caption), h("tbody", sums)),
      h("details.all-lines", h("summary", `all ${r.lines.length} lines`),
        h("table.lines", h("tbody", lineRows)))));
  }
  if (oc.game_over) {
    box.append(h("p.winner", "Game over \u2014 winner: " + oc.winners.map(label).join(", ")));
  }
  return box;
}

/** The engine's "seat N" in a text for players, as names (seat numbers are the engine's; the
 *  page shows names): "seat 2 hand …" -> "Cleo's hand …" (a score line), "it is seat 0's turn"
 *  -> "it is Ann's turn", "dealer seat 1" -> "dealer Bob", "seat 0 or 2" -> "Ann or Cleo".
 *  The page's own seat (`mySeat`) reads as elsewhere on the page: "Bob (you)", and "your" for
 *  its possessive ("your hand", "your turn") where the page's own seat is "(you)".  A seat
 *  without a name stays as written. */
const YOU_FORMS = { is: "are", has: "have", was: "were", does: "do" };

export function seatsNamed(text, names, mySeat = null) {
  // the page's own seat as the subject of a sentence is "you": "you are being offered the
  // upcard", "you may not act now" (not "Tess (you) is being offered")
  const you = (first) => (first === "S" ? "You" : "you");
  const own = String(text).replace(/\b([Ss])eat (\d+) (is|has|was|does|may|must|can|cannot|took|takes)\b/g,
    (m, s0, n, verb) => (names && Number(n) === mySeat && youLabel === "(you)"
      ? `${you(s0)} ${YOU_FORMS[verb] || verb}` : m));
  return own.replace(/\b([Ss])eat (\d+)((?: or \d+)*)('s\b| hand\b| untaken kitty\b| kitty\b)?/g, (m, s0, first, more, poss, at, whole) => {
    const seats = [Number(first), ...(more.match(/\d+/g) || []).map(Number)];
    if (!names || seats.some((x) => !names[x])) return m;
    let out;
    if (poss && seats.length === 1) {
      const x = seats[0];
      // "your turn", but "not yours (…)": the possessive stands alone unless a word follows
      const beforeWord = poss !== "'s" || /^ [^\W\d]/u.test(whole.slice(at + m.length));
      const whose = x === mySeat && youLabel === "(you)" ? (beforeWord ? "your" : "yours") : `${names[x]}'s`;
      // "seat 0 hand" / "seat 0 untaken kitty" (score lines): "your hand", "Ann's untaken kitty"
      out = poss === "'s" ? whose : `${whose}${poss}`;
    } else {
      out = seats.map((x) => (x === mySeat ? `${names[x]} ${youLabel}` : names[x])).join(" or ")
        + (poss ? (poss === "'s" ? "'s" : `'s${poss}`) : "");
    }
    // a sentence's first word keeps its capital ("Seat 1 hand" -> "Your hand")
    return s0 === "S" ? out.charAt(0).toUpperCase() + out.slice(1) : out;
  });
}

/** "K ×2 + 2" for a staged canasta meld's text ("K K 2"), the upcard counted in; Shanghai:
 *  "set of 7s" / "run in ♠". */
export function stagedLabel(obs, text, withUpcard = null) {
  const tokens = String(text).split(/\s+/).filter(Boolean);
  if (isShanghai(obs)) {
    const decl = tokens.map((t) => (t.includes("=") ? t.split("=")[1] : t)).map(parseCard).filter(Boolean);
    const ranks = new Set(decl.map((c) => c.rank));
    if (ranks.size <= 1) return `set of ${decl.length ? decl[0].rank : "?"}s (${tokens.length})`;
    const suit = decl.length ? decl[0].suit : null;
    return `run${suit ? " in " + cardLabel("2" + suit).slice(1) : ""} (${tokens.length})`;
  }
  const all = withUpcard ? [withUpcard, ...tokens] : tokens;
  const naturals = all.filter((t) => t !== "2" && t !== "JK");
  const rank = naturals.length ? naturals[0] : "wild";
  return meldLabel({ rank, spec: all.join(" ") });
}

/** How many melds a Shanghai contract asks for ("two sets of 3 + one run of 4": 3). */
export function contractMelds(contract) {
  const words = { one: 1, two: 2, three: 3 };
  let n = 0;
  for (const m of String((contract && contract.text) || "").matchAll(/(\w+) (?:sets?|runs?) of/g)) {
    n += words[m[1]] || Number(m[1]) || 0;
  }
  return n;
}

/**
 * The seat's staged melds, apart from the table's melds (CC-6.9, RR-6.11, SH-8.1): each meld
 * with its cards (`melds`: physical cards matched in the hand, `matchStaged`), an undo button
 * per meld (`undo(i)` makes it), the running count against the side's minimum (canasta) or the
 * contract's progress (Shanghai), what commits the melds and the commit buttons (`commit`).
 * Null when nothing is staged and no first melding is under way.
 */
export function stagedPanel(obs, mySeat, melds, { undo, undoAll, commit, notes }) {
  const staged = obs.staged || [];
  if (!staged.length) return null;
  const box = h("section.staged-area", { id: "staged", "aria-label": "Your staged melds (only you see them)" });
  const head = h("div.staged-head", h("h3", "Staged melds"),
    h("span.dim", " only you see them until you commit"));
  box.append(head);
  const upcard = obs.staged_upcard && obs.pile && obs.pile.length ? obs.pile[obs.pile.length - 1] : null;
  const list = h("ol.staged-list");
  staged.forEach((text, i) => {
    const isUp = upcard && i === 0;
    const upKind = isUp ? (parseCard(upcard) || {}).rank : null;
    const row = h("li.staged-meld" + (isUp ? ".with-upcard" : ""), { "data-staged": text });
    const cards = h("div.card-row.fan");
    if (isUp) {
      cards.append(h("span.card-wrap.upcard", { title: `the upcard: ${cardLabel(upcard)} (from the pile)` },
        cardSVG(upcard, { small: true })));
    }
    for (const c of melds[i] || []) cards.append(h("span.card-wrap", { title: cardLabel(c) }, cardSVG(c, { small: true })));
    const label = h("div.meld-label", stagedLabel(obs, text, upKind),
      isUp ? h("span.badge.upcard-badge", "with the upcard") : null);
    row.append(label, cards, h("code.staged-text", notationNodes(text + (isUp ? " + upcard" : ""))));
    const btn = undo(i);
    if (btn) row.append(btn);
    list.append(row);
  });
  box.append(list);
  const status = h("div.staged-status");
  if (isShanghai(obs)) {
    const need = contractMelds(obs.contract);
    // built with h(), which skips the parts that do not apply (a DOM append would print "null")
    status.append(h("span", h("strong.staged-progress", `${staged.length} of ${need || "?"} meld${need === 1 ? "" : "s"} staged`),
      // the discard buttons are gone while melds are staged: say why (a tester saw them vanish)
      need && staged.length < need ? h("span.dim", " \u2014 no discard while melds are staged (",
        ruleLink("SH-8.1"), "): stage the others, or withdraw to discard without the contract")
        : need ? h("span.dim", " \u2014 the contract is complete") : null,
      obs.contract ? h("span.dim", ` \u2014 contract ${obs.contract.number}: ${obs.contract.text}`) : null));
  } else if (Array.isArray(obs.minimums) && obs.side_of && mySeat !== null) {
    const min = obs.minimums[obs.side_of[mySeat]];
    const count = obs.staged_count || 0;
    if (min !== null && min !== undefined) {
      const short = min - count;
      status.append(h("strong.staged-count" + (short <= 0 ? ".enough" : ""), `count ${count} of ${min}`),
        h("span.dim", short > 0
          ? ` \u2014 ${short} more needed: stage more melds, or withdraw them to discard without melding`
          : " \u2014 the minimum is reached"));
    }
  }
  box.append(status);
  for (const n of notes || []) box.append(h("p.staged-note", n));
  const buttons = h("div.staged-buttons", ...(commit || []));
  if (undoAll) buttons.append(undoAll);
  box.append(buttons);
  return box;
}
