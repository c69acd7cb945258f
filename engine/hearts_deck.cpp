#include "engine/hearts_deck.hpp"

namespace sparts {

CardSet hearts_removed(int seats) {
    auto of = [](Rank rank, Suit suit) { return CardSet::of(Card::of(rank, suit)); };
    switch (seats) {
        // "in a three-player game, the 2 of diamonds should be removed ... in a five-player
        // game, the 2 of diamonds and 2 of clubs" (the 3 of clubs leads then).
        case 3: return of(two, Suit::diamonds);
        case 5: return of(two, Suit::diamonds) | of(two, Suit::clubs);
        // "remove the three and four of clubs and the two and three of diamonds".
        case 6: return of(three, Suit::clubs) | of(four, Suit::clubs) | of(two, Suit::diamonds) | of(three, Suit::diamonds);
        default: return {};
    }
}

}  // namespace sparts
