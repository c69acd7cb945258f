// End-to-end: the real sparts-server (started here, on a free port, with a
// database in a temporary folder) serves the web client, and Debian's Chromium
// plays it. A person creates a table with three bots and plays a whole hand by
// clicking and with the keyboard; the page is reloaded mid-trick and the
// connection dropped, and the game resumes; a second browser context (phone-sized)
// watches as a spectator and never sees a card before its holder plays it; the
// game goes to the archive and is replayed with every hand face up.
// Screenshots are written to $SPARTS_WEB_ARTIFACTS (default build/web-artifacts).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, rawGet, artifactsDir, cardsIn, until } from "./support.mjs";

let server;
let browser;

/** Reads frames in order; `leaks` lists each card a frame carries that no card_played had shown before. */
function leakChecker() {
  const played = new Set();
  const leaks = [];
  let count = 0;
  return {
    played,
    leaks,
    cardsPlayed: () => count,
    frame(payload) {
      for (const line of String(payload).split("\n")) {
        if (!line) continue;
        const msg = JSON.parse(line);
        if (msg.type === "event" && msg.event.type === "card_played") {
          played.add(msg.event.card);
          count++;
        }
        if (msg.type === "snapshot" && msg.view) {
          for (const c of msg.view.trick.cards) played.add(c.card);
          // The hand's finished tricks were public as they were played.
          for (const t of msg.view.past_tricks) for (const c of t.cards) played.add(c);
        }
        for (const c of cardsIn(msg)) if (!played.has(c)) leaks.push({ card: c, msg });
      }
    },
  };
}
const artifacts = artifactsDir();

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("the server serves the web client at / with content types, validators and no way out of web/", async () => {
  const index = await rawGet(server.port, "/");
  assert.equal(index.status, 200);
  assert.match(index.headers["content-type"], /^text\/html/);
  assert.equal(index.headers["cache-control"], "no-cache");
  // A login in the page's address (/?login=JWT) is not sent on as the Referer of the page's own requests.
  assert.equal(index.headers["referrer-policy"], "no-referrer");
  assert.match(index.body, /<script type="module" src="app\/app.js">/);
  const etag = index.headers.etag;
  assert.match(etag, /^"[0-9a-f]{16}"$/);
  assert.equal((await rawGet(server.port, "/", { "if-none-match": etag })).status, 304);
  assert.equal((await rawGet(server.port, "/index.html")).body, index.body);
  assert.match((await rawGet(server.port, "/app/app.js")).headers["content-type"], /^text\/javascript/);
  assert.match((await rawGet(server.port, "/app/style.css")).headers["content-type"], /^text\/css/);
  assert.match((await rawGet(server.port, "/lib/client.js")).headers["content-type"], /^text\/javascript/);
  assert.match((await rawGet(server.port, "/favicon.svg")).headers["content-type"], /^image\/svg\+xml/);
  assert.equal((await rawGet(server.port, "/app/app.js?v=2")).status, 200);
  for (const path of ["/../CMakeLists.txt", "/%2e%2e/CMakeLists.txt", "/app/../../server/app/main.cpp", "/app/..%2f..%2fREADME.md",
    "/web/index.html", "/tests/e2e.test.mjs", "/package.json", "/lib/README.md", "/lib/test/client.test.mjs", "//etc/passwd", "/app/"]) {
    const res = await rawGet(server.port, path);
    assert.equal(res.status, 404, path);
  }
  assert.equal((await rawGet(server.port, "/healthz")).body, "ok\n");
});

