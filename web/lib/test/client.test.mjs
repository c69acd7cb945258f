import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { SpartsClient, SpartsError } from "../client.js";
import { FakeSocket, MemoryStorage, tick } from "../tools/fake-socket.mjs";

beforeEach(() => FakeSocket.reset());

function makeClient(extra = {}) {
  return new SpartsClient({
    url: "ws://test/ws", name: "Ada", WebSocket: FakeSocket, storage: new MemoryStorage(), heartbeatMs: 0,
    random: () => 0.5, backoff: { initialMs: 5, maxMs: 40 }, ...extra,
  });
}

async function connected(client, helloReply = {}) {
  const p = client.connect();
  const ws = FakeSocket.last;
  ws.serverOpen();
  const hello = ws.lastSent("hello");
  ws.serverSend({ type: "ok", re: "hello", id: hello.id, protocol: 1, player: "p0000000000000001", name: "Ada", seats: [], token: "a".repeat(32), ...helloReply });
  await p;
  return ws;
}

const snapshot = (seq, extra = {}) => ({
  type: "snapshot", table: "t1", seq, you: 0,
  info: { table: "t1", ruleset: { preset: "spades", options: {} }, seats: [{ player: "p0000000000000001", name: "Ada" }, { bot: true, name: "Bot" }, null, null], private: false, turn_seconds: 60, state: "waiting", game: 0, spectators: 0 },
  game: 0, view: null, ...extra,
});

test("hello says protocol 1, asks for batching, and keeps the new token", async () => {
  const storage = new MemoryStorage();
  const client = makeClient({ storage });
  const ws = await connected(client);
  const hello = ws.sent[0];
  assert.deepEqual({ ...hello, id: undefined }, { type: "hello", id: undefined, protocol: 1, name: "Ada", batch: true });
  assert.equal(storage.getItem("sparts.token"), "a".repeat(32));
  assert.equal(client.player, "p0000000000000001");
  assert.equal(client.status, "open");
});

test("a login is sent instead of the token, and a login function is asked again at every hello", async () => {
  const storage = new MemoryStorage();
  storage.setItem("sparts.token", "b".repeat(32));
  let asked = 0;
  const client = makeClient({ storage, login: async () => `jwt-${++asked}` });
  const p = client.connect();
  const ws = FakeSocket.last;
  ws.serverOpen();
  await tick();
  const hello = ws.lastSent("hello");
  assert.equal(hello.login, "jwt-1");
  assert.equal(hello.token, undefined);
  ws.serverSend({ type: "ok", re: "hello", id: hello.id, protocol: 1, player: "p0000000000000001", name: "Ada", account: "user-42", seats: [] });
  await p;
  assert.equal(client.player, "p0000000000000001");
  // A dropped connection: the next hello carries a fresh login.
  ws.serverDrop(1006);
  await new Promise((r) => setTimeout(r, 30));
  const ws2 = FakeSocket.last;
  assert.notEqual(ws2, ws);
  ws2.serverOpen();
  await tick();
  assert.equal(ws2.lastSent("hello").login, "jwt-2");
  client.close();
});

test("a stored token is sent in hello; an unknown one is dropped and a new player made", async () => {
  const storage = new MemoryStorage();
  storage.setItem("sparts.token", "b".repeat(32));
  const client = makeClient({ storage });
  const p = client.connect();
  const ws = FakeSocket.last;
  ws.serverOpen();
  const first = ws.lastSent("hello");
  assert.equal(first.token, "b".repeat(32));
  ws.serverSend({ type: "error", code: "unknown_token", message: "no such player", re: "hello", id: first.id });
  await tick();
  const second = ws.lastSent("hello");
  assert.notEqual(second.id, first.id);
  assert.equal(second.token, undefined);
  ws.serverSend({ type: "ok", re: "hello", id: second.id, protocol: 1, player: "p0000000000000002", name: "Ada", seats: [], token: "c".repeat(32) });
  await p;
  assert.equal(storage.getItem("sparts.token"), "c".repeat(32));
});

