// A whole game played by bots, one per seat: each bot sees only its own seat's
// events (redacted) and view, exactly as a seat at a real table would. Used by
// the arena (`sparts arena`) and the bot tests.
#pragma once

#include <cstdint>
#include <span>

#include "bots/bot.hpp"
#include "engine/game.hpp"

namespace sparts {

struct BotGameResult {
    GameOver over{};
    std::uint64_t actions = 0;
};

// `rules` must be valid; `levels` holds one level per seat. Bot seat s draws its
// random numbers from the game seed's own stream for s, apart from the deal's.
BotGameResult play_bot_game(const Ruleset& rules, std::uint64_t seed, std::span<const BotLevel> levels);

}  // namespace sparts
