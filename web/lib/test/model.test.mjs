import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { TableModel, ranksOf, lowScoreWins, partnersFromRuleset, sidesFromPartners } from "../table-model.js";
import { resultWords } from "../../app/lobby.js";
import { describeEvent } from "../words.js";

const info = {
  table: "t1", ruleset: { preset: "spades", options: {} },
  seats: [{ player: "p0000000000000001", name: "Ada" }, { bot: true, name: "Bot" }, { bot: true, name: "Bot" }, { bot: true, name: "Bot" }],
  private: false, turn_seconds: 60, state: "waiting", game: 0, spectators: 0,
};

function seated(you = 0) {
  const m = new TableModel("t1");
  m.applySnapshot({ type: "snapshot", table: "t1", seq: 4, you, info: structuredClone(info), game: 0, view: null });
  return m;
}

function play(m, events) {
  for (const e of events) assert.equal(m.applyEvent(m.seq + 1, e), "applied", e.type);
}

const HAND = ["2C", "7C", "JC", "3D", "8D", "KD", "4H", "9H", "QH", "AH", "5S", "TS", "QS"];

function dealHand(m, you = 0) {
  play(m, [
    { type: "game_started", game: 1, ruleset: info.ruleset },
    { type: "hand_started", hand: 1, dealer: 3, kind: "spades", hand_size: 13, center_size: 0 },
    ...[0, 1, 2, 3].map((s) => (s === you ? { type: "cards_dealt", seat: s, count: 13, cards: HAND } : { type: "cards_dealt", seat: s, count: 13 })),
  ]);
}

test("a seat's model: the deal, bids (nil as such), a trick, and who is on turn", () => {
  const m = seated();
  dealHand(m);
  const v = m.state.view;
  assert.deepEqual(v.hand.slice(0, 3), ["5S", "TS", "QS"], "sorted by suit, spades first");
  assert.deepEqual(v.hand_sizes, [13, 13, 13, 13]);
  assert.deepEqual(v.partners, [[0, 2], [1, 3], [0, 2], [1, 3]]);
  assert.deepEqual(m.state.hands.slice(1), [null, null, null], "other hands stay unknown");
  play(m, [{ type: "bidding_started", first: 0 }]);
  assert.equal(v.turn, undefined === v.turn ? null : m.state.view.turn);
  assert.equal(m.state.view.turn, 0);
  play(m, [
    { type: "bid_made", seat: 0, bid: "nil" }, { type: "bid_made", seat: 1, bid: 4 },
    { type: "bid_made", seat: 2, bid: 3 }, { type: "bid_made", seat: 3, bid: 2 },
    { type: "play_started", leader: 0 },
  ]);
  assert.deepEqual(m.state.view.bids, ["nil", 4, 3, 2]);
  assert.equal(m.state.view.phase, "playing");
  play(m, [
    { type: "card_played", seat: 0, card: "2C", trick: 1 },
    { type: "card_played", seat: 1, card: "9C", trick: 1 },
  ]);
  assert.equal(m.state.view.turn, 2);
  assert.deepEqual(m.state.view.trick.cards, [{ seat: 0, card: "2C" }, { seat: 1, card: "9C" }]);
  assert.ok(!m.state.view.hand.includes("2C"));
  assert.equal(m.state.view.hand_sizes[1], 12);
  play(m, [
    { type: "card_played", seat: 2, card: "AC", trick: 1 },
    { type: "card_played", seat: 3, card: "3C", trick: 1 },
    { type: "trick_won", trick: 1, leader: 0, winner: 2, cards: ["2C", "9C", "AC", "3C"] },
  ]);
  assert.deepEqual(m.state.view.tricks, [0, 0, 1, 0]);
  assert.equal(m.state.view.turn, 2);
  assert.equal(m.state.view.trick.cards.length, 0);
  assert.equal(m.state.lastTrick.winner, 2);
});

