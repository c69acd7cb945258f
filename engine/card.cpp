#include "engine/card.hpp"

#include "engine/card_set.hpp"

namespace sparts {

namespace {
constexpr char kRankLetters[] = "23456789TJQKA";
constexpr char kSuitLetters[] = "CDHS";
}  // namespace

char suit_letter(Suit suit) { return kSuitLetters[static_cast<int>(suit)]; }

std::string_view suit_name(Suit suit) {
    static constexpr std::string_view names[] = {"clubs", "diamonds", "hearts", "spades"};
    return names[static_cast<int>(suit)];
}

std::string to_string(Card card) {
    if (card.is_joker()) return "JK" + std::to_string(card.joker_index() + 1);
    std::string s{kRankLetters[card.rank()], suit_letter(card.suit())};
    if (card.copy() == 1) s += '\'';
    return s;
}

std::optional<Card> parse_card(std::string_view text) {
    if (text.size() == 3 && text.substr(0, 2) == "JK" && text[2] >= '1' && text[2] <= '4')
        return Card::joker(text[2] - '1');
    int copy = 0;
    if (text.size() == 3 && text[2] == '\'') {
        copy = 1;
        text.remove_suffix(1);
    }
    if (text.size() != 2) return std::nullopt;
    const std::string_view ranks = kRankLetters, suits = kSuitLetters;
    const auto r = ranks.find(text[0]);
    const auto s = suits.find(text[1]);
    if (r == std::string_view::npos || s == std::string_view::npos) return std::nullopt;
    return Card::of(static_cast<Rank>(r), static_cast<Suit>(s), copy);
}

Card CardSet::nth(int n) const {
    std::uint64_t w = lo_;
    int base = 0;
    if (const int c = std::popcount(lo_); n >= c) {
        n -= c;
        w = hi_;
        base = 64;
    }
    for (; n > 0; --n) w &= w - 1;  // drop the n lowest bits
    return Card::from_id(static_cast<std::uint8_t>(base + std::countr_zero(w)));
}

}  // namespace sparts
