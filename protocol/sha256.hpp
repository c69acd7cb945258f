// SHA-256 (FIPS 180-4), for keeping only the hash of each player token: a
// leaked player table then gives nobody a token. OpenSSL's libcrypto computes
// it (EVP_Digest); tests/server/sha256_test.cpp checks the NIST vectors.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace sparts {

std::array<std::uint8_t, 32> sha256(std::string_view data);
std::string sha256_hex(std::string_view data);

}  // namespace sparts
