// End-to-end, in Chromium against the real server: a hand of Joker Spades
// (docs/RULES.md joker_deck, here Joker-Joker-Deuce-Deuce with the forcing Big
// Joker) played from the New table form to the scores. The form offers the deck in
// words; the hand shows the jokers and the raised deuces at the top of the spades,
// the Big and Little Jokers by name; every trick on the table marks the card the
// rules say is winning; and what the server said of each trick (its log lines) names
// the same winner as the table did. Screenshots at 1280×800 and 390×844 go to the
// artifacts.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, launchBrowser, artifactsDir, newPerson, createTable, nextPhase, act, watchTricks, trickStates, optionsOverlapping } from "./support.mjs";
import { sortCards, trickWinner, cardName, SUITS, RANKS } from "../lib/cards.js";

// The card a log line names ("plays the two of diamonds", "plays the Big Joker").
const BY_WORDS = new Map();
for (const card of [...SUITS.flatMap((s) => RANKS.map((r) => r + s)), "JK1", "JK2"])
  BY_WORDS.set(card.startsWith("JK") ? cardName(card, "jjdd") : cardName(card).replace(/^./, (c) => c.toLowerCase()), card);

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
  test(`${size}: a hand of Joker Spades (jjdd): jokers named and sorted over the spades, each trick's winner as the rules say`, async () => {
    const { context, page, errors } = await newPerson(browser, `Jo ${size}`, size);
    await page.goto(server.url + "/");
    await page.locator("#status[data-state=open]").waitFor();
    await page.selectOption("#preset", "spades");
    await page.locator("details.more summary").click();
    const offered = await page.locator("#opt-joker_deck option").allInnerTexts();
    assert.deepEqual(offered, ["none", "Big, Little", "Big, Little, 2♦, 2♠", "Big, Little, 2♠"]);
    await page.screenshot({ path: join(artifacts, `joker-spades-form-${size}.png`) });
    assert.deepEqual(await optionsOverlapping(page), [], "each option within its column");

    await createTable(page, server.url, "spades", { joker_deck: "jjdd", big_joker_forces_highest: "true", hand_cap: 1 });
    await watchTricks(page);
    await page.locator("#start").click();

    let shot = false;
    const deadline = Date.now() + 180000;
    for (;;) {
      assert.ok(Date.now() < deadline, "the hand did not end in 3 minutes");
      const what = await nextPhase(page);
      if (what === "game-over") break;
      if (what === "playing") {
        const hand = await page.locator(".hand button.card").evaluateAll((els) => els.map((e) => ({ card: e.dataset.card, label: e.getAttribute("aria-label") })));
        const cards = hand.map((c) => c.card);
        assert.deepEqual(cards, sortCards(cards, { jokerDeck: "jjdd" }), `the hand in order: ${cards}`);
        for (const { card, label } of hand) {
          if (card === "JK1") assert.equal(label, "Big Joker");
          if (card === "JK2") assert.equal(label, "Little Joker");
        }
        // A picture of a trick with a joker or the 2♦ in it, the first the person sees.
        const shown = await page.locator(".trick figure.played .card").evaluateAll((els) => els.map((e) => e.dataset.card));
        if (!shot && shown.some((c) => /^JK|^2D$/.test(c))) {
          await page.screenshot({ path: join(artifacts, `joker-spades-trick-${size}.png`) });
          shot = true;
        }
      }
      if (what === "next-hand") break;
      await act(page, what);
    }
    // Every state of a trick the table drew (not the last one, shown a moment after it
    // is won) marks the card the rules say is winning.
    const states = await trickStates(page);
    for (const trick of states) {
      assert.equal(trick.findIndex((c) => c.winning), trickWinner(trick, "spades", "jjdd"), `the card marked winning: ${JSON.stringify(trick)}`);
    }
    const looked = states.filter((t) => t.length >= 2).length;
    assert.ok(looked >= 13, `tricks of two cards or more looked at: ${looked}`);
    await page.screenshot({ path: join(artifacts, `joker-spades-scores-${size}.png`) });
    // The server's word on each trick (its trick_won, "… wins trick n." in the log) against
    // the cards the log says were played: the rules' winner every time, 13 tricks.
    const table = page.url().match(/#\/table\/(t\d+)/)[1];
    const log = (await page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? "[]"), `sparts.log.${table}`)).map((x) => x.text);
    let plays = [];
    let tricks = 0;
    for (const line of log) {
      const played = line.match(/^(.+) plays the (.+)\.$/);
      const won = line.match(/^(.+) wins trick (\d+)\.$/);
      if (played) {
        assert.ok(BY_WORDS.has(played[2]), `a card in words: ${played[2]}`);
        plays.push({ seat: played[1], card: BY_WORDS.get(played[2]) });
      } else if (won) {
        assert.equal(plays.length, 4, `trick ${won[2]}: ${JSON.stringify(plays)}`);
        assert.equal(plays[trickWinner(plays, "spades", "jjdd")].seat, won[1], `trick ${won[2]}: ${JSON.stringify(plays)}`);
        plays = [];
        tricks++;
      }
    }
    assert.equal(tricks, 13);
    assert.ok(log.some((l) => / plays the Big Joker\.$/.test(l)) && log.some((l) => / plays the Little Joker\.$/.test(l)), "the log names both jokers");
    // The replay: every hand face up, the jokers by name among the spades.
    await page.goto(`${server.url}/#/replay/${table}/1`);
    await page.locator("#replay-step").waitFor();
    await page.selectOption("#replay-hand", "1");
    await page.locator("#replay-trick option[value='1']").waitFor({ state: "attached" });
    await page.selectOption("#replay-trick", "1");
    await page.locator(".replay-seat .card[aria-label='Big Joker']").waitFor();
    await page.locator(".replay-seat .card[aria-label='Little Joker']").waitFor();
    await page.screenshot({ path: join(artifacts, `joker-spades-replay-${size}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  });
}
