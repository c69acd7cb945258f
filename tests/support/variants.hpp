// The rulesets the random-play harness and the fingerprint cycle through: each
// preset with its options alone and in combination.
#pragma once

#include <string>
#include <vector>

#include "engine/ruleset.hpp"

namespace sparts::testing {

struct Variant {
    std::string preset;
    std::vector<OptionSetting> options;
};

inline std::vector<Variant> variants_of(const std::string& preset) {
    if (preset == "bga-sparts")
        return {{preset, {}},
                {preset, {{"hearts_mode", "traditional"}}},
                {preset, {{"game_length", "400"}}},
                {preset, {{"game_length", "800"}, {"hearts_mode", "traditional"}}}};
    if (preset == "sparts")
        return {{preset, {}}, {preset, {{"seats", "5"}}}, {preset, {{"seats", "6"}}},
                {preset, {{"seats", "4"}, {"hands", "8"}}},
                {preset, {{"seats", "6"}, {"mooning", "true"}, {"center_cards", "first-trick"}}},
                {preset, {{"multi_pass", "back"}}}};
    if (preset == "spartsel")
        return {{preset, {}},
                {preset, {{"seats", "2"}}},
                {preset, {{"seats", "3"}, {"scoring", "sparts"}}},
                {preset, {{"seats", "4"}, {"jokers", "2"}}},
                {preset, {{"seats", "5"}, {"jokers", "3"}}},
                {preset, {{"seats", "6"}, {"scoring", "sparts"}}},
                {preset, {{"seats", "7"}, {"decks", "2"}, {"jokers", "4"}}},
                {preset, {{"seats", "8"}, {"decks", "2"}, {"jokers", "4"}}},
                {preset, {{"seats", "9"}, {"decks", "2"}}},
                {preset, {{"seats", "10"}, {"decks", "2"}, {"jokers", "3"}}},
                {preset, {{"target_score", "150"}, {"hands", "0"}, {"hand_cap", "30"}}},
                {preset, {{"mooning", "true"}, {"ten_of_hearts_minus_one", "true"}, {"secret_bids", "true"}}},
                {preset, {{"seats", "7"}, {"secret_bids", "true"}, {"scoring", "sparts"}, {"multi_pass", "back"}}},
                {preset, {{"seats", "5"}, {"multi_pass", "both-ways"}}},
                {preset, {{"seats", "10"}, {"decks", "2"}, {"jokers", "3"}, {"multi_pass", "both-ways"}, {"secret_bids", "true"}}},
                {preset, {{"seats", "5"}, {"mercy", "true"}, {"center_cards", "first-trick"}}},
                {preset, {{"seats", "9"}, {"decks", "2"}, {"jokers", "2"}, {"mooning", "true"}, {"mercy", "true"}}},
                {preset, {{"seats", "2"}, {"mercy", "true"}, {"ten_of_hearts_minus_one", "true"}, {"game_clock", "600"}}},
                {preset, {{"seats", "6"}, {"partners", "regular"}, {"teams", "3"}, {"reverse_partners", "true"}}},
                {preset, {{"seats", "8"}, {"decks", "2"}, {"partners", "regular"}, {"teams", "2"}, {"secret_bids", "true"}}},
                {preset, {{"seats", "5"}, {"partners", "rotating"}, {"partner_plan", "2,0,2"}, {"multi_pass", "back"}}},
                {preset, {{"seats", "7"}, {"partners", "rotating"}, {"partner_plan", "3,2"}, {"mooning", "true"}}},
                {preset, {{"seats", "5"}, {"partners", "progressive"}, {"reverse_partners", "true"}, {"ten_of_hearts_minus_one", "true"}}},
                {preset, {{"seats", "3"}, {"partners", "progressive"}, {"scoring", "sparts"}}},
                {preset, {{"seats", "6"}, {"partners", "progressive"}, {"progressive_rotated", "true"}, {"reverse_partners", "true"}}},
                {preset, {{"mooning", "true"}}},
                {preset, {{"secret_bids", "true"}}},
                {preset, {{"reverse_partners", "true"}}},
                {preset, {{"center_cards", "first-trick"}}},
                {preset, {{"mercy", "true"}}},
                {preset, {{"ten_of_hearts_minus_one", "true"}}},
                {preset, {{"partners", "regular"}}},
                {preset, {{"partners", "rotating"}}},
                {preset, {{"partners", "progressive"}}},
                {preset, {{"game_clock", "600"}}},
                {preset, {{"seats", "8"}, {"hand_size", "6"}, {"jokers", "1"}}}};
    if (preset == "spades")
        return {{preset, {}},
                {preset, {{"target_score", "250"}}},
                {preset, {{"sandbag_penalty", "5"}, {"mercy_rule", "true"}}},
                {preset, {{"sandbag_penalty", "off"}}},
                {preset, {{"game_clock", "600"}}},
                {preset, {{"joker_deck", "big-little"}, {"big_joker_forces_highest", "true"}}},
                {preset, {{"joker_deck", "jjdd"}}},
                {preset, {{"joker_deck", "deuces-high"}, {"sandbag_penalty", "5"}}},
                {preset, {{"min_bid", "2"}, {"min_side_bid", "4"}, {"ten_for_two_hundred", "true"}, {"all_thirteen_bonus", "100"}}},
                {preset, {{"failed_nil_tricks", "bags"}, {"spades_led_any_time", "true"}, {"joker_deck", "big-little"}}},
                {preset, {{"bid_style", "suicide"}}},
                {preset, {{"bid_style", "whiz"}, {"joker_deck", "jjdd"}}},
                {preset, {{"bid_style", "mirror"}, {"min_bid", "2"}}},
                {preset, {{"nil_pass", "2"}, {"joker_deck", "jjdd"}}},
                {preset, {{"nil_pass", "3"}, {"bid_style", "suicide"}}},
                {preset, {{"blind_nil", "0"}}},
                {preset, {{"blind_nil", "100"}, {"nil_pass", "2"}, {"joker_deck", "big-little"}}}};
    if (preset == "hearts")
        return {{preset, {}},
                {preset, {{"seats", "3"}}},
                {preset, {{"seats", "5"}}},
                {preset, {{"seats", "6"}}},
                {preset, {{"jack_of_diamonds", "true"}, {"queen_breaks_hearts", "true"}}},
                {preset, {{"points_on_first_trick", "true"}, {"moon_scoring", "subtract"}}},
                {preset, {{"moon_scoring", "best"}, {"shoot_the_sun", "true"}}},
                {preset, {{"pass_rotation", "left-right"}, {"pass_count", "4"}}},
                {preset, {{"pass_rotation", "none"}, {"target_score", "50"}}},
                {preset, {{"partnership", "across"}}},
                {preset, {{"seats", "6"}, {"partnership", "across"}, {"shoot_the_sun", "true"}, {"pass_rotation", "across"}}},
                {preset, {{"seats", "5"}, {"pass_rotation", "right"}, {"pass_count", "1"}, {"jack_of_diamonds", "true"}}},
                {preset, {{"seats", "3"}, {"pass_rotation", "left"}, {"moon_scoring", "best"}, {"points_on_first_trick", "true"}}},
                {preset, {{"moon_scoring", "choose"}}},
                {preset, {{"partnership", "across"}, {"moon_scoring", "choose"}, {"shoot_the_sun", "true"}}}};
    return {{preset, {}},
            {preset, {{"sandbag_penalty", "10"}}},
            {preset, {{"target_score", "500"}, {"nil_value", "100"}}},
            {preset, {{"joker_deck", "jjdd"}, {"big_joker_forces_highest", "true"}}},
            {preset, {{"failed_nil_tricks", "partner"}, {"min_side_bid", "5"}}},
            {preset, {{"blind_nil", "50"}, {"min_side_bid", "4"}}}};
}

}  // namespace sparts::testing
