// End-to-end, in Chromium against the real server: the lobby's table list a page
// at a time. A host with many open tables used to send them all to every lobby,
// and past the write queue every lobby client was closed before any answer; the
// list now comes in pages of 20 with Previous and Next, and a filter by game and
// table size, at 1280×800 and 390×844.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, newPerson, until } from "./support.mjs";

let server;
let browser;
const artifacts = artifactsDir();

before(async () => {
  server = await startServer(["--tables-per-player", "100", "--tables-per-address", "100", "--messages-per-second", "1000"]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function lobby(person) {
  await person.page.goto(server.url + "/");
  await person.page.locator("#status[data-state=open]").waitFor();
  await person.page.locator("#tables-shown").waitFor();
}

test("45 open tables: the lobby shows them 20 at a time, pages forward and back, and filters by game and size", async () => {
  const host = await newPerson(browser, "Host");
  await host.page.goto(server.url + "/");
  await host.page.locator("#status[data-state=open]").waitFor();
  // 42 Spades tables and 3 five-seat Sparts tables, made through the page's own client.
  const made = await host.page.evaluate(async () => {
    const ids = [];
    for (let i = 0; i < 42; i++) ids.push((await window.sparts.client.createTable({ preset: "spades" })).table);
    for (let i = 0; i < 3; i++) ids.push((await window.sparts.client.createTable({ preset: "sparts", options: { seats: 5 } })).table);
    return ids;
  });
  assert.equal(made.length, 45);

  for (const size of ["desktop", "phone"]) {
    const ada = await newPerson(browser, "Ada", size);
    await lobby(ada);
    const shown = ada.page.locator("#tables-shown");
    const rows = ada.page.locator(".tables tbody tr");
    assert.match(await shown.innerText(), /Tables 1–20 of 45/);
    assert.equal(await rows.count(), 20);
    assert.equal(await rows.first().getAttribute("data-table"), made[0]);
    assert.ok(await ada.page.locator("#tables-previous").isDisabled(), "no page before the first");
    // Nobody waits in quick play: its Stop waiting button is not shown (it used to show, hidden or not).
    assert.ok(await ada.page.locator("#quick-play").isVisible());
    assert.ok(!(await ada.page.locator("#quick-play-cancel").isVisible()), "Stop waiting hidden while not waiting");
    // What a person sees: the top of the lobby, then the pager scrolled to.
    await ada.page.screenshot({ path: join(artifacts, `lobby-pages-${size}.png`) });
    await ada.page.locator("#tables-shown").scrollIntoViewIfNeeded();
    await ada.page.screenshot({ path: join(artifacts, `lobby-pager-${size}.png`) });

    await ada.page.locator("#tables-next").click();
    await shown.filter({ hasText: /Tables 21–40 of 45/ }).waitFor();
    assert.equal(await rows.first().getAttribute("data-table"), made[20]);
    await ada.page.locator("#tables-next").click();
    await shown.filter({ hasText: /Tables 41–45 of 45/ }).waitFor();
    assert.equal(await rows.count(), 5);
    assert.ok(await ada.page.locator("#tables-next").isDisabled(), "no page after the last");
    // The list refreshes every five seconds: it stays on this page.
    await new Promise((r) => setTimeout(r, 5500));
    assert.match(await shown.innerText(), /Tables 41–45 of 45/);
    await ada.page.locator("#tables-previous").click();
    await shown.filter({ hasText: /Tables 21–40 of 45/ }).waitFor();

    // The filter: Sparts only (three tables, one page: no pager), then five seats, then Spades of four.
    await ada.page.selectOption("#tables-preset", "sparts");
    await rows.nth(2).waitFor();
    await ada.page.locator(".pager:empty").waitFor({ state: "attached" });
    assert.equal(await rows.count(), 3);
    assert.equal(await ada.page.locator("#tables-next").count(), 0);
    assert.deepEqual(await rows.evaluateAll((rs) => rs.map((r) => r.dataset.table)), made.slice(42));
    await ada.page.locator("#tables-preset").scrollIntoViewIfNeeded();
    await ada.page.screenshot({ path: join(artifacts, `lobby-filter-${size}.png`) });
    await ada.page.selectOption("#tables-preset", "");
    await ada.page.selectOption("#tables-seats", "5");
    await shown.or(ada.page.locator(".pager:empty")).first().waitFor({ state: "attached" });
    // Polled from here: the page's CSP forbids the eval that page.waitForFunction needs once it has to wait.
    await until(async () => (await rows.count()) === 3, "three five-seat tables listed");
    await ada.page.selectOption("#tables-seats", "4");
    await shown.filter({ hasText: /Tables 1–20 of 42/ }).waitFor();
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  }
  await host.context.close();
});
