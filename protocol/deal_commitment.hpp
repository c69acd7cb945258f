// Provably fair deals. When a game starts the server publishes a commitment,
// SHA-256 of a secret salt and the game's seed; when it ends it publishes the
// seed and the salt. Every deal follows from the seed (engine/rng.hpp), so a
// player who kept the commitment can check that the deals were fixed before
// the first card, and rebuild each of them (`sparts verify`). The salt makes
// the seed impossible to search for from the commitment while the game runs.
//
//   commitment = lowercase hex of SHA-256(salt + ":" + seed in decimal)
//   salt       = 32 lowercase hex digits (128 random bits)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sparts {

inline constexpr std::size_t kDealSaltLength = 32;

std::string deal_commitment(std::uint64_t seed, std::string_view salt);
bool is_deal_salt(std::string_view text);
bool is_deal_commitment(std::string_view text);

}  // namespace sparts
