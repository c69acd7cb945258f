// The client library's example bot (lib/examples/bot.mjs), run as a program against the real
// server: it creates a table, fills it with server bots, plays a whole game and exits.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { startServer } from "./support.mjs";

let server;
before(async () => {
  server = await startServer(["--bot-delay-ms", "1"]);
});
after(async () => {
  await server?.stop();
});

test("the example bot plays a whole game against the real server, paced under the rate limit", async () => {
  const ws = server.url.replace(/^http/, "ws") + "/ws";
  const child = spawn(process.execPath, ["--experimental-websocket", "lib/examples/bot.mjs", ws, "spades", "1"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const code = await new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 120000);
    child.on("exit", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  assert.equal(code, 0, out);
  assert.match(out, /game over|won|Game over/i, out);
  assert.doesNotMatch(out, /rate_limited/, out);
});
