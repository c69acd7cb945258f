// Captures real frames from a running sparts-server, for tests/protocol/good_messages.jsonl.
//
//   node --experimental-websocket tests/protocol/capture_frames.mjs SERVER_BINARY OUT.jsonl [ALL.jsonl]
//
// Starts two servers on free ports (one with everyday limits, one with tiny ones to provoke the limit
// errors and close codes), drives them through every request, error and event the protocol has (games
// of every preset, secret bids, multi-pass, a kitty, jokers and two decks, partners, timers and absent
// seats, bots, spectators, private tables, reconnects, a game clock, replays of the archive, shutdown),
// and writes a sample of the frames as JSON Lines {"dir":"in"|"out","frame":...}: a few of each kind
// and shape, so that the file stays small. ALL.jsonl, when given, gets every frame. Prints the close codes seen and
// which message kinds were captured; exits 1 if an expected kind is missing.
//
// The frames depend on the shuffle, so each run gives a different (equally valid) file.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

const [serverBin, outFile, allFile] = process.argv.slice(2);
if (!serverBin || !outFile) {
  console.error("usage: capture_frames.mjs SERVER_BINARY OUT.jsonl [ALL.jsonl]");
  process.exit(2);
}

// ------------------------------------------------------------------ helpers

let seed = 12345;
function rand() {  // mulberry32: our own choices repeat; the server's shuffle does not
  seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];
const shuffled = (a) => { const b = [...a]; for (let i = b.length - 1; i > 0; --i) { const j = Math.floor(rand() * (i + 1)); [b[i], b[j]] = [b[j], b[i]]; } return b; };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const LOG = [];          // {dir, frame, conn, bad}
const closeCodes = [];   // {conn, code, reason}

async function startServer(args, database = "none") {
  const proc = spawn(serverBin, ["--port", "0", "--log-level", "warn", "--database", database, ...args],
                     { stdio: ["ignore", "pipe", "inherit"] });
  const rl = readline.createInterface({ input: proc.stdout });
  const port = await new Promise((resolve, reject) => {
    rl.on("line", (line) => { const m = /listening on .*:(\d+)/.exec(line); if (m) resolve(Number(m[1])); });
    proc.on("exit", (code) => reject(new Error("server exited with " + code)));
  });
  return { proc, port };
}

let nextId = 1;
class Client {
  constructor(port, name) {
    this.name = name;
    this.ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    this.q = [];              // every frame received
    this.cursor = 0;          // frames before this have been looked at by wait()
    this.pending = new Map(); // id -> resolve
    this.checkers = [];
    this.overCount = {};      // table -> game_over events seen
    this.closedTables = new Set();
    this.hands = {};          // table -> Set of the cards in my hand (from the events)
    this.seat = {};           // table -> my seat
    this.closed = new Promise((resolve) => {
      this.ws.onclose = (e) => { closeCodes.push({ conn: name, code: e.code, reason: e.reason }); resolve(e.code); this.kick(); };
    });
    this.open = new Promise((resolve, reject) => {
      this.ws.onopen = resolve;
      this.ws.onerror = (e) => reject(new Error(`${name}: cannot connect: ${e.message ?? e.type}`));
    });
    this.ws.onmessage = (m) => {
      if (typeof m.data !== "string") throw new Error("binary frame from the server");
      const f = JSON.parse(m.data);
      LOG.push({ dir: "out", frame: f, conn: name, t: Date.now() });
      const index = this.q.length;
      this.q.push(f);
      this.track(f);
      if (f.id !== undefined && this.pending.has(f.id)) {
        const r = this.pending.get(f.id);
        this.pending.delete(f.id);
        r({ frame: f, index });
      }
      this.kick();
    };
  }
  kick() { for (const c of [...this.checkers]) c(); }
  track(f) {
    if (f.type === "snapshot" && f.view && Array.isArray(f.view.hand)) this.hands[f.table] = new Set(f.view.hand);
    if (f.type !== "event") return;
    const e = f.event, t = f.table, me = this.seat[t];
    const hand = this.hands[t] ??= new Set();
    if (e.type === "game_over") this.overCount[t] = (this.overCount[t] ?? 0) + 1;
    if (e.type === "table_closed") this.closedTables.add(t);
    if (me === undefined) return;
    if (e.type === "cards_dealt" && e.seat === me && e.cards) { hand.clear(); e.cards.forEach((c) => hand.add(c)); }
    if (e.type === "cards_passed" && e.from === me && e.cards) e.cards.forEach((c) => hand.delete(c));
    if (e.type === "cards_received" && e.seat === me && e.cards) e.cards.forEach((c) => hand.add(c));
    if (e.type === "center_taken" && e.seat === me && e.cards) e.cards.forEach((c) => hand.add(c));
    if (e.type === "card_played" && e.seat === me) hand.delete(e.card);
  }
  // Sends a frame (an object, or raw text / bytes for the malformed cases).
  raw(data, { bad = false, frame } = {}) {
    if (frame !== undefined) LOG.push({ dir: "in", frame, conn: this.name, bad, t: Date.now() });
    this.ws.send(data);
  }
  send(obj, opts = {}) { this.raw(JSON.stringify(obj), { ...opts, frame: obj }); }
  // Sends a request with an id and waits for its reply.
  request(obj, opts = {}) {
    const id = obj.id ?? (nextId % 3 === 0 ? `r${nextId++}` : nextId++);
    const full = { ...obj, id };
    const p = new Promise((resolve, reject) => {
      this.pending.set(id, resolve);
      setTimeout(() => reject(new Error(`${this.name}: no reply to ${JSON.stringify(full)}`)), 15000);
    });
    this.send(full, opts);
    return p.then((r) => { this.lastIndex = r.index; return r.frame; });
  }
  // Waits until fn() returns something other than undefined (checked on every frame).
  wait(fn, ms = 20000, what = "a frame") {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { this.checkers = this.checkers.filter((c) => c !== check); reject(new Error(`${this.name}: timed out waiting for ${what}`)); }, ms);
      const check = () => {
        const v = fn();
        if (v === undefined) return;
        clearTimeout(timer);
        this.checkers = this.checkers.filter((c) => c !== check);
        resolve(v);
      };
      this.checkers.push(check);
      check();
    });
  }
  // The next unread frame matching pred (frames before it are passed over).
  next(pred, ms, what) {
    return this.wait(() => {
      for (let i = this.cursor; i < this.q.length; ++i)
        if (pred(this.q[i])) { this.cursor = i + 1; return this.q[i]; }
      return undefined;
    }, ms, what);
  }
  async hello(name = this.name, token) {
    const r = await this.request(token ? { type: "hello", protocol: 1, name, token } : { type: "hello", protocol: 1, name });
    if (r.type !== "ok") throw new Error(`${this.name}: hello refused: ${JSON.stringify(r)}`);
    this.player = r.player;
    if (r.token) this.token = r.token;
    return r;
  }
  close() { this.ws.close(1000, "bye"); return this.closed; }
}

