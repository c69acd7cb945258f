#include "engine/joker_deck.hpp"

#include "engine/hearts_deck.hpp"

namespace sparts {

namespace {

constexpr Card kTwoOfDiamonds = Card::of(two, Suit::diamonds);
constexpr Card kTwoOfHearts = Card::of(two, Suit::hearts);

CardSet removed_deuces(JokerDeck deck) {
    switch (deck) {
        case JokerDeck::none: return {};
        // Seed 003: "except the 2 of diamonds and the 2 of hearts which will be replaced by the two joker cards".
        case JokerDeck::big_little:
        case JokerDeck::deuces_high: return CardSet::of(kTwoOfDiamonds) | CardSet::of(kTwoOfHearts);
        // The 2 of diamonds is a trump in JJDD, so the 2 of hearts and the 2 of clubs go.
        case JokerDeck::jjdd: return CardSet::of(kTwoOfHearts) | CardSet::of(kTwoOfClubs);
    }
    return {};
}

}  // namespace

CardSet deck_in_play(const Ruleset& rules) {
    if (rules.preset == Preset::hearts) return CardSet::deck(1, 0) & ~hearts_removed(rules.seats);
    if (rules.joker_deck == JokerDeck::none) return CardSet::deck(rules.decks, rules.jokers);
    return (CardSet::deck(1, 0) & ~removed_deuces(rules.joker_deck)) | CardSet::of(kBigJoker) |
           CardSet::of(kLittleJoker);
}

Card strongest(JokerDeck deck, CardSet cards) {
    Card best = cards.first();
    for (Card c : cards)
        if (strength(deck, c) > strength(deck, best)) best = c;
    return best;
}

}  // namespace sparts
