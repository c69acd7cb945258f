// Ratings over HTTP, as JSON (storage/README.md, "Ratings"), beside the archive and under
// its per-address read limit (archive_api.cpp hands these paths here):
//
//   GET /api/leaderboard/{preset}?limit=50&cursor=C&min_games=1
//       -> {"preset", "min_games", "players":[{rank, player, name, rating, deviation, volatility,
//           games, wins}], "next_cursor": C | null}   best rating first, then by player id. A page
//           reads at most 2,000 rows of the board (storage/leaderboard_page.hpp): with a min_games
//           few players reach, it may hold fewer than `limit` players, even none, and still a
//           next_cursor; a client pages on until next_cursor is null.
//   GET /api/players/{id}
//       -> {"player", "name", "ratings":[{preset, rating, deviation, volatility, games, wins,
//           statistics:{...}, last_game:{table, game, change, finished}}]}
//
// Errors as the archive's: 400 bad_parameter (an unknown preset or parameter, a value out of
// bounds, a malformed player id), 404 no_such_player, 503 no_archive (--database none).
#pragma once
#include <map>
#include <string>
#include <string_view>
#include "server/archive/archive_api.hpp"

namespace sparts::storage {
class Store;
}

namespace sparts::server {

// Whether `path` is one of the paths above.
bool is_ratings_path(std::string_view path);

ApiResponse ratings_api(std::string_view path, const std::map<std::string, std::string>& params, storage::Store& store);

}  // namespace sparts::server
