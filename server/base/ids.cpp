#include "server/base/ids.hpp"

#include <algorithm>

namespace sparts::server {

bool is_table_id(std::string_view s) {
    return !s.empty() && s.size() <= 32 && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_';
    });
}

bool is_player_id(std::string_view s) {
    return s.size() == 17 && s[0] == 'p' &&
           std::all_of(s.begin() + 1, s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace sparts::server
