// A whole game played by the engine's random policy at every seat, written
// down as a game record: the simulations' unit of work and the source of the
// example records.
#pragma once

#include <cstdint>

#include "engine/game.hpp"
#include "engine/rng.hpp"
#include "protocol/game_record.hpp"

namespace sparts::cli {

// The players' random choices get their own stream of the game seed, apart
// from the engine's (0 for the first dealer, the hand number for each deal),
// so that a game is reproducible from its seed alone.
inline constexpr std::uint64_t kPlayerStream = 0x706c6179657273ULL;  // "players"

// The seat that acts next: the lowest seat the game waits for, or kNoSeat.
Seat next_seat(const Game& game);

struct PlayedGame {
    GameRecord record;
    GameOver over{};
    std::size_t events = 0;
};

// `rules` must be valid (make_ruleset's output).
PlayedGame play_random_game(const Ruleset& rules, std::uint64_t seed);

}  // namespace sparts::cli
