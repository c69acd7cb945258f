// The table: seats, your hand, the trick, bids, passing, scores, the log.
// It draws only what the table model holds, and the model holds only what the
// server sent: a spectator's page never has a hidden card.

import {
  cardName, cardShort, isRed, parseCard, describeEvent, errorWords, bidWords, passDirectionWords,
  SCORE_COMPONENT_WORDS, sideOfSeat, ranksOf, lowScoreWins, trickWinner, checkDealCommitment, getPlayer, jokerDeckOf,
} from "../lib/index.js";
import { h, patch, focusKey, restoreFocus } from "./dom.js";
import { optionsInWords, presetLabel, optionsFor } from "./options.js";
import { seatNames } from "./names.js";
import { cardFace } from "./card-face.js";

const KIND_WORDS = { spades: "Spades", hearts: "Hearts", sparts: "Sparts", undecided: "to be chosen" };
const PHASE_WORDS = { dealing: "Dealing", choosing: "Choosing", passing: "Passing", bidding: "Bidding", playing: "Playing", moon_choice: "The shooter chooses", game_over: "Game over" };

/**
 * A face-up card; a button when `onclick` is given. `options.jokerDeck`: the table's
 * joker_deck, so that Joker Spades' jokers say which is the Big one.
 */
export function cardEl(card, options = {}) {
  const c = parseCard(card);
  const jokerDeck = options.jokerDeck ?? "none";
  const label = cardName(card, jokerDeck);
  const cls = ["card", isRed(card) ? "red" : "black", c.joker ? "joker" : "", c.deck === 2 ? "deck2" : "", options.class ?? ""].filter(Boolean).join(" ");
  const symbol = c.joker ? "★" : cardShort(card).slice(-1);
  const word = c.joker && jokerDeck !== "none";
  const rank = word ? (c.joker === 1 ? "Big" : "Little") : cardShort(card).replace(/[♠♥♦♣]$/, "");
  const face = [h("span", { class: word ? "rank rank-word" : rank.length > 1 ? "rank rank-two" : "rank", "aria-hidden": "true" }, rank),
    h("span", { class: "suit", "aria-hidden": "true" }, symbol), cardFace(c, symbol)];
  if (options.button) {
    return h("button", {
      type: "button", class: cls, "aria-label": label, dataset: { card, focusKey: `card-${card}` },
      disabled: options.disabled, "aria-pressed": options.pressed === undefined ? undefined : String(options.pressed),
      onclick: options.onclick,
    }, face);
  }
  return h("div", { class: cls, role: "img", "aria-label": label, dataset: { card } }, face);
}

