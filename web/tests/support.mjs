// Helpers of the browser tests: start the real sparts-server on a free port with
// a database in a temporary folder, and Debian's Chromium through playwright-core.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, readdirSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { request } from "node:http";
import { createRequire } from "node:module";
import assert from "node:assert/strict";

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, "../..");

/** The sparts-server binary: $SPARTS_SERVER (CTest passes it), else the newest build*\/server/sparts-server. */
export function serverBinary() {
  if (process.env.SPARTS_SERVER) return process.env.SPARTS_SERVER;
  const found = readdirSync(repo)
    .filter((d) => d.startsWith("build"))
    .map((d) => join(repo, d, "server/sparts-server"))
    .filter((p) => existsSync(p))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!found.length) throw new Error("no sparts-server: build it, or set SPARTS_SERVER");
  return found[0];
}

export function artifactsDir() {
  const dir = process.env.SPARTS_WEB_ARTIFACTS ?? join(repo, "build", "web-artifacts");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Starts sparts-server; resolves with {url, port, stop()}. */
export async function startServer(extraArgs = []) {
  if (process.env.SPARTS_WEB_URL) {
    // a server already running (for working on the client): nothing to start or stop
    const url = process.env.SPARTS_WEB_URL.replace(/\/$/, "");
    return { url, port: Number(new URL(url).port), output: () => "", async stop() {} };
  }
  const dir = mkdtempSync(join(tmpdir(), "sparts-web-"));
  const args = ["--port", "0", "--database", join(dir, "sparts.db"), "--bot-delay-ms", "40", "--log-level", "warn", ...extraArgs];
  const child = spawn(serverBinary(), args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stderr.on("data", (d) => (out += d));
  const port = await new Promise((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`sparts-server printed no port in 20 s: ${out}`)), 20000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/listening on [^\s:]+:(\d+)/);
      if (m) {
        clearTimeout(timer);
        resolvePort(Number(m[1]));
      }
    });
    child.on("exit", (code) => reject(new Error(`sparts-server exited (${code}): ${out}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    output: () => out,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.on("exit", r));
        child.kill("SIGTERM");
        // (the timer is cleared once the server has exited: a pending one kept node, and so
        // the test, alive for its 15 s after every test file)
        let timer;
        await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 15000)))]);
        clearTimeout(timer);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser() {
  let chromium;
  try {
    ({ chromium } = await import("playwright-core"));
  } catch (err) {
    throw new Error(`playwright-core is not installed: run \`npm ci\` in web/ (scripts/install-deps.sh does) (${err.message})`);
  }
  const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";
  if (!existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}: install Debian's chromium (scripts/install-deps.sh does) or set CHROMIUM`);
  return chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
  });
}

/** A raw HTTP GET (no path normalisation, unlike fetch). */
export function rawGet(port, path, headers = {}) {
  return new Promise((resolveGet, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method: "GET", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolveGet({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

export const CARD = /^([2-9TJQKA][CDHS]'?|JK[1-4])$/;

/** Every card string anywhere in a message. */
export function cardsIn(value, out = []) {
  if (typeof value === "string") {
    if (CARD.test(value)) out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) cardsIn(v, out);
  } else if (value && typeof value === "object") {
    for (const v of Object.values(value)) cardsIn(v, out);
  }
  return out;
}

/**
 * Polls `check` (an async function) until it returns true. (The pages run under the
 * server's Content-Security-Policy, which forbids evaluating strings, so
 * page.waitForFunction cannot be used.)
 */
export async function until(check, what, timeoutMs = 30000) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    last = await check();
    if (last === true) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}

/**
 * Runs axe-core (npm's axe-core) in the page and fails on any serious or critical
 * violation, naming `where`. The context must bypass the page's Content-Security-Policy
 * (newContext({bypassCSP: true})): axe is injected as a script.
 */
export async function audit(page, where) {
  if (!(await page.evaluate(() => typeof window.axe !== "undefined"))) {
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve("axe-core/axe.min.js") });
  }
  const found = await page.evaluate(async () => {
    // A card on its way to the trick or to a trick's winner passes over the seats for a
    // moment: the page is judged once it is still (a trick just won goes to its winner
    // within a second).
    const pause = (ms) => new Promise((r) => setTimeout(r, ms));
    for (let i = 0; i < 30 && window.sparts?.app?.view?.sweep; i++) await pause(100);
    await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {})));
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  });
  const bad = found.filter((v) => v.impact === "serious" || v.impact === "critical");
  assert.deepEqual(bad, [], `${where}: ${JSON.stringify(bad, null, 1)}`);
  assert.deepEqual(await visibleHidden(page), [], `${where}: shown though marked hidden`);
  return found.length;
}

/**
 * The elements marked `hidden` that are drawn all the same (a rule giving them a
 * display beats the attribute's own), each as tag#id.class "text".
 */
