#include "server/admin/admin_token.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <openssl/crypto.h>
#include <spdlog/spdlog.h>
#include "protocol/sha256.hpp"

namespace sparts::server {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

}  // namespace

Outcome<AdminToken, std::string> AdminToken::from_text(std::string_view text) {
    const std::string_view token = trimmed(text);
    if (token.size() < kMinAdminTokenLength)
        return "the token is " + std::to_string(token.size()) + " characters long; it must have at least " +
               std::to_string(kMinAdminTokenLength) + " (for example: openssl rand -hex 32)";
    if (token.size() > kMaxAdminTokenLength)
        return "the token is longer than " + std::to_string(kMaxAdminTokenLength) + " characters";
    for (const char c : token)
        if (c <= ' ' || c > '~')
            return std::string("the token must be printable ASCII without spaces, on one line (it travels in an HTTP header)");
    AdminToken t;
    t.digest_ = sha256(token);
    return t;
}

Outcome<AdminToken, std::string> AdminToken::read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot read " + path + ": " + std::strerror(errno);
    // A token file is a line; anything near this size is the wrong file.
    constexpr std::size_t kMaxFileBytes = 64 * 1024;
    std::string text;
    text.resize(kMaxFileBytes + 1);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxFileBytes) return path + " is over 64 KiB: it should hold the token alone";
    auto token = from_text(text);
    if (!token) return path + ": " + token.error();
    // Readable by others: anyone on the machine could act as the administrator. Said, not
    // refused: secrets mounted by container platforms are often world-readable inside the container.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && (st.st_mode & (S_IRGRP | S_IROTH)) != 0)
        spdlog::warn("--admin-token-file {} is readable by other users (chmod 600 it)", path);
    return token;
}

bool AdminToken::matches(std::string_view presented) const {
    const auto digest = sha256(presented);
    return CRYPTO_memcmp(digest.data(), digest_.data(), digest_.size()) == 0;
}

std::optional<std::string_view> bearer_token(std::string_view authorization) {
    constexpr std::string_view kScheme = "bearer ";
    if (authorization.size() <= kScheme.size()) return std::nullopt;
    for (std::size_t i = 0; i < kScheme.size(); ++i) {
        const char c = authorization[i];
        if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != kScheme[i]) return std::nullopt;
    }
    const std::string_view token = trimmed(authorization.substr(kScheme.size()));
    if (token.empty()) return std::nullopt;
    return token;
}

}  // namespace sparts::server
