// Small readers shared by the parsers of actions, rulesets and records: each
// checks one JSON value and says, as a ParseError relative to that value, what
// was expected and what came instead.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "protocol/parse_error.hpp"

namespace sparts {

// A short, bounded rendering of a value for error messages: strings quoted and
// cut at 40 characters, numbers as written, "an array" / "an object".
std::string describe_value(const nlohmann::json& value);

ParseError expected(std::string field, std::string_view what, const nlohmann::json& got);
ParseError missing(std::string field, std::string_view what);

// The member `key` of an object, or null when absent.
const nlohmann::json* member(const nlohmann::json& object, std::string_view key);

// Refuses members not in `known` (nor `also_known`, when not empty), naming the
// first stranger and listing the known ones; `in` names the object ("a play action").
std::optional<ParseError> refuse_unknown_members(const nlohmann::json& object, std::string_view in,
                                                 std::initializer_list<std::string_view> known,
                                                 std::string_view also_known = {});

// A JSON integer in [lo, hi]; `what` describes it for the error ("a seat number from 0 to 9").
Parsed<std::int64_t> whole_number(const nlohmann::json& value, std::int64_t lo, std::int64_t hi,
                                  std::string_view what);

// "field" -> "field[3]"
std::string indexed(std::string_view field, std::size_t index);

}  // namespace sparts
