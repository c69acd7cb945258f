// The web client under a path of a site, behind Debian's nginx with the shipped
// deploy/nginx/sparts-subpath.conf (its listen and TLS lines made local): a
// person opens http://…/cards, plays at a table (the WebSocket through
// cards/ws), sees the finished games and replays one (the archive through
// cards/api/…), and nothing the page asks for leaves the path. Metrics and the
// admin API are not reachable through it.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, newPerson, playBotGame, rawGet, repo, until } from "./support.mjs";

let server;
let browser;
let nginx;
const artifacts = artifactsDir();

function freePort() {
  return new Promise((resolvePort) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolvePort(port));
    });
  });
}

/** Debian's nginx with the shipped sub-path file, in front of `serverPort`. */
async function startNginx(serverPort) {
  const dir = mkdtempSync(join(tmpdir(), "sparts-nginx-"));
  const port = await freePort();
  const site = readFileSync(join(repo, "deploy/nginx/sparts-subpath.conf"), "utf8")
    .replace(/server 127\.0\.0\.1:8080;/, `server 127.0.0.1:${serverPort};`)
    .replace(/listen 443 ssl http2;/, `listen 127.0.0.1:${port};`)
    .replace(/^\s*ssl_\w+ .*$/gm, "")
    .replace(/\/var\/log\/nginx\/access\.log/g, join(dir, "access.log"));
  // (whole words: a free port such as 44333 holds "443" and is local all the same)
  assert.doesNotMatch(site.replace(/#.*$/gm, ""), /\b8080\b|\b443\b|\bssl/, "the test's copy is local");
  writeFileSync(join(dir, "site.conf"), site);
  writeFileSync(join(dir, "nginx.conf"), `${process.getuid?.() === 0 ? "user root;" : ""}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 256; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`);
  execFileSync("nginx", ["-t", "-q", "-p", dir, "-c", join(dir, "nginx.conf")]);
  const child = spawn("nginx", ["-p", dir, "-c", join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr.on("data", (d) => (err += d));
  await until(async () => (await rawGet(port, "/cards/").catch(() => null))?.status === 200, `nginx on ${port} ${err}`, 20000);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r() : child.on("exit", r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

before(async () => {
  server = await startServer();
  nginx = await startNginx(server.port);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await nginx?.stop();
  await server?.stop();
});

test("under https://…/cards/ behind nginx: the lobby, a table, the finished games and a replay, every request under the path", async () => {
  const { table: finished } = await playBotGame(server, "spartsel", { seats: 4, hands: 1 });
  const ada = await newPerson(browser, "Ada");
  const asked = [];
  ada.page.on("request", (r) => asked.push(r.url()));
  ada.page.on("websocket", (ws) => asked.push(ws.url()));

  // The address without its slash is sent to the one with it.
  await ada.page.goto(`${nginx.url}/cards`);
  assert.equal(ada.page.url(), `${nginx.url}/cards/`);
  await ada.page.locator("#status[data-state=open]").waitFor();
  const replay = ada.page.getByRole("link", { name: `Replay ${finished} game 1` });
  await replay.waitFor();
  await ada.page.screenshot({ path: join(artifacts, "subpath-lobby.png") });

  await replay.click();
  await ada.page.locator("#replay-step").waitFor();
  await until(async () => (await ada.page.locator(".replay-seat .card").count()) > 0, "the replay's hands");

  await ada.page.goto(`${nginx.url}/cards/#/`);
  await ada.page.locator("#status[data-state=open]").waitFor();
  await ada.page.selectOption("#preset", "spades");
  await ada.page.getByRole("button", { name: "Create table and sit" }).click();
  await ada.page.waitForURL(/#\/table\/t\d+/);
  await ada.page.locator("#start").click();
  await ada.page.locator(".hand button.card").first().waitFor();
  await ada.page.screenshot({ path: join(artifacts, "subpath-table.png") });

  // (but for the address typed, without its slash)
  const outside = asked.filter((u) => u !== `${nginx.url}/cards`).filter((u) => !u.startsWith(`${nginx.url}/cards/`) && !u.startsWith(`${nginx.url.replace("http", "ws")}/cards/`));
  assert.deepEqual(outside, [], "every request of the page stays under /cards/");
  assert.ok(asked.includes(`${nginx.url.replace("http", "ws")}/cards/ws`), `the WebSocket through cards/ws: ${asked.filter((u) => u.startsWith("ws"))}`);
  assert.ok(asked.some((u) => u.startsWith(`${nginx.url}/cards/api/games`)), "the archive through cards/api/");
  assert.deepEqual(ada.errors, []);
  await ada.context.close();

  // The operator's endpoints are not the public's, prefixed or not.
  for (const path of ["/cards/metrics", "/cards/admin/tables", "/metrics", "/ws", "/api/games"]) {
    const r = await rawGet(nginx.port, path);
    assert.equal(r.status, 404, `${path} through nginx: ${r.status}`);
  }
});
