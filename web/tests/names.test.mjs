// End-to-end, in Chromium against the real server: names as a person reads them. Two
// players who both chose "Ada" are told apart everywhere (the start of each one's
// player id), and each sees "(you)" only at their own seat, at the table and in the
// lobby's list; a table where you are not never says you. After your game is over,
// the lobby says so, not that you hold a seat in a game, and offers to leave the table.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, newPerson, createTable, playThrough, until } from "./support.mjs";

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

const rowSeats = (page, table) => page.locator(`tr[data-table=${table}] td`).nth(2).innerText();

test("two players named Ada: each is told apart and marked (you) only at their own seat", async () => {
  const first = await newPerson(browser, "Ada");
  const second = await newPerson(browser, "Ada", "phone");
  const table = await createTable(first.page, server.url, "spades", {}, null, "none");
  const ids = [await first.page.evaluate(() => window.sparts.app.client.player)];
  // the second Ada, in the lobby: the first one's table lists "Ada", not "Ada (you)"
  await second.page.goto(server.url + "/");
  await second.page.locator("#status[data-state=open]").waitFor();
  ids.push(await second.page.evaluate(() => window.sparts.app.client.player));
  await second.page.getByRole("button", { name: `Join ${table}` }).waitFor();
  assert.equal(await rowSeats(second.page, table), "Ada, empty, empty, empty");
  await second.page.getByRole("button", { name: `Join ${table}` }).click();
  await second.page.waitForURL(new RegExp(`#/table/${table}`));
  const tag = (id) => `Ada #${id.slice(1, 5)}`;
  // at the table, each sees both, told apart, and itself as (you)
  for (const [i, person] of [first, second].entries()) {
    const names = new Set([tag(ids[i]) + " (you)", tag(ids[1 - i])]);
    await until(async () => {
      const shown = await person.page.locator(".seat .seat-name").allInnerTexts();
      return shown.filter((x) => names.has(x.split(" · ")[0])).length === 2 || shown.join(" | ");
    }, `Ada ${i + 1}'s table shows both Adas told apart`);
  }
  await first.page.screenshot({ path: join(artifacts, "names-two-adas.png") });
  // and so does the lobby's list, for each of them
  await first.page.goto(server.url + "/");
  await until(async () => (await rowSeats(first.page, table).catch(() => "")) === `${tag(ids[0])} (you), ${tag(ids[1])}, empty, empty`
    || (await rowSeats(first.page, table).catch(() => "")), "the lobby's row, from the first Ada");
  assert.deepEqual([...first.errors, ...second.errors], []);
  await first.context.close();
  await second.context.close();
});

test("after your game is over, the lobby says so and offers to leave the table, not to go back to your seat in a game", async () => {
  const ada = await newPerson(browser, "Ada");
  const { page } = ada;
  // a short game (one hand of five tricks) with bots in the other seats
  const table = await createTable(page, server.url, "spartsel", { hands: 1, hand_size: 5 }, null, "basic");
  await page.locator("#start:enabled").click();
  await playThrough(page);
  await page.getByRole("link", { name: "Lobby" }).click();
  const line = page.locator(".your-game", { hasText: `table ${table}` });
  await line.waitFor();
  assert.equal(await line.getAttribute("data-over"), "true");
  assert.match(await line.innerText(), new RegExp(`^Your game at table ${table} is over; you keep seat 1 for another\\.`));
  assert.doesNotMatch(await page.locator(".tables").innerText(), /You hold seat/);
  await page.screenshot({ path: join(artifacts, "names-game-over-lobby.png") });
  await line.getByRole("button", { name: "Leave the table" }).click();
  await line.waitFor({ state: "detached" });
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});
