// Table chat in the browser (PROTOCOL.md §21), against the real server in Chromium:
// two people at a table talk; markup arrives as text and makes no element; a
// spectator's line during the game never shows to the seats; a reload keeps the chat;
// muting a seat hides its lines; the panel is labelled and announces new lines politely.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, newPerson, createTable, audit, until, artifactsDir } from "./support.mjs";

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Types `text` into the chat and sends it; waits until the page shows its own line. */
async function say(page, text) {
  await page.locator("#chat-input").fill(text);
  await page.locator("#chat-input").press("Enter");
  await lineOn(page, text);
}

/** Waits for a chat line whose text is exactly `text`. */
async function lineOn(page, text) {
  await until(async () => (await chatTexts(page)).includes(text), `the chat line "${text}"`);
}

function chatTexts(page) {
  return page.locator("#chat .chat-line .chat-text").allTextContents();
}

/** Creates a Spades table with no bots and no turn limit (the game waits for its people), sits, and returns its id. */
async function emptyTable(page) {
  await page.goto(server.url + "/");
  await page.locator("#status[data-state=open]").waitFor();
  await page.selectOption("#preset", "spades");
  await page.selectOption("#bots", "none");
  await page.locator("#turn-seconds").fill("0");
  await page.getByRole("button", { name: "Create table and sit" }).click();
  await page.waitForURL(/#\/table\/t\d+/);
  return page.url().match(/#\/table\/(t\d+)/)[1];
}

test("two people chat at a table: markup is text, the rail is not shown to the seats, a reload keeps the chat, mute works", async () => {
  const ada = await newPerson(browser, "Ada", "desktop", { bypassCSP: true });
  const bo = await newPerson(browser, "Bo");
  const eve = await newPerson(browser, "Eve");
  const table = await emptyTable(ada.page);
  await bo.page.goto(`${server.url}/#/table/${table}`);
  await bo.page.getByRole("button", { name: "Sit in seat 2" }).click();
  await ada.page.getByRole("button", { name: "Add bot to seat 3" }).click();
  await ada.page.getByRole("button", { name: "Add bot to seat 4" }).click();
  await eve.page.goto(`${server.url}/#/table/${table}?watch=1`);
  await eve.page.locator(".log li", { hasText: "You are watching" }).first().waitFor();

  // The panel: a labelled input, and a list that announces new lines politely.
  const list = ada.page.locator("#chat .chat-lines");
  assert.equal(await list.getAttribute("aria-live"), "polite");
  assert.equal(await ada.page.getByLabel("Say to the table").count(), 1);

  // Markup arrives as typed, and is shown as text: no element is made of it, no script runs.
  const markup = `<b>bold</b> <img src=x onerror="window.__xss=1"> <script>window.__xss=2</script>`;
  await say(ada.page, markup);
  for (const p of [ada.page, bo.page, eve.page]) {
    await lineOn(p, markup);
    assert.equal(await p.locator("#chat .chat-lines b, #chat .chat-lines img, #chat .chat-lines script").count(), 0);
    assert.equal(await p.evaluate(() => window.__xss), undefined);
  }
  assert.ok((await ada.page.locator("#chat .chat-line").first().textContent()).startsWith("You (seat 1): "));
  assert.ok((await bo.page.locator("#chat .chat-line").first().textContent()).startsWith("Ada (seat 1): "));
  await say(bo.page, "hi Ada");
  await lineOn(ada.page, "hi Ada");

  // The game starts: the rail talks to itself.
  await ada.page.locator("#start").click();
  await ada.page.locator(".hand .card").first().waitFor();
  await until(async () => (await eve.page.locator("label[for=chat-input]").textContent()).includes("the players do not see it"),
    "the spectator's label to say the rail talks to itself");
  await say(eve.page, "psst: lead your spades");
  await say(bo.page, "marker one");
  await lineOn(ada.page, "marker one");
  await lineOn(eve.page, "marker one");
  for (const p of [ada.page, bo.page]) assert.ok(!(await chatTexts(p)).includes("psst: lead your spades"));

  // A reload keeps the chat, as the seat may see it.
  await bo.page.reload();
  await lineOn(bo.page, "marker one");
  assert.deepEqual(await chatTexts(bo.page), [markup, "hi Ada", "marker one"]);
  assert.equal(await bo.page.locator("#chat .chat-lines b, #chat .chat-lines img").count(), 0);

  // Ada mutes Bo: what Bo says no longer shows to her, and does to the spectator.
  const muteBo = ada.page.getByRole("button", { name: "Mute Bo" });
  await muteBo.click();
  await until(async () => (await muteBo.getAttribute("aria-pressed")) === "true", "the mute pressed");
  await say(bo.page, "can you hear me");
  await lineOn(eve.page, "can you hear me");
  await say(ada.page, "marker two");
  await lineOn(bo.page, "marker two");
  assert.ok(!(await chatTexts(ada.page)).includes("can you hear me"));
  // Unmuted, Bo is heard again.
  await muteBo.click();
  await until(async () => (await muteBo.getAttribute("aria-pressed")) === "false", "the mute released");
  await say(bo.page, "back again");
  await lineOn(ada.page, "back again");

  await ada.page.screenshot({ path: join(artifactsDir(), "chat-desktop.png") });
  await audit(ada.page, "the table with its chat");
  for (const person of [ada, bo, eve]) {
    assert.deepEqual(person.errors, []);
    await person.context.close();
  }
});

test("on a phone the chat opens over the table and closes again", async () => {
  const ada = await newPerson(browser, "Ada", "phone");
  await createTable(ada.page, server.url, "spades");
  const panel = ada.page.locator("#chat");
  assert.equal(await panel.isVisible(), false);
  await ada.page.getByRole("button", { name: "Chat" }).click();
  await panel.waitFor({ state: "visible" });
  await say(ada.page, "from a phone");
  await ada.page.screenshot({ path: join(artifactsDir(), "chat-phone.png") });
  await ada.page.getByRole("button", { name: "Close chat" }).click();
  await panel.waitFor({ state: "hidden" });
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});
