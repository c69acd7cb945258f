// How a bot reads the table: what it holds, what is still out, who plays with
// it, what it must take, and where the trick on the table stands. Built from
// the seat's view and memory only (bot.hpp); shared by the basic bot's
// passing, bidding and play.
#pragma once

#include <cstdint>

#include "bots/bot_memory.hpp"
#include "engine/joker_deck.hpp"
#include "engine/view.hpp"

namespace sparts::bot {

// What a captured card is worth to its taker in this kind of hand:
// Hearts hands (seed 000): -2 a heart, -26 the queen of spades.
// Sparts hands (seeds 001, 002): -1 a heart, -10 the 10 of hearts (-1 with the
// option), -13 the queen of spades, +10 the jack of diamonds. Spades: 0.
int card_points(Card card, HandKind kind, const Ruleset& rules);

// Rank helpers that skip jokers (a joker's rank bits are not a rank).
Card lowest(CardSet cards);
Card highest(CardSet cards);
CardSet without_jokers(CardSet cards);
int suit_length(CardSet cards, Suit suit);

struct Reading {
    const SeatView& view;
    const BotMemory& memory;
    const Ruleset& rules;
    Seat me;
    int seats;
    HandKind kind;
    JokerDeck jd;            // Joker Spades: jokers and raised deuces are spades (joker_deck.hpp)
    bool trump;              // spades are trump this hand
    CardSet hand;
    CardSet unseen;          // in play, not in my hand, not played, not my center cards
    std::uint16_t team;      // seats whose results combine with mine this hand (me included)
    int tricks_left;         // the trick being played included

    Reading(const SeatView& v, const BotMemory& m);

    bool partner(Seat s) const { return s != me && ((team >> s) & 1); }
    // Cards as they play: a Spartsel joker is wild (no suit); in Joker Spades the
    // jokers and raised deuces are the highest spades. Without a joker deck these
    // are the printed suit and rank.
    bool wild(Card c) const { return c.is_joker() && jd == JokerDeck::none; }
    Suit suit_of(Card c) const { return suit_in_play(jd, c); }
    int rank_of(Card c) const { return strength(jd, c); }
    bool spade(Card c) const { return !wild(c) && suit_of(c) == Suit::spades; }
    CardSet in_suit(CardSet cards, Suit suit) const { return cards_of_suit(jd, cards, suit); }
    int points(Card c) const { return card_points(c, kind, rules); }
    // Unseen cards of `card`'s suit in play ranked above it.
    CardSet higher_out(Card card) const;
    // True when `seat` may still hold a card of `suit` (it showed no void, and one is out).
    bool may_hold(Seat seat, Suit suit) const;
    // A rough chance that `seat` holds at least one of `cards` (cards it is known to
    // hold count for certain; a shown void in their suit rules them out).
    double holds_any(Seat seat, CardSet cards) const;
};

// The trick on the table, from the seat about to play.
struct TrickRead {
    int count = 0;             // cards already played
    Card lead;                 // when count > 0
    bool joker_led = false;
    Seat winner = kNoSeat;     // who takes it as it stands
    Card winning;
    int points = 0;            // card points already in it
    std::uint16_t later = 0;   // seats to play after me
    bool last() const { return later == 0; }
};
TrickRead read_trick(const Reading& r);

// Would `card`, played now, take the lead of the trick (or win it, led)?
bool takes_lead(const Reading& r, const TrickRead& t, Card card);
// The chance that `card`, played now, wins the trick (0 if it does not take the lead).
double win_chance(const Reading& r, const TrickRead& t, Card card);
// The chance that `card`, leading a trick in `led`, is not beaten by the seats in `later`.
double stands(const Reading& r, Suit led, Card card, std::uint16_t later);

// The contract this seat plays to, this hand.
struct Contract {
    bool bidding = false;   // the hand had bidding
    int bid = 0;            // the side's contract (0 for a nil)
    int taken = 0;          // tricks that count toward it
    bool nil = false;       // I bid nil (Spades hands)
    bool exact = false;     // only an exact make scores (Spartsel column, and a Sparts bid of 0)
    int need() const { return bid - taken; }
};
Contract my_contract(const Reading& r);
// The contract of another seat's side (Spades hands): its non-nil bids and tricks.
Contract side_contract(const Reading& r, Seat seat);
// A seat's bid of nil that has not failed yet (Spades hands).
bool live_nil(const Reading& r, Seat seat);

}  // namespace sparts::bot
