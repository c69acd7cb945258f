// The admin API's bearer token (--admin-token-file), read once at start.
//
// The file holds the token and nothing else (white space around it, a final
// newline, is cut): at least 32 characters, printable ASCII without spaces,
// since it travels in an `Authorization: Bearer` header. A shorter token, an
// unreadable file or stray bytes stop the server at start, naming the setting:
// an admin API that guards the server with a guessable word is worse than none.
//
// Only the token's SHA-256 is kept in memory. A presented token is hashed and
// the two digests compared with OpenSSL's CRYPTO_memcmp, whose time does not
// depend on where they differ; comparing digests of a fixed length also hides
// the token's length. The token is never logged.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include "protocol/outcome.hpp"

namespace sparts::server {

inline constexpr std::size_t kMinAdminTokenLength = 32;
inline constexpr std::size_t kMaxAdminTokenLength = 1024;

class AdminToken {
public:
    // The token of the file at `path`, or what is wrong with it (for the operator).
    static Outcome<AdminToken, std::string> read(const std::string& path);
    // `text` itself as the token (tests), or what is wrong with it.
    static Outcome<AdminToken, std::string> from_text(std::string_view text);

    // Whether `presented` is the token, in a time that does not depend on it.
    bool matches(std::string_view presented) const;

private:
    std::array<std::uint8_t, 32> digest_{};
};

// The token of an `Authorization` header's value `Bearer <token>` (the scheme
// in any case, RFC 7235), or nothing when it is absent or another scheme.
std::optional<std::string_view> bearer_token(std::string_view authorization);

}  // namespace sparts::server
