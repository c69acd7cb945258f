// The lobby: your name, the open tables, a new table, finished games.

import { errorWords, listGames } from "../lib/index.js";
import { h, fill, focusKey, restoreFocus } from "./dom.js";
import { PRESETS, optionsFor, formValue, wireValue, optionsInWords, presetLabel, presetInWords, liveHint, ruleSetLabel, ruleSetChoice } from "./options.js";
import { seatNames } from "./names.js";
import { boardLinks } from "./leaderboard.js";

// Tables a page of the lobby's list holds: a phone's screen or two.
const TABLES_PER_PAGE = 20;

const STATE_WORDS = { waiting: "Waiting for players", playing: "Playing", over: "Game over" };

/** A turn time in words: "60 s a turn", or "no turn limit". */
function turnWords(seconds) {
  return seconds ? `${seconds} s a turn` : "no turn limit";
}

export class LobbyView {
  constructor(app) {
    this.app = app;
    this.client = app.client;
    this.showAll = false;
    // The table list a page at a time (PROTOCOL.md list_tables): a host with thousands of open tables
    // must not send them all to every lobby. `after` is this page's cursor, `before` the earlier pages'.
    this.filter = { preset: "", seats: "" };
    this.after = null;
    this.before = [];
    this.offs = [];
    // The finished games of one of the host's rule sets only ("": every game's).
    this.gamesRuleSet = "";
    this.gamesAsked = 0;
  }

  mount(el) {
    this.el = el;
    this.tablesEl = h("div", { class: "tables", "aria-live": "polite" }, "Loading tables…");
    this.gamesEl = h("div", { class: "games" }, "Loading finished games…");
    this.formEl = h("form", { class: "new-table", onsubmit: (e) => this.create(e), oninput: () => { this.formTouched = true; this.describeForm(); } });
    fill(el,
      h("h1", { class: "sr-only" }, "Lobby"),
      this.nameSection(),
      this.quickPlaySection(),
      h("section", { class: "card-panel", "aria-labelledby": "open-tables" },
        h("div", { class: "section-head" },
          h("h2", { id: "open-tables" }, "Tables"),
          h("button", { type: "button", onclick: () => this.refresh() }, "Refresh")),
        this.filterRow(),
        this.tablesEl,
        this.pagerEl = h("nav", { class: "pager", "aria-label": "Table pages" })),
      h("section", { class: "card-panel", "aria-labelledby": "new-table" },
        h("h2", { id: "new-table" }, "New table"),
        this.formEl),
      h("section", { class: "card-panel", "aria-labelledby": "finished" },
        h("h2", { id: "finished" }, "Finished games"),
        this.gamesFilterEl = h("div", { class: "table-filter games-filter" }),
        this.gamesEl),
      h("section", { class: "card-panel", "aria-labelledby": "leaderboards" },
        h("h2", { id: "leaderboards" }, "Leaderboards"),
        this.boardLinksEl = h("div")));
    this.renderForm("spades");
    this.drawBoardLinks();
    this.offs.push(this.client.on("hello", () => {
      this.offerRuleSets();
      this.drawBoardLinks();
      this.drawGamesFilter();
      this.showQuickTerms();
      this.drawGames();
      this.refresh();
    }));
    this.offs.push(this.client.on("quick_play_matched", (m) => {
      this.waiting = null;
      this.stopCountdown();
      this.app.go(`#/table/${m.table}`);
    }));
    if (this.client.status === "open") this.refresh();
    this.timer = setInterval(() => this.client.status === "open" && this.refresh(), 5000);
    this.loadGames();
  }

  unmount() {
    clearInterval(this.timer);
    clearInterval(this.countdown);
    for (const off of this.offs) off();
  }

