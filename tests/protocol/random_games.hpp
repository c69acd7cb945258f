// Random games for the protocol tests: every seat plays a random legal move,
// and the game is written down as a record while it is played.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "engine/game.hpp"
#include "engine/random_policy.hpp"
#include "engine/rng.hpp"
#include "protocol/game_record.hpp"

namespace sparts::test {

struct PlayedGame {
    GameRecord record;
    std::vector<Event> events;  // everything the game emitted, in order
};

// Plays until the game is over, or until `max_actions` have been applied.
inline PlayedGame play_random(const Ruleset& rules, std::uint64_t seed, std::size_t max_actions = SIZE_MAX,
                              std::vector<StackedDeal> deals = {}) {
    auto created = Game::create(rules, seed, deals);
    REQUIRE_MESSAGE(created, (created ? "" : created.error().message));
    Game& game = *created;
    Rng rng(seed, 99);
    PlayedGame out;
    out.record.rules = rules;
    out.record.seed = seed;
    out.record.deals = std::move(deals);
    for (const Event& e : game.start()) out.events.push_back(e);
    while (!game.over() && out.record.actions.size() < max_actions) {
        const Seat seat = static_cast<Seat>(std::countr_zero(game.waiting_for()));
        const Action action = random_action(game.legal_moves(seat), rng);
        auto events = game.apply(seat, action);
        REQUIRE(events);
        out.record.actions.push_back({seat, action});
        for (const Event& e : *events) {
            out.events.push_back(e);
            if (const auto* over = std::get_if<GameOver>(&e)) out.record.result = result_of(*over);
        }
    }
    return out;
}

inline Ruleset ruleset(const std::string& preset, std::vector<OptionSetting> options = {}) {
    auto r = make_ruleset(preset, options);
    REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
    return *r;
}

// One ruleset of each preset, a sparts table with a center, and a spartsel
// table with two decks and jokers (cards named "QS'" and "JK1").
inline std::vector<Ruleset> sample_rulesets() {
    return {ruleset("bga-sparts"), ruleset("sparts"), ruleset("sparts", {{"seats", "5"}}),
            ruleset("spartsel", {{"seats", "6"}}),
            ruleset("spartsel", {{"seats", "6"}, {"decks", "2"}, {"jokers", "2"}}),
            ruleset("spartsel", {{"secret_bids", "true"}}), ruleset("spades"), ruleset("worldwinner-spades")};
}

}  // namespace sparts::test
