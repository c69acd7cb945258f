// The archive and ratings readers over HTTP, against a fake fetch: the URLs they ask for,
// and an error answer turned into a SpartsError with the server's code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { getLeaderboard, getRuleSetLeaderboard, getPlayer, listGames } from "../archive.js";

function fakeFetch(status, body) {
  const asked = [];
  const fetch = async (url, init) => {
    asked.push({ url, init });
    return { ok: status >= 200 && status < 300, status, json: async () => body };
  };
  return { fetch, asked };
}

test("getLeaderboard asks for the preset's page with its query, and returns the body", async () => {
  const page = { preset: "spades", min_games: 1, players: [], next_cursor: null };
  const f = fakeFetch(200, page);
  assert.deepEqual(await getLeaderboard("spades", { limit: 10, cursor: "1500/p1", min_games: undefined }, { base: "http://h", fetch: f.fetch }), page);
  assert.equal(f.asked[0].url, "http://h/api/leaderboard/spades?limit=10&cursor=1500%2Fp1");
  await getLeaderboard("worldwinner-spades", {}, { fetch: f.fetch });
  assert.equal(f.asked[1].url, "/api/leaderboard/worldwinner-spades");
});

test("getRuleSetLeaderboard asks for the named rule set's board under /rule-set/, its name encoded", async () => {
  const page = { rule_set: "street-spades", min_games: 1, players: [], next_cursor: null };
  const f = fakeFetch(200, page);
  assert.deepEqual(await getRuleSetLeaderboard("street-spades", { limit: 25 }, { base: "http://h", fetch: f.fetch }), page);
  assert.equal(f.asked[0].url, "http://h/api/leaderboard/rule-set/street-spades?limit=25");
  await getRuleSetLeaderboard("a/b", {}, { fetch: f.fetch });
  assert.equal(f.asked[1].url, "/api/leaderboard/rule-set/a%2Fb");
  const missing = fakeFetch(404, { error: "not_found", message: "no rule set x" });
  await assert.rejects(getRuleSetLeaderboard("x", {}, { fetch: missing.fetch }), (err) => err.code === "not_found");
});

test("getPlayer asks for the player, and an unknown one is a SpartsError no_such_player", async () => {
  const ok = fakeFetch(200, { player: "p1", name: "Ann", ratings: [] });
  assert.equal((await getPlayer("p1", { fetch: ok.fetch })).name, "Ann");
  assert.equal(ok.asked[0].url, "/api/players/p1");
  const missing = fakeFetch(404, { error: "no_such_player", message: "no player p2" });
  await assert.rejects(getPlayer("p2", { fetch: missing.fetch }), (err) => err.code === "no_such_player");
});

test("listGames still builds its query as before", async () => {
  const f = fakeFetch(200, { games: [], next_cursor: null });
  await listGames({ preset: "spades", limit: 5 }, { fetch: f.fetch });
  assert.equal(f.asked[0].url, "/api/games?preset=spades&limit=5");
  await listGames({ rule_set: "street-spades", limit: 20, cursor: undefined }, { fetch: f.fetch });
  assert.equal(f.asked[1].url, "/api/games?rule_set=street-spades&limit=20");
});
