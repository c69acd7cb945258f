// What a hand is worth before play, for the basic bot's choice, passing and
// bidding: an estimate of its tricks with spades as trump, whether it is a nil
// hand, and how dangerous it would be in a Hearts hand.
#pragma once

#include "engine/card_set.hpp"
#include "engine/joker_deck.hpp"
#include "engine/ruleset.hpp"

namespace sparts::bot {

// Expected tricks with spades as trump, for `rules`' table (seats, hand size,
// decks, jokers). Seed 000: "it's safe to bid on aces and kings in off suits";
// "The king, queen, and jack will almost always take tricks if you have other
// spades to support them"; "A "void suit" (no cards) is virtually guaranteed to
// yield two or three tricks using trump". Seed 003: "Bidding 1 for each spade
// beyond three is usually a good idea".
double estimate_tricks(CardSet hand, const Ruleset& rules);

// A Spades hand fit for nil. Seed 000: "if you have mostly low cards (no face
// cards), it might be worth bidding nil. Be careful of a high card like a king
// or ace without a lot of low support cards. Similarly, if you have high
// spades, it may be difficult to avoid taking at least one trick." Seed 003:
// "You could try bidding Nil when you have one or two trump cards in your hand.
// If those trumps are not high-ranked, let's say 2 to 10 ... But if you have
// the Ace of Spades, you are winning at least one trick for sure."
// `alone`: no partner to cover it (bga-sparts), so a stricter test. `jd`: in
// Joker Spades the jokers (and jjdd's 2 of diamonds) are high spades.
bool nil_hand(CardSet hand, bool alone, JokerDeck jd = JokerDeck::none);

// How many penalty-catching cards a hand would hold in a Hearts hand (seed 000:
// the queen of spades without three other spades, the ace and king of spades
// beside it, high hearts, aces and kings).
double hearts_danger(CardSet hand);

}  // namespace sparts::bot
