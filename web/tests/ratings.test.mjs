// End-to-end, in Chromium against the real server: ratings. Four people (four browser
// contexts) play a short all-human game of Spades; each game-over panel shows every
// player's new rating, as /api/players/{id} has it; the lobby links to the leaderboard,
// which lists the four by rating and links to each player's page with its statistics.
// A game with a bot seat shows no rating. Screenshots go to the artifacts.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, newPerson, createTable, playThrough, rawGet, until } from "./support.mjs";

let server;
let browser;
const artifacts = artifactsDir();

before(async () => {
  server = await startServer(["--bot-delay-ms", "10"]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("four people play an all-human game: the game-over panel shows each one's new rating, the leaderboard lists them", async () => {
  const names = ["Ada", "Bo", "Cy", "Di"];
  const people = [];
  for (const name of names) people.push(await newPerson(browser, name));
  const table = await createTable(people[0].page, server.url, "spades", { hand_cap: 1 }, null, "none");
  for (const p of people.slice(1)) {
    await p.page.goto(server.url + "/");
    await p.page.locator("#status[data-state=open]").waitFor();
    const join = p.page.getByRole("button", { name: `Join ${table}` });
    await join.waitFor({ timeout: 15000 });
    await join.click();
    await p.page.waitForURL(new RegExp(`#/table/${table}`));
  }
  const start = people[0].page.locator("#start");
  await start.waitFor();
  for (let i = 0; i < 100 && (await start.isDisabled()); i++) await new Promise((r) => setTimeout(r, 100));
  await start.click();
  await Promise.all(people.map((p) => playThrough(p.page)));

  // Every panel: four ratings, as the server has them.
  for (const [i, p] of people.entries()) {
    const panel = p.page.locator("#game-ratings");
    await panel.waitFor({ timeout: 15000 });
    const rows = panel.locator("tbody tr");
    assert.equal(await rows.count(), 4, `${names[i]}'s panel: four ratings`);
    const text = await panel.innerText();
    for (const name of names) assert.match(text, new RegExp(name));
  }
  // Each one's own result: won or lost with their partner (across the table), and their new rating.
  const over = await people[0].page.evaluate(() => window.sparts.app.view.state.gameOver);
  const tied = over.ranks[0] === over.ranks[1];
  const winners = tied ? [0, 1, 2, 3] : over.ranks[0] === 1 ? [0, 2] : [1, 3];
  for (const [i, p] of people.entries()) {
    const words = await p.page.locator("#your-result").innerText();
    const partner = names[(i + 2) % 4];
    const outcome = tied ? "tied for first" : winners.includes(i) ? "won" : "lost";
    assert.match(words, new RegExp(`^You ${outcome} with ${partner}\\.`), `${names[i]}: ${words}`);
    await until(async () => /Your rating: \d+ \([+-]?\d+\)\./.test(await p.page.locator("#your-result").innerText()), `${names[i]}'s rating in their result`);
  }
  const title = await people[0].page.locator("#over-title").innerText();
  const shown = (i) => (i === 0 ? "Ada (you)" : names[i]);
  assert.equal(title, tied ? `Game over: ${shown(0)} & ${shown(2)} and ${shown(1)} & ${shown(3)} tie for first`
    : `Game over: ${winners.map(shown).join(" & ")} win`);
  await people[0].page.screenshot({ path: join(artifacts, "ratings-game-over.png") });
  const ids = await Promise.all(people.map(async (p) => {
    const seat = await p.page.evaluate(() => window.sparts.app.view.state.you);
    const info = await p.page.evaluate(() => window.sparts.app.view.state.info);
    return info.seats[seat].player;
  }));
  for (const [i, id] of ids.entries()) {
    const res = await rawGet(server.port, `/api/players/${id}`);
    assert.equal(res.status, 200);
    const row = JSON.parse(res.body).ratings.find((r) => r.preset === "spades");
    assert.ok(row, `${names[i]} is rated`);
    assert.equal(row.games, 1);
    const shown = await people[0].page.locator(`#game-ratings tbody tr[data-seat="${i}"] td.rating`).innerText();
    assert.equal(shown, String(Math.round(row.rating)), `${names[i]}'s rating on Ada's panel`);
  }

  // The leaderboard, from the lobby: the four by rating; a player's page from it.
  const { page } = people[0];
  await page.goto(server.url + "/");
  // (and the lobby's finished game says who won)
  const finished = page.locator(".game-list li", { hasText: `Replay ${table} game 1` });
  await finished.waitFor();
  // The list may be drawn before the hello says who is looking; it is drawn again then.
  await until(async () => /Spades, Ada \(you\), Bo, Cy, Di/.test(await finished.innerText()), "the players, Ada marked as the one looking");
  assert.match(await finished.innerText(), tied ? /Ada & Cy and Bo & Di tied for first/
    : new RegExp(`won by ${winners.map((i) => names[i]).join(" & ")}, -?\\d+ to -?\\d+`));
  await page.getByRole("link", { name: "Spades", exact: true }).first().click();
  await page.waitForURL(/#\/leaderboard\/spades/);
  const board = page.locator("#leaderboard tbody tr");
  await board.first().waitFor();
  assert.equal(await board.count(), 4);
  const api = JSON.parse((await rawGet(server.port, "/api/leaderboard/spades")).body);
  const listed = await page.locator("#leaderboard tbody tr th").allInnerTexts();
  assert.deepEqual(listed, api.players.map((x) => x.name));
  assert.deepEqual([...listed].sort(), [...names].sort());
  await page.screenshot({ path: join(artifacts, "ratings-leaderboard.png") });
  await page.getByRole("link", { name: listed[0] }).click();
  await page.waitForURL(/#\/player\//);
  const section = page.locator("section[data-preset=spades]");
  await section.waitFor();
  assert.match(await section.innerText(), /Games\s+1/);
  assert.match(await section.innerText(), /Hands\s+1/);
  for (const p of people) assert.deepEqual(p.errors, []);
  for (const p of people) await p.context.close();
});

test("a game with a bot seat shows no rating", async () => {
  const ada = await newPerson(browser, "Ada");
  const { page } = ada;
  await createTable(page, server.url, "spades", { hand_cap: 1 }, null, "basic");
  await page.locator("#start").click();
  await playThrough(page);
  await page.locator(".game-over").waitFor();
  await new Promise((r) => setTimeout(r, 1500));  // time enough for the ratings to be read, were there any
  assert.equal(await page.locator("#game-ratings").count(), 0);
  assert.match(await page.locator("#your-result").innerText(), /^You (won|lost|tied for first) with Bot 3\. Unrated: bots at the table\.$/);
  assert.match(await page.locator("#over-title").innerText(), /^Game over: ((Ada \(you\) & Bot 3|Bot 2 & Bot 4) win|.* tie for first)$/);
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

// A page's answer that comes after the person has moved on must not be drawn over the page
// they moved to (CI once saw a late leaderboard replace a player's page). Each page's answer
// is held back until the next page is drawn, then let through.
test("an answer that comes after its page was left is not drawn over the next page", async () => {
  const { context, page, errors } = await newPerson(browser, "Lu");
  const player = { player: "p-late", name: "Late Lu", ratings: [], rule_sets: [] };
  // pathname → the release of its held answer
  const holds = new Map();
  const hold = (path) => { let release; holds.set(path, new Promise((r) => (release = r))); return () => release(); };
  await page.route((url) => holds.has(url.pathname), async (route) => {
    const path = new URL(route.request().url()).pathname;
    await holds.get(path);
    if (path === "/api/players/p-late") await route.fulfill({ json: player });
    else if (path.startsWith("/api/games/")) await route.fulfill({ json: { table: "t-late", game: 1, seats: [{ name: "Late Nameseat" }] } });
    else await route.continue();
  });
  await page.route("**/api/players/p-other", (route) => route.fulfill({ json: { ...player, player: "p-other", name: "Other Ott" } }));
  const settle = async (path, release) => {
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === path);
    release();
    await answered;
    await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
  };
  const stays = async (title) => {
    assert.equal(await page.locator("h1").innerText(), title);
    assert.equal(await page.locator("h1").count(), 1);
  };

  // a leaderboard left for a player's page
  let release = hold("/api/leaderboard/spades");
  await page.goto(server.url + "/#/leaderboard/spades");
  await page.locator(".leaderboard .muted", { hasText: "Loading…" }).waitFor();
  await page.goto(server.url + "/#/player/p-other");
  await page.locator("h1", { hasText: "Other Ott" }).waitFor();
  await settle("/api/leaderboard/spades", release);
  await stays("Other Ott");
  holds.clear();

  // a player's page left for a leaderboard
  release = hold("/api/players/p-late");
  await page.goto(server.url + "/#/player/p-late");
  await page.locator("main .muted", { hasText: "Loading…" }).waitFor();
  await page.goto(server.url + "/#/leaderboard/hearts");
  await page.locator("h1", { hasText: "Hearts leaderboard" }).waitFor();
  await page.locator(".leaderboard .muted", { hasText: "No rated games yet." }).waitFor();
  await settle("/api/players/p-late", release);
  await stays("Hearts leaderboard");
  holds.clear();

  // a replay left for a player's page (its seats' names come late)
  release = hold("/api/games/t-late/1");
  await page.goto(server.url + "/#/replay/t-late/1");
  await page.locator("h1", { hasText: /Replay/ }).first().waitFor();
  await page.goto(server.url + "/#/player/p-other");
  await page.locator("h1", { hasText: "Other Ott" }).waitFor();
  await settle("/api/games/t-late/1", release);
  await stays("Other Ott");
  assert.equal(await page.locator("body.at-table").count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