test("replies are matched by id, not by order; an error rejects with its code and field", async () => {
  const client = makeClient();
  const ws = await connected(client);
  const a = client.listTables();
  const b = client.createTable({ preset: "spades", options: { nil_value: 5 } });
  const [reqA, reqB] = ws.sent.slice(-2);
  assert.equal(reqA.type, "list_tables");
  assert.equal(reqB.type, "create_table");
  ws.serverSend({ type: "error", code: "bad_ruleset", message: "nope", re: "create_table", id: reqB.id, field: "ruleset.options.nil_value" });
  ws.serverSend({ type: "ok", re: "list_tables", id: reqA.id, tables: [] });
  assert.deepEqual(await a, []);
  await assert.rejects(b, (err) => err instanceof SpartsError && err.code === "bad_ruleset" && err.field === "ruleset.options.nil_value");
});

test("listTablesPage sends the page's limit and cursor and gives back the tables, the total and the next cursor", async () => {
  const client = makeClient();
  const ws = await connected(client);
  const first = client.listTablesPage({ preset: "spades", limit: 20 });
  await tick();
  const req = ws.lastSent("list_tables");
  assert.deepEqual({ ...req, id: undefined }, { type: "list_tables", id: undefined, preset: "spades", limit: 20 });
  ws.serverSend({ type: "ok", re: "list_tables", id: req.id, total: 45, next: "t20", tables: [] });
  assert.deepEqual(await first, { tables: [], total: 45, next: "t20" });
  const last = client.listTablesPage({ limit: 20, after: "t40" });
  await tick();
  const req2 = ws.lastSent("list_tables");
  assert.equal(req2.after, "t40");
  ws.serverSend({ type: "ok", re: "list_tables", id: req2.id, total: 45, tables: [] });
  assert.deepEqual(await last, { tables: [], total: 45, next: null });
});

test("a request without a connection fails at once with 'disconnected'", async () => {
  const client = makeClient();
  await assert.rejects(client.ping(), (err) => err.code === "disconnected");
});

test("a request the server never answers times out", async () => {
  const client = makeClient({ requestTimeoutMs: 20 });
  await connected(client);
  await assert.rejects(client.ping(), (err) => err.code === "timeout");
});

test("events apply in seq order; a batched frame is split into lines", async () => {
  const client = makeClient();
  const ws = await connected(client);
  const sat = client.sit("t1");
  const sit = ws.lastSent("sit");
  ws.serverSend(
    { type: "event", table: "t1", seq: 1, event: { type: "seat_taken", seat: 0, player: { id: "p0000000000000001", name: "Ada" }, bot: false } },
    { type: "ok", re: "sit", id: sit.id, table: "t1", seat: 0 },
    snapshot(1),
  );
  await sat;
  const model = client.model("t1");
  assert.equal(model.seq, 1);
  ws.serverSend({ type: "event", table: "t1", seq: 2, event: { type: "seat_taken", seat: 2, player: null, bot: true } });
  assert.equal(model.seq, 2);
  assert.deepEqual(model.state.info.seats[2], { bot: true, name: "Bot" });
  // a duplicate is ignored
  ws.serverSend({ type: "event", table: "t1", seq: 2, event: { type: "seat_left", seat: 2 } });
  assert.deepEqual(model.state.info.seats[2], { bot: true, name: "Bot" });
});

test("a gap in seq asks for a resume from the last seq and applies nothing past it", async () => {
  const client = makeClient();
  const ws = await connected(client);
  client.watch("t1").catch(() => {});
  ws.serverSend({ type: "ok", re: "watch", id: ws.lastSent("watch").id, table: "t1" }, snapshot(5, { you: null }));
  ws.serverSend({ type: "event", table: "t1", seq: 7, event: { type: "seat_taken", seat: 3, player: null, bot: true } });
  const resume = ws.lastSent("resume");
  assert.deepEqual({ table: resume.table, seq: resume.seq }, { table: "t1", seq: 5 });
  assert.equal(client.model("t1").seq, 5);
  assert.equal(client.model("t1").state.info.seats[3], null);
  // only one resume while one is on its way
  ws.serverSend({ type: "event", table: "t1", seq: 8, event: { type: "seat_left", seat: 1 } });
  assert.equal(ws.sent.filter((m) => m.type === "resume").length, 1);
  ws.serverSend(
    { type: "ok", re: "resume", id: resume.id, table: "t1", seat: null, mode: "events", from: 6 },
    { type: "event", table: "t1", seq: 6, event: { type: "seat_taken", seat: 2, player: null, bot: true } },
    { type: "event", table: "t1", seq: 7, event: { type: "seat_taken", seat: 3, player: null, bot: true } },
  );
  assert.equal(client.model("t1").seq, 7);
  assert.deepEqual(client.model("t1").state.info.seats[3], { bot: true, name: "Bot" });
});