export function formatMs(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class TableView {
  constructor(app, table, invite) {
    this.app = app;
    this.client = app.client;
    this.table = table;
    this.invite = invite;
    this.watchOnly = new URLSearchParams(location.hash.split("?")[1] ?? "").get("watch") === "1";
    // The log lives in the tab's session storage, so that a reload keeps it.
    this.logKey = `sparts.log.${table}`;
    this.log = [];
    try {
      this.log = JSON.parse(sessionStorage.getItem(this.logKey) ?? "[]");
    } catch {
      this.log = [];
    }
    this.offs = [];
    this.passSel = [];
    this.backSel = [];
    this.passKey = null;
    this.dismissedHand = null;
    this.opened = false;
    this.lastTurnSeq = null;
    // The score sheet: every hand scored this game, kept in the tab like the log.
    this.sheetKey = `sparts.sheet.${table}`;
    try {
      this.sheet = JSON.parse(sessionStorage.getItem(this.sheetKey) ?? "null") ?? { game: 0, hands: [] };
    } catch {
      this.sheet = { game: 0, hands: [] };
    }
    // The misclick guard: a card is raised by a first tap and played by a second.
    this.guard = localStorage.getItem("sparts.guard") === "on";
    this.raised = null;
  }

  mount(el) {
    this.el = el;
    document.body.classList.add("at-table");
    this.onResize = () => this.render();
    window.addEventListener("resize", this.onResize);
    if (this.invite) this.client.invites.set(this.table, this.invite);
    this.offs.push(this.client.on("table", (m) => m.table === this.table && this.render()));
    this.offs.push(this.client.on("event", (msg) => {
      if (msg.table !== this.table) return;
      this.addLog(describeEvent(msg.event, (s) => this.nameOf(s), { jokerDeck: jokerDeckOf(this.state.info?.ruleset) }), msg.event.type);
      const e = msg.event;
      if (e.type === "card_played") {
        this.app.sound.play("card");
        this.arriving = e.seat; // the card moves in from its seat (or from your hand)
        // A look back at the last trick ends as the table moves on: the card just played is shown.
        this.showLastTrick = false;
      } else if (e.type === "trick_won") {
        this.app.sound.play("trick");
        // The trick stays a moment, then goes to its winner.
        this.sweep = { winner: e.winner, at: Date.now() + 900 };
        clearTimeout(this.sweepTimer);
        this.sweepTimer = setTimeout(() => this.render(), 950);
      } else if (e.type === "game_started") {
        this.keepSheet({ game: e.game, hands: [] });
      } else if (e.type === "hand_scored") {
        const game = this.state.game;
        const sheet = this.sheet.game === game ? this.sheet : { game, hands: [] };
        sheet.hands = [...sheet.hands.filter((x) => x.hand !== e.hand), {
          hand: e.hand, kind: e.kind,
          sides: e.sides.map((x) => ({ seats: x.seats, bid: x.bid, tricks: x.tricks, hand_total: x.hand_total, score: x.score, bags: x.bags })),
        }];
        this.keepSheet(sheet);
      } else if (e.type === "turn_timed_out") {
        this.notify(`Time ran out: the server plays for ${this.nameOf(e.seat)}.`);
      } else if (e.type === "seat_absent") {
        this.notify(`${this.nameOf(e.seat)} is away: the server plays for that seat until they are back.`);
      }
    }));
    this.offs.push(this.client.on("snapshot", (msg) => {
      if (msg.table === this.table) this.addLog(msg.you === null ? "You are watching this table." : `You are in seat ${msg.you + 1}.`, "snapshot");
    }));
    this.offs.push(this.client.on("resumed", (r) => {
      if (r.table === this.table) this.addLog(r.mode === "events" ? "Reconnected: caught up." : "Reconnected.", "resumed");
    }));
    this.offs.push(this.client.on("hello", () => this.openTable()));
    this.offs.push(this.client.on("status", () => this.render()));
    // The phone's More menu closes as a menu does: a tap outside it, or Escape (back to its button).
    const closeMenu = (e) => {
      if (!this.menuOpen) return;
      if (e.type === "keydown" ? e.key !== "Escape" : e.target.closest?.(".menu")) return;
      this.menuOpen = false;
      this.render();
      if (e.type === "keydown") this.el?.querySelector("#menu")?.focus();
    };
    document.addEventListener("pointerdown", closeMenu);
    document.addEventListener("keydown", closeMenu);
    this.offs.push(() => {
      document.removeEventListener("pointerdown", closeMenu);
      document.removeEventListener("keydown", closeMenu);
    });
    this.timer = setInterval(() => this.tick(), 250);
    if (this.client.status === "open") this.openTable();
    this.render();
  }

  keepSheet(sheet) {
    this.sheet = sheet;
    try {
      sessionStorage.setItem(this.sheetKey, JSON.stringify(sheet));
    } catch {
      // storage full or disabled: the sheet is only lost on reload
    }
  }

  /** Every hand of the game so far, side by side. */
  sheetEl() {
    const s = this.state;
    const hands = this.sheet.game === s.game ? this.sheet.hands : [];
    const first = hands[0];
    const sides = first ? first.sides.map((x) => x.seats) : s.sides;
    const sideName = (seats) => seats.map((x) => this.nameOf(x)).join(" & ");
    return h("section", { class: "card-panel sheet", role: "dialog", "aria-labelledby": "sheet-title" },
      h("h2", { id: "sheet-title" }, `Score sheet · game ${s.game}`),
      hands.length ? scoreTable(sides.length,
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Hand"), sides.map((x) => h("th", { scope: "col" }, sideName(x))))),
        h("tbody", {}, hands.map((x) => h("tr", {},
          h("th", { scope: "row" }, `${x.hand} (${KIND_WORDS[x.kind] ?? x.kind})`),
          x.sides.map((side) => h("td", {}, `${side.hand_total > 0 ? "+" : ""}${side.hand_total} → ${side.score}`,
            side.bid !== null && side.bid !== undefined ? h("span", { class: "hint" }, ` (bid ${side.bid}, took ${side.tricks})`) : "")))))) :
        h("p", {}, "No hand has been scored yet this game."),
      first && first.hand > 1 ? h("p", { class: "hint" }, `Hands before hand ${first.hand} were scored before this page joined the table.`) : null,
      h("button", { type: "button", dataset: { focusKey: "sheet-close" }, onclick: () => { this.showSheet = false; this.render(); } }, "Close"));
  }

  /** A line over the table for a few seconds (what the server did for a seat). */
  notify(text) {
    this.notice = { text, until: Date.now() + 5000 };
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => this.render(), 5100);
  }

  unmount() {
    // A late answer (the game's names, a failed open, a deal's check, ratings) must not draw over the next page.
    this.gone = true;
    clearInterval(this.timer);
    clearTimeout(this.sweepTimer);
    clearTimeout(this.noticeTimer);
    for (const off of this.offs) off();
    document.body.classList.remove("at-table");
    window.removeEventListener("resize", this.onResize);
  }

  async openTable() {
    if (this.opened) return;
    this.opened = true;
    try {
      const held = this.client.seats.some((s) => s.table === this.table);
      if (!held && this.watchOnly) await this.client.watch(this.table, { invite: this.invite ?? undefined });
      else await this.client.open(this.table, { invite: this.invite ?? undefined });
    } catch (err) {
      this.opened = false;
      this.error = errorWords(err);
      this.render();
    }
  }

  get state() {
    return this.client.model(this.table).state;
  }

  nameOf(seat) {
    const s = this.state;
    const holder = s.info?.seats[seat];
    if (!holder) return seat === s.you ? `Seat ${seat + 1} (you)` : `Seat ${seat + 1}`;
    // Bots are all named "Bot": the seat number tells them apart; two people of one name, their ids.
    const name = seatNames(s.info.seats, null, { botSeats: true })[seat];
    return seat === s.you ? `${name} (you)` : name;
  }

  /** Where a seat sits from yours, in words (four seats). */
  whereWords(seat) {
    const s = this.state;
    const n = s.info?.seats.length ?? 4;
    if (s.you === null || n !== 4 || seat === s.you) return "";
    return ["", "left", "across", "right"][(seat - s.you + n) % n];
  }

  addLog(text, kind) {
    // Each line keeps its number as the oldest make way (the list was numbered anew from 1).
    const last = this.log.at(-1);
    this.log.push({ text, kind, n: (last?.n ?? this.log.length) + 1 });
    if (this.log.length > 300) this.log.splice(0, this.log.length - 300);
    try {
      sessionStorage.setItem(this.logKey, JSON.stringify(this.log));
    } catch {
      // storage full or disabled: the log is only lost on reload
    }
    const list = this.el?.querySelector(".log ol");
    if (list) {
      list.append(h("li", { class: `log-${kind}` }, text));
      while (list.children.length > 300) list.firstChild.remove();
      list.start = this.log[0].n ?? 1;
      list.parentElement.scrollTop = list.parentElement.scrollHeight;
    }
  }

  tick() {
    for (const t of this.el.querySelectorAll("[data-deadline]")) {
      const left = Number(t.dataset.deadline) - Date.now();
      t.textContent = formatMs(left);
      // The last minute of a game clock, the last ten seconds of a turn: a warning colour.
      const warnBelow = t.classList.contains("game-clock") ? 60000 : 10000;
      t.classList.toggle("warn", left < warnBelow);
      // Your own turn running out: a tone, once a turn.
      if (left < warnBelow && left > 0 && t.classList.contains("timer") && t.closest(".you") && !this.warned) {
        this.warned = true;
        this.app.sound.play("warn");
      }
    }
  }

  // ---- actions

  async act(fn, what) {
    try {
      await fn();
    } catch (err) {
      this.app.toast(`${what}: ${errorWords(err)}`);
    }
  }

  /**
   * The seat's action on its turn, sent once: a second click before the table answers (a double
   * tap, a card still drawn playable) was sent too, and refused with an "It is not your turn"
   * notice. A refusal of the first frees the turn for another try.
   */
  turnAct(fn, what) {
    const turn = this.state.yourTurn;
    if (turn && this.sentTurn === turn) return;
    this.sentTurn = turn;
    return this.act(async () => {
      try {
        await fn();
      } catch (err) {
        if (this.sentTurn === turn) this.sentTurn = null;
        throw err;
      }
    }, what);
  }

  // ---- drawing

  render() {
    if (!this.el || this.gone) return;
    const key = focusKey(this.el);
    const s = this.state;
    const logScroll = this.el.querySelector(".log");
    const atBottom = !logScroll || logScroll.scrollTop + logScroll.clientHeight >= logScroll.scrollHeight - 8;
    const chatScroll = this.el.querySelector(".chat-lines");
    const chatAtBottom = !chatScroll || chatScroll.scrollTop + chatScroll.clientHeight >= chatScroll.scrollHeight - 8;
    if (!s.synced) {
      patch(this.el, h("div", { class: "card-panel" },
        h("h1", {}, `Table ${this.table}`),
        h("p", {}, this.error ?? (this.client.status === "open" ? "Opening the table…" : "Connecting…")),
        h("p", {}, h("a", { href: "#/" }, "Back to the lobby"))));
      return;
    }
    const yourTurn = s.yourTurn;
    const newTurn = Boolean(yourTurn && yourTurn.seq !== this.lastTurnSeq);
    if (yourTurn && yourTurn.seq !== this.lastTurnSeq) {
      this.lastTurnSeq = yourTurn.seq;
      const words = { play: "Your turn: play a card.", bid: "Your turn to bid.", pass: "Choose the cards to pass.", choose: "Choose Spades or Hearts.", moon: "You shot the moon: choose how it scores." };
      this.app.announce(words[yourTurn.legal.kind] ?? "Your turn.");
      this.app.sound.play("turn");
      this.warned = false;
    }
    const n = s.info?.seats.length ?? s.view?.seats ?? 4;
    const before = this.motionBefore();
    patch(this.el,
      h("div", { class: "table-page" },
        this.header(),
        this.confirmLeaveEl(),
        s.closed ? h("p", { class: "banner" }, "This table is closed.") : null,
        h("div", { class: "table-main" },
          h("div", { class: `felt ring ring-${n}`, role: "region", "aria-label": "The table" },
            this.seatsEl(),
            this.scoreboardEl(),
            this.centerEl(),
            this.actionEl(),
            this.noticeEl(),
            this.overlayEl()),
          h("aside", { class: `side${this.chatOpen ? " chat-open" : ""}${this.logOpen ? " log-open" : ""}` },
            this.logEl(), this.logToggleEl(), this.chatEl(), this.chatToggleEl())),
        h("div", { class: "my-area" },
          s.you !== null ? h("div", { class: "me" }, this.seatEl(s.you, 0)) : null,
          this.handEl())));
    this.motionAfter(before);
    const log = this.el.querySelector(".log");
    if (log && atBottom) log.scrollTop = log.scrollHeight;
    const chatLines = this.el.querySelector(".chat-lines");
    if (chatLines && chatAtBottom) chatLines.scrollTop = chatLines.scrollHeight;
    restoreFocus(this.el, key);
    // For keyboard play: when your turn comes and the focus is nowhere in particular
    // (or on the card just played), it moves to the first thing you may do.
    const active = document.activeElement;
    if (newTurn && (!active || active === document.body || active === this.el)) {
      this.el.querySelector(".hand button.card.playable, .bids button, .action button.primary")?.focus();
    }
    this.tick();
  }

  header() {
    const s = this.state;
    const info = s.info;
    const v = s.view;
    const link = `${location.origin}${location.pathname}#/table/${encodeURIComponent(this.table)}${this.client.invites.get(this.table) ? `?invite=${this.client.invites.get(this.table)}` : ""}`;
    const seated = s.you !== null;
    return h("header", { class: "table-head" },
      h("div", {},
        h("h1", {}, `Table ${this.table} · ${info?.rule_set ? info.rule_set.label : presetLabel(info?.ruleset.preset)}`),
        h("p", { class: "muted" }, optionsInWords(info?.ruleset),
          info ? ` · ${info.turn_seconds ? `${info.turn_seconds} s a turn` : "no turn limit"}` : "",
          info?.private ? " · private" : "",
          v ? ` · game ${s.game}, hand ${v.hand_number}${v.kind ? ` (${KIND_WORDS[v.kind] ?? v.kind})` : ""} · ${PHASE_WORDS[v.phase] ?? v.phase}` : "",
          s.clockDeadline ? [" · game clock ", h("span", { class: "game-clock", role: "timer", "aria-label": "Game clock", dataset: { deadline: String(s.clockDeadline) } })] : "",
          !seated ? " · you are watching" : "")),
      v ? h("p", { class: "trick-line" },
        [this.trickInfo().caption, brokenWords(v), this.centerWords(), this.waitingWords()].filter(Boolean).join(" · ")) : null,
      h("div", { class: "head-actions" },
        s.lastTrick ? h("button", {
          type: "button", dataset: { focusKey: "last-trick" }, "aria-pressed": String(Boolean(this.showLastTrick)),
          onclick: () => { this.showLastTrick = !this.showLastTrick; this.render(); },
        }, "Last trick") : null,
        this.menuEl(link),
        h("a", { class: "button", href: "#/" }, "Lobby"),
        seated || s.synced ? h("button", { type: "button", dataset: { focusKey: "leave" }, onclick: () => {
          // Mid-game a seat left goes to a bot for the rest of the game: ask first.
          if (seated && s.info?.state === "playing") {
            this.confirmLeave = true;
            this.render();
            return;
          }
          this.leave();
        } }, seated ? "Leave seat" : "Stop watching") : null));
  }

  /**
   * What a player seldom needs during a hand: the score sheet, sound, confirming plays, the
   * invite link. Beside the other buttons on a desktop; on a phone, behind one "More" button,
   * so that the header keeps to one row and the table gets the height.
   */
  menuEl(link) {
    const s = this.state;
    const items = [
      s.view ? h("button", {
        type: "button", id: "sheet", dataset: { focusKey: "sheet" }, "aria-pressed": String(Boolean(this.showSheet)),
        onclick: () => { this.showSheet = !this.showSheet; this.menuOpen = false; this.render(); },
      }, "Score sheet") : null,
      h("button", {
        // (its words say the state: a pressed state as well was read out twice, "Sound off, not pressed")
        type: "button", id: "sound", dataset: { focusKey: "sound" },
        onclick: () => { this.app.sound.setMuted(!this.app.sound.muted); this.menuOpen = false; this.render(); },
      }, this.app.sound.muted ? "Sound off" : "Sound on"),
      // Confirming plays is for a seat: a spectator plays no card.
      s.you === null ? null : h("button", {
        type: "button", id: "guard", dataset: { focusKey: "guard" }, "aria-pressed": String(this.guard),
        title: "Tap a card to raise it, tap it again to play it",
        onclick: () => {
          this.guard = !this.guard;
          localStorage.setItem("sparts.guard", this.guard ? "on" : "off");
          this.raised = null;
          this.menuOpen = false;
          this.render();
        },
      }, "Confirm plays"),
      h("button", { type: "button", dataset: { focusKey: "copy" }, onclick: () => { this.menuOpen = false; this.copyLink(link); } }, "Copy invite link"),
      h("input", { class: "invite-link", readonly: true, value: link, "aria-label": "Invite link" }),
      // In a tab of its own: the table stays where it is.
      s.info ? h("a", { class: "button", href: `#/rules/${s.info.ruleset.preset}`, target: "_blank", rel: "noopener", id: "rules-link" }, "How to play") : null,
    ];
    if (!narrowScreen()) return items;
    return h("div", { class: "menu" },
      h("button", {
        type: "button", id: "menu", class: "menu-button", "aria-expanded": String(Boolean(this.menuOpen)), "aria-controls": "menu-items",
        dataset: { focusKey: "menu" }, onclick: () => { this.menuOpen = !this.menuOpen; this.render(); },
      }, "More"),
      h("div", { class: "menu-items", id: "menu-items", hidden: !this.menuOpen }, items));
  }

  leave() {
    this.confirmLeave = false;
    return this.act(async () => {
      await this.client.leave(this.table);
      this.app.go("#/");
    }, "Leave");
  }

  confirmLeaveEl() {
    if (!this.confirmLeave || this.state.you === null) return null;
    return h("section", { class: "card-panel confirm", role: "alertdialog", "aria-labelledby": "leave-title", "aria-describedby": "leave-words" },
      h("h2", { id: "leave-title" }, "Leave your seat?"),
      h("p", { id: "leave-words" }, "The game goes on: a bot plays your seat until its end, and you cannot come back to it."),
      h("div", { class: "confirm-buttons" },
        // Staying is the way that loses nothing: it stands out; leaving, which cannot be undone, is marked so.
        h("button", { type: "button", class: "danger", id: "leave-confirm", dataset: { focusKey: "leave-confirm" }, onclick: () => this.leave() }, "Leave the seat"),
        h("button", { type: "button", class: "primary", id: "leave-cancel", dataset: { focusKey: "leave-cancel" }, onclick: () => { this.confirmLeave = false; this.render(); } }, "Stay")));
  }

  async copyLink(link) {
    try {
      await navigator.clipboard.writeText(link);
      this.app.toast("Invite link copied.");
    } catch {
      const input = this.el.querySelector(".invite-link");
      input?.select();
      this.app.toast("Select the link and copy it.");
    }
  }

  /** Seats in display order: yours at the bottom, the others clockwise from your left. */
  order() {
    const s = this.state;
    const n = s.info?.seats.length ?? s.view?.seats ?? 4;
    const me = s.you ?? 0;
    return Array.from({ length: n }, (_, i) => (me + i) % n);
  }

  /** The other seats around the table, clockwise from your left (every seat for a spectator). */
  seatsEl() {
    const s = this.state;
    const order = this.order();
    const shown = order.map((seat, i) => [seat, i]).filter(([seat]) => seat !== s.you);
    return h("div", { class: `seats seats-${order.length}` }, shown.map(([seat, i]) => this.seatEl(seat, i, ringPlace(i, order.length, 44, 41))));
  }

  seatEl(seat, pos, place) {
    const s = this.state;
    const v = s.view;
    const holder = s.info?.seats[seat] ?? null;
    const seated = s.you !== null;
    const onTurn = v && (v.turn === seat || (v.phase === "passing" && v.waiting_for.includes(seat)) || (v.phase === "choosing" && v.waiting_for.includes(seat)));
    const n = s.info?.seats.length ?? 4;
    let score = null;
    let bags = null;
    if (v && v.scores.length) {
      const idx = v.scores.length === n && s.sides.length !== n ? seat : sideOfSeat(s, seat);
      score = v.scores[idx];
      bags = v.bags[idx];
    }
    // A seat on a phone's ring has a box a few words wide: short words, whole, rather than long ones cut.
    const narrow = Boolean(place) && narrowScreen();
    // A partnership's score is the side's: on the scoreboard once, not on each partner. On a phone
    // your own seat's line under the felt takes the short words too (the long ones wrapped it).
    const lines = v ? seatFigures(v, seat, { score: this.partnered() ? null : score, bags, lowWins: lowScoreWins(s.info?.ruleset), narrow: narrowScreen() }) : [];
    if (v) lines.push(h("div", { class: "hint cards-left" }, `${v.hand_sizes[seat]} card${v.hand_sizes[seat] === 1 ? "" : "s"}`));
    const badges = [];
    const dealer = Boolean(v && v.dealer === seat);
    const partner = Boolean(v && s.you !== null && seat !== s.you && v.partners[s.you]?.includes(seat));
    const away = s.absent.includes(seat);
    const passed = Boolean(v?.phase === "passing" && v.passed_seats.includes(seat));
    const again = s.again.includes(seat);
    // On a phone, or where a seat has three badges or more (the dealer, a partner, who has
    // passed: a line a box wide holds two words), the dealer's badge is the dealer button's
    // "D" and a seat that has passed a tick (the whole word is still there for a screen reader).
    const compact = narrow || [dealer, partner, away, passed, again, onTurn].filter(Boolean).length >= 3;
    const short = (word, mark) => (compact
      ? [h("span", { class: "sr-only" }, word), h("span", { "aria-hidden": "true", title: word }, mark)] : word);
    if (dealer) badges.push(h("span", { class: "badge" }, short("Dealer", "D")));
    if (partner) badges.push(h("span", { class: "badge" }, "Partner"));
    if (away) badges.push(h("span", { class: "badge warn" }, "Away"));
    if (passed) badges.push(h("span", { class: "badge" }, short("Passed", "\u2713")));
    if (again) badges.push(h("span", { class: "badge" }, "Wants again"));
    if (onTurn) {
      // Another seat's turn is its clock alone (its box is a few words wide and already lit): "To play" without one,
      // a play mark where badges are short (a phone's partner box holds "Partner" and no more words).
      const timer = s.turnDeadline ? h("span", { class: "timer", dataset: { deadline: String(s.turnDeadline) } }) : null;
      badges.push(seat === s.you ? h("span", { class: "badge turn" }, "Your turn", timer ? [" ", timer] : "")
        : h("span", { class: "badge turn", title: "To play" }, timer ? [h("span", { class: "sr-only" }, "To play, "), timer] : short("To play", "\u25B6")));
    }
    const buttons = [];
    const waiting = !v || s.info?.state === "waiting";
    if (!holder && !seated) buttons.push(h("button", { type: "button", dataset: { focusKey: `sit-${seat}` }, onclick: () => this.act(() => this.client.sit(this.table, { seat }), "Sit") }, `Sit in seat ${seat + 1}`));
    if (!holder && (seated || waiting)) buttons.push(h("button", { type: "button", dataset: { focusKey: `bot-${seat}` }, onclick: () => this.act(() => this.client.addBot(this.table, seat), "Add bot") }, `Add bot to seat ${seat + 1}`));
    // Not a bot seat of this game other than the one you held: the server would refuse it (seat_change_mid_game).
    if (holder?.bot && !seated && s.info?.state === "playing" && (s.heldSeat === null || s.heldSeat === seat)) buttons.push(h("button", { type: "button", dataset: { focusKey: `take-${seat}` }, onclick: () => this.act(() => this.client.sit(this.table, { seat }), "Take over") }, `Take over seat ${seat + 1}`));
    return h("section", {
      class: `seat pos-${pos}${onTurn ? " on-turn" : ""}${seat === s.you ? " you" : ""}`,
      dataset: { seat: String(seat) },
      style: place ? { "--x": `${place.x}%`, "--y": `${place.y}%` } : undefined,
      "aria-label": `Seat ${seat + 1}: ${holder ? holder.name : "empty"}${seat === s.you ? " (you)" : ""}`,
    },
      // (an empty seat's words are long enough: where it sits is where its box is)
      h("h2", { class: "seat-name" }, holder ? this.nameOf(seat) : [`Seat ${seat + 1}`, h("span", { class: "empty-word" }, " (empty)")],
        holder && this.whereWords(seat) ? h("span", { class: "hint" }, ` · ${this.whereWords(seat)}`) : ""),
      // Every line is always there, each one line high: the box never changes size as
      // badges come and go, so a button in it never moves under the pointer.
      h("div", { class: "badges" }, badges),
      lines,
      buttons.length ? h("div", { class: "seat-buttons" }, buttons) : null);
  }

  /** Whether the game is played in partnerships whose scores are the side's. */
  partnered() {
    const s = this.state;
    const v = s.view;
    return Boolean(v && v.scores.length && s.sides.length === v.scores.length && s.sides.some((side) => side.length > 1));
  }

  /**
   * One scoreboard a side (yours first, "Us"), each with its bid (the partners' bids
   * added up as they come), tricks, score and bags: what a partnership plays for.
   */
  scoreboardEl() {
    if (!this.partnered()) return null;
    const s = this.state;
    const v = s.view;
    const mine = s.you === null ? -1 : s.sides.findIndex((side) => side.includes(s.you));
    const order = s.sides.map((_, i) => i).sort((a, b) => Number(b === mine) - Number(a === mine));
    const bidOf = (side) => {
      const bids = side.map((x) => v.bids[x]);
      if (bids.every((b) => b === null || b === undefined)) return "–";
      if (bids.some((b) => b === "secret")) return "?";
      const total = bids.filter((b) => typeof b === "number").reduce((a, b) => a + b, 0);
      const nils = bids.filter((b) => b === "nil" || b === "blind_nil").length;
      const missing = bids.some((b) => b === null || b === undefined);
      return `${total}${nils ? ` + ${nils === 1 ? "nil" : `${nils} nils`}` : ""}${missing ? " …" : ""}`;
    };
    const label = (i) => (i === mine ? "Us" : mine >= 0 && s.sides.length === 2 ? "Them" : s.sides[i].map((x) => this.nameOf(x)).join(" & "));
    // Partnership Hearts has no bids and no bags: points taken, the lowest score first.
    const hearts = lowScoreWins(s.info?.ruleset);
    const columns = hearts ? ["", "Tricks", "Points"] : ["", "Bid", "Tricks", "Score", "Bags"];
    return h("table", { class: "scoreboard", "aria-label": "Scores by side" },
      h("thead", {}, h("tr", {}, columns.map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, order.map((i) => {
        const side = s.sides[i];
        return h("tr", { class: i === mine ? "us" : "", dataset: { side: String(i) } },
          h("th", { scope: "row", title: side.map((x) => this.nameOf(x)).join(" & ") }, label(i)),
          hearts ? null : h("td", {}, bidOf(side)),
          h("td", {}, String(side.reduce((a, x) => a + (v.tricks[x] ?? 0), 0))),
          h("td", {}, String(v.scores[i] ?? 0)),
          hearts ? null : h("td", {}, v.bags[i] === undefined || v.bags[i] === null ? "–" : String(v.bags[i])));
      })));
  }

  /** The trick shown (the one in play, or the last one a moment after it is won, or asked for), in words. */
  trickInfo() {
    const s = this.state;
    const v = s.view;
    let cards = v.trick.cards;
    let done = false;
    const jokerDeck = jokerDeckOf(s.info?.ruleset);
    let winner = cards.length ? trickWinner(cards, v.kind, jokerDeck) : null;
    let caption = "";
    if (v.phase === "playing" && cards.length) {
      caption = `Trick ${v.trick_number}: ${this.nameOf(cards[winner].seat)} ${cards.length === v.seats ? "takes it" : "is winning"}`;
    } else if (v.phase === "playing") {
      caption = `Trick ${v.trick_number}`;
    }
    const holding = this.sweep && Date.now() < this.sweep.at;
    if (showLastOnly(cards, this.showLastTrick, holding) && s.lastTrick) {
      cards = s.lastTrick.cards;
      winner = cards.findIndex((c) => c.seat === s.lastTrick.winner);
      caption = `${this.nameOf(s.lastTrick.winner)} won trick ${s.lastTrick.trick}`;
      done = true;
    }
    return { cards, done, winner, caption };
  }

  centerWords() {
    const v = this.state.view;
    return v.center_size ? (v.center_taker === null ? `${v.center_size} cards in the center` : `${this.nameOf(v.center_taker)} took the center (${v.center_given})`) : "";
  }

  centerEl() {
    const s = this.state;
    const v = s.view;
    if (!v) {
      const full = s.info && s.info.seats.every((x) => x !== null);
      return h("div", { class: "center waiting" },
        h("p", {}, full ? "Every seat is taken." : "Waiting for players. Invite friends with the link, or add bots."),
        s.you !== null ? h("button", { type: "button", class: "primary", id: "start", dataset: { focusKey: "start" }, disabled: !full, onclick: () => this.act(() => this.client.start(this.table), "Start") }, "Start the game") : null);
    }
    const { cards, done, winner, caption } = this.trickInfo();
    const jokerDeck = jokerDeckOf(s.info?.ruleset);
    const order = this.order();
    const n = order.length;
    const centerWords = this.centerWords();
    return h("div", { class: `center${done ? " done" : ""}`, role: "group", "aria-label": "Cards on the table" },
      // Up to six seats a flatter ring: the trick's cards are as tall as the hand's, and the top
      // and bottom ones would reach the seats across. From seven, smaller cards need the room between them.
      trickEl(cards, winner, (seat) => order.indexOf(seat), (pos) => ringPlace(pos, n, 36, n >= 7 ? 36 : 30), (seat) => this.nameOf(seat), jokerDeck),
      // In the middle, where no card goes: the trick in words, what is broken, the center cards.
      h("div", { class: "center-info" },
        h("p", { class: "trick-caption", "aria-live": "polite" }, caption),
        h("p", { class: "center-line" }, brokenWords(v), brokenWords(v) && centerWords ? " · " : "", centerWords),
        h("p", { class: "center-wait" }, this.waitingWords())));
  }

  actionEl() {
    const s = this.state;
    const v = s.view;
    if (!v || v.phase === "game_over") return null;
    if (this.nextHandWaits()) return null;  // the scores' Next hand leads to it
    const t = s.yourTurn;
    if (t && s.you !== null) {
      const legal = t.legal;
      if (legal.kind === "choose") {
        return h("div", { class: "action", role: "group", "aria-label": "Choose the game" },
          h("p", {}, "You hold the seven of diamonds: play this hand as"),
          legal.choices.map((c) => h("button", { type: "button", class: "primary", dataset: { focusKey: `choose-${c}` }, onclick: () => this.turnAct(() => this.client.choose(this.table, c), "Choose") }, KIND_WORDS[c] ?? c)));
      }
      if (legal.kind === "moon") {
        // After a reload the moon_shot event is not seen again: the sun is every trick to the shooter's side.
        const side = v.partners?.[s.you] ?? [s.you];
        const all = (v.tricks ?? []).reduce((a, b) => a + b, 0);
        const sun = s.info?.ruleset?.options?.shoot_the_sun === true && side.reduce((a, x) => a + (v.tricks?.[x] ?? 0), 0) === all;
        const points = s.moonShot?.points ?? (sun ? 52 : 26);
        const what = points === 52 ? "the sun: every trick" : "the moon: every heart and the queen of spades";
        const words = { add: `Add ${points} to each opponent`, subtract: `Take ${points} off my score` };
        return h("div", { class: "action", role: "group", "aria-label": "How your moon scores" },
          h("p", {}, `You shot ${what}. Choose how it scores:`),
          legal.choices.map((c) => h("button", { type: "button", class: "primary", id: `moon-${c}`, dataset: { focusKey: `moon-${c}` },
            onclick: () => this.turnAct(() => this.client.moon(this.table, c), "Moon") }, words[c] ?? c)));
      }
      if (legal.kind === "bid" && (legal.show_cards || legal.blind_nil)) {
        // Blind nil: the cards are face down until this choice.
        return h("div", { class: "action", role: "group", "aria-label": "Blind nil or show your cards" },
          h("p", {}, "Your cards are face down. Bid blind nil without looking (twice a nil, made or failed), or look at them and bid as usual:"),
          h("div", { class: "bids" },
            legal.show_cards ? h("button", { type: "button", class: "primary", id: "show-cards", dataset: { focusKey: "show-cards" }, onclick: () => this.turnAct(() => this.client.showCards(this.table), "Show cards") }, "Show my cards") : null,
            legal.blind_nil ? h("button", { type: "button", class: "bid nil", id: "blind-nil", dataset: { bid: "blind_nil", focusKey: "blind-nil" }, "aria-label": "Bid blind nil, without looking", onclick: () => this.turnAct(() => this.client.bid(this.table, "blind_nil"), "Bid") }, "Blind nil") : null));
      }
      if (legal.kind === "bid") {
        const made = v.bids.filter((b) => typeof b === "number").reduce((a, b) => a + b, 0);
        return h("div", { class: "action", role: "group", "aria-label": "Your bid" },
          h("p", {}, `Your bid (tricks you will take; bids so far total ${made} of ${v.hand_sizes[s.you] ?? "?"}):`),
          h("div", { class: "bids" }, legal.bids.map((b) => h("button", {
            type: "button", class: b === "nil" ? "bid nil" : "bid", dataset: { bid: String(b), focusKey: `bid-${b}` },
            "aria-label": b === "nil" ? "Bid nil (no tricks)" : `Bid ${b}`,
            onclick: () => this.turnAct(() => this.client.bid(this.table, b), "Bid"),
          }, b === "nil" ? "Nil" : String(b)))));
      }
      if (legal.kind === "pass") return this.passEl(legal);
      if (legal.kind === "play") {
        // One legal card: one tap on this button plays it.
        const only = legal.cards.length === 1 ? legal.cards[0] : null;
        return h("div", { class: "action" }, h("p", {}, only ? "Your turn: one card may be played." : this.guard ? "Your turn: tap a highlighted card, then tap it again to play it." : "Your turn: play one of the highlighted cards."),
          only ? h("button", { type: "button", class: "primary", id: "play-only", dataset: { focusKey: "play-only" }, onclick: () => this.turnAct(() => this.client.play(this.table, only), "Play") }, `Play the ${cardName(only).toLowerCase()}`) : null);
      }
    }
    // A seat's own box is under the felt, so the felt's foot is free for the line. A spectator's
    // view has the bottom seat there and, on a crowded ring, seats beside it: the words go with
    // the trick's, in the middle (waitingWords).
    if (s.you === null) return null;
    const waiting = v.waiting_for.filter((x) => x !== s.you || !t);
    if (v.phase === "passing") {
      const mine = v.passed_seats.includes(s.you);
      return h("div", { class: "action passive foot" }, h("p", {}, mine ? "You have passed. " : "", waiting.length ? `Waiting for ${waiting.map((x) => this.nameOf(x)).join(", ")} to pass.` : ""));
    }
    if (waiting.length) return h("div", { class: "action passive foot" }, h("p", {}, `Waiting for ${waiting.map((x) => this.nameOf(x)).join(", ")}.`));
    return null;
  }

  /** Whom the table waits for, in a spectator's words (a seat's are at the felt's foot): a few by name, more by number. */
  waitingWords() {
    const s = this.state;
    const v = s.view;
    if (s.you !== null || !v || v.phase === "game_over" || !v.waiting_for.length) return "";
    const who = v.waiting_for.length <= 2 ? v.waiting_for.map((x) => this.nameOf(x)).join(" and ") : `${v.waiting_for.length} players`;
    return `Waiting for ${who}${v.phase === "passing" ? " to pass" : ""}.`;
  }

  passEl(legal) {
    const s = this.state;
    const v = s.view;
    // A new game's first hand has the same hand number as the last game's: the game is in the key.
    const key = `${s.game}/${v.hand_number}/${v.pass_round}/${legal.count}/${legal.back_count}`;
    if (this.passKey !== key) {
      this.passKey = key;
      this.passSel = [];
      this.backSel = [];
    }
    // Only cards still in the hand stay chosen (a resync may have changed it).
    const inHand = new Set(v.hand ?? []);
    this.passSel = this.passSel.filter((c) => inHand.has(c));
    this.backSel = this.backSel.filter((c) => inHand.has(c));
    const n = v.seats;
    const to = (s.you + v.pass_distance) % n;
    const from = (s.you - v.pass_distance + n * 10) % n;
    const ready = this.passSel.length === legal.count && this.backSel.length === legal.back_count;
    return h("div", { class: "action", role: "group", "aria-label": "Pass cards" },
      h("p", {}, `Choose ${legal.count} card${legal.count === 1 ? "" : "s"} to pass ${v.pass_round === 2 ? "back " : ""}to ${this.nameOf(to)} (${passDirectionWords(v.pass_distance, n)})`,
        legal.back_count ? `, then ${legal.back_count} to pass back to ${this.nameOf(from)}` : "", "."),
      h("p", { class: "pass-list" }, `To ${this.nameOf(to)}: `, this.passSel.length ? this.passSel.map((c) => cardName(c)).join(", ") : "none yet",
        legal.back_count ? [h("br"), `Back to ${this.nameOf(from)}: `, this.backSel.length ? this.backSel.map((c) => cardName(c)).join(", ") : "none yet"] : ""),
      h("button", { type: "button", class: "primary", id: "pass", disabled: !ready, dataset: { focusKey: "pass" }, onclick: () => this.turnAct(async () => {
        await this.client.pass(this.table, this.passSel, this.backSel);
      }, "Pass") }, "Pass these cards"));
  }

  togglePass(card, legal) {
    if (this.passSel.includes(card)) this.passSel = this.passSel.filter((c) => c !== card);
    else if (this.backSel.includes(card)) this.backSel = this.backSel.filter((c) => c !== card);
    else if (this.passSel.length < legal.count) this.passSel.push(card);
    else if (this.backSel.length < legal.back_count) this.backSel.push(card);
    else return;
    this.render();
  }

  handEl() {
    const s = this.state;
    const v = s.view;
    if (s.you === null || !v || !v.hand) return null;
    const legal = s.yourTurn?.legal;
    const playable = legal?.kind === "play" ? new Set(legal.cards) : null;
    const passing = legal?.kind === "pass";
    const jokerDeck = jokerDeckOf(s.info?.ruleset);
    const cards = v.hand.map((card) => {
      if (passing) {
        const pressed = this.passSel.includes(card) || this.backSel.includes(card);
        return cardEl(card, { button: true, pressed, jokerDeck, class: pressed ? "selected" : "", onclick: () => this.togglePass(card, legal) });
      }
      const ok = playable?.has(card);
      const raised = ok && this.guard && this.raised === card;
      return cardEl(card, {
        button: true, jokerDeck, disabled: !ok, class: `${ok ? "playable" : ""}${raised ? " raised" : ""}`,
        onclick: ok ? () => {
          if (this.guard && this.raised !== card) {
            this.raised = card;
            this.render();
            return;
          }
          this.raised = null;
          this.turnAct(() => this.client.play(this.table, card), "Play");
        } : undefined,
      });
    });
    // Overlapped to fit the width, in rows when too many to read in one (31 cards on a phone).
    const fit = handFit(cards.length, this.el.clientWidth || window.innerWidth);
    const rows = [];
    for (let r = 0; r < fit.rows; r++) rows.push(h("div", { class: "hand-row" }, cards.slice(r * fit.perRow, (r + 1) * fit.perRow)));
    return h("div", {
      class: `hand${playable ? " playing" : ""}`, role: "group", "aria-label": "Your hand",
      style: { "--step": `${fit.step}px`, "--card-w": `${fit.cardW}px`, "--card-h": `${fit.cardH}px` },
    }, rows,
      v.center_cards?.length ? h("p", { class: "hint" }, `Center cards you took: ${v.center_cards.map((c) => cardName(c)).join(", ")}`) : null);
  }

  /** Hand scored and game over, over the table. */
  overlayEl() {
    const sheet = this.showSheet ? this.sheetEl() : null;
    const scored = this.scoredEl();
    const over = this.gameOverEl();
    if (!scored && !over && !sheet) return null;
    return h("div", { class: over && scored && !sheet ? "overlay pair" : "overlay" }, sheet, over, scored);
  }

  scoredEl() {
    const s = this.state;
    const e = s.handScored;
    if (!this.scoredShown()) return null;
    // The next hand dealt meanwhile (bots bid at once): a step to it, the table's action
    // drawn only once the scores are put away, never over them.
    const next = this.nextHandWaits();
    const turn = s.yourTurn?.legal.kind;
    const sideName = (side) => side.seats.map((x) => this.nameOf(x)).join(" & ");
    const lowWins = lowScoreWins(s.info?.ruleset);
    const components = Object.keys(SCORE_COMPONENT_WORDS).filter((c) => e.sides.some((x) => x.score_sheet[c] !== undefined));
    const row = (label, f, cls) => h("tr", { class: cls }, h("th", { scope: "row" }, label), e.sides.map((x) => h("td", {}, f(x))));
    return h("section", { class: "card-panel scored", "aria-labelledby": "scored-title" },
      h("h2", { id: "scored-title" }, `Hand ${e.hand} scored (${KIND_WORDS[e.kind] ?? e.kind})${e.reversed ? " — reverse partners" : ""}`),
      scoreTable(e.sides.length,
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), e.sides.map((x) => h("th", { scope: "col" }, sideName(x))))),
        h("tbody", {},
          e.kind === "hearts" ? null : row("Bid", (x) => (x.bid === null ? "—" : x.nil_bids ? `${x.bid} (${x.nil_bids} nil)` : x.bid)),
          row("Tricks", (x) => x.tricks),
          components.map((c) => row(SCORE_COMPONENT_WORDS[c], (x) => (x.score_sheet[c] === undefined ? "" : signed(x.score_sheet[c])), "component")),
          row(lowWins ? "Points taken" : "Hand total", (x) => signed(x.hand_total), "total"),
          row("Score", (x) => x.score, "total"),
          lowWins ? null : row("Bags", (x) => x.bags))),
      lowWins ? h("p", { class: "hint" }, "Points are taken: the lowest score wins.") : null,
      next && lowWins ? this.tiedAtTargetEl(e, sideName) : null,
      s.bagPenalties.map((b) => h("p", { class: "hint" }, `Bag penalty: ${sideName(e.sides[b.side] ?? { seats: [] })} ${b.to_opponents ? "gives the opponents" : "loses"} ${b.points * b.times}.`)),
      next ? h("button", { type: "button", class: "primary", id: "next-hand", dataset: { focusKey: "next-hand" }, onclick: () => { this.dismissedHand = `${s.game}/${e.hand}`; this.render(); } },
        turn === "bid" ? "Next hand: your bid" : turn === "pass" ? "Next hand: your pass" : turn === "choose" ? "Next hand: your choice" : "Next hand")
        : h("button", { type: "button", dataset: { focusKey: "hide-scores" }, onclick: () => { this.dismissedHand = `${s.game}/${e.hand}`; this.render(); } }, "Hide scores"));
  }

  /**
   * Hearts: someone reached the target, yet the next hand is dealt, because the lowest score is
   * shared (docs/RULES.md, the Hearts game end). The page says why the game goes on.
   */
  tiedAtTargetEl(e, sideName) {
    const ruleset = this.state.info?.ruleset;
    const target = Number(ruleset?.options?.target_score ?? optionsFor(ruleset?.preset).find((o) => o.name === "target_score")?.default ?? 0);
    const reached = e.sides.filter((x) => target > 0 && x.score >= target);
    const low = Math.min(...e.sides.map((x) => x.score));
    const lowest = e.sides.filter((x) => x.score === low);
    if (!reached.length || lowest.length < 2) return null;
    return h("p", { class: "hint", id: "tied-at-target" },
      `${reached.map(sideName).join(" and ")} reached ${target}, but the lowest score, ${low}, is shared by ${lowest.map(sideName).join(" and ")}: another hand is played.`);
  }

  /** Whether the last hand's scores are over the table: until put away, or until the next hand's play begins. */
  scoredShown() {
    const s = this.state;
    const e = s.handScored;
    if (!e || this.dismissedHand === `${s.game}/${e.hand}`) return false;
    return !(s.view && s.view.hand_number > e.hand && (s.view.phase === "playing" || s.view.phase === "moon_choice"));
  }

  /** Whether the next hand is dealt while the last one's scores are still up. */
  nextHandWaits() {
    const s = this.state;
    return this.scoredShown() && Boolean(s.view) && s.view.phase !== "game_over" && s.view.hand_number > s.handScored.hand;
  }

  gameOverEl() {
    const s = this.state;
    const g = s.gameOver;
    if (!g) return null;
    const sides = s.sides.length === g.scores.length ? s.sides : g.scores.map((_, i) => [i]);
    const ranks = g.ranks ?? ranksOf(g.scores, lowScoreWins(s.info?.ruleset));
    const rows = g.scores.map((score, i) => ({ rank: ranks[i], score, seats: sides[i] ?? [i] })).sort((a, b) => a.rank - b.rank);
    const asked = s.you !== null && s.again.includes(s.you);
    return h("section", { class: "card-panel game-over", "aria-labelledby": "over-title" },
      h("h2", { id: "over-title" }, this.gameOverTitle(sides, ranks)),
      this.yourResultEl(sides, ranks),
      h("table", { class: "score-table ranks" },
        h("thead", {}, h("tr", {}, ["Rank", "Players", lowScoreWins(s.info?.ruleset) ? "Points (lowest wins)" : "Score"].map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", {}, rows.map((r) => h("tr", { class: r.rank === 1 ? "winner" : "" },
          h("td", {}, ordinal(r.rank)),
          h("td", {}, r.seats.map((x) => this.nameOf(x)).join(" & ")),
          h("td", {}, String(r.score)))))),
      s.standings ? this.standingsEl(s.standings) : null,
      this.ratingsEl(),
      this.fairDealEl(),
      s.you !== null ? h("button", { type: "button", class: "primary", id: "again", dataset: { focusKey: "again" }, disabled: asked, onclick: () => this.act(() => this.client.again(this.table), "Play again") }, asked ? "Waiting for the others…" : "Play again") : null,
      h("p", {}, h("a", { href: `#/replay/${encodeURIComponent(this.table)}/${s.game}` }, "Watch the replay")));
  }

  /** "Game over: Ada & Bot 3 win" (or who tie for first). */
  gameOverTitle(sides, ranks) {
    const names = (seats) => seats.map((x) => this.nameOf(x)).join(" & ");
    const first = sides.filter((_, i) => ranks[i] === 1);
    if (first.length !== 1) return `Game over: ${first.map(names).join(" and ")} tie for first`;
    return `Game over: ${names(first[0])} win${first[0].length === 1 ? "s" : ""}`;
  }

  /**
   * What the game means for the person seated: won or lost (with whom), or their place
   * among more sides; whether it was rated (no game with a bot seat is) and their new
   * rating once read.
   */
  yourResultEl(sides, ranks) {
    const s = this.state;
    if (s.you === null) return null;
    const mine = sides.findIndex((side) => side.includes(s.you));
    if (mine < 0) return null;
    const partners = sides[mine].filter((x) => x !== s.you).map((x) => this.nameOf(x)).join(" & ");
    const withWhom = partners ? ` with ${partners}` : "";
    const firsts = ranks.filter((r) => r === 1).length;
    const rank = ranks[mine];
    const outcome = rank === 1 ? (firsts === 1 ? `You won${withWhom}.` : `You tied for first${withWhom}.`)
      : sides.length === 2 ? `You lost${withWhom}.` : `You came ${ordinal(rank)} of ${sides.length}${withWhom}.`;
    const bots = (s.info?.seats ?? []).some((x) => x?.bot);
    const own = this.ratings?.rows.find((x) => x.seat === s.you)?.row;
    const rated = bots ? "Unrated: bots at the table."
      : own ? `Your rating: ${Math.round(own.rating)} (${signed(own.last_game.change)}).` : "";
    return h("p", { class: `your-result ${rank === 1 ? "won" : "lost"}`, id: "your-result" }, h("strong", {}, outcome), rated ? ` ${rated}` : "");
  }

  /**
   * Provably fair deals (PROTOCOL.md §19): the revealed seed and salt checked, in this
   * browser, against the commitment this page kept from the game's start.
   */
  fairDealEl() {
    const s = this.state;
    const r = s.dealRevealed;
    if (!r || r.game !== s.game) return null;
    const kept = s.dealCommitment;
    if (this.dealCheck?.game !== r.game || this.dealCheck.kept !== kept) {
      const check = { game: r.game, kept, ok: null };
      this.dealCheck = check;
      if (kept) {
        checkDealCommitment(kept, r.seed, r.salt).then((ok) => {
          check.ok = ok;
          if (this.dealCheck === check) this.render();
        });
      }
    }
    const ok = this.dealCheck.ok;
    const text = !kept ? "Fair deal: this page did not see the deal's commitment, so it cannot check it."
      : ok === null ? "Fair deal: checking…"
        : ok ? "Fair deal: verified. The seed revealed now matches the commitment shown when the game began, so every deal was fixed before the first card."
          : "Fair deal: FAILED. The seed revealed does not match the commitment shown when the game began.";
    return h("p", { class: `fair-deal ${ok === false ? "failed" : ""}`, id: "fair-deal", title: `seed ${r.seed}, salt ${r.salt}, commitment ${r.commitment}` }, text);
  }

  /**
   * Each player's rating for the preset after this game, read from /api/players/{id} once the
   * game is over (its ratings were committed with its end, before game_over was sent). Shown
   * only when the game was rated: a player's last rated game is this one.
   */
  ratingsEl() {
    const s = this.state;
    if (!s.gameOver || !s.info) return null;
    const game = s.game;
    const key = `${this.table}/${game}`;
    if (this.ratings?.key !== key) {
      const kept = { key, rows: [] };
      this.ratings = kept;
      const preset = s.info.ruleset?.preset;
      const people = (s.info.seats ?? []).map((holder, seat) => ({ seat, holder })).filter((x) => x.holder?.player);
      Promise.all(people.map(({ seat, holder }) => getPlayer(holder.player)
        .then((p) => ({ seat, row: p.ratings.find((r) => r.preset === preset) }))
        .catch(() => null)))
        .then((found) => {
          kept.rows = found.filter((x) => x?.row && x.row.last_game.table === this.table && x.row.last_game.game === game);
          if (this.ratings === kept && kept.rows.length) this.render();
        });
    }
    const rows = this.ratings.rows;
    if (!rows.length) return null;
    return h("div", { class: "ratings", id: "game-ratings" },
      h("h3", {}, "Ratings"),
      h("table", { class: "score-table" },
        h("thead", {}, h("tr", {}, ["Player", "Rating", "Change", "Games"].map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", {}, rows.map(({ seat, row }) => h("tr", { dataset: { seat } },
          h("th", { scope: "row" }, this.nameOf(seat)),
          h("td", { class: "rating" }, String(Math.round(row.rating))),
          h("td", {}, signed(row.last_game.change)),
          h("td", {}, String(row.games)))))),
      h("p", {}, h("a", { href: `#/leaderboard/${encodeURIComponent(s.info.ruleset?.preset ?? "spades")}` }, "Leaderboard")));
  }

  /** WorldWinner's tournament standings, each part explained (docs/RULES.md). */
  standingsEl(standings) {
    return h("div", { class: "standings" },
      h("h3", {}, "Tournament standings"),
      h("table", { class: "score-table" },
        h("thead", {}, h("tr", {}, ["Players", "Base", "Overpoints", "Victory", "Time bonus", "Total"].map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", {}, standings.map((x) => h("tr", {},
          h("th", { scope: "row" }, x.seats.map((y) => this.nameOf(y)).join(" & ")),
          [x.base, x.overpoints, x.victory, x.time_bonus, x.total].map((n) => h("td", {}, String(n))))))),
      h("p", { class: "hint" }, "Base: the game score × 10 (0 to 2,500). Overpoints: how far ahead of the opponents. " +
        "Victory: 100 for the higher score. Time bonus: a point for each whole second left on the clock, if the game ended before it ran out."));
  }

  logEl() {
    return h("section", { class: "card-panel log-panel", id: "log-panel", "aria-labelledby": "log-title" },
      h("div", { class: "chat-head" },
        h("h2", { id: "log-title" }, "What happened"),
        // Phones only (the log is a drawer over the table there, opened by its last line).
        h("button", { type: "button", class: "log-close", dataset: { focusKey: "log-close" }, onclick: () => { this.logOpen = false; this.render(); } }, "Close")),
      h("div", { class: "log", tabindex: "0", dataset: { focusKey: "log" } }, h("ol", { start: this.log[0]?.n ?? 1 }, this.log.map((x) => h("li", { class: `log-${x.kind}` }, x.text)))));
  }

  /**
   * Table chat (PROTOCOL.md §21). Every text goes into the page as a text node (h() never
   * parses markup): a line is shown as typed, `<script>` and all. New lines are announced
   * politely. A spectator's line during a game reaches the spectators only: the label says so.
   */
  chatEl() {
    const s = this.state;
    const railOnly = s.you === null && s.info?.state === "playing";
    return h("section", { class: "card-panel chat-panel", id: "chat", "aria-labelledby": "chat-title" },
      h("div", { class: "chat-head" },
        h("h2", { id: "chat-title" }, "Table chat"),
        // Phones only (the panel lies over the table there): the toggle is under it.
        h("button", { type: "button", class: "chat-close", dataset: { focusKey: "chat-close" }, onclick: () => { this.chatOpen = false; this.render(); } }, "Close chat")),
      h("ol", {
        class: "chat-lines", tabindex: "0", "aria-live": "polite", "aria-relevant": "additions", "aria-label": "Chat lines",
        dataset: { focusKey: "chat-lines" },
      }, s.chat.map((l) => h("li", { class: `chat-line chat-${l.channel}${l.to === "spectators" ? " chat-rail" : ""}` },
        h("span", { class: "chat-who" }, this.chatWho(l)), ": ", h("span", { class: "chat-text" }, l.text)))),
      s.chat.length ? null : h("p", { class: "hint chat-empty" }, "Nothing said yet."),
      h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.sendChat(); } },
        h("label", { for: "chat-input" }, railOnly ? "Say to the spectators (the players do not see it during the game)" : "Say to the table"),
        h("div", { class: "chat-row" },
          h("input", { id: "chat-input", type: "text", maxlength: "300", autocomplete: "off", enterkeyhint: "send", dataset: { focusKey: "chat-input" } }),
          h("button", { type: "submit", id: "chat-send", dataset: { focusKey: "chat-send" } }, "Send"))),
      this.muteEl());
  }

  chatWho(line) {
    const name = line.player === this.client.player ? "You" : line.name;
    return line.seat === null ? `${name} (watching)` : `${name} (seat ${line.seat + 1})`;
  }

  /** A toggle for each other seat a person holds, and one for the spectators. */
  muteEl() {
    const s = this.state;
    const targets = [];
    (s.info?.seats ?? []).forEach((holder, seat) => {
      if (holder && !holder.bot && seat !== s.you) targets.push({ seat, name: this.nameOf(seat) });
    });
    targets.push({ seat: "spectators", name: "spectators" });
    return h("div", { class: "chat-mutes", role: "group", "aria-label": "Mute chat" },
      targets.map(({ seat, name }) => {
        const muted = s.muted.includes(seat);
        return h("button", {
          type: "button", class: "chat-mute", "aria-pressed": String(muted), dataset: { focusKey: `mute-${seat}`, mute: String(seat) },
          onclick: () => this.act(() => this.client.mute(this.table, seat, !muted), "Mute"),
        }, `Mute ${name}`);
      }));
  }

  async sendChat() {
    const input = this.el.querySelector("#chat-input");
    const text = input?.value ?? "";
    if (!text.trim()) return;
    try {
      await this.client.chat(this.table, text);
      if (input.value === text) input.value = "";
    } catch (err) {
      this.app.toast(`Chat: ${errorWords(err)}`);
    }
  }

  /**
   * On a phone the log is a drawer: a single line under the table shows what happened last,
   * and opens the whole log over the table. On a desktop the log is always beside the table.
   */
  logToggleEl() {
    // What happened at the table, not what the page did: after a reload, "You are in seat 1."
    // took the only line there is (and at a game's end, the seed of its deal; the drawer has both).
    const last = this.log.findLast((x) => !ONE_LINE_SKIPS.has(x.kind)) ?? this.log.at(-1);
    return h("button", {
      type: "button", class: "log-toggle", id: "log-toggle", "aria-expanded": String(Boolean(this.logOpen)), "aria-controls": "log-panel",
      dataset: { focusKey: "log-toggle" }, onclick: () => { this.logOpen = !this.logOpen; this.chatOpen = false; this.render(); },
    }, h("span", { class: "sr-only" }, "What happened: "), last ? last.text : "Nothing yet.");
  }

  /** On a phone the chat opens over the table; on a desktop it is always beside it. */
  chatToggleEl() {
    return h("button", {
      type: "button", class: "chat-toggle", id: "chat-toggle", "aria-expanded": String(Boolean(this.chatOpen)), "aria-controls": "chat",
      dataset: { focusKey: "chat-toggle" }, onclick: () => { this.chatOpen = !this.chatOpen; this.logOpen = false; this.render(); },
    }, "Chat");
  }

  noticeEl() {
    if (!this.notice || Date.now() > this.notice.until) return null;
    return h("p", { class: "notice", role: "status" }, this.notice.text);
  }

  /** Where things are before a redraw: your hand's cards, the trick's cards. */
  motionBefore() {
    if (!this.el || reducedMotion()) return null;
    const rect = (el) => el.getBoundingClientRect();
    const hand = new Map([...this.el.querySelectorAll(".hand [data-card]")].map((el) => [el.dataset.card, rect(el)]));
    const trick = [...this.el.querySelectorAll(".center .played")].map((el) => ({ el, rect: rect(el) }));
    return { hand, trick };
  }

  /** After a redraw: a card played moves in from its seat or your hand; a trick swept goes to its winner. */
  motionAfter(before) {
    if (!before) {
      if (this.sweep && Date.now() >= this.sweep.at) this.sweep = null;
      return;
    }
    const arriving = this.arriving;
    this.arriving = null;
    if (arriving !== null && arriving !== undefined) {
      const fig = this.el.querySelector(`.center:not(.done) .played[data-seat="${arriving}"]`);
      const card = fig?.querySelector("[data-card]")?.dataset.card;
      const fromEl = this.el.querySelector(`.seat[data-seat="${arriving}"]`);
      const from = before.hand.get(card) ?? fromEl?.getBoundingClientRect();
      if (fig && from) {
        const to = fig.getBoundingClientRect();
        const dx = from.left + from.width / 2 - (to.left + to.width / 2);
        const dy = from.top + from.height / 2 - (to.top + to.height / 2);
        fig.animate([{ translate: `${dx}px ${dy}px` }, { translate: "0 0" }], { duration: 260, easing: "ease-out" });
      }
    }
    // The trick just swept away: its cards fly to the winner and fade (unless the next
    // trick began first, or the last one is shown on demand).
    if (this.sweep && Date.now() >= this.sweep.at) {
      const sweep = this.sweep;
      this.sweep = null;
      if (!before.trick.length || this.el.querySelector(".center .played")) return;
      const winner = this.el.querySelector(`.seat[data-seat="${sweep.winner}"]`)?.getBoundingClientRect();
      if (!winner) return;
      for (const { el, rect } of before.trick) {
        const ghost = el.cloneNode(true);
        ghost.classList.add("sweeping");
        ghost.style.left = `${rect.left}px`;
        ghost.style.top = `${rect.top}px`;
        ghost.style.width = `${rect.width}px`;
        document.body.append(ghost);
        const dx = winner.left + winner.width / 2 - (rect.left + rect.width / 2);
        const dy = winner.top + winner.height / 2 - (rect.top + rect.height / 2);
        ghost.animate([{ translate: "0 0", opacity: 1 }, { translate: `${dx}px ${dy}px`, opacity: 0, scale: 0.5 }],
          { duration: 450, easing: "ease-in" }).finished.finally(() => ghost.remove());
      }
    }
  }

}

