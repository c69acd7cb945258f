// End-to-end, in Chromium against a real cluster (cluster-support.mjs): two
// sparts-server nodes on one PostgreSQL behind HAProxy. A person opens the web
// client through the proxy, creates a Spades table with bots (two hands), starts
// it, plays the first hand and two cards of the second; at her turn the node
// holding the table (its lease in PostgreSQL) is stopped with SIGTERM: it drains,
// hands the table over (`closing` "moved", close 4005), and the page follows at
// once (PROTOCOL.md §18): "reconnecting" and the toast for a moment only, the
// same seat, hand, trick and scores afterwards, the turn offered again by the
// other node and a card played there, the other node holding the table, and the
// game played to its end; no page reload. Screenshots: cluster-*.png.
//
// Skipped, saying why, without haproxy, psql or a PostgreSQL server
// ($SPARTS_TEST_POSTGRES names a running one, else tests/support/postgres.sh
// starts one in a temporary folder).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launchBrowser, artifactsDir, until, newPerson, createTable, nextPhase, playThrough } from "./support.mjs";
import { startCluster, clusterMissing } from "./cluster-support.mjs";

const missing = clusterMissing();
if (missing) console.error(`cluster.test.mjs: SKIPPED, no cluster can be started here: ${missing}`);

let cluster;
let browser;

before(async () => {
  if (missing) return;
  cluster = await startCluster({ nodes: 2, nodeFlags: ["--bot-delay-ms", "50"] });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await cluster?.stop();
});

/**
 * What the page shows of the table, once still (a trick just won stays a moment, then
 * goes to its winner): every seat (name, tricks and bid), the sides' scoreboard, the hand and the trick.
 */
async function tableShown(page) {
  await until(async () => page.evaluate(() => !window.sparts?.app?.view?.sweep), "the trick just won to go to its winner", 5000);
  return page.evaluate(() => ({
    seats: [...document.querySelectorAll(".seat")].map((s) => ({
      label: s.getAttribute("aria-label"),
      name: s.querySelector("h2")?.firstChild?.textContent ?? "",
      tricks: s.querySelector(".tricks")?.getAttribute("aria-label") ?? null,
      score: s.querySelector(".score")?.textContent ?? null,
    })),
    // a partnership's scores: one row a side
    sides: [...document.querySelectorAll(".scoreboard tbody tr")].map((r) => r.textContent),
    hand: [...document.querySelectorAll(".hand [data-card]")].map((c) => c.dataset.card),
    trick: [...document.querySelectorAll(".trick [data-card]")].map((c) => c.dataset.card),
  }));
}

/** What Ada holds, in order. */
function handOf(page) {
  return page.locator(".hand [data-card]").evaluateAll((els) => els.map((e) => e.dataset.card));
}

/**
 * Plays the first card Ada may play, and waits for her hand to change (the card gone;
 * or, her last card of a hand, the next hand dealt, which may hold the same card); returns it.
 */
async function playCard(page) {
  const held = JSON.stringify(await handOf(page));
  const card = await page.locator(".hand button.card.playable").first().getAttribute("data-card");
  await page.locator(`.hand button.card.playable[data-card="${card}"]`).click({ timeout: 3000 });
  await until(async () => JSON.stringify(await handOf(page)) !== held, `${card} to leave the hand`, 5000);
  return card;
}

/** Waits until it is Ada's turn to play, her seat says so, and the page is still. */
async function untilYourTurn(page) {
  await until(
    async () =>
      (await page.locator(".seat.you.on-turn").count()) === 1 &&
      (await page.locator(".hand button.card.playable").count()) > 0 &&
      (await page.evaluate(() => !window.sparts?.app?.view?.sweep)),
    "Ada's turn",
    20000,
  );
}

