// End-to-end, in Chromium against the real server: quick play. Its terms (the
// table's turn time, the wait for bots) are said before anyone presses; two people
// press "Play now" for the same game, see the wait counted down, and land at one
// table whose game has begun, the empty seats taken by bots after the wait; a
// third stops waiting and is never seated.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, newPerson, visibleHidden } from "./support.mjs";

let server;
let browser;
const artifacts = artifactsDir();

before(async () => {
  server = await startServer(["--bot-delay-ms", "10", "--quick-play-wait-ms", "4000", "--turn-seconds", "45"]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function openLobby(page) {
  await page.goto(server.url + "/");
  await page.locator("#status[data-state=open]").waitFor();
}

async function pressPlay(page, preset) {
  // Nobody waits yet: no "Stop waiting", nor anything else marked hidden, is drawn.
  assert.deepEqual(await visibleHidden(page), [], "the lobby before Play now");
  // What quick play will do is said before pressing: the table's turn time, the wait for bots.
  assert.match(await page.locator("#quick-play-terms").innerText(), /at a table with 45 s a turn; bots take the seats nobody came for after 4 s\./);
  await page.selectOption("#quick-play-preset", preset);
  await page.locator("#quick-play").click();
  await page.locator("#quick-play-status", { hasText: /Waiting for players \(\d+ waiting\), for a table with 45 s a turn\./ }).waitFor();
  // and the wait is counted down
  const left = Number(await page.locator("#quick-play-countdown").getAttribute("data-left"));
  assert.ok(left >= 1 && left <= 4, `seconds to the bots: ${left}`);
  assert.match(await page.locator("#quick-play-countdown").innerText(), /^Bots take the empty seats in [1-4] s\.$/);
}

test("two people who press Play now for Spades play at one table, with bots in the other seats", async () => {
  const ada = await newPerson(browser, "Ada");
  const bo = await newPerson(browser, "Bo", "phone");
  // both in the lobby first: the second presses within the wait
  await openLobby(ada.page);
  await openLobby(bo.page);
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
  assert.match(await ada.page.locator(".table-head .muted").innerText(), /45 s a turn/, "the turn time said before");
  await ada.page.screenshot({ path: join(artifacts, "quick-play-table.png") });
  assert.deepEqual([...ada.errors, ...bo.errors], []);
  await ada.context.close();
  await bo.context.close();
});

test("stopping the wait: the player stays in the lobby and is not seated", async () => {
  const cy = await newPerson(browser, "Cy");
  await openLobby(cy.page);
  await pressPlay(cy.page, "sparts");
  assert.ok(await cy.page.locator("#quick-play-cancel").isVisible(), "Stop waiting shows while waiting");
  await cy.page.locator("#quick-play-cancel").click();
  await cy.page.locator("#quick-play").and(cy.page.locator(":enabled")).waitFor();
  assert.ok(await cy.page.locator("#quick-play-cancel").isHidden(), "Stop waiting hides once stopped");
  assert.deepEqual(await visibleHidden(cy.page), [], "the lobby after stopping");
  assert.equal(await cy.page.locator("#quick-play-countdown").innerText(), "", "no countdown once stopped");
  await new Promise((r) => setTimeout(r, 4500)); // past the bots' wait
  assert.match(cy.page.url(), /\/(#\/?)?$/, "still in the lobby");
  assert.equal(await cy.page.locator("#quick-play-status").innerText(), "");
  assert.deepEqual(cy.errors, []);
  await cy.context.close();
});
