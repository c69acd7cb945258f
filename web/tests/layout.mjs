// The one-screen measurement of the table and the replay, shared by the layout test and the
// whole game on a phone: everything that must be on the screen is, nothing lies over a seat,
// no text of a seat or the hand is cut, the header keeps to one row, and the page does not
// scroll. Each measurement writes a screenshot (layout-<label>.png) for the contact sheet.

import assert from "node:assert/strict";
import { join } from "node:path";
import { artifactsDir } from "./support.mjs";

const artifacts = artifactsDir();

/** Everything that must be on the screen is, and the page does not scroll; a screenshot for the contact sheet. */
export async function measure(page, label) {
  // The pointer left where the last click was would lift the card under it (a playable card
  // rises on hover, past the hand's edge by design): the page is measured at rest.
  await page.mouse.move(0, 0);
  await page.waitForTimeout(150); // a redraw in flight settles
  // A card on its way (a deal, a pass, a trick going to its winner) is measured where it lands:
  // every animation that ends is let end (the next hand's deal runs under a hand's scores).
  await page.evaluate(() => Promise.race([
    Promise.all(document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
      .map((a) => a.finished.catch(() => {}))),
    new Promise((r) => setTimeout(r, 3000)),
  ]));
  // The screen's size, not innerWidth: a phone browser widens its viewport to show a page that overflows.
  const m = await page.evaluate(({ width: W, height: H }) => {
    const outside = [];
    const check = (what, el) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      if (r.left < -1 || r.top < -1 || r.right > W + 1 || r.bottom > H + 1) {
        outside.push({ what, left: Math.round(r.left), top: Math.round(r.top), right: Math.round(r.right), bottom: Math.round(r.bottom), text: el.textContent.slice(0, 30) });
      }
    };
    for (const [what, selector] of [["hand", ".hand"], ["hand card", ".hand .card"], ["trick", ".center"], ["trick card", ".center .card"],
      ["seat", ".seat"], ["action", ".action"], ["overlay", ".overlay"], ["head", ".table-head"], ["replay controls", ".replay-side"],
      ["menu item", ".menu-items:not([hidden]) > *"]]) {
      for (const el of document.querySelectorAll(selector)) check(what, el);
    }
    // Each control of the table's head has its label centred in its box (a link styled as a button
    // once drew its label 4 px above its neighbours').
    const offCentre = [];
    for (const el of document.querySelectorAll(".head-actions button, .head-actions .button")) {
      const box = el.getBoundingClientRect();
      if (box.height === 0 || !el.firstChild) continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      const text = range.getBoundingClientRect();
      const drift = (text.top + text.bottom) / 2 - (box.top + box.bottom) / 2;
      if (Math.abs(drift) > 2) offCentre.push(`${el.textContent.trim().slice(0, 20)}: ${drift.toFixed(1)} px`);
    }
    // The invite link is shown whole where it is shown (on a phone the Copy button stands for it).
    const invite = document.querySelector(".invite-link");
    const inviteCut = invite && invite.offsetParent !== null && invite.scrollWidth > invite.clientWidth + 1
      ? `${invite.scrollWidth} px of link in a ${invite.clientWidth} px field` : null;
    // The Start button stands out from the felt it sits on (WCAG 1.4.11: 3:1 for a control's
    // edges against what is next to it; the felt's lightest green is at its centre, #23734a).
    const luminance = (rgb) => {
      const [r, g, b] = rgb.match(/\d+/g).slice(0, 3).map(Number).map((c) => {
        const v = c / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    let startContrast = null;
    const start = document.querySelector("#start");
    if (start && !start.disabled) {
      const a = luminance(getComputedStyle(start).backgroundColor), b = luminance("rgb(35, 115, 74)");
      startContrast = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    }
    // No seat lies over another, nor over a card of the trick.
    const overlaps = [];
    const seats = [...document.querySelectorAll(".felt .seat")];
    const over = (a, b) => {
      const r = a.getBoundingClientRect(), q = b.getBoundingClientRect();
      return Math.min(r.right, q.right) - Math.max(r.left, q.left) > 1 && Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top) > 1;
    };
    seats.forEach((a, i) => seats.slice(i + 1).forEach((b) => { if (over(a, b)) overlaps.push(`seats ${a.dataset.seat} and ${b.dataset.seat}`); }));
    for (const board of document.querySelectorAll(".scoreboard")) {
      for (const seat of seats) if (over(board, seat)) overlaps.push(`the scoreboard and seat ${seat.dataset.seat}`);
    }
    const figures = [...document.querySelectorAll(".center figure")];
    const cardOf = (f) => f.querySelector(".card")?.dataset.card;
    for (const played of figures) {
      for (const seat of seats) if (over(played, seat)) overlaps.push(`${cardOf(played)} of the trick and seat ${seat.dataset.seat}`);
    }
    // At up to four seats the trick's cards lie in a cross, none over another or over its name
    // (more seats crowd the ring: their cards may overlap, names kept clear).
    if (seats.length <= 4) {
      figures.forEach((a, i) => figures.slice(i + 1).forEach((b) => { if (over(a, b)) overlaps.push(`${cardOf(a)} and ${cardOf(b)} of the trick`); }));
    }
    // The words in the middle of the ring (the trick, what is broken, a spectator's "Waiting for")
    // lie over no card of the trick, nor a seat.
    for (const info of document.querySelectorAll(".center-info")) {
      if (info.checkVisibility?.() === false || info.getBoundingClientRect().width === 0) continue;
      const words = info.textContent.trim().slice(0, 40);
      for (const played of figures) if (over(info, played)) overlaps.push(`"${words}" and ${cardOf(played)} of the trick`);
      for (const seat of seats) if (over(info, seat)) overlaps.push(`"${words}" and seat ${seat.dataset.seat}`);
    }
    // At a seat, the line that says whom the table waits for lies over no card of the trick, nor a seat.
    for (const line of document.querySelectorAll(".action.passive p")) {
      if (!line.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(line);
      const words = { getBoundingClientRect: () => range.getBoundingClientRect() };
      for (const played of figures) if (over(words, played)) overlaps.push(`"${line.textContent.trim()}" and ${cardOf(played)} of the trick`);
      for (const seat of seats) if (over(words, seat)) overlaps.push(`"${line.textContent.trim()}" and seat ${seat.dataset.seat}`);
    }
    // A game's end and its last hand's scores: each of their buttons and links is in sight as
    // they open, where the felt is wide enough for both (on a phone the second panel is
    // scrolled to; the first panel's are in sight). The score sheet, opened over them, scrolls.
    const unseen = [];
    for (const overlay of document.querySelectorAll(".overlay")) {
      // No panel over the table holds what is wider than itself (a score table of many seats
      // ran past its panel, over the felt).
      for (const panel of overlay.querySelectorAll(":scope > .card-panel"))
        if (panel.scrollWidth > panel.clientWidth + 1) unseen.push(`${panel.scrollWidth} px of "${panel.querySelector("h2")?.textContent}" in a ${panel.clientWidth} px panel`);
      if (overlay.querySelector(":scope > .sheet")) continue;
      const box = overlay.getBoundingClientRect();
      const panels = [...overlay.querySelectorAll(":scope > .game-over, :scope > .scored")];
      for (const panel of W > 760 ? panels : panels.slice(0, 1)) {
        for (const el of panel.querySelectorAll("button, a")) {
          const r = el.getBoundingClientRect();
          if (r.top < box.top - 1 || r.bottom > box.bottom + 1 || r.left < box.left - 1 || r.right > box.right + 1)
            unseen.push(`"${el.textContent.trim()}" at ${Math.round(r.top)}-${Math.round(r.bottom)} px, the panels shown from ${Math.round(box.top)} to ${Math.round(box.bottom)}`);
        }
      }
    }
    // The replay's hands: every card in its seat's box, none cut by its edge.
    const cut = [];
    for (const card of document.querySelectorAll(".seat-hand .card")) {
      const r = card.getBoundingClientRect(), box = card.closest(".seat").getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) cut.push(card.dataset.card);
    }
    // No text in a seat box is cut short (a name, a score, a badge).
    const clipped = [];
    for (const el of document.querySelectorAll(".seat *")) {
      // (words kept for a screen reader only, one pixel wide, are not cut: they are not drawn)
      if (!el.firstChild || el.checkVisibility?.() === false || el.clientWidth <= 1) continue;
      const style = getComputedStyle(el);
      if (style.overflow === "visible" && style.overflowX === "visible") continue;
      if (el.scrollWidth > el.clientWidth + 1) clipped.push(`seat ${el.closest(".seat").dataset.seat}: "${el.textContent.trim().slice(0, 30)}"`);
    }
    // The header's buttons keep to one row (a phone puts the rare ones in its More menu), and
    // each card of the hand, and each line of text in it, is whole.
    const rows = new Set([...document.querySelectorAll(".head-actions > button, .head-actions > .button, .head-actions > .menu")]
      .filter((el) => el.offsetParent !== null).map((el) => Math.round(el.getBoundingClientRect().top)));
    const hand = document.querySelector(".hand");
    for (const el of document.querySelectorAll(".hand .card, .hand .card *")) {
      // A card's face (its pips or figure) is drawn past its own box on purpose; it must stay on the card.
      if (el.closest(".face")) {
        if (el.checkVisibility?.() === false) continue; // a phone draws no pips
        const r = el.getBoundingClientRect(), card = el.closest(".card").getBoundingClientRect();
        if (el.classList.contains("pip") || el.tagName === "svg")
          if (r.left < card.left - 1 || r.right > card.right + 1 || r.top < card.top - 1 || r.bottom > card.bottom + 1)
            clipped.push(`hand card ${el.closest(".card").dataset.card}: its face runs off the card`);
        continue;
      }
      if (!el.firstChild || el.clientWidth <= 1) continue;
      if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) clipped.push(`hand: "${el.textContent.trim().slice(0, 10)}"`);
      const r = el.getBoundingClientRect(), box = hand.getBoundingClientRect();
      // A card chosen to pass, or one that may be played, is lifted on purpose: it may rise past
      // the hand's top; no card may drop past its bottom.
      const lifted = el.closest(".card")?.matches(".selected, .raised, .playable");
      if (r.bottom > box.bottom + 1 || (!lifted && r.top < box.top - 1)) clipped.push(`hand card ${el.closest(".card")?.dataset.card} cut by the hand's edge`);
    }
    // What sticks out past the right edge, to name in a failure.
    const wide = [...document.querySelectorAll("body *")].filter((el) => el.getBoundingClientRect().right > W + 1)
      .slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${Math.round(el.getBoundingClientRect().right)}`);
    return {
      outside, unseen, W, H, wide, offCentre, startContrast, inviteCut, overlaps, cut, clipped, headRows: rows.size,
      scrollW: document.documentElement.scrollWidth, scrollH: document.documentElement.scrollHeight,
      seats: document.querySelectorAll(".seat").length, cards: document.querySelectorAll(".hand .card").length,
      seatCards: document.querySelectorAll(".seat-hand .card").length, trickCards: document.querySelectorAll(".center .card").length,
    };
  }, page.viewportSize());
  await page.screenshot({ path: join(artifacts, `layout-${label}.png`) });
  assert.deepEqual(m.outside, [], `${label}: outside the ${m.W}×${m.H} screen`);
  assert.deepEqual(m.unseen, [], `${label}: a control of the scores over the table is out of sight`);
  assert.deepEqual(m.offCentre, [], `${label}: a head control's label is off its centre`);
  assert.deepEqual(m.overlaps, [], `${label}: one thing over another`);
  assert.deepEqual(m.cut, [], `${label}: cards of a seat's hand cut by its box`);
  assert.deepEqual(m.clipped, [], `${label}: text cut short in a seat's box or the hand`);
  assert.ok(m.headRows <= 1, `${label}: the header's buttons take ${m.headRows} rows`);
  assert.equal(m.inviteCut, null, `${label}: the invite link is cut`);
  if (m.startContrast !== null)
    assert.ok(m.startContrast >= 3, `${label}: the Start button is ${m.startContrast.toFixed(2)}:1 against the felt (3:1 at least)`);
  assert.ok(m.scrollW <= m.W, `${label}: the page is ${m.scrollW} px wide on a ${m.W} px screen (${m.wide.join("; ")})`);
  assert.ok(m.scrollH <= m.H, `${label}: the page is ${m.scrollH} px high on a ${m.H} px screen`);
  return m;
}

