// SpartsClient: one connection to a sparts-server, kept alive.
//
// It says hello (keeping the player's token), matches replies to requests by id,
// keeps a TableModel per table it follows, and, when the connection drops,
// reconnects with exponential backoff, says hello with the token and resumes each
// table from the last seq it has (a snapshot reply replaces the model).
//
// Against a server of many nodes (its hello names a `node`), the connection is
// opened at /ws?table=ID for the table being played or watched, so that the
// proxy sends it to the node holding that table; opening another table moves
// the connection there, and a table that moves to another node (`closing`,
// reason "moved", close 4005) is followed at once (PROTOCOL.md §18).
// See README.md beside this file.

import { TableModel } from "./table-model.js";

export const PROTOCOL_VERSION = 1;

/** An error reply from the server, or a local failure (`disconnected`, `timeout`, `closed`). */
export class SpartsError extends Error {
  constructor(code, message, details = {}) {
    super(message || code);
    this.name = "SpartsError";
    this.code = code;
    this.re = details.re;
    this.field = details.field;
    this.id = details.id;
  }
}

const OPEN = 1;

// Beside the page, as its archive is (lib/archive.js): a page at
// https://example.org/cards/ connects to wss://example.org/cards/ws.
function defaultUrl() {
  const loc = globalThis.location;
  if (!loc || !loc.host) throw new Error("SpartsClient: no url given and no page location to take it from");
  const url = new URL("ws", loc.href);
  url.protocol = loc.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  url.hash = "";
  return url.href;
}

function defaultStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled
  }
}

export class SpartsClient {
  /**
   * @param {import("./client.d.ts").ClientOptions} options
   */
  constructor(options = {}) {
    this.url = options.url ?? defaultUrl();
    this.name = options.name ?? "Player";
    this.WebSocket = options.WebSocket ?? globalThis.WebSocket;
    this.storage = options.storage === undefined ? defaultStorage() : options.storage;
    this.storageKey = options.storageKey ?? "sparts.token";
    this.token = options.token ?? this.storage?.getItem(this.storageKey) ?? null;
    // A host's login (PROTOCOL.md §20): a JWT, or a function giving one (called at every
    // hello, so that a reconnection after the last one expired gets a fresh one).
    this.login = options.login ?? null;
    this.backoff = { initialMs: 500, maxMs: 10000, factor: 2, jitter: 0.2, ...(options.backoff ?? {}) };
    this.requestTimeoutMs = options.requestTimeoutMs ?? 20000;
    this.heartbeatMs = options.heartbeatMs ?? 20000;
    this.batch = options.batch ?? true;
    this.random = options.random ?? Math.random;
    // Sent at most `perSecond` a second, bursts of `burst`: under the server's limit (20 a
    // second, bursts of 40, by default), so that a client answering every your_turn at once
    // is never refused with rate_limited. Beyond, messages wait their turn, in order.
    this.rate = { perSecond: 15, burst: 30, ...(options.rate ?? {}) };
    this._tokens = this.rate.burst;
    this._tokensAt = Date.now();
    this._outbox = []; // {ws, text, fail} waiting for a token
    this._outboxTimer = null;

    this.player = null; // public id, after hello
    this.seats = []; // [{table, seat}] from the last hello
    this.quickPlayTerms = null; // {turn_seconds, bots_after_ms} from the last hello: what quick play will do
    this.status = "idle"; // idle | connecting | open | reconnecting | closed
    this.models = new Map(); // table -> TableModel
    this.followed = new Map(); // table -> {invite?} : the tables to resume after a reconnect
    this.invites = new Map(); // table -> invite code we know
    this.replayTable = null;
    this.clustered = false; // the server's hello named a node: one table a connection
    this.routeTable = null; // the table this connection is opened for (/ws?table=), when clustered

    this._ws = null;
    this._nextId = 1;
    this._pending = new Map();
    this._listeners = new Map();
    this._attempt = 0;
    this._reconnectTimer = null;
    this._heartbeatTimer = null;
    this._closedByUser = false;
    this._connectWaiters = [];
    this._resyncing = new Set();
  }

  // ---- events

  /**
   * Listen to `type`: "status", "hello", "message", "event", "snapshot", "your_turn",
   * "table" (a model changed), "replay_event", "replay_state", "replay_ended",
   * "closing", "announcement" (the server's operator to every player: plain text),
   * "error" (an error not answering a request), "resumed".
   * Returns a function that removes the listener.
   */
  on(type, fn) {
    if (!this._listeners.has(type)) this._listeners.set(type, new Set());
    this._listeners.get(type).add(fn);
    return () => this._listeners.get(type)?.delete(fn);
  }

