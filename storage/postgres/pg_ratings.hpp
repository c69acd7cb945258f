// The ratings table on PostgreSQL (schema version 3): the statements a commit that ends rated
// games adds (its players' rows made and locked, read, then written back with their new
// ratings: pg_store.cpp runs them), and the reads of the leaderboard and the player page.
#pragma once
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "storage/commit_queue.hpp"
#include "storage/postgres/pg.hpp"
#include "storage/records.hpp"

namespace sparts::storage {

// Prepared once per connection, with the store's others.
const std::vector<std::pair<const char*, const char*>>& pg_rating_statements();

// Every (player, preset) row the group's rated games need, sorted (rows are locked in that order).
std::vector<std::pair<std::string, std::string>> rating_keys(const std::deque<CommitQueue::Pending>& group);
// The parameters of "ratings_lock" and "ratings_read" for those keys.
pg::Params rating_key_params(const std::vector<std::pair<std::string, std::string>>& keys);
// The rows "ratings_read" returned.
std::vector<PresetRating> rating_rows(const pg::Result& r);
// The parameters of "ratings_put" for these rows.
pg::Params rating_put_params(const std::vector<PresetRating>& rows);

LeaderboardPage pg_leaderboard(pg::Connection& db, const LeaderboardQuery& query);
std::optional<PlayerRatings> pg_player_ratings(pg::Connection& db, const std::string& player);
// Every row of ratings_retired (Store::retired_ratings).
std::vector<PresetRating> pg_retired_ratings(pg::Connection& db);

}  // namespace sparts::storage
