// Ratings: a preset's leaderboard (#/leaderboard/spades), a page at a time, and a player's
// page (#/player/p…) with its rating and statistics for every preset it has played rated
// games of. Rated games are those whose every seat was a person's when they began.

import { errorWords, getLeaderboard, getPlayer } from "../lib/index.js";
import { h, fill } from "./dom.js";
import { PRESETS, presetLabel } from "./options.js";

const PAGE = 25;

function presetLinks(current) {
  return h("nav", { class: "preset-links", "aria-label": "Leaderboards" },
    PRESETS.map((p) => (p.name === current
      ? h("strong", { "aria-current": "page" }, p.label)
      : h("a", { href: `#/leaderboard/${p.name}` }, p.label))));
}

const whole = (x) => String(Math.round(x));
const signed = (x) => (Math.round(x) > 0 ? `+${Math.round(x)}` : String(Math.round(x)));

export class LeaderboardView {
  constructor(app, preset) {
    this.app = app;
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
  }

  unmount() {}

  async load() {
    this.loading = true;
    try {
      const page = await getLeaderboard(this.preset, { limit: PAGE, cursor: this.next ?? undefined });
      this.players.push(...page.players);
      this.next = page.next_cursor;
    } catch (err) {
      this.error = err.code === "no_archive" ? "This server keeps no archive, so no ratings." : errorWords(err);
    }
    this.loading = false;
    this.render();
  }

  render() {
    const rows = this.players.map((p) => h("tr", { dataset: { player: p.player } },
      h("td", {}, String(p.rank)),
      h("th", { scope: "row" }, h("a", { href: `#/player/${encodeURIComponent(p.player)}` }, p.name)),
      h("td", {}, whole(p.rating)),
      h("td", {}, `±${whole(2 * p.deviation)}`),
      h("td", {}, String(p.games)),
      h("td", {}, String(p.wins))));
    fill(this.el,
      h("section", { class: "card-panel leaderboard", "aria-labelledby": "leaderboard-title" },
        h("h1", { id: "leaderboard-title" }, `${presetLabel(this.preset)} leaderboard`),
        presetLinks(this.preset),
        h("p", { class: "hint" }, "Glicko-2 ratings from games whose every seat was a person's. A player who leaves a game loses it."),
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
  }

  unmount() {}

  render() {
    const p = this.data;
    const presets = (p?.ratings ?? []).map((r) => {
      const s = r.statistics;
      const line = (label, value) => h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, value));
      return h("section", { class: "card-panel", dataset: { preset: r.preset } },
        h("h2", {}, h("a", { href: `#/leaderboard/${r.preset}` }, presetLabel(r.preset))),
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
          : presets.length ? presets : h("p", { class: "muted" }, "No rated games yet."),
      h("p", {}, h("a", { href: "#/leaderboard/spades" }, "Leaderboards"), " · ", h("a", { href: "#/" }, "Back to the lobby")));
  }
}