test("past_tricks: kept trick by trick, cleared by the next deal; a snapshot gives the last trick as one that watched had it", () => {
  const m = seated();
  dealHand(m);
  assert.deepEqual(m.state.view.past_tricks, []);
  play(m, [
    { type: "bid_made", seat: 0, bid: 3 }, { type: "bid_made", seat: 1, bid: 4 },
    { type: "bid_made", seat: 2, bid: 3 }, { type: "bid_made", seat: 3, bid: 2 },
    { type: "play_started", leader: 0 },
    { type: "card_played", seat: 0, card: "2C", trick: 1 },
    { type: "card_played", seat: 1, card: "9C", trick: 1 },
    { type: "card_played", seat: 2, card: "AC", trick: 1 },
    { type: "card_played", seat: 3, card: "3C", trick: 1 },
    { type: "trick_won", trick: 1, leader: 0, winner: 2, cards: ["2C", "9C", "AC", "3C"] },
  ]);
  const first = { trick: 1, leader: 0, winner: 2, cards: ["2C", "9C", "AC", "3C"] };
  assert.deepEqual(m.state.view.past_tricks, [first]);
  const watched = m.state.lastTrick;
  // A snapshot at this point (seat 2 to lead): the same last trick as the model that watched.
  const snapshot = (view) => ({ type: "snapshot", table: "t1", seq: 30, you: 0, info: structuredClone(info), game: 1, view });
  const view = structuredClone(m.state.view);
  const back = seated();
  back.applySnapshot(snapshot(view));
  assert.deepEqual(back.state.lastTrick, watched);
  assert.deepEqual(back.state.lastTrick.cards, [{ seat: 0, card: "2C" }, { seat: 1, card: "9C" }, { seat: 2, card: "AC" }, { seat: 3, card: "3C" }]);
  // Through the next trick both keep it (a player looks back while choosing a card).
  play(m, [{ type: "card_played", seat: 2, card: "KD", trick: 2 }]);
  assert.deepEqual(m.state.lastTrick, watched);
  back.applySnapshot(snapshot(structuredClone(m.state.view)));
  assert.deepEqual(back.state.lastTrick, watched);
  assert.deepEqual(back.state.view.past_tricks, [first]);
  // The next deal starts the list again, and has no last trick.
  play(m, [{ type: "hand_started", hand: 2, dealer: 0, kind: "spades", hand_size: 13, center_size: 0 }]);
  assert.deepEqual(m.state.view.past_tricks, []);
  assert.equal(m.state.lastTrick, null);
});

test("hand_scored sets each side's score and bags; game_over ends the game", () => {
  const m = seated();
  dealHand(m);
  play(m, [
    { type: "hand_scored", hand: 1, kind: "spades", sides: [
      { seats: [0, 2], bid: 5, tricks: 6, nil_bids: 0, nils_made: 0, score_sheet: { contract: 50, overtricks: 1 }, hand_total: 51, score: 51, bags: 1 },
      { seats: [1, 3], bid: 6, tricks: 7, nil_bids: 1, nils_made: 0, score_sheet: { contract: 60, overtricks: 1, nil: -100 }, hand_total: -39, score: -39, bags: 1 },
    ] },
    { type: "game_over", reason: "hand_cap", hands_played: 1, scores: [51, -39], ranks: [1, 2] },
  ]);
  assert.deepEqual(m.state.view.scores, [51, -39]);
  assert.deepEqual(m.state.sides, [[0, 2], [1, 3]]);
  assert.equal(m.state.view.phase, "game_over");
  assert.equal(m.state.gameOver.reason, "hand_cap");
  assert.equal(m.state.info.state, "over");
});

test("passing: my passed cards leave my hand, received ones arrive; others' stay hidden", () => {
  const m = seated();
  dealHand(m);
  play(m, [
    { type: "passing_started", count: 3, distance: 1, round: 1, back_count: 0 },
    { type: "cards_passed", from: 0, to: 1, count: 3, cards: ["2C", "QS", "AH"] },
    { type: "cards_passed", from: 1, to: 2, count: 3 },
  ]);
  const v = m.state.view;
  assert.deepEqual(v.passed_seats, [0, 1]);
  assert.deepEqual(v.waiting_for, [2, 3]);
  assert.equal(v.hand.length, 10);
  assert.deepEqual(v.cards_passed, ["2C", "QS", "AH"]);
  play(m, [{ type: "cards_received", seat: 0, from: 3, count: 3, cards: ["2D", "5H", "9S"] }]);
  assert.equal(v.hand.length, 13);
  assert.ok(v.hand.includes("9S"));
});

test("a nil pass: only the seats it names are waited for; the others sit it out, neither waiting nor passed", () => {
  const m = seated();
  dealHand(m);
  play(m, [{ type: "passing_started", count: 2, distance: 2, round: 1, back_count: 0, seats: [0, 2] }]);
  const v = m.state.view;
  assert.deepEqual(v.waiting_for, [0, 2]);
  assert.deepEqual(v.passed_seats, []);
  play(m, [{ type: "cards_passed", from: 2, to: 0, count: 2 }]);
  assert.deepEqual(v.passed_seats, [2]);
  assert.deepEqual(v.waiting_for, [0]);
});

