// Joker Spades: the Big and Little Jokers join the trumps above the ace of
// spades, and two deuces leave the deck so that 52 cards are still dealt
// (seed 003's FAQ; the house variants in docs/RULES.md). A card that "plays as
// a spade" follows, leads, breaks and trumps as one, whatever its face.
//
// With JokerDeck::none every function here is the plain deck's rule, so the
// trick code can ask them unconditionally; Spartsel's wild jokers are not
// trumps and keep their own rule in game.cpp.
#pragma once

#include "engine/card_set.hpp"
#include "engine/ruleset.hpp"

namespace sparts {

inline constexpr Card kBigJoker = Card::joker(0);     // "JK1"
inline constexpr Card kLittleJoker = Card::joker(1);  // "JK2"

// Every card dealt under these rules: the decks and jokers, less the deuces a
// joker deck removes, or the low cards Hearts leaves out at 3, 5 or 6 seats.
CardSet deck_in_play(const Ruleset& rules);

// The cards that play as spades without being spades (the jokers; the 2 of
// diamonds in Joker-Joker-Deuce-Deuce).
constexpr CardSet raised_trumps(JokerDeck deck) {
    if (deck == JokerDeck::none) return {};
    CardSet raised = CardSet::of(kBigJoker) | CardSet::of(kLittleJoker);
    if (deck == JokerDeck::jjdd) raised.insert(Card::of(two, Suit::diamonds));
    return raised;
}

// The suit a card follows and is led as.
constexpr Suit suit_in_play(JokerDeck deck, Card card) {
    return raised_trumps(deck).contains(card) ? Suit::spades : card.suit();
}

// The cards of `cards` that play as `suit`.
constexpr CardSet cards_of_suit(JokerDeck deck, CardSet cards, Suit suit) {
    const CardSet raised = raised_trumps(deck);
    CardSet of = of_suit(cards, suit) & ~raised;
    if (suit == Suit::spades) of |= cards & raised;
    return of;
}

// Order within suit_in_play: the rank, with the raised cards above the ace of
// spades (2 of spades in deuces-high and JJDD, then the 2 of diamonds in JJDD,
// the Little Joker, the Big Joker).
constexpr int strength(JokerDeck deck, Card card) {
    if (deck != JokerDeck::none) {
        if (card == kBigJoker) return 17;
        if (card == kLittleJoker) return 16;
        if (deck == JokerDeck::jjdd && card == Card::of(two, Suit::diamonds)) return 15;
        if (deck != JokerDeck::big_little && card == Card::of(two, Suit::spades)) return 14;
    }
    return card.rank();
}

// The strongest card of `cards` by strength (cards not empty).
Card strongest(JokerDeck deck, CardSet cards);

}  // namespace sparts