  _emit(type, payload) {
    for (const fn of [...(this._listeners.get(type) ?? [])]) {
      try {
        fn(payload);
      } catch (err) {
        console.error(`sparts client: a "${type}" listener threw`, err);
      }
    }
  }

  _setStatus(status, extra = {}) {
    this.status = status;
    this._emit("status", { status, ...extra });
  }

  // ---- connection

  /** Connects and says hello; resolves with the hello reply. Reconnects by itself afterwards. */
  connect() {
    this._closedByUser = false;
    if (this.status === "open") return Promise.resolve(this._hello);
    const p = new Promise((resolve, reject) => this._connectWaiters.push({ resolve, reject }));
    if (!this._ws) this._open();
    return p;
  }

  /** Closes for good (no reconnect). Pending requests fail with `closed`. */
  close() {
    this._closedByUser = true;
    clearTimeout(this._reconnectTimer);
    clearTimeout(this._outboxTimer);
    this._outboxTimer = null;
    this._outbox = [];
    this._stopHeartbeat();
    const ws = this._ws;
    this._ws = null;
    if (ws) {
      try {
        ws.close(1000);
      } catch {
        // already closing
      }
    }
    this._failPending("closed", "the client was closed");
    for (const w of this._connectWaiters.splice(0)) w.reject(new SpartsError("closed", "the client was closed"));
    this._setStatus("closed");
  }

  /** Drops the connection as a lost network would (for tests and "reconnect now" buttons). */
  dropConnection() {
    const ws = this._ws;
    if (ws) this._onClose(ws, { code: 1006, reason: "dropped" });
  }

  /** Forgets the player: the next hello makes a new one. */
  forgetToken() {
    this.token = null;
    this.storage?.removeItem(this.storageKey);
  }

  _open() {
    clearTimeout(this._reconnectTimer);
    this._setStatus(this._attempt > 0 ? "reconnecting" : "connecting", { attempt: this._attempt });
    let ws;
    try {
      ws = new this.WebSocket(this._connectUrl());
    } catch (err) {
      this._scheduleReconnect(String(err));
      return;
    }
    this._ws = ws;
    ws.onopen = () => this._onOpen(ws);
    ws.onmessage = (m) => this._onFrame(ws, m.data);
    ws.onclose = (e) => this._onClose(ws, e);
    ws.onerror = () => {
      // onclose follows
    };
  }

  async _onOpen(ws) {
    if (ws !== this._ws) return;
    let reply;
    try {
      reply = await this._helloOn();
    } catch (err) {
      if (ws !== this._ws) return;
      if (err.code === "unknown_token") {
        // The server does not know this token (a new database): become a new player.
        this.forgetToken();
        try {
          reply = await this._helloOn();
        } catch (err2) {
          return this._helloFailed(ws, err2);
        }
      } else {
        return this._helloFailed(ws, err);
      }
    }
    if (ws !== this._ws) return;
    this._hello = reply;
    this.quickPlayTerms = reply.quick_play ?? null;
    this.ruleSets = reply.rule_sets ?? [];  // the host's named rule sets, offered first
    this.clustered = Boolean(reply.node);
    this.player = reply.player;
    this.seats = reply.seats;
    if (reply.token) {
      this.token = reply.token;
      this.storage?.setItem(this.storageKey, reply.token);
    }
    const wasReconnect = this._attempt > 0;
    this._attempt = 0;
    this._setStatus("open", { reconnected: wasReconnect });
    this._startHeartbeat();
    // Catch up with every table we followed before this connection (not those a
    // "hello" listener opens now).
    const tables = [...this.followed.keys()];
    for (const table of tables) this._catchUp(table).catch(() => {});
    this._emit("hello", reply);
    for (const w of this._connectWaiters.splice(0)) w.resolve(reply);
  }

  /** The URL to open: with the table this connection is for, on a server of many nodes. */
  _connectUrl() {
    if (!this.routeTable) return this.url;
    return `${this.url}${this.url.includes("?") ? "&" : "?"}table=${encodeURIComponent(this.routeTable)}`;
  }

  /**
   * On a server of many nodes, moves the connection to the node holding `table`
   * (a new connection at /ws?table=ID, hello, and every followed table caught up)
   * before a request for it; nothing to do otherwise.
   */
  _needsRoute(table) {
    return this.clustered && this.routeTable !== table && !this._closedByUser;
  }