test("the seat you held: named by a spectator's snapshot, or kept when you leave your seat mid-game; forgotten when the game ends", () => {
  const watching = new TableModel("t1");
  const playing = { ...structuredClone(info), state: "playing", game: 1 };
  watching.applySnapshot({ type: "snapshot", table: "t1", seq: 9, you: null, info: playing, game: 1, view: null, held_seat: 2 });
  assert.equal(watching.state.heldSeat, 2);
  watching.applySnapshot({ type: "snapshot", table: "t1", seq: 9, you: null, info: playing, game: 1, view: null });
  assert.equal(watching.state.heldSeat, null, "a snapshot without it: none held");

  const m = seated();
  dealHand(m);
  assert.equal(m.state.heldSeat, null);
  play(m, [{ type: "seat_left", seat: 1 }]);
  assert.equal(m.state.heldSeat, null, "another seat's leaving is not yours");
  play(m, [{ type: "seat_left", seat: 0 }]);
  assert.equal(m.state.heldSeat, 0);
  play(m, [{ type: "game_over", reason: "target_score", scores: [10, 20], ranks: [2, 1] }]);
  assert.equal(m.state.heldSeat, null);
});

test("a spectator's model never holds a card it was not sent", () => {
  const m = new TableModel("t1");
  m.applySnapshot({ type: "snapshot", table: "t1", seq: 4, you: null, info: structuredClone(info), game: 0, view: null });
  play(m, [
    { type: "game_started", game: 1, ruleset: info.ruleset },
    { type: "hand_started", hand: 1, dealer: 3, kind: "spades", hand_size: 13, center_size: 0 },
    { type: "cards_dealt", seat: 0, count: 13 },
  ]);
  assert.equal(m.state.view.hand, undefined);
  assert.deepEqual(m.state.hands, [null, null, null, null]);
});

test("a replay model shows every hand and follows them", () => {
  const m = new TableModel("t1", { replay: true, seats: 4 });
  m.applyReplayState({ type: "replay_state", table: "t1", game: 1, position: 0, hands: [[], [], [], []], view: null });
  m.applyEvent(7, { type: "hand_started", hand: 1, dealer: 3, kind: "spades", hand_size: 2, center_size: 0 });
  m.applyEvent(8, { type: "cards_dealt", seat: 1, count: 2, cards: ["AS", "2C"] });
  m.applyEvent(9, { type: "play_started", leader: 1 });
  m.applyEvent(10, { type: "card_played", seat: 1, card: "2C", trick: 1 });
  assert.deepEqual(m.state.hands[1], ["AS"]);
});

test("a replay sought to a hand's start keeps the hands as dealt through the deal's own events", () => {
  // The replay_state of a seek to the start shows the engine's state after the deal; the
  // deal's events follow. The hands once went empty at hand_started, then filled seat by seat.
  const m = new TableModel("t1", { replay: true, seats: 2 });
  m.applyReplayState({ type: "replay_state", table: "t1", game: 1, position: 0, hands: [["AS", "2C"], ["KD", "3H"]], view: null });
  const sizes = () => m.state.hands.map((x) => x?.length ?? 0);
  m.applyEvent(1, { type: "game_started", game: 1, ruleset: { preset: "spades", options: { seats: 2 } } });
  m.applyEvent(2, { type: "hand_started", hand: 1, dealer: 1, kind: "spades", hand_size: 2, center_size: 0 });
  assert.deepEqual(sizes(), [2, 2]);
  m.applyEvent(3, { type: "cards_dealt", seat: 0, count: 2, cards: ["AS", "2C"] });
  assert.deepEqual(sizes(), [2, 2]);
  m.applyEvent(4, { type: "cards_dealt", seat: 1, count: 2, cards: ["KD", "3H"] });
  assert.deepEqual([...m.state.hands[1]].sort(), ["3H", "KD"]);
  // Live, a hand's start empties what the page knew of the hands: the deal tells them again.
  const live = new TableModel("t1");
  live.applySnapshot({ type: "snapshot", table: "t1", seq: 1, game: 1, you: null,
    info: { table: "t1", ruleset: { preset: "spades", options: { seats: 2 } }, seats: [null, null], status: "playing" }, view: null });
  live.state.hands = [["AS"], ["KD"]];
  live.applyEvent(2, { type: "hand_started", hand: 2, dealer: 0, kind: "spades", hand_size: 2, center_size: 0 });
  assert.deepEqual(live.state.hands, [null, null]);
});

