// The concrete rules of one hand, derived from the Ruleset and the hand's kind
// (a bga-sparts Spades hand and Hearts hand differ in almost everything).
#pragma once

#include <cstdint>

#include "engine/ruleset.hpp"

namespace sparts {

struct HandRules {
    HandKind kind = HandKind::undecided;
    bool spades_trump = true;
    std::uint8_t pass_count = 0;
    std::uint8_t pass_distance = 0;   // seats to the left; 0: no pass
    MultiPass multi_pass = MultiPass::off;  // off on a no-pass hand
    bool bidding = false;
    bool nil_allowed = false;
    std::uint8_t min_bid = 0;         // lowest non-nil bid
    bool dealer_cannot_make_total = false;
    FirstLead first_lead = FirstLead::dealer_left;
    bool hearts_restricted = false;   // hearts may not be led until broken
    bool queen_breaks_hearts = false;
    bool spades_restricted = false;   // spades may not be led until broken
    SpadesBreak spades_break = SpadesBreak::any_spade;
    bool no_points_first_trick = false;  // bga traditional: no heart nor queen of spades on trick 1
    bool mercy_first_trick = false;      // spartsel mercy: no heart nor spade on trick 1
    bool operator==(const HandRules&) const = default;
};

// The hearts preset: seats to the left to pass to after `hands_played` hands (0: hold).
int hearts_pass_distance(const Ruleset& rules, int hands_played);

// `hand` is 1-based; `hearts_hands_played` counts earlier bga Hearts hands.
HandRules hand_rules(const Ruleset& rules, HandKind kind, int hand, int hearts_hands_played);

}  // namespace sparts
