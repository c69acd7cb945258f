// End-to-end, in Chromium against the real server: blind nil (docs/RULES.md
// blind_nil). With blind_nil 0 every seat is dealt face down at 0–0: at its turn to
// bid the player sees no cards, only "Show my cards" and "Blind nil". On the desktop
// the player looks (the hand appears, then the bids); on the phone it bids blind nil
// (the hand appears after, the seat says "blind nil", and the hand's scores have a
// Blind nil line). Screenshots at 1280×800 and 390×844 go to the artifacts.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, newPerson, createTable, nextPhase, act, until } from "./support.mjs";

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

for (const [size, blind] of [["desktop", false], ["phone", true]]) {
  test(`${size}: face down until the player ${blind ? "bids blind nil" : "shows the cards"}`, async () => {
    const { context, page, errors } = await newPerson(browser, `Bea ${size}`, size);
    await createTable(page, server.url, "spades", { blind_nil: "0", hand_cap: 1 });
    await page.locator("#start").click();
    await page.locator("#show-cards").waitFor({ timeout: 30000 });
    assert.equal(await page.locator(".hand .card").count(), 0, "no card is shown before the choice");
    assert.equal(await page.locator("#blind-nil").count(), 1);
    await page.screenshot({ path: join(artifacts, `blind-nil-choice-${size}.png`) });
    const you = await page.evaluate(() => window.sparts.app.view.state.you);
    if (blind) {
      await page.locator("#blind-nil").click();
      await until(async () => (await page.locator(".hand .card").count()) === 13, "the hand dealt after the blind nil");
      const bids = await page.evaluate(() => window.sparts.app.view.state.view.bids);
      assert.equal(bids[you], "blind_nil");
      assert.match(await page.locator(".you .tricks").innerText(), /blind nil/);
    } else {
      await page.locator("#show-cards").click();
      await until(async () => (await page.locator(".hand .card").count()) === 13, "the hand shown");
      await page.locator(".bids button").first().waitFor();
      assert.equal(await page.locator("#blind-nil").count(), 0, "no blind nil once the cards are seen");
    }
    await page.screenshot({ path: join(artifacts, `blind-nil-after-${size}.png`) });
    const deadline = Date.now() + 180000;
    for (;;) {
      assert.ok(Date.now() < deadline, "the hand did not end in 3 minutes");
      const what = await nextPhase(page, { handScored: true });
      if (what === "hand-scored" || what === "game-over") break;
      await act(page, what);
    }
    const scored = await page.evaluate(() => window.sparts.app.view.state.handScored);
    const mine = scored.sides.find((x) => x.seats.includes(you));
    assert.equal(mine.score_sheet.blind_nil !== undefined, blind, `a blind nil line only after a blind nil: ${JSON.stringify(mine.score_sheet)}`);
    if (blind) {
      assert.equal(Math.abs(mine.score_sheet.blind_nil), 200, "twice the nil value");
      await page.locator(".scored").waitFor();
      assert.match(await page.locator(".scored").innerText(), /Blind nil/);
      await page.screenshot({ path: join(artifacts, `blind-nil-scored-${size}.png`) });
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
}
