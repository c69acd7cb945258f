// The sparts web client: lobby, table and replay views on the client library.
// Routes (in the URL's hash, so that the server serves one page):
//   #/                       the lobby
//   #/table/t1[?invite=CODE] a table (an invite link carries the private code)
//   #/replay/t1/1            the replay of game 1 of table t1
//   #/leaderboard/spades     a preset's leaderboard (ratings)
//   #/leaderboard/rule-set/street-spades  a host's named rule set's leaderboard
//   #/player/p0123…          a player's ratings and statistics
//   #/rules/spades           how to play a preset, and its options

import { SpartsClient, errorWords } from "../lib/index.js";
import { h, fill } from "./dom.js";
import { LobbyView } from "./lobby.js";
import { TableView } from "./table.js";
import { ReplayView } from "./replay.js";
import { LeaderboardView, PlayerView } from "./leaderboard.js";
import { RulesView } from "./rules.js";
import { Sound } from "./sound.js";

const NAME_KEY = "sparts.name";

// A host's own login (PROTOCOL.md §20): its site sends the player here with
// `?login=<JWT>`. The login is kept for this tab only (sessionStorage), and taken
// off the address bar so that it is neither bookmarked nor shared with the page.
const LOGIN_KEY = "sparts.login";
function takeLogin() {
  const url = new URL(location.href);
  const fresh = url.searchParams.get("login");
  if (fresh) {
    sessionStorage.setItem(LOGIN_KEY, fresh);
    url.searchParams.delete("login");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
  return sessionStorage.getItem(LOGIN_KEY) ?? undefined;
}

export class App {
  constructor() {
    this.viewEl = document.getElementById("view");
    this.statusEl = document.getElementById("status");
    this.whoEl = document.getElementById("who");
    this.toastEl = document.getElementById("toast");
    this.announceEl = document.getElementById("announce");
    this.announcementEl = document.getElementById("announcement");
    this.name = localStorage.getItem(NAME_KEY);
    this.client = new SpartsClient({ name: this.name ?? "Player", login: takeLogin() });
    this.view = null;
    this.sound = new Sound();
    this.client.on("status", (s) => this.showStatus(s));
    this.client.on("error", (err) => this.toast(errorWords(err)));
    this.client.on("closing", (m) =>
      this.toast(m.reason === "moved" ? "The table moved to another server; reconnecting." : "The server is restarting; reconnecting.", { untilOpen: true }),
    );
    this.client.on("announcement", (m) => this.showAnnouncement(m));
    // Logged in through the host: its account's name is the one shown, whatever was typed.
    this.client.on("hello", (h) => {
      if (h.account) {
        this.account = h;
        this.showWho();
      }
    });
    window.addEventListener("online", () => this.client.reconnectNow());
    window.addEventListener("hashchange", () => this.route());
  }

  start() {
    this.showWho();
    if (this.name) this.connect();
    this.route();
  }

  connect() {
    this.client.connect().catch((err) => this.toast(errorWords(err)));
  }

  setName(name) {
    const changed = name !== this.name;
    this.name = name;
    localStorage.setItem(NAME_KEY, name);
    this.client.name = name;
    this.showWho();
    if (this.client.status === "idle" || this.client.status === "closed") this.connect();
    else if (changed) this.client.dropConnection(); // say hello again with the new name
  }

  showWho() {
    const name = this.account?.name ?? this.name;
    fill(this.whoEl, name ? `Playing as ${name}` : "");
  }

  showStatus({ status, delayMs, attempt, error }) {
    const words = {
      idle: "Not connected",
      connecting: "Connecting…",
      open: "Connected",
      reconnecting: delayMs !== undefined ? `Connection lost: retrying in ${Math.ceil(delayMs / 1000)} s (try ${attempt})` : "Reconnecting…",
      closed: "Disconnected",
    };
    const banned = status === "closed" && error?.code === "banned";
    this.statusEl.textContent = banned ? "Banned" : words[status] ?? status;
    // Before the first hello (the name form) no connection was tried: nothing to say of one.
    this.statusEl.hidden = status === "idle";
    if (banned) this.toast(errorWords(error));
    this.statusEl.dataset.state = status;
    // A toast that says "reconnecting" goes once connected again (it lies over the hand).
    if (status === "open" && this._toastUntilOpen) this.toastEl.hidden = true;
  }

  /** Shows `text` for 5 s (with untilOpen, only until the connection is open again). */
  toast(text, { untilOpen = false } = {}) {
    this.toastEl.hidden = false;
    this.toastEl.textContent = text;
    this._toastUntilOpen = untilOpen;
    clearTimeout(this._toastTimer);
    this._toastTimer = setTimeout(() => (this.toastEl.hidden = true), 5000);
  }

  /**
   * The server operator's announcement, over the page until dismissed (a newer one replaces
   * it). Its text is data: it goes in as text, never as markup.
   */
  showAnnouncement({ text, at }) {
    const when = new Date(at);
    fill(this.announcementEl, h("div", { class: "announcement" },
      h("p", {}, h("strong", {}, "From the server"), " (", h("time", { datetime: when.toISOString() },
        when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })), "): ", text),
      h("button", { type: "button", class: "dismiss", "aria-label": "Dismiss the announcement",
        onclick: () => fill(this.announcementEl) }, "×")));
  }

  announce(text) {
    this.announceEl.textContent = "";
    setTimeout(() => (this.announceEl.textContent = text), 30);
  }

  route() {
    const hash = location.hash.replace(/^#/, "") || "/";
    const [path, query] = hash.split("?");
    const params = new URLSearchParams(query ?? "");
    const parts = path.split("/").filter(Boolean);
    this.view?.unmount();
    this.view = null;
    fill(this.viewEl);
    // How to play needs no name: a link to it may be someone's first visit.
    if (parts[0] === "rules") {
      this.view = new RulesView(this, decodeURIComponent(parts[1] ?? "spades"));
    } else if (!this.name) {
      this.view = new NameView(this);
    } else if (parts[0] === "table" && parts[1]) {
      this.view = new TableView(this, decodeURIComponent(parts[1]), params.get("invite"));
    } else if (parts[0] === "replay" && parts[1] && parts[2]) {
      this.view = new ReplayView(this, decodeURIComponent(parts[1]), Number(parts[2]));
    } else if (parts[0] === "leaderboard" && parts[1] === "rule-set" && parts[2]) {
      this.view = new LeaderboardView(this, null, decodeURIComponent(parts[2]));
    } else if (parts[0] === "leaderboard") {
      this.view = new LeaderboardView(this, decodeURIComponent(parts[1] ?? "spades"));
    } else if (parts[0] === "player" && parts[1]) {
      this.view = new PlayerView(this, decodeURIComponent(parts[1]));

    } else {
      this.view = new LobbyView(this);
    }
    this.view.mount(this.viewEl);
  }

  go(hash) {
    if (location.hash === hash) this.route();
    else location.hash = hash;
  }
}

/** The first visit: choose a name, then go where the link pointed. */
class NameView {
  constructor(app) {
    this.app = app;
  }

  mount(el) {
    const input = h("input", { id: "name", name: "name", required: true, maxlength: 32, autocomplete: "nickname", value: "" });
    const form = h("form", { class: "card-panel name-form", onsubmit: (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      this.app.setName(name);
      this.app.route();
    } },
      h("h1", {}, "Welcome to sparts"),
      h("p", {}, "Choose the name the other players will see."),
      h("label", { for: "name" }, "Your name"),
      input,
      h("button", { type: "submit", class: "primary" }, "Continue"));
    fill(el, form);
    input.focus();
  }

  unmount() {}
}

const app = new App();
window.sparts = { app, client: app.client };
app.start();