/**
 * The cards of a trick, each before the seat that played it: `posOf(seat)` its place round
 * the table, `placeOf(pos)` where that is (% of the box), who led and who is winning marked.
 */
export function trickEl(cards, winner, posOf, placeOf, nameOf, jokerDeck = "none") {
  return h("div", { class: "trick" }, cards.map(({ seat, card }, i) => {
    const pos = posOf(seat);
    const place = placeOf(pos);
    return h("figure", {
      class: `played pos-${pos}${i === 0 ? " led" : ""}${i === winner ? " winning" : ""}`,
      dataset: { seat: String(seat) }, style: { "--x": `${place.x}%`, "--y": `${place.y}%` },
    }, cardEl(card, { jokerDeck }), h("figcaption", {}, nameOf(seat), i === 0 ? h("span", { class: "tag" }, " led") : ""));
  }));
}

/** Whether the screen is a phone's: the table's boxes are a few words wide there. */
export const narrowScreen = () => window.innerWidth < 760;

/** 1 -> "1st", 2 -> "2nd", 11 -> "11th". */
function ordinal(r) {
  return r === 1 ? "1st" : r === 2 ? "2nd" : r === 3 ? "3rd" : `${r}th`;
}

/** A rating change: "+12", "-8", "0". */
function signed(x) {
  return Math.round(x) > 0 ? `+${Math.round(x)}` : String(Math.round(x));
}

