// Reading text that people type and others see (display names, table chat):
// UTF-8 decoded strictly, and the classes of characters that must not reach
// another player's screen (controls that reorder or hide the text around them)
// or that show nothing by themselves.
#pragma once
#include <cstddef>
#include <string_view>

namespace sparts {

// The code point of valid UTF-8 at `i`, advancing `i` past it; or -1 (and `i`
// unchanged) when the bytes there are not UTF-8 (overlong forms, surrogates and
// code points past U+10FFFF included).
long next_code_point(std::string_view s, std::size_t& i);

// C0 and C1 controls and DEL, bidirectional embeddings, overrides, isolates and
// marks, line and paragraph separators, interlinear annotation controls.
bool is_control_character(long c);

// Shows nothing by itself: spaces, zero-width characters, fillers, variation
// selectors, tags, the blank Braille pattern, format characters (Cf).
bool is_invisible_character(long c);

// A pictograph that emoji sequences join (the zero-width joiner between two of
// them, a variation selector after one): for names, which allow those alone.
bool is_emoji_character(long c);

// White space that may start or end a text without meaning anything.
bool is_space_character(long c);

}  // namespace sparts
