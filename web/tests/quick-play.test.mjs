// End-to-end, in Chromium against the real server: quick play. Two people press
// "Play now" for the same game and land at one table whose game has begun, the
// empty seats taken by bots after the wait; a third stops waiting and is never seated.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, newPerson, visibleHidden } from "./support.mjs";

let server;
let browser;
const artifacts = artifactsDir();

before(async () => {
  server = await startServer(["--bot-delay-ms", "10", "--quick-play-wait-ms", "1500"]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function pressPlay(page, preset) {
  await page.goto(server.url + "/");
  await page.locator("#status[data-state=open]").waitFor();
  // Nobody waits yet: no "Stop waiting", nor anything else marked hidden, is drawn.
  assert.deepEqual(await visibleHidden(page), [], "the lobby before Play now");
  await page.selectOption("#quick-play-preset", preset);
  await page.locator("#quick-play").click();
  await page.locator("#quick-play-status", { hasText: /Waiting for players/ }).waitFor();
}

test("two people who press Play now for Spades play at one table, with bots in the other seats", async () => {
  const ada = await newPerson(browser, "Ada");
  const bo = await newPerson(browser, "Bo", "phone");
  await pressPlay(ada.page, "spades");
  await pressPlay(bo.page, "spades");
  assert.ok(await ada.page.locator("#quick-play").isDisabled(), "no second request while waiting");
  for (const p of [ada.page, bo.page]) await p.waitForURL(/#\/table\/t\d+/);
  const table = ada.page.url().match(/#\/table\/(t\d+)/)[1];
  assert.equal(bo.page.url().match(/#\/table\/(t\d+)/)[1], table);
  // The game began with them: each holds thirteen cards, and the seats show two bots.
  for (const p of [ada.page, bo.page]) {
    await p.locator(".hand button.card").first().waitFor();
    assert.equal(await p.locator(".hand [data-card]").count(), 13);
  }
  const seats = await ada.page.locator(".seat").allInnerTexts();
  assert.equal(seats.filter((s) => /Bot/.test(s)).length, 2, `two bots: ${seats}`);
  assert.ok(seats.some((s) => /Bo/.test(s)), `Bo is seated: ${seats}`);
  await ada.page.screenshot({ path: join(artifacts, "quick-play-table.png") });
  assert.deepEqual([...ada.errors, ...bo.errors], []);
  await ada.context.close();
  await bo.context.close();
});

test("stopping the wait: the player stays in the lobby and is not seated", async () => {
  const cy = await newPerson(browser, "Cy");
  await pressPlay(cy.page, "sparts");
  assert.ok(await cy.page.locator("#quick-play-cancel").isVisible(), "Stop waiting shows while waiting");
  await cy.page.locator("#quick-play-cancel").click();
  await cy.page.locator("#quick-play").and(cy.page.locator(":enabled")).waitFor();
  assert.ok(await cy.page.locator("#quick-play-cancel").isHidden(), "Stop waiting hides once stopped");
  assert.deepEqual(await visibleHidden(cy.page), [], "the lobby after stopping");
  await new Promise((r) => setTimeout(r, 2500)); // past the bots' wait
  assert.match(cy.page.url(), /\/(#\/?)?$/, "still in the lobby");
  assert.equal(await cy.page.locator("#quick-play-status").innerText(), "");
  assert.deepEqual(cy.errors, []);
  await cy.context.close();
});
