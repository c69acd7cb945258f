// FNV-1a, 64-bit: the fingerprint of an event stream.
#pragma once

#include <cstdint>
#include <string_view>

namespace sparts::testing {

inline std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = 0xcbf29ce484222325ULL) {
    for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
    return h;
}

}  // namespace sparts::testing
