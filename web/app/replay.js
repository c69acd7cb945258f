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
    // The controls are built once and updated in place: a control drawn anew under the
    // pointer loses the click or the choice being made on it (a replay that is playing
    // changes trick every few events).
    if (!this.controls) {
      this.controls = this.controlsEl();
      fill(this.controlsBox, this.controls.el);
    }
    this.updateControls(hand, trick);
    this.nowEl.textContent = this.lastText || "\u00a0";
    fill(this.boardBox, this.boardEl());
    restoreFocus(this.el, key);
  }

  controlsEl() {
    const o = this.outline;
    const c = {};
    c.hand = h("select", { id: "replay-hand", dataset: { focusKey: "hand" }, onchange: (e) => this.seek({ hand: Number(e.target.value) }) },
      o.hands.map((x) => h("option", { value: String(x.hand) }, `Hand ${x.hand}`)));
    c.trick = h("select", { id: "replay-trick", dataset: { focusKey: "trick" }, onchange: (e) => {
      if (e.target.value) this.seek({ hand: c.trickHand, trick: Number(e.target.value) });
    } });
    c.back = h("button", { type: "button", dataset: { focusKey: "back" }, onclick: () => this.seek({ position: Math.max(0, this.position - 1) }) }, "◀ Back");
    c.step = h("button", { type: "button", id: "replay-step", dataset: { focusKey: "step" }, onclick: () => { this.playing = false; this.control("step"); this.render(); } }, "Step ▶");
    c.play = h("button", { type: "button", id: "replay-play", dataset: { focusKey: "play" }, onclick: () => {
      this.playing = !this.playing;
      this.control(this.playing ? "play" : "pause", this.playing ? { speed: this.speed } : {});
      this.render();
    } }, "▶ Play");
    c.speed = h("select", { id: "replay-speed", dataset: { focusKey: "speed" }, onchange: (e) => {
      this.speed = Number(e.target.value);
      if (this.playing) this.control("play", { speed: this.speed });
      this.render();
    } }, SPEEDS.map((s) => h("option", { value: String(s) }, `${s} a second`)));
    c.el = h("div", { class: "card-panel controls", role: "toolbar", "aria-label": "Replay controls" },
      h("button", { type: "button", dataset: { focusKey: "first" }, onclick: () => this.seek({ position: 0 }) }, "Start"),
      c.back, c.step, c.play,
      h("label", { for: "replay-speed" }, "Speed"), c.speed,
      h("label", { for: "replay-hand" }, "Jump to"), c.hand,
      h("label", { for: "replay-trick", class: "sr-only" }, "Trick"), c.trick);
    return c;
  }

  updateControls(hand, trick) {
    const c = this.controls;
    const current = hand ?? this.outline.hands[0];
    c.back.disabled = this.position === 0;
    c.step.disabled = this.ended;
    c.play.disabled = this.ended && !this.playing;
    c.play.id = this.playing ? "replay-pause" : "replay-play";
    c.play.textContent = this.playing ? "Pause" : "▶ Play";
    c.speed.value = String(this.speed);
    if (current) c.hand.value = String(current.hand);
    if (c.trickHand !== current?.hand) {
      // the tricks to jump to are the current hand's
      c.trickHand = current?.hand;
      fill(c.trick, h("option", { value: "" }, "Trick…"),
        (current?.tricks ?? []).map((_, i) => h("option", { value: String(i + 1) }, `Trick ${i + 1}`)));
    }
    c.trick.value = trick ? String(trick) : "";
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
