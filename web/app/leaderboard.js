// Ratings: a preset's leaderboard (#/leaderboard/spades) or a host's named rule set's
// (#/leaderboard/rule-set/street-spades), a page at a time, and a player's page (#/player/p…)
// with its rating and statistics for every preset and rule set it has played rated games of.
// Rated games are those whose every seat was a person's when they began.

import { errorWords, getLeaderboard, getRuleSetLeaderboard, getPlayer } from "../lib/index.js";
import { h, fill } from "./dom.js";
import { PRESETS, presetLabel, ruleSetLabel } from "./options.js";

const PAGE = 25;

const ruleSetBoard = (name) => `#/leaderboard/rule-set/${encodeURIComponent(name)}`;

/**
 * Every board: the host's rule sets' (as the hello names them) on a line of their own, as the
 * game lists group them, then the presets'. `current`: the link of the board shown, if one is.
 */
export function boardLinks(client, current = null) {
  const link = (href, label) => (href === current
    ? h("strong", { "aria-current": "page" }, label)
    : h("a", { href }, label));
  const presets = PRESETS.map((p) => link(`#/leaderboard/${p.name}`, p.label));
  const sets = client.ruleSets ?? [];
  if (!sets.length) return h("nav", { class: "preset-links", "aria-label": "Leaderboards" }, presets);
  return h("nav", { class: "board-links", "aria-label": "Leaderboards" },
    h("p", { class: "preset-links" }, h("span", { class: "muted" }, "This server's games:"), sets.map((s) => link(ruleSetBoard(s.name), s.label))),
    h("p", { class: "preset-links" }, h("span", { class: "muted" }, "Every game:"), presets));
}

const whole = (x) => String(Math.round(x));
const signed = (x) => (Math.round(x) > 0 ? `+${Math.round(x)}` : String(Math.round(x)));

export class LeaderboardView {
  /** A preset's board, or with `ruleSet` (a name) that rule set's. */
  constructor(app, preset, ruleSet = null) {
    this.app = app;
    this.client = app.client;
    this.ruleSet = ruleSet;
    this.preset = PRESETS.some((p) => p.name === preset) ? preset : "spades";
    this.players = [];
    this.next = null;
    this.error = null;
    this.loading = false;
  }

  mount(el) {
    this.el = el;
    this.render();
    this.load();
    // The rule sets' labels and links come with the hello, which may follow the page's first drawing.
    this.off = this.client.on("hello", () => this.render());
  }

  unmount() {
    this.off?.();
    // An answer that comes after the person has moved on must not draw over the page they moved to.
    this.gone = true;
  }

  async load() {
    this.loading = true;
    try {
      const query = { limit: PAGE, cursor: this.next ?? undefined };
      const page = this.ruleSet ? await getRuleSetLeaderboard(this.ruleSet, query) : await getLeaderboard(this.preset, query);
      this.players.push(...page.players);
      this.next = page.next_cursor;
    } catch (err) {
      this.error = err.code === "no_archive" ? "This server keeps no archive, so no ratings." : errorWords(err);
    }
    this.loading = false;
    this.render();
  }

