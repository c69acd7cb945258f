// Fuzz target: the text people type for others to read: display names
// (protocol/display_name.hpp, hello's name) and table chat
// (protocol/chat_text.hpp). The input is the text itself.
//   - an accepted name is valid UTF-8 of 1 to 32 code points, with no control
//     character, no space at either end, something that shows, and no
//     invisible character but a single space between words, a variation
//     selector after a pictograph and a zero-width joiner between two;
//   - accepted chat is a piece of the input with no space at either end, 1 to
//     300 code points, no control character, something that shows; a refusal
//     has one of the chat codes and a message.
// Any violation aborts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/chat_text.hpp"
#include "protocol/display_name.hpp"
#include "protocol/unicode_text.hpp"

using namespace sparts;

namespace {

[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
    std::fprintf(stderr, "display_text fuzz target: %s: %.*s\n", what, static_cast<int>(detail.size()), detail.data());
    std::abort();
}

// The code points of valid UTF-8, or nothing for bytes that are not.
bool decode(std::string_view text, std::vector<long>& out) {
    for (std::size_t i = 0; i < text.size();) {
        const long c = next_code_point(text, i);
        if (c < 0) return false;
        out.push_back(c);
    }
    return true;
}

void check_name(std::string_view name) {
    std::vector<long> cs;
    if (!decode(name, cs)) fail("a name that is not UTF-8 was accepted", name);
    if (cs.empty() || cs.size() > kMaxNameLength) fail("a name of the wrong length was accepted", name);
    if (is_space_character(cs.front()) || is_space_character(cs.back())) fail("a name with a space at an end", name);
    bool shows = false;
    for (std::size_t k = 0; k < cs.size(); ++k) {
        const long c = cs[k];
        if (is_control_character(c)) fail("a name with a control character", name);
        if (!is_invisible_character(c)) {
            shows = true;
            continue;
        }
        const long before = k > 0 ? cs[k - 1] : -1;
        const long after = k + 1 < cs.size() ? cs[k + 1] : -1;
        const bool space = c == 0x20 && before != 0x20;
        const bool selector = c >= 0xFE00 && c <= 0xFE0F && before >= 0 && is_emoji_character(before);
        const bool joiner = c == 0x200D && after >= 0 && is_emoji_character(after) &&
                            (is_emoji_character(before) || (before == 0xFE0F && k > 1 && is_emoji_character(cs[k - 2])));
        if (!space && !selector && !joiner) fail("a name with a hidden character", name);
    }
    if (!shows) fail("a name that shows nothing", name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (valid_display_name(text)) check_name(text);
    const auto chat = chat_text(text);
    if (!chat) {
        const std::string& code = chat.error().code;
        if (code != "chat_bad_text" && code != "chat_empty" && code != "chat_too_long") fail("an unknown chat code", code);
        if (chat.error().message.empty()) fail("a chat refusal without a message");
        return 0;
    }
    const std::string& said = *chat;
    if (text.find(said) == std::string_view::npos) fail("chat text that is not a piece of what was sent", said);
    std::vector<long> cs;
    if (!decode(said, cs) || cs.empty() || cs.size() > kMaxChatLength) fail("chat of the wrong length or not UTF-8", said);
    if (is_space_character(cs.front()) || is_space_character(cs.back())) fail("chat with a space at an end", said);
    bool shows = false;
    for (const long c : cs) {
        if (is_control_character(c)) fail("chat with a control character", said);
        if (!is_invisible_character(c)) shows = true;
    }
    if (!shows) fail("chat that shows nothing", said);
    return 0;
}
