// The card table ("felt"): the seats around it as players sit, the viewer at the bottom, the
// partner opposite; each seat's melds in front of it (a partnership's melds in front of the
// side: the viewer's side at the bottom, the other side between its two players), the stock
// and the pile in the middle.  The table page and the replay page draw it from an observation.
//
// The seat plates go in #players, the meld zones in #melds and the stock and pile in #center;
// those three are `display: contents` inside #felt, a grid whose template this module writes
// (a card table on a wide screen; on a narrow one the CSS folds it into a strip of seats, then
// the melds, the stock and pile, and the viewer's melds, in the order set here).

import { canastaLegend, centerPanel, meldZones, seatPlate, sevensLock, sides } from "./board.js";

/**
 * Where the other seats sit, seen from `bottom` (the viewer's seat; seat 0 for a spectator):
 * clockwise from the viewer's left — up the left side, along the top, down the right side.
 * Returns {left: [seat…] (bottom to top), top: [seat…] (left to right), right: [seat…] (top to
 * bottom)}; `players` is 2 to 8.  Two players face each other; four sit one on each side.
 */
export function seatRing(players, bottom) {
  const others = [];
  for (let k = 1; k < players; k++) others.push((bottom + k) % players);
  const n = others.length;
  const perSide = n <= 1 ? 0 : n <= 5 ? 1 : 2;
  return {
    left: others.slice(0, perSide),
    top: others.slice(perSide, n - perSide),
    right: others.slice(n - perSide),
  };
}

/** The grid's area names, one row per string (the CSS `grid-template-areas` value). */
function areasValue(rows) {
  return rows.map((r) => `"${r.join(" ")}"`).join(" ");
}

/**
 * The felt's grid for a table: each seat's plate "p<seat>", each seat's own melds "m<seat>"
 * (a side of one seat), a partnership's melds "s<side>", the stock and pile "center", the
 * bottom seat's (or side's) melds `bottomMelds`.  The bottom row holds the bottom seat's plate
 * at the left and its melds across the rest of the width.
 * Returns {areas, columns, order} (order: the place of each area on a narrow screen).
 */
export function feltGrid(ring, bottom, meldArea, teamAreas, bottomMelds = "mine") {
  const L = ring.left.length;
  const top = ring.top;
  const C = Math.max(top.length, 1);
  // two players: one seat across the table, its plate in the middle column, its melds and
  // the stock and pile across the width
  const wide = L === 0 && top.length === 1;
  // the middle column(s), row by row: the top seats, their melds, the other sides' melds, the
  // stock and the pile
  const middle = [];
  if (top.length) middle.push(top.map((s) => `p${s}`));
  if (top.some((s) => meldArea(s))) middle.push(top.map((s) => meldArea(s) || `p${s}`));
  for (const a of teamAreas) middle.push(Array(C).fill(a));
  middle.push(Array(C).fill("center"));
  // the side columns hold L seats each, a plate above its melds: at least two rows a seat
  while (L && middle.length < 2 * L) middle.push(Array(C).fill("center"));
  const sideColumn = (seats) => {
    // seats from the top of the column down; each takes an equal share of the rows
    const col = [];
    const share = Math.floor(middle.length / seats.length);
    seats.forEach((s, i) => {
      const rows = i === seats.length - 1 ? middle.length - share * i : share;
      const melds = meldArea(s);
      for (let r = 0; r < rows; r++) col.push(melds && r > 0 ? melds : `p${s}`);
    });
    return col;
  };
  const leftCol = L ? sideColumn([...ring.left].reverse()) : [];
  const rightCol = L ? sideColumn(ring.right) : [];
  let rows;
  if (wide) {
    const [p, m] = [`p${top[0]}`, meldArea(top[0])];
    rows = [[".", p, "."], ...(m ? [[m, m, m]] : []), ["center", "center", "center"]];
  } else {
    rows = middle.map((cells, r) => [...(L ? [leftCol[r]] : []), ...cells, ...(L ? [rightCol[r]] : [])]);
  }
  const width = rows[0].length;
  // the bottom row: the viewer's seat at the left, the viewer's melds (or side's) beside it
  if (width > 1) rows.push([`p${bottom}`, ...Array(width - 1).fill(bottomMelds)]);
  else rows.push([bottomMelds], [`p${bottom}`]);
  const centre = `repeat(${C}, minmax(0, ${(1.9 / C).toFixed(3)}fr))`;
  const columns = L || wide ? `minmax(0, 1fr) ${centre} minmax(0, 1fr)` : "minmax(0, 1fr)";
  // narrow screens: the others' plates (a strip, clockwise from the viewer's left), their
  // melds, the other sides' melds, the stock and the pile, the viewer's melds, the viewer
  const others = [...ring.left, ...ring.top, ...ring.right];
  const order = {};
  others.forEach((s, i) => { order[`p${s}`] = 1 + i; });
  others.forEach((s, i) => { if (meldArea(s)) order[meldArea(s)] = 20 + i; });
  teamAreas.forEach((a, i) => { order[a] = 40 + i; });
  order.center = 50;
  order[bottomMelds] = 60;
  order[`p${bottom}`] = 70;
  return { areas: areasValue(rows), columns, order };
}

