#include "server/base/http_text.hpp"

#include <charconv>

namespace sparts::server {

namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::optional<std::string> percent_decoded(std::string_view s, bool plus_is_space) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '+' && plus_is_space) {
            out += ' ';
        } else if (s[i] == '%') {
            if (i + 2 >= s.size() || hex_value(s[i + 1]) < 0 || hex_value(s[i + 2]) < 0) return std::nullopt;
            out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::optional<std::map<std::string, std::string>> query_parameters(std::string_view query) {
    std::map<std::string, std::string> params;
    while (!query.empty()) {
        const auto amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
        if (pair.empty()) continue;
        const auto eq = pair.find('=');
        auto key = percent_decoded(pair.substr(0, eq), true);
        auto value = percent_decoded(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1), true);
        if (!key || !value) return std::nullopt;
        params[*key] = *value;
    }
    return params;
}

std::optional<std::int64_t> bounded_number(std::string_view s, std::int64_t lo, std::int64_t hi) {
    std::int64_t n = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || p != s.data() + s.size() || n < lo || n > hi) return std::nullopt;
    return n;
}

std::string shown(std::string_view s, std::size_t at_most) {
    std::string out;
    for (char c : s.substr(0, at_most)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    return s.size() > at_most ? out + "..." : out;
}

}  // namespace sparts::server