/** Where place `i` of `n` sits on a ring, yours (0) at the bottom, clockwise to your left: % of the box. */
export function ringPlace(i, n, rx, ry) {
  const a = (2 * Math.PI * i) / n;
  return { x: Math.round((50 - rx * Math.sin(a)) * 10) / 10, y: Math.round((50 + ry * Math.cos(a)) * 10) / 10 };
}

/** How a hand of `count` cards fits `width` pixels: card size, step between cards, rows. */
export function handFit(count, width) {
  const phone = width < 760;
  const cardW = phone ? 42 : 64;
  const cardH = Math.round(cardW * 1.4);
  const avail = Math.max(cardW, width - (phone ? 16 : 32));
  const minStep = phone ? 22 : 28; // a card's corner stays readable
  const perRowMax = Math.max(1, Math.floor((avail - cardW) / minStep) + 1);
  const rows = Math.max(1, Math.ceil(count / perRowMax));
  const perRow = Math.max(1, Math.ceil(count / rows));
  const step = perRow > 1 ? Math.min(cardW + 6, Math.floor((avail - cardW) / (perRow - 1))) : cardW;
  return { cardW, cardH, step, rows, perRow };
}

// The last trick shows while the next is not begun only for a moment after it is won
// (then it goes to its winner), or while asked for.
/**
 * A seat's figures, on the table and in the replay: its tricks (and bid, where the hand has bids),
 * its score (and bags, where they count), and in Hearts and Sparts hands the hearts, the queen of
 * spades and the jack of diamonds it has taken.
 */