async function connect(port, name, hello = true) {
  const c = new Client(port, name);
  await c.open;
  if (hello) await c.hello();
  return c;
}

function expectOk(r, what) {
  if (r.type !== "ok") throw new Error(`${what}: expected ok, got ${JSON.stringify(r)}`);
  return r;
}
const codesSeen = new Set();
function expectError(r, code, what) {
  if (r.type !== "error") throw new Error(`${what}: expected error ${code}, got ${JSON.stringify(r)}`);
  if (code && r.code !== code) throw new Error(`${what}: expected error ${code}, got ${r.code}: ${r.message}`);
  codesSeen.add(r.code);
  return r;
}

// ------------------------------------------------------------------ playing

const probes = {};  // probe name -> times done
const probe = (name, max = 2) => { if ((probes[name] ?? 0) >= max) return false; probes[name] = (probes[name] ?? 0) + 1; return true; };
const ALL_CARDS = [];
for (const s of "CDHS") for (const r of "23456789TJQKA") ALL_CARDS.push(r + s);

function legalAction(l) {
  switch (l.kind) {
    case "play": return { type: "play", card: pick(l.cards) };
    case "bid": return { type: "bid", bid: pick(l.bids) };
    case "choose": return { type: "choose", game: pick(l.choices) };
    case "pass": {
      const cards = shuffled(l.cards);
      const a = { type: "pass", cards: cards.slice(0, l.count) };
      if (l.back_count > 0) a.back = cards.slice(l.count, l.count + l.back_count);
      return a;
    }
  }
  throw new Error("unknown legal kind " + l.kind);
}

// Wrong actions tried before the right one, to capture the engine's error codes.
async function tryProbes(c, t, l, others) {
  const act = async (action, name, code) => {
    const r = await c.request({ type: "act", table: t, action });
    expectError(r, code, name);
  };
  const hand = c.hands[t] ?? new Set();
  if (l.kind === "bid") {
    if (probe("wrong_phase")) await act({ type: "play", card: [...hand][0] ?? "2C" }, "wrong_phase", "wrong_phase");
    if (others.length && probe("not_your_turn")) {
      const o = others[0];
      const r = await o.request({ type: "act", table: t, action: { type: "bid", bid: 1 } });
      expectError(r, "not_your_turn", "not_your_turn");
    }
    const nums = l.bids.filter((b) => typeof b === "number");
    const max = Math.max(...nums, 0);
    const hole = [...Array(max + 1).keys()].find((b) => !nums.includes(b) && !(b === 0 && l.bids.includes("nil")));
    if (hole !== undefined && probe("bid_hole:" + (hole === 1 ? "one" : "other"), 2))
      await act({ type: "bid", bid: hole }, "bid not offered", undefined);
    if (probe("bid_out_of_range", 1)) await act({ type: "bid", bid: 99 }, "bid_out_of_range", "bid_out_of_range");
  } else if (l.kind === "play") {
    const notMine = ALL_CARDS.filter((x) => !hand.has(x));
    if (notMine.length && probe("card_not_in_hand", 1))
      await act({ type: "play", card: pick(notMine) }, "card_not_in_hand", "card_not_in_hand");
    const illegal = [...hand].filter((x) => !l.cards.includes(x));
    if (illegal.length && probe("illegal_play", 60)) await act({ type: "play", card: pick(illegal) }, "illegal play", undefined);
  } else if (l.kind === "pass") {
    if (l.count > 0 && probe("pass_wrong_count", 1))
      await act({ type: "pass", cards: l.cards.slice(0, l.count - 1) }, "pass_wrong_count", "pass_wrong_count");
  }
}

