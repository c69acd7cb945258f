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
//   strong  determinized sampling (strong_bot.hpp): for each card play and bid,
//           deals of the unseen cards consistent with everything the seat has
//           seen, each candidate played out to the end of the hand by `basic`
//           players, the candidate with the best mean score chosen; within a
//           time budget a decision (BotOptions, default 50 ms).
//
// The same view, memory and generator state give the same decision (for
// `strong`: as long as the safety clock of BotOptions does not cut a decision
// short, which on a machine of normal speed it does not; see strong_bot.hpp).
#pragma once

#include <optional>
#include <string_view>

#include "bots/bot_memory.hpp"
#include "engine/rng.hpp"
#include "engine/view.hpp"

namespace sparts {

enum class BotLevel : std::uint8_t { random, basic, strong };
inline constexpr int kBotLevelCount = 3;

const char* to_string(BotLevel level);  // "random", "basic", "strong"
std::optional<BotLevel> parse_bot_level(std::string_view name);

struct BotOptions {
    // `strong`: the time one decision may take. The work done is a number of
    // sampled deals computed from it (so the same on every machine); the clock
    // only stops a decision that would run past it.
    std::uint32_t budget_us = 50'000;
    // false: no clock at all, only the computed work (tests of determinism
    // under sanitizers, where everything runs ten times slower).
    bool clock_cap = true;
};

// `view.legal.any` must be true (the seat has something to do).
Action decide(BotLevel level, const SeatView& view, const BotMemory& memory, Rng& rng,
              const BotOptions& options = {});

// One seat's bot: a level, a memory and a generator. The table feeds it every
// event (observe redacts for the seat) and asks it to act with the seat's view.
class Bot {
public:
    Bot(BotLevel level, const Ruleset& rules, Seat seat, std::uint64_t seed, const BotOptions& options = {})
        : level_(level), options_(options), memory_(rules, seat), rng_(seed, 0x626f74ULL + seat) {}

    void observe(const Event& event) { memory_.observe(event); }
    Action act(const SeatView& view) { return decide(level_, view, memory_, rng_, options_); }

    BotLevel level() const { return level_; }
    Seat seat() const { return memory_.seat(); }
    const BotMemory& memory() const { return memory_; }

private:
    BotLevel level_;
    BotOptions options_;
    BotMemory memory_;
    Rng rng_;
};

}  // namespace sparts
