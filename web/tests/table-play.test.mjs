// End-to-end, in Chromium against the real server: what the table tells and
// does around the cards. Hearts taken per seat (kept across a reload) and the
// score sheet of every hand; sounds and their mute switch, kept across visits;
// cards that move, unless the person asked for reduced motion; one tap for the
// only legal card, and the misclick guard; the timer's warning and the notice
// when the server plays for a seat; the lobby showing your running game first.
// Screenshots at 1280×800 and 390×844 go to the artifacts.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, until, newPerson, createTable, playStep, nextPhase, act, headerButton } from "./support.mjs";

let server;
let browser;
const artifacts = artifactsDir();

before(async () => {
  // Some 20 tables and 20 new players from one address: over the default limits of one address.
  server = await startServer(["--bot-delay-ms", "10", "--tables-per-address", "1000", "--players-per-address-per-minute", "1000",
    "--tables-per-player", "100"]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Plays on to the seat's turn with more than one legal card (a single one has its own button). */
function toTurnWithChoice(page) {
  return until(async () => {
    const what = await nextPhase(page);
    if (what === "playing" && (await page.locator(".hand button.card.playable").count()) > 1) return true;
    await act(page, what);
    return false;
  }, "a turn with a choice of cards", 60000);
}

const pointsTexts = (page) => page.locator(".seat .points").allInnerTexts();

/** Plays the last card the hand may play (after a lead, often the highest of its suit). */
async function playLast(page) {
  try {
    const only = page.locator("#play-only");
    if (await only.count()) await only.click({ timeout: 2000 });
    else await page.locator(".hand button.card.playable").last().click({ timeout: 2000 });
  } catch (err) {
    if (!/Timeout|detached|not attached/.test(String(err))) throw err;
  }
}

/** One step of the seat's play, but for the Next hand that would put the last hand's scores away. */
async function playUntilScores(page) {
  const what = await nextPhase(page);
  if (what !== "next-hand") await act(page, what);
  return what;
}

for (const size of ["desktop", "phone"]) {
  test(`${size}: a Sparts hand shows the hearts and the queen each seat took, after a reload too; the score sheet has every hand`, async () => {
    const ada = await newPerson(browser, "Ada", size);
    const { page } = ada;
    await createTable(page, server.url, "sparts", { hands: 2 });
    await page.locator("#start").click();
    // play until some seat has taken a heart
    await until(async () => {
      if ((await pointsTexts(page)).some((t) => /\u2665 [1-9]/.test(t))) return true;
      await playStep(page);
      return false;
    }, "a heart taken", 60000);
    // whether hearts are broken: in the middle of the table, or on a phone under the header
    await page.locator(".center-line:visible, .trick-line:visible").filter({ hasText: "\u2665" }).first().waitFor();
    await page.screenshot({ path: join(artifacts, `play-hearts-taken-${size}.png`) });
    // the same after a reload (from the server's view this time)
    const shown = await pointsTexts(page);
    await page.reload();
    await page.locator(".seat .points").first().waitFor();
    const again = await pointsTexts(page);
    const total = (texts) => texts.reduce((n, t) => n + Number(t.match(/\u2665 (\d+)/)[1]), 0);
    assert.ok(total(again) >= total(shown), `hearts taken after the reload: ${again} (before: ${shown})`);
    assert.ok(total(again) > 0);
    // Played on to the seat's own lead after a trick, if this hand comes to one: the table waits
    // then and no event comes, so what the page shows after a reload is the snapshot's.
    let leading = false;
    for (let i = 0; i < 40 && !leading; ++i) {
      const what = await nextPhase(page);
      if (what !== "playing") break;
      // null: the page's table is not drawn from its model yet (a moment after a reload)
      // (The cards may still be drawn playable a moment after the seat played: its lead is its
      // turn, with a trick won before and none on the table.)
      const lead = await page.evaluate(() => {
        const s = window.sparts.app.view?.state;
        const v = s?.view;
        if (!v) return null;
        return Boolean(s.yourTurn) && v.turn === s.you && v.trick.cards.length === 0 && v.trick_number > 1 && s.lastTrick !== null;
      });
      if (lead === null) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      leading = lead;
      // The last card that may be played, often the highest of the suit led: to win a trick and lead.
      // Its card leaves the hand before the next look: a look between the click and its card_played
      // read the lead just used as the seat's turn still (and the reload then showed a trick later).
      if (!leading) {
        const cards = await page.locator(".hand .card").count();
        await playLast(page);
        await until(async () => (await page.locator(".hand .card").count()) < cards, "the card played", 5000).catch(() => {});
      }
    }
    if (leading) {
      const lastBefore = await page.evaluate(() => window.sparts.app.view.state.lastTrick);
      await page.reload();
      // The last trick, from the snapshot's past_tricks, as the page had it before the reload.
      await page.locator(".hand button.card.playable").first().waitFor();
      const { last, past } = await page.evaluate(() => {
        const s = window.sparts.app.view.state;
        return { last: s.lastTrick, past: s.view.past_tricks };
      });
      assert.deepEqual(last, lastBefore, "the last trick after the reload");
      assert.equal(last.trick, past.length);
      await (await headerButton(page, "[data-focus-key=last-trick]")).click();
      await page.locator(".trick-caption:visible, .trick-line:visible").filter({ hasText: `won trick ${last.trick}` }).first().waitFor();
      await page.screenshot({ path: join(artifacts, `play-last-trick-after-reload-${size}.png`) });
      // On a phone the log is one line under the table: what happened last, not the page's reload.
      if (size === "phone") {
        const line = await page.locator("#log-toggle").innerText();
        assert.doesNotMatch(line, /You are in seat/);
        assert.match(line, new RegExp(`wins trick ${last.trick}\\.$`), "the trick won, the last thing that happened");
      }
      await (await headerButton(page, "[data-focus-key=last-trick]")).click();
    }
    // to the end of hand 1 (a step that would put its scores away is not taken): the score
    // sheet has it; to the end of the game: both hands
    await until(async () => (await page.locator(".scored").count()) > 0 || ((await playUntilScores(page)) && false), "hand 1 scored", 90000);
    await (await headerButton(page, "#sheet")).click();
    const sheet = page.getByRole("dialog", { name: /Score sheet/ });
    await sheet.waitFor();
    assert.match(await sheet.innerText(), /1 \(Sparts\)/);
    await page.screenshot({ path: join(artifacts, `play-score-sheet-${size}.png`) });
    await sheet.getByRole("button", { name: "Close" }).click();
    // The next hand is dealt at once (bots pass and bid without waiting): the scores stay up
    // with a step to it, and what the seat must act on is not drawn over them, nor under.
    await page.locator("#next-hand").waitFor();
    assert.match(await page.locator("#next-hand").innerText(), /^Next hand/);
    assert.equal(await page.locator(".action").count(), 0, "no action while the scores are up");
    await page.screenshot({ path: join(artifacts, `play-next-hand-${size}.png`) });
    await page.locator("#next-hand").click();
    await page.locator(".scored").waitFor({ state: "detached" });
    await page.locator(".action").first().waitFor();
    await until(async () => (await page.locator(".game-over").count()) > 0 || ((await playStep(page)) && false), "game over", 90000);
    await (await headerButton(page, "#sheet")).click();
    const rows = await page.getByRole("dialog", { name: /Score sheet/ }).locator("tbody tr").count();
    assert.equal(rows, 2);
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  });
}

test("sounds for your turn, a card played and a trick won; the mute switch is kept across visits", async () => {
  const ada = await newPerson(browser, "Ada");
  const { page } = ada;
  await createTable(page, server.url, "spades", { hand_cap: 1 });
  await page.locator("#start").click();
  await until(async () => {
    const played = await page.evaluate(() => window.sparts.app.sound.played);
    if (["turn", "card", "trick"].every((k) => played.includes(k))) return true;
    await playStep(page);
    return false;
  }, "the three sounds", 60000);
  assert.equal(await page.locator("#sound").innerText(), "Sound on");
  assert.equal(await page.locator("#sound").getAttribute("aria-pressed"), null, "its words say the state, once");
  await page.locator("#sound").click();
  assert.equal(await page.locator("#sound").innerText(), "Sound off");
  await page.reload();
  await page.locator("#sound").waitFor();
  assert.equal(await page.locator("#sound").innerText(), "Sound off", "muted after a reload");
  await playStep(page);
  await playStep(page);
  assert.deepEqual(await page.evaluate(() => window.sparts.app.sound.played), [], "nothing played while muted");
  await page.locator("#sound").click();
  assert.equal(await page.evaluate(() => localStorage.getItem("sparts.sound")), "on");
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("cards move to the trick and to the winner, and not when the person asks for reduced motion", async () => {
  for (const reducedMotion of ["no-preference", "reduce"]) {
    const ada = await newPerson(browser, "Ada", "desktop", { reducedMotion });
    const { page } = ada;
    await createTable(page, server.url, "spades", { hand_cap: 1 });
    await page.locator("#start").click();
    for (let i = 0; i < 6; i++) await playStep(page);
    const count = await page.evaluate(() => window.__animations);
    if (reducedMotion === "reduce") assert.equal(count, 0, "no animation under reduced motion");
    else assert.ok(count > 4, `cards moved: ${count} animations`);
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  }
});

test("the misclick guard raises a card on the first tap and plays it on the second; the only legal card plays with one tap", async () => {
  for (const size of ["desktop", "phone"]) {
    const ada = await newPerson(browser, "Ada", size);
    const { page } = ada;
    await createTable(page, server.url, "spades", { hand_cap: 1 });
    await page.locator("#start").click();
    await (await headerButton(page, "#guard")).click();
    assert.equal(await page.locator("#guard").getAttribute("aria-pressed"), "true");
    // (a card of the hand tapped now would only rise: the test taps it itself)
    await toTurnWithChoice(page);
    const count = await page.locator(".hand .card").count();
    const first = page.locator(".hand button.card.playable").first();
    const card = await first.getAttribute("data-card");
    await first.click();
    // the first tap only raised it
    const raised = page.locator(".hand button.card.raised");
    await raised.waitFor({ timeout: 5000 });
    assert.equal(await raised.getAttribute("data-card"), card);
    assert.equal(await page.locator(".hand .card").count(), count);
    await page.screenshot({ path: join(artifacts, `play-guard-raised-${size}.png`) });
    await raised.click();
    await until(async () => (await page.locator(`.hand [data-card="${card}"]`).count()) === 0, "the raised card played on the second tap");
    assert.equal(await page.locator(".hand .card").count(), count - 1);
    await (await headerButton(page, "#guard")).click();
    // the last trick: one legal card, one tap on "Play the …"
    // (With one card left the loop only waits for the turn: a playStep then would play it itself.)
    await until(async () => {
      if ((await page.locator(".game-over").count())) throw new Error("the game ended before the last card");
      const cards = await page.locator(".hand .card").count();
      if (cards === 1) {
        await page.locator("#play-only").waitFor({ timeout: 30000 });
        return true;
      }
      if ((await playStep(page)) === "playing") {
        // the card leaves the hand before the next look at it
        await until(async () => (await page.locator(".hand .card").count()) < cards, "the card played", 10000).catch(() => {});
      }
      return false;
    }, "the last card", 60000);
    await page.screenshot({ path: join(artifacts, `play-only-card-${size}.png`) });
    await page.locator("#play-only").click();
    await page.locator(".game-over").waitFor({ timeout: 30000 });
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  }
});

test("the last trick can be looked at through the next one, while choosing a card; playing ends the look", async () => {
  for (const size of ["desktop", "phone"]) {
    const ada = await newPerson(browser, "Ada", size);
    const { page } = ada;
    await createTable(page, server.url, "spades", { hand_cap: 1 });
    await page.locator("#start").click();
    // to the seat's turn in a trick already led, a trick won before
    await until(async () => {
      const what = await nextPhase(page);
      if (what === "game-over") throw new Error("the game ended first");
      if (what === "playing" && await page.evaluate(() => {
        const s = window.sparts.app.view.state;
        return Boolean(s.yourTurn) && s.view.trick.cards.length > 0 && s.view.trick_number > 1;
      })) return true;
      await act(page, what);
      return false;
    }, "a turn in a trick led, after one won", 60000);
    const { last, trick } = await page.evaluate(() => {
      const s = window.sparts.app.view.state;
      return { last: s.lastTrick, trick: s.view.trick_number };
    });
    assert.equal(last?.trick, trick - 1, "the last trick is kept while the next is played");
    await (await headerButton(page, "[data-focus-key=last-trick]")).click();
    await page.locator(".trick-caption:visible, .trick-line:visible").filter({ hasText: `won trick ${last.trick}` }).first().waitFor();
    const shown = await page.locator(".center .card").evaluateAll((els) => els.map((el) => el.dataset.card));
    assert.deepEqual(shown.sort(), last.cards.map((c) => c.card).sort());
    await page.screenshot({ path: join(artifacts, `play-last-trick-mid-trick-${size}.png`) });
    // The hand is still there to play from; a card played (the seat's or the next) ends the look.
    const count = await page.locator(".hand .card").count();
    await act(page, "playing");
    await until(async () => (await page.locator(".hand .card").count()) < count, "the card played", 10000);
    await until(async () => !(await page.evaluate(() => window.sparts.app.view.showLastTrick)), "the look back ended");
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  }
});

test("a playable card rises under a pointer that hovers, not under a finger (a tapped card stayed risen)", async () => {
  const lifts = {};
  for (const size of ["desktop", "phone"]) {
    const ada = await newPerson(browser, "Ada", size);
    const { page } = ada;
    await createTable(page, server.url, "spades", { hand_cap: 1 });
    await page.locator("#start").click();
    await toTurnWithChoice(page);
    const card = page.locator(".hand button.card.playable").first();
    const rest = await card.evaluate((el) => el.getBoundingClientRect().top);
    await card.hover();
    await page.waitForTimeout(300);
    lifts[size] = Math.round(rest - (await card.evaluate((el) => el.getBoundingClientRect().top)));
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  }
  assert.ok(lifts.desktop > 0, `the card under the mouse rises: ${lifts.desktop} px`);
  assert.equal(lifts.phone, 0, "a phone's card does not rise under the finger");
});

test("the log keeps each line's number as the oldest lines make way, after a reload too (it numbered them anew from 1)", async () => {
  const ada = await newPerson(browser, "Ada", "desktop");
  const { page } = ada;
  await createTable(page, server.url, "spades", {}, null, "none");
  await page.locator("#start").waitFor();
  const before = await page.locator(".log li").count();
  // 320 lines more than the 300 kept (as a long game makes them)
  await page.evaluate(() => { for (let i = 1; i <= 320; i++) window.sparts.app.view.addLog(`Line ${i}.`, "test"); });
  const shown = () => page.evaluate(() => {
    const ol = document.querySelector(".log ol");
    return { start: ol.start, lines: ol.children.length, last: ol.lastElementChild.textContent };
  });
  const expected = { start: before + 320 - 300 + 1, lines: 300, last: "Line 320." };
  assert.deepEqual(await shown(), expected);
  await page.reload();
  await page.locator(".log li", { hasText: "Line 320." }).waitFor({ state: "attached" });
  // (the reload's "You are in seat 1." may have pushed one more out: "Line 320." keeps its number)
  const numberOf = await page.evaluate(() => {
    const ol = document.querySelector(".log ol");
    return ol.start + [...ol.children].findIndex((li) => li.textContent === "Line 320.");
  });
  assert.equal(numberOf, before + 320, "Line 320. numbered as before the reload");
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("a double click on a card plays it once: the second click is not sent (it was, and came back as 'It is not your turn')", async () => {
  const ada = await newPerson(browser, "Ada", "desktop");
  const { page } = ada;
  await createTable(page, server.url, "spades", { hand_cap: 1 });
  await page.locator("#start").click();
  const notices = [];
  let doubled = 0;
  await until(async () => {
    const what = await nextPhase(page);
    if (what === "game-over") throw new Error(`the game ended after ${doubled} double clicks`);
    if (what !== "playing" || (await page.locator(".hand button.card.playable").count()) < 2) {
      await act(page, what);
      return false;
    }
    const count = await page.locator(".hand .card").count();
    await page.locator(".hand button.card.playable").first().dblclick();
    await until(async () => (await page.locator(".hand .card").count()) < count, "the card played", 10000);
    await page.waitForTimeout(300); // a refusal of a second play would be back by now
    if (await page.locator("#toast").isVisible()) notices.push(await page.locator("#toast").innerText());
    return ++doubled === 3;
  }, "three turns with a choice of cards", 60000);
  assert.deepEqual(notices, [], "no notice after a double click");
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("the turn timer warns before it runs out; when it does, the table says the server played for the seat", async () => {
  const ada = await newPerson(browser, "Ada");
  const { page } = ada;
  await createTable(page, server.url, "spades", {}, 12);
  await page.locator("#start").click();
  // wait for our turn, and do nothing
  await Promise.race([page.locator(".bids button").first().waitFor(), page.locator(".hand button.card.playable").first().waitFor()]);
  const timer = page.locator(".me .timer");
  await timer.waitFor();
  assert.ok(!(await timer.getAttribute("class")).includes("warn"), "no warning with more than 10 s left");
  await until(async () => (await timer.getAttribute("class").catch(() => "")).includes("warn"), "the timer's warning", 15000);
  await page.screenshot({ path: join(artifacts, "play-timer-warning.png") });
  await page.getByRole("status").filter({ hasText: "Time ran out: the server plays for Ada (you)." }).waitFor({ timeout: 15000 });
  await page.screenshot({ path: join(artifacts, "play-server-played.png") });
  assert.ok(await page.evaluate(() => window.sparts.app.sound.played.includes("warn")), "a warning tone");
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("the lobby shows your running game first, with the way back to your seat", async () => {
  const ada = await newPerson(browser, "Ada", "phone");
  const { page } = ada;
  const table = await createTable(page, server.url, "spades");
  await page.locator("#start").click();
  await page.locator(".hand .card").first().waitFor();
  await page.locator("a.button", { hasText: "Lobby" }).click();
  const first = page.locator(".tables > :first-child");
  await first.waitFor();
  assert.match(await first.innerText(), new RegExp(`table ${table}`));
  await page.screenshot({ path: join(artifacts, "lobby-your-game-phone.png") });
  await first.getByRole("button", { name: "Back to your seat" }).click();
  await page.waitForURL(new RegExp(`#/table/${table}$`));
  await page.locator(".hand .card").first().waitFor();
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test("WorldWinner's game over explains the tournament standings, part by part", async () => {
  for (const size of ["desktop", "phone"]) {
    const ada = await newPerson(browser, "Ada", size);
    const { page } = ada;
    // a 6-second clock: the game ends by the clock, and the standings follow the game over
    await createTable(page, server.url, "worldwinner-spades", { game_clock: 6 });
    await page.locator("#start").click();
    const standings = page.locator(".standings");
    await standings.waitFor({ timeout: 30000 });
    const heads = await standings.locator("thead th").allInnerTexts();
    assert.deepEqual(heads, ["Players", "Base", "Overpoints", "Victory", "Time bonus", "Total"]);
    assert.equal(await standings.locator("tbody tr").count(), 2);
    assert.match(await standings.innerText(), /Base: the game score × 10/);
    await page.screenshot({ path: join(artifacts, `play-standings-${size}.png`) });
    assert.deepEqual(ada.errors, []);
    await ada.context.close();
  }
});
