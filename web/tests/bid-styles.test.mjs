// End-to-end, in Chromium against the real server: the spades family's bid styles
// (docs/RULES.md bid_style). At the player's turn to bid, the bid buttons offer
// exactly what the style allows for the hand shown: Mirror the number of spades
// held (nil with none), Whiz that number or nil, Suicide nil or 4 and up, the
// opposite of a partner who already bid. The hand is then played to the scores.
// Screenshots at 1280×800 and 390×844 go to the artifacts.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, newPerson, createTable, nextPhase, act } from "./support.mjs";

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

// What the style allows, as the buttons' data-bid values ("nil" and numbers as text).
function allowed(style, spades, partnerBid) {
  const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => String(a + i));
  if (style === "mirror") return spades ? [String(spades)] : ["nil"];
  if (style === "whiz") return spades ? ["nil", String(spades)] : ["nil"];
  // suicide: the first of the side chooses; the second bids the opposite
  if (partnerBid === null || partnerBid === undefined) return ["nil", ...range(4, 13)];
  return partnerBid === "nil" ? range(4, 13) : ["nil"];
}

for (const [size, style] of [["desktop", "mirror"], ["phone", "whiz"], ["desktop", "suicide"]]) {
  test(`${size}: ${style}: the bid buttons offer what the style allows for the hand shown`, async () => {
    const { context, page, errors } = await newPerson(browser, `Bid ${style}`, size);
    await createTable(page, server.url, "spades", { bid_style: style, hand_cap: 1 });
    await page.locator("#start").click();
    let checked = 0;
    const deadline = Date.now() + 180000;
    for (;;) {
      assert.ok(Date.now() < deadline, "the hand did not end in 3 minutes");
      const what = await nextPhase(page);
      if (what === "game-over" || what === "next-hand") break;
      // After the click the buttons may still be drawn a moment: the one bid of the hand is checked once.
      if (what === "bidding" && checked === 0) {
        const hand = await page.locator(".hand .card").evaluateAll((els) => els.map((e) => e.dataset.card));
        const spades = hand.filter((c) => c.endsWith("S")).length;
        const { you, bids } = await page.evaluate(() => ({ you: window.sparts.app.view.state.you, bids: window.sparts.app.view.state.view.bids }));
        await page.locator(".bids button").first().waitFor();
        const offered = await page.locator(".bids button").evaluateAll((els) => els.map((e) => e.dataset.bid));
        assert.deepEqual(offered, allowed(style, spades, bids[(you + 2) % 4]), `${style}, ${spades} spades, partner ${bids[(you + 2) % 4]}`);
        await page.screenshot({ path: join(artifacts, `bid-style-${style}-${size}.png`) });
        checked++;
      }
      await act(page, what);
    }
    assert.equal(checked, 1, "one bid a hand");
    assert.deepEqual(errors, []);
    await context.close();
  });
}