  async _routeTo(table) {
    if (!this._needsRoute(table)) return;
    this.routeTable = table;
    const ws = this._ws;
    if (!ws) return this.connect();
    const opened = new Promise((resolve, reject) => this._connectWaiters.push({ resolve, reject }));
    this._ws = null;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try {
      ws.close(1000);
    } catch {
      // ignore
    }
    this._stopHeartbeat();
    this._failPending("disconnected", "the connection moved to another table's node");
    this._attempt = 1; // "reconnecting", for a moment
    this._open();
    await opened;
  }

  async _helloOn() {
    const msg = { type: "hello", protocol: PROTOCOL_VERSION, name: this.name };
    const login = typeof this.login === "function" ? await this.login() : this.login;
    if (login) msg.login = login;
    else if (this.token) msg.token = this.token;
    if (this.batch) msg.batch = true;
    return this.request(msg);
  }

  _helloFailed(ws, err) {
    if (ws !== this._ws) return;
    for (const w of this._connectWaiters.splice(0)) w.reject(err);
    this._emit("error", err);
    // A refused hello (a bad name) will not get better by retrying: stop.
    this._closedByUser = true;
    try {
      ws.close(1000);
    } catch {
      // ignore
    }
    this._ws = null;
    this._setStatus("closed", { error: err });
  }

  _onClose(ws, e) {
    if (ws !== this._ws) return;
    this._ws = null;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    try {
      ws.close();
    } catch {
      // ignore
    }
    this._stopHeartbeat();
    this._failPending("disconnected", `the connection closed (${e?.code ?? "?"}${e?.reason ? ` ${e.reason}` : ""})`);
    if (this._closedByUser) return;
    // 4006: the player is banned; its hello would be refused: no point in coming back.
    if (e?.code === 4006) {
      this._closedByUser = true;
      this._setStatus("closed", { error: new SpartsError("banned", "this player is banned from this server") });
      return;
    }
    // 4005: the table moved to another node, which has it already: come back at once.
    this._scheduleReconnect(e?.reason || `code ${e?.code}`, e?.code === 4005);
  }

  _scheduleReconnect(why, now = false) {
    this._attempt += 1;
    const b = this.backoff;
    const base = now ? 0 : Math.min(b.maxMs, b.initialMs * Math.pow(b.factor, this._attempt - 1));
    const delayMs = Math.round(base * (1 - b.jitter + 2 * b.jitter * this.random()));
    this._setStatus("reconnecting", { attempt: this._attempt, delayMs, reason: why });
    this._reconnectTimer = setTimeout(() => this._open(), delayMs);
  }

  /** Reconnects at once if waiting to (a browser's "online" event, a button). */
  reconnectNow() {
    if (this.status === "reconnecting" && !this._ws) {
      clearTimeout(this._reconnectTimer);
      this._open();
    }
  }

  _startHeartbeat() {
    this._stopHeartbeat();
    if (!this.heartbeatMs) return;
    // An application ping: a network that vanished without closing the socket is
    // noticed when the ping goes unanswered, and the client reconnects.
    this._heartbeatTimer = setInterval(() => {
      const ws = this._ws;
      if (!ws || this.status !== "open") return;
      this.request({ type: "ping" }, { timeoutMs: this.heartbeatMs }).catch((err) => {
        if (err.code === "timeout" && ws === this._ws) this._onClose(ws, { code: 4000, reason: "no answer to ping" });
      });
    }, this.heartbeatMs);
  }

  _stopHeartbeat() {
    clearInterval(this._heartbeatTimer);
    this._heartbeatTimer = null;
  }

  _failPending(code, message) {
    for (const [id, p] of this._pending) {
      clearTimeout(p.timer);
      p.reject(new SpartsError(code, message, { re: p.type, id }));
    }
    this._pending.clear();
  }

  // ---- requests

  /**
   * Sends a request and resolves with its `ok` reply, or rejects with a SpartsError
   * (the server's `error`, or `disconnected`, `timeout`, `closed`).
   */
  request(msg, options = {}) {
    const ws = this._ws;
    if (!ws || ws.readyState !== OPEN) {
      return Promise.reject(new SpartsError("disconnected", "not connected to the server", { re: msg.type }));
    }
    const id = this._nextId++;
    const full = { ...msg, id };
    return new Promise((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
      const timer = setTimeout(() => {
        this._pending.delete(id);
        reject(new SpartsError("timeout", `no answer to ${msg.type} in ${timeoutMs} ms`, { re: msg.type, id }));
      }, timeoutMs);
      this._pending.set(id, { resolve, reject, timer, type: msg.type });
      this._send(ws, JSON.stringify(full), (err) => {
        clearTimeout(timer);
        this._pending.delete(id);
        reject(new SpartsError("disconnected", String(err), { re: msg.type, id }));
      });
    });
  }

