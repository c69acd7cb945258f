// What one seat may do now, as a description rather than a list: passing k of
// 13 cards has hundreds of combinations, so a pass is "any `pass_count` cards of
// `cards`". `contains` is exactly the test `Game::apply` makes.
#pragma once

#include <cstdint>

#include "engine/action.hpp"

namespace sparts {

struct LegalMoves {
    bool any = false;          // false: nothing to do now
    ActionKind kind = ActionKind::play;
    CardSet cards;             // play: the playable cards; pass: the cards to choose from
    int pass_count = 0;
    int back_count = 0;        // pass, multi-pass B: cards to the seat passing to you
    std::uint32_t bids = 0;    // bit n: bid n allowed (0 = nil where nil is allowed)
    bool choose_spades = false;
    bool choose_hearts = false;
    // Blind nil: the seat's cards are face down; it may bid blind nil or show them
    // (then `bids` is empty: it bids once it has seen its cards).
    bool blind_nil = false;
    bool show_cards = false;
    // moon: the shooter's choice; both are always open to it.
    bool moon_add = false;
    bool moon_subtract = false;

    bool contains(const Action& a) const;
    // How many concrete actions there are (passes: the binomial coefficient).
    std::uint64_t count() const;
};

}  // namespace sparts
