// The archive of finished games over HTTP (GET /api/games...), and the players' ratings
// (GET /api/leaderboard/{preset}, GET /api/leaderboard/rule-set/{name}, GET /api/players/{id}).

import { SpartsError } from "./client.js";

// In a page, the archive is beside it: https://example.org/cards/ asks
// https://example.org/cards/api/..., so that the client works under a path
// behind a proxy as at a domain's root. Elsewhere (node), paths are relative
// to `base` or, without one, to the fetch function's own origin.
function defaultBase() {
  const loc = globalThis.location;
  return loc?.href ? new URL(".", loc.href).href.replace(/\/$/, "") : "";
}

// `?k=v&…` of the query's given values ("" when none).
function queryString(query) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== "") params.set(k, String(v));
  const qs = params.toString();
  return qs ? `?${qs}` : "";
}

async function getJson(base, path, fetchFn) {
  const res = await fetchFn(`${base ?? defaultBase()}${path}`, { headers: { accept: "application/json" } });
  let body = null;
  try {
    body = await res.json();
  } catch {
    // not JSON
  }
  if (!res.ok) throw new SpartsError(body?.error ?? `http_${res.status}`, body?.message ?? `HTTP ${res.status}`);
  return body;
}

/**
 * Finished games, newest first: `{games: [...], next_cursor}`. rule_set: only those played
 * under the host's named rule set (not with preset: the server refuses the two together).
 * @param {{player?: string, preset?: string, rule_set?: string, from?: number, to?: number, limit?: number, cursor?: string}} [query]
 * @param {{base?: string, fetch?: typeof fetch}} [options] base: the origin and path before /api (default: beside the page)
 */
export function listGames(query = {}, options = {}) {
  return getJson(options.base, `/api/games${queryString(query)}`, options.fetch ?? globalThis.fetch);
}

/** One finished game: seats, ruleset, every hand with its deal, every event, the result. */
export function getGame(table, game, options = {}) {
  return getJson(options.base, `/api/games/${encodeURIComponent(table)}/${game}`, options.fetch ?? globalThis.fetch);
}

/**
 * A preset's rated players, the best rating first: `{preset, min_games, players: [...], next_cursor}`.
 * @param {string} preset
 * @param {{limit?: number, cursor?: string, min_games?: number}} [query]
 * @param {{base?: string, fetch?: typeof fetch}} [options]
 */
export function getLeaderboard(preset, query = {}, options = {}) {
  return getJson(options.base, `/api/leaderboard/${encodeURIComponent(preset)}${queryString(query)}`, options.fetch ?? globalThis.fetch);
}

/**
 * A host's named rule set's rated players, the best rating first: `{rule_set, min_games, players: [...], next_cursor}`
 * (its games count in their preset's board too).
 * @param {string} ruleSet the rule set's name
 * @param {{limit?: number, cursor?: string, min_games?: number}} [query]
 * @param {{base?: string, fetch?: typeof fetch}} [options]
 */
export function getRuleSetLeaderboard(ruleSet, query = {}, options = {}) {
  return getJson(options.base, `/api/leaderboard/rule-set/${encodeURIComponent(ruleSet)}${queryString(query)}`, options.fetch ?? globalThis.fetch);
}

/**
 * A player with its rating and statistics per preset and per named rule set: `{player, name, ratings: [...], rule_sets: [...]}`
 * (an unknown one: SpartsError no_such_player).
 */
export function getPlayer(player, options = {}) {
  return getJson(options.base, `/api/players/${encodeURIComponent(player)}`, options.fetch ?? globalThis.fetch);
}
