// End-to-end, in Chromium against the real server: a hand of Hearts (the hearts
// preset, docs/RULES.md) from the New table form to the game's end, at 1280×800 and
// 390×844. The form offers Hearts and its options in words; the hand is passed
// and played with no bid asked and no bid line on any seat; each trick on the table
// marks the card the rules say is winning (the highest of the suit led: no trump);
// the hand's scores show points taken and say the lowest wins; the game-over panel
// ranks the lowest score first, as the server's ranks do. Screenshots go to the
// artifacts.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, newPerson, createTable, nextPhase, act, until, watchTricks, trickStates, optionsOverlapping } from "./support.mjs";
import { trickWinner } from "../lib/cards.js";

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

for (const size of ["desktop", "phone"]) {
  test(`${size}: a hand of Hearts: passed and played with no bids, points taken, the lowest score first`, async () => {
    const { context, page, errors } = await newPerson(browser, `Hal ${size}`, size);
    await page.goto(server.url + "/");
    await page.locator("#status[data-state=open]").waitFor();
    await page.selectOption("#preset", "hearts");
    await page.locator("details.more summary").click();
    assert.deepEqual(await page.locator("#opt-pass_rotation option").allInnerTexts(),
      ["left, right, across, hold", "left, then right", "always left", "always right", "always across", "no passing"]);
    assert.deepEqual(await page.locator("#opt-moon_scoring option").allInnerTexts(),
      ["26 to everyone else", "26 off the shooter", "whichever is better for the shooter", "the shooter chooses"]);
    assert.match(await page.locator("form.new-table").innerText(), /4 players: pass 3, then avoid hearts and the queen of spades; to 100, the lowest score wins\./);
    await page.screenshot({ path: join(artifacts, `hearts-form-${size}.png`) });
    assert.deepEqual(await optionsOverlapping(page), [], "each option within its column");

    await createTable(page, server.url, "hearts", { hand_cap: 1, jack_of_diamonds: "true" });
    await watchTricks(page);
    await page.locator("#start").click();

    let passed = false;
    let shot = false;
    const deadline = Date.now() + 180000;
    for (;;) {
      assert.ok(Date.now() < deadline, "the hand did not end in 3 minutes");
      const what = await nextPhase(page);
      assert.notEqual(what, "bidding", "Hearts asks for no bid");
      if (what === "game-over" || what === "next-hand") break;
      if (what === "passing") passed = true;
      if (what === "playing") {
        // No seat shows a bid: "3 tricks", never "3 / –".
        const seatLines = await page.locator(".seat .tricks").allInnerTexts();
        for (const line of seatLines) assert.match(line, /^\d+ tricks?$/, `a seat's line: ${line}`);
        if (!shot && (await page.locator(".trick figure.played").count()) >= 2) {
          await page.screenshot({ path: join(artifacts, `hearts-trick-${size}.png`) });
          shot = true;
        }
      }
      await act(page, what);
    }
    assert.ok(passed, "the first hand passes to the left");
    // Every state of a trick the table drew marks the card the rules say is winning.
    const states = await trickStates(page);
    for (const trick of states) {
      assert.equal(trick.findIndex((c) => c.winning), trickWinner(trick, "hearts"), `the card marked winning: ${JSON.stringify(trick)}`);
    }
    const looked = states.filter((t) => t.length >= 2).length;
    assert.ok(looked >= 13, `tricks of two cards or more looked at: ${looked}`);
    // One hand (hand_cap 1): the game is over; the ranks are the server's, the lowest first.
    await page.locator(".game-over").waitFor();
    const table = page.url().match(/#\/table\/(t\d+)/)[1];
    const over = await page.evaluate(() => window.sparts.app.view.state.gameOver);
    const rows = await page.locator(".game-over .ranks tbody tr").evaluateAll((trs) =>
      trs.map((tr) => ({ rank: tr.children[0].innerText, score: Number(tr.children[2].innerText) })));
    assert.equal(rows.length, 4);
    const scores = rows.map((r) => r.score);
    assert.deepEqual(scores, [...scores].sort((a, b) => a - b), `lowest first: ${JSON.stringify(rows)}`);
    assert.equal(rows[0].rank, "1st");
    assert.equal(Math.min(...over.scores), rows[0].score);
    assert.match(await page.locator(".game-over thead").innerText(), /Points \(lowest wins\)/);
    await page.screenshot({ path: join(artifacts, `hearts-game-over-${size}.png`) });
    // The hand's scores: points taken, no bid row, no bags.
    const scored = await page.evaluate(() => window.sparts.app.view.state.handScored);
    assert.equal(scored.kind, "hearts");
    const total = scored.sides.reduce((a, x) => a + x.hand_total, 0);
    const jack = scored.sides.reduce((a, x) => a + (x.score_sheet.jack_of_diamonds ?? 0), 0);
    assert.ok(total - jack === 26 || total - jack === 78, `26 points a hand (78 with a moon), and the jack's −10: ${total}`);
    // The lobby's finished game says who won, by rank.
    await page.goto(server.url + "/");
    const finished = page.locator(".game-list li", { hasText: `Replay ${table} game 1` });
    await finished.waitFor();
    const low = Math.min(...over.scores);
    assert.match(await finished.innerText(), new RegExp(`(won by|tied for first).*, ${low} to `));
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// moon_scoring "choose": the shooter's question. No deal can be chosen on the real server
// (its seeds are secret until the game ends), so the server's moon_shot and your_turn are
// given to the page's client as frames of its own connection, at the next seq; the answer
// goes to the real server as a moon action. The engine and table core tests play a real
// moon through the server's path (tests/server/table_core_test.cpp).
for (const size of ["desktop", "phone"]) {
  test(`${size}: the shooter chooses: the page asks how the moon scores and sends the answer`, async () => {
    const { context, page, errors } = await newPerson(browser, `Moe ${size}`, size);
    const sent = [];
    page.on("websocket", (ws) => ws.on("framesent", (f) => sent.push(f.payload)));
    await createTable(page, server.url, "hearts", { hand_cap: 1, moon_scoring: "choose" });
    await page.locator("#start").click();
    assert.equal(await nextPhase(page), "passing");
    // Once the bots have passed, the table waits for this seat's pass alone and nothing
    // else comes meanwhile. A bot's pass arriving after the frames below would take their
    // seq, be dropped as a duplicate, and the next one read as a gap, replaced by a snapshot.
    await until(() => page.evaluate(() => {
      const state = window.sparts.app.view.state;
      return state.view.passed_seats.length === state.view.seats - 1 && !state.view.passed_seats.includes(state.you);
    }), "the bots' passes");
    await page.evaluate(() => {
      const client = window.sparts.client;
      const model = window.sparts.app.view.state;
      const table = window.sparts.app.view.table;
      const seq = model.seq + 1;
      const frame = (m) => client._onFrame(client._ws, JSON.stringify(m));
      frame({ type: "event", table, seq, event: { type: "moon_shot", seat: model.you, side: model.you, points: 26 } });
      frame({ type: "your_turn", table, seq, legal: { kind: "moon", choices: ["add", "subtract"] }, ms_left: null });
    });
    const group = page.getByRole("group", { name: "How your moon scores" });
    await group.waitFor();
    assert.equal(await group.locator("p").innerText(), "You shot the moon: every heart and the queen of spades. Choose how it scores:");
    assert.match(await page.locator("header.table-head p.muted").innerText(), / · game 1, hand 1 \(Hearts\) · The shooter chooses/);
    assert.deepEqual(await group.getByRole("button").allInnerTexts(), ["Add 26 to each opponent", "Take 26 off my score"]);
    assert.match(await page.locator(".log").innerText(), /Moe \w+ \(you\) shot the moon and chooses: 26 to each opponent, or 26 off their own score\./);
    await page.screenshot({ path: join(artifacts, `hearts-moon-choice-${size}.png`) });
    await group.getByRole("button", { name: "Take 26 off my score" }).click();
    // The answer as the protocol has it; the real server, still passing, refuses it in words.
    await page.locator("#toast", { hasText: /^Moon: / }).waitFor();
    const acts = sent.map((p) => JSON.parse(p)).filter((m) => m.type === "act" && m.action.type === "moon");
    assert.deepEqual(acts.map((m) => m.action), [{ type: "moon", score: "subtract" }]);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

// A tie for the lowest score when someone has reached the target plays another hand (docs/RULES.md,
// the Hearts game end). No deal can be chosen on the real server, so the hand's end is given to the
// page's client as frames of its own connection, as the shooter's question above is.
test("a tie for the lowest score at the target: the hand's scores say why another hand is played", async () => {
  const { context, page, errors } = await newPerson(browser, "Tia", "desktop");
  await createTable(page, server.url, "hearts", {});
  await page.locator("#start").click();
  assert.equal(await nextPhase(page), "passing");
  await until(() => page.evaluate(() => {
    const state = window.sparts.app.view.state;
    return state.view.passed_seats.length === state.view.seats - 1 && !state.view.passed_seats.includes(state.you);
  }), "the bots' passes");
  await page.evaluate(() => {
    const client = window.sparts.client;
    const model = window.sparts.app.view.state;
    const table = window.sparts.app.view.table;
    const frame = (m) => client._onFrame(client._ws, JSON.stringify(m));
    const seq = model.seq; // (the first frame moves it on)
    const side = (seat, points, score) => ({ seats: [seat], bid: null, tricks: 3, score_sheet: { hearts: points }, hand_total: points, score, bags: 0 });
    frame({ type: "event", table, seq: seq + 1, event: { type: "hand_scored", hand: 1, kind: "hearts",
      sides: [side(0, 13, 105), side(1, 0, 85), side(2, 0, 85), side(3, 13, 90)] } });
    frame({ type: "event", table, seq: seq + 2, event: { type: "hand_started", hand: 2, dealer: 1, kind: "hearts", hand_size: 13, center_size: 0 } });
  });
  const why = page.locator("#tied-at-target");
  await why.waitFor();
  assert.equal(await why.innerText(), "Tia (you) reached 100, but the lowest score, 85, is shared by Bot 2 and Bot 3: another hand is played.");
  await page.screenshot({ path: join(artifacts, "hearts-tied-at-target-desktop.png") });
  assert.deepEqual(errors, []);
  await context.close();
});
