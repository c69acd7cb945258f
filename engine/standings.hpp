// WorldWinner's tournament standings score (seed 004, "Tournament Standings
// Scoring"): base = clamp(score x 10, 0, 2500); + overpoints (score minus the
// opponents' when ahead); + 100 for the victory; + the whole seconds left on
// the clock when the game finished before time. The seed's Example 2 writes
// 130 x 10 = 1300 and then uses 1800: the formula gives 1800 + 105 = 1905.
// RULINGS.md: equal scores at the clock give no victory bonus to either team.
#pragma once

namespace sparts {

struct Standings {
    int base;
    int overpoints;
    int victory;
    int time_bonus;
    int total() const { return base + overpoints + victory + time_bonus; }
};

Standings worldwinner_standings(int score, int opponents, int seconds_left, bool finished_before_time);

}  // namespace sparts