test("Hearts: the lowest score is first, partners across when asked, and the lobby says who won by rank", () => {
  assert.deepEqual(ranksOf([10, 30, 10, 5], true), [2, 4, 2, 1]);
  assert.equal(lowScoreWins({ preset: "hearts", options: {} }), true);
  assert.equal(lowScoreWins({ preset: "spades", options: {} }), false);
  assert.deepEqual(partnersFromRuleset({ preset: "hearts", options: {} }, 4)[0], [0]);
  assert.deepEqual(partnersFromRuleset({ preset: "hearts", options: { partnership: "across" } }, 4)[0], [0, 2]);
  assert.deepEqual(partnersFromRuleset({ preset: "hearts", options: { seats: 6, partnership: "across" } }, 6)[1], [1, 4]);
  const players = ["Ada", "Bo", "Cy", "Di"].map((name, i) => ({ name, player: `p${i}` }));
  assert.equal(resultWords({ players, result: { game_over: { scores: [40, 101, 12, 60], ranks: [2, 4, 1, 3] } } }),
    "won by Cy, 12 to 40 to 60 to 101");
  // A snapshot at game over ranks by the ruleset: in Hearts the lowest is first.
  const m = new TableModel();
  m.applySnapshot({ type: "snapshot", table: "t1", seq: 9, game: 1, you: null,
    info: { table: "t1", ruleset: { preset: "hearts", options: {} }, seats: [null, null, null, null], status: "playing" },
    view: { phase: "game_over", seats: 4, scores: [40, 101, 12, 60], partners: [[0], [1], [2], [3]], hand: [] } });
  assert.deepEqual(m.state.gameOver.ranks, [2, 4, 1, 3]);
});

test("ranks share places on equal scores; partners follow the ruleset", () => {
  assert.deepEqual(ranksOf([10, 30, 10, 5]), [2, 1, 2, 4]);
  assert.deepEqual(partnersFromRuleset({ preset: "sparts", options: { seats: 6, partners: "regular", teams: 3 } }, 6)[0], [0, 3]);
  assert.deepEqual(sidesFromPartners([[0, 2], [1, 3], [0, 2], [1, 3]], 4), [[0, 2], [1, 3]]);
  // Progressive partners, rotated: 2, 3, 4 to the left on hands 1, 2, 3 at 5 seats, then 2 again (RULES.md).
  const rotated = { preset: "spartsel", options: { seats: 5, partners: "progressive", progressive_rotated: true } };
  assert.deepEqual(partnersFromRuleset(rotated, 5, 1, 0), [[0, 2], [1, 3], [2, 4], [0, 3], [1, 4]]);
  assert.deepEqual(partnersFromRuleset(rotated, 5, 2, 1), [[0, 3], [1, 4], [0, 2], [1, 3], [2, 4]]);
  assert.deepEqual(partnersFromRuleset(rotated, 5, 3, 2), [[0, 4], [0, 1], [1, 2], [2, 3], [3, 4]]);
  assert.deepEqual(partnersFromRuleset(rotated, 5, 4, 3), partnersFromRuleset(rotated, 5, 1, 0));
  // Rotating partners by the plan, from the dealer's left: hand 1 (dealer 3) in two teams, hand 2 alone.
  const rotating = { preset: "spartsel", options: { seats: 5, partners: "rotating", partner_plan: "2,0" } };
  assert.deepEqual(partnersFromRuleset(rotating, 5, 1, 3), [[0, 2], [1, 3, 4], [0, 2], [1, 3, 4], [1, 3, 4]]);
  assert.deepEqual(partnersFromRuleset(rotating, 5, 2, 4), [[0], [1], [2], [3], [4]]);
});

test("every server example of PROTOCOL.md goes through a model and into words", () => {
  const doc = readFileSync(new URL("../../../protocol/PROTOCOL.md", import.meta.url), "utf8");
  const blocks = [...doc.matchAll(/```json server\n([\s\S]*?)```/g)].map((b) => JSON.parse(b[1]));
  assert.ok(blocks.length > 40);
  let events = 0;
  for (const msg of blocks) {
    if (msg.type !== "event") continue;
    events++;
    const m = seated();
    dealHand(m);
    play(m, [{ type: "passing_started", count: 3, distance: 1, round: 1, back_count: 0 }, { type: "bidding_started", first: 0 }, { type: "play_started", leader: 0 }]);
    m.applyEvent(m.seq + 1, msg.event);
    const words = describeEvent(msg.event, (s) => `Seat ${s + 1}`);
    assert.ok(words.length > 5 && !words.includes("undefined"), `${msg.event.type}: ${words}`);
  }
  assert.ok(events >= 28);
});
