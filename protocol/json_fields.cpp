#include "protocol/json_fields.hpp"
#include "protocol/json_text.hpp"

namespace sparts {

using nlohmann::json;

std::string describe_value(const json& value) {
    switch (value.type()) {
        case json::value_t::array: return value.empty() ? "an empty array" : "an array";
        case json::value_t::object: return value.empty() ? "an empty object" : "an object";
        case json::value_t::string: {
            const auto& s = value.get_ref<const std::string&>();
            constexpr std::size_t kShown = 40;
            if (s.size() <= kShown) return json(s).dump(-1, ' ', false, json::error_handler_t::replace);
            return json(s.substr(0, kShown)).dump(-1, ' ', false, json::error_handler_t::replace) + "...";
        }
        case json::value_t::discarded: return "nothing";
        default: return dump_text(value);
    }
}

ParseError expected(std::string field, std::string_view what, const json& got) {
    return {std::move(field), "expected " + std::string(what) + ", got " + describe_value(got)};
}

ParseError missing(std::string field, std::string_view what) {
    return {std::move(field), "missing; expected " + std::string(what)};
}

const json* member(const json& object, std::string_view key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

std::optional<ParseError> refuse_unknown_members(const json& object, std::string_view in,
                                                 std::initializer_list<std::string_view> known,
                                                 std::string_view also_known) {
    for (const auto& [key, value] : object.items()) {
        bool ok = key == also_known && !also_known.empty();
        for (std::string_view k : known) ok = ok || key == k;
        if (ok) continue;
        std::string list;
        for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        if (!also_known.empty()) list += ", " + std::string(also_known);
        std::string shown = key.size() <= 40 ? key : key.substr(0, 40) + "...";
        return ParseError{shown, "unknown field in " + std::string(in) + "; expected only " + list};
    }
    return std::nullopt;
}

Parsed<std::int64_t> whole_number(const json& value, std::int64_t lo, std::int64_t hi, std::string_view what) {
    if (value.is_number_unsigned()) {
        const auto n = value.get<std::uint64_t>();
        if (n <= static_cast<std::uint64_t>(hi) && static_cast<std::int64_t>(n) >= lo) return static_cast<std::int64_t>(n);
    } else if (value.is_number_integer()) {
        const auto n = value.get<std::int64_t>();
        if (n >= lo && n <= hi) return n;
    }
    return expected("", what, value);
}

std::string indexed(std::string_view field, std::size_t index) {
    return std::string(field) + "[" + std::to_string(index) + "]";
}

}  // namespace sparts
