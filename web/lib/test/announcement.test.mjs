// The server operator's side as a client sees it (the admin API): announcements,
// and a ban's close code, which ends the reconnecting.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { SpartsClient } from "../client.js";
import { FakeSocket, MemoryStorage } from "../tools/fake-socket.mjs";

beforeEach(() => FakeSocket.reset());

function makeClient() {
  return new SpartsClient({
    url: "ws://test/ws", name: "Ada", WebSocket: FakeSocket, storage: new MemoryStorage(), heartbeatMs: 0,
    random: () => 0.5, backoff: { initialMs: 5, maxMs: 40 },
  });
}

async function connected(client) {
  const p = client.connect();
  const ws = FakeSocket.last;
  ws.serverOpen();
  const hello = ws.lastSent("hello");
  ws.serverSend({ type: "ok", re: "hello", id: hello.id, protocol: 1, player: "p0000000000000001", name: "Ada", seats: [], token: "a".repeat(32) });
  await p;
  return ws;
}

test("an announcement is emitted as it came, in a batch too, and touches no table", async () => {
  const client = makeClient();
  const ws = await connected(client);
  const heard = [];
  const events = [];
  client.on("announcement", (m) => heard.push(m));
  client.on("event", (m) => events.push(m));
  const one = { type: "announcement", text: "Restart at 22:00 <b>UTC</b>", at: 1767225600000 };
  ws.serverSend(one);
  const two = { type: "announcement", text: "Back soon", at: 1767225601000 };
  ws.serverSend({ type: "ok", re: "ping", id: 999 }, two);
  assert.deepEqual(heard, [one, two]);
  assert.deepEqual(events, []);
  assert.equal(client.models.size, 0);
  client.close();
});

test("a close with code 4006 (banned) ends the reconnecting, with the error banned", async () => {
  const client = makeClient();
  const ws = await connected(client);
  const statuses = [];
  const closings = [];
  client.on("status", (s) => statuses.push(s));
  client.on("closing", (m) => closings.push(m));
  ws.serverSend({ type: "closing", reason: "banned" });
  ws.serverDrop(4006);
  // Longer than every backoff: no new connection is tried.
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(FakeSocket.all.length, 1);
  assert.deepEqual(closings, [{ type: "closing", reason: "banned" }]);
  assert.equal(client.status, "closed");
  assert.equal(statuses.at(-1).error.code, "banned");
  assert.ok(!statuses.some((s) => s.status === "reconnecting"));
});

test("another close code still reconnects", async () => {
  const client = makeClient();
  const ws = await connected(client);
  ws.serverDrop(4002);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(FakeSocket.all.length, 2);
  client.close();
});