test("a dropped connection reconnects with backoff, says hello with the token and resumes from the last seq", async () => {
  const statuses = [];
  const client = makeClient();
  client.on("status", (s) => statuses.push(s));
  const ws = await connected(client);
  client.sit("t1");
  ws.serverSend({ type: "ok", re: "sit", id: ws.lastSent("sit").id, table: "t1", seat: 0 }, snapshot(12));
  const pending = client.ping();
  ws.serverDrop();
  await assert.rejects(pending, (err) => err.code === "disconnected");
  const waiting = statuses.find((s) => s.status === "reconnecting" && s.delayMs !== undefined);
  assert.equal(waiting.delayMs, 5); // initialMs with no jitter at random() = 0.5
  await new Promise((r) => setTimeout(r, 20));
  const ws2 = FakeSocket.last;
  assert.notEqual(ws2, ws);
  ws2.serverOpen();
  const hello = ws2.lastSent("hello");
  assert.equal(hello.token, "a".repeat(32));
  ws2.serverSend({ type: "ok", re: "hello", id: hello.id, protocol: 1, player: "p0000000000000001", name: "Ada", seats: [{ table: "t1", seat: 0 }] });
  await tick();
  const resume = ws2.lastSent("resume");
  assert.deepEqual({ table: resume.table, seq: resume.seq }, { table: "t1", seq: 12 });
  // the server answers with a snapshot: it replaces the model
  ws2.serverSend({ type: "ok", re: "resume", id: resume.id, table: "t1", seat: 0, mode: "snapshot" }, snapshot(30));
  assert.equal(client.model("t1").seq, 30);
  assert.equal(statuses[statuses.length - 1].status, "open");
});