export function seatFigures(v, seat, { score = null, bags = null, lowWins = false, narrow = false, oneLine = false } = {}) {
  const lines = [];
  const bid = v.bids[seat];
  if (v.kind === "hearts") {
    // A Hearts hand has no bids: the tricks alone.
    lines.push(h("div", { class: "tricks", "aria-label": `${v.tricks[seat]} tricks taken` },
      h("strong", {}, String(v.tricks[seat])), v.tricks[seat] === 1 ? " trick" : " tricks"));
  } else {
    const bidText = bid === undefined || bid === null ? "no bid" : bid === "secret" ? "secret bid" : bid === "nil" ? "nil" : bid === "blind_nil" ? "blind nil" : `bid ${bid}`;
    lines.push(h("div", { class: "tricks", "aria-label": `${v.tricks[seat]} tricks taken, ${bidText}` },
      h("strong", {}, `${v.tricks[seat]} / ${bid === null || bid === undefined ? "–" : bid === "secret" ? "?" : bidWords(bid)}`),
      h("span", { class: "hint" }, " tricks / bid")));
  }
  if (score !== null && score !== undefined) {
    const hasBags = bags !== undefined && bags !== null && !lowWins; // Hearts counts no bags
    lines.push(h("div", { class: "score" }, narrow
      ? `${score} pts${hasBags && bags ? ` · ${bags} bags` : ""}` : `Score ${score}${hasBags ? ` · bags ${bags}` : ""}`));
  }
  if (v.kind === "hearts" || v.kind === "sparts") {
    const taken = v.points_taken?.[seat] ?? [];
    const hearts = taken.filter((c) => c[1] === "H").length;
    const queen = taken.some((c) => c.startsWith("QS"));
    const jack = taken.some((c) => c.startsWith("JD"));
    const sep = narrow ? " " : " \u00b7 ";
    const points = (tag) => h(tag, { class: "points", "aria-label": `${hearts} heart${hearts === 1 ? "" : "s"} taken${queen ? ", and the queen of spades" : ""}${jack ? ", and the jack of diamonds" : ""}` },
      `\u2665 ${hearts}`, queen ? h("span", { class: "queen" }, `${sep}Q\u2660`) : "", jack ? h("span", { class: "jack" }, `${sep}J\u2666`) : "");
    // (oneLine: after the score, where a box is tall with its cards: a replay's)
    const scoreLine = oneLine && score !== null && score !== undefined ? lines.at(-1) : null;
    if (scoreLine) scoreLine.append(" \u00b7 ", points("span"));
    else lines.push(points("div"));
  }
  return lines;
}

/**
 * Scores, a column a side, in a box of their own: one that scrolls sideways, its row names
 * staying, where the sides are too many for the panel (ten on a phone).
 */
function scoreTable(sides, ...rows) {
  return h("div", { class: "score-scroll" }, h("table", { class: sides > 5 ? "score-table many" : "score-table" }, ...rows));
}

// The log's entries the phone's one line passes over for the one before.
const ONE_LINE_SKIPS = new Set(["snapshot", "resumed", "deal_revealed"]);

function showLastOnly(cards, asked, holding) {
  return asked || (!cards.length && holding);
}

const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;


/** Whether trumps or hearts may be led yet, in words, for the hand's kind. */
function brokenWords(v) {
  if (v.kind === "spades") return v.spades_broken ? "\u2660 broken" : "\u2660 not broken";
  if (v.kind === "hearts" || v.kind === "sparts") return v.hearts_broken ? "\u2665 broken" : "\u2665 not broken";
  return "";
}
