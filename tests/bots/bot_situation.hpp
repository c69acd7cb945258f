// The bots asked in a scripted situation (bot_strategy_test.cpp, hearts_bot_test.cpp):
// a table on a stacked deal, the seat's view, and a memory fed the table's events.
#pragma once

#include <doctest/doctest.h>

#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "bots/bot.hpp"
#include "engine/seed_support.hpp"
#include "engine/view.hpp"

namespace bot_situation {

using namespace sparts;
using namespace seedtest;

inline Action decision(BotLevel level, const Table& t, Seat seat) {
    BotMemory memory(t.game.rules(), seat);
    for (const Event& e : t.log.events) memory.observe(e);
    Rng rng(1, 2);
    const SeatView view = view_of(t.game, seat);
    REQUIRE(view.legal.any);
    // strong: a 20 ms budget, counted (no clock), so the test is the same everywhere.
    BotOptions options;
    options.budget_us = 20'000;
    options.clock_cap = false;
    return decide(level, view, memory, rng, options);
}

// The decisions of the basic and the strong bot, which must both follow the advice.
inline std::vector<std::pair<BotLevel, Action>> decisions(const Table& t, Seat seat) {
    return {{BotLevel::basic, decision(BotLevel::basic, t, seat)}, {BotLevel::strong, decision(BotLevel::strong, t, seat)}};
}

inline Hands hands_with(std::initializer_list<std::pair<int, std::string_view>> cards_by_seat) {
    Hands h{};
    for (const auto& [seat, text] : cards_by_seat) h[static_cast<std::size_t>(seat)] = cards(text);
    return h;
}

}  // namespace bot_situation
