// Accessibility, checked by axe-core (npm's axe-core, run in the page) against
// the real server in Chromium: the lobby, the table in every phase (waiting,
// passing, bidding, playing, the hand scored with the score sheet open, game
// over) and the replay, at 1280×800 and 390×844: no serious or critical
// violation. (The pages run under the server's Content-Security-Policy, which
// refuses an injected script: these contexts bypass it to load axe.) The
// choosing phase is audited by table-layout.test.mjs, where it is reached.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, audit } from "./support.mjs";

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

let server;
let browser;

before(async () => {
  server = await startServer(["--bot-delay-ms", "10"]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

for (const size of ["desktop", "phone"]) {
  test(`${size}: the lobby, the table in every phase and the replay have no serious or critical accessibility violation`, async () => {
    const phone = size === "phone";
    const context = await browser.newContext({ viewport: SIZES[size], isMobile: phone, hasTouch: phone, bypassCSP: true });
    await context.addInitScript(() => localStorage.setItem("sparts.name", "Ada"));
    const page = await context.newPage();
    await page.goto(server.url + "/");
    await page.locator("#status[data-state=open]").waitFor();
    await audit(page, "the lobby");
    await page.locator("details.more summary").click();
    await audit(page, "the lobby with every option");
    await page.selectOption("#preset", "sparts");
    await page.locator("#opt-hands").fill("1");
    await page.getByRole("button", { name: "Create table and sit" }).click();
    await page.locator("#start").waitFor();
    await audit(page, "the table, waiting");
    await page.locator("#start").click();
    const seen = new Set();
    const deadline = Date.now() + 120000;
    while (Date.now() < deadline) {
      const what = await Promise.race([
        page.locator("#pass").waitFor({ timeout: 30000 }).then(() => "passing"),
        page.locator(".bids button").first().waitFor({ timeout: 30000 }).then(() => "bidding"),
        page.locator(".hand button.card.playable").first().waitFor({ timeout: 30000 }).then(() => "playing"),
        page.locator(".game-over").waitFor({ timeout: 30000 }).then(() => "game over"),
      ]);
      if (!seen.has(what)) {
        seen.add(what);
        await audit(page, `the table, ${what}`);
      }
      if (what === "game over") break;
      try {
        if (what === "passing") {
          for (let i = 0; i < 3; i++) await page.locator(".hand button.card").nth(i).click({ timeout: 2000 });
          await page.locator("#pass").click({ timeout: 2000 });
          await page.locator("#pass").waitFor({ state: "detached" });
        } else if (what === "bidding") {
          await page.locator(".bids button").first().click({ timeout: 2000 });
        } else {
          await page.locator(".hand button.card.playable").first().click({ timeout: 2000 });
        }
      } catch (err) {
        if (!/Timeout|detached|not attached/.test(String(err))) throw err;
      }
    }
    assert.deepEqual([...seen].sort(), ["bidding", "game over", "passing", "playing"]);
    await page.locator(".scored").waitFor();
    await page.locator("#sheet").click();
    await page.getByRole("dialog", { name: /Score sheet/ }).waitFor();
    await audit(page, "the table, hand scored and game over, with the score sheet");
    // the replay
    await page.getByRole("link", { name: "Watch the replay" }).click();
    await page.locator("#replay-hand").waitFor({ timeout: 30000 });
    await audit(page, "the replay");
    await context.close();
  });
}