  /** Sends now if the rate allows, else when it does; in order either way. */
  _send(ws, text, fail) {
    this._outbox.push({ ws, text, fail });
    this._flushOutbox();
  }

  _flushOutbox() {
    const now = Date.now();
    this._tokens = Math.min(this.rate.burst, this._tokens + ((now - this._tokensAt) / 1000) * this.rate.perSecond);
    this._tokensAt = now;
    while (this._outbox.length && this._tokens >= 1) {
      const { ws, text, fail } = this._outbox.shift();
      // A message for a connection that has gone: its request has failed already ("disconnected").
      if (ws !== this._ws || ws.readyState !== OPEN) continue;
      this._tokens -= 1;
      try {
        ws.send(text);
      } catch (err) {
        fail(err);
      }
    }
    if (this._outbox.length && !this._outboxTimer) {
      const waitMs = Math.ceil(((1 - this._tokens) / this.rate.perSecond) * 1000);
      this._outboxTimer = setTimeout(() => {
        this._outboxTimer = null;
        this._flushOutbox();
      }, Math.max(1, waitMs));
    }
  }

  ping() {
    return this.request({ type: "ping" });
  }

  /** Public tables: `{preset?, seats?, open?, limit?}`. Resolves with the table infos of the first page (50 by default). */
  async listTables(filter = {}) {
    const reply = await this.request({ type: "list_tables", ...filter });
    return reply.tables;
  }

  /**
   * One page of the public tables: `{preset?, seats?, open?, limit?, after?}` (PROTOCOL.md, list_tables).
   * Resolves with `{tables, total, next}`; pass `next` as `after` for the page after it (absent on the last page).
   */
  async listTablesPage(filter = {}) {
    const reply = await this.request({ type: "list_tables", ...filter });
    return { tables: reply.tables, total: reply.total, next: reply.next ?? null };
  }

  /** `createTable({preset: "spades", options: {...}}, {private, turn_seconds})` */
  async createTable(ruleset, extra = {}) {
    const reply = await this.request({ type: "create_table", ruleset, ...extra });
    if (reply.invite) this.invites.set(reply.table, reply.invite);
    return reply;
  }

  /**
   * Quick play (PROTOCOL.md §22): waits to be seated with others who ask for the same game.
   * Resolves with the ok (how many wait); "quick_play_matched" is emitted with {table, seat}
   * once a table is made, and the table is followed from then on, as after a sit.
   */
  quickPlay(preset, options = {}) {
    return this.request({ type: "quick_play", preset, options });
  }

  /** Stops waiting for a quick play game. */
  cancelQuickPlay() {
    return this.request({ type: "quick_play_cancel" });
  }

  /** Takes a seat (any free one without `seat`); the model then follows the table. */
  sit(table, options = {}) {
    // (one server alone: sent at once, as before; many nodes: after the move)
    if (this._needsRoute(table)) return this._routeTo(table).then(() => this._sit(table, options));
    return this._sit(table, options);
  }

  async _sit(table, options) {
    const invite = options.invite ?? this.invites.get(table);
    const msg = { type: "sit", table };
    if (options.seat !== undefined && options.seat !== null) msg.seat = options.seat;
    if (invite) msg.invite = invite;
    this._follow(table, invite);
    try {
      return await this.request(msg);
    } catch (err) {
      if (!this.models.get(table)?.state.synced) this.followed.delete(table);
      throw err;
    }
  }

  /** Follows a table as a spectator. */
  watch(table, options = {}) {
    if (this._needsRoute(table)) return this._routeTo(table).then(() => this._watch(table, options));
    return this._watch(table, options);
  }

  async _watch(table, options) {
    const invite = options.invite ?? this.invites.get(table);
    const msg = { type: "watch", table };
    if (invite) msg.invite = invite;
    this._follow(table, invite);
    try {
      return await this.request(msg);
    } catch (err) {
      if (!this.models.get(table)?.state.synced) this.followed.delete(table);
      throw err;
    }
  }

