#include "protocol/display_name.hpp"

#include <vector>
#include "protocol/unicode_text.hpp"

namespace sparts {

bool valid_display_name(std::string_view name) {
    if (name.empty() || name.size() > kMaxNameLength * 4) return false;
    std::vector<long> cs;
    for (std::size_t i = 0; i < name.size();) {
        const long c = next_code_point(name, i);
        if (c < 0 || is_control_character(c)) return false;
        cs.push_back(c);
    }
    if (cs.size() > kMaxNameLength || is_space_character(cs.front()) || is_space_character(cs.back())) return false;
    bool shows = false;
    for (std::size_t k = 0; k < cs.size(); ++k) {
        const long c = cs[k];
        if (!is_invisible_character(c)) {
            shows = true;
            continue;
        }
        // A name is read by people deciding who they play: nothing in it may hide. A plain space
        // between words, a variation selector after a pictograph ("❤️") and a zero-width joiner
        // inside an emoji sequence ("👩‍💻") are the invisible characters a name may hold; any
        // other ("\u200bAdmin", "Ad\u200dmin") would make a name that looks like another's.
        const long before = k > 0 ? cs[k - 1] : -1;
        const long after = k + 1 < cs.size() ? cs[k + 1] : -1;
        if (c == 0x20 && before != 0x20) continue;
        if (c >= 0xFE00 && c <= 0xFE0F && before >= 0 && is_emoji_character(before)) continue;
        const bool emoji_before = before == 0xFE0F ? k > 1 && is_emoji_character(cs[k - 2]) : is_emoji_character(before);
        if (c == 0x200D && before >= 0 && after >= 0 && emoji_before && is_emoji_character(after)) continue;
        return false;
    }
    return shows;
}

}  // namespace sparts
