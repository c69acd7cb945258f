// The archive of finished games over HTTP (GET /api/games...).

import { SpartsError } from "./client.js";

async function getJson(base, path, fetchFn) {
  const res = await fetchFn(`${base}${path}`, { headers: { accept: "application/json" } });
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
 * Finished games, newest first: `{games: [...], next_cursor}`.
 * @param {{player?: string, preset?: string, from?: number, to?: number, limit?: number, cursor?: string}} [query]
 * @param {{base?: string, fetch?: typeof fetch}} [options] base: the server's origin ("" = this page's)
 */
export function listGames(query = {}, options = {}) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== "") params.set(k, String(v));
  const qs = params.toString();
  return getJson(options.base ?? "", `/api/games${qs ? `?${qs}` : ""}`, options.fetch ?? globalThis.fetch);
}

/** One finished game: seats, ruleset, every hand with its deal, every event, the result. */
export function getGame(table, game, options = {}) {
  return getJson(options.base ?? "", `/api/games/${encodeURIComponent(table)}/${game}`, options.fetch ?? globalThis.fetch);
}
