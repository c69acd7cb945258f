#include "engine/spades_scoring.hpp"

namespace sparts {

SpadesSideResult score_spades_side(std::span<const SpadesBidder> side, const SpadesScoring& rules) {
    SpadesSideResult r;
    int nil_tricks = 0;
    for (const auto& b : side) {
        if (b.nil) {
            ++r.nils;
            nil_tricks += b.tricks;
            if (b.tricks == 0) {
                ++r.nils_made;
                add(r.sheet, ScoreComponent::nil, rules.nil_value);
            } else {
                add(r.sheet, ScoreComponent::nil, -rules.nil_value);
            }
        } else {
            r.contract += b.bid;
            r.counted_tricks += b.tricks;
        }
    }
    if (rules.nil_tricks_count_for_partner) r.counted_tricks += nil_tricks;
    if (r.counted_tricks >= r.contract) {
        r.overtricks = r.counted_tricks - r.contract;
        add(r.sheet, ScoreComponent::contract, rules.trick_value * r.contract);
        add(r.sheet, ScoreComponent::overtricks, r.overtricks);
    } else {
        add(r.sheet, ScoreComponent::set, -rules.trick_value * r.contract);
    }
    return r;
}

}  // namespace sparts
