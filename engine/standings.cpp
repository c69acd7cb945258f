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

}  // namespace sparts
