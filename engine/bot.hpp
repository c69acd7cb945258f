// Computer players. A bot decides from what its seat may know and nothing else:
//
//   Action decide(BotLevel, const SeatView&, const BotMemory&, Rng&);
//
// takes the seat's view (view_of(game, seat)) and the seat's memory of the
// events as it saw them (bot_memory.hpp), never the Game: there is no way for a
// bot to read another seat's hand, the center or a secret bid. The action
// returned is always one of view.legal.
//
// Levels:
//   random  a uniformly random legal action (random_policy.hpp);
//   basic   fast heuristics from the seed texts' strategy advice and standard
//           Spades and Hearts play, for every decision of every preset
//           (basic_bot.hpp; docs/ENGINE.md lists each heuristic and its source);
//   strong  NOT WRITTEN YET: for now it plays exactly as `basic`.
//
// The same view, memory and generator state give the same decision.
#pragma once

#include <optional>
#include <string_view>

#include "engine/bot_memory.hpp"
#include "engine/rng.hpp"
#include "engine/view.hpp"

namespace sparts {

enum class BotLevel : std::uint8_t { random, basic, strong };
inline constexpr int kBotLevelCount = 3;

const char* to_string(BotLevel level);  // "random", "basic", "strong"
std::optional<BotLevel> parse_bot_level(std::string_view name);

// `view.legal.any` must be true (the seat has something to do).
Action decide(BotLevel level, const SeatView& view, const BotMemory& memory, Rng& rng);

// One seat's bot: a level, a memory and a generator. The table feeds it every
// event (observe redacts for the seat) and asks it to act with the seat's view.
class Bot {
public:
    Bot(BotLevel level, const Ruleset& rules, Seat seat, std::uint64_t seed)
        : level_(level), memory_(rules, seat), rng_(seed, 0x626f74ULL + seat) {}

    void observe(const Event& event) { memory_.observe(event); }
    Action act(const SeatView& view) { return decide(level_, view, memory_, rng_); }

    BotLevel level() const { return level_; }
    Seat seat() const { return memory_.seat(); }
    const BotMemory& memory() const { return memory_; }

private:
    BotLevel level_;
    BotMemory memory_;
    Rng rng_;
};

}  // namespace sparts
