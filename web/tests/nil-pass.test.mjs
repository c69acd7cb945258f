// End-to-end, in Chromium against the real server: nil passing (docs/RULES.md
// nil_pass). With nil_pass 2 the person bids nil (or, when the partner bid nil
// first, a number: the partner is then the nil); once every bid is in, the person
// and the partner pass each other two cards, across: the page asks for two cards
// "to" the partner, the two leave the hand and the partner's two arrive, and the
// other side does not pass. Then the hand is played out. At 1280×800 and 390×844;
// screenshots go to the artifacts.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, newPerson, createTable, nextPhase, act, until } from "./support.mjs";

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

const handOf = (page) => page.locator(".hand button.card, .hand .card").evaluateAll((els) => els.map((e) => e.dataset.card));

for (const size of ["desktop", "phone"]) {
  test(`${size}: a nil's side passes two cards across once the bids are in`, async () => {
    const { context, page, errors } = await newPerson(browser, `Nel ${size}`, size);
    await createTable(page, server.url, "spades", { nil_pass: 2, hand_cap: 1 });
    await page.locator("#start").click();
    await page.locator(".bids button").first().waitFor({ timeout: 30000 });
    const { you, partner } = await page.evaluate(() => {
      const s = window.sparts.app.view.state;
      return { you: s.you, partner: s.view.partners[s.you].find((p) => p !== s.you) };
    });
    // Nil, unless the partner bid nil first (the side's nil is then the partner's).
    const partnerBid = await page.evaluate((p) => window.sparts.app.view.state.view.bids[p], partner);
    await page.locator(`.bids button[data-bid="${partnerBid === "nil" ? 3 : "nil"}"]`).click();

    // Every bid in: the pass to the partner, two cards.
    await page.locator("#pass").waitFor({ timeout: 30000 });
    const group = await page.getByRole("group", { name: "Pass cards" }).innerText();
    const partnerName = await page.evaluate((p) => window.sparts.app.view.nameOf(p), partner);
    assert.match(group, /Choose 2 cards/);
    assert.ok(group.includes(partnerName), `the pass goes to the partner, ${partnerName}: ${group}`);
    // The other side sits the pass out: no seat of it is lit as one to act (they were, every
    // seat, before passing_started named the seats that pass).
    const lit = await page.locator(".felt .seat.on-turn").evaluateAll((els) => els.map((e) => Number(e.dataset.seat)));
    const others = [0, 1, 2, 3].filter((x) => x !== you && x !== partner);
    assert.deepEqual(lit.filter((x) => others.includes(x)), [], `seats lit during the nil pass: ${lit}`);
    const before = await handOf(page);
    assert.equal(before.length, 13);
    const given = before.slice(0, 2);
    for (const card of given) await page.locator(`.hand button.card[data-card="${card}"]`).click();
    await page.screenshot({ path: join(artifacts, `nil-pass-choose-${size}.png`) });
    await page.locator("#pass").click();
    // The partner's two arrive: the hand is 13 again, without the two given.
    await until(async () => {
      const now = await handOf(page);
      return now.length === 13 && given.every((c) => !now.includes(c)) ? true : now;
    }, "the partner's two cards", 30000);
    const after = await handOf(page);
    const received = after.filter((c) => !before.includes(c));
    assert.equal(received.length, 2, `two new cards: ${received}`);
    const log = await page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? "[]").map((x) => x.text),
      `sparts.log.${page.url().match(/#\/table\/(t\d+)/)[1]}`);
    assert.ok(log.some((l) => l.includes(partnerName) && /pass/.test(l)), `the log says the partner passed: ${log.slice(-8).join(" | ")}`);
    await page.screenshot({ path: join(artifacts, `nil-pass-received-${size}.png`) });

    // The other side passes only if it bid a nil too (a bot may): the log says so either way.
    const otherSide = [0, 1, 2, 3].filter((s) => s !== you && s !== partner);
    const bids = await page.evaluate(() => window.sparts.app.view.state.view.bids);
    const otherNil = otherSide.some((seat) => bids[seat] === "nil");
    for (const seat of otherSide) {
      const name = await page.evaluate((p) => window.sparts.app.view.nameOf(p), seat);
      assert.equal(log.some((l) => l.startsWith(`${name} passes`)), otherNil,
        `${name}, of the other side (${otherNil ? "with" : "without"} a nil), ${otherNil ? "passed" : "did not pass"}: ${log.join(" | ")}`);
    }

    // The hand played out to its scores.
    const deadline = Date.now() + 180000;
    for (;;) {
      assert.ok(Date.now() < deadline, "the hand did not end in 3 minutes");
      const what = await nextPhase(page, { handScored: true });
      if (what === "hand-scored" || what === "game-over") break;
      await act(page, what);
    }
    const scored = await page.evaluate(() => window.sparts.app.view.state.handScored);
    const ours = scored.sides.find((x) => x.seats.includes(you));
    assert.equal(ours.nil_bids, 1, `one nil on our side: ${JSON.stringify(ours)}`);
    await page.screenshot({ path: join(artifacts, `nil-pass-scored-${size}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}
