// The archive's reads on PostgreSQL (schema version 6): each page of finished games read from
// an index in the order the page lists them, newest first, whatever the filters (a player, a
// preset, a date range, any of them together) and however many games the archive holds; as
// SQLite's (sqlite_archive.hpp), each page one statement.
#pragma once
#include <string>
#include <vector>
#include "storage/postgres/pg.hpp"
#include "storage/records.hpp"

namespace sparts::storage {

ArchivePage pg_list_games(pg::Connection& db, const ArchiveQuery& query);

// Retention: the oldest of the games finished before `before` (Store::oldest_games).
std::vector<ArchivedGameSummary> pg_oldest_games(pg::Connection& db, Millis before, int limit);

// What PostgreSQL's planner does with the statement `pg_list_games` runs for `query`, one line a
// line of EXPLAIN: for the tests that hold every page to an index.
std::vector<std::string> pg_list_games_plan(pg::Connection& db, const ArchiveQuery& query);

}  // namespace sparts::storage
