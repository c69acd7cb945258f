#include "engine/standings.hpp"

#include <algorithm>

namespace sparts {

Standings worldwinner_standings(int score, int opponents, int seconds_left, bool finished_before_time) {
    Standings s;
    s.base = std::clamp(score * 10, 0, 2500);
    s.overpoints = score > opponents ? score - opponents : 0;
    s.victory = score > opponents ? 100 : 0;
    s.time_bonus = finished_before_time ? std::max(seconds_left, 0) : 0;
    return s;
}

std::array<SideStandings, 2> worldwinner_tournament_standings(const GameOver& over,
                                                               std::span<const std::uint16_t> scored_sides,
                                                               std::uint16_t first_partnership, int seats,
                                                               bool clocked, int seconds_left) {
    const bool before_time = clocked && over.reason != GameEndReason::game_clock;
    const auto all = static_cast<std::uint16_t>((1u << seats) - 1);
    std::array<SideStandings, 2> sides{};
    for (std::size_t side = 0; side < 2; ++side) {
        const int score = over.scores[side];
        const std::uint16_t mask = side < scored_sides.size() ? scored_sides[side]
                                   : side == 0                ? first_partnership
                                                              : static_cast<std::uint16_t>(all & ~first_partnership);
        sides[side] = {mask, score, worldwinner_standings(score, over.scores[1 - side], seconds_left, before_time)};
    }
    return sides;
}

}  // namespace sparts
