// Rulesets on the wire: a preset and the named options set on top of it.
//
//   {"preset":"spades","options":{"target_score":250,"mercy_rule":true}}
//
// Option values may be JSON numbers, booleans or strings; they are handed to
// the engine's make_ruleset() as the text it reads (250 -> "250", true ->
// "true"), which checks them. Written back, a ruleset lists only the options
// whose value differs from its preset's default.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "engine/ruleset.hpp"
#include "protocol/parse_error.hpp"

namespace sparts {

nlohmann::json to_json(const Ruleset& rules);
Parsed<Ruleset> ruleset_from_json(const nlohmann::json& value);

// One option's value as the engine's text ("250", "true", "bag-back"), or why not.
Parsed<std::string> option_text(const nlohmann::json& value);
// The reverse, for writing: numbers and booleans become JSON numbers and booleans.
nlohmann::json option_value_json(const std::string& text);

}  // namespace sparts
