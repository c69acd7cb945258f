#include "engine/hand_rules.hpp"

namespace sparts {

int hearts_pass_distance(const Ruleset& r, int hands_played) {
    const int n = r.seats;
    switch (r.pass_rotation) {
        case PassRotation::standard: {
            // Left, right, across, hold; at an odd number of seats there is no across.
            const int even[4] = {1, n - 1, n / 2, 0};
            const int odd[3] = {1, n - 1, 0};
            return n % 2 == 0 ? even[hands_played % 4] : odd[hands_played % 3];
        }
        case PassRotation::left_right: return hands_played % 2 == 0 ? 1 : n - 1;
        case PassRotation::left: return 1;
        case PassRotation::right: return n - 1;
        case PassRotation::across: return n / 2;
        case PassRotation::none: return 0;
    }
    return 0;
}

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
            if (r.family() == Family::hearts) {
                // The hearts preset: no trump; the lowest club in play leads; hearts wait to be broken.
                h.spades_trump = false;
                h.pass_count = static_cast<std::uint8_t>(r.pass_count);
                h.pass_distance = static_cast<std::uint8_t>(hearts_pass_distance(r, hearts_hands_played));
                if (r.pass_rotation == PassRotation::none) h.pass_count = 0;
                h.first_lead = FirstLead::lowest_club;
                h.hearts_restricted = true;
                h.queen_breaks_hearts = r.queen_breaks_hearts;
                h.no_points_first_trick = !r.points_first_trick;
                break;
            }
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
