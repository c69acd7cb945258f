#include "protocol/unicode_text.hpp"

namespace sparts {

long next_code_point(std::string_view s, std::size_t& i) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    int len = 0;
    long cp = 0;
    if (b0 < 0x80)
        len = 1, cp = b0;
    else if ((b0 & 0xE0) == 0xC0)
        len = 2, cp = b0 & 0x1F;
    else if ((b0 & 0xF0) == 0xE0)
        len = 3, cp = b0 & 0x0F;
    else if ((b0 & 0xF8) == 0xF0)
        len = 4, cp = b0 & 0x07;
    else
        return -1;
    if (i + static_cast<std::size_t>(len) > s.size()) return -1;
    for (int k = 1; k < len; ++k) {
        const auto b = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
        if ((b & 0xC0) != 0x80) return -1;
        cp = (cp << 6) | (b & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    static constexpr long kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return -1;
    i += static_cast<std::size_t>(len);
    return cp;
}

bool is_control_character(long c) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) ||  // C0, DEL, C1
           (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069) ||               // bidi embeddings, overrides, isolates
           c == 0x200E || c == 0x200F || c == 0x061C ||  // bidi marks
           c == 0x2028 || c == 0x2029 ||                 // line and paragraph separators
           (c >= 0xFFF9 && c <= 0xFFFB);                 // interlinear annotation controls
}

bool is_invisible_character(long c) {
    return c == 0x20 || c == 0xA0 || c == 0xAD || c == 0x034F || c == 0x115F || c == 0x1160 ||
           c == 0x17B4 || c == 0x17B5 || c == 0x180E || (c >= 0x2000 && c <= 0x200F) ||
           (c >= 0x202F && c <= 0x202F) || (c >= 0x205F && c <= 0x2064) || c == 0x3000 ||
           c == 0x3164 || c == 0xFEFF || c == 0xFFA0 || (c >= 0xFE00 && c <= 0xFE0F) ||
           (c >= 0xE0000 && c <= 0xE007F) || (c >= 0xE0100 && c <= 0xE01EF) ||
           c == 0x2800 ||  // the blank Braille pattern, a favourite "empty" name
           // Format characters (Unicode's Cf) that show nothing where they stand: the deprecated
           // shaping controls, Mongolian free variation selectors, musical and Egyptian hieroglyph
           // formatting, Arabic and Syriac prepended marks, the shorthand format controls.
           (c >= 0x206A && c <= 0x206F) || (c >= 0x180B && c <= 0x180F) || (c >= 0x1D173 && c <= 0x1D17A) ||
           (c >= 0x13430 && c <= 0x1343F) || (c >= 0x0600 && c <= 0x0605) || c == 0x06DD || c == 0x070F ||
           c == 0x0890 || c == 0x0891 || c == 0x08E2 || c == 0x110BD || c == 0x110CD ||
           (c >= 0x1BCA0 && c <= 0x1BCA3) || (c >= 0xFFF0 && c <= 0xFFF8);
}

bool is_emoji_character(long c) {
    return (c >= 0x1F000 && c <= 0x1FAFF) || (c >= 0x2600 && c <= 0x27BF) || (c >= 0x2300 && c <= 0x23FF) ||
           (c >= 0x2B00 && c <= 0x2BFF) || c == 0x00A9 || c == 0x00AE || c == 0x203C || c == 0x2049 ||
           c == 0x2122 || c == 0x2139 || (c >= 0x2194 && c <= 0x21AA);
}

bool is_space_character(long c) {
    return c == 0x20 || c == 0xA0 || (c >= 0x2000 && c <= 0x200A) || c == 0x3000 || c == 0x202F;
}

}  // namespace sparts
