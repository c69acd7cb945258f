// The client library's example bot (lib/examples/bot.mjs), run as a program against the real
// server: it creates a table, fills it with server bots, plays a whole game and exits.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, playBotGame } from "./support.mjs";

let server;
before(async () => {
  server = await startServer(["--bot-delay-ms", "1"]);
});
after(async () => {
  await server?.stop();
});

test("the example bot plays a whole game against the real server, paced under the rate limit", async () => {
  // (playBotGame runs lib/examples/bot.mjs as a program, and fails on its exit code)
  const { output } = await playBotGame(server, "spades");
  assert.match(output, /game over|won|Game over/i, output);
  assert.doesNotMatch(output, /rate_limited/, output);
});
