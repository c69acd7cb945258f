#include <doctest/doctest.h>

#include "engine/card_set.hpp"

using namespace sparts;

TEST_CASE("card names round-trip for both decks and the jokers") {
    const CardSet all = CardSet::deck(2, 4);
    CHECK(all.size() == 108);
    for (Card c : all) {
        const auto parsed = parse_card(to_string(c));
        REQUIRE(parsed.has_value());
        CHECK(*parsed == c);
    }
    CHECK(to_string(Card::of(queen, Suit::spades)) == "QS");
    CHECK(to_string(Card::of(ten, Suit::hearts, 1)) == "TH'");
    CHECK(to_string(Card::joker(3)) == "JK4");
    CHECK_FALSE(parse_card("1S").has_value());
    CHECK_FALSE(parse_card("QX").has_value());
    CHECK_FALSE(parse_card("JK5").has_value());
    CHECK_FALSE(parse_card("").has_value());
}

TEST_CASE("suit masks exclude jokers and cover both decks") {
    const CardSet all = CardSet::deck(2, 4);
    for (int s = 0; s < 4; ++s) CHECK(of_suit(all, static_cast<Suit>(s)).size() == 26);
    CHECK((all & CardSet::jokers()).size() == 4);
    CHECK(CardSet::deck(1, 0).size() == 52);
    CHECK(CardSet::deck(1, 2).size() == 54);
}

TEST_CASE("nth and iteration agree") {
    const CardSet all = CardSet::deck(2, 3);
    int i = 0;
    for (Card c : all) CHECK(all.nth(i++) == c);
    CHECK(i == all.size());
}