// Plays `c`'s seat at table t until `games` more games are over (or the table closes).
// opts: probe (try wrong actions), delay (ms before each act), others (clients at the table, for
// not_your_turn), until (a function: stop when it returns true), afterPass (probe already_passed).
async function play(c, t, opts = {}) {
  const startOver = c.overCount[t] ?? 0;
  const games = opts.games ?? 1;
  const done = () => (c.overCount[t] ?? 0) >= startOver + games || c.closedTables.has(t) || (opts.until && opts.until());
  while (!done()) {
    const f = await c.wait(() => {
      if (done()) return null;
      for (let i = c.cursor; i < c.q.length; ++i)
        if (c.q[i].type === "your_turn" && c.q[i].table === t) { c.cursor = i + 1; return c.q[i]; }
      return undefined;
    }, 60000, `your_turn at ${t}`);
    if (!f) break;
    if (opts.delay) await sleep(opts.delay);
    if (done()) break;
    const l = f.legal;
    if (opts.probe) await tryProbes(c, t, l, opts.others ?? []);
    const action = legalAction(l);
    const r = await c.request({ type: "act", table: t, action });
    if (r.type === "ok") {
      // your_turn frames that came before this reply are stale.
      c.cursor = Math.max(c.cursor, c.lastIndex + 1);
      if (l.kind === "pass" && opts.probe && probe("already_passed", 1)) {
        const again = await c.request({ type: "act", table: t, action });
        expectError(again, undefined, "already_passed");
      }
    } else {
      codesSeen.add(r.code);
      if (!opts.quiet) console.log(`${c.name}: act refused (${r.code}: ${r.message}); waiting for the next turn`);
    }
  }
}

// A table with the given humans (already said hello) and bots; returns its id.
async function table(owner, ruleset, { humans = [], bots = 0, turn_seconds, priv = false } = {}) {
  const req = { type: "create_table", ruleset };
  if (turn_seconds !== undefined) req.turn_seconds = turn_seconds;
  if (priv) req.private = true;
  const r = expectOk(await owner.request(req), "create_table");
  for (const h of humans) {
    const s = expectOk(await h.request(priv ? { type: "sit", table: r.table, invite: r.invite } : { type: "sit", table: r.table }), "sit");
    h.seat[r.table] = s.seat;
  }
  for (let i = 0; i < bots; ++i) expectOk(await owner.request({ type: "add_bot", table: r.table }), "add_bot");
  return r;
}

// ------------------------------------------------------------------ scenarios

async function lifecycle(port) {
  const x = await connect(port, "Ann", false);
  expectOk(await x.request({ type: "ping" }), "ping before hello");
  expectError(await x.request({ type: "list_tables" }), "hello_first", "hello_first");
  x.cursor = x.q.length;
  x.raw("this is not JSON", { bad: true, frame: undefined });
  expectError(await x.next((f) => f.type === "error"), "bad_json", "bad_json");
  x.cursor = x.q.length;
  x.send([1, 2], { bad: true });
  expectError(await x.next((f) => f.type === "error"), "bad_message", "not an object");
  expectError(await x.request({ type: "frob" }, { bad: true }), "unknown_type", "unknown_type");
  expectError(await x.request({ type: "ping", extra: 1 }, { bad: true }), "bad_message", "unknown member");
  x.cursor = x.q.length;
  x.raw(new Uint8Array([1, 2, 3]));
  expectError(await x.next((f) => f.type === "error"), "binary_frame", "binary_frame");
  expectError(await x.request({ type: "hello", protocol: 2, name: "Ann" }), "unsupported_protocol", "unsupported_protocol");
  expectError(await x.request({ type: "hello", protocol: 1, name: "Ann", token: "0123456789abcdef0123456789abcdef" }), "unknown_token", "unknown_token");
  expectError(await x.request({ type: "hello", protocol: 1, name: " Ann" }, { bad: true }), "bad_message", "bad name");
  await x.hello();
  expectError(await x.request({ type: "hello", protocol: 1, name: "Ann" }), "already_hello", "already_hello");
  expectOk(await x.request({ type: "list_tables" }), "list_tables");
  expectError(await x.request({ type: "create_table", ruleset: { preset: "poker" } }, { bad: true }), "bad_ruleset", "unknown preset");
  expectError(await x.request({ type: "create_table", ruleset: { preset: "sparts", options: { nil_value: 50 } } }), "bad_ruleset", "option of another family");
  expectError(await x.request({ type: "create_table", ruleset: { preset: "sparts", options: { seats: 7 } } }), "bad_ruleset", "seats out of range");
  expectError(await x.request({ type: "create_table", ruleset: { preset: "spades" }, private: "yes" }, { bad: true }), "bad_message", "private not a boolean");
  expectError(await x.request({ type: "sit", table: "t999" }), "no_such_table", "no_such_table");
  expectError(await x.request({ type: "act", table: "t1", action: { type: "clock_expired" } }, { bad: true }), "bad_message", "clock_expired");
  expectError(await x.request({ type: "resume", table: "t1" }, { bad: true }), "bad_message", "resume without seq");
  expectError(await x.request({ type: "act", table: "t1", action: { type: "play", card: "1S" } }, { bad: true }), "bad_message", "bad card");
  // too_many_tables: four open tables, then a fifth (these close on their own, nobody sits).
  for (let i = 0; i < 4; ++i) expectOk(await x.request({ type: "create_table", ruleset: { preset: "spades" } }), "create_table");
  expectError(await x.request({ type: "create_table", ruleset: { preset: "spades" } }), "too_many_tables", "too_many_tables");
  await x.close();
}

