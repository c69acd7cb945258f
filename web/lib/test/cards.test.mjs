import { test } from "node:test";
import assert from "node:assert/strict";
import { cardName, cardShort, sortCards, groupBySuit, isCard, parseCard, trickWinner } from "../cards.js";

test("card names are words a person reads", () => {
  assert.equal(cardName("QS"), "Queen of spades");
  assert.equal(cardName("TH"), "Ten of hearts");
  assert.equal(cardName("2C"), "Two of clubs");
  assert.equal(cardName("AD'"), "Ace of diamonds (second deck)");
  assert.equal(cardName("JK3"), "Joker 3");
  assert.equal(cardShort("TH"), "10\u2665");
});

test("isCard follows the protocol's pattern", () => {
  for (const c of ["QS", "2C", "TH'", "JK1", "JK4"]) assert.ok(isCard(c), c);
  for (const c of ["1S", "QX", "JK5", "qs", "QS''", "", null]) assert.ok(!isCard(c), String(c));
  assert.throws(() => parseCard("ZZ"), TypeError);
});

test("a hand sorts by suit, colours alternating, low to high, jokers last", () => {
  const hand = ["AS", "2C", "JK1", "TD", "3S", "KH", "4H", "2D", "QC"];
  assert.deepEqual(sortCards(hand), ["3S", "AS", "4H", "KH", "2C", "QC", "2D", "TD", "JK1"]);
  assert.deepEqual(groupBySuit(["2C", "AS", "3C"]).map((g) => g.suit), ["S", "C"]);
  assert.deepEqual(sortCards(["QS'", "QS"]), ["QS", "QS'"]);
});

test("trickWinner: the suit led, spades trump but in Hearts hands, a led joker, the first of two identical cards", () => {
  const t = (cards) => cards.map((card, seat) => ({ seat, card }));
  assert.equal(trickWinner([], "spades"), null);
  assert.equal(trickWinner(t(["9H", "KH", "2C", "AH"]), "spades"), 3);
  assert.equal(trickWinner(t(["9H", "KH", "2S", "AH"]), "spades"), 2);
  assert.equal(trickWinner(t(["9H", "KH", "2S", "AH"]), "hearts"), 3);
  assert.equal(trickWinner(t(["9H", "3S", "5S", "AH"]), "sparts"), 2);
  assert.equal(trickWinner(t(["JK1", "AS", "KS"]), "spartsel"), 0);
  assert.equal(trickWinner(t(["4D", "JK2", "5D"]), "sparts"), 2);
  assert.equal(trickWinner(t(["QS", "QS'", "2S"]), "spades"), 0);
});

test("Joker Spades (docs/RULES.md joker_deck): jokers and raised deuces are the highest spades", () => {
  const t = (cards) => cards.map((card, seat) => ({ seat, card }));
  // A led joker is a spade lead, not a Spartsel joker that always wins.
  assert.equal(trickWinner(t(["JK2", "AS", "JK1", "3S"]), "spades", "big-little"), 2);
  assert.equal(trickWinner(t(["KH", "JK2", "AS", "2H"]), "spades", "big-little"), 1);
  // jjdd: the 2 of diamonds is a spade over the 2 of spades and the ace, not a diamond.
  assert.equal(trickWinner(t(["KD", "2D", "AD", "QD"]), "spades", "jjdd"), 1);
  assert.equal(trickWinner(t(["AS", "2S", "2D", "KS"]), "spades", "jjdd"), 2);
  assert.equal(trickWinner(t(["AS", "2S", "KS", "QS"]), "spades", "deuces-high"), 1);
  assert.equal(trickWinner(t(["AS", "2S", "KS", "QS"]), "spades", "big-little"), 0);
  assert.equal(cardName("JK1", "big-little"), "Big Joker");
  assert.equal(cardShort("JK2", "jjdd"), "Little Joker");
  assert.deepEqual(sortCards(["JK1", "2D", "AS", "3S", "2S", "KH", "JK2"], { jokerDeck: "jjdd" }),
    ["3S", "AS", "2S", "2D", "JK2", "JK1", "KH"]);
  assert.deepEqual(groupBySuit(["JK1", "4D", "9S"], { jokerDeck: "big-little" }).map((g) => g.suit), ["S", "D"]);
});

test("Joker Spades in words: the hand line and the log name the Big and Little Jokers", async () => {
  const { handLine, describeEvent } = await import("../index.js");
  assert.equal(handLine(["4S", "AS", "2D", "JK1", "5D", "3C"], "jjdd"), "\u2660 4 A 2\u2666 Big Joker \u00b7 \u2663 3 \u00b7 \u2666 5");
  assert.equal(describeEvent({ type: "card_played", seat: 0, card: "JK2", trick: 1 }, () => "Ada", { jokerDeck: "big-little" }), "Ada plays the Little Joker.");
  assert.equal(describeEvent({ type: "card_played", seat: 0, card: "JK2", trick: 1 }, () => "Ada"), "Ada plays the joker 2.");
});

test("a hand in one line, by suit: the deal's line in the log", async () => {
  const { handLine, describeEvent } = await import("../index.js");
  assert.equal(handLine(["4S", "AS", "TS", "QH", "9H", "6D", "3C", "JC", "JK1"]), "\u2660 4 10 A \u00b7 \u2665 9 Q \u00b7 \u2663 3 J \u00b7 \u2666 6 \u00b7 Joker");
  assert.equal(describeEvent({ type: "cards_dealt", seat: 0, cards: ["4S", "AS"] }, () => "Ada"), "Ada is dealt 2 cards: \u2660 4 A.");
  assert.equal(describeEvent({ type: "cards_dealt", seat: 1, count: 13 }, () => "Bo"), "Bo is dealt 13 cards.");
});
