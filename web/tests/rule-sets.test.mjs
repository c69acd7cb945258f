// End-to-end, in Chromium against the real server: the host's named rule sets
// (--rule-sets, docs/OPERATING.md). The New table form offers them first and starts
// at the first; the line under it says what the rule set is; a table made from it
// shows the rule set's label as its game, and its options; quick play offers the
// rule sets too. Screenshots at 1280×800 and 390×844 go to the artifacts.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { startServer, launchBrowser, artifactsDir, newPerson } from "./support.mjs";

let server;
let browser;
const artifacts = artifactsDir();

before(async () => {
  const file = join(mkdtempSync(join(tmpdir(), "sparts-rule-sets-")), "rule-sets.json");
  writeFileSync(file, JSON.stringify([
    { name: "street-spades", label: "Street Spades",
      ruleset: { preset: "spades", options: { joker_deck: "jjdd", min_side_bid: 4, ten_for_two_hundred: true, target_score: 350 } } },
    { name: "hearts-50", label: "Hearts to 50", ruleset: { preset: "hearts", options: { target_score: 50 } } },
  ]));
  server = await startServer(["--bot-delay-ms", "10", "--rule-sets", file]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

for (const size of ["desktop", "phone"]) {
  test(`${size}: the host's rule sets come first, and a table made from one is called by its name`, async () => {
    const { context, page, errors } = await newPerson(browser, `Rae ${size}`, size);
    await page.goto(server.url + "/");
    await page.locator("#status[data-state=open]").waitFor();
    // The form starts at the first rule set, once the hello has said what they are.
    await page.locator("#preset optgroup").first().waitFor({ state: "attached" });
    assert.equal(await page.locator("#preset").inputValue(), "set:street-spades");
    assert.deepEqual(await page.locator("#preset optgroup").first().locator("option").allInnerTexts(), ["Street Spades", "Hearts to 50"]);
    assert.match(await page.locator("#preset-about").innerText(), /^Street Spades: Spades, /);
    await page.locator("details.more summary").click();
    assert.equal(await page.locator("#opt-joker_deck").inputValue(), "jjdd");
    assert.equal(await page.locator("#opt-target_score").inputValue(), "350");
    assert.deepEqual((await page.locator("#quick-play-preset optgroup").first().locator("option").allInnerTexts()), ["Street Spades", "Hearts to 50"]);
    await page.screenshot({ path: join(artifacts, `rule-sets-form-${size}.png`) });
    await page.getByRole("button", { name: "Create table and sit" }).click();
    await page.waitForURL(/#\/table\/t\d+/);
    await page.locator("h1", { hasText: "Street Spades" }).waitFor();
    const info = await page.evaluate(() => window.sparts.app.view.state.info);
    assert.deepEqual(info.rule_set, { name: "street-spades", label: "Street Spades" });
    assert.deepEqual(info.ruleset, { preset: "spades", options: { joker_deck: "jjdd", min_side_bid: 4, ten_for_two_hundred: true, target_score: 350 } });
    await page.screenshot({ path: join(artifacts, `rule-sets-table-${size}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}
