// End-to-end, in Chromium against the real server: the table fits one screen.
// At 1280×800 and at 390×844, in every phase (choosing, passing, bidding,
// playing, the hand scored, game over) and for 3 to 10 seats with two decks (31
// cards in a hand), the hand, the trick, the action and every seat lie inside
// the viewport, no seat lies over another or over the trick, and the page
// scrolls neither way. The replay the same, for 2 to 10 seats, with every hand
// face up in its seat. A screenshot of each phase and size goes to the
// artifacts (layout-*.png: the contact sheet).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, audit, newPerson, createTable, playThrough, until, playBotGame } from "./support.mjs";

let server;
let slow; // bots that wait 1.5 s a move: time for a person to take over the chooser's seat
let browser;
const artifacts = artifactsDir();

before(async () => {
  // Some 25 tables and 40 new players from one address: over the default limits of one address.
  server = await startServer(["--bot-delay-ms", "10", "--tables-per-address", "1000", "--players-per-address-per-minute", "1000"]);
  slow = await startServer(["--bot-delay-ms", "1500"]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await slow?.stop();
});

/** Everything that must be on the screen is, and the page does not scroll; a screenshot for the contact sheet. */
async function measure(page, label) {
  await page.waitForTimeout(150); // a redraw in flight settles
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
      ["seat", ".seat"], ["action", ".action"], ["overlay", ".overlay"], ["head", ".table-head"], ["replay controls", ".replay-side"]]) {
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
    for (const played of document.querySelectorAll(".center figure")) {
      for (const seat of seats) if (over(played, seat)) overlaps.push(`${played.querySelector(".card")?.dataset.card} of the trick and seat ${seat.dataset.seat}`);
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
    // What sticks out past the right edge, to name in a failure.
    const wide = [...document.querySelectorAll("body *")].filter((el) => el.getBoundingClientRect().right > W + 1)
      .slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${Math.round(el.getBoundingClientRect().right)}`);
    return {
      outside, W, H, wide, offCentre, startContrast, inviteCut, overlaps, cut, clipped,
      scrollW: document.documentElement.scrollWidth, scrollH: document.documentElement.scrollHeight,
      seats: document.querySelectorAll(".seat").length, cards: document.querySelectorAll(".hand .card").length,
      seatCards: document.querySelectorAll(".seat-hand .card").length, trickCards: document.querySelectorAll(".center .card").length,
    };
  }, page.viewportSize());
  await page.screenshot({ path: join(artifacts, `layout-${label}.png`) });
  assert.deepEqual(m.outside, [], `${label}: outside the ${m.W}×${m.H} screen`);
  assert.deepEqual(m.offCentre, [], `${label}: a head control's label is off its centre`);
  assert.deepEqual(m.overlaps, [], `${label}: one thing over another`);
  assert.deepEqual(m.cut, [], `${label}: cards of a seat's hand cut by its box`);
  assert.deepEqual(m.clipped, [], `${label}: text cut short in a seat's box`);
  assert.equal(m.inviteCut, null, `${label}: the invite link is cut`);
  if (m.startContrast !== null)
    assert.ok(m.startContrast >= 3, `${label}: the Start button is ${m.startContrast.toFixed(2)}:1 against the felt (3:1 at least)`);
  assert.ok(m.scrollW <= m.W, `${label}: the page is ${m.scrollW} px wide on a ${m.W} px screen (${m.wide.join("; ")})`);
  assert.ok(m.scrollH <= m.H, `${label}: the page is ${m.scrollH} px high on a ${m.H} px screen`);
  return m;
}

/** Plays the seat, measuring each phase the first time it comes (the hand scored too), until game over or `stopAfter` phases. */
function playAndMeasure(page, label, stopAfter = Infinity) {
  return playThrough(page, { onFirst: (what) => measure(page, `${label}-${what}`), handScored: true, stopAfter });
}

for (const size of ["desktop", "phone"]) {
  test(`${size}: four seats, a whole one-hand game of Sparts: passing, bidding, playing, the hand scored and game over fit the screen`, async () => {
    const ada = await newPerson(browser, "Ada", size);
    await createTable(ada.page, server.url, "sparts", { hands: 1 });
    await measure(ada.page, `sparts-waiting-${size}`);
    await ada.page.locator("#start").click();
    const seen = await playAndMeasure(ada.page, `sparts-${size}`);
    assert.deepEqual([...seen].sort(), ["bidding", "game-over", "hand-scored", "passing", "playing"]);
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  });

  test(`${size}: every seat count from 2 to 10 (two decks from 3 on; 31 cards each at 3), for a player and a spectator`, async () => {
    for (let seats = 2; seats <= 10; seats++) {
      // two players play one deck (docs/RULES.md); three with two decks hold 31 cards each
      const extra = seats === 2 ? {} : seats === 3 ? { decks: "2", hand_size: 31 } : { decks: "2" };
      const ada = await newPerson(browser, "Ada", size);
      const table = await createTable(ada.page, server.url, "spartsel", { seats, ...extra });
      await ada.page.locator("#start").click();
      await ada.page.locator(".hand .card").first().waitFor();
      const m = await measure(ada.page, `spartsel-${seats}-dealt-${size}`);
      assert.equal(m.seats, seats);
      if (seats === 3) assert.equal(m.cards, 31);
      if ([3, 6, 10].includes(seats)) {
        // the phases of the hand, to the play
        const seen = await playAndMeasure(ada.page, `spartsel-${seats}-${size}`, 3);
        assert.ok(seen.has("playing"), `reached the play: ${[...seen]}`);
      }
      // a spectator sees every seat on the ring
      const eye = await newPerson(browser, "Eye", size);
      await eye.page.goto(`${server.url}/#/table/${table}?watch=1`);
      await eye.page.locator(".log li", { hasText: "You are watching" }).first().waitFor();
      const seen2 = await measure(eye.page, `spartsel-${seats}-spectator-${size}`);
      assert.equal(seen2.seats, seats);
      assert.equal(seen2.cards, 0);
      assert.deepEqual([...ada.errors, ...eye.errors], []);
      await eye.context.close();
      await ada.context.close();
    }
  });

  test(`${size}: a table waiting for players, its seats empty, with a button in each`, async () => {
    const ada = await newPerson(browser, "Ada", size);
    const { page } = ada;
    await createTable(page, server.url, "spades", {}, null, "none");
    await page.getByRole("button", { name: "Add bot to seat 3" }).waitFor();
    await measure(page, `spades-empty-seats-${size}`);
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  });

  test(`${size}: choosing (bga-sparts): the holder of the seven of diamonds chooses on one screen`, async () => {
    // (these two bypass the Content-Security-Policy: the choosing phase is audited by axe here too)
    const ada = await newPerson(browser, "Ada", size, { bypassCSP: true });
    await createTable(ada.page, slow.url, "bga-sparts");
    const table = ada.page.url().match(/#\/table\/(t\d+)/)[1];
    const cy = await newPerson(browser, "Cy", size, { bypassCSP: true });
    await cy.page.goto(`${slow.url}/#/table/${table}?watch=1`);
    await cy.page.locator(".log li", { hasText: "You are watching" }).first().waitFor();
    await ada.page.locator("#start").click();
    const line = cy.page.locator(".log li", { hasText: "holds the seven of diamonds" });
    await line.waitFor();
    const text = await line.innerText();
    let chooser = ada;
    if (!/^Ada/.test(text)) {
      const seat = Number(text.match(/^Bot (\d+)/)[1]);
      await cy.page.getByRole("button", { name: `Take over seat ${seat}` }).click();
      chooser = cy;
    }
    await chooser.page.getByRole("group", { name: "Choose the game" }).waitFor();
    await measure(chooser.page, `bga-sparts-choosing-${size}`);
    await audit(chooser.page, "the table, choosing");
    assert.deepEqual([...ada.errors, ...cy.errors], []);
    await cy.context.close();
    await ada.context.close();
  });
}

// The seat counts of the replay's test, each with its hand size: the longest hands
// (24, 31 with two decks at three seats, 17 at six) and the most seats (ten with 10 cards each).
const REPLAYED = [[2, {}], [3, { decks: 2, hand_size: 31 }], [4, {}], [5, {}], [6, { decks: 2 }], [7, {}], [8, {}], [9, {}], [10, { decks: 2 }]];

test("the replay is drawn on the table's ring with every hand face up, and fits one screen at both sizes for 2 to 10 seats", async () => {
  for (const [seats, extra] of REPLAYED) {
    const { table } = await playBotGame(server, "spartsel", { seats, hands: 1, ...extra });
    for (const size of ["desktop", "phone"]) {
      const eye = await newPerson(browser, "Eye", size);
      const { page } = eye;
      await page.goto(`${server.url}/#/replay/${table}/1`);
      await page.locator("#replay-hand").waitFor({ timeout: 30000 });
      // just before the first trick: every hand whole, face up
      await page.selectOption("#replay-hand", "1");
      await page.locator("#replay-trick option[value='1']").waitFor({ state: "attached" });
      await page.selectOption("#replay-trick", "1");
      await until(async () => /hand 1, trick 1$/.test(await page.locator(".table-head .muted").innerText()), "the jump to trick 1");
      const dealt = await measure(page, `replay-${seats}-dealt-${size}`);
      assert.equal(dealt.seats, seats);
      const each = dealt.seatCards / seats;
      assert.ok(Number.isInteger(each) && each >= 5, `${seats} seats: ${dealt.seatCards} cards face up`);
      // two steps on: the trick's first cards in the middle, as on the live table
      for (let i = 0; i < 2; i++) {
        const at = await page.locator(".table-head .muted").innerText();
        await page.locator("#replay-step").click();
        await until(async () => (await page.locator(".table-head .muted").innerText()) !== at, "a step");
      }
      const trick = await measure(page, `replay-${seats}-trick-${size}`);
      assert.ok(trick.trickCards >= 2);
      assert.deepEqual(eye.errors, []);
      await eye.context.close();
    }
  }
});

test("the layout checks can fail: a page wider than the screen is caught", async () => {
  const ada = await newPerson(browser, "Ada", "phone");
  await createTable(ada.page, server.url, "spades");
  await ada.page.evaluate(() => {
    const seat = document.createElement("section");
    seat.className = "seat";
    seat.style.left = "380px";
    seat.style.top = "100px";
    seat.textContent = "a seat past the edge";
    document.body.append(seat); // outside what the table redraws

  });
  await assert.rejects(() => measure(ada.page, "self-check-phone"), /outside the 390×844 screen|px wide/);
  await ada.context.close();
});