test(
  "a table whose node stops moves to the other node: the page follows at once, the game goes on and ends, no reload",
  { skip: missing ?? false, timeout: 120000 },
  async () => {
    const t0 = Date.now();
    const ada = await newPerson(browser, "Ada");
    const { page, errors } = ada;

    // Every WebSocket the page opens, and the frames each receives.
    const sockets = [];
    page.on("websocket", (ws) => {
      const s = { url: ws.url(), frames: [], closed: false };
      sockets.push(s);
      ws.on("framereceived", ({ payload }) => {
        for (const line of String(payload).split("\n")) {
          if (!line) continue;
          try {
            s.frames.push({ at: Date.now(), msg: JSON.parse(line) });
          } catch {
            // not JSON: the client would say so
          }
        }
      });
      ws.on("close", () => (s.closed = true));
    });
    let loads = 0;
    page.on("load", () => loads++);

    // ---- a Spades table of two hands, bots in the other seats (the lobby's default), through the proxy
    const table = await createTable(page, cluster.url, "spades", { hand_cap: 2 }, 0);
    assert.equal(loads, 1, "one page load");
    assert.deepEqual((await page.locator(".seat h2").allInnerTexts()).map((t) => t.replace(/ ·.*/, "")).sort(), ["Ada (you)", "Bot 2", "Bot 3", "Bot 4"]);
    const tableSocket = sockets.findLast((s) => !s.closed);
    assert.match(tableSocket.url, new RegExp(`/ws\\?table=${table}$`), "the table's connection is opened at /ws?table=ID");
    const firstNode = tableSocket.frames.find((f) => f.msg.type === "ok" && f.msg.re === "hello")?.msg.node;
    assert.match(firstNode ?? "", /^n[01]$/, "the cluster's hello names its node");

    // The page's header and toast, as they change (a reload would lose this list).
    await page.evaluate(() => {
      const status = document.getElementById("status");
      const toast = document.getElementById("toast");
      const seen = (window.__seen = []);
      const note = () =>
        seen.push({ at: Date.now(), state: status.dataset.state, status: status.textContent, toast: toast.hidden ? null : toast.textContent });
      note();
      new MutationObserver(note).observe(status, { attributes: true, childList: true, characterData: true, subtree: true });
      new MutationObserver(note).observe(toast, { attributes: true, childList: true, characterData: true, subtree: true });
    });

    // ---- start; play the first hand, then bid and play two cards of the second (scores on the board)
    await page.locator("#start").click();
    let bids = 0;
    let played = 0; // in the second hand
    while (bids < 2 || played < 2) {
      const what = await nextPhase(page);
      if (what === "next-hand") {
        // the first hand's scores, put away for the second
        await page.locator("#next-hand").click();
        continue;
      }
      assert.ok(what === "bidding" || what === "playing", `a bid or a card is asked for: ${what}`);
      if (what === "bidding") {
        bids++;
        await page.locator(".bids button").first().click();
        await page.locator(".bids").waitFor({ state: "detached" });
      } else {
        await playCard(page);
        if (bids === 2) played++;
      }
    }
    // ... then stop at Ada's next turn: nothing moves at the table until she plays
    await untilYourTurn(page);
    await page.screenshot({ path: join(artifactsDir(), "cluster-before-move.png") });
    const before = await tableShown(page);
    assert.equal(before.hand.length, 13 - played, `the hand holds ${13 - played} cards: ${before.hand}`);
    assert.equal(before.sides.length, 2, `one scoreboard row a side: ${JSON.stringify(before.sides)}`);
    const sideScores = await page.locator(".scoreboard tbody td:nth-of-type(3)").allInnerTexts();
    assert.ok(sideScores.some((x) => Number(x) !== 0), `the first hand is scored: ${JSON.stringify(before.sides)}`);
    assert.ok(before.seats.some((s) => s.label.endsWith("(you)") && s.name === "Ada (you)"), "Ada's seat is shown");

    // ---- the node holding the table stops (an upgrade)
    const holder = cluster.holder(table);
    assert.match(holder, /^n[01]$/, `a node holds ${table}: "${holder}"`);
    assert.equal(holder, firstNode, "the page's table connection is on the node holding the table");
    const stopped = Number(holder.slice(1));
    const other = `n${1 - stopped}`;
    const socketsBefore = sockets.length;
    const sigtermAt = Date.now();
    cluster.sigterm(stopped);

    // the old connection is told the table moved and closes; a new one, at /ws?table=ID, says hello to the other node
    await until(async () => tableSocket.closed, "the old table connection to close", 10000);
    const closing = tableSocket.frames.find((f) => f.msg.type === "closing");
    assert.deepEqual(closing?.msg, { type: "closing", reason: "moved", table }, "the old connection is told where the table went");
    await page.locator("#status[data-state=open]").waitFor({ timeout: 10000 });
    const fresh = sockets.slice(socketsBefore);
    assert.ok(fresh.length >= 1, "the page opened a new connection");
    for (const s of fresh) assert.match(s.url, new RegExp(`/ws\\?table=${table}$`), "reconnected to /ws?table=ID");
    const newSocket = fresh.at(-1);
    await until(async () => newSocket.frames.some((f) => f.msg.type === "ok" && f.msg.re === "hello"), "the hello on the new connection", 5000);
    assert.equal(newSocket.frames.find((f) => f.msg.re === "hello").msg.node, other, "the new connection reaches the other node");
    const exit = await Promise.race([cluster.nodes[stopped].exited, new Promise((r) => setTimeout(() => r("still running"), 15000).unref())]);
    assert.deepEqual(exit, { code: 0, signal: null }, `node ${holder} exits cleanly after SIGTERM`);
    await until(async () => cluster.holder(table) === other, `node ${other} to hold ${table} (leases)`, 5000);

    // ---- the same table: the seat, the hand, the trick and the scores as before, and the turn offered again
    await untilYourTurn(page);
    assert.ok(
      newSocket.frames.some((f) => f.msg.type === "your_turn" && f.msg.table === table && f.msg.legal.kind === "play"),
      "the other node offers Ada her turn again",
    );
    const afterMove = await tableShown(page);
    assert.deepEqual(afterMove, before, "the page shows the same table after the move");
    await page.screenshot({ path: join(artifactsDir(), "cluster-after-move.png") });

    // the header said "reconnecting" for a moment only, at once (no backoff countdown), and the toast why
    const seen = await page.evaluate(() => window.__seen);
    const during = seen.filter((s) => s.at >= sigtermAt);
    const down = during.find((s) => s.state !== "open");
    assert.ok(down, `the header showed the reconnection: ${JSON.stringify(during)}`);
    const up = during.find((s) => s.at >= down.at && s.state === "open");
    assert.ok(up, "the header says connected again");
    assert.ok(up.at - down.at < 2000, `reconnecting for ${up.at - down.at} ms (under 2 s): ${JSON.stringify(during)}`);
    for (const s of during) assert.doesNotMatch(s.status, /retrying in [1-9]/, `no backoff wait after a move: ${JSON.stringify(during)}`);
    const toastWords = "The table moved to another server; reconnecting.";
    assert.ok(during.some((s) => s.toast === toastWords), `the toast said "${toastWords}": ${JSON.stringify(during)}`);
    // ... and the toast goes once the page is connected again: it says "reconnecting", and lies over the hand
    const toastGone = async () => (await page.evaluate(() => window.__seen)).find((s) => s.at >= up.at && s.toast !== toastWords);
    await until(async () => Boolean(await toastGone()), "the toast to go", 8000);
    const toastStayed = (await toastGone()).at - up.at;
    assert.ok(toastStayed < 1000, `the toast "${toastWords}" stayed ${toastStayed} ms after the page was connected again (over the hand)`);
    console.log(`the move: SIGTERM to ${holder}, closing after ${closing.at - sigtermAt} ms, reconnecting shown ${up.at - down.at} ms, the toast ${toastStayed} ms after, ${fresh.length} new connection(s)`);

    // a card can be played on the other node (a real click: nothing may lie over the hand)
    const card = await playCard(page);
    assert.ok(
      newSocket.frames.some((f) => f.msg.type === "event" && f.msg.event.type === "card_played" && f.msg.event.card === card),
      `the other node reports ${card} played`,
    );

    // ---- the game goes on to its end (both hands), on the other node, in the same page
    await playThrough(page);
    await page.locator(".game-over").waitFor();
    await page.screenshot({ path: join(artifactsDir(), "cluster-game-over.png") });
    assert.equal(cluster.holder(table) || other, other, "the other node held the table to the end");
    assert.ok(newSocket.frames.some((f) => f.msg.type === "event" && f.msg.event.type === "game_over"), "the other node ends the game");
    assert.ok(await page.evaluate(() => Array.isArray(window.__seen)), "the page was never reloaded");
    assert.equal(loads, 1, "one page load");
    assert.equal(sockets.length, socketsBefore + fresh.length, "no more connections after the move");
    assert.deepEqual(errors, []);
    await ada.context.close();
    console.log(`cluster test: ${Date.now() - t0} ms`);
  },
);
