// What a display name may be. Names are shown to every other player, so a
// name must not be able to reorder or hide the text around it: no C0 or C1
// control characters, no bidirectional overrides, embeddings or isolates
// (U+202A–U+202E, U+2066–U+2069, and the marks U+200E, U+200F, U+061C), no
// line or paragraph separators, no leading or trailing white space, and at
// least one character that shows (not only spaces, zero-width characters,
// fillers or variation selectors). 1 to 32 characters of valid UTF-8.
#pragma once
#include <string_view>

namespace sparts {

inline constexpr std::size_t kMaxNameLength = 32;

bool valid_display_name(std::string_view name);

}  // namespace sparts
