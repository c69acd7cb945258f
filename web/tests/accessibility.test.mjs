// Accessibility, checked by axe-core (npm's axe-core, run in the page) against
// the real server in Chromium: the lobby, the table in every phase (waiting,
// passing, bidding, playing, the hand scored with the score sheet open, game
// over), the replay and the leaderboard, at 1280×800 and 390×844: no serious or critical
// violation, and nothing marked hidden is drawn. (The pages run under the server's Content-Security-Policy, which
// refuses an injected script: these contexts bypass it to load axe.) The
// choosing phase is audited by table-layout.test.mjs, where it is reached.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launchBrowser, audit, newPerson, createTable, playThrough, headerButton } from "./support.mjs";

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
    const ada = await newPerson(browser, "Ada", size, { bypassCSP: true });
    const { page } = ada;
    await page.goto(server.url + "/");
    await page.locator("#status[data-state=open]").waitFor();
    await audit(page, "the lobby");
    await page.locator("details.more summary").click();
    await audit(page, "the lobby with every option");
    await createTable(page, server.url, "sparts", { hands: 1 });
    await audit(page, "the table, waiting");
    await page.locator("#start").click();
    const seen = await playThrough(page, { onFirst: (what) => audit(page, `the table, ${what}`) });
    assert.deepEqual([...seen].sort(), ["bidding", "game-over", "passing", "playing"]);
    await page.locator(".scored").waitFor();
    if (size === "phone") {
      await page.locator("#menu").click();
      await page.locator("#menu-items").waitFor();
      await audit(page, "the table's menu of rare actions");
    }
    await (await headerButton(page, "#sheet")).click();
    await page.getByRole("dialog", { name: /Score sheet/ }).waitFor();
    await audit(page, "the table, hand scored and game over, with the score sheet");
    // the replay
    await page.getByRole("link", { name: "Watch the replay" }).click();
    await page.locator("#replay-hand").waitFor({ timeout: 30000 });
    await audit(page, "the replay");
    await page.goto(server.url + "/#/leaderboard/sparts");
    await page.getByRole("heading", { name: /leaderboard/i }).waitFor();
    await audit(page, "the leaderboard");
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  });
}
