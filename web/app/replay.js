// The replay viewer: a finished game from the archive, every hand face up, with
// step, play at a speed, and jumps to a hand or a trick (WebSocket replay messages).

import { TableModel, describeEvent, errorWords, getGame, bidWords, sideOfSeat } from "../lib/index.js";
import { h, fill, focusKey, restoreFocus } from "./dom.js";
import { cardEl } from "./table.js";
import { presetLabel, optionsInWords } from "./options.js";

const SPEEDS = [1, 2, 4, 8, 16];

export class ReplayView {
  constructor(app, table, game) {
    this.app = app;
    this.client = app.client;
    this.table = table;
    this.game = game;
    this.offs = [];
    this.outline = null;
    this.position = 0;
    this.playing = false;
    this.speed = 4;
    this.names = [];
    this.lastText = "";
    this.ended = false;
  }

  mount(el) {
    this.el = el;
    this.offs.push(this.client.on("replay_state", (m) => this.onState(m)));
    this.offs.push(this.client.on("replay_event", (m) => this.onEvent(m)));
    this.offs.push(this.client.on("replay_ended", (m) => this.onEnded(m)));
    this.offs.push(this.client.on("hello", () => this.start()));
    this.render();
    if (this.client.status === "open") this.start();
    getGame(this.table, this.game).then((g) => {
      this.names = (g.seats ?? g.players ?? []).map((x, i) => (x?.bot || x?.name === "Bot" ? `Bot ${i + 1}` : x?.name));
      this.render();
    }).catch(() => {});
  }

  unmount() {
    for (const off of this.offs) off();
    if (this.playing) this.client.replayControl("pause").catch(() => {});
  }

  async start() {
    try {
      this.outline = await this.client.replay(this.table, this.game, 0);
      const seats = Number(this.outline.ruleset?.options?.seats ?? 4);
      this.model = new TableModel(this.table, { replay: true, seats });
      this.playing = false;
      await this.seek({ position: this.position });
    } catch (err) {
      this.error = errorWords(err);
      this.render();
    }
  }

  nameOf(seat) {
    return this.names[seat] || `Seat ${seat + 1}`;
  }

  async control(action, extra = {}, what = "Replay") {
    try {
      await this.client.replayControl(action, extra);
    } catch (err) {
      this.app.toast(`${what}: ${errorWords(err)}`);
    }
  }

  seek(where) {
    this.ended = false;
    return this.control("seek", where, "Jump");
  }

  onState(m) {
    if (m.table !== this.table || m.game !== this.game || !this.model) return;
    this.model.applyReplayState(m);
    this.position = m.position;
    this.lastText = "";
    this.render();
  }

  onEvent(m) {
    if (m.table !== this.table || m.game !== this.game || !this.model) return;
    this.model.applyEvent(m.seq, m.event);
    this.position = m.position + 1;
    this.lastText = describeEvent(m.event, (s) => this.nameOf(s));
    this.render();
  }

  onEnded(m) {
    if (m.table !== this.table || m.game !== this.game) return;
    this.position = m.position;
    this.playing = false;
    this.ended = true;
    this.lastText = "The end of the game.";
    this.render();
  }

  /** Where we are: the hand and trick of the position, from the outline. */
  where() {
    const hands = this.outline?.hands ?? [];
    let hand = null;
    let trick = null;
    for (const x of hands) {
      // a hand or trick is current from its first event on (a jump lands just before it)
      if (x.position <= this.position) {
        hand = x;
        trick = null;
        x.tricks.forEach((p, i) => {
          if (p <= this.position) trick = i + 1;
        });
      }
    }
    return { hand, trick };
  }

  render() {
    if (!this.el) return;
    const key = focusKey(this.el);
    if (!this.outline || !this.model) {
      fill(this.el, h("div", { class: "card-panel" }, h("h1", {}, `Replay of ${this.table}, game ${this.game}`),
        h("p", {}, this.error ?? "Loading the game…"), h("p", {}, h("a", { href: "#/" }, "Back to the lobby"))));
      return;
    }
    const o = this.outline;
    const { hand, trick } = this.where();
    if (!this.skeleton) {
      this.headEl = h("p", { class: "muted" });
      this.controlsBox = h("div");
      this.nowEl = h("p", { class: "replay-now", "aria-live": "polite" });
      this.boardBox = h("div", { class: "replay-layout" });
      this.skeleton = true;
      fill(this.el,
        h("header", { class: "table-head" },
          h("div", {}, h("h1", {}, `Replay: table ${this.table}, game ${this.game} · ${presetLabel(o.ruleset.preset)}`), this.headEl),
          h("div", { class: "head-actions" }, h("a", { class: "button", href: "#/" }, "Lobby"))),
        this.controlsBox, this.nowEl, this.boardBox);
    }
    fill(this.headEl, optionsInWords(o.ruleset), ` · event ${this.position} of ${o.events}`,
      hand ? ` · hand ${hand.hand}` : "", trick ? `, trick ${trick}` : "");
    // The controls are drawn again only when they change, so that they hold still while playing.
    const controlsKey = JSON.stringify([this.playing, this.ended, this.position === 0, hand?.hand ?? null, trick, this.speed]);
    if (controlsKey !== this.controlsKey) {
      this.controlsKey = controlsKey;
      fill(this.controlsBox, this.controlsEl(hand, trick));
    }
    this.nowEl.textContent = this.lastText || "\u00a0";
    fill(this.boardBox, this.boardEl());
    restoreFocus(this.el, key);
  }

