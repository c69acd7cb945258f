// The ratings table on SQLite (schema version 7): the writer's part, which applies a rated
// game's end inside the commit that ends it (a single writer: reading the rows and writing
// them back in its transaction is all the locking it needs), and the reads of the
// leaderboard and the player page.
#pragma once
#include <optional>
#include <string>
#include <SQLiteCpp/SQLiteCpp.h>
#include "storage/records.hpp"

namespace sparts::storage {

class SqliteRatings {
public:
    explicit SqliteRatings(SQLite::Database& db);
    // In the writer's transaction: the game's players' rows read, rated, written back.
    void finish(const FinishGame& game);
    // In the writer's transaction: every row replaced by these.
    void replace(const std::vector<PresetRating>& rows);
    // In the writer's transaction: these rows of ratings_retired written (RetireGames).
    void retire(const std::vector<PresetRating>& rows);

private:
    void put(SQLite::Statement& into, const PresetRating& row);

    SQLite::Database& db_;
    SQLite::Statement get_, put_, put_retired_;
};

LeaderboardPage sqlite_leaderboard(SQLite::Database& db, const LeaderboardQuery& query);
std::optional<PlayerRatings> sqlite_player_ratings(SQLite::Database& db, const std::string& player);
// EXPLAIN QUERY PLAN of the leaderboard's first stretch, a stretch from a cursor, and a player's
// rows: one line each, its steps joined by " | " (for the tests that hold them to an index).
std::vector<std::string> sqlite_ratings_plan(SQLite::Database& db);
// Every row of ratings_retired (Store::retired_ratings).
std::vector<PresetRating> sqlite_retired_ratings(SQLite::Database& db);

}  // namespace sparts::storage