// Four humans at spades, a spectator, every table-level error, two games (again), a leave mid-game
// and a return into the bot's seat.
async function spadesTable(port) {
  const ps = await Promise.all([0, 1, 2, 3].map((i) => connect(port, ["North", "East", "South", "West"][i])));
  const [p0, p1, p2, p3] = ps;
  const spec = await connect(port, "Watcher");
  const stranger = await connect(port, "Stranger");
  const r = expectOk(await p0.request({ type: "create_table", ruleset: { preset: "spades", options: { target_score: 150, hand_cap: 4 } }, turn_seconds: 30 }), "create_table");
  const t = r.table;
  expectOk(await spec.request({ type: "watch", table: t }), "watch");
  await spec.next((f) => f.type === "snapshot");
  expectOk(await p0.request({ type: "sit", table: t, seat: 0 }), "sit");
  p0.seat[t] = 0;
  expectError(await p0.request({ type: "start", table: t }), "seats_not_full", "seats_not_full");
  expectError(await p0.request({ type: "act", table: t, action: { type: "bid", bid: 3 } }), "no_game", "no_game");
  expectError(await p0.request({ type: "again", table: t }), "game_not_over", "game_not_over");
  expectError(await p1.request({ type: "sit", table: t, seat: 0 }), "seat_taken", "seat_taken");
  expectError(await p1.request({ type: "sit", table: t, seat: 7 }), "bad_seat", "bad_seat");
  expectError(await p1.request({ type: "start", table: t }), "not_seated", "start not seated");
  expectError(await stranger.request({ type: "add_bot", table: t }), "not_seated", "add_bot not seated");
  expectError(await stranger.request({ type: "leave", table: t }), "not_at_table", "not_at_table");
  expectError(await p0.request({ type: "watch", table: t }), "already_seated", "already_seated");
  for (const [i, p] of [[1, p1], [2, p2], [3, p3]]) { expectOk(await p.request({ type: "sit", table: t, seat: i }), "sit"); p.seat[t] = i; }
  expectError(await stranger.request({ type: "sit", table: t }), "table_full", "table_full");
  expectError(await p0.request({ type: "add_bot", table: t }), "table_full", "add_bot table_full");
  expectError(await p0.request({ type: "add_bot", table: t, seat: 2 }), "seat_taken", "add_bot seat_taken");
  expectError(await p0.request({ type: "add_bot", table: t, seat: 9 }), "bad_seat", "add_bot bad_seat");
  expectOk(await p0.request({ type: "list_tables", open: false }), "list_tables all");
  expectOk(await p0.request({ type: "start", table: t }), "start");
  expectError(await p1.request({ type: "start", table: t }), "already_started", "already_started");
  expectError(await spec.request({ type: "act", table: t, action: { type: "bid", bid: 3 } }), "spectator_cannot_act", "spectator_cannot_act");
  expectError(await stranger.request({ type: "act", table: t, action: { type: "bid", bid: 3 } }), "not_seated", "act not seated");
  // A second spectator arrives mid-game (a snapshot with a running turn timer).
  const late = await connect(port, "Latecomer");
  const games = ps.map((p) => play(p, t, { probe: true, others: ps.filter((o) => o !== p) }));
  await sleep(50);
  expectOk(await late.request({ type: "watch", table: t }), "watch mid-game");
  await Promise.all(games);
  expectError(await p0.request({ type: "act", table: t, action: { type: "play", card: "AS" } }), "game_over", "game_over");
  expectError(await p0.request({ type: "start", table: t }), "already_started", "start after the game");
  expectOk(await late.request({ type: "leave", table: t }), "spectator leave");
  // Another game: everyone asks again. Midway, West leaves (a bot takes over) and comes back.
  for (const p of ps) expectOk(await p.request({ type: "again", table: t }), "again");
  const second = [p0, p1, p2].map((p) => play(p, t));
  const plays = () => p3.q.filter((f) => f.type === "event" && f.event.type === "card_played").length;
  const before = plays();
  const westPlays = play(p3, t, { until: () => plays() > before + 30 });
  await westPlays;
  expectOk(await p3.request({ type: "leave", table: t }), "leave mid-game");
  await sleep(200);
  expectOk(await p3.request({ type: "sit", table: t, seat: 3 }), "sit in the bot's seat");
  await Promise.all([...second, play(p3, t)]);
  for (const c of [...ps, spec, stranger, late]) await c.close();
  return t;
}

