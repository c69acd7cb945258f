// A card's face, drawn here (no image files): the pips of a number card in the
// usual places (those of the lower half upside down, as printed), one large pip
// for an ace, a framed figure for a court card (a crown for the king, a tiara
// for the queen, a cap for the jack) and a star for a joker. The rank and suit
// also stand in the card's corner (cardEl), which is what shows where cards
// overlap; the face is decoration, hidden from screen readers, and the CSS
// leaves it out where a card is too small to draw it (a replay's mini cards).

import { h } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const COL = { l: 22, m: 50, r: 78 }; // % across the face
// Each number card's pips: [column, height from 0 (top) to 1 (bottom)].
const PIPS = {
  2: [["m", 0], ["m", 1]],
  3: [["m", 0], ["m", 0.5], ["m", 1]],
  4: [["l", 0], ["r", 0], ["l", 1], ["r", 1]],
  5: [["l", 0], ["r", 0], ["m", 0.5], ["l", 1], ["r", 1]],
  6: [["l", 0], ["r", 0], ["l", 0.5], ["r", 0.5], ["l", 1], ["r", 1]],
  7: [["l", 0], ["r", 0], ["m", 0.25], ["l", 0.5], ["r", 0.5], ["l", 1], ["r", 1]],
  8: [["l", 0], ["r", 0], ["m", 0.25], ["l", 0.5], ["r", 0.5], ["m", 0.75], ["l", 1], ["r", 1]],
  9: [["l", 0], ["r", 0], ["l", 1 / 3], ["r", 1 / 3], ["m", 0.5], ["l", 2 / 3], ["r", 2 / 3], ["l", 1], ["r", 1]],
  T: [["l", 0], ["r", 0], ["m", 1 / 6], ["l", 1 / 3], ["r", 1 / 3], ["l", 2 / 3], ["r", 2 / 3], ["m", 5 / 6], ["l", 1], ["r", 1]],
};

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

// The court's headgear, in a 40×56 frame.
const HEADGEAR = {
  K: () => svg("polygon", { class: "gold", points: "9,24 9,12 15,18 20,8 25,18 31,12 31,24" }),
  Q: () => svg("g", {},
    svg("polygon", { class: "gold", points: "9,24 11,14 16,19 20,12 24,19 29,14 31,24" }),
    ...[[11, 13], [20, 11], [29, 13]].map(([cx, cy]) => svg("circle", { class: "gold", cx, cy, r: 2 }))),
  J: () => svg("g", {},
    svg("path", { class: "gold", d: "M9 24 Q10 12 20 12 Q30 12 31 24 Z" }),
    svg("path", { class: "feather", d: "M27 13 Q33 6 36 4" })),
};

/** The face of a parsed card (cards.js parseCard), or null for a joker's (its corner says it). */
export function cardFace(c, symbol) {
  if (c.joker) return h("span", { class: "face face-joker", "aria-hidden": "true" }, "★");
  if (c.rank === "A") return h("span", { class: "face face-ace", "aria-hidden": "true" }, h("span", { class: "pip" }, symbol));
  if (HEADGEAR[c.rank]) {
    const figure = svg("svg", { class: "court", viewBox: "0 0 40 56", "aria-hidden": "true", focusable: "false" },
      svg("rect", { class: "frame", x: 2, y: 2, width: 36, height: 52, rx: 3 }),
      HEADGEAR[c.rank](),
      svg("text", { class: "court-suit", x: 20, y: 42, "text-anchor": "middle" }, symbol));
    return h("span", { class: `face face-court face-${c.rank}`, "aria-hidden": "true" }, figure);
  }
  return h("span", { class: "face face-pips", "aria-hidden": "true" },
    (PIPS[c.rank] ?? []).map(([col, y]) => h("span", {
      class: `pip${y > 0.5 ? " down" : ""}`, style: { "--x": `${COL[col]}%`, "--y": `${8 + y * 84}%` },
    }, symbol)));
}
