// End-to-end, in Chromium against the real server: a host's own login. The host's
// site sends the player to the web client with ?login=<JWT>; the page says hello
// with it (the player is the host's account, with the host's name), takes it off
// the address bar, and keeps it for the tab across a reload. An expired login is
// refused in words. The JWT is made here with Node's crypto (HS256).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, launchBrowser, newPerson } from "./support.mjs";

const SECRET = "the host's secret, at least 32 bytes long";
let server;
let browser;

function b64url(text) {
  return Buffer.from(text).toString("base64url");
}

function jwt(claims) {
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(JSON.stringify(claims));
  const sig = createHmac("sha256", SECRET).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${sig}`;
}

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), "sparts-login-"));
  writeFileSync(join(dir, "secret"), SECRET);
  server = await startServer(["--login-algorithm", "HS256", "--login-secret-file", join(dir, "secret")]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("the host's ?login= makes the player its account, off the address bar, kept across a reload", async () => {
  const ada = await newPerson(browser, "Typed name");
  const { page } = ada;
  const hellos = [];
  page.on("websocket", (ws) => ws.on("framesent", (f) => {
    const m = JSON.parse(String(f.payload).split("\n")[0]);
    if (m.type === "hello") hellos.push(m);
  }));
  const login = jwt({ sub: "host-user-7", name: "Ada Lovelace", exp: Math.floor(Date.now() / 1000) + 600 });
  await page.goto(`${server.url}/?login=${login}`);
  await page.locator("#status[data-state=open]").waitFor();
  assert.ok(!page.url().includes("login="), `the login is off the address bar: ${page.url()}`);
  assert.equal(hellos.at(-1).login, login);
  assert.equal(hellos.at(-1).token, undefined);
  const player = await page.evaluate(() => window.sparts?.client?.player ?? null);
  await page.reload();
  await page.locator("#status[data-state=open]").waitFor();
  assert.equal(hellos.at(-1).login, login, "the tab keeps its login");
  if (player) assert.equal(await page.evaluate(() => window.sparts.client.player), player);
  assert.match(await page.locator("#who").innerText(), /Ada Lovelace/);
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("an expired login is refused in words", async () => {
  const bo = await newPerson(browser, "Bo");
  const { page } = bo;
  await page.goto(`${server.url}/?login=${jwt({ sub: "host-user-8", exp: Math.floor(Date.now() / 1000) - 3600 })}`);
  await page.getByText("Your login has expired").first().waitFor();
  await bo.context.close();
});
