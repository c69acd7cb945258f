#include "storage/leaderboard_page.hpp"

#include <algorithm>

namespace sparts::storage {

LeaderboardPage leaderboard_page(const LeaderboardQuery& query, const BoardReads& reads) {
    const auto cursor = LeaderboardCursor::parse(query.cursor);
    const int limit = std::clamp(query.limit, 1, 500);
    const std::int64_t before = !cursor ? 0 : cursor->rank ? *cursor->rank : reads.ahead(*cursor);
    LeaderboardPage page;
    page.first_rank = before + 1;
    std::optional<LeaderboardCursor> at = cursor;
    int read = 0;
    bool ended = false;
    // One more than the page, to know whether the board goes on after it.
    while (static_cast<int>(page.players.size()) <= limit && read < kMostRead) {
        const int n = std::min(std::max(limit + 1, 100), kMostRead - read);
        const std::vector<PresetRating> rows = reads.read(at, n);
        read += static_cast<int>(rows.size());
        for (const PresetRating& row : rows) {
            at = LeaderboardCursor{row.rating, row.player};
            if (row.games < query.min_games) continue;
            page.players.push_back(row);
            if (static_cast<int>(page.players.size()) > limit) break;
        }
        if (static_cast<int>(rows.size()) < n) {
            ended = static_cast<int>(page.players.size()) <= limit;
            break;
        }
    }
    if (static_cast<int>(page.players.size()) > limit) {
        page.players.pop_back();
        const PresetRating& last = page.players.back();
        page.next_cursor = LeaderboardCursor{last.rating, last.player, before + limit}.text();
    } else if (!ended && at) {
        // The stretch a page may read is read: the next page goes on after its last row.
        at->rank = before + static_cast<std::int64_t>(page.players.size());
        page.next_cursor = at->text();
    }
    return page;
}

}  // namespace sparts::storage
