// "How to play", in Chromium against the real server: linked from the New table form and
// from the table, a page per preset with its rules and options in plain words (docs/RULES.md's),
// at 1280×800 and 390×844, clean under axe and without sideways scrolling; and the New table
// form says what the options chosen mean (the preset's line and the nil hint follow the target).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, audit, newPerson, createTable, headerButton } from "./support.mjs";

let server;
let browser;
const artifacts = artifactsDir();

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

for (const size of ["desktop", "phone"]) {
  test(`${size}: the New table form in words, How to play from the form and from the table`, async () => {
    // (axe needs the page's Content-Security-Policy bypassed: audit() injects it)
    const ada = await newPerson(browser, "Ada", size, { bypassCSP: true });
    const { page } = ada;
    await page.goto(server.url + "/");
    await page.locator("#status[data-state=open]").waitFor();
    await page.selectOption("#preset", "spades");
    const about = page.locator("#preset-about");
    assert.match(await about.innerText(), /^Partnership Spades to 500; nil is worth 100\./);
    await page.locator("details.more summary").click();
    await page.locator("#opt-target_score").fill("100");
    assert.match(await about.innerText(), /^Partnership Spades to 100; nil is worth 20\./, "the preset's line follows the target");
    assert.match(await page.locator("#hint-nil_value").innerText(), /a fifth of the target score, 20\)$/);
    await page.locator("#opt-nil_value").fill("60");
    assert.match(await about.innerText(), /nil is worth 60\./);

    await page.locator("#how-to-play").click();
    await page.waitForURL(/#\/rules\/spades$/);
    await page.getByRole("heading", { name: "How to play Spades", level: 1 }).waitFor();
    const text = await page.locator(".rules-page").innerText();
    assert.match(text, /The team contract/);
    assert.match(text, /Nil value \(nil_value\): 0 \(= 100\) here/);
    assert.doesNotMatch(text, /\[(\d{3}|R)\]|`/, "no sources, no code marks");
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(wide <= 1, `the page scrolls sideways by ${wide} px`);
    await page.screenshot({ path: join(artifacts, `how-to-play-${size}.png`) });
    await audit(page, "How to play Spades");
    // every preset has its page, reached from the one before
    for (const [name, label] of [["bga-sparts", "BGA Sparts"], ["sparts", "Sparts"], ["spartsel", "Spartsel"], ["worldwinner-spades", "WorldWinner Spades"]]) {
      await page.locator(".rules-nav").getByRole("link", { name: label, exact: true }).click();
      await page.waitForURL(new RegExp(`#/rules/${name}$`));
      await page.getByRole("heading", { name: `How to play ${label}`, level: 1 }).waitFor();
      assert.ok((await page.locator(".rules-list dt").count()) >= 5, `${name}: its rules`);
    }

    // from the table: a link to its game's page, in a tab of its own
    await createTable(page, server.url, "spartsel");
    const link = await headerButton(page, "#rules-link");
    assert.equal(await link.getAttribute("href"), "#/rules/spartsel");
    assert.equal(await link.getAttribute("target"), "_blank");
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  });
}