  /** Quick play (PROTOCOL.md §22): press play, be seated with others waiting for the same game. */
  quickPlaySection() {
    const select = h("select", { id: "quick-play-preset" }, PRESETS.map((p) => h("option", { value: p.name, selected: p.name === "spades" }, p.label)));
    this.quickSelect = select;
    select.onchange = () => { this.quickTouched = true; };
    this.quickStatus = h("p", { class: "hint", role: "status", id: "quick-play-status" });
    const play = h("button", { type: "button", class: "primary", id: "quick-play" }, "Play now");
    const cancel = h("button", { type: "button", id: "quick-play-cancel", hidden: true }, "Stop waiting");
    // What quick play will do, said before anyone presses (the server's hello tells it).
    this.quickTerms = h("p", { class: "hint", id: "quick-play-terms" });
    this.quickCountdown = h("p", { class: "hint", id: "quick-play-countdown" });
    const show = (text, waiting) => {
      this.quickStatus.textContent = text;
      play.disabled = waiting;
      cancel.hidden = !waiting;
      if (!waiting) this.stopCountdown();
    };
    play.onclick = async () => {
      show("Looking for players…", true);
      try {
        // A named rule set queues with its preset and options: its own queue (the server's are per ruleset).
        const set = ruleSetOf(this.client, select.value);
        const ok = set ? await this.client.quickPlay(set.ruleset.preset, set.ruleset.options ?? {}) : await this.client.quickPlay(select.value);
        this.waiting = ok;
        show(`Waiting for players (${ok.waiting} waiting), for a table with ${turnWords(ok.turn_seconds)}.`, true);
        this.startCountdown(Date.now() + ok.bots_after_ms);
      } catch (err) {
        show(errorWords(err), false);
      }
    };
    cancel.onclick = async () => {
      try {
        await this.client.cancelQuickPlay();
      } catch {
        // not waiting any more (seated meanwhile, or reconnected): nothing to stop
      }
      this.waiting = null;
      show("", false);
    };
    this.showQuickTerms();
    return h("section", { class: "card-panel", "aria-labelledby": "quick-play-title" },
      h("h2", { id: "quick-play-title" }, "Quick play"),
      this.quickTerms,
      h("div", { class: "quick-play" },
        h("label", { for: "quick-play-preset" }, "Game "), select, " ", play, " ", cancel),
      this.quickStatus,
      this.quickCountdown);
  }

  showQuickTerms() {
    const t = this.client.quickPlayTerms;
    this.quickTerms.textContent = t
      ? `Seats you with others who want the same game, at a table with ${turnWords(t.turn_seconds)}; bots take the seats nobody came for after ${Math.round(t.bots_after_ms / 1000)} s.`
      : "Seats you with others who want the same game; bots take the seats nobody came for.";
  }

  /** The seconds left until bots fill the table, counted down (not read out at every tick: it is not a live region). */
  startCountdown(at) {
    this.stopCountdown();
    const tick = () => {
      const left = Math.max(0, Math.ceil((at - Date.now()) / 1000));
      this.quickCountdown.textContent = left > 0 ? `Bots take the empty seats in ${left} s.` : "Bots are taking the empty seats…";
      this.quickCountdown.dataset.left = String(left);
    };
    tick();
    this.countdown = setInterval(tick, 1000);
  }

  stopCountdown() {
    clearInterval(this.countdown);
    this.countdown = null;
    if (this.quickCountdown) {
      this.quickCountdown.textContent = "";
      delete this.quickCountdown.dataset.left;
    }
  }

  nameSection() {
    const input = h("input", { id: "lobby-name", maxlength: 32, required: true, value: this.app.name ?? "", autocomplete: "nickname" });
    return h("section", { class: "card-panel" },
      h("form", { class: "name-row", onsubmit: (e) => {
        e.preventDefault();
        const name = input.value.trim();
        if (name) this.app.setName(name);
      } },
        h("label", { for: "lobby-name" }, "Your name"),
        input,
        h("button", { type: "submit" }, "Save name")));
  }

  /** Which tables to list: a game, a table size, and whether games in progress show. */
  filterRow() {
    const changed = () => {
      this.after = null;
      this.before = [];
      this.lastTables = null;
      this.refresh();
    };
    const preset = h("select", { id: "tables-preset", onchange: (e) => { this.filter.preset = e.target.value; changed(); } },
      h("option", { value: "" }, "Every game"),
      PRESETS.map((p) => h("option", { value: p.name, selected: p.name === this.filter.preset }, p.label)));
    const seats = h("select", { id: "tables-seats", onchange: (e) => { this.filter.seats = e.target.value; changed(); } },
      h("option", { value: "" }, "Any"),
      [2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => h("option", { value: String(n), selected: String(n) === this.filter.seats }, `${n} seats`)));
    // Each label with its control, so that a narrow screen wraps between them, never inside one.
    return h("div", { class: "table-filter" },
      h("span", { class: "pair" }, h("label", { for: "tables-preset" }, "Game"), preset),
      h("span", { class: "pair" }, h("label", { for: "tables-seats" }, "Seats"), seats),
      h("label", { class: "inline" },
        h("input", { type: "checkbox", id: "tables-all", checked: this.showAll, onchange: (e) => { this.showAll = e.target.checked; changed(); } }),
        " show games in progress"));
  }

