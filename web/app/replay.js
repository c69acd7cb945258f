// The replay viewer: a finished game from the archive on the live table's ring
// (the same seats, trick and cards), every hand face up in its seat, with step,
// play at a speed, and jumps to a hand or a trick (WebSocket replay messages)
// beside the table, or under it on a phone.

import { TableModel, describeEvent, errorWords, getGame, sideOfSeat, trickWinner, jokerDeckOf, lowScoreWins } from "../lib/index.js";
import { h, fill, focusKey, restoreFocus } from "./dom.js";
import { cardEl, ringPlace, trickEl, narrowScreen, seatFigures } from "./table.js";
import { presetLabel, optionsInWords } from "./options.js";
import { seatNames } from "./names.js";

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
    document.body.classList.add("at-table");
    this.offs.push(this.client.on("replay_state", (m) => this.onState(m)));
    this.offs.push(this.client.on("replay_event", (m) => this.onEvent(m)));
    this.offs.push(this.client.on("replay_ended", (m) => this.onEnded(m)));
    this.offs.push(this.client.on("hello", () => this.start()));
    this.render();
    if (this.client.status === "open") this.start();
    getGame(this.table, this.game).then((g) => {
      // As the table named them: a bot by its seat, yourself "(you)", two of one name told apart.
      const holders = (g.seats ?? g.players ?? []).map((x) => (x && x.name === "Bot" && !x.player ? { ...x, bot: true } : x));
      this.names = seatNames(holders, this.client.player, { botSeats: true });
      this.render();
    }).catch(() => {});
  }

  unmount() {
    // A late answer (the game's names, a failed open, a deal's check, ratings) must not draw over the next page.
    this.gone = true;
    document.body.classList.remove("at-table");
    for (const off of this.offs) off();
    if (this.playing) this.client.replayControl("pause").catch(() => {});
  }

  async start() {
    try {
      this.outline = await this.client.replay(this.table, this.game, 0);
      // Left meanwhile: a seek now would move the replay of the page that replaced this one.
      if (this.gone) return;
      const seats = Number(this.outline.ruleset?.options?.seats ?? 4);
      this.model = new TableModel(this.table, { replay: true, seats, ruleset: this.outline.ruleset });
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
    this.lastText = this.stateWords();
    this.render();
  }

  /** Where a seek (Start, Back, Jump to) landed, in words: no event has been told there yet. */
  stateWords() {
    const v = this.model.state.view;
    if (this.position === 0) return "The start of the game: Step or Play to follow it.";
    if (this.position >= this.outline.events || v?.phase === "game_over") return "The end of the game.";
    const { hand, trick } = this.where();
    const at = hand ? `Hand ${hand.hand}${trick ? `, trick ${trick}` : ""}` : `Event ${this.position}`;
    if (v?.phase === "passing") return `${at}: passing.`;
    const doing = { bidding: "to bid", playing: v?.trick?.cards?.length ? "to play" : "to lead", choosing: "to choose",
      moon_choice: "to choose how the moon scores" }[v?.phase];
    return doing && Number.isInteger(v.turn) ? `${at}: ${this.nameOf(v.turn)} ${doing}.` : `${at}.`;
  }

  onEvent(m) {
    if (m.table !== this.table || m.game !== this.game || !this.model) return;
    this.model.applyEvent(m.seq, m.event);
    this.position = m.position + 1;
    this.lastText = describeEvent(m.event, (s) => this.nameOf(s), { jokerDeck: jokerDeckOf(this.outline?.ruleset) });
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
    if (!this.el || this.gone) return;
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
      this.trickLine = h("p", { class: "trick-line" });
      this.controlsBox = h("div");
      this.nowEl = h("p", { class: "replay-now", "aria-live": "polite" });
      this.scoresBox = h("div", { class: "replay-scores" });
      this.feltEl = h("div", { class: "felt ring", role: "region", "aria-label": "The table" });
      this.skeleton = true;
      fill(this.el, h("div", { class: "table-page replay-page" },
        h("header", { class: "table-head" },
          h("div", {}, h("h1", {}, `Replay: table ${this.table}, game ${this.game} · ${presetLabel(o.ruleset.preset)}`), this.headEl),
          this.trickLine,
          h("div", { class: "head-actions" }, h("a", { class: "button", href: "#/" }, "Lobby"))),
        h("div", { class: "table-main" },
          this.feltEl,
          h("aside", { class: "side replay-side", "aria-label": "Replay" }, this.controlsBox, this.nowEl, this.scoresBox))));
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
    const n = this.model.state.view?.seats ?? this.model.seats ?? 4;
    this.feltEl.className = `felt ring ring-${n}`;
    const { caption, center } = this.centerEl(n);
    // (a line kept when empty: on a phone the felt under it moved at every trick's start and end)
    this.trickLine.textContent = caption || "\u00a0";
    fill(this.feltEl, this.seatsEl(n), center);
    // A seat's box is as high as its rows of cards: its half-height keeps it inside the felt.
    for (const seat of this.feltEl.querySelectorAll(".seat")) seat.style.setProperty("--h", `${Math.ceil(seat.offsetHeight / 2) + 3}px`);
    fill(this.scoresBox, this.resultEl());
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

  /** Every seat on the ring, seat 1 at the bottom and the others clockwise from its left, each with its hand face up. */
  seatsEl(n) {
    const s = this.model.state;
    const v = s.view;
    const phone = narrowScreen();
    return h("div", { class: `seats seats-${n}` }, Array.from({ length: n }, (_, seat) => {
      const hand = s.hands[seat] ?? [];
      const place = phone && n >= 5 ? columnPlace(seat, n) : ringPlace(seat, n, 44, 41);
      // As the live table draws them (a Hearts hand: no bids, no bags, the hearts taken); in a
      // phone's narrow box, the short words.
      let score = null;
      let bags = null;
      if (v?.scores.length) {
        const idx = v.scores.length === n && s.sides.length !== n ? seat : sideOfSeat(s, seat);
        score = v.scores[idx] ?? 0;
        bags = v.bags[idx] ?? null;
      }
      const lines = v ? seatFigures(v, seat, { score, bags, lowWins: lowScoreWins(this.outline?.ruleset), narrow: phone, oneLine: true }) : [];
      const badges = [];
      if (v?.dealer === seat) badges.push(h("span", { class: "badge" }, "Dealer"));
      if (v?.turn === seat) badges.push(h("span", { class: "badge turn" }, "To play"));
      return h("section", {
        class: `seat replay-seat pos-${seat}${v?.turn === seat ? " on-turn" : ""}`, dataset: { seat: String(seat) },
        style: { "--x": `${place.x}%`, "--y": `${place.y}%` },
        "aria-label": `Seat ${seat + 1}: ${this.nameOf(seat)}`,
      },
      h("h2", { class: "seat-name" }, this.nameOf(seat), badges.flatMap((b) => [" ", b])),
      lines,
      h("div", { class: "seat-hand", role: "group", "aria-label": `${this.nameOf(seat)}'s hand: ${hand.length} card${hand.length === 1 ? "" : "s"}` },
        hand.map((c) => cardEl(c, { jokerDeck: jokerDeckOf(this.outline?.ruleset) }))));
    }));
  }

  /** The trick in the middle, as on the live table (or the last one, until the next is led); its words. */
  centerEl(n) {
    const s = this.model.state;
    const v = s.view;
    let cards = v?.trick.cards ?? [];
    const jokerDeck = jokerDeckOf(this.outline?.ruleset);
    let winner = cards.length ? trickWinner(cards, v.kind, jokerDeck) : null;
    let caption = v?.phase === "playing" ? `Trick ${v.trick_number}` : "";
    if (v?.phase === "playing" && cards.length) caption += `: ${this.nameOf(cards[winner].seat)} ${cards.length === n ? "takes it" : "is winning"}`;
    let done = false;
    if (!cards.length && s.lastTrick) {
      cards = s.lastTrick.cards;
      winner = cards.findIndex((c) => c.seat === s.lastTrick.winner);
      caption = `${this.nameOf(s.lastTrick.winner)} won trick ${s.lastTrick.trick}`;
      done = true;
    }
    if (!v) caption = "Before the deal";
    // Nearer the middle than on the live table: the seats' boxes hold their hands here.
    const phone = narrowScreen();
    // On a phone, up to four cards in a cross far enough apart that none covers another or its name.
    const spread = phone ? (n === 4 ? [22, 24] : n <= 3 ? [24, 18] : [30, 24]) : [n <= 4 ? 27 : 33, 20];
    const center = h("div", { class: `center${done ? " done" : ""}`, role: "group", "aria-label": "Cards on the table" },
      trickEl(cards, winner, (seat) => seat, (pos) => ringPlace(pos, n, ...spread), (seat) => this.nameOf(seat), jokerDeck),
      h("div", { class: "center-info" }, h("p", { class: "trick-caption" }, caption)));
    return { caption, center };
  }

  /** The hand's score and the game's end, in words, beside the table. */
  resultEl() {
    const s = this.model.state;
    const scored = s.handScored;
    const over = s.gameOver && s.gameOver.reason ? s.gameOver : null;
    return [
      scored ? h("p", { class: "replay-scored" }, describeEvent(scored, (x) => this.nameOf(x))) : null,
      over ? h("p", { class: "replay-over" }, describeEvent({ type: "game_over", ...over }, (x) => this.nameOf(x))) : null,
    ];
  }
}

/**
 * Where seat `i` of `n` sits on a phone's tall table when the seats' boxes hold their
 * hands: seat 1 at the bottom, the others up a column on its left, across the top
 * (one seat, when they do not pair) and down a column on its right, clockwise as on
 * the ring; % of the box. A ring would put the top seats' tall boxes over each other.
 */
export function columnPlace(i, n) {
  const others = n - 1;
  const top = others % 2;
  const side = (others - top) / 2;
  // the columns run the table's whole height: the top and bottom seats sit between them
  const step = side > 1 ? 80 / (side - 1) : 0;
  if (i === 0) return { x: 50, y: 92 };
  if (i <= side) return { x: 0, y: side > 1 ? 90 - (i - 1) * step : 50 };
  if (top && i === side + 1) return { x: 50, y: 8 };
  const j = i - side - 1 - top;
  return { x: 100, y: side > 1 ? 10 + j * step : 50 };
}
