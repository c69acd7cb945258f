// Cards as one byte each, for one or two 52-card decks and up to four jokers.
//
// A card's id is copy * 64 + suit * 16 + rank, so that each suit of each deck
// is a contiguous run of 13 bits in a CardSet (see card_set.hpp). The four
// jokers take the spare slot 15 of each suit run of the first deck.
// Rank order within a suit: 2 low .. ace high (all five seed texts agree).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sparts {

enum class Suit : std::uint8_t { clubs = 0, diamonds = 1, hearts = 2, spades = 3 };
inline constexpr int kSuitCount = 4;
inline constexpr int kRankCount = 13;  // 2..A
inline constexpr int kMaxDecks = 2;
inline constexpr int kMaxJokers = 4;

// Rank index: 0 = two .. 8 = ten, 9 = jack, 10 = queen, 11 = king, 12 = ace.
enum Rank : std::uint8_t {
    two = 0, three, four, five, six, seven, eight, nine, ten, jack, queen, king, ace
};

class Card {
public:
    constexpr Card() = default;
    static constexpr Card of(Rank rank, Suit suit, int copy = 0) {
        return Card(static_cast<std::uint8_t>(copy * 64 + static_cast<int>(suit) * 16 + rank));
    }
    static constexpr Card joker(int index) {  // index 0..3
        return Card(static_cast<std::uint8_t>(index * 16 + 15));
    }
    static constexpr Card from_id(std::uint8_t id) { return Card(id); }

    constexpr std::uint8_t id() const { return id_; }
    constexpr bool is_joker() const { return (id_ & 15) == 15; }
    constexpr Suit suit() const { return static_cast<Suit>((id_ >> 4) & 3); }
    constexpr Rank rank() const { return static_cast<Rank>(id_ & 15); }
    constexpr int copy() const { return id_ >> 6; }
    constexpr int joker_index() const { return (id_ >> 4) & 3; }
    // The same face in the first deck: two copies of one face are "identical cards".
    constexpr Card face() const { return Card(static_cast<std::uint8_t>(id_ & 63)); }
    constexpr bool valid() const { return id_ < 128 && ((id_ & 15) < 13 || ((id_ & 15) == 15 && id_ < 64)); }

    friend constexpr bool operator==(Card a, Card b) { return a.id_ == b.id_; }
    friend constexpr auto operator<=>(Card a, Card b) { return a.id_ <=> b.id_; }

private:
    constexpr explicit Card(std::uint8_t id) : id_(id) {}
    std::uint8_t id_ = 0;
};

inline constexpr Card kQueenOfSpades = Card::of(queen, Suit::spades);
inline constexpr Card kTenOfHearts = Card::of(ten, Suit::hearts);
inline constexpr Card kJackOfDiamonds = Card::of(jack, Suit::diamonds);
inline constexpr Card kSevenOfDiamonds = Card::of(seven, Suit::diamonds);
inline constexpr Card kTwoOfClubs = Card::of(two, Suit::clubs);

// Text names: rank then suit, "2C" .. "TH" .. "AS"; a second deck's copy ends
// with an apostrophe ("QS'"); jokers are "JK1" .. "JK4".
std::string to_string(Card card);
std::optional<Card> parse_card(std::string_view text);
std::string_view suit_name(Suit suit);  // "clubs", ...
char suit_letter(Suit suit);            // 'C', ...

}  // namespace sparts