async function presetGames(port) {
  const runs = [
    // [name, ruleset, humans, bots, turn_seconds, probe]
    ["bga", { preset: "bga-sparts" }, 2, 2, 0, true],
    ["bga-trad", { preset: "bga-sparts", options: { hearts_mode: "traditional", game_length: 200, hand_cap: 3 } }, 1, 3, 0, true],
    ["sparts5", { preset: "sparts", options: { seats: 5, hands: 2 } }, 2, 3, 0, true],
    ["sparts-back", { preset: "sparts", options: { multi_pass: "back", hands: 2 } }, 2, 2, 45, true],
    ["spartsel-secret", { preset: "spartsel", options: { secret_bids: true, hands: 3 } }, 2, 2, 0, true],
    ["spartsel-3", { preset: "spartsel", options: { seats: 3, mercy: true, hands: 3 } }, 2, 1, 0, true],
    ["spartsel-both", { preset: "spartsel", options: { multi_pass: "both-ways", mooning: "on", hands: 2 } }, 1, 3, 0, true],
    ["spartsel-big", { preset: "spartsel", options: { seats: 6, decks: 2, jokers: 2, partners: "regular", teams: 3, hands: 2 } }, 1, 5, 0, true],
    ["spartsel-rot", { preset: "spartsel", options: { seats: 5, partners: "rotating", partner_plan: "2,0", reverse_partners: true, center_cards: "first-trick", hands: 2 } }, 1, 4, 0, false],
    ["spartsel-prog", { preset: "spartsel", options: { partners: "progressive", ten_of_hearts_minus_one: true, hand_size: 10, hands: 1, partner_plan: 3 } }, 1, 3, 0, false],
    ["spades-bags", { preset: "spades", options: { target_score: 100, sandbag_penalty: "5", mercy_rule: true, hand_cap: 6 } }, 1, 3, 0, true],
    ["worldwinner", { preset: "worldwinner-spades", options: { target_score: 100, hand_cap: 5 } }, 1, 3, 0, true],
  ];
  for (const [name, ruleset, humans, bots, turn_seconds, doProbe] of runs) {
    const hs = await Promise.all([...Array(humans).keys()].map((i) => connect(port, `${name}-${i}`)));
    const spec = await connect(port, `${name}-spectator`);
    const r = await table(hs[0], ruleset, { humans: hs, bots, turn_seconds });
    expectOk(await spec.request({ type: "watch", table: r.table }), "watch");
    expectOk(await hs[0].request({ type: "start", table: r.table }), "start");
    await Promise.all(hs.map((h) => play(h, r.table, { probe: doProbe, others: hs.filter((o) => o !== h) })));
    for (const c of [...hs, spec]) await c.close();
    console.log(`game ${name} done`);
  }
}

// A private table: invites, wrong invites, resume refused to a stranger.
async function privateTable(port) {
  const a = await connect(port, "Host");
  const b = await connect(port, "Guest");
  const s = await connect(port, "Snoop");
  const r = expectOk(await a.request({ type: "create_table", ruleset: { preset: "spartsel", options: { seats: 2 } }, private: true, turn_seconds: 0 }), "create private");
  const t = r.table;
  expectOk(await a.request({ type: "sit", table: t, invite: r.invite }), "sit private");
  a.seat[t] = 0;
  expectError(await b.request({ type: "sit", table: t }), "wrong_invite", "wrong_invite sit");
  expectError(await s.request({ type: "watch", table: t, invite: "000000000000" }), "wrong_invite", "wrong_invite watch");
  expectError(await s.request({ type: "resume", table: t, seq: 0 }), "not_seated", "resume private");
  expectOk(await b.request({ type: "sit", table: t, invite: r.invite, seat: 1 }), "sit private 2");
  b.seat[t] = 1;
  expectOk(await s.request({ type: "watch", table: t, invite: r.invite }), "watch private");
  const list = expectOk(await s.request({ type: "list_tables", preset: "spartsel", seats: 2, open: false }), "list");
  if (list.tables.some((x) => x.table === t)) throw new Error("a private table is listed");
  expectOk(await a.request({ type: "start", table: t }), "start");
  await Promise.all([play(a, t), play(b, t)]);
  for (const c of [a, b, s]) await c.close();
}

