// Spades contract scoring for one side (a team, or one player in bga-sparts).
//   Seed 003: made = 10 x bid + 1 an overtrick; failed = -10 x bid; nil +/-100 (or 50).
//   Seed 004: nil +/-75, and the nil bidder's tricks do not help the partner.
//   Seed 000: nil +/-50; "If you lose a nil bid, the extra tricks ... are not counted as bags."
//   RULINGS.md: two nils in a spades team: contract 0, each trick +1 and a bag.
#pragma once

#include <span>

#include "engine/score_sheet.hpp"

namespace sparts {

struct SpadesBidder {
    int bid;   // ignored when nil
    bool nil;
    int tricks;
    bool blind = false;  // a blind nil: twice the nil value, on its own line
};

struct SpadesScoring {
    int trick_value = 10;
    int nil_value = 100;
    bool nil_tricks_count_for_partner = true;
    bool failed_nil_bags = false;       // when they do not count: a failed nil's tricks are still bags
    bool ten_for_two_hundred = false;   // a made contract of 10 or more scores 200
    int all_thirteen_bonus = 0;         // a contract of 13, made: this much more
};

struct SpadesSideResult {
    ScoreSheet sheet{};
    int contract = 0;        // sum of the non-nil bids
    int counted_tricks = 0;  // tricks that count toward the contract
    int overtricks = 0;      // tricks over the contract, +1 each
    int bags = 0;            // bags gained, where bags are counted: the overtricks (and failed_nil_bags' tricks)
    int nils = 0;
    int nils_made = 0;
};

SpadesSideResult score_spades_side(std::span<const SpadesBidder> side, const SpadesScoring& rules);

// Bags carried over hands: each time the count reaches the threshold, it is
// penalized once and the threshold comes off the count (RULINGS.md).
struct BagCount {
    int bags_after;
    int times;
};
inline BagCount count_bags(int before, int gained, int threshold) {
    int bags = before + gained, times = 0;
    while (threshold > 0 && bags >= threshold) bags -= threshold, ++times;
    return {bags, times};
}

}  // namespace sparts
