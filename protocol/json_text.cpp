#include "protocol/json_text.hpp"

namespace sparts {

namespace {

// The deepest nesting of arrays and objects, brackets inside strings aside.
// Stops counting once past the limit.
int nesting_depth(std::string_view text) {
    int depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > deepest) deepest = depth;
            if (deepest > kMaxJsonDepth) return deepest;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

}  // namespace

Parsed<nlohmann::json> parse_json_text(std::string_view text) {
    if (nesting_depth(text) > kMaxJsonDepth)
        return ParseError{"", "invalid JSON: nested deeper than " + std::to_string(kMaxJsonDepth) + " levels"};
    try {
        return nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& e) {
        // nlohmann's text starts with "[json.exception.parse_error.101] ": keep the part for people.
        std::string what = e.what();
        if (const auto p = what.find("] "); what.starts_with("[json.exception") && p != std::string::npos)
            what.erase(0, p + 2);
        return ParseError{"", "invalid JSON: " + what};
    }
}

}  // namespace sparts