// Reconnects: a seat drops, comes back with its token, resumes by events and by snapshot.
async function reconnects(port) {
  const a = await connect(port, "Roamer");
  const r = await table(a, { preset: "spades", options: { hand_cap: 2 } }, { humans: [a], bots: 3, turn_seconds: 0 });
  const t = r.table;
  expectOk(await a.request({ type: "start", table: t }), "start");
  await play(a, t, { until: () => a.q.filter((f) => f.type === "event" && f.event.type === "card_played" && f.event.seat === 0).length >= 3 });
  const lastSeq = () => Math.max(0, ...a.q.filter((f) => f.type === "event" && f.table === t).map((f) => f.seq));
  const seen = lastSeq();
  const token = a.token;
  // Act, then drop at once: the bots play on while we are away.
  const turn = await a.next((f) => f.type === "your_turn" && f.table === t);
  a.send({ type: "act", table: t, action: legalAction(turn.legal), id: "last" });
  await sleep(20);
  await a.close();
  await sleep(300);
  const b = await connect(port, "Roamer", false);
  const h = await b.hello("Roamer again", token);
  if (!h.seats.length) console.log("warning: hello with token listed no seats");
  b.seat[t] = 0;
  const res = expectOk(await b.request({ type: "resume", table: t, seq: seen }), "resume");
  if (res.mode !== "events") console.log("warning: expected resume by events, got " + res.mode);
  await sleep(200);
  await play(b, t, { until: () => b.q.filter((f) => f.type === "event" && f.event.type === "hand_started").length >= 1 });
  // From before the current hand: a snapshot.
  const c = await connect(port, "Roamer", false);
  await c.hello("Roamer", token);
  c.seat[t] = 0;
  await b.close();
  const res2 = expectOk(await c.request({ type: "resume", table: t, seq: 1 }), "resume old");
  if (res2.mode !== "snapshot") console.log("warning: expected a snapshot, got " + res2.mode);
  // A seq from the future: a snapshot too. And sit again on one's own seat: a snapshot.
  expectOk(await c.request({ type: "resume", table: t, seq: 1000000 }), "resume future");
  expectOk(await c.request({ type: "sit", table: t }), "sit again");
  // A stranger resumes a public table: a spectator.
  const d = await connect(port, "Passerby");
  expectOk(await d.request({ type: "resume", table: t, seq: 0 }), "resume as spectator");
  await play(c, t);
  for (const x of [c, d]) await x.close();
}

// Turn timers: a seat that does not act times out, is marked absent, then returns.
async function timers(port) {
  const a = await connect(port, "Sleepy");
  const w = await connect(port, "Timekeeper");
  const r = await table(a, { preset: "spades", options: { hand_cap: 1 } }, { humans: [a], bots: 3, turn_seconds: 1 });
  const t = r.table;
  expectOk(await w.request({ type: "watch", table: t }), "watch");
  expectOk(await a.request({ type: "start", table: t }), "start");
  await a.next((f) => f.type === "event" && f.event.type === "seat_absent", 20000, "seat_absent");
  // A spectator's snapshot while the game runs; then the seat acts again (seat_returned), racing the
  // server, which plays an absent seat at once.
  expectOk(await w.request({ type: "watch", table: t }), "watch again");
  await play(a, t, { quiet: true });
  if (!a.q.some((f) => f.type === "event" && f.event.type === "seat_returned"))
    expectOk(await a.request({ type: "sit", table: t }), "sit again (returns)");
  for (const c of [a, w]) await c.close();
}

// A turn timer running when a spectator arrives, and WorldWinner's game clock running out.
async function clocks(port) {
  const a = await connect(port, "Clockwatcher");
  const w = await connect(port, "Audience");
  const r = await table(a, { preset: "worldwinner-spades", options: { game_clock: 2 } }, { humans: [a], bots: 3, turn_seconds: 20 });
  const t = r.table;
  expectOk(await a.request({ type: "start", table: t }), "start");
  await sleep(300);
  expectOk(await w.request({ type: "watch", table: t }), "watch");
  await play(a, t, { delay: 150 });
  // A worldwinner game that ends before its clock: standings with a time bonus.
  const b = await connect(port, "Sprinter");
  const r2 = await table(b, { preset: "worldwinner-spades", options: { target_score: 60, hand_cap: 4 } }, { humans: [b], bots: 3, turn_seconds: 0 });
  expectOk(await b.request({ type: "start", table: r2.table }), "start");
  await play(b, r2.table);
  for (const c of [a, w, b]) await c.close();
}

// A spectator sees an abandoned table close (grace period).
async function abandoned(port) {
  const a = await connect(port, "Quitter");
  const w = await connect(port, "Lingerer");
  const r = await table(a, { preset: "sparts" }, { humans: [a], bots: 0 });
  expectOk(await w.request({ type: "watch", table: r.table }), "watch");
  expectOk(await a.request({ type: "leave", table: r.table }), "leave");
  await w.next((f) => f.type === "event" && f.event.type === "table_closed", 10000, "table_closed");
  expectError(await w.request({ type: "watch", table: r.table }), "no_such_table", "closed table");
  for (const c of [a, w]) await c.close();
}

