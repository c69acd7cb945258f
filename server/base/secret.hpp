// Unguessable strings: player tokens (128 bits), invite codes and seeds, from
// the operating system's random source (std::random_device reads getrandom on
// Linux), never from the engine's deterministic generator.
#pragma once
#include <cstdint>
#include <string>

namespace sparts::server {

// `bytes` random bytes as lower-case hex.
std::string random_hex(int bytes);
// A seed for a new game's deal.
std::uint64_t random_seed();

}  // namespace sparts::server
