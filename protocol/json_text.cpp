#include "protocol/json_text.hpp"

#include <functional>
#include <string>
#include <vector>

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

// A key that appears twice in one object. JSON parsers disagree on which of
// the two wins (nlohmann keeps the last, others the first), so a message
// that says two things is refused rather than read one way here and another
// way by whatever checked it before.
struct DuplicateKey {
    std::string field;
};

// Keys seen in each open object, and the path to it, while parsing.
class KeyChecker {
public:
    bool operator()(int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        using E = nlohmann::json::parse_event_t;
        switch (event) {
            case E::object_start: levels_.push_back({}); break;
            case E::array_start: levels_.push_back({{}, true, {}}); break;
            case E::object_end:
            case E::array_end:
                if (!levels_.empty()) levels_.pop_back();
                break;
            case E::key: {
                Level& level = levels_.back();
                const std::string& key = parsed.get_ref<const std::string&>();
                for (const std::string& k : level.keys)
                    if (k == key) throw DuplicateKey{path(key)};
                level.keys.push_back(key);
                level.current = key;
                break;
            }
            case E::value: break;
        }
        return true;
    }

private:
    struct Level {
        std::vector<std::string> keys;
        bool array = false;
        std::string current;
    };
    std::string path(const std::string& key) const {
        std::string out;
        for (std::size_t i = 0; i + 1 < levels_.size(); ++i) {
            if (levels_[i].array) out += "[]";
            else out += (out.empty() ? "" : ".") + levels_[i].current;
        }
        return out + (out.empty() ? "" : ".") + key;
    }
    std::vector<Level> levels_;
};

}  // namespace

Parsed<nlohmann::json> parse_json_text(std::string_view text) {
    if (nesting_depth(text) > kMaxJsonDepth)
        return ParseError{"", "invalid JSON: nested deeper than " + std::to_string(kMaxJsonDepth) + " levels"};
    try {
        KeyChecker keys;
        return nlohmann::json::parse(text.begin(), text.end(), std::ref(keys));
    } catch (const DuplicateKey& d) {
        return ParseError{d.field, "this key appears more than once in its object: each key may appear once"};
    } catch (const nlohmann::json::exception& e) {
        // nlohmann's text starts with "[json.exception.parse_error.101] ": keep the part for people.
        std::string what = e.what();
        if (const auto p = what.find("] "); what.starts_with("[json.exception") && p != std::string::npos)
            what.erase(0, p + 2);
        return ParseError{"", "invalid JSON: " + what};
    }
}

}  // namespace sparts