// Replays of a finished game from the archive.
async function replays(port, t) {
  const r = await connect(port, "Historian");
  expectError(await r.request({ type: "replay_control", action: "pause" }), "no_replay", "no_replay");
  expectError(await r.request({ type: "replay", table: t, game: 99 }), "no_such_game", "no_such_game");
  const outline = expectOk(await r.request({ type: "replay", table: t, game: 1, speed: 0 }), "replay");
  expectOk(await r.request({ type: "replay_control", action: "step" }), "step");
  expectOk(await r.request({ type: "replay_control", action: "seek", hand: 1, trick: 2 }), "seek trick");
  expectOk(await r.request({ type: "replay_control", action: "seek", position: 5 }), "seek position");
  expectError(await r.request({ type: "replay_control", action: "seek", position: 1000000 }), "bad_position", "bad_position");
  expectError(await r.request({ type: "replay_control", action: "seek", hand: 99 }), "bad_position", "bad hand");
  expectError(await r.request({ type: "replay_control", action: "seek" }, { bad: true }), "bad_message", "seek nowhere");
  r.cursor = r.q.length;
  expectOk(await r.request({ type: "replay_control", action: "play", speed: 1000 }), "play");
  await r.next((f) => f.type === "replay_ended", 30000, "replay_ended");
  expectOk(await r.request({ type: "replay_control", action: "step" }), "step at the end");
  expectOk(await r.request({ type: "replay_control", action: "pause" }), "pause");
  // Play from the start of the last hand, at a pace.
  expectOk(await r.request({ type: "replay_control", action: "seek", hand: outline.hands.length }), "seek hand");
  expectOk(await r.request({ type: "replay_control", action: "play" }), "play at the default speed");
  await sleep(600);
  await r.close();
}

// Limits, on a server with tiny ones.
async function limits() {
  const { proc, port } = await startServer(["--messages-per-second", "5", "--flood-close-after", "5",
                                             "--max-frame-bytes", "1024", "--hello-timeout", "1",
                                             "--connections-per-address", "3"]);
  const none = await connect(port, "NoArchive");
  expectError(await none.request({ type: "replay", table: "t1", game: 1 }), "no_archive", "no_archive");
  await none.close();
  await sleep(100);
  const idle = await Promise.all([0, 1, 2].map((i) => connect(port, `idle${i}`, false)));
  const extra = await connect(port, "extra", false);
  const extraCode = await extra.closed;
  const idleCodes = await Promise.all(idle.map((c) => c.closed));
  const flood = await connect(port, "flood");
  for (let i = 0; i < 40; ++i) flood.send({ type: "ping" });
  const floodCode = await flood.closed;
  const big = await connect(port, "big");
  big.send({ type: "ping", id: "x".repeat(2000) }, { bad: true });
  const bigCode = await big.closed;
  proc.kill("SIGTERM");
  console.log(`close codes: too many connections ${extraCode}, hello timeout ${idleCodes}, flooding ${floodCode}, frame too big ${bigCode}`);
  const want = [[extraCode, 4003], [idleCodes[0], 4004], [floodCode, 4001], [bigCode, 1009]];
  for (const [got, expected] of want) if (got !== expected) { console.log(`close code ${got}, expected ${expected}`); process.exitCode = 1; }
  codesSeen.add("rate_limited");
}

// Shutdown: a game in progress and a spectator get table_closed and closing, then close code 1001.
async function shutdown(server) {
  const a = await connect(server.port, "Last");
  const w = await connect(server.port, "LastWatcher");
  const r = await table(a, { preset: "spades" }, { humans: [a], bots: 3, turn_seconds: 0 });
  expectOk(await w.request({ type: "watch", table: r.table }), "watch");
  expectOk(await a.request({ type: "start", table: r.table }), "start");
  await a.next((f) => f.type === "your_turn");
  server.proc.kill("SIGTERM");
  const codes = await Promise.all([a.closed, w.closed]);
  console.log(`close codes at shutdown: ${codes}`);
  if (codes.some((c) => c !== 1001)) process.exitCode = 1;
}

// ------------------------------------------------------------------ the sample

