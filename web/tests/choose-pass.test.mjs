// End-to-end: the 7-of-diamonds choice and passing, in Chromium against the real
// server. Bots play slowly here (a second a move), so that a second person can
// take over the seat of whichever bot holds the seven of diamonds before it
// chooses: the choice is then always made in a browser, by clicking.
// Then everyone passes: the cards are selected by clicking (and with the
// keyboard), the page says where they go, and they leave the hand.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, until } from "./support.mjs";

let server;
let browser;

before(async () => {
  // (bots slow enough for a person to take over the chooser's seat before it chooses, on a loaded machine too)
  server = await startServer(["--bot-delay-ms", "2500"]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function named(name, viewport = { width: 1100, height: 850 }) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript((n) => localStorage.setItem("sparts.name", n), name);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  return { context, page, errors };
}

test("bga-sparts at a private table: an invite link lets a friend in; the holder of the seven of diamonds chooses Hearts; cards are passed by clicking", async () => {
  const ada = await named("Ada");
  await ada.page.goto(server.url + "/");
  await ada.page.locator("#status[data-state=open]").waitFor();
  await ada.page.selectOption("#preset", "bga-sparts");
  assert.match(await ada.page.locator("#preset-about").innerText(), /seven of diamonds/);
  await ada.page.locator("#private").check();
  await ada.page.getByRole("button", { name: "Create table and sit" }).click();
  await ada.page.waitForURL(/#\/table\/t\d+\?invite=[0-9a-f]{12}$/);
  const table = ada.page.url().match(/#\/table\/(t\d+)/)[1];
  const invite = await ada.page.locator(".invite-link").inputValue();
  assert.match(invite, /\?invite=[0-9a-f]{12}$/);

  // the private table is not listed; without the code it cannot be watched
  const cy = await named("Cy");
  await cy.page.goto(`${server.url}/#/table/${table}`);
  await cy.page.getByText("The invite code is wrong.").first().waitFor();
  // Cy opens the invite link and watches, ready to take over the chooser's seat
  await cy.page.goto(invite);
  await cy.page.reload();
  await cy.page.locator(".log li", { hasText: "You are watching" }).first().waitFor();

  await ada.page.locator("#start").click();
  // the chooser: Ada, or a bot whose seat Cy takes at once
  const chooserLine = cy.page.locator(".log li", { hasText: "holds the seven of diamonds" });
  await chooserLine.waitFor();
  const text = await chooserLine.innerText();
  let chooser = ada;
  if (!/^Ada/.test(text)) {
    const seat = Number(text.match(/^Bot (\d+)/)[1]);
    await cy.page.getByRole("button", { name: `Take over seat ${seat}` }).click();
    chooser = cy;
  }
  const choose = chooser.page.getByRole("group", { name: "Choose the game" });
  await choose.waitFor();
  assert.match(await choose.innerText(), /seven of diamonds/);
  await choose.getByRole("button", { name: "Hearts" }).click();

  // passing: both people pass 4 cards (sparts hearts mode), bots pass by themselves
  const people = chooser === cy ? [ada, cy] : [ada];
  for (const p of people) {
    const group = p.page.getByRole("group", { name: "Pass cards" });
    await group.waitFor();
    assert.match(await group.innerText(), /Choose 4 cards to pass to .+ \((to the left|to the right|across)\)/);
    const pass = p.page.locator("#pass");
    assert.ok(await pass.isDisabled(), "the pass button waits for 4 cards");
    const cards = p.page.locator(".hand button.card");
    assert.equal(await cards.count(), 13);
    const chosen = [];
    for (let i = 0; i < 4; i++) {
      const card = cards.nth(i * 3);
      chosen.push(await card.getAttribute("data-card"));
      if (i % 2) await card.click();
      else {
        await card.focus();
        await p.page.keyboard.press("Enter");
      }
      await p.page.locator(`.hand [data-card="${chosen[i]}"][aria-pressed=true]`).waitFor();
    }
    // a fifth card cannot be added; one can be put back and another chosen
    await cards.nth(1).click();
    assert.equal(await p.page.locator(".hand [aria-pressed=true]").count(), 4);
    const names = await p.page.locator(".pass-list").innerText();
    assert.match(names, /^To .+: \w+ of \w+, /);
    if (p === ada) await p.page.screenshot({ path: join(artifactsDir(), "passing.png"), fullPage: true });
    await pass.click();
    await pass.waitFor({ state: "detached" });
    const after = await p.page.locator(".hand [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card));
    for (const c of chosen) assert.ok(!after.includes(c), `${c} left the hand`);
  }
  // once everyone has passed, the cards received arrive: 13 again, and the play begins
  for (const p of people) {
    await until(async () => (await p.page.locator(".hand [data-card]").count()) === 13, "13 cards in the hand again");
    await p.page.locator(".log li", { hasText: /receives .+ from/ }).first().waitFor();
  }
  for (const p of [ada, cy]) {
    assert.deepEqual(p.errors, []);
    await p.context.close();
  }
});
