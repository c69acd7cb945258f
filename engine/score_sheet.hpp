// A hand's score for one side, as deltas by component (see ScoreComponent).
#pragma once

#include <array>
#include <cstdint>

#include "engine/event.hpp"

namespace sparts {

using ScoreSheet = std::array<std::int16_t, kScoreComponentCount>;

inline void add(ScoreSheet& sheet, ScoreComponent c, int delta) {
    sheet[static_cast<int>(c)] = static_cast<std::int16_t>(sheet[static_cast<int>(c)] + delta);
}
inline int get(const ScoreSheet& sheet, ScoreComponent c) { return sheet[static_cast<int>(c)]; }
inline int total(const ScoreSheet& sheet) {
    int t = 0;
    for (auto d : sheet) t += d;
    return t;
}

}  // namespace sparts
