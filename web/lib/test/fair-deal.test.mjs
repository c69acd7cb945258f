import { test } from "node:test";
import assert from "node:assert/strict";
import { dealCommitment, checkDealCommitment } from "../fair-deal.js";
import { TableModel } from "../table-model.js";

const SALT = "00112233445566778899aabbccddeeff";
// printf '%s' "00112233445566778899aabbccddeeff:1234567890123" | sha256sum
const COMMITMENT = "d63aa1ae87f1d4465700ed940d33208716a5579f07fe500a50c7f4cd06e386b4";

test("the commitment is SHA-256 of salt:seed, as sha256sum prints it", async () => {
  assert.equal(await dealCommitment("1234567890123", SALT), COMMITMENT);
  // The largest seed, exactly (a JavaScript number would lose it).
  assert.equal(await dealCommitment("18446744073709551615", SALT),
    "7b7de8949fc22965028a5971d44162bad5fc62dad183bba540fc26daefb1900c");
});

test("checkDealCommitment opens the kept commitment and nothing else", async () => {
  assert.equal(await checkDealCommitment(COMMITMENT, "1234567890123", SALT), true);
  assert.equal(await checkDealCommitment(COMMITMENT, "1234567890124", SALT), false);
  assert.equal(await checkDealCommitment(COMMITMENT, "1234567890123", "f" + SALT.slice(1)), false);
  assert.equal(await checkDealCommitment(COMMITMENT.toUpperCase(), "1234567890123", SALT), false);
  assert.equal(await checkDealCommitment(COMMITMENT, "01234567890123", SALT), false);
  assert.equal(await checkDealCommitment(COMMITMENT, "18446744073709551616", SALT), false);
  assert.equal(await checkDealCommitment(COMMITMENT, 1234567890123, SALT), false);
  assert.equal(await checkDealCommitment(null, "1234567890123", SALT), false);
});

test("the table model keeps the commitment of game_started through a snapshot, and the reveal", () => {
  const m = new TableModel("t1");
  const info = { table: "t1", ruleset: { preset: "spades", options: {} }, seats: [null, null, null, null], private: false,
    turn_seconds: 0, state: "waiting", game: 0, spectators: 0 };
  m.applySnapshot({ type: "snapshot", table: "t1", seq: 1, you: null, info, game: 0, view: null });
  assert.equal(m.state.dealCommitment, null);
  m.applyEvent(2, { type: "game_started", game: 1, ruleset: info.ruleset, deal_commitment: COMMITMENT });
  assert.equal(m.state.dealCommitment, COMMITMENT);
  // A snapshot of the same game that claimed another commitment does not replace the kept one.
  m.applySnapshot({ type: "snapshot", table: "t1", seq: 2, you: null, info: { ...info, game: 1 }, game: 1, view: null,
    deal_commitment: "0".repeat(64) });
  assert.equal(m.state.dealCommitment, COMMITMENT);
  m.applyEvent(3, { type: "deal_revealed", game: 1, seed: "1234567890123", salt: SALT, commitment: COMMITMENT });
  assert.deepEqual(m.state.dealRevealed, { game: 1, seed: "1234567890123", salt: SALT, commitment: COMMITMENT });
  m.applyEvent(4, { type: "game_started", game: 2, ruleset: info.ruleset, deal_commitment: "a".repeat(64) });
  assert.equal(m.state.dealCommitment, "a".repeat(64));
  assert.equal(m.state.dealRevealed, null);
});