function key(rec) {
  const f = rec.frame;
  if (rec.dir === "in") {
    if (f === null || typeof f !== "object" || Array.isArray(f)) return "in:?";
    return `in:${f.type}:${f.type === "act" ? f.action?.type : ""}:${Object.keys(f).sort()}`;
  }
  const k = (o) => Object.keys(o).sort().join(",");
  switch (f.type) {
    case "ok": return `ok:${f.re}:${k(f)}:${f.mode ?? ""}:${f.re === "hello" ? f.seats.length > 0 : ""}`;
    case "error": return `error:${f.code}:${f.re ?? ""}`;
    case "event": {
      const e = f.event;
      let extra = "";
      if (e.type === "hand_scored") extra = `${e.kind}:${e.sides.length}:${e.sides.map((s) => s.seats.length).join("")}:${Object.keys(e.sides[0].score_sheet).sort()}`;
      if (e.type === "seat_taken") extra = String(e.bot);
      if (e.type === "game_over") extra = e.reason;
      if (e.type === "hand_started") extra = e.kind + e.center_size;
      if (e.type === "passing_started") extra = `${e.round}:${e.back_count}:${e.distance === 0}`;
      if (e.type === "card_played") extra = /'|JK/.test(e.card) ? "special" : "";
      if (e.type === "bid_made") extra = typeof e.bid;
      return `event:${e.type}:${k(e)}:${extra}`;
    }
    case "snapshot": {
      const v = f.view;
      return `snapshot:${k(f)}:${v === null ? "null" : v.viewer === "spectator" ? "spectator" : "seat:" + (v.legal ? v.legal.kind : "none")}:${v?.phase}`;
    }
    case "your_turn": return `your_turn:${f.legal.kind}:${f.ms_left === null}:${f.legal.back_count ?? ""}`;
    case "replay_event": return `replay_event:${f.event.type}:${k(f.event)}`;
    default: return `${f.type}:${k(f)}`;
  }
}

function sample(records) {
  const count = new Map();
  const out = [];
  for (const rec of records) {
    if (rec.bad || rec.frame === undefined) continue;
    const k = key(rec);
    const n = count.get(k) ?? 0;
    count.set(k, n + 1);
    if (n < 2) out.push(rec);
  }
  return out;
}

const EXPECTED = {
  in: ["hello", "list_tables", "create_table", "sit", "leave", "watch", "add_bot", "start", "again", "act", "resume", "ping",
       "replay", "replay_control"],
  ok: ["hello", "list_tables", "create_table", "sit", "leave", "watch", "add_bot", "start", "again", "act", "resume", "ping",
       "replay", "replay_control"],
  event: ["hand_started", "cards_dealt", "choice_started", "hand_kind_chosen", "passing_started", "cards_passed",
          "cards_received", "bidding_started", "bid_made", "bids_revealed", "play_started", "card_played",
          "hearts_broken", "spades_broken", "trick_won", "center_taken", "hand_scored", "bag_penalty", "game_over",
          "seat_taken", "seat_left", "game_started", "turn_timed_out", "seat_absent", "seat_returned",
          "again_requested", "standings", "table_closed"],
  other: ["error", "snapshot", "your_turn", "closing", "replay_event", "replay_state", "replay_ended"],
};

// ------------------------------------------------------------------ main

// The main server keeps its archive in a fresh database, removed at the end.
const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), "sparts-capture-"));
const main = await startServer(["--messages-per-second", "100000", "--connections-per-address", "1000", "--bot-delay-ms", "5", "--table-grace", "2",
                                "--tables-per-player", "4", "--history-events", "4096"], path.join(dbDir, "capture.db"));
try {
  await lifecycle(main.port);
  const spadesId = await spadesTable(main.port);
  await replays(main.port, spadesId);
  await presetGames(main.port);
  await privateTable(main.port);
  await reconnects(main.port);
  await timers(main.port);
  await clocks(main.port);
  await abandoned(main.port);
  await limits();
  await shutdown(main);
} catch (e) {
  console.error(e);
  main.proc.kill("SIGTERM");
  fs.rmSync(dbDir, { recursive: true, force: true });
  process.exit(1);
}
await new Promise((resolve) => (main.proc.exitCode !== null ? resolve() : main.proc.on("exit", resolve)));
fs.rmSync(dbDir, { recursive: true, force: true });

const picked = sample(LOG);
const line = (r) => JSON.stringify({ dir: r.dir, frame: r.frame });
fs.writeFileSync(outFile, picked.map(line).join("\n") + "\n");
// The full dump also says which connection and when (validate_messages.py ignores these members).
const fullLine = (r) => JSON.stringify({ dir: r.dir, frame: r.frame, note: `${r.conn} ${r.t}` });
if (allFile) fs.writeFileSync(allFile, LOG.filter((r) => !r.bad && r.frame !== undefined).map(fullLine).join("\n") + "\n");

const have = { in: new Set(), ok: new Set(), event: new Set(), other: new Set() };
for (const r of picked) {
  const f = r.frame;
  if (r.dir === "in") have.in.add(f.type);
  else if (f.type === "ok") have.ok.add(f.re);
  else if (f.type === "event") have.event.add(f.event.type);
  else have.other.add(f.type);
}
let missing = 0;
for (const [kind, names] of Object.entries(EXPECTED))
  for (const n of names) if (!have[kind].has(n)) { console.log(`missing: ${kind} ${n}`); ++missing; }
const errorCodes = [...new Set(picked.filter((r) => r.frame.type === "error").map((r) => r.frame.code))].sort();
console.log(`error codes captured: ${errorCodes.join(" ")}`);
console.log(`${LOG.length} frames seen, ${picked.length} written to ${outFile} (${fs.statSync(outFile).size} bytes)`);
if (missing) process.exitCode = 1;
process.exit(process.exitCode ?? 0);
