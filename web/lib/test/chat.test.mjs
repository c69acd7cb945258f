// Table chat in the client library (PROTOCOL.md §21): chat() and mute(), the
// model's chat lines (bounded, replaced by a chat_history), and chat kept apart
// from the seq stream.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { SpartsClient } from "../client.js";
import { TableModel, CHAT_LINES } from "../table-model.js";
import { FakeSocket, MemoryStorage, tick } from "../tools/fake-socket.mjs";

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

const info = {
  table: "t1", ruleset: { preset: "spades", options: {} },
  seats: [{ player: "p0000000000000001", name: "Ada" }, { player: "p0000000000000002", name: "Bo" }, null, null],
  private: false, turn_seconds: 60, state: "waiting", game: 0, spectators: 1,
};

const line = (text, extra = {}) => ({
  seq: 4, channel: "seats", seat: 1, player: "p0000000000000002", name: "Bo", text, to: "everyone", ...extra,
});

test("chat() sends the text as typed and resolves with the ok; the line comes back into the model first", async () => {
  const client = makeClient();
  const ws = await connected(client);
  const heard = [];
  client.on("chat", (m) => heard.push(m));
  const markup = `<img src=x onerror="alert(1)"><script>alert(2)</script>`;
  const said = client.chat("t1", markup);
  await tick();
  const req = ws.lastSent("chat");
  assert.deepEqual({ ...req, id: undefined }, { type: "chat", table: "t1", text: markup, id: undefined });
  const mine = { type: "chat", table: "t1", line: line(markup, { seat: 0, player: "p0000000000000001", name: "Ada" }) };
  ws.serverSend(mine, { type: "ok", re: "chat", id: req.id, table: "t1" });
  assert.equal((await said).re, "chat");
  assert.deepEqual(heard, [mine]);
  assert.equal(client.model("t1").state.chat[0].text, markup, "kept verbatim");
  client.close();
});

test("a refused chat rejects with its code, and nothing is added", async () => {
  const client = makeClient();
  const ws = await connected(client);
  for (const code of ["chat_rate_limited", "chat_too_long", "not_at_table"]) {
    const said = client.chat("t1", "hi");
    await tick();
    ws.serverSend({ type: "error", code, message: "no", re: "chat", id: ws.lastSent("chat").id });
    await assert.rejects(said, (err) => err.code === code);
  }
  assert.deepEqual(client.model("t1").state.chat, []);
  client.close();
});

test("chat takes no seq: lines between events leave the seq stream whole, and no resume is asked", async () => {
  const client = makeClient();
  const ws = await connected(client);
  ws.serverSend({ type: "snapshot", table: "t1", seq: 4, you: 0, info: structuredClone(info), game: 0, view: null });
  ws.serverSend({ type: "chat", table: "t1", line: line("one") });
  ws.serverSend({ type: "event", table: "t1", seq: 5, event: { type: "seat_taken", seat: 2, player: null, bot: true } });
  ws.serverSend({ type: "chat", table: "t1", line: line("two", { seq: 5, channel: "spectators", seat: null, to: "spectators" }) });
  ws.serverSend({ type: "event", table: "t1", seq: 6, event: { type: "seat_taken", seat: 3, player: null, bot: true } });
  const m = client.model("t1");
  assert.equal(m.seq, 6);
  assert.deepEqual(m.state.chat.map((l) => l.text), ["one", "two"]);
  assert.equal(ws.lastSent("resume"), undefined);
  client.close();
});

test("a chat_history replaces the chat and the mutes; mute() follows the server's ok", async () => {
  const client = makeClient();
  const ws = await connected(client);
  const m = client.model("t1");
  ws.serverSend({ type: "chat", table: "t1", line: line("before the reload") });
  ws.serverSend({ type: "chat_history", table: "t1", lines: [line("a"), line("b")], muted: ["spectators"] });
  assert.deepEqual(m.state.chat.map((l) => l.text), ["a", "b"]);
  assert.deepEqual(m.state.muted, ["spectators"]);
  const muting = client.mute("t1", 1);
  await tick();
  const req = ws.lastSent("mute");
  assert.equal(req.seat, 1);
  assert.equal(req.muted, true);
  ws.serverSend({ type: "ok", re: "mute", id: req.id, table: "t1", seat: 1, muted: true });
  await muting;
  assert.deepEqual(m.state.muted, ["spectators", 1]);
  const unmuting = client.mute("t1", "spectators", false);
  await tick();
  ws.serverSend({ type: "ok", re: "mute", id: ws.lastSent("mute").id, table: "t1", seat: "spectators", muted: false });
  await unmuting;
  assert.deepEqual(m.state.muted, [1]);
  client.close();
});

test("a model keeps the last CHAT_LINES lines", () => {
  const m = new TableModel("t1");
  for (let i = 0; i < CHAT_LINES + 25; i++) m.applyChat(line(`line ${i}`));
  assert.equal(m.state.chat.length, CHAT_LINES);
  assert.equal(m.state.chat[0].text, "line 25");
  assert.equal(m.state.chat.at(-1).text, `line ${CHAT_LINES + 24}`);
  m.applyChatHistory({ type: "chat_history", table: "t1", lines: Array.from({ length: CHAT_LINES + 1 }, (_, i) => line(`h${i}`)), muted: [] });
  assert.equal(m.state.chat.length, CHAT_LINES);
  assert.equal(m.state.chat[0].text, "h1");
});
