/** Lowercase hex of SHA-256("salt:seed"): the commitment a server publishes for this seed and salt. */
export function dealCommitment(seed: string, salt: string): Promise<string>;
/**
 * Whether `seed` and `salt` (from deal_revealed) open `commitment` (the one kept from
 * game_started). False for anything malformed.
 */
export function checkDealCommitment(commitment: string, seed: string, salt: string): Promise<boolean>;
