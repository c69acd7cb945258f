// End-to-end, in Chromium against the real server: the host's named rule sets
// (--rule-sets, docs/OPERATING.md). The New table form offers them first and starts
// at the first; the line under it says what the rule set is; a table made from it
// shows the rule set's label as its game, and its options; quick play offers the
// rule sets too. Once a game of a rule set is over, the lists say how many were played
// under each, the lobby links to the rule set's leaderboard, the finished games can be
// narrowed to it and name it, and a player's page has a section for it. Screenshots at
// 1280×800 and 390×844 go to the artifacts.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { startServer, launchBrowser, artifactsDir, newPerson, playBotGame, rawGet, until, audit } from "./support.mjs";

let server;
let browser;
const artifacts = artifactsDir();

before(async () => {
  const file = join(mkdtempSync(join(tmpdir(), "sparts-rule-sets-")), "rule-sets.json");
  writeFileSync(file, JSON.stringify([
    { name: "street-spades", label: "Street Spades",
      ruleset: { preset: "spades", options: { joker_deck: "jjdd", min_side_bid: 4, ten_for_two_hundred: true, target_score: 350 } } },
    { name: "hearts-50", label: "Hearts to 50", ruleset: { preset: "hearts", options: { target_score: 50 } } },
    // One hand: a game of it is over in seconds.
    { name: "one-hand", label: "One Hand Spades", ruleset: { preset: "spades", options: { hand_cap: 1 } } },
  ]));
  server = await startServer(["--bot-delay-ms", "10", "--rule-sets", file]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

for (const size of ["desktop", "phone"]) {
  test(`${size}: the host's rule sets come first, and a table made from one is called by its name`, async () => {
    const { context, page, errors } = await newPerson(browser, `Rae ${size}`, size);
    await page.goto(server.url + "/");
    await page.locator("#status[data-state=open]").waitFor();
    // The form starts at the first rule set, once the hello has said what they are.
    await page.locator("#preset optgroup").first().waitFor({ state: "attached" });
    assert.equal(await page.locator("#preset").inputValue(), "set:street-spades");
    // (before any game of them is over: the next test plays one)
    const offered = ["Street Spades (no games yet)", "Hearts to 50 (no games yet)", "One Hand Spades (no games yet)"];
    assert.deepEqual(await page.locator("#preset optgroup").first().locator("option").allInnerTexts(), offered);
    assert.match(await page.locator("#preset-about").innerText(), /^Street Spades: Spades, /);
    await page.locator("details.more summary").click();
    assert.equal(await page.locator("#opt-joker_deck").inputValue(), "jjdd");
    assert.equal(await page.locator("#opt-target_score").inputValue(), "350");
    assert.deepEqual((await page.locator("#quick-play-preset optgroup").first().locator("option").allInnerTexts()), offered);
    await page.screenshot({ path: join(artifacts, `rule-sets-form-${size}.png`) });
    await page.getByRole("button", { name: "Create table and sit" }).click();
    await page.waitForURL(/#\/table\/t\d+/);
    await page.locator("h1", { hasText: "Street Spades" }).waitFor();
    const info = await page.evaluate(() => window.sparts.app.view.state.info);
    assert.deepEqual(info.rule_set, { name: "street-spades", label: "Street Spades" });
    assert.deepEqual(info.ruleset, { preset: "spades", options: { joker_deck: "jjdd", min_side_bid: 4, ten_for_two_hundred: true, target_score: 350 } });
    await page.screenshot({ path: join(artifacts, `rule-sets-table-${size}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// A game of the rule set (the example bot and server bots: unrated) and one of plain Spades
// to the end, found in the archive: the one under its rule set's name, the other under none.
let ruleSetTable;
let plainTable;
test("a game under a rule set is archived with the rule set's name", async () => {
  [ruleSetTable, plainTable] = (await Promise.all([
    playBotGame(server, "spades", { hand_cap: 1 }),
    playBotGame(server, "spades", { hand_cap: 1, target_score: 300 }),
  ])).map((r) => r.table);
  const games = async (qs) => JSON.parse((await rawGet(server.port, `/api/games${qs}`)).body).games;
  await until(async () => (await games("")).length === 2, "both games archived");
  const listed = await games("?rule_set=one-hand");
  assert.deepEqual(listed.map((g) => [g.table, g.rule_set]), [[ruleSetTable, "one-hand"]]);
  assert.equal((await games("")).find((g) => g.table === plainTable).rule_set, undefined);
});

for (const size of ["desktop", "phone"]) {
  test(`${size}: the rule set's count of games, its leaderboard, its finished games and a player's rating of it`, async () => {
    assert.ok(ruleSetTable, "the rule set's game was played");
    // (bypassCSP: the accessibility audit is a script put in the page)
    const { context, page, errors } = await newPerson(browser, `Sol ${size}`, size, { bypassCSP: true });
    // The count comes with the hello, read again by the server every 3 s: a fresh page until it says so.
    const option = page.locator('#preset option[value="set:one-hand"]');
    await until(async () => {
      await page.goto(server.url + "/");
      await page.locator("#status[data-state=open]").waitFor();
      await option.waitFor({ state: "attached" });
      return (await option.innerText()) === "One Hand Spades (1 game played)" || (await option.innerText());
    }, "the form's count of the rule set's games", 20000);
    assert.equal(await page.locator('#quick-play-preset option[value="set:one-hand"]').innerText(), "One Hand Spades (1 game played)");
    assert.equal(await page.locator('#preset option[value="set:street-spades"]').innerText(), "Street Spades (no games yet)");
    // Chosen, so that the picture shows the count in the closed lists.
    await page.selectOption("#quick-play-preset", "set:one-hand");
    await page.selectOption("#preset", "set:one-hand");
    await page.locator("#preset").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, `rule-sets-count-${size}.png`) });

    // The finished games: both, each called by its rule set or its preset; then the rule set's alone.
    const games = page.locator(".game-list li");
    const ruleSetGame = games.filter({ hasText: `Replay ${ruleSetTable} game 1` });
    await until(async () => (await games.count()) === 2, "both finished games listed");
    assert.match(await ruleSetGame.innerText(), /— One Hand Spades, /);
    assert.match(await games.filter({ hasText: `Replay ${plainTable} game 1` }).innerText(), /— Spades, /);
    await page.selectOption("#games-rule-set", "one-hand");
    await until(async () => (await games.count()) === 1, "only the rule set's game listed");
    assert.equal(await games.first().getAttribute("data-rule-set"), "one-hand");
    assert.match(await games.first().innerText(), new RegExp(`^Replay ${ruleSetTable} game 1 — One Hand Spades, .*JsBot`));
    await page.selectOption("#games-rule-set", "hearts-50");
    await page.locator(".games", { hasText: "No finished games of Hearts to 50 yet." }).waitFor();
    await page.selectOption("#games-rule-set", "one-hand");
    await until(async () => (await games.count()) === 1, "the rule set's game listed again");
    await page.locator("#games-rule-set").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(artifacts, `rule-sets-finished-${size}.png`) });
    await audit(page, `${size} lobby with the rule sets' counts and filter`);

    // Its leaderboard, from the lobby's links (the rule sets' first): empty, since bots played.
    const boards = page.locator("section[aria-labelledby=leaderboards] a");
    assert.deepEqual((await boards.allInnerTexts()).slice(0, 4), ["Street Spades", "Hearts to 50", "One Hand Spades", "Spades"]);
    await boards.filter({ hasText: /^One Hand Spades$/ }).click();
    await page.waitForURL(/#\/leaderboard\/rule-set\/one-hand$/);
    // The address changes before the page is drawn again (CI saw "Lobby" here): the title, once drawn.
    await page.locator("h1", { hasText: /^One Hand Spades leaderboard$/ }).waitFor();
    await page.locator(".leaderboard .muted", { hasText: "No rated games yet." }).waitFor();
    assert.equal(await page.locator('nav[aria-label=Leaderboards] [aria-current="page"]').innerText(), "One Hand Spades");
    assert.match(await page.locator(".leaderboard .hint").innerText(), /One Hand Spades games alone; they count in the Spades leaderboard too\./);
    await page.screenshot({ path: join(artifacts, `rule-sets-leaderboard-${size}.png`) });
    await audit(page, `${size} rule set's leaderboard`);
    // A preset's board from there, and back: the title follows.
    await page.locator("nav[aria-label=Leaderboards] a", { hasText: /^Hearts$/ }).click();
    await page.locator("h1", { hasText: /^Hearts leaderboard$/ }).waitFor();
    await page.goBack();
    await page.locator("h1", { hasText: /^One Hand Spades leaderboard$/ }).waitFor();

    // A player's page with a rating of the rule set (no rated game was played here: the server's
    // answer is stood in for, in /api/players/{id}'s shape): a section for it, titled with its label.
    const figures = (games) => ({ rating: 1612.4, deviation: 180.2, volatility: 0.06, games, wins: games,
      statistics: { hands: games, bids: games, bids_made: games, nil_bids: 0, nils_made: 0, nils_set: 0, bags: 1, bags_per_hand: 1 / games, moons: 0 },
      last_game: { table: ruleSetTable, game: 1, change: 112.4, finished: Date.now() } });
    await page.route("**/api/players/p-rated", (route) => route.fulfill({ json: { player: "p-rated", name: "Rated Ann",
      ratings: [{ preset: "spades", ...figures(3) }], rule_sets: [{ rule_set: "one-hand", ...figures(2) }] } }));
    await page.goto(server.url + "/#/player/p-rated");
    const section = page.locator("section[data-rule-set=one-hand]");
    await section.waitFor();
    assert.equal(await section.locator("h2").innerText(), "One Hand Spades");
    assert.equal(await section.locator("h2 a").getAttribute("href"), "#/leaderboard/rule-set/one-hand");
    assert.match(await section.innerText(), /Games\s+2 \(2 won\)/);
    assert.match(await page.locator("section[data-preset=spades]").innerText(), /Games\s+3 \(3 won\)/);
    await page.screenshot({ path: join(artifacts, `rule-sets-player-${size}.png`), fullPage: true });
    await section.locator("h2 a").click();
    await page.locator("h1", { hasText: /^One Hand Spades leaderboard$/ }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
}
