#include "engine/spades_scoring.hpp"

namespace sparts {

SpadesSideResult score_spades_side(std::span<const SpadesBidder> side, const SpadesScoring& rules) {
    SpadesSideResult r;
    int nil_tricks = 0;
    for (const auto& b : side) {
        if (b.nil) {
            ++r.nils;
            nil_tricks += b.tricks;
            // A blind nil (docs/RULES.md blind_nil) is worth twice a nil, made or failed.
            const ScoreComponent line = b.blind ? ScoreComponent::blind_nil : ScoreComponent::nil;
            const int value = b.blind ? 2 * rules.nil_value : rules.nil_value;
            if (b.tricks == 0) {
                ++r.nils_made;
                add(r.sheet, line, value);
            } else {
                add(r.sheet, line, -value);
            }
        } else {
            r.contract += b.bid;
            r.counted_tricks += b.tricks;
        }
    }
    if (rules.nil_tricks_count_for_partner) r.counted_tricks += nil_tricks;
    if (r.counted_tricks >= r.contract) {
        r.overtricks = r.counted_tricks - r.contract;
        // 10-for-200 (docs/RULES.md): a made contract of 10 or more is worth 200.
        const bool big = rules.ten_for_two_hundred && r.contract >= 10;
        add(r.sheet, ScoreComponent::contract, big ? 200 : rules.trick_value * r.contract);
        add(r.sheet, ScoreComponent::overtricks, r.overtricks);
        if (rules.all_thirteen_bonus > 0 && r.contract == 13) add(r.sheet, ScoreComponent::all_thirteen, rules.all_thirteen_bonus);
    } else {
        add(r.sheet, ScoreComponent::set, -rules.trick_value * r.contract);
    }
    r.bags = r.overtricks + (!rules.nil_tricks_count_for_partner && rules.failed_nil_bags ? nil_tricks : 0);
    return r;
}

}  // namespace sparts