export function visibleHidden(page) {
  return page.evaluate(() => [...document.querySelectorAll("[hidden]")]
    .filter((e) => e.checkVisibility())
    .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}${[...e.classList].map((c) => `.${c}`).join("")} "${e.textContent.trim().slice(0, 40)}"`));
}

/** The two screens the table is tested on. */
export const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/**
 * A person in a fresh browser context at `size` (a phone one is touch and mobile),
 * named `name`; `extra` goes to newContext. `errors` collects the page's uncaught
 * errors. The page counts the animations it starts (window.__animations).
 */
export async function newPerson(browser, name, size = "desktop", extra = {}) {
  const phone = size === "phone";
  const context = await browser.newContext({ viewport: SIZES[size], isMobile: phone, hasTouch: phone, reducedMotion: "reduce", ...extra });
  await context.addInitScript((n) => {
    localStorage.setItem("sparts.name", n);
    window.__animations = 0;
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (...args) {
      window.__animations++;
      return animate.apply(this, args);
    };
  }, name);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  return { context, page, errors };
}

/**
 * Creates a table of `preset` from the lobby ({name: value} for its options, a turn time,
 * the bots that fill the other seats: the form's choice unless given, "none" to wait for
 * people), sits, and returns its id.
 */
export async function createTable(page, url, preset, options = {}, turnSeconds = null, bots = null) {
  await page.goto(url + "/");
  await page.locator("#status[data-state=open]").waitFor();
  await page.selectOption("#preset", preset);
  if (bots !== null) await page.selectOption("#bots", bots);
  if (turnSeconds !== null) await page.locator("#turn-seconds").fill(String(turnSeconds));
  if (Object.keys(options).length) await page.locator("details.more summary").click();
  for (const [name, value] of Object.entries(options)) {
    const field = page.locator(`#opt-${name}`);
    if ((await field.evaluate((e) => e.tagName)) === "SELECT") await field.selectOption(String(value));
    else await field.fill(String(value));
  }
  await page.getByRole("button", { name: "Create table and sit" }).click();
  await page.waitForURL(/#\/table\/t\d+/);
  await page.locator("#start").waitFor();
  return page.url().match(/#\/table\/(t\d+)/)[1];
}

/**
 * Plays one game of `preset` with `options` to its end at `server`, fast: the client
 * library's example bot (lib/examples/bot.mjs) at one seat, server bots at the others.
 * Resolves with the table's id (its game 1 is in the archive) and what the bot printed.
 */
export async function playBotGame(server, preset, options = {}) {
  const ws = server.url.replace(/^http/, "ws") + "/ws";
  const child = spawn(process.execPath, ["--experimental-websocket", join(here, "../lib/examples/bot.mjs"), ws, preset, "1", JSON.stringify(options)],
    { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const code = await new Promise((resolveExit) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 120000);
    child.on("exit", (c) => {
      clearTimeout(timer);
      resolveExit(c);
    });
  });
  assert.equal(code, 0, `the example bot's game of ${preset} ${JSON.stringify(options)}: ${out}`);
  return { table: out.match(/^table (\S+)$/m)[1], output: out };
}

/** Passes the first cards of the hand, as many as asked. */
export async function passFirstCards(page) {
  const n = Number((await page.getByRole("group", { name: "Pass cards" }).innerText()).match(/Choose (\d+) card/)[1]);
  for (let i = 0; i < n; i++) await page.locator(".hand button.card").nth(i).click({ timeout: 2000 });
  await page.locator("#pass").click({ timeout: 2000 });
  await page.locator("#pass").waitFor({ state: "detached" });
}

/**
 * Does what the seat is asked: "passing" (onPass, by default the first cards),
 * "bidding" (the first bid offered), "playing" (the only card's button, else the
 * first legal card), "next-hand" (the scores' Next hand). A click that the turn
 * moved away from is let go.
 */
export async function act(page, what, onPass = passFirstCards) {
  try {
    if (what === "passing") {
      await onPass(page);
    } else if (what === "bidding") {
      await page.locator(".bids button").first().click({ timeout: 2000 });
    } else if (what === "moon") {
      await page.locator("#moon-add").click({ timeout: 2000 });
    } else if (what === "next-hand") {
      await page.locator("#next-hand").click({ timeout: 2000 });
    } else if (what === "playing") {
      const only = page.locator("#play-only");
      if (await only.count()) await only.click({ timeout: 2000 });
      else await page.locator(".hand button.card.playable").first().click({ timeout: 2000 });
    }
  } catch (err) {
    if (!/Timeout|detached|not attached/.test(String(err))) throw err;
  }
}

/**
 * What the seat is asked to do next ("passing", "bidding", "playing", "next-hand": put the
 * last hand's scores away, the next hand dealt), or "game-over" (or "hand-scored" when asked to look).
 */
export async function nextPhase(page, { handScored = false } = {}) {
  // One wait on every phase's mark at once, then one look at which it is: a wait per
  // phase would leave the losers polling the page for their 30 s, hundreds at a time
  // over a game.
  const marks = ["#pass", ".bids button", ".hand button.card.playable", "#moon-add", ".game-over", "#next-hand", ...(handScored ? [".scored"] : [])];
  await page.locator(marks.map((m) => `${m}:visible`).join(", ")).first().waitFor({ timeout: 30000 });
  const phase = await page.evaluate((withScored) => {
    if (withScored && document.querySelector(".scored")) return "hand-scored";
    if (document.querySelector("#pass")) return "passing";
    if (document.querySelector("#moon-add")) return "moon";
    if (document.querySelector(".bids button")) return "bidding";
    if (document.querySelector(".hand button.card.playable")) return "playing";
    if (document.querySelector(".game-over")) return "game-over";
    if (document.querySelector("#next-hand")) return "next-hand";
    return null;
  }, handScored);
  return phase ?? nextPhase(page, { handScored });
}

/** One step of the seat's play; returns what it was. */
export async function playStep(page, onPass = passFirstCards) {
  const what = await nextPhase(page);
  await act(page, what, onPass);
  return what;
}

/**
 * Plays the seat until game over (or `stopAfter` phases seen), calling onFirst(phase)
 * the first time each phase comes (with handScored, the hand scored too, before game
 * over). Returns the phases seen.
 */
export async function playThrough(page, { onFirst = async () => {}, onPass = passFirstCards, handScored = false, stopAfter = Infinity } = {}) {
  const seen = new Set();
  const deadline = Date.now() + 240000;
  while (Date.now() < deadline && seen.size < stopAfter) {
    const what = await nextPhase(page, { handScored: handScored && !seen.has("hand-scored") });
    if (!seen.has(what)) {
      seen.add(what);
      await onFirst(what);
    }
    if (what === "game-over" && (!handScored || seen.has("hand-scored"))) return seen;
    if (what === "hand-scored" || what === "game-over") continue;
    await act(page, what, onPass);
  }
  if (seen.size < stopAfter) throw new Error(`the game did not end in 4 minutes (seen: ${[...seen]})`);
  return seen;
}

/**
 * A button of the table's header that a phone keeps behind its "More" menu (the score sheet,
 * sound, confirm plays, the invite link): the menu is opened first when it hides the button.
 */
export async function headerButton(page, selector) {
  const item = page.locator(selector);
  if (!(await item.isVisible()) && (await page.locator("#menu").isVisible())) {
    await page.locator("#menu").click();
    await item.waitFor();
  }
  return item;
}

/**
 * Records, in the page, every state of the trick in play that the table draws (not
 * the last trick, shown a moment after it is won: "done"): each card with its seat and
 * whether it is marked winning. Counting only the states seen when it is the person's
 * turn depends on the deal (a person who wins the leads sees few), so the tests look at
 * every state drawn. Read them with `trickStates`.
 */
export async function watchTricks(page) {
  await page.evaluate(() => {
    const seen = new Set();
    window.__trickStates = [];
    const note = () => {
      if (document.querySelector(".center.done")) return;
      const trick = [...document.querySelectorAll(".trick figure.played")].map((e) =>
        ({ seat: Number(e.dataset.seat), card: e.querySelector(".card")?.dataset.card, winning: e.classList.contains("winning") }));
      if (!trick.length || trick.some((c) => !c.card)) return;
      const key = JSON.stringify(trick);
      if (seen.has(key)) return;
      seen.add(key);
      window.__trickStates.push(trick);
    };
    new MutationObserver(note).observe(document.body, { attributes: true, childList: true, subtree: true });
  });
}

/** The trick states `watchTricks` recorded, in the order drawn. */
export function trickStates(page) {
  return page.evaluate(() => window.__trickStates ?? []);
}

/**
 * The new-table form's options, each within its own column: what lies over another option (a
 * long choice or hint once ran under the next option's label). Returns "label and label" pairs.
 */
export async function optionsOverlapping(page) {
  return page.evaluate(() => {
    const fields = [...document.querySelectorAll("fieldset.options > .field")].filter((f) => f.offsetParent !== null);
    const boxOf = (f) => {
      // what the field draws: its own box and every part of it (which may run past the box)
      const r = f.getBoundingClientRect();
      let { left, top, right, bottom } = r;
      for (const el of f.querySelectorAll("*")) {
        const q = el.getBoundingClientRect();
        if (q.width === 0 || q.height === 0) continue;
        left = Math.min(left, q.left); top = Math.min(top, q.top); right = Math.max(right, q.right); bottom = Math.max(bottom, q.bottom);
      }
      return { left, top, right, bottom };
    };
    const boxes = fields.map(boxOf);
    const name = (f) => f.querySelector("label")?.textContent.trim().slice(0, 30) ?? "?";
    const out = [];
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, j) => {
      if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1)
        out.push(`${name(fields[i])} and ${name(fields[i + 1 + j])}`);
    }));
    return out;
  });
}
