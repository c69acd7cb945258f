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
import { startServer, launchBrowser, audit, newPerson, createTable, playThrough, until, playBotGame, nextPhase, act, artifactsDir } from "./support.mjs";
import { measure } from "./layout.mjs";

const artifacts = artifactsDir();

let server;
let slow; // bots that wait 1.5 s a move: time for a person to take over the chooser's seat
let browser;

before(async () => {
  // Some 25 tables and 40 new players from one address: over the default limits of one address.
  server = await startServer(["--bot-delay-ms", "10", "--tables-per-address", "1000", "--players-per-address-per-minute", "1000",
    "--tables-per-player", "100"]);
  slow = await startServer(["--bot-delay-ms", "1500"]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await slow?.stop();
});

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
    // One player and one spectator go from table to table, as a person follows links in the
    // client (a browser context and a page load each time were most of this test's CPU).
    const ada = await newPerson(browser, "Ada", size);
    const eye = await newPerson(browser, "Eye", size);
    for (let seats = 2; seats <= 10; seats++) {
      // two players play one deck (docs/RULES.md); three with two decks hold 31 cards each
      // (ten seats play their one hand to the end: the scores of ten seats, side by side)
      const extra = { ...(seats === 2 ? {} : seats === 3 ? { decks: "2", hand_size: 31 } : { decks: "2" }), ...(seats === 10 ? { hands: "1" } : {}) };
      const table = await createTable(ada.page, server.url, "spartsel", { seats, ...extra });
      await ada.page.locator("#start").click();
      await ada.page.locator(".hand .card").first().waitFor();
      const m = await measure(ada.page, `spartsel-${seats}-dealt-${size}`);
      assert.equal(m.seats, seats);
      if (seats === 3) assert.equal(m.cards, 31);
      if ([3, 6, 10].includes(seats)) {
        // the phases of the hand, to the play
        const seen = await playAndMeasure(ada.page, `spartsel-${seats}-${size}`, seats === 10 ? Infinity : 3);
        assert.ok(seen.has("playing"), `reached the play: ${[...seen]}`);
        if (seats === 10) {
          assert.ok(seen.has("hand-scored") && seen.has("game-over"), `to the end: ${[...seen]}`);
          // Ten sides' scores, scrolled to under the game's end (on a phone its box scrolls sideways).
          await ada.page.locator(".scored").scrollIntoViewIfNeeded();
          await ada.page.screenshot({ path: join(artifacts, `layout-spartsel-10-scores-${size}.png`) });
        }
      }
      // a spectator sees every seat on the ring
      await eye.page.goto(`${server.url}/#/table/${table}?watch=1`);
      await eye.page.locator(".table-head h1", { hasText: new RegExp(`^Table ${table} `) }).waitFor();
      await eye.page.locator(".log li", { hasText: "You are watching" }).first().waitFor({ state: "attached" }); // a drawer on a phone
      const seen2 = await measure(eye.page, `spartsel-${seats}-spectator-${size}`);
      assert.equal(seen2.seats, seats);
      // Whom the table waits for: in the middle of the ring (on a phone, the line under the header),
      // no longer under the trick where the seats beside the bottom one are on a crowded ring.
      // (The hand is under way, Ada's turn yet to come or come: the table waits for someone. Ten
      // seats played their game to its end.)
      if (seats !== 10) await eye.page.locator(size === "phone" ? ".table-head .trick-line" : ".center-wait", { hasText: /Waiting for / }).waitFor({ timeout: 10000 });
      assert.equal(seen2.cards, 0);
      assert.deepEqual([...ada.errors, ...eye.errors], []);
    }
    await eye.context.close();
    await ada.context.close();
  });

  // The partnership games draw a scoreboard in the felt's corner: it lies over no seat (on a
  // phone it once covered the top seat's name).
  test(`${size}: a one-hand game of Spades: the partnership scoreboard lies over no seat in any phase`, async () => {
    const ada = await newPerson(browser, "Ada", size);
    const { page } = ada;
    await createTable(page, server.url, "spades", { hand_cap: 1 });
    await page.locator("#start").click();
    await page.locator(".scoreboard").waitFor();
    await playAndMeasure(page, `spades-${size}`);
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  });

  // Six seats in partnerships, six hands (to a target no side reaches in them), each passed to
  // the left: the deal goes round every seat, so that in one hand the partner is the dealer and,
  // having passed, wears three badges (they once ran out of its box).
  test(`${size}: six hands of six-seat partnership Hearts: every pass and every phase fit, the scoreboard over no seat`, async () => {
    const ada = await newPerson(browser, "Ada", size);
    const { page } = ada;
    await createTable(page, server.url, "hearts", { seats: 6, partnership: "across", pass_rotation: "left", target_score: 10000, hand_cap: 6 });
    await page.locator("#start").click();
    await page.locator(".scoreboard").waitFor();
    const seen = new Set();
    // The hands whose pass was measured, by number: a loaded machine can show one hand's pass
    // form twice (the pass sent, the page not yet drawn again), and it is measured once.
    const passed = new Set();
    const deadline = Date.now() + 240000;
    for (;;) {
      assert.ok(Date.now() < deadline, "six hands did not end in 4 minutes");
      const what = await nextPhase(page, { handScored: !seen.has("hand-scored") });
      if (what === "passing") {
        const hand = Number((await page.locator(".table-head .muted").innerText()).match(/hand (\d+)/)?.[1]);
        if (!passed.has(hand)) await measure(page, `hearts-6-partners-${size}-passing-${hand}`);
        passed.add(hand);
      } else if (!seen.has(what)) await measure(page, `hearts-6-partners-${size}-${what}`);
      seen.add(what);
      if (what === "game-over") break;
      if (what !== "hand-scored") await act(page, what);
    }
    assert.deepEqual([...passed].sort(), [1, 2, 3, 4, 5, 6], "a pass a hand");
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  });

  test(`${size}: after the seat plays, the line naming whom the table waits for lies over no card of the trick`, async () => {
    // The slow server's bots take 1.5 s a card: the table waits a while after the seat plays.
    const ada = await newPerson(browser, "Ada", size);
    const { page } = ada;
    await createTable(page, slow.url, "spades", { hand_cap: 1 });
    await page.locator("#start").click();
    for (let what = await nextPhase(page); what !== "playing"; what = await nextPhase(page)) await act(page, what);
    await act(page, "playing");
    const waiting = page.locator(".action.passive p", { hasText: /^Waiting for / });
    await waiting.waitFor();
    await measure(page, `spades-waiting-after-a-card-${size}`);
    assert.ok(await waiting.isVisible(), "the table still waited when it was measured");
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  });

  if (size === "phone") test("phone: the More menu opens on the screen, and closes on a tap outside it or Escape", async () => {
    const ada = await newPerson(browser, "Ada", size);
    const { page } = ada;
    await createTable(page, server.url, "spades", { hand_cap: 1 });
    await page.locator("#start").click();
    await page.locator(".hand .card").first().waitFor();
    await page.locator("#menu").click();
    await page.locator("#menu-items").waitFor();
    // (it opened off the screen's left edge: every item but its last 40 px out of sight)
    await measure(page, "menu-open-phone");
    await page.locator(".felt").click({ position: { x: 20, y: 300 } });
    await page.locator("#menu-items").waitFor({ state: "hidden" });
    await page.locator("#menu").click();
    await page.locator("#menu-items").waitFor();
    await page.keyboard.press("Escape");
    await page.locator("#menu-items").waitFor({ state: "hidden" });
    assert.equal(await page.evaluate(() => document.activeElement?.id), "menu", "Escape gives the focus back to More");
    // A choice in it still works (and closes it).
    await page.locator("#menu").click();
    await page.locator("#sheet").click();
    await page.locator(".sheet").waitFor();
    await page.locator("#menu-items").waitFor({ state: "hidden" });
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
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
    await cy.page.locator(".log li", { hasText: "You are watching" }).first().waitFor({ state: "attached" }); // a drawer on a phone
    await ada.page.locator("#start").click();
    const line = cy.page.locator(".log li", { hasText: "holds the seven of diamonds" });
    await line.waitFor({ state: "attached" });
    const text = (await line.textContent()).trim();
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
  // One viewer a size goes from replay to replay, as a person follows links in the client.
  const eyes = { desktop: await newPerson(browser, "Eye", "desktop"), phone: await newPerson(browser, "Eye", "phone") };
  for (const [seats, extra] of REPLAYED) {
    const { table } = await playBotGame(server, "spartsel", { seats, hands: 1, ...extra });
    for (const size of ["desktop", "phone"]) {
      const eye = eyes[size];
      const { page } = eye;
      await page.goto(`${server.url}/#/replay/${table}/1`);
      await page.locator(".table-head h1", { hasText: new RegExp(`^Replay: table ${table}, game 1 `) }).waitFor({ timeout: 30000 });
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
    }
  }
  for (const eye of Object.values(eyes)) await eye.context.close();
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
