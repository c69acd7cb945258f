// Provably fair deals (protocol/PROTOCOL.md §19): the commitment a game_started
// carried is SHA-256 of "salt:seed"; deal_revealed gives the seed and salt when the
// game is over. Checking it needs only the commitment kept from the start.

const HEX64 = /^[0-9a-f]{64}$/;
const SALT = /^[0-9a-f]{32}$/;
const SEED = /^(0|[1-9][0-9]{0,19})$/;

async function subtle() {
  if (globalThis.crypto?.subtle) return globalThis.crypto.subtle;
  // Node.js 18 has WebCrypto, but not on globalThis.
  return (await import("node:crypto")).webcrypto.subtle;
}

/** Lowercase hex of SHA-256("salt:seed"): the commitment a server publishes for this seed and salt. */
export async function dealCommitment(seed, salt) {
  const bytes = new TextEncoder().encode(`${salt}:${seed}`);
  const digest = new Uint8Array(await (await subtle()).digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether `seed` and `salt` (from deal_revealed) open `commitment` (the one kept from
 * game_started). False for anything malformed.
 */
export async function checkDealCommitment(commitment, seed, salt) {
  if (typeof commitment !== "string" || !HEX64.test(commitment)) return false;
  if (typeof seed !== "string" || !SEED.test(seed) || BigInt(seed) >= 2n ** 64n) return false;
  if (typeof salt !== "string" || !SALT.test(salt)) return false;
  return (await dealCommitment(seed, salt)) === commitment;
}
