#include "protocol/ruleset_json.hpp"

#include <charconv>
#include <vector>

#include "engine/option.hpp"
#include "protocol/json_fields.hpp"

namespace sparts {

using nlohmann::json;

namespace {
constexpr const char* kOptionValue = "a whole number, true, false or a string";
constexpr const char* kPresets = "a preset name: bga-sparts, sparts, spartsel, spades, worldwinner-spades or hearts";
}  // namespace

Parsed<std::string> option_text(const json& v) {
    if (v.is_boolean()) return std::string(v.get<bool>() ? "true" : "false");
    if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
    if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
    if (v.is_string()) return v.get<std::string>();
    return expected("", kOptionValue, v);
}

json option_value_json(const std::string& text) {
    if (text == "true") return true;
    if (text == "false") return false;
    long long n = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec == std::errc() && p == text.data() + text.size() && !text.empty()) return n;
    return text;
}

json to_json(const Ruleset& rules) {
    const Ruleset defaults = preset_ruleset(rules.preset);
    json options = json::object();
    for (const OptionInfo& o : option_table()) {
        if (!option_applies(o, rules.family())) continue;
        const std::string value = o.get(rules);
        if (value != o.get(defaults)) options[o.name] = option_value_json(value);
    }
    return {{"preset", to_string(rules.preset)}, {"options", std::move(options)}};
}

Parsed<Ruleset> ruleset_from_json(const json& j) {
    if (!j.is_object()) return expected("", "a ruleset object like {\"preset\":\"spades\",\"options\":{}}", j);
    if (auto e = refuse_unknown_members(j, "a ruleset", {"preset", "options"})) return *e;
    const json* preset = member(j, "preset");
    if (!preset) return missing("preset", kPresets);
    if (!preset->is_string()) return expected("preset", kPresets, *preset);

    std::vector<OptionSetting> settings;
    if (const json* options = member(j, "options")) {
        if (!options->is_object())
            return expected("options", "an object of option names and values like {\"target_score\":250}", *options);
        for (const auto& [name, value] : options->items()) {
            auto text = option_text(value);
            if (!text) return inside("options." + name, text.error());
            settings.push_back({name, *text});
        }
    }

    auto rules = make_ruleset(preset->get_ref<const std::string&>(), settings);
    if (rules) return *rules;
    // make_ruleset() is the authority; to name the field at fault, find the
    // first option that it would have refused on its own.
    const RuleError& error = rules.error();
    if (error.code == ErrorCode::unknown_preset) return ParseError{"preset", error.message};
    if (auto p = parse_preset(preset->get_ref<const std::string&>())) {
        Ruleset r = preset_ruleset(*p);
        for (const auto& s : settings)
            if (auto e = set_option(r, s.name, s.value)) return ParseError{"options." + s.name, e->message};
    }
    return ParseError{"options", error.message};
}

}  // namespace sparts