test("a person plays a whole hand against three bots; reload and a lost connection resume; a spectator sees no hidden card; the replay shows every hand", async () => {
  // ---- the player, on a desktop screen
  const player = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await player.newPage();
  const outside = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(server.url) && !r.url().startsWith(server.url.replace("http", "ws")) && !r.url().startsWith("data:")) outside.push(r.url());
  });
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));

  await page.goto(server.url + "/");
  // Nothing was tried yet: the header says nothing of a connection until there is one to speak of.
  await page.getByLabel("Your name").waitFor();
  assert.equal(await page.locator("#status").isVisible(), false, "a connection status before any connection was tried");
  await page.getByLabel("Your name").fill("Ada");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("heading", { name: "New table" }).waitFor();
  await page.locator("#status[data-state=open]").waitFor();
  await page.screenshot({ path: join(artifacts, "lobby.png"), fullPage: true });

  // every preset is offered, each option with a word or two
  const presets = await page.locator("#preset option").evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(presets.sort(), ["bga-sparts", "hearts", "spades", "sparts", "spartsel", "worldwinner-spades"]);
  await page.selectOption("#preset", "spartsel");
  // the options are behind "More options": the form fits a phone
  assert.ok(!(await page.locator("#opt-jokers").isVisible()));
  await page.locator("details.more summary").click();
  assert.ok(await page.locator("#opt-jokers").isVisible());
  assert.match(await page.locator("label[for=opt-jokers]").innerText(), /\(.+\)/);
  await page.selectOption("#preset", "spades");
  await page.locator("#opt-hand_cap").fill("1"); // one hand: the game ends and is archived
  await page.getByRole("button", { name: "Create table and sit" }).click();
  await page.waitForURL(/#\/table\/t\d+/);
  const table = page.url().match(/#\/table\/(t\d+)/)[1];
  await page.locator("#start").waitFor();
  assert.deepEqual((await page.locator(".seat h2").allInnerTexts()).sort(), ["Ada (you)", "Bot 2 · left", "Bot 3 · across", "Bot 4 · right"]);

  // ---- the spectator, on a phone-sized screen, records every frame it receives
  const watcher = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await watcher.addInitScript(() => localStorage.setItem("sparts.name", "Bea"));
  const spec = await watcher.newPage();
  // Every frame the spectator receives: any card in it must have been played already.
  const specFrames = leakChecker();
  spec.on("websocket", (ws) => ws.on("framereceived", ({ payload }) => specFrames.frame(payload)));
  const { played, leaks } = specFrames;
  // The same check on the player's own frames must find its hand (so the check can fail).
  const playerFrames = leakChecker();
  page.on("websocket", (ws) => ws.on("framereceived", ({ payload }) => playerFrames.frame(payload)));
  await spec.goto(`${server.url}/#/table/${table}?watch=1`);
  // On a phone the log is a drawer, opened from the line under the table that shows its last entry.
  await spec.locator(".log li", { hasText: "You are watching this table." }).waitFor({ state: "attached" });
  assert.equal(await spec.locator(".log li", { hasText: "You are watching" }).count(), 1);
  await spec.locator("#log-toggle").click();
  await spec.locator(".log li", { hasText: "You are watching this table." }).waitFor();
  await spec.locator("#log-panel .log-close").click();
  await spec.locator("#log-panel").waitFor({ state: "hidden" });

  // ---- start, then play the hand by clicking (and by keyboard every other trick)
  await page.locator("#start").click();
  const checkSpectator = async () => {
    const domCards = await spec.locator("[data-card]").evaluateAll((els) => els.map((e) => e.dataset.card));
    // The page may draw a frame a moment before this process hears of it: give the frames 3 s.
    await until(async () => domCards.every((c) => played.has(c)), "the frames of the cards on the spectator's page", 3000)
      .catch(() => {});
    for (const c of domCards) assert.ok(played.has(c), `the spectator's page shows ${c} before it was played`);
    const held = await page.locator(".hand [data-card]").evaluateAll((els) => els.map((e) => [e.dataset.card, e.getAttribute("aria-label")]));
    const specText = await spec.locator("body").innerHTML();
    for (const [card, name] of held) {
      assert.ok(!domCards.includes(card), `spectator sees held card ${card}`);
      assert.ok(!specText.includes(`aria-label="${name}"`), `spectator's page names held card ${name}`);
    }
  };

  let bids = 0;
  let plays = 0;
  let reloaded = false;
  let dropped = false;
  let midTrickShot = false;
  const deadline = Date.now() + 90000;
  while (Date.now() < deadline) {
    // wait for something to do: a bid, a playable card, or the end of the hand
    const what = await Promise.race([
      page.locator(".bids button").first().waitFor({ timeout: 20000 }).then(() => "bid"),
      page.locator(".hand button.card.playable").first().waitFor({ timeout: 20000 }).then(() => "play"),
      page.locator(".scored").waitFor({ timeout: 20000 }).then(() => "scored"),
    ]);
    if (what === "scored") break;
    if (what === "bid") {
      const buttons = page.locator(".bids button");
      const labels = await buttons.evaluateAll((bs) => bs.map((b) => b.textContent));
      assert.ok(labels.includes("Nil"), `nil is offered by name: ${labels}`);
      const three = page.locator('.bids button[data-bid="3"]');
      await three.focus();
      await page.keyboard.press("Space");
      bids++;
      await three.waitFor({ state: "detached" });
      continue;
    }
    // a card to play: the legal ones are buttons, the others are disabled
    const hand = page.locator(".hand button.card");
    const total = await hand.count();
    const legal = page.locator(".hand button.card.playable");
    const legalCount = await legal.count();
    assert.equal(await page.locator(".hand button.card:disabled").count(), total - legalCount);
    const trickOnTable = await page.locator(".center:not(.done) .played").count();

    if (!midTrickShot && trickOnTable >= 2 && plays >= 2) {
      midTrickShot = true;
      await page.screenshot({ path: join(artifacts, "table-mid-trick.png"), fullPage: true });
      await spec.screenshot({ path: join(artifacts, "spectator-phone.png"), fullPage: true });
    }
    if (!reloaded && trickOnTable >= 1 && plays >= 3) {
      // reload mid-trick: the same seat, the same hand, the same trick on the table
      reloaded = true;
      const before = await page.locator(".hand [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card));
      const trickBefore = await page.locator(".center .played [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card));
      const tricksBefore = await page.locator(".seat .tricks strong").allInnerTexts();
      const logBefore = await page.locator(".log li").allInnerTexts();
      await page.reload();
      await page.locator(".hand button.card.playable").first().waitFor();
      const after = await page.locator(".hand [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card));
      assert.deepEqual(after, before, "the hand after a reload");
      assert.deepEqual(await page.locator(".center .played [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card)), trickBefore);
      assert.deepEqual(await page.locator(".seat .tricks strong").allInnerTexts(), tricksBefore);
      assert.deepEqual((await page.locator(".log li").allInnerTexts()).slice(0, logBefore.length), logBefore, "the log is kept");
      continue;
    }
    if (!dropped && reloaded && plays >= 6) {
      // the network goes: the client reconnects by itself and catches up from its seq
      dropped = true;
      const before = await page.locator(".hand [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card));
      await page.evaluate(() => window.sparts.client.dropConnection());
      await page.locator("#status[data-state=reconnecting]").waitFor();
      await page.locator("#status[data-state=open]").waitFor({ timeout: 15000 });
      await page.locator(".hand button.card.playable").first().waitFor();
      assert.deepEqual(await page.locator(".hand [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card)), before);
      continue;
    }
    const card = legal.first();
    const name = await card.getAttribute("aria-label");
    assert.match(name, /^(Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) of (clubs|diamonds|hearts|spades)$/);
    const code = await card.getAttribute("data-card");
    if (plays % 2 === 0) {
      await card.focus();
      await page.keyboard.press("Enter");
    } else {
      await card.click();
    }
    plays++;
    await page.locator(`.hand [data-card="${code}"]`).waitFor({ state: "detached" });
    if (plays % 3 === 0) await checkSpectator();
  }
  assert.equal(bids, 1, "one bid");
  assert.equal(plays, 13, "thirteen cards played");
  assert.ok(reloaded && dropped && midTrickShot);

  // ---- the hand's scores, as a table of components
  const scored = page.locator(".scored");
  await scored.waitFor();
  assert.match(await scored.innerText(), /Hand 1 scored/);
  const rows = await scored.locator("tbody th").allInnerTexts();
  for (const r of ["Bid", "Tricks", "Hand total", "Score", "Bags"]) assert.ok(rows.includes(r), `score row ${r}: ${rows}`);
  assert.ok(rows.some((r) => ["Contract", "Set", "Overtricks", "Nil"].includes(r)), `a score component: ${rows}`);
  const tricks = await page.locator(".seat .tricks strong").allInnerTexts();
  const taken = tricks.map((t) => Number(t.split(" / ")[0]));
  assert.equal(taken.reduce((a, b) => a + b, 0), 13, `tricks taken: ${tricks}`);
  // Spades is played in partnerships: one scoreboard a side (us first), no score repeated on the partners
  assert.deepEqual(await page.locator(".scoreboard tbody th").allInnerTexts(), ["Us", "Them"]);
  const sideTricks = await page.locator(".scoreboard tbody td:nth-of-type(2)").allInnerTexts();
  assert.equal(sideTricks.map(Number).reduce((a, b) => a + b, 0), 13, `the sides' tricks: ${sideTricks}`);
  assert.equal(await page.locator(".seat .score").count(), 0, "no seat repeats its side's score");
  await page.locator(".game-over").waitFor();
  await page.screenshot({ path: join(artifacts, "scored-hand.png"), fullPage: true });
  assert.match(await page.locator(".game-over").innerText(), /1st/);
  // The deal, checked in the browser against the commitment shown at the start (kept across the reload).
  await page.locator("#fair-deal", { hasText: /^Fair deal: verified/ }).waitFor();
  assert.ok(await page.getByRole("button", { name: "Play again" }).isEnabled());
  assert.ok((await page.locator(".log li").count()) > 10, "the log tells the hand in words");
  assert.ok(await page.locator(".log li", { hasText: /^Ada \(you\) plays the (two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of / }).count() >= 1);

  // ---- the spectator saw the whole hand, and never a card before it was played
  await spec.locator(".scored").waitFor();
  await checkSpectator();
  assert.ok(specFrames.cardsPlayed() >= 52, `the spectator saw ${specFrames.cardsPlayed()} cards played`);
  assert.ok(playerFrames.leaks.length >= 13, "the checker finds the player's own hand in the player's frames");
  assert.deepEqual(leaks.map((l) => `${l.card} in ${JSON.stringify(l.msg).slice(0, 200)}`), []);
  assert.equal(await spec.locator(".hand").count(), 0, "a spectator has no hand");
  assert.equal(await spec.locator("#guard").count(), 0, "nor a Confirm plays switch");
  const overflow = await spec.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `the phone-sized page scrolls sideways by ${overflow}px`);

  assert.equal(await page.getByRole("link", { name: "Watch the replay" }).getAttribute("href"), `#/replay/${table}/1`);

  // ---- play again: the bots agree, and game 2 is dealt at the same seats
  await page.getByRole("button", { name: "Play again" }).click();
  await page.locator(".log li", { hasText: "Game 2 begins." }).waitFor();
  await page.locator(".hand button.card").first().waitFor();
  assert.equal(await page.locator(".game-over").count(), 0);

  // ---- the replay of the archived game 1: every hand face up, step, jump, play
  await page.goto(`${server.url}/#/replay/${table}/1`);
  await page.locator("#replay-step").waitFor();
  // The start: every hand as dealt, and so through the deal's own events (they once emptied
  // the hands at hand_started, then filled them seat by seat: the picture went backwards).
  await until(async () => /^The start of the game/.test(await page.locator(".replay-now").innerText()), "the start, in words");
  assert.equal(await page.locator(".replay-seat .card").count(), 52);
  for (let step = 1; step <= 6; step++) {
    await page.locator("#replay-step").click();
    await until(async () => (await page.locator(".table-head .muted").innerText()).includes(`event ${step} of`), `step ${step}`);
    assert.equal(await page.locator(".replay-seat .card").count(), 52, `the hands after step ${step}`);
  }
  await page.selectOption("#replay-hand", "1");
  await page.locator("#replay-trick option[value='1']").waitFor({ state: "attached" });
  await page.selectOption("#replay-trick", "1");
  // (the deal shows 52 cards from the game's start on: the jump has landed when the header says so)
  await until(async () => /hand 1, trick 1$/.test(await page.locator(".table-head .muted").innerText()), "the jump to trick 1");
  await until(async () => (await page.locator(".replay-seat .card").count()) === 52, "52 cards in the hands");
  assert.equal(await page.locator(".replay-seat").count(), 4);
  await page.locator("#replay-step").click();
  await until(async () => (await page.locator(".replay-seat .card").count()) === 51, "51 cards in the hands");
  assert.equal(await page.locator(".center .played").count(), 1);
  await page.selectOption("#replay-trick", "5");
  await until(async () => (await page.locator(".replay-seat .card").count()) === 36, "36 cards in the hands");
  // A jump says where it landed (the box of the last event told was blank).
  assert.match(await page.locator(".replay-now").innerText(), /^Hand 1, trick 5: .+ to lead\.$/);
  await page.screenshot({ path: join(artifacts, "replay.png"), fullPage: true });
  await page.selectOption("#replay-speed", "16");
  const box = (sel) => page.locator(sel).evaluate((el) => { const r = el.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top)]; });
  const before = { speed: await box("#replay-speed"), play: await box("#replay-play") };
  await page.locator("#replay-play").click();
  // Pause where Play was, and the controls after it where they were (they moved at each press).
  await page.locator("#replay-pause").waitFor();
  assert.deepEqual({ speed: await box("#replay-speed"), play: await box("#replay-pause") }, before);
  await until(async () => (await page.locator(".replay-seat .card").count()) <= 20, "20 cards in the hands");
  await page.locator("#replay-pause").click();

  assert.deepEqual(outside, [], "no resource from outside the server");
  assert.deepEqual(pageErrors, []);
  await player.close();
  await watcher.close();
});