  render() {
    if (this.gone) return;
    const rows = this.players.map((p) => h("tr", { dataset: { player: p.player } },
      h("td", {}, String(p.rank)),
      h("th", { scope: "row" }, h("a", { href: `#/player/${encodeURIComponent(p.player)}` }, p.name)),
      h("td", {}, whole(p.rating)),
      h("td", {}, `±${whole(2 * p.deviation)}`),
      h("td", {}, String(p.games)),
      h("td", {}, String(p.wins))));
    const set = this.ruleSet && (this.client.ruleSets ?? []).find((s) => s.name === this.ruleSet);
    fill(this.el,
      h("section", { class: "card-panel leaderboard", "aria-labelledby": "leaderboard-title" },
        h("h1", { id: "leaderboard-title" }, `${this.ruleSet ? ruleSetLabel(this.client, this.ruleSet) : presetLabel(this.preset)} leaderboard`),
        boardLinks(this.client, this.ruleSet ? ruleSetBoard(this.ruleSet) : `#/leaderboard/${this.preset}`),
        h("p", { class: "hint" }, "Glicko-2 ratings from games whose every seat was a person's. A player who leaves a game loses it.",
          // A rule set's games are its preset's too: say that they count on both boards.
          set ? ` These are ${set.label} games alone; they count in the ${presetLabel(set.ruleset.preset)} leaderboard too.` : ""),
        this.error ? h("p", { class: "error" }, this.error)
          : !rows.length ? h("p", { class: "muted" }, this.loading ? "Loading…" : "No rated games yet.")
            : h("table", { class: "list", id: "leaderboard" },
              h("thead", {}, h("tr", {}, ["Rank", "Player", "Rating", "Range (95%)", "Games", "Wins"].map((x) => h("th", { scope: "col" }, x)))),
              h("tbody", {}, rows)),
        this.next ? h("button", { type: "button", disabled: this.loading, onclick: () => this.load() }, "More") : null,
        h("p", {}, h("a", { href: "#/" }, "Back to the lobby"))));
  }
}

export class PlayerView {
  constructor(app, player) {
    this.app = app;
    this.player = player;
    this.data = null;
    this.error = null;
  }

  mount(el) {
    this.el = el;
    this.render();
    getPlayer(this.player).then((p) => {
      this.data = p;
      this.render();
    }).catch((err) => {
      this.error = err.code === "no_such_player" ? "No such player." : errorWords(err);
      this.render();
    });
    // The rule sets' labels come with the hello.
    this.off = this.app.client.on("hello", () => this.render());
  }

  unmount() {
    this.off?.();
    // An answer that comes after the person has moved on must not draw over the page they moved to.
    this.gone = true;
  }

  render() {
    if (this.gone) return;
    const p = this.data;
    // A section a board: the presets', then the host's named rule sets' (their games are in their preset's too).
    const boards = [
      ...(p?.ratings ?? []).map((r) => ({ r, data: { preset: r.preset }, href: `#/leaderboard/${r.preset}`, label: presetLabel(r.preset) })),
      ...(p?.rule_sets ?? []).map((r) => ({ r, data: { ruleSet: r.rule_set }, href: ruleSetBoard(r.rule_set), label: ruleSetLabel(this.app.client, r.rule_set) })),
    ];
    const sections = boards.map(({ r, data, href, label }) => {
      const s = r.statistics;
      const line = (label, value) => h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, value));
      return h("section", { class: "card-panel", dataset: data },
        h("h2", {}, h("a", { href }, label)),
        h("table", { class: "score-table" }, h("tbody", {},
          line("Rating", `${whole(r.rating)} (±${whole(2 * r.deviation)})`),
          line("Games", `${r.games} (${r.wins} won)`),
          line("Last game", h("span", {}, h("a", { href: `#/replay/${encodeURIComponent(r.last_game.table)}/${r.last_game.game}` }, `${r.last_game.table} game ${r.last_game.game}`), ` (${signed(r.last_game.change)})`)),
          line("Hands", String(s.hands)),
          line("Bids made", `${s.bids_made} of ${s.bids}`),
          line("Nil bids", `${s.nils_made} made, ${s.nils_set} set`),
          line("Bags a hand", s.bags_per_hand.toFixed(2)),
          line("Moons shot", String(s.moons)))));
    });
    fill(this.el,
      h("h1", {}, p ? p.name : "Player"),
      this.error ? h("p", { class: "error" }, this.error)
        : !p ? h("p", { class: "muted" }, "Loading…")
          : sections.length ? sections : h("p", { class: "muted" }, "No rated games yet."),
      h("p", {}, h("a", { href: "#/leaderboard/spades" }, "Leaderboards"), " · ", h("a", { href: "#/" }, "Back to the lobby")));
  }
}