  /** Gives up a seat or stops watching; the table is no longer followed. */
  async leave(table) {
    const reply = await this.request({ type: "leave", table });
    this.followed.delete(table);
    // Forget the table as we held it (our seat, our hand): opened again, it is seen afresh.
    this.models.delete(table);
    this.seats = this.seats.filter((s) => s.table !== table);
    return reply;
  }

  /** Puts a server bot in a seat (the lowest free one without `seat`); `level`: "random", "basic" (default), "strong". */
  addBot(table, seat, level) {
    const msg = { type: "add_bot", table };
    if (seat !== undefined && seat !== null) msg.seat = seat;
    if (level) msg.level = level;
    return this.request(msg);
  }

  start(table) {
    return this.request({ type: "start", table });
  }

  again(table) {
    return this.request({ type: "again", table });
  }

  act(table, action) {
    return this.request({ type: "act", table, action });
  }

  play(table, card) {
    return this.act(table, { type: "play", card });
  }

  bid(table, bid) {
    return this.act(table, { type: "bid", bid });
  }

  pass(table, cards, back) {
    const action = { type: "pass", cards };
    if (back && back.length) action.back = back;
    return this.act(table, action);
  }

  choose(table, game) {
    return this.act(table, { type: "choose", game });
  }

  /** A shot moon (hearts, moon_scoring "choose"): "add" its points to every other side, or "subtract" them from yours. */
  moon(table, score) {
    return this.act(table, { type: "moon", score });
  }

  /** Blind nil: turns your face-down cards up (then you bid as usual). */
  showCards(table) {
    return this.act(table, { type: "show_cards" });
  }

  /**
   * Says `text` at a table you sit at or watch (PROTOCOL.md §21). Your own line comes back
   * as a "chat" before the ok; a refusal is a SpartsError (chat_empty, chat_too_long,
   * chat_bad_text, chat_rate_limited, not_at_table).
   */
  chat(table, text) {
    return this.request({ type: "chat", table, text });
  }

  /** Stops (muted: true) or starts again (false) hearing a seat's chat, or "spectators"'. */
  async mute(table, seat, muted = true) {
    const reply = await this.request({ type: "mute", table, seat, muted });
    const model = this.models.get(table);
    if (model) {
      model.applyMute(reply.seat, reply.muted);
      this._emit("table", model);
    }
    return reply;
  }

  /** Catches up with a table from `seq` (default: the model's last seq). */
  resume(table, seq) {
    if (this._needsRoute(table)) return this._routeTo(table).then(() => this._resume(table, seq));
    return this._resume(table, seq);
  }

  _resume(table, seq) {
    this._follow(table, this.invites.get(table));
    const from = seq ?? this.models.get(table)?.seq ?? 0;
    return this.request({ type: "resume", table, seq: from });
  }

  /**
   * Opens a table the best way: a table whose model is in sync is resumed from its
   * seq; a table where we hold a seat is taken over (`sit`, which sends a snapshot);
   * any other is watched.
   */
  async open(table, options = {}) {
    if (options.invite) this.invites.set(table, options.invite);
    const model = this.models.get(table);
    if (model?.state.synced) return this.resume(table);
    const held = this.seats.find((s) => s.table === table);
    if (held) return this.sit(table, { seat: held.seat });
    return this.watch(table, options);
  }

  /** The model of a table (created on first use). */
  model(table) {
    let m = this.models.get(table);
    if (!m) {
      m = new TableModel(table);
      this.models.set(table, m);
    }
    return m;
  }

  _follow(table, invite) {
    this.followed.set(table, { invite });
    this.model(table);
  }

  async _catchUp(table) {
    const model = this.model(table);
    const info = this.followed.get(table);
    try {
      if (model.state.synced) {
        const reply = await this.request({ type: "resume", table, seq: model.seq });
        this._emit("resumed", { table, mode: reply.mode, seat: reply.seat });
        return reply;
      }
      const held = this.seats.find((s) => s.table === table);
      if (held) return await this.request({ type: "sit", table, seat: held.seat });
      const msg = { type: "watch", table };
      if (info?.invite) msg.invite = info.invite;
      return await this.request(msg);
    } catch (err) {
      if (err.code === "not_seated" && info?.invite) {
        // a spectator of a private table comes back with watch and the invite
        return this.request({ type: "watch", table, invite: info.invite });
      }
      if (err.code === "no_such_table") {
        this.followed.delete(table);
        model.state.closed = model.state.closed ?? "gone";
        this._emit("table", model);
      }
      this._emit("error", err);
      throw err;
    }
  }

