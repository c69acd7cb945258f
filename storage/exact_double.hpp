// A double as text and back, every bit of it: ratings travel as text (PostgreSQL's
// parameters and arrays, the leaderboard's cursor) and must come back equal.
#pragma once
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <system_error>

namespace sparts::storage {

// A double as the shortest text that reads back to it exactly.
inline std::string exact_text(double value) {
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    return ec == std::errc() ? std::string(buf, end) : std::string("0");
}

// The text of exact_text (or PostgreSQL's float8 output), read back; nothing unless it is a
// finite number, whole.
inline std::optional<double> exact_number(const std::string& text) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

}  // namespace sparts::storage
