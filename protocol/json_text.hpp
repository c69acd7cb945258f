// JSON text to a JSON value, as a value or a ParseError: nlohmann's exceptions
// stop here. Nesting is bounded so that a hostile document cannot make any
// later walk over it deep.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "protocol/parse_error.hpp"

namespace sparts {

inline constexpr int kMaxJsonDepth = 64;

Parsed<nlohmann::json> parse_json_text(std::string_view text);

// A value as JSON text, never throwing: bytes that are not UTF-8 (which can
// only come from outside, e.g. an HTTP request's target) become U+FFFD
// instead of an exception. Every JSON text the server sends goes through here.
inline std::string dump_text(const nlohmann::json& value) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace sparts