test("backoff grows exponentially up to its ceiling", async () => {
  const delays = [];
  const client = makeClient({ backoff: { initialMs: 1, maxMs: 4, factor: 2, jitter: 0 } });
  client.on("status", (s) => s.delayMs !== undefined && delays.push(s.delayMs));
  client.connect().catch(() => {});
  for (let i = 0; i < 5; i++) {
    FakeSocket.last.serverDrop();
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.deepEqual(delays, [1, 2, 4, 4, 4]);
  client.close();
});

test("after a reload (no model yet) a held seat is taken over with sit, which sends a snapshot", async () => {
  const client = makeClient();
  const ws = await connected(client, { seats: [{ table: "t1", seat: 2 }] });
  client.open("t1").catch(() => {});
  const sit = ws.lastSent("sit");
  assert.deepEqual({ table: sit.table, seat: sit.seat }, { table: "t1", seat: 2 });
  client.close();
});

test("close() stops for good: no reconnect", async () => {
  const client = makeClient();
  await connected(client);
  const count = FakeSocket.all.length;
  client.close();
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(FakeSocket.all.length, count);
  assert.equal(client.status, "closed");
});

test("your_turn is kept until a later game event ends it", async () => {
  const client = makeClient();
  const ws = await connected(client);
  client.sit("t1");
  ws.serverSend({ type: "ok", re: "sit", id: ws.lastSent("sit").id, table: "t1", seat: 0 }, snapshot(3));
  ws.serverSend({ type: "your_turn", table: "t1", seat: 0, seq: 3, legal: { kind: "play", cards: ["2C"] }, ms_left: 1000 });
  assert.deepEqual(client.model("t1").state.yourTurn.legal, { kind: "play", cards: ["2C"] });
  ws.serverSend({ type: "event", table: "t1", seq: 4, event: { type: "seat_taken", seat: 3, player: null, bot: true } });
  assert.ok(client.model("t1").state.yourTurn, "a table event does not end a turn");
});

test("an unknown message type is ignored, an unmatched error is reported", async () => {
  const client = makeClient();
  const ws = await connected(client);
  const errors = [];
  client.on("error", (e) => errors.push(e));
  ws.serverSend({ type: "something_new", x: 1 });
  ws.serverSend({ type: "error", code: "rate_limited", message: "slow down" });
  assert.equal(errors.length, 1);
  assert.equal(errors[0].code, "rate_limited");
});

test("a network that vanished without closing the socket is noticed by the heartbeat, and the client reconnects", async () => {
  const client = makeClient({ heartbeatMs: 15 });
  const ws = await connected(client);
  await new Promise((r) => setTimeout(r, 25));
  assert.ok(ws.lastSent("ping"), "an application ping went out");
  // no answer: the ping times out, the socket is given up and a new one opened
  await new Promise((r) => setTimeout(r, 60));
  assert.ok(FakeSocket.all.length >= 2, "a new connection was opened");
  assert.equal(ws.readyState, 3);
  client.close();
});

test("many nodes: a table is opened on a connection of its own at /ws?table=ID, and a table that moves is followed at once", async () => {
  const statuses = [];
  const client = makeClient();
  client.on("status", (s) => statuses.push(s));
  const lobby = await connected(client, { node: "n1" });
  assert.equal(client.clustered, true);
  assert.equal(lobby.url, "ws://test/ws");
  // Sitting at t1 moves the connection to the node of t1: a new socket, hello, then the sit.
  const sat = client.sit("t1", { seat: 0 });
  await tick();
  const atTable = FakeSocket.last;
  assert.notEqual(atTable, lobby);
  assert.equal(lobby.readyState, 3);
  assert.equal(atTable.url, "ws://test/ws?table=t1");
  atTable.serverOpen();
  const hello = atTable.lastSent("hello");
  assert.equal(hello.token, "a".repeat(32));
  atTable.serverSend({ type: "ok", re: "hello", id: hello.id, protocol: 1, player: "p0000000000000001", name: "Ada", seats: [], node: "n2" });
  await tick();
  const sit = atTable.lastSent("sit");
  assert.deepEqual({ table: sit.table, seat: sit.seat }, { table: "t1", seat: 0 });
  atTable.serverSend({ type: "ok", re: "sit", id: sit.id, table: "t1", seat: 0 }, snapshot(12));
  await sat;
  // The node hands t1 over: closing "moved", close 4005; the client is back at once, on t1's URL, and resumes.
  atTable.serverSend({ type: "closing", reason: "moved", table: "t1" });
  atTable.serverDrop(4005);
  const waiting = statuses.filter((s) => s.status === "reconnecting" && s.delayMs !== undefined).pop();
  assert.equal(waiting.delayMs, 0);
  await new Promise((r) => setTimeout(r, 5));
  const moved = FakeSocket.last;
  assert.notEqual(moved, atTable);
  assert.equal(moved.url, "ws://test/ws?table=t1");
  moved.serverOpen();
  const again = moved.lastSent("hello");
  moved.serverSend({ type: "ok", re: "hello", id: again.id, protocol: 1, player: "p0000000000000001", name: "Ada", seats: [{ table: "t1", seat: 0 }], node: "n3" });
  await tick();
  const resume = moved.lastSent("resume");
  assert.deepEqual({ table: resume.table, seq: resume.seq }, { table: "t1", seq: 12 });
  // Sitting at t1 again needs no move; one server alone (no node) never moves at all.
  moved.serverSend({ type: "ok", re: "resume", id: resume.id, table: "t1", seat: 0, mode: "events", from: 13 });
  const pending = client.sit("t1", { seat: 0 }).catch(() => {});
  await tick();
  assert.equal(FakeSocket.last, moved);
  assert.equal(moved.lastSent("sit").table, "t1");
  client.close();
  await pending;
});

test("one server alone: sitting at a table keeps the one connection", async () => {
  const client = makeClient();
  const ws = await connected(client);
  assert.equal(client.clustered, false);
  const pending = client.sit("t4").catch(() => {});
  await tick();
  assert.equal(FakeSocket.last, ws);
  assert.equal(ws.lastSent("sit").table, "t4");
  client.close();
  await pending;
});

test("requests are paced under the server's rate limit: a burst goes at once, the rest in order as the rate allows", async () => {
  const client = makeClient({ rate: { perSecond: 200, burst: 5 } });
  const ws = await connected(client);
  const before = ws.sent.length;
  const replies = [];
  for (let i = 0; i < 20; i++) replies.push(client.ping().catch(() => {}));
  assert.equal(ws.sent.length - before, 4); // the burst (hello took one token of it)
  // 200 a second: the other 16 within 80 ms, or later on a loaded machine; none lost.
  for (let waited = 0; ws.sent.length - before < 20 && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
  const pings = ws.sent.slice(before);
  assert.equal(pings.length, 20);
  assert.deepEqual(pings.map((m) => m.id), [...pings.map((m) => m.id)].sort((a, b) => a - b)); // in order
  for (const m of pings) ws.serverSend({ type: "ok", re: "ping", id: m.id });
  await Promise.all(replies);
  client.close();
});
