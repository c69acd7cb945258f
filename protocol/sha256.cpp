#include "protocol/sha256.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace sparts {

std::array<std::uint8_t, 32> sha256(std::string_view data) {
    std::array<std::uint8_t, 32> out{};
    unsigned int size = 0;
    // One call: EVP_Digest makes, uses and frees its context. It fails only if
    // libcrypto cannot allocate that context or has SHA-256 disabled.
    if (EVP_Digest(data.data(), data.size(), out.data(), &size, EVP_sha256(), nullptr) != 1 || size != out.size())
        throw std::runtime_error("SHA-256: OpenSSL's EVP_Digest failed");
    return out;
}

std::string sha256_hex(std::string_view data) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s;
    s.reserve(64);
    for (std::uint8_t b : sha256(data)) {
        s += kHex[b >> 4];
        s += kHex[b & 15];
    }
    return s;
}

}  // namespace sparts
