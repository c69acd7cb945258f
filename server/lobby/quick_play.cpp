#include "server/lobby/quick_play.hpp"

#include <algorithm>
#include <cmath>

namespace sparts::server {

bool QuickPlayQueue::add(Waiting w) {
    if (contains(w.player)) return false;
    waiting_.push_back(std::move(w));
    return true;
}

bool QuickPlayQueue::remove(const std::string& player) {
    return std::erase_if(waiting_, [&](const Waiting& w) { return w.player == player; }) > 0;
}

bool QuickPlayQueue::contains(const std::string& player) const {
    return std::any_of(waiting_.begin(), waiting_.end(), [&](const Waiting& w) { return w.player == player; });
}

double QuickPlayQueue::band(Clock::duration waited) {
    const double seconds = std::chrono::duration<double>(waited).count();
    return 100.0 + 100.0 * std::max(0.0, seconds);
}

std::vector<QuickPlayQueue::Match> QuickPlayQueue::match(Clock::time_point now) {
    std::vector<Match> made;
    std::vector<bool> taken(waiting_.size(), false);
    for (std::size_t anchor = 0; anchor < waiting_.size(); ++anchor) {
        if (taken[anchor]) continue;
        const Waiting& a = waiting_[anchor];
        const double band_a = band(now - a.since);
        std::vector<std::size_t> group{anchor};
        for (std::size_t i = anchor + 1; i < waiting_.size() && static_cast<int>(group.size()) < seats_; ++i) {
            if (taken[i]) continue;
            // Both must accept the other: the newcomer's narrower band counts too.
            const double limit = std::min(band_a, band(now - waiting_[i].since));
            if (std::abs(waiting_[i].rating - a.rating) <= limit) group.push_back(i);
        }
        const bool full = static_cast<int>(group.size()) == seats_;
        if (!full && now - a.since < bot_wait_) continue;
        Match m;
        for (std::size_t i : group) {
            taken[i] = true;
            m.players.push_back(waiting_[i].player);
        }
        m.bots = seats_ - static_cast<int>(group.size());
        made.push_back(std::move(m));
    }
    std::vector<Waiting> left;
    for (std::size_t i = 0; i < waiting_.size(); ++i)
        if (!taken[i]) left.push_back(std::move(waiting_[i]));
    waiting_ = std::move(left);
    return made;
}

}  // namespace sparts::server