/**
 * Draws the table into #felt: the seat plates into #players, the meld zones into #melds, the
 * stock and pile into #center, placed around the table.  `seats`: the server's seat list
 * (who plays each seat; null on the replay page); `mySeat`: the viewer's seat or null;
 * `options`: the table's options JSON (the pile's freeze for a side that has not melded).
 */
export function renderFelt(felt, obs, seats, names, mySeat, toAct, options = null) {
  const players = obs.hand_sizes.length;
  const bottom = mySeat !== null && mySeat !== undefined && mySeat >= 0 && mySeat < players ? mySeat : 0;
  const ring = seatRing(players, bottom);
  const zones = meldZones(obs, names, mySeat);
  // which zone is in front of which seat: a side of one seat (every Shanghai seat) in front of
  // it; a partnership's zone across the middle, the bottom seat's side at the bottom
  const shanghai = obs.game === "shanghai-rummy";
  const sideOf = (s) => (shanghai ? s : obs.side_of[s]);
  const sideSeats = shanghai ? null : sides(obs);
  const single = (s) => shanghai || sideSeats[sideOf(s)].length === 1;
  const meldArea = (s) => (s !== bottom && single(s) ? `m${s}` : null);
  const teamAreas = [];
  const areaOf = new Map();
  for (const z of zones) {
    const owner = shanghai ? z.key : null;
    if (z.seats.includes(bottom)) areaOf.set(z, "mine");
    else if (shanghai || z.seats.length === 1) areaOf.set(z, `m${owner ?? z.seats[0]}`);
    else { const a = `s${z.key}`; teamAreas.push(a); areaOf.set(z, a); }
  }
  const grid = feltGrid(ring, bottom, meldArea, teamAreas, "mine");
  felt.style.setProperty("--felt-areas", grid.areas);
  felt.style.setProperty("--felt-columns", grid.columns);
  felt.dataset.players = String(players);
  const place = (el, area) => {
    el.style.gridArea = area;
    el.style.setProperty("--narrow-order", String(grid.order[area] ?? 99));
    return el;
  };
  const plates = obs.hand_sizes.map((_, s) => {
    const plate = place(seatPlate(obs, s, seats && seats[s], names, mySeat, toAct), `p${s}`);
    const pos = s === bottom ? "bottom" : ring.left.includes(s) ? "left" : ring.right.includes(s) ? "right" : "top";
    plate.dataset.position = pos;
    return plate;
  });
  felt.querySelector("#players").replaceChildren(...plates);
  const zoneEls = zones.map((z) => {
    const el = place(z.zone, areaOf.get(z));
    if (areaOf.get(z) === "mine") el.classList.add("mine");
    return el;
  });
  felt.querySelector("#melds").replaceChildren(...zoneEls);
  const center = felt.querySelector("#center");
  place(center, "center");
  center.replaceChildren(centerPanel(obs, options, mySeat), obs.canasta_types ? canastaLegend(options) : "",
    sevensLock(obs, options, names, mySeat) || "");
}
