// Rule errors: a stable code (its snake_case name is part of the wire protocol)
// and a message for people. The engine reports bad outside input this way and
// changes nothing; exceptions are kept for broken invariants.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace sparts {

enum class ErrorCode : std::uint8_t {
    // actions
    invalid_seat,
    not_your_turn,
    wrong_phase,
    game_over,
    invalid_card,
    card_not_in_hand,
    must_follow_suit,
    must_lead_card,
    must_play_highest_spade,
    hearts_not_broken,
    spades_not_broken,
    no_points_on_first_trick,
    mercy_first_trick,
    bid_out_of_range,
    dealer_cannot_make_total,
    side_bid_too_low,
    cards_face_down,         // blind nil: the seat must show its cards, or bid blind nil, first
    blind_nil_not_allowed,
    pass_wrong_count,
    already_passed,
    invalid_choice,
    no_game_clock,
    // rulesets
    unknown_preset,
    unknown_option,
    option_not_for_ruleset,
    invalid_option_value,
    invalid_deal,
    invalid_stacked_deal,
};

const char* to_string(ErrorCode code);

struct RuleError {
    ErrorCode code;
    std::string message;
};

// A value or the rule error that prevented it.
template <class T>
class Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(RuleError error) : v_(std::move(error)) {}
    explicit operator bool() const { return v_.index() == 0; }
    T& value() { return std::get<0>(v_); }
    const T& value() const { return std::get<0>(v_); }
    const RuleError& error() const { return std::get<1>(v_); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }

private:
    std::variant<T, RuleError> v_;
};

}  // namespace sparts
