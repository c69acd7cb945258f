// WorldWinner's tournament standings score (seed 004, "Tournament Standings
// Scoring"): base = clamp(score x 10, 0, 2500); + overpoints (score minus the
// opponents' when ahead); + 100 for the victory; + the whole seconds left on
// the clock when the game finished before time. The seed's Example 2 writes
// 130 x 10 = 1300 and then uses 1800: the formula gives 1800 + 105 = 1905.
// RULINGS.md: equal scores at the clock give no victory bonus to either team.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include "engine/event.hpp"

namespace sparts {

struct Standings {
    int base;
    int overpoints;
    int victory;
    int time_bonus;
    int total() const { return base + overpoints + victory + time_bonus; }
};

Standings worldwinner_standings(int score, int opponents, int seconds_left, bool finished_before_time);

// One of the two sides of a finished WorldWinner game, as its tournament standings list it.
struct SideStandings {
    std::uint16_t seats;  // bit mask
    int score;
    Standings standings;
};
// Both sides' standings at `over`. The sides are those the last scored hand listed
// (`scored_sides`, its SideScore masks in side order); before any hand was scored, the
// partnership of seat 0 (`first_partnership`) and the other seats. `seconds_left` is the
// game clock's whole seconds; it counts only in a clocked game that ended before time.
std::array<SideStandings, 2> worldwinner_tournament_standings(const GameOver& over,
                                                               std::span<const std::uint16_t> scored_sides,
                                                               std::uint16_t first_partnership, int seats,
                                                               bool clocked, int seconds_left);

}  // namespace sparts
