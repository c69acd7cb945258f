// A whole game on a phone, as a new player meets it: at 390×844 (touch, mobile) from the
// first visit's name form, through the lobby and a table of Sparts against three bots (every
// phase: passing, bidding, playing, the hand scored, game over), to its replay. At each step
// the screen is measured as the layout test measures it (layout.mjs): nothing off the screen,
// no scroll, no text of a seat or the hand cut, no seat over another or over the trick, the
// header in one row; and no card of the hand lies under a control.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, SIZES, createTable, playThrough, until } from "./support.mjs";
import { measure } from "./layout.mjs";

let server;
let browser;
const artifacts = artifactsDir();

before(async () => {
  server = await startServer(["--bot-delay-ms", "10"]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** No card of the hand lies under a button, a field or the action panel (a tap would hit the wrong one). */
async function cardsClearOfControls(page, label) {
  const under = await page.evaluate(() => {
    const over = (r, q) => Math.min(r.right, q.right) - Math.max(r.left, q.left) > 1 && Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top) > 1;
    const controls = [...document.querySelectorAll("button, a.button, input, select, .action")]
      .filter((el) => !el.closest(".hand") && el.offsetParent !== null && getComputedStyle(el).visibility !== "hidden");
    const found = [];
    for (const card of document.querySelectorAll(".hand .card")) {
      const r = card.getBoundingClientRect();
      for (const c of controls) if (over(r, c.getBoundingClientRect())) found.push(`${card.dataset.card} under ${c.id || c.className || c.tagName}`);
    }
    return found;
  });
  assert.deepEqual(under, [], `${label}: a card of the hand under a control`);
}

test("390×844: the name form, the lobby, a whole game of Sparts and its replay, each on one screen", async () => {
  const context = await browser.newContext({ viewport: SIZES.phone, isMobile: true, hasTouch: true, reducedMotion: "reduce" });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));

  await page.goto(server.url + "/");
  await page.getByRole("heading", { name: "Welcome to sparts" }).waitFor();
  await page.screenshot({ path: join(artifacts, "phone-game-name.png") });
  await page.locator("#name").fill("Ada");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.locator("#status[data-state=open]").waitFor();
  assert.match(await page.locator("#who").innerText(), /Ada/);
  const lobbyWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(lobbyWidth <= SIZES.phone.width, `the lobby is ${lobbyWidth} px wide`);

  await createTable(page, server.url, "sparts", { hands: 1 });
  await measure(page, "phone-game-waiting");
  await page.locator("#start").click();
  const seen = await playThrough(page, {
    handScored: true,
    onFirst: async (what) => {
      const m = await measure(page, `phone-game-${what}`);
      if (what !== "game-over" && what !== "hand-scored") assert.ok(m.cards > 0, `${what}: a hand is shown`);
      await cardsClearOfControls(page, what);
    },
  });
  assert.deepEqual([...seen].sort(), ["bidding", "game-over", "hand-scored", "passing", "playing"]);
  assert.match(await page.locator(".game-over h2, .game-over h3").first().innerText(), /Game over/);

  // The log, a drawer: its last line under the table opens the whole of it, and closes. The line
  // tells how the game ended, not the deal's seed revealed after it.
  await page.locator("#log-toggle", { hasText: /Game over after 1 hand/ }).waitFor();
  await page.locator("#log-toggle").click();
  await page.locator("#log-panel").waitFor();
  assert.ok((await page.locator("#log-panel li").count()) > 10, "the whole log");
  await page.screenshot({ path: join(artifacts, "phone-game-log.png") });
  await page.locator(".log-close").click();
  await page.locator("#log-panel").waitFor({ state: "hidden" });

  await page.getByRole("link", { name: "Watch the replay" }).click();
  await page.locator("#replay-step").waitFor();
  await until(async () => (await page.locator(".replay-seat .card").count()) > 0, "the replay's hands");
  await measure(page, "phone-game-replay");
  await page.locator("#replay-step").click();
  await measure(page, "phone-game-replay-step");
  assert.deepEqual(errors, []);
  await context.close();
});
