// SHA-256 (FIPS 180-4), for keeping only the hash of each player token: a
// leaked player table then gives nobody a token. Small enough to own rather
// than pull in a crypto library for one function; tested against the NIST
// vectors in tests/server/sha256_test.cpp.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace sparts::server {

std::array<std::uint8_t, 32> sha256(std::string_view data);
std::string sha256_hex(std::string_view data);

}  // namespace sparts::server
