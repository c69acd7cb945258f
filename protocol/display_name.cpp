#include "protocol/display_name.hpp"

#include "protocol/unicode_text.hpp"

namespace sparts {

bool valid_display_name(std::string_view name) {
    if (name.empty() || name.size() > kMaxNameLength * 4) return false;
    std::size_t chars = 0;
    bool shows = false;
    long first = -1, last = -1;
    for (std::size_t i = 0; i < name.size();) {
        const long c = next_code_point(name, i);
        if (c < 0 || is_control_character(c)) return false;
        if (!is_invisible_character(c)) shows = true;
        if (first < 0) first = c;
        last = c;
        ++chars;
    }
    return chars <= kMaxNameLength && shows && !is_space_character(first) && !is_space_character(last);
}

}  // namespace sparts
