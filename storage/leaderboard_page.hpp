// A leaderboard page, the same for every backend, from the board read in its order (rating,
// best first, then player id: the index ratings_board) a stretch at a time.
//
// Players with fewer than min_games rated games are skipped as the board is read, and a page
// reads at most kMostRead rows of it: a min_games that few players reach would otherwise read
// the whole board for one page. Such a page holds fewer than `limit` players, with a cursor to
// go on from where it stopped (docs/PROTOCOL.md, "Ratings"). Ranks go on from the cursor's
// (leaderboard_cursor.hpp), so that no page counts the players ahead of it.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>
#include "storage/leaderboard_cursor.hpp"
#include "storage/rating_records.hpp"

namespace sparts::storage {

inline constexpr int kMostRead = 2000;

struct BoardReads {
    // Up to `n` rows of the preset in board order, after `after` (from the top: none), each with
    // its player's name.
    std::function<std::vector<PresetRating>(const std::optional<LeaderboardCursor>& after, int n)> read;
    // An older server's cursor (no rank): how many players with min_games ahead of it, counted.
    std::function<std::int64_t(const LeaderboardCursor& at)> ahead;
};

LeaderboardPage leaderboard_page(const LeaderboardQuery& query, const BoardReads& reads);

}  // namespace sparts::storage
