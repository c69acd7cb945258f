// A WebSocket stand-in for the client's unit tests: records what is sent and
// lets the test play the server.
export class FakeSocket {
  static all = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.all.push(this);
  }
  static get last() {
    return FakeSocket.all[FakeSocket.all.length - 1];
  }
  static reset() {
    FakeSocket.all = [];
  }
  send(text) {
    if (this.readyState !== 1) throw new Error("not open");
    this.sent.push(JSON.parse(text));
  }
  close(code = 1000) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code, reason: "" });
  }
  // --- the test's side
  serverOpen() {
    this.readyState = 1;
    this.onopen?.({});
  }
  serverSend(...messages) {
    this.onmessage?.({ data: messages.map((m) => JSON.stringify(m)).join("\n") });
  }
  serverDrop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code, reason: "" });
  }
  lastSent(type) {
    return [...this.sent].reverse().find((m) => m.type === type);
  }
}

export class MemoryStorage {
  constructor() {
    this.map = new Map();
  }
  getItem(k) {
    return this.map.has(k) ? this.map.get(k) : null;
  }
  setItem(k, v) {
    this.map.set(k, String(v));
  }
  removeItem(k) {
    this.map.delete(k);
  }
}

export const tick = () => new Promise((r) => setTimeout(r, 0));
