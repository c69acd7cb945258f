#include "engine/hand_rules.hpp"

namespace sparts {

HandRules hand_rules(const Ruleset& r, HandKind kind, int hand, int hearts_hands_played) {
    HandRules h;
    h.kind = kind;
    switch (kind) {
        case HandKind::spades:
            // Seeds 000, 003, 004: bid, then play; spades trump and may not be led until broken.
            h.bidding = true;
            h.nil_allowed = r.nil_allowed;
            h.min_bid = static_cast<std::uint8_t>(r.min_bid);
            h.first_lead = r.spades_first_lead;
            h.spades_restricted = !r.spades_any_time;
            h.spades_break = r.spades_break;
            break;
        case HandKind::hearts: {
            // Seed 000: no trump; pass left, right, across, hold by the count of Hearts hands.
            h.spades_trump = false;
            h.pass_count = static_cast<std::uint8_t>(r.pass_count);
            const int cycle[4] = {1, r.seats - 1, r.seats / 2, 0};
            h.pass_distance = static_cast<std::uint8_t>(cycle[hearts_hands_played % 4]);
            const bool traditional = r.hearts_mode == HeartsMode::traditional;
            h.first_lead = traditional ? FirstLead::lowest_club : FirstLead::dealer_left;
            h.hearts_restricted = true;
            h.queen_breaks_hearts = !traditional;
            h.no_points_first_trick = traditional;
            break;
        }
        case HandKind::sparts: {
            // Seeds 001, 002: pass 3 at a growing distance (the hand that would pass to
            // yourself is a no-pass hand), bid, the lowest club leads; spades always trump.
            h.pass_count = static_cast<std::uint8_t>(r.pass_count);
            const int distance = (hand - 1) % r.seats + 1;
            h.pass_distance = static_cast<std::uint8_t>(distance == r.seats ? 0 : distance);
            // RULINGS.md: "A no-pass hand has no multi-pass either."
            h.multi_pass = h.pass_distance ? r.multi_pass : MultiPass::off;
            h.bidding = true;
            h.dealer_cannot_make_total = r.scoring_column == ScoringColumn::spartsel;
            h.first_lead = FirstLead::lowest_club;
            h.hearts_restricted = true;
            h.queen_breaks_hearts = r.queen_breaks_hearts;
            h.mercy_first_trick = r.first_trick_mercy;
            break;
        }
        case HandKind::undecided: break;
    }
    return h;
}

}  // namespace sparts
