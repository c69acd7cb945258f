#include "protocol/chat_text.hpp"

#include <cstdio>

#include "protocol/unicode_text.hpp"

namespace sparts {

namespace {

std::string code_point_name(long c) {
    char buf[24];  // "U+" and up to 16 hex digits: GCC counts every digit a long may have
    std::snprintf(buf, sizeof buf, "U+%04lX", static_cast<unsigned long>(c));
    return buf;
}

}  // namespace

Outcome<std::string, ChatTextError> chat_text(std::string_view raw) {
    // The span from the first character that is not white space to the last one, in bytes.
    std::size_t begin = raw.size(), end = 0;
    bool shows = false;
    for (std::size_t i = 0; i < raw.size();) {
        const std::size_t from = i;
        const long c = next_code_point(raw, i);
        if (c < 0)
            return ChatTextError{"chat_bad_text", "the text is not valid UTF-8 (at byte " + std::to_string(from) + ")"};
        if (is_control_character(c))
            return ChatTextError{"chat_bad_text", "the text holds the control character " + code_point_name(c) +
                                                      " (line breaks and tabs included): send one line of plain text"};
        if (!is_invisible_character(c)) shows = true;
        if (!is_space_character(c)) {
            if (begin == raw.size()) begin = from;
            end = i;
        }
    }
    // Every space is invisible, so a text that shows has a span.
    if (!shows) return ChatTextError{"chat_empty", "the text shows nothing: say something"};
    const std::string_view said = raw.substr(begin, end - begin);
    std::size_t chars = 0;
    for (std::size_t i = 0; i < said.size(); ++chars) next_code_point(said, i);
    if (chars > kMaxChatLength)
        return ChatTextError{"chat_too_long", "the text has " + std::to_string(chars) + " characters: at most " +
                                                  std::to_string(kMaxChatLength) + " once the spaces at either end are cut"};
    return std::string(said);
}

}  // namespace sparts
