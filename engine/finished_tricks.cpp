#include "engine/finished_tricks.hpp"

namespace sparts {

std::vector<TrickWon> finished_tricks(const Game& game) {
    const GameState& s = game.state();
    if (!s.plays_recorded) return {};
    const int n = game.rules().seats;
    const int finished = s.played_count / n;
    std::vector<TrickWon> out;
    out.reserve(static_cast<std::size_t>(finished));
    for (int t = 0; t < finished; ++t) {
        TrickWon w{static_cast<std::uint8_t>(t + 1), s.trick_leaders[t], kNoSeat, static_cast<std::uint8_t>(n), {}};
        for (int i = 0; i < n; ++i) w.cards[i] = s.played_in_order[t * n + i];
        // Each trick's winner leads the next; the last one's holds the lead after it.
        w.winner = t + 1 < finished || s.trick.count > 0 ? s.trick_leaders[t + 1] : s.trick.leader;
        out.push_back(w);
    }
    return out;
}

}  // namespace sparts