  controlsEl(hand, trick) {
    const o = this.outline;
    const handSelect = h("select", { id: "replay-hand", dataset: { focusKey: "hand" }, onchange: (e) => this.seek({ hand: Number(e.target.value) }) },
      o.hands.map((x) => h("option", { value: String(x.hand), selected: hand?.hand === x.hand }, `Hand ${x.hand}`)));
    const current = hand ?? o.hands[0];
    const trickSelect = h("select", { id: "replay-trick", dataset: { focusKey: "trick" }, onchange: (e) => this.seek({ hand: current.hand, trick: Number(e.target.value) }) },
      h("option", { value: "" }, "Trick…"),
      (current?.tricks ?? []).map((_, i) => h("option", { value: String(i + 1), selected: trick === i + 1 }, `Trick ${i + 1}`)));
    return h("div", { class: "card-panel controls", role: "toolbar", "aria-label": "Replay controls" },
      h("button", { type: "button", dataset: { focusKey: "first" }, onclick: () => this.seek({ position: 0 }) }, "Start"),
      h("button", { type: "button", dataset: { focusKey: "back" }, disabled: this.position === 0, onclick: () => this.seek({ position: Math.max(0, this.position - 1) }) }, "◀ Back"),
      h("button", { type: "button", id: "replay-step", dataset: { focusKey: "step" }, disabled: this.ended, onclick: () => { this.playing = false; this.control("step"); } }, "Step ▶"),
      this.playing
        ? h("button", { type: "button", id: "replay-pause", dataset: { focusKey: "play" }, onclick: () => { this.playing = false; this.control("pause"); this.render(); } }, "Pause")
        : h("button", { type: "button", id: "replay-play", dataset: { focusKey: "play" }, disabled: this.ended, onclick: () => { this.playing = true; this.control("play", { speed: this.speed }); this.render(); } }, "▶ Play"),
      h("label", { for: "replay-speed" }, "Speed"),
      h("select", { id: "replay-speed", dataset: { focusKey: "speed" }, onchange: (e) => {
        this.speed = Number(e.target.value);
        if (this.playing) this.control("play", { speed: this.speed });
        this.render();
      } }, SPEEDS.map((s) => h("option", { value: String(s), selected: s === this.speed }, `${s} a second`))),
      h("label", { for: "replay-hand" }, "Jump to"), handSelect,
      h("label", { for: "replay-trick", class: "sr-only" }, "Trick"), trickSelect);
  }

  boardEl() {
    const s = this.model.state;
    const v = s.view;
    const n = v?.seats ?? this.model.seats ?? 4;
    const seats = Array.from({ length: n }, (_, seat) => {
      const hand = s.hands[seat] ?? [];
      let score = "";
      if (v && v.scores.length) {
        const idx = v.scores.length === n && s.sides.length !== n ? seat : sideOfSeat(s, seat);
        score = `Score ${v.scores[idx] ?? 0}${v.bags[idx] !== undefined ? ` · bags ${v.bags[idx]}` : ""}`;
      }
      return h("section", { class: `replay-seat${v?.turn === seat ? " on-turn" : ""}`, dataset: { seat: String(seat) }, "aria-label": `${this.nameOf(seat)}'s hand` },
        h("h2", { class: "seat-name" }, this.nameOf(seat), v?.dealer === seat ? h("span", { class: "badge" }, "Dealer") : ""),
        v ? h("div", { class: "tricks" }, h("strong", {}, `${v.tricks[seat]} / ${v.bids[seat] === null ? "–" : bidWords(v.bids[seat])}`), h("span", { class: "hint" }, " tricks / bid")) : null,
        score ? h("div", { class: "score" }, score) : null,
        h("div", { class: "hand small" }, hand.map((c) => cardEl(c))));
    });
    let cards = v?.trick.cards ?? [];
    let caption = v?.phase === "playing" ? `Trick ${v.trick_number}` : "";
    if (!cards.length && s.lastTrick) {
      cards = s.lastTrick.cards;
      caption = `${this.nameOf(s.lastTrick.winner)} won trick ${s.lastTrick.trick}`;
    }
    const scored = s.handScored;
    return [
      h("div", { class: "replay-seats" }, seats),
      h("div", { class: "center replay-center" },
        h("p", { class: "trick-caption" }, v ? caption : "Before the deal"),
        h("div", { class: "trick-row" }, cards.map(({ seat, card }) => h("figure", { class: "played" }, cardEl(card), h("figcaption", {}, this.nameOf(seat))))),
        scored ? h("p", { class: "hint" }, describeEvent(scored, (x) => this.nameOf(x))) : null,
        s.gameOver && s.gameOver.reason ? h("p", {}, describeEvent({ type: "game_over", ...s.gameOver }, (x) => this.nameOf(x))) : null),
    ];
  }
}
