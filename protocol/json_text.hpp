// JSON text to a JSON value, as a value or a ParseError: nlohmann's exceptions
// stop here. Nesting is bounded so that a hostile document cannot make any
// later walk over it deep.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "protocol/parse_error.hpp"

namespace sparts {

inline constexpr int kMaxJsonDepth = 64;

Parsed<nlohmann::json> parse_json_text(std::string_view text);

}  // namespace sparts
