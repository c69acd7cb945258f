// What a table chat message may say (PROTOCOL.md, "Table chat"). The text is
// data: the server never reads markup in it, and clients show it as plain
// text. It is refused rather than cleaned, so that what the sender sees of
// their own line is what everyone else sees:
//   - not valid UTF-8                                   chat_bad_text
//   - a control character (C0 — line breaks and tabs included — DEL, C1, bidi
//     controls, line and paragraph separators), which could reorder or hide the
//     lines around it on another player's screen        chat_bad_text
//   - nothing that shows once the white space at either end is cut  chat_empty
//   - over 300 Unicode code points once cut             chat_too_long
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "protocol/outcome.hpp"

namespace sparts {

inline constexpr std::size_t kMaxChatLength = 300;  // code points

struct ChatTextError {
    std::string code;     // chat_bad_text, chat_empty or chat_too_long
    std::string message;  // for people
};

// The text as it is said: `raw` without the white space at either end; or why it is refused.
Outcome<std::string, ChatTextError> chat_text(std::string_view raw);

}  // namespace sparts
