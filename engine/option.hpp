// The named options a table can set on top of a preset, each with the values it
// takes, the families it belongs to and the sentence it comes from. The rules
// document is checked against this table (tests/engine/rules_doc_test.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/ruleset.hpp"

namespace sparts {

struct OptionInfo {
    const char* name;
    const char* values;       // what it accepts, for people
    const char* description;
    const char* source;       // seed file and sentence, or RULINGS.md
    std::uint8_t families;    // bit (1 << Family)
    std::optional<RuleError> (*set)(Ruleset&, std::string_view value);
    std::string (*get)(const Ruleset&);
};

std::span<const OptionInfo> option_table();
const OptionInfo* find_option(std::string_view name);
inline bool option_applies(const OptionInfo& o, Family f) {
    return (o.families >> static_cast<int>(f)) & 1;
}

}  // namespace sparts
