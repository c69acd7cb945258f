#include "engine/rule_error.hpp"

namespace sparts {

const char* to_string(ErrorCode code) {
    switch (code) {
        case ErrorCode::invalid_seat: return "invalid_seat";
        case ErrorCode::not_your_turn: return "not_your_turn";
        case ErrorCode::wrong_phase: return "wrong_phase";
        case ErrorCode::game_over: return "game_over";
        case ErrorCode::invalid_card: return "invalid_card";
        case ErrorCode::card_not_in_hand: return "card_not_in_hand";
        case ErrorCode::must_follow_suit: return "must_follow_suit";
        case ErrorCode::must_lead_card: return "must_lead_card";
        case ErrorCode::hearts_not_broken: return "hearts_not_broken";
        case ErrorCode::spades_not_broken: return "spades_not_broken";
        case ErrorCode::side_bid_too_low: return "side_bid_too_low";
        case ErrorCode::cards_face_down: return "cards_face_down";
        case ErrorCode::blind_nil_not_allowed: return "blind_nil_not_allowed";
        case ErrorCode::must_play_highest_spade: return "must_play_highest_spade";
        case ErrorCode::no_points_on_first_trick: return "no_points_on_first_trick";
        case ErrorCode::mercy_first_trick: return "mercy_first_trick";
        case ErrorCode::bid_out_of_range: return "bid_out_of_range";
        case ErrorCode::dealer_cannot_make_total: return "dealer_cannot_make_total";
        case ErrorCode::pass_wrong_count: return "pass_wrong_count";
        case ErrorCode::already_passed: return "already_passed";
        case ErrorCode::invalid_choice: return "invalid_choice";
        case ErrorCode::no_game_clock: return "no_game_clock";
        case ErrorCode::unknown_preset: return "unknown_preset";
        case ErrorCode::unknown_option: return "unknown_option";
        case ErrorCode::option_not_for_ruleset: return "option_not_for_ruleset";
        case ErrorCode::invalid_option_value: return "invalid_option_value";
        case ErrorCode::invalid_deal: return "invalid_deal";
        case ErrorCode::invalid_stacked_deal: return "invalid_stacked_deal";
    }
    return "unknown_error";
}

}  // namespace sparts