  // ---- replays

  /** Opens a replay of an archived game; resolves with its outline. */
  replay(table, game, speed = 0) {
    this.replayTable = table;
    return this.request({ type: "replay", table, game, speed });
  }

  /** `replayControl("seek", {hand: 2, trick: 1})`, `replayControl("play", {speed: 4})`, "pause", "step". */
  replayControl(action, extra = {}) {
    return this.request({ type: "replay_control", action, ...extra });
  }

  // ---- incoming

  _onFrame(ws, data) {
    if (ws !== this._ws || typeof data !== "string") return;
    for (const line of data.split("\n")) {
      if (!line) continue;
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        this._emit("error", new SpartsError("bad_frame", `the server sent something that is not JSON: ${line.slice(0, 80)}`));
        continue;
      }
      this._dispatch(msg);
    }
  }

  _dispatch(msg) {
    this._emit("message", msg);
    switch (msg.type) {
      case "ok":
      case "error": {
        const p = msg.id !== undefined ? this._pending.get(msg.id) : undefined;
        if (msg.type === "ok" && msg.re === "resume" && msg.table) this._resyncing.delete(msg.table);
        if (!p) {
          if (msg.type === "error") this._emit("error", new SpartsError(msg.code, msg.message, msg));
          return;
        }
        this._pending.delete(msg.id);
        clearTimeout(p.timer);
        if (msg.type === "ok") p.resolve(msg);
        else p.reject(new SpartsError(msg.code, msg.message, msg));
        return;
      }
      case "snapshot": {
        const model = this.model(msg.table);
        model.applySnapshot(msg);
        this._resyncing.delete(msg.table);
        if (msg.you !== null) {
          if (!this.seats.some((s) => s.table === msg.table)) this.seats.push({ table: msg.table, seat: msg.you });
        }
        this._emit("snapshot", msg);
        this._emit("table", model);
        return;
      }
      case "event": {
        const model = this.model(msg.table);
        const result = model.applyEvent(msg.seq, msg.event);
        if (result === "gap") {
          this._resync(msg.table);
          return;
        }
        if (result === "duplicate") return;
        if (msg.event.type === "seat_left" || msg.event.type === "seat_taken") this._seatChanged(msg.table, msg.event);
        this._emit("event", msg);
        this._emit("table", model);
        return;
      }
      case "your_turn": {
        const model = this.model(msg.table);
        model.applyYourTurn(msg);
        this._emit("your_turn", msg);
        this._emit("table", model);
        return;
      }
      case "replay_event":
      case "replay_state":
      case "replay_ended":
        this._emit(msg.type, msg);
        return;
      case "closing":
        // A table moved to another node: the connection closes next (4005) and is opened
        // again for that table, where the proxy sends it now.
        if (msg.reason === "moved" && msg.table) this.routeTable = msg.table;
        this._emit("closing", msg);
        return;
      case "announcement":
        this._emit("announcement", msg);
        return;
      case "chat": {
        // Table chat takes no seq: it is kept beside the events, never checked for gaps.
        const model = this.model(msg.table);
        model.applyChat(msg.line);
        this._emit("chat", msg);
        this._emit("table", model);
        return;
      }
      case "chat_history": {
        const model = this.model(msg.table);
        model.applyChatHistory(msg);
        this._emit("table", model);
        return;
      }
      case "quick_play_matched":
        // Seated by the server: followed from now on (its snapshot comes next), and taken
        // back with a sit after a reconnection, as a seat we chose.
        this._follow(msg.table);
        if (!this.seats.some((s) => s.table === msg.table)) this.seats.push({ table: msg.table, seat: msg.seat });
        this._emit("quick_play_matched", msg);
        return;
      default:
        // a message type this client does not know: ignored (the protocol may grow)
        return;
    }
  }

  _seatChanged(table, event) {
    const model = this.models.get(table);
    if (!model) return;
    if (event.type === "seat_left" && model.state.you === event.seat) {
      this.seats = this.seats.filter((s) => s.table !== table);
    }
  }

  _resync(table) {
    // Frames were lost: ask for everything after the last seq we have (once at a time).
    if (this._resyncing.has(table)) return;
    this._resyncing.add(table);
    const model = this.model(table);
    const req = model.state.synced
      ? this.request({ type: "resume", table, seq: model.seq })
      : Promise.resolve();
    req.catch(() => this._resyncing.delete(table));
  }
}