  async refresh() {
    const filter = { open: !this.showAll, limit: TABLES_PER_PAGE };
    if (this.filter.preset) filter.preset = this.filter.preset;
    if (this.filter.seats) filter.seats = Number(this.filter.seats);
    if (this.after) filter.after = this.after;
    try {
      const page = await this.client.listTablesPage(filter);
      // Every table of this page went away meanwhile: back to the first page.
      if (page.tables.length === 0 && this.after) {
        this.after = null;
        this.before = [];
        return this.refresh();
      }
      this.renderTables(page);
    } catch (err) {
      fill(this.tablesEl, h("p", { class: "error" }, errorWords(err)));
    }
  }

  renderTables(page) {
    // The list is refreshed every few seconds: draw it only when it changed, and keep the focus.
    const text = JSON.stringify([page, this.client.seats, this.before.length]);
    if (text === this.lastTables) return;
    this.lastTables = text;
    const key = focusKey(this.el);
    this.drawTables(page.tables);
    this.drawPager(page);
    restoreFocus(this.el, key);
  }

  drawPager(page) {
    const first = this.before.length * TABLES_PER_PAGE + 1;
    const last = first + page.tables.length - 1;
    if (!page.next && this.before.length === 0) return fill(this.pagerEl);
    const turn = (after, before) => {
      this.after = after;
      this.before = before;
      this.refresh();
    };
    fill(this.pagerEl,
      h("button", { type: "button", id: "tables-previous", dataset: { focusKey: "tables-previous" }, disabled: this.before.length === 0,
        onclick: () => turn(this.before[this.before.length - 1], this.before.slice(0, -1)) }, "Previous"),
      h("span", { class: "hint", id: "tables-shown" }, page.tables.length ? ` Tables ${first}–${last} of ${page.total} ` : ` ${page.total} tables `),
      h("button", { type: "button", id: "tables-next", dataset: { focusKey: "tables-next" }, disabled: !page.next,
        onclick: () => turn(page.next, [...this.before, this.after]) }, "Next"));
  }

  drawTables(tables) {
    // Your own games first: a running game is not among the open tables, so it gets a line above them.
    const mine = (t) => this.client.seats.some((s) => s.table === t.table);
    tables = [...tables].sort((a, b) => Number(mine(b)) - Number(mine(a)));
    const listed = new Set(tables.map((t) => t.table));
    const yours = this.client.seats.filter((s) => !listed.has(s.table)).map((s) => {
      // A seat is held until its table closes or you leave it: after its game, say so.
      const state = this.client.models.get(s.table)?.state;
      const over = Boolean(state?.gameOver) || state?.info?.state === "over";
      const back = h("button", { type: "button", class: "primary", dataset: { focusKey: `back-${s.table}` }, onclick: () => this.app.go(`#/table/${s.table}`) },
        over ? "Back to the table" : "Back to your seat");
      if (!over) return h("p", { class: "your-game" }, `You hold seat ${s.seat + 1} at table ${s.table}. `, back);
      return h("p", { class: "your-game", dataset: { over: "true" } }, `Your game at table ${s.table} is over; you keep seat ${s.seat + 1} for another. `, back, " ",
        h("button", { type: "button", dataset: { focusKey: `leave-${s.table}` }, onclick: async () => {
          try {
            await this.client.leave(s.table);
          } catch (err) {
            this.app.toast(errorWords(err));
          }
          this.refresh();
        } }, "Leave the table"));
    });
    const empty = h("p", { class: "muted" }, this.showAll ? "No public tables." : "No open tables: create one below.");
    fill(this.tablesEl, yours, tables.length ? this.tableList(tables) : yours.length ? null : empty);
  }

