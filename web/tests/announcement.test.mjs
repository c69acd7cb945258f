// The server operator's announcement (the admin API's POST /admin/broadcast) in the
// browser: a banner in a role=status region, its text shown as text (never markup),
// over the lobby and the table alike, gone when dismissed; and a ban's close, which
// stops the reconnecting and says so. Against the real server, in Chromium.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, mkdtempSync, rmSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "node:http";
import { startServer, launchBrowser, newPerson, createTable, audit, until } from "./support.mjs";

const TOKEN = "4b7e1f0c9d2a83e65f1c0b9a8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e";
let dir;
let server;
let browser;

/** An admin API request with the token; resolves with {status, body}. */
function admin(method, path, body) {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? "" : JSON.stringify(body);
    const req = request({
      host: "127.0.0.1", port: server.port, path, method,
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) },
    }, (res) => {
      let out = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (out += d));
      res.on("end", () => resolve({ status: res.statusCode, body: out ? JSON.parse(out) : null }));
    });
    req.on("error", reject);
    req.end(text);
  });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "sparts-web-admin-"));
  const file = join(dir, "admin-token");
  writeFileSync(file, TOKEN + "\n");
  chmodSync(file, 0o600);
  server = await startServer(["--admin-token-file", file]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("an announcement shows in a status banner as plain text, over the lobby and the table, until dismissed", async () => {
  const ada = await newPerson(browser, "Ada", "phone", { bypassCSP: true });
  const { page } = ada;
  await page.goto(server.url + "/");
  await page.locator("#status[data-state=open]").waitFor();
  const region = page.locator("#announcement");
  assert.equal(await region.getAttribute("role"), "status");
  assert.equal(await region.locator(".announcement").count(), 0);

  const text = "Restart at 22:00 <b>UTC</b> & <img src=x onerror=alert(1)>";
  const sent = await admin("POST", "/admin/broadcast", { text });
  assert.equal(sent.status, 200);
  assert.equal(sent.body.connections, 1);
  const banner = region.locator(".announcement");
  await banner.waitFor();
  assert.ok((await banner.textContent()).includes(text), await banner.textContent());
  assert.equal(await banner.locator("b, img").count(), 0);  // data, not markup
  await audit(page, "the lobby with an announcement");

  // A newer one replaces it; on the table page too.
  await createTable(page, server.url, "sparts");
  await admin("POST", "/admin/broadcast", { text: "Second notice" });
  await until(async () => (await region.textContent()).includes("Second notice"), "the second announcement");
  assert.equal(await region.locator(".announcement").count(), 1);
  await audit(page, "the table with an announcement");
  await page.getByRole("button", { name: "Dismiss the announcement" }).click();
  assert.equal(await region.locator(".announcement").count(), 0);
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("a banned player's page stops reconnecting and says it is banned", async () => {
  const bo = await newPerson(browser, "Bo");
  const { page } = bo;
  await page.goto(server.url + "/");
  await page.locator("#status[data-state=open]").waitFor();
  const player = await page.evaluate(() => window.sparts.client.player);
  const banned = await admin("POST", "/admin/bans", { player, reason: "testing" });
  assert.equal(banned.status, 200);
  assert.equal(banned.body.connections_closed, 1);
  await page.locator("#status[data-state=closed]").waitFor();
  assert.equal(await page.locator("#status").textContent(), "Banned");
  await until(async () => (await page.locator("#toast").textContent()) === "You are banned from this server.", "the toast");
  // And it stays so: no connection is tried again.
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(await page.evaluate(() => window.sparts.client.status), "closed");
  assert.equal((await admin("DELETE", `/admin/bans/${player}`)).status, 200);
  assert.deepEqual(bo.errors, []);
  await bo.context.close();
});