  tableList(tables) {
    return h("table", { class: "list" },
      h("thead", {}, h("tr", {}, ["Table", "Game", "Options", "Seats", "Status", ""].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, tables.map((t) => this.tableRow(t))));
  }

  tableRow(t) {
    const free = t.seats.some((s) => s === null) && t.state !== "playing";
    const mine = this.client.seats.some((s) => s.table === t.table);
    return h("tr", { dataset: { table: t.table } },
      h("th", { scope: "row" }, t.table),
      h("td", {}, t.rule_set ? t.rule_set.label : presetLabel(t.ruleset.preset)),
      h("td", {}, optionsInWords(t.ruleset), t.turn_seconds ? `; ${t.turn_seconds} s a turn` : "; no turn limit"),
      h("td", {}, seatNames(t.seats, this.client.player, { botSeats: true }).map((x) => x ?? "empty").join(", ")),
      h("td", {}, STATE_WORDS[t.state] ?? t.state, t.spectators ? ` · ${t.spectators} watching` : ""),
      h("td", { class: "actions" },
        mine ? h("button", { type: "button", class: "primary", dataset: { focusKey: `back-${t.table}` }, onclick: () => this.app.go(`#/table/${t.table}`) },
          t.state === "over" ? "Back to the table" : "Back to your seat")
          : free ? h("button", { type: "button", class: "primary", dataset: { focusKey: `join-${t.table}` }, onclick: () => this.join(t.table) }, `Join ${t.table}`) : null,
        mine ? null : h("button", { type: "button", dataset: { focusKey: `watch-${t.table}` }, onclick: () => this.app.go(`#/table/${t.table}?watch=1`) }, `Watch ${t.table}`)));
  }

  async join(table) {
    try {
      await this.client.sit(table);
      this.app.go(`#/table/${table}`);
    } catch (err) {
      this.app.toast(errorWords(err));
      this.refresh();
    }
  }

  /**
   * The host's named rule sets (hello's rule_sets) first in the game lists: the form starts
   * at the first of them until someone changes it, and quick play offers them too. Each says
   * how many games were played under it, as of this hello (a reconnection brings newer counts).
   */
  offerRuleSets() {
    const sets = this.client.ruleSets ?? [];
    if (!sets.length) return;
    if (!this.formTouched) this.renderForm(`set:${sets[0].name}`);
    else relabelRuleSets(this.formEl.querySelector("#preset"), sets);
    if (this.quickSelect && !this.quickSelect.querySelector("optgroup")) {
      const chosen = this.quickSelect.value;
      fill(this.quickSelect,
        h("optgroup", { label: "This server's games" }, sets.map((s, i) => h("option", { value: `set:${s.name}`, selected: i === 0 }, ruleSetChoice(s)))),
        h("optgroup", { label: "Every game" }, PRESETS.map((p) => h("option", { value: p.name }, p.label))));
      if (this.quickTouched) this.quickSelect.value = chosen;
    } else if (this.quickSelect) {
      relabelRuleSets(this.quickSelect, sets);
    }
  }

  /** The host's rule sets' boards first (once the hello has named them), then the presets'. */
  drawBoardLinks() {
    fill(this.boardLinksEl, boardLinks(this.client));
  }

  renderForm(choice) {
    // A choice is a preset's name, or "set:" and a named rule set's: its preset, its options as the values.
    const set = ruleSetOf(this.client, choice);
    const preset = set ? set.ruleset.preset : choice;
    this.preset = preset;
    this.choice = choice;
    const sets = this.client.ruleSets ?? [];
    const presetOptions = PRESETS.map((p) => h("option", { value: p.name, selected: p.name === choice }, p.label));
    const presetSelect = h("select", { id: "preset", name: "preset", onchange: (e) => { this.formTouched = true; this.renderForm(e.target.value); } },
      sets.length
        ? [h("optgroup", { label: "This server's games" }, sets.map((s) => h("option", { value: `set:${s.name}`, selected: `set:${s.name}` === choice }, ruleSetChoice(s)))),
          h("optgroup", { label: "Every game" }, presetOptions)]
        : presetOptions);
    const about = PRESETS.find((p) => p.name === preset)?.about ?? "";
    const fields = optionsFor(preset).map((o) => {
      const id = `opt-${o.name}`;
      let input;
      if (o.type === "bool") {
        input = h("select", { id, name: o.name }, ["false", "true"].map((v) => h("option", { value: v, selected: formValue(o.default) === v }, v === "true" ? "on" : "off")));
      } else if (o.type === "enum") {
        input = h("select", { id, name: o.name }, o.values.map((v) => h("option", { value: v, selected: formValue(o.default) === v }, o.valueLabels?.[v] ?? v)));
      } else if (o.type === "int") {
        const [min, max] = o.range?.[preset] ?? [o.min, o.max];
        input = h("input", { id, name: o.name, type: "number", min, max, step: 1, required: true, value: formValue(o.default) });
      } else {
        input = h("input", { id, name: o.name, type: "text", pattern: o.pattern, required: true, value: formValue(o.default), size: 8 });
      }
      input.dataset.default = formValue(o.default);
      // A rule set's own value, where it has one: sent, since it differs from the preset's default.
      if (set && set.ruleset.options && o.name in set.ruleset.options) input.value = formValue(set.ruleset.options[o.name]);
      return h("div", { class: "field" },
        h("label", { for: id }, o.label, " ", h("span", { class: "hint", id: `hint-${o.name}` }, `(${o.hint})`)),
        input);
    });
    // The preset's defaults first; its options behind "More options", so that the form fits a phone.
    const open = this.formEl.querySelector("details.more")?.open ?? false;
    fill(this.formEl,
      h("div", { class: "field" },
        h("label", { for: "preset" }, "Game"),
        presetSelect,
        h("p", { class: "hint", id: "preset-about" }, about, " ",
          h("a", { href: `#/rules/${preset}`, id: "how-to-play" }, `How to play ${PRESETS.find((p) => p.name === preset)?.label ?? preset}`))),
      h("div", { class: "field-row" },
        h("div", { class: "field" },
          h("label", { for: "turn-seconds" }, "Turn time ", h("span", { class: "hint" }, "(seconds, 0: none)")),
          h("input", { id: "turn-seconds", name: "turn_seconds", type: "number", min: 0, max: 3600, value: 60 })),
        h("div", { class: "field" },
          h("label", { class: "inline" }, h("input", { type: "checkbox", id: "private", name: "private" }), " Private (invite only)")),
        h("div", { class: "field" },
          h("label", { for: "bots" }, "Bots ", h("span", { class: "hint" }, "(fill the other seats)")),
          h("select", { id: "bots", name: "bots" },
            h("option", { value: "none" }, "none: wait for people"),
            h("option", { value: "random" }, "random bots (play any legal card)"),
            h("option", { value: "basic", selected: true }, "basic bots"),
            h("option", { value: "strong" }, "strong bots (think ahead)")))),
      h("button", { type: "submit", class: "primary", id: "create" }, "Create table and sit"),
      h("details", { class: "more", open },
        h("summary", {}, "More options ", h("span", { class: "hint" }, "(each starts at this game's default)")),
        h("fieldset", { class: "options" }, h("legend", {}, "Options"), fields)));
    this.describeForm();
  }

  /** The preset's line and the hints that depend on other options, as the form's values stand. */
  describeForm() {
    const form = this.formEl;
    const value = (name) => form.elements.namedItem(name)?.value;
    const about = form.querySelector("#preset-about");
    const set = ruleSetOf(this.client, this.choice);
    const named = set ? `${set.label}: ${presetLabel(set.ruleset.preset)}, ${optionsInWords(set.ruleset)}. ` : "";
    if (about?.firstChild) about.firstChild.textContent = `${named}${presetInWords(this.preset, value)} `;
    for (const o of optionsFor(this.preset)) {
      const hint = form.querySelector(`#hint-${o.name}`);
      if (hint) hint.textContent = `(${liveHint(o, value)})`;
    }
  }

  async create(e) {
    e.preventDefault();
    const form = this.formEl;
    const options = {};
    for (const o of optionsFor(this.preset)) {
      const el = form.elements.namedItem(o.name);
      if (el && el.value !== el.dataset.default) options[o.name] = wireValue(o, el.value);
    }
    const isPrivate = form.elements.namedItem("private").checked;
    const turnSeconds = Number(form.elements.namedItem("turn_seconds").value);
    const botLevel = form.elements.namedItem("bots").value;
    const fillBots = botLevel !== "none";
    const button = form.querySelector("#create");
    button.disabled = true;
    try {
      const created = await this.client.createTable({ preset: this.preset, options }, { private: isPrivate || undefined, turn_seconds: turnSeconds });
      const sat = await this.client.sit(created.table, { invite: created.invite });
      if (fillBots) {
        const seats = Number(created.ruleset.options?.seats ?? 4);
        for (let s = 0; s < seats; s++) if (s !== sat.seat) await this.client.addBot(created.table, s, botLevel);
      }
      this.app.go(`#/table/${created.table}${created.invite ? `?invite=${created.invite}` : ""}`);
    } catch (err) {
      this.app.toast(errorWords(err));
      if (err.field) form.querySelector(`[name="${CSS.escape(err.field.replace(/^ruleset\.options\./, ""))}"]`)?.focus();
    } finally {
      button.disabled = false;
    }
  }

  /** The finished games of one rule set only: offered when the host has named rule sets. */
  drawGamesFilter() {
    const sets = this.client.ruleSets ?? [];
    // One the host no longer offers (a reconnection to a restarted server): every game again.
    if (this.gamesRuleSet && !sets.some((s) => s.name === this.gamesRuleSet)) {
      this.gamesRuleSet = "";
      this.loadGames();
    }
    // Drawn again only when the sets changed: a hello must not take the focus off the list.
    const text = JSON.stringify(sets.map((s) => [s.name, s.label]));
    if (text === this.gamesFilterSets) return;
    this.gamesFilterSets = text;
    if (!sets.length) return fill(this.gamesFilterEl);
    const select = h("select", { id: "games-rule-set", onchange: (e) => { this.gamesRuleSet = e.target.value; this.loadGames(); } },
      h("option", { value: "" }, "Every game"),
      sets.map((s) => h("option", { value: s.name, selected: s.name === this.gamesRuleSet }, s.label)));
    fill(this.gamesFilterEl, h("span", { class: "pair" }, h("label", { for: "games-rule-set" }, "Game"), select));
  }

  async loadGames() {
    // Only the last asked for is drawn: an earlier filter's answer may come after it.
    const asked = ++this.gamesAsked;
    const ruleSet = this.gamesRuleSet;
    try {
      const { games } = await listGames({ limit: 20, rule_set: ruleSet || undefined });
      if (asked !== this.gamesAsked) return;
      this.games = games;
      this.gamesOf = ruleSet;
      this.drawGames();
    } catch (err) {
      if (asked !== this.gamesAsked) return;
      fill(this.gamesEl, h("p", { class: "muted" }, err.code === "no_archive" ? "This server keeps no archive." : errorWords(err)));
    }
  }

  /** The finished games, "(you)" marking this player: drawn again once the hello says who that is. */
  drawGames() {
    const games = this.games;
    if (!games) return;
    if (!games.length) {
      fill(this.gamesEl, h("p", { class: "muted" }, this.gamesOf ? `No finished games of ${ruleSetLabel(this.client, this.gamesOf)} yet.` : "No finished games yet."));
      return;
    }
    fill(this.gamesEl, h("ul", { class: "game-list" }, games.map((g) => h("li", { dataset: g.rule_set ? { ruleSet: g.rule_set } : {} },
      h("a", { href: `#/replay/${encodeURIComponent(g.table)}/${g.game}` }, `Replay ${g.table} game ${g.game}`),
      ` — ${g.rule_set ? ruleSetLabel(this.client, g.rule_set) : presetLabel(g.preset)}, ${seatNames(g.players ?? [], this.client.player, { botSeats: true }).map((x) => x ?? "?").join(", ")}`,
      resultWords(g) ? h("span", { class: "game-result" }, ` · ${resultWords(g)}`) : "",
      g.finished ? `, ${new Date(g.finished).toLocaleString()}` : ""))));
  }
}

/** The rule sets' options of a game list say the counts of the latest hello. */
function relabelRuleSets(select, sets) {
  for (const s of sets) {
    const option = select?.querySelector(`option[value="set:${CSS.escape(s.name)}"]`);
    if (option) option.textContent = ruleSetChoice(s);
  }
}

/** The named rule set a form choice ("set:street-spades") stands for, if it is one. */
function ruleSetOf(client, choice) {
  if (typeof choice !== "string" || !choice.startsWith("set:")) return null;
  return (client.ruleSets ?? []).find((s) => `set:${s.name}` === choice) ?? null;
}

/**
 * A finished game's result in words, from its summary: "won by Ada & Cy, 3 to -290".
 * A side is one seat when there are as many scores as seats; with fewer, the partners
 * sit alternately round the table (seat i on side i mod the number of sides), as every
 * partnership of the presets does.
 */
export function resultWords(g) {
  const over = g.result?.game_over;
  const players = g.players ?? [];
  if (!over || !over.scores?.length || !players.length) return "";
  const k = over.scores.length;
  if (players.length % k !== 0) return "";
  const names = seatNames(players, null, { botSeats: true });
  const side = (i) => names.filter((_, seat) => seat % k === i).map((x, j) => x ?? `Seat ${i + j * k + 1}`).join(" & ");
  // By rank: in Hearts the lowest score is first.
  const order = over.scores.map((score, i) => ({ i, score, rank: over.ranks?.[i] ?? 0 })).sort((a, b) => a.rank - b.rank || b.score - a.score);
  const first = order.filter((x) => x.rank === 1);
  const scores = order.map((x) => x.score).join(" to ");
  if (first.length !== 1) return `${first.map((x) => side(x.i)).join(" and ")} tied for first, ${scores}`;
  return `won by ${side(first[0].i)}, ${scores}`;
}
